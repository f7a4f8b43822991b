/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-run.h"

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
        "network.qp_errors",
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
        "jobs[].error_completions",
        "flows.tenants[].retransmissions",
        "flows.tenants[].retransmissions_repair",
        "flows.tenants[].retransmissions_spurious",
        "flows.tenants[].timeouts",
        "flows.tenants[].error_completions",
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
    if (FabricRanks::GetNRanks() > 1)
    {
        throw ScenarioError("--backend", "the flow backend runs on one process only");
    }
}

namespace scenario
{

void
ScenarioRun::BuildFluid()
{
    // A fluid flow follows a path through the fabric; ring neighbours whose
    // GPUs share a NIC have none (packets go out and back through the leaf).
    for (size_t i = 0; i < m_cfg.jobs.size(); ++i)
    {
        const auto& job = m_cfg.jobs[i];
        // the fluid model runs ring allreduces; other collectives and
        // replayed workloads need the packet backend
        if (job.workload.trace ||
            (job.collective != "ring-allreduce" && job.collective != "all-reduce") ||
            (job.algorithm.count("all-reduce") && job.algorithm.at("all-reduce") != "ring"))
        {
            throw ScenarioError("jobs[" + std::to_string(i) + "]",
                                "the flow backend (and --bound) models ring all-reduce jobs "
                                "only; this job needs the packet backend");
        }
        for (uint32_t r = 0; r < job.ranks; ++r)
        {
            const uint32_t next = (r + 1) % job.ranks;
            if (job.hosts[r] == job.hosts[next])
            {
                throw ScenarioError(
                    "jobs[" + std::to_string(i) + "]",
                    "ranks " + std::to_string(r) + " and " + std::to_string(next) + " (GPUs " +
                        std::to_string(job.gpus[r]) + " and " + std::to_string(job.gpus[next]) +
                        ") share host " + std::to_string(job.hosts[r]) +
                        "'s NIC: the flow backend has no path between them (use the packet "
                        "backend, or GPUs of different NICs)");
            }
        }
    }
    m_fluid = FluidNetworkHelper().Install(m_topo, m_nics);
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
    r.sim.rateUpdates = m_fluid->GetRateUpdates();
    r.sim.flowsAllocated = m_fluid->GetFlowsAllocated();
    r.traces = false; // (r.links: Collect took the fluid's link bits)
    r.rates.clear();
    r.queues.clear();
}

} // namespace scenario
} // namespace ns3
