/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A scenario run split over MPI processes (FabricRanks): what the processes
// tell each other during the run (flows ended, the stall check).

#include "scenario-run.h"

#include "ns3/fabric-ranks.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/pfc-channel.h"
#include "ns3/scenario-error.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioDistributed");

namespace scenario
{

namespace
{

/// Notice kinds.
enum NoticeKind : uint64_t
{
    FLOW_ENDED = 0,   //!< a tenant's flow finished or failed: tenant, time step, flow id
    STALL_REPORT = 1, //!< a part of the stall check: tick, rank, rx, held, paused
};

} // namespace

void
ScenarioRun::SetupDistributed()
{
    m_tenantEnded.assign(m_tenants.size(), 0);
    if (FabricRanks::GetNRanks() > 1)
    {
        m_topic = FabricRanks::Subscribe(MakeCallback(&ScenarioRun::NoticeReceived, this));
    }
    // after every node of the fabric: the processes' mailboxes come last
    const std::string problem = FabricRanks::Prepare();
    if (!problem.empty())
    {
        throw ScenarioError("topology", problem);
    }
}

void
ScenarioRun::FlowEnded(uint32_t tenant, uint64_t id)
{
    if (!m_mpi)
    {
        m_endAt = std::max(m_endAt, Simulator::Now());
    }
    else
    {
        // a flow's first end counts (its second, if any, changes nothing)
        if (m_flowsEnded.emplace(tenant, id).second)
        {
            ++m_tenantEnded[tenant];
            m_endAt = std::max(m_endAt, Simulator::Now());
        }
        FabricRanks::Publish(
            m_topic,
            {FLOW_ENDED, tenant, static_cast<uint64_t>(Simulator::Now().GetTimeStep()), id});
    }
    CheckDone();
}

void
ScenarioRun::NoticeReceived(const std::vector<uint64_t>& words)
{
    if (words.size() == 6 && words[0] == STALL_REPORT)
    {
        StallReport(words[1], static_cast<uint32_t>(words[2]), words[3], words[4], words[5]);
        return;
    }
    NS_ABORT_MSG_IF(words.size() != 4 || words[0] != FLOW_ENDED || words[1] >= m_tenants.size(),
                    "ScenarioRun: an unknown notice");
    const auto tenant = static_cast<uint32_t>(words[1]);
    if (m_flowsEnded.emplace(tenant, words[3]).second)
    {
        ++m_tenantEnded[tenant];
        m_endAt = std::max(m_endAt, TimeStep(static_cast<int64_t>(words[2])));
    }
    CheckDone();
}

void
ScenarioRun::ReportStall()
{
    if (m_stallWindow.IsZero() || m_stopping)
    {
        return;
    }
    bool held = false;
    for (const auto& s : m_topo.switches)
    {
        if (FabricRanks::IsLocal(*s.node) && s.sw->GetMmu()->GetTotalUsed() > 0)
        {
            held = true;
            break;
        }
    }
    bool paused = false;
    for (const auto& link : m_topo.links)
    {
        if (link.tx->GetPausedMask() != 0 && FabricRanks::IsLocal(*link.tx->GetNode()))
        {
            paused = true;
            break;
        }
    }
    const auto tick = static_cast<uint64_t>(Simulator::Now().GetTimeStep());
    const uint32_t rank = FabricRanks::GetRank();
    FabricRanks::Publish(m_topic, {STALL_REPORT, tick, rank, m_dataPacketsRx, held, paused});
    StallReport(tick, rank, m_dataPacketsRx, held, paused);
}

void
ScenarioRun::StallReport(uint64_t tick, uint32_t /* rank */, uint64_t rx, bool held, bool paused)
{
    if (m_stopping)
    {
        return;
    }
    m_stallReports[tick].push_back({rx, held, paused});
    // The check of CheckStall(), on the whole fabric, tick by tick once
    // every process has reported.
    const std::size_t ranks = FabricRanks::GetNRanks();
    while (!m_stallReports.empty() && m_stallReports.begin()->second.size() == ranks)
    {
        const Time t = TimeStep(static_cast<int64_t>(m_stallReports.begin()->first));
        uint64_t rxAll = 0;
        bool heldAny = false;
        bool pausedAny = false;
        for (const auto& report : m_stallReports.begin()->second)
        {
            rxAll += report[0];
            heldAny = heldAny || report[1] != 0;
            pausedAny = pausedAny || report[2] != 0;
        }
        m_stallReports.erase(m_stallReports.begin());
        if (rxAll != m_dataPacketsRxSeen || !(heldAny && pausedAny))
        {
            m_dataPacketsRxSeen = rxAll;
            m_progressAt = t;
            continue;
        }
        if (t - m_progressAt < m_stallWindow)
        {
            continue;
        }
        NS_LOG_INFO("no data packet delivered since " << m_progressAt.As(Time::MS)
                                                      << " while PFC holds packets: stalled");
        m_stopReason = "stalled";
        m_stopping = true;
        m_stallReports.clear();
        KeyMonitorEvent(2);
        Simulator::Schedule(t + m_completionLatency - Simulator::Now(),
                            &ScenarioRun::Stalled,
                            this);
        return;
    }
}

void
ScenarioRun::Stalled()
{
    Simulator::Stop();
}

} // namespace scenario
} // namespace ns3
