/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-runner.h"

#include "scenario-run.h"

#include "ns3/config.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/log.h"
#include "ns3/memory-estimate.h"
#include "ns3/object-factory.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <ctime>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace scenario
{

/// Simulated time of a number of milliseconds.
Time
FromMs(double ms)
{
    return NanoSeconds(static_cast<int64_t>(ms * 1e6));
}

/// Wall-clock seconds since a start point.
double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

SeedScope::SeedScope(uint32_t seed, uint32_t runSeed)
    : m_runSeed(runSeed)
{
    RngSeedManager::SetSeed(seed);
}

SeedScope::~SeedScope()
{
    RngSeedManager::SetSeed(m_runSeed);
}

/// CPU seconds the process has used so far.
static double
ProcessCpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

/**
 * \param setter a FabricTopologyHelper setter (GetOwnSetter)
 * \return the scenario keys it is called with
 */
static std::string
ScenarioKeysOf(const std::string& setter)
{
    static const std::map<std::string, std::string> keys = {
        {"SetBufferSize", "topology.buffer_mb"},
        {"SetPfc", "transport.pfc"},
        {"SetLosslessPriorities", "priorities of the jobs and tenants"},
        {"SetEcn", "transport.ecn"},
        {"SetLinkDelay and SetMtu", "topology.link_delay_us and transport.mtu_bytes"},
        {"SetHostRate and SetFabricRate", "topology.host_gbps and topology.fabric_gbps"},
        {"SetMtu", "transport.mtu_bytes"},
        {"SetLinkDelay", "topology.link_delay_us"},
        {"SetEcmpSeed", "seeds.ecmp"},
    };
    const auto it = keys.find(setter);
    return it != keys.end() ? it->second : "topology and transport";
}

void
ScenarioRun::ResetNs3()
{
    if (!FabricRanks::IsEnabled())
    {
        // (under MPI, destroying the simulator also ends its MPI interface:
        // the simulator MpiInterface::Enable made is the one to run)
        Simulator::Destroy();
    }
    Config::Reset();
    RngSeedManager::SetSeed(m_cfg.seed);
    RngSeedManager::SetRun(1);
    if (FabricRanks::IsEnabled())
    {
        // Config::Reset chose the default simulator again: the distributed
        // one, with the OrderedScheduler whatever event_scheduler says.
        FabricRanks::SelectSimulator();
    }
    else
    {
        ObjectFactory events;
        events.SetTypeId(ScenarioConfig::EventSchedulerTypeName(m_cfg.eventScheduler));
        Simulator::SetScheduler(events);
    }
    // The DCQCN profile and the congestion control's keys first, so that
    // ns3_defaults can still change any single attribute.
    for (const auto& [name, value] : m_cfg.transport.dcqcn.HostAttributes(m_cfg.topology.hostGbps))
    {
        Config::SetDefault(name, StringValue(value));
    }
    // The congestion control's keys (transport.<cc>), checked when parsed.
    for (const auto& setting : m_cfg.transport.ccSettings)
    {
        Config::SetDefault(setting.attribute, StringValue(setting.value));
    }
    for (const auto& [name, value] : m_cfg.ns3Defaults)
    {
        // the fabric's helper would set it over the default, without a word
        const std::string own = FabricTopologyHelper::GetOwnSetter(name);
        if (!own.empty())
        {
            throw ScenarioError("ns3_defaults[\"" + name + "\"]",
                                "the fabric is built with this attribute from the scenario's " +
                                    ScenarioKeysOf(own) + " (FabricTopologyHelper::" + own +
                                    "): give it there");
        }
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw ScenarioError("ns3_defaults[\"" + name + "\"]",
                                "not an ns-3 attribute, or the value does not fit it");
        }
    }
}

void
ScenarioRun::RestoreNs3()
{
    Simulator::Destroy();
    Config::Reset();
}

void
ScenarioRun::SafetyStop()
{
    m_stopReason = "stop_ms";
    Simulator::Stop();
}

