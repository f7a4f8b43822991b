/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The transport settings that depend on the built topology: the base RTT
 * of the congestion controls that take one, and DCQCN's window in BDPs.
 */

#include "scenario-run.h"

#include "ns3/int-header.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace scenario
{

void
ScenarioRun::ConfigureTransport()
{
    if (m_nics.empty() || m_cfg.ns3Defaults.count("ns3::RdmaNic::CongestionControl"))
    {
        return; // (the scenario's factory sets what it sets)
    }
    // (a window of one BDP holds a sender at line rate only if it counts
    // the packets whose ACK the receiver holds back)
    auto ackEvery = [this](const std::string& attribute) {
        UintegerValue every;
        m_nics[0]->GetAttribute(attribute, every);
        return static_cast<uint32_t>(every.Get());
    };
    // DCQCN with a window: whole BDPs of the topology, as the HPCC
    // simulator's DCQCN+w.
    const auto& dcqcn = m_cfg.transport.dcqcn;
    if (m_cfg.transport.cc == "dcqcn" && dcqcn.windowBdp > 0)
    {
        const Time rtt = m_topo.GetMaxBaseRtt(m_cfg.transport.mtuBytes, 0, ackEvery("AckInterval"));
        const auto bytes = static_cast<uint64_t>(
            std::ceil(dcqcn.windowBdp * m_cfg.topology.hostGbps * 1e9 / 8 * rtt.GetSeconds()));
        const std::string cc = "ns3::DcqcnCongestionControl[Window=" + std::to_string(bytes) +
                               "|VariableWindow=" + (dcqcn.variableWindow ? "true" : "false") + "]";
        for (const auto& nic : m_nics)
        {
            nic->SetAttribute("CongestionControl", StringValue(cc));
        }
        return;
    }
    // Congestion controls with a BaseRtt attribute (hpcc, dctcp) get the
    // topology's largest base RTT (held ACKs counted) unless the scenario
    // sets it.
    const std::string type = RdmaCongestionControl::GetAlgorithmTypeName(m_cfg.transport.cc);
    if (type.empty())
    {
        return;
    }
    // the TypeId that declares BaseRtt: the algorithm's or a parent's
    std::string owner;
    for (TypeId t = TypeId::LookupByName(type); owner.empty(); t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == "BaseRtt")
            {
                owner = t.GetName();
            }
        }
        if (t.GetParent() == t)
        {
            break;
        }
    }
    if (owner.empty())
    {
        return;
    }
    const std::string attribute = owner + "::BaseRtt";
    if (m_cfg.ns3Defaults.count(attribute))
    {
        return; // set by the scenario
    }
    for (const auto& s : m_cfg.transport.ccSettings)
    {
        if (s.attribute == attribute)
        {
            return;
        }
    }
    uint32_t intBytes = 0;
    uint32_t every = ackEvery("AckInterval");
    {
        ObjectFactory factory;
        factory.SetTypeId(type);
        Ptr<RdmaCongestionControl> probe = factory.Create<RdmaCongestionControl>();
        if (probe->UsesInt())
        {
            UintegerValue hops;
            m_nics[0]->GetAttribute("IntMaxHops", hops);
            intBytes = IntHeader::SizeFor(static_cast<uint8_t>(hops.Get()));
            every = ackEvery("IntAckInterval");
        }
        probe->Dispose();
    }
    const Time rtt = m_topo.GetMaxBaseRtt(m_cfg.transport.mtuBytes, intBytes, every);
    const std::string cc = type + "[BaseRtt=" + std::to_string(rtt.GetNanoSeconds()) + "ns]";
    for (const auto& nic : m_nics)
    {
        nic->SetAttribute("CongestionControl", StringValue(cc));
    }
}

} // namespace scenario
} // namespace ns3
