/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ScenarioRun's faults: loss per link, links going down and up, and the
// routes recomputed after them (the rest of the build: scenario-build.cc).

#include "scenario-run.h"

#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/pfc-channel.h"
#include "ns3/pointer.h"
#include "ns3/scenario-error.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{
namespace scenario
{

void
ScenarioRun::ApplyFaults()
{
    int64_t stream = STREAM_FAULTS;
    for (std::size_t i = 0; i < m_cfg.faults.size(); ++i)
    {
        const auto& f = m_cfg.faults[i];
        const std::string field = "faults[" + std::to_string(i) + "].link";
        // The link directions the entry names.
        std::vector<uint32_t> dirs;
        if (f.link == "all")
        {
            for (uint32_t l = 0; l < m_topo.links.size(); ++l)
            {
                dirs.push_back(l);
            }
        }
        else
        {
            const auto cable = f.link.find("<->");
            const bool both = cable != std::string::npos;
            const auto sep = both ? cable : f.link.find("->");
            const std::string a = f.link.substr(0, sep);
            const std::string b = f.link.substr(sep + (both ? 3 : 2));
            const int64_t ab = m_topo.FindLink(a + "->" + b);
            if (ab < 0)
            {
                throw ScenarioError(field,
                                    "no link between " + a + " and " + b + " in this topology");
            }
            dirs.push_back(static_cast<uint32_t>(ab));
            if (both)
            {
                // every cable has both directions
                dirs.push_back(static_cast<uint32_t>(m_topo.FindLink(b + "->" + a)));
            }
        }
        for (uint32_t l : dirs)
        {
            if (f.lossRate > 0)
            {
                Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
                em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
                em->SetAttribute("ErrorRate", DoubleValue(f.lossRate));
                stream += em->AssignStreams(stream);
                m_topo.links[l].rx->SetAttribute("ReceiveErrorModel", PointerValue(em));
            }
            else if (f.setsLoss)
            {
                // a later entry's 0 replaces an earlier rate
                PointerValue earlier;
                m_topo.links[l].rx->GetAttribute("ReceiveErrorModel", earlier);
                if (const auto em = earlier.Get<ErrorModel>())
                {
                    em->Disable();
                }
            }
        }
        if (f.downMs)
        {
            // The switches at the cable's ends see it at once (FabricSwitch
            // failover); the routing converges route_convergence_ms later.
            const auto& conv = m_cfg.topology.routeConvergenceMs;
            Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(m_topo.links[dirs[0]].tx->GetChannel());
            Simulator::Schedule(FromMs(*f.downMs), &ScenarioRun::CableDown, this, ch);
            if (conv && *f.downMs + *conv < m_cfg.stopMs)
            {
                Simulator::Schedule(FromMs(*f.downMs + *conv), &ScenarioRun::UpdateRoutes, this);
            }
            if (f.upMs && *f.upMs < m_cfg.stopMs)
            {
                Simulator::Schedule(FromMs(*f.upMs), &ScenarioRun::CableUp, this, ch);
                if (conv && *f.upMs + *conv < m_cfg.stopMs)
                {
                    Simulator::Schedule(FromMs(*f.upMs + *conv), &ScenarioRun::UpdateRoutes, this);
                }
            }
        }
    }
}

void
ScenarioRun::CableDown(Ptr<PfcChannel> channel)
{
    if (m_cableDowns[PeekPointer(channel)]++ == 0)
    {
        channel->SetLinkUp(false);
    }
}

void
ScenarioRun::CableUp(Ptr<PfcChannel> channel)
{
    // up again once every entry that took it down has ended
    if (--m_cableDowns[PeekPointer(channel)] == 0)
    {
        channel->SetLinkUp(true);
    }
}

void
ScenarioRun::UpdateRoutes()
{
    m_topo.ComputeRoutes();
    ++m_routeUpdates;
    if (m_fluid)
    {
        m_fluid->RefreshPaths();
    }
}

} // namespace scenario
} // namespace ns3