RunResults
ScenarioRun::Simulate()
{
    const Time stop = NanoSeconds(static_cast<int64_t>(m_cfg.stopMs * 1e6));
    Simulator::Schedule(stop, &ScenarioRun::SafetyStop, this);
    // A stall is no progress for stall_ms; with PFC watchdogs, which
    // act on pauses of DetectionTime, that much longer.
    if (m_cfg.stallMs > 0)
    {
        Time detection;
        for (const auto& s : m_topo.switches)
        {
            for (uint32_t p = 0; p < s.sw->GetNPorts(); ++p)
            {
                if (Ptr<PfcWatchdog> wd = s.sw->GetPortDevice(p)->GetWatchdog())
                {
                    detection = std::max(detection, wd->GetDetectionTime());
                }
            }
        }
        m_stallWindow = FromMs(m_cfg.stallMs) + detection;
    }
    KeyMonitorEvent(0);
    Simulator::Schedule(MicroSeconds(100), &ScenarioRun::Progress, this);
    const auto runStart = std::chrono::steady_clock::now();
    const double cpuStart = ProcessCpuSeconds();
    Simulator::Run();
    const auto runEnd = std::chrono::steady_clock::now();
    const double cpuEnd = ProcessCpuSeconds();
    RunResults results = Collect(WallSince(m_wall0));
    if (m_opts.layout)
    {
        FillLayout(*m_opts.layout);
    }
    if (m_mpi || m_cfg.eventScheduler == "ordered")
    {
        // (on one process with "ordered": the same canonical order of
        // flows and samples as under MPI)
        MergeProcesses(results);
    }
    if (m_opts.timeline)
    {
        CollectTimeline(results, *m_opts.timeline);
    }
    if (m_opts.timings)
    {
        m_opts.timings->buildS = std::chrono::duration<double>(runStart - m_wall0).count();
        m_opts.timings->runS = std::chrono::duration<double>(runEnd - runStart).count();
        m_opts.timings->runCpuS = cpuEnd - cpuStart;
        m_opts.timings->collectS = WallSince(runEnd);
        CountFrames(*m_opts.timings);
    }
    return results;
}

void
ScenarioRun::CountFrames(RunTimings& timings) const
{
    UintegerValue control(TrafficClass::CONTROL);
    if (!m_nics.empty())
    {
        m_nics[0]->GetAttribute("ControlPriority", control);
    }
    for (const auto& link : m_topo.links)
    {
        timings.frames += link.tx->GetTxFrames();
        for (uint8_t cls = 0; cls < TrafficClass::N_CLASSES; ++cls)
        {
            timings.dataFrames += cls == control.Get() ? 0 : link.tx->GetTxFrames(cls);
        }
    }
    if (m_mpi)
    {
        // (a process counts the frames its own devices sent: the others' are 0)
        const std::vector<uint64_t> sums =
            FabricRanks::SumToRoot({timings.frames, timings.dataFrames});
        timings.frames = sums[0];
        timings.dataFrames = sums[1];
    }
}

RunResults
ScenarioRun::Run()
{
    m_wall0 = std::chrono::steady_clock::now();
    // Under MPI (on any number of processes, so that the results do not
    // depend on it) a collective's completion and the end of the run reach
    // every process: they take at least a link's delay and two time steps.
    m_mpi = FabricRanks::IsEnabled();
    double latencyUs = m_cfg.completionLatencyUs;
    if (m_mpi)
    {
        latencyUs = std::max(latencyUs, m_cfg.topology.linkDelayUs + 0.002);
    }
    m_completionLatency = NanoSeconds(static_cast<int64_t>(std::llround(latencyUs * 1e3)));
    RunResults results;
    try
    {
        CheckBackend(m_opts);
        if (m_opts.timeline && FabricRanks::GetNRanks() > 1)
        {
            throw ScenarioError("--timeline",
                                "not on several MPI processes: each holds only its own ranks' "
                                "steps");
        }
        ResetNs3();
        BuildScheduler();
        BuildNetwork();
        BuildJobs();
        BuildBackground();
        ApplyFaults();
        SetupTraces();
        SetupProgress();
        SetupDistributed();
        m_scheduler->Start();
        for (const auto& j : m_jobs)
        {
            j->Start();
        }
        for (const auto& t : m_tenants)
        {
            t->Start();
        }
        if (m_opts.started)
        {
            m_opts.started();
        }
        if (!m_opts.checkOnly)
        {
            results = Simulate();
        }
    }
    catch (...)
    {
        RestoreNs3();
        throw;
    }
    const auto teardownStart = std::chrono::steady_clock::now();
    if (m_scheduler)
    {
        m_scheduler->Dispose();
        m_scheduler = nullptr;
    }
    if (m_fluid)
    {
        m_fluid->Dispose();
        m_fluid = nullptr;
    }
    m_jobs.clear();
    m_tenants.clear();
    m_nics.clear();
    m_topo = FabricTopology();
    RestoreNs3();
    if (m_opts.timings)
    {
        m_opts.timings->teardownS = WallSince(teardownStart);
    }
    return results;
}

} // namespace scenario

RunResults
RunScenario(const ScenarioConfig& cfg, const RunOptions& opts)
{
    // Before any ns-3 object is built: refuse what this machine cannot hold.
    MemoryEstimate::Check(cfg, opts.backend == "flow");
    scenario::ScenarioRun run(cfg, opts);
    return run.Run();
}

} // namespace ns3
