/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-sections.h"

#include "ns3/rdma-nic.h"
#include "ns3/scenario-json.h"

#include <cmath>
#include <map>

namespace ns3
{
namespace scenario
{

namespace
{

/**
 * \brief Warn when the packet level can lose frames and the transport's
 * timer is long: go-back-N sends a lost tail again only when the timer
 * expires, and NCCL's default (ack_timeout 20, 4.29 s) is meant for
 * lossless fabrics.
 * \param cfg the scenario
 */
void
WarnLossyTimer(ScenarioConfig& cfg)
{
    std::string lossy;
    for (std::size_t i = 0; i < cfg.faults.size() && lossy.empty(); ++i)
    {
        if (cfg.faults[i].lossRate > 0 || cfg.faults[i].downMs)
        {
            lossy = Index("faults", i) + (cfg.faults[i].downMs ? ".down_ms" : ".loss_rate");
        }
    }
    if (!cfg.transport.pfc)
    {
        lossy = "transport.pfc false";
    }
    else if (lossy.empty() && cfg.pfcWatchdog.enabled && cfg.pfcWatchdog.action == "drop")
    {
        lossy = "pfc_watchdog (action drop)";
    }
    const uint32_t t = cfg.transport.ackTimeout;
    // (a timer of 10 ms and less stays within a few iterations' time)
    const double ms = RdmaNic::AckTimeoutToTime(static_cast<uint8_t>(t)).GetSeconds() * 1e3;
    if (lossy.empty() || (t > 0 && ms <= 10) ||
        cfg.ns3Defaults.count("ns3::RdmaNic::RetransmitTimeout"))
    {
        return;
    }
    cfg.packetWarnings.push_back(
        lossy + " can lose frames at packet level, and transport.ack_timeout " + std::to_string(t) +
        (t == 0
             ? " (no timer) never sends a lost tail again"
             : " sends a lost tail again only after " + Num(std::round(ms * 100) / 100) + " ms") +
        ": set it near the round trip (8: 1.05 ms)");
}

/**
 * \brief Warn when the tenants offer a host more than its link carries at
 * once (each tenant's load is at most 1, but tenants on the same hosts add
 * up): their flows pile up until stop_ms, which slows the run and grows its
 * memory with the backlog.
 * \param cfg the scenario
 */
void
WarnOverload(ScenarioConfig& cfg)
{
    using Kind = ScenarioConfig::BackgroundConfig::Kind;
    double worst = 0;
    uint32_t host = 0;
    for (const auto& at : cfg.background) // at each tenant's start
    {
        std::map<uint32_t, double> load;
        for (const auto& b : cfg.background)
        {
            if (b.kind == Kind::CDF && b.startMs <= at.startMs &&
                (!b.stopMs || *b.stopMs > at.startMs))
            {
                for (uint32_t h : b.hosts)
                {
                    load[h] += b.load;
                }
            }
        }
        for (const auto& [h, l] : load)
        {
            if (l > worst + 1e-9)
            {
                worst = l;
                host = h;
            }
        }
    }
    if (worst > 1 + 1e-9)
    {
        cfg.warnings.push_back("background: the tenants offer host " + std::to_string(host) + " " +
                               Num(std::round(worst * 100) / 100) +
                               " of its link at once: their flows pile up until stop_ms, and the "
                               "run slows and takes more memory as the backlog grows");
    }
}

/**
 * \brief Pass on what a workload's reader left out of its file (an AICB
 * file's collectives of one-rank groups: ZeRO-3's parameter all-gathers
 * with a tensor-parallel group of 1 among them).
 * \param cfg the scenario
 */
void
WarnWorkloadNotes(ScenarioConfig& cfg)
{
    for (std::size_t j = 0; j < cfg.jobs.size(); ++j)
    {
        const auto& wc = cfg.jobs[j].workload;
        for (const auto& note : wc.trace ? wc.trace->notes : std::vector<std::string>{})
        {
            cfg.warnings.push_back("jobs[" + std::to_string(j) + "].workload." + wc.kind + ": " +
                                   note);
        }
    }
}
} // namespace

void
AddWarnings(ScenarioConfig& cfg)
{
    WarnLossyTimer(cfg);
    WarnOverload(cfg);
    WarnWorkloadNotes(cfg);
}

} // namespace scenario

std::vector<std::string>
ScenarioConfig::WarningsFor(const std::string& backend) const
{
    std::vector<std::string> all = warnings;
    if (backend != "flow")
    {
        all.insert(all.end(), packetWarnings.begin(), packetWarnings.end());
    }
    return all;
}

} // namespace ns3
