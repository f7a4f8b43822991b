/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "ns3/run-results.h"
#include "ns3/scenario-config.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

class TimelineData;

/**
 * \ingroup flux-scenario
 * \brief Wall-clock time of each phase of RunScenario, in seconds.
 *
 * The simulation proper is run; everything else is the runner's own work.
 */
struct RunTimings
{
    double buildS = 0;       //!< reset ns-3, build fabric, NICs, jobs and tenants
    double runS = 0;         //!< Simulator::Run()
    double runCpuS = 0;      //!< CPU time of the process during Simulator::Run()
    double collectS = 0;     //!< gather the results
    double teardownS = 0;    //!< release the network and Simulator::Destroy()
    uint64_t frames = 0;     //!< frames sent by all devices (packet-hops: data, control, PFC)
    uint64_t dataFrames = 0; //!< IPv4 frames outside the NICs' control class (data packet-hops)
};

/**
 * \ingroup flux-scenario
 * \brief What a run knows of its fabric and paths beyond the results
 * (RunOptions::layout): what the bound of scenario-bound.h reads.
 */
struct RunLayout
{
    /// One link direction.
    struct Link
    {
        std::string name; //!< e.g. "leaf0->spine1"
        double bps{0};    //!< its rate, bit/s
        double bits{0};   //!< bits it carried during the run, on the wire
    };

    /// Per job, scenario order: the UDP source port of rank 0's queue pair
    /// (rank r sends from it + r), which picks the job's ECMP paths.
    std::vector<uint16_t> portBases;
    /// Every link direction, in topology order. The bits are the flow
    /// backend's wire bits (payload plus the per-packet overhead) or the
    /// packet backend's frames with preamble and inter-frame gap (data,
    /// ACKs and PFC frames alike).
    std::vector<Link> links;
};

/**
 * \ingroup flux-scenario
 * \brief How RunScenario runs, beyond the scenario itself.
 */
struct RunOptions
{
    /// Folder for one Ethernet pcap per host NIC (and possibly switch
    /// ports); empty: no pcap.
    std::string pcapDir;
    /// Hosts whose NIC a pcap is written for (empty: all; --pcap-hosts).
    std::vector<uint32_t> pcapHosts;
    /// Bytes kept of each captured frame (--pcap-snaplen; 65535: whole frames).
    uint32_t pcapSnapLen = 65535;
    /// Capture window, ms: frames before pcapStartMs and from pcapStopMs on
    /// are left out (pcapStopMs 0: no end; --pcap-window).
    double pcapStartMs = 0;
    double pcapStopMs = 0; //!< end of the capture window, ms (0: none)
    /// Whether to keep the run silent (no ns-3 logging enabled by the runner).
    bool quiet = false;
    /// Called now and then during the run with the simulated time (ms), the
    /// wall-clock time since the start (s) and an estimate of the wall-clock
    /// time left (s, negative when unknown). May be empty.
    std::function<void(double simMs, double wallS, double etaS)> progress;
    /// Called once the fabric, jobs and tenants are built (every check made
    /// while building passed), before the simulation starts. May be empty.
    std::function<void()> started;
    /// When set and it becomes true, the run stops as soon as possible and
    /// returns what was measured, with sim.stopReason "cancelled".
    const std::atomic<bool>* cancel = nullptr;
    /// When set, receives the wall-clock time of each phase of the run.
    RunTimings* timings = nullptr;
    /// The model that runs: "packet" (every frame through the devices and
    /// switches) or "flow" (messages as fluid flows on the same paths, see
    /// FluidNetwork).
    std::string backend = "packet";
    /// At flow level, whether flows share the links they cross
    /// (FluidNetwork::Shared); false gives each flow its path's rate, as
    /// the bound's contention-free runs do.
    bool fluidShared = true;
    /// Build the run and stop before its first event (flux-run --check):
    /// what only the build finds (a fault's or a trace's link, a workload
    /// file's ranks, the memory it needs) is refused; the results are empty.
    bool checkOnly = false;
    /// Per job of the scenario, in order: the UDP source port of rank 0's
    /// queue pair, in place of the one drawn from the run's port stream (0 or
    /// absent: the drawn one). The draw still happens, so the other jobs'
    /// ports do not move; a run of a job without the jobs listed before it
    /// takes the paths it has with them by passing their RunLayout::portBases.
    std::vector<uint16_t> portBases;
    /// When set, receives the run's RunLayout (on one process; under MPI,
    /// the link directions of this process carry bits).
    RunLayout* layout = nullptr;
    /// When set, receives the run's timeline (one process per job with its
    /// iterations, per-rank compute, collective steps and gate holds; the
    /// traced links; the background tenants), gathered after the run from
    /// what the jobs record anyway: nothing is recorded for it while the
    /// run goes on. Not under MPI on several processes (ScenarioError
    /// naming --timeline).
    TimelineData* timeline = nullptr;
};

/**
 * \ingroup flux-scenario
 * \brief Refuse a backend that cannot run with these options: one that is
 * neither "packet" nor "flow", or "flow" with a pcap folder or under MPI.
 * RunScenario checks it first; a caller may check before it creates
 * anything.
 * \param opts the options
 *
 * Throws ScenarioError naming the option (--backend, --pcap).
 */
void CheckBackend(const RunOptions& opts);

/**
 * \ingroup flux-scenario
 * \brief Read a list of hosts as --pcap-hosts takes it: numbers and ranges,
 * comma-separated ("0,3,8-11").
 * \param text the list
 * \return the hosts, ascending, each once
 *
 * Throws ScenarioError naming --pcap-hosts.
 */
std::vector<uint32_t> ParsePcapHosts(const std::string& text);

/**
 * \ingroup flux-scenario
 * \brief Read a capture window as --pcap-window takes it: "START:STOP" in
 * ms, STOP empty for no end ("2:5", "10:").
 * \param text the window
 * \param opts where pcapStartMs and pcapStopMs go
 *
 * Throws ScenarioError naming --pcap-window.
 */
void ParsePcapWindow(const std::string& text, RunOptions& opts);

/**
 * \ingroup flux-scenario
 * \brief Build the topology, jobs and background traffic of a scenario, run
 * the simulation and collect the measurements.
 * \param cfg a scenario validated by ParseScenario
 * \param opts run options
 * \return the measurements
 *
 * Applies cfg.ns3Defaults with Config::SetDefault and the seed with
 * RngSeedManager, runs until every job and traffic pattern is done or
 * cfg.stopMs, and leaves ns-3's global state (simulator, nodes, channels,
 * configuration defaults) reset, so that it can be called many times in one
 * process. Throws ScenarioError for a scenario problem found only while
 * building it.
 */
RunResults RunScenario(const ScenarioConfig& cfg, const RunOptions& opts);

} // namespace ns3

#endif /* SCENARIO_RUNNER_H */
