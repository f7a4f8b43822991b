/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-run.h"

#include "ns3/boolean.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fluid-network-helper.h"
#include "ns3/scenario-error.h"
#include "ns3/traffic-class.h"

namespace ns3
{
namespace scenario
{

const std::vector<std::string>&
FlowBackendLimits()
{
    // What a fluid model has no way of knowing: it has no queues and no
    // packets.
    static const std::vector<std::string> limits = {
        "packet_latency_us",
        "network.drops",
        "network.pfc_pauses",
        "network.pfc_pauses_by_tier",
        "network.pfc_pauses_by_link",
        "network.ecn_marks",
        "network.cnps",
        "network.retransmissions",
        "network.retransmissions_repair",
        "network.retransmissions_spurious",
        "network.timeouts",
        "network.link_losses",
        "network.link_down_drops",
        "network.pfc_watchdog_storms",
        "network.pfc_watchdog_restorations",
        "network.pfc_watchdog_drops",
        "network.pfc_watchdog_forwarded",
        "jobs[].retransmissions",
        "jobs[].retransmissions_repair",
        "jobs[].retransmissions_spurious",
        "jobs[].timeouts",
        "jobs[].packet_latency_us",
        "flows.tenants[].retransmissions",
        "flows.tenants[].retransmissions_repair",
        "flows.tenants[].retransmissions_spurious",
        "flows.tenants[].timeouts",
        "flows.tenants[].packet_latency_us",
        "traces",
    };
    return limits;
}

} // namespace scenario

void
CheckBackend(const RunOptions& opts)
{
    if (opts.backend == "packet")
    {
        return;
    }
    if (opts.backend != "flow")
    {
        throw ScenarioError("--backend",
                            "expected \"packet\" or \"flow\", got \"" + opts.backend + "\"");
    }
    if (!opts.pcapDir.empty())
    {
        throw ScenarioError("--pcap", "the flow backend sends no packets to capture");
    }
    if (FabricRanks::IsEnabled())
    {
        // (on one MPI process too: the run would take MPI's completion
        // latency and gather its links' bits as a split fabric does)
        throw ScenarioError("--backend", "the flow backend runs on one process, without mpirun");
    }
}

namespace scenario
{

void
ScenarioRun::BuildFluid()
{
    // Every job runs: its collectives (or replayed workload) post RDMA
    // messages on queue pairs, which the fluid carries on their ECMP paths;
    // ranks of one server talk over its GPU interconnect at both levels.
    FluidNetworkHelper helper;
    helper.SetAttribute("Shared", BooleanValue(m_opts.fluidShared));
    m_fluid = helper.Install(m_topo, m_nics);
    if (!m_scheduler->GetJobClasses().empty())
    {
        std::vector<uint8_t> order;
        TrafficClass::ParseOrder(m_scheduler->GetClassOrderString(), order);
        m_fluid->SetClassOrder(order);
    }
}

void
ScenarioRun::CollectFluid(RunResults& r) const
{
    r.backend = "flow";
    r.backendLimits = FlowBackendLimits();
    for (const auto& limit : m_scheduler->GetFlowLevelLimits())
    {
        r.backendLimits.push_back(limit); // what the policy does that a fluid cannot
    }
    // a fluid's rates are max-min fair shares, whatever the congestion
    // control and its settings
    r.backendLimits.emplace_back("transport.cc");
    for (const auto& s : m_cfg.transport.ccSettings)
    {
        r.backendLimits.push_back("transport." + s.algorithm + "." + s.key);
    }
    bool lossy = false;
    for (std::size_t i = 0; i < m_cfg.faults.size(); ++i)
    {
        if (m_cfg.faults[i].lossRate > 0)
        {
            // a fluid loses nothing (and so retransmits nothing)
            r.backendLimits.push_back("faults[" + std::to_string(i) + "].loss_rate");
            lossy = true;
        }
    }
    if (lossy)
    {
        // a fluid's queue pairs fail only when a path is cut for longer than
        // their retries last: losses that exhaust them are not modelled
        for (const char* field :
             {"network.qp_errors", "jobs[].error_completions", "flows.tenants[].error_completions"})
        {
            r.backendLimits.emplace_back(field);
        }
    }
    r.sim.rateUpdates = m_fluid->GetRateUpdates();
    r.sim.flowsAllocated = m_fluid->GetFlowsAllocated();
    r.traces = false; // (r.links: Collect took the fluid's link bits)
    r.rates.clear();
    r.queues.clear();
}

} // namespace scenario
} // namespace ns3
