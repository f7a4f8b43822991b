/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_RUN_H
#define SCENARIO_RUN_H

#include "progress-estimator.h"
#include "scenario-runner.h"

#include "ns3/fabric-topology.h"
#include "ns3/flow-traffic.h"
#include "ns3/fluid-network.h"
#include "ns3/job-scheduler.h"
#include "ns3/pfc-channel.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/sample-summary.h"
#include "ns3/training-job.h"

#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class TimelineBuilder;

namespace scenario
{

/// Random stream indices, fixed so that repeated runs in one process agree.
constexpr int64_t STREAM_FABRIC = 1000;
constexpr int64_t STREAM_PORTS = 100;
constexpr int64_t STREAM_TENANTS = 2000;
constexpr int64_t STREAM_FAULTS = 100000;

/**
 * \brief While it lives, ns-3 random streams whose stream number is set
 * (RandomVariableStream::SetStream) draw from another seed than the run's:
 * each stream takes RngSeedManager's seed when its number is set, so the
 * streams of one random source (ScenarioConfig::seeds) can have a seed of
 * their own while every other stream keeps the run's.
 */
class SeedScope
{
  public:
    /**
     * \param seed the seed of the streams set while it lives
     * \param runSeed the run's seed, given back at the end of the scope
     */
    SeedScope(uint32_t seed, uint32_t runSeed);
    ~SeedScope();
    SeedScope(const SeedScope&) = delete;
    SeedScope& operator=(const SeedScope&) = delete;

  private:
    uint32_t m_runSeed; //!< the seed given back
};

/**
 * \return the results fields the flow backend cannot know (RunResults::backendLimits)
 */
const std::vector<std::string>& FlowBackendLimits();

/// The phases of one job as its collective traces them ("Phase").
struct PhaseLog
{
    uint32_t buckets{1};                      //!< collective runs per iteration
    uint32_t steps{0};                        //!< steps per run
    std::vector<RunResults::PhaseTime> times; //!< finished phases, in finishing order
};

/**
 * \brief Key the next scheduled event as a decision of the run's monitor
 *        (OrderedScheduler): after everything the model keys at that time.
 * \param index which decision (0: progress and stall checks, 1: queue and
 *        rate samples, 2: a stall every process agreed on)
 */
void KeyMonitorEvent(uint32_t index);

/**
 * \param ms a number of milliseconds
 * \return the simulated time
 */
Time FromMs(double ms);

/**
 * \param t0 a start point
 * \return wall-clock seconds since t0
 */
double WallSince(std::chrono::steady_clock::time_point t0);

/**
 * \ingroup flux-scenario
 * \brief One run of a scenario: builds the network and workload, runs the
 * simulation, and gathers the results.
 *
 * Its work is in three files by concern: building the network and
 * workload (scenario-build.cc), watching the run (scenario-monitor.cc:
 * completion, stalls, traces, progress) and collecting the results
 * (scenario-collect.cc); scenario-runner.cc runs it.
 */
class ScenarioRun
{
  public:
    /**
     * \param cfg the scenario
     * \param opts run options
     */
    ScenarioRun(const ScenarioConfig& cfg, const RunOptions& opts)
        : m_cfg(cfg),
          m_opts(opts),
          m_jobsLeft(0),
          m_stopReason("completed")
    {
    }

    /** \return the results (none with RunOptions::checkOnly) */
    RunResults Run();

  private:
    /// Reset ns-3's global state and apply the scenario's defaults.
    void ResetNs3();
    /// Destroy the simulator and give ns-3's attribute defaults and global
    /// values back as they were before ResetNs3(), so that what runs next in
    /// the process (a notebook, a test suite) inherits neither the
    /// scenario's ns3_defaults nor its policy's queue disc.
    void RestoreNs3();
    /// Create the scheduler of the policy and let it pick the jobs' classes.
    void BuildScheduler();
    /// Build switches, links, hosts and NICs.
    void BuildNetwork();
    /// Create the training jobs.
    void BuildJobs();

    /**
     * \brief Run what is built to the end and collect what was measured.
     * \return the results
     */
    RunResults Simulate();

    /**
     * \param nic a host's NIC
     * \return the host's index
     */
    uint32_t HostOf(Ptr<RdmaNic> nic) const;
    /// The flow backend: a FluidNetwork carries the NICs' messages
    /// (scenario-flow.cc).
    void BuildFluid();
    /// Write pcaps as the options ask (scenario-pcap.cc).
    void EnablePcap();
    /**
     * \brief The flow backend's part of the results.
     * \param r the results, collected as for packets
     */
    void CollectFluid(RunResults& r) const;
    /// The transport settings that depend on the topology: a congestion
    /// control with a BaseRtt attribute (hpcc, dctcp) gets the topology's
    /// largest base RTT, unless the scenario sets it; DCQCN its window in BDPs.
    void ConfigureTransport();
    /// Create the background tenants.
    void BuildBackground();
    /// Install the scenario's link faults.
    void ApplyFaults();
    /**
     * \brief A fault entry takes a cable down (it stays down until every
     * entry that took it down has ended).
     * \param channel the cable
     */
    void CableDown(Ptr<PfcChannel> channel);
    /**
     * \brief A fault entry's down time ends.
     * \param channel the cable
     */
    void CableUp(Ptr<PfcChannel> channel);
    /// Recompute every switch's routes over the cables that are up (routing converged).
    void UpdateRoutes();
    /// Resolve the traced links and start sampling.
    void SetupTraces();
    /// Count the work known up front, for the progress estimate.
    void SetupProgress();
    /** \return the work counted by the progress estimate done so far, bytes */
    double WorkDone() const;
    /// Take one sample of the traced rates and queues.
    void Sample();
    /**
     * \brief Sample one sending queue pair.
     * \param owner its job or tenant
     * \param qp the queue pair
     */
    /**
     * \brief Take one rate sample.
     * \param owner a job's index, or the number of jobs plus a tenant's index
     * \param qp the sending queue pair
     * \param position its place in its owner's list (collective queue pair, flow id)
     */
    void SampleRate(uint32_t owner, const Ptr<RdmaQueuePair>& qp, uint64_t position);
    /**
     * \param owner as SampleRate takes it
     * \return the job's or tenant's name
     */
    const std::string& OwnerName(uint32_t owner) const;
    /**
     * \brief A job failed (a queue pair exhausted its retries).
     * \param job the job
     */
    void JobFailed(Ptr<TrainingJob> job);
    /**
     * \brief A job finished.
     * \param job the job
     */
    void JobFinished(Ptr<TrainingJob> job);
    /**
     * \brief A background flow finished.
     * \param tenant its tenant's index
     * \param rec the flow
     */
    void FlowFinished(uint32_t tenant, const FlowTraffic::FlowRecord& rec);
    /**
     * \brief A background flow's sender has the ACK of its last byte: its
     * line of the HPCC FCT file (scenario-hpcc-fct.cc).
     * \param tenant its tenant's index
     * \param rec the flow, fct up to that ACK
     */
    void FlowAcked(uint32_t tenant, const FlowTraffic::FlowRecord& rec);
    /**
     * \brief The ideal FCT of the HPCC simulator (its fct_analysis): the
     * base RTT of the flow's path (two propagation delays and one payload's
     * transmission per hop) plus the flow's bytes with 48 header bytes per
     * packet at the path's slowest rate, in whole nanoseconds.
     * \param rec the flow
     * \return nanoseconds
     */
    uint64_t HpccIdealFctNs(const FlowTraffic::FlowRecord& rec) const;
    /**
     * \brief A tenant's flow failed (its sender's retries ran out).
     * \param tenant the tenant's index
     * \param id the flow's id
     */
    void FlowFailed(uint32_t tenant, uint64_t id);
    /// Stop the run (CompletionLatency after the last job or flow ended).
    void EndRun();
    /**
     * \brief A tenant's flow ended here: under MPI tell the other processes.
     * \param tenant the tenant's index
     * \param id the flow's id
     */
    void FlowEnded(uint32_t tenant, uint64_t id);
    /// Under MPI: listen to the other processes (scenario-distributed.cc).
    void SetupDistributed();
    /**
     * \brief A notice from another process.
     * \param words kind, then what it says
     */
    void NoticeReceived(const std::vector<uint64_t>& words);
    /**
     * \brief Under MPI: add the other processes' parts to the results, on
     *        rank 0, in an order that does not depend on the split.
     * \param r this process's results
     */
    void MergeProcesses(RunResults& r) const;
    /// Under MPI: tell every process this one's part of the stall check.
    void ReportStall();
    /**
     * \brief Under MPI: a process's part of the stall check at a tick.
     * \param tick the check's time step
     * \param rank the process
     * \param rx its data packets received so far
     * \param held whether its switches hold packets
     * \param paused whether one of its ports is paused
     */
    void StallReport(uint64_t tick, uint32_t rank, uint64_t rx, bool held, bool paused);
    /// The stall check's verdict (CompletionLatency after its tick).
    void Stalled();
    /**
     * \brief A data packet arrived at a NIC.
     * \param host the NIC's host
     * \param qpn queue pair
     * \param latency one-way latency
     */
    void PacketLatency(uint32_t host, uint32_t qpn, Time latency);
    /**
     * \brief Count the data packets a queue pair receives as its owner's.
     * \param qp the queue pair
     * \param owner a job's index, or the number of jobs plus a tenant's index
     */
    void SetQpOwner(const Ptr<RdmaQueuePair>& qp, uint32_t owner);
    /// Stop when every job and every flow is done.
    void CheckDone();
    /**
     * \brief Stop when the fabric has made no progress for the stall window.
     * \return true when the run is stopped
     */
    bool CheckStall();
    /**
     * \return true when some switch holds packets and some port (switch or
     * host) is paused by its peer: work that waits on PFC
     */
    bool WorkWaitsOnPfc() const;
    /// The scenario's stop_ms was reached.
    void SafetyStop();
    /// Periodic progress report and cancellation check.
    void Progress();
    /**
     * \brief FCT of a flow alone on the idle fabric, on the path its
     * packets take now (called when it finishes: a link that fails later
     * changes nothing).
     * \param rec the flow
     * \return the ideal FCT
     */
    Time IdealFct(const FlowTraffic::FlowRecord& rec) const;

    /**
     * \param rec a flow
     * \return the path of its ideal FCT: the one its packets take now, or,
     *         when a fault leaves it none, a shortest path on the intact
     *         fabric (FabricTopology::GetBuiltPath)
     */
    std::vector<uint32_t> PathForIdeal(const FlowTraffic::FlowRecord& rec) const;

    /// A finished flow.
    struct FinishedFlow
    {
        uint32_t tenant;             //!< its tenant's index
        FlowTraffic::FlowRecord rec; //!< the flow
        double idealFctUs;           //!< IdealFct() when it finished, us
    };

    /**
     * \param flow a finished flow
     * \return its results entry
     */
    RunResults::FlowResult ToFlowResult(const FinishedFlow& flow) const;
    /**
     * \param bits per link direction: bits on the wire
     * \param simS simulated seconds
     * \return the busiest link directions, by utilisation
     */
    std::vector<RunResults::LinkUtilization> BusiestLinks(const std::vector<double>& bits,
                                                          double simS) const;
    /**
     * \brief Gather everything measured.
     * \param wallS wall-clock seconds of the run
     * \return the results
     */
    RunResults Collect(double wallS) const;
    /**
     * \return per link direction: the bits it carried so far, on the wire
     *         (see RunLayout::Link)
     */
    std::vector<double> LinkBits() const;
    /**
     * \brief The links each job's ring sends cross (from its queue pairs'
     * source ports at the end of the run) and where jobs' paths meet
     * (RunResults::JobResult::links, RunResults::ecmp).
     * \param r the results, with their jobs
     */
    void CollectJobPaths(RunResults& r) const;
    /**
     * \brief Describe the run's paths and link loads (RunOptions::layout).
     * \param layout where to put them
     */
    void FillLayout(RunLayout& layout) const;
    /**
     * \brief Fill the run's timeline (RunOptions::timeline, scenario-timeline.cc):
     * the jobs, the traced links and the background tenants.
     * \param r the results, collected
     * \param t the timeline
     */
    void CollectTimeline(const RunResults& r, TimelineData& t) const;
    /**
     * \brief One job's process: iterations, per-rank compute, collective
     * runs, steps and gate holds, and its class changes.
     * \param b the builder
     * \param t its timeline
     * \param j the job's index
     */
    void TimelineJob(TimelineBuilder& b, TimelineData& t, uint32_t j) const;
    /**
     * \brief The traced links' process: utilisation and queue counters.
     * \param r the results, with their queue samples
     * \param t the timeline
     * \param sortIndex its process's place
     */
    void TimelineLinks(const RunResults& r, TimelineData& t, int32_t sortIndex) const;
    /**
     * \brief The background tenants' process: flows in flight and finished.
     * \param r the results, with their flows
     * \param t the timeline
     * \param sortIndex its process's place
     */
    void TimelineTenants(const RunResults& r, TimelineData& t, int32_t sortIndex) const;
    /**
     * \brief Count the frames the devices sent (the run's packet-hops).
     * \param timings where to put them
     */
    void CountFrames(RunTimings& timings) const;

    const ScenarioConfig& m_cfg;                     //!< the scenario
    const RunOptions& m_opts;                        //!< run options
    FabricTopology m_topo;                           //!< the network
    std::vector<Ptr<RdmaNic>> m_nics;                //!< NIC of each host
    std::map<const RdmaNic*, uint32_t> m_hostOfNic;  //!< host of each NIC (BuildJobs)
    Ptr<FluidNetwork> m_fluid;                       //!< the flow backend's fabric, or nullptr
    std::vector<Ptr<TrainingJob>> m_jobs;            //!< the jobs, scenario order
    std::vector<uint16_t> m_portBases;               //!< per job: rank 0's UDP source port
    std::vector<std::unique_ptr<PhaseLog>> m_phases; //!< each job's traced phases
    Ptr<JobScheduler> m_scheduler;                   //!< the policy
    std::vector<Ptr<FlowTraffic>> m_tenants;         //!< background tenants, scenario order
    std::vector<bool> m_tenantOpenEnded;             //!< arrivals end with the last job
    std::vector<double> m_tenantArrivalsEndMs;       //!< when arrivals end(ed), ms, or NaN
    std::vector<FinishedFlow> m_flows;               //!< finished flows
    /// flows acknowledged in full, as lines of the HPCC FCT file (hpcc_fct)
    std::vector<RunResults::HpccFctRecord> m_hpccFct;
    /// per owner (jobs, then tenants, then packets of no owner): the one-way
    /// latency of the data packets it received, us
    std::vector<SampleSummary> m_latencyUs;
    static constexpr uint32_t NO_OWNER = 0xffffffff; //!< a queue pair no job or tenant owns
    /// per host, per QP number: the queue pair's owner (NO_OWNER: none)
    std::vector<std::vector<uint32_t>> m_qpOwner;
    uint32_t m_jobsLeft;                         //!< jobs neither finished nor failed
    uint32_t m_jobsFailed{0};                    //!< jobs failed
    std::vector<uint32_t> m_traceLinks;          //!< traced link directions (indices)
    std::vector<uint64_t> m_traceWireBytes;      //!< their wire bytes at the last sample
    std::vector<RunResults::RateSample> m_rates; //!< sampled rates
    /// Per rate sample: its owner and its queue pair's place in the owner's list.
    std::vector<std::pair<uint32_t, uint64_t>> m_rateOrder;
    std::vector<std::size_t> m_queueTrace;         //!< per queue sample: its index in m_traceLinks
    std::vector<RunResults::QueueSample> m_queues; //!< sampled queues
    uint64_t m_routeUpdates{0};                    //!< route recomputations
    std::map<const PfcChannel*, uint32_t>
        m_cableDowns;                              //!< per cable: fault entries holding it down
    std::string m_stopReason;                      //!< why the run ended
    std::chrono::steady_clock::time_point m_wall0; //!< wall-clock start
    double m_lastReport{-1};                       //!< wall time of the last progress report
    uint64_t m_dataPacketsRx{0};                   //!< data packets that reached a NIC
    uint64_t m_dataPacketsRxSeen{0};               //!< m_dataPacketsRx at the last stall check
    Time m_progressAt;                             //!< last stall check that saw progress
    Time m_stallWindow;                            //!< no progress this long: stalled (0: off)
    ProgressEstimator m_eta;                       //!< estimate of the wall time left
    std::vector<Ptr<RdmaQueuePair>> m_jobQps;      //!< the jobs' queue pairs
    std::vector<bool> m_tenantCounted;             //!< tenant's traffic is in the work total
    std::vector<uint64_t> m_tenantFlowBytes;       //!< bytes of each tenant's finished flows
    bool m_mpi{false};                             //!< under MPI (any number of processes)
    Time m_completionLatency;                      //!< collectives' and the run's end latency
    uint32_t m_topic{0};                           //!< FabricRanks notice topic
    std::vector<uint64_t> m_tenantEnded;           //!< per tenant: flows ended, all processes
    /// Under MPI: the flows known to have ended (tenant, id). Under MPI a
    /// flow whose data arrived but whose sender then ran out of retries
    /// ends at both processes; it counts once.
    std::set<std::pair<uint32_t, uint64_t>> m_flowsEnded;
    Time m_endAt;           //!< latest end of a job or flow seen
    bool m_stopping{false}; //!< the end of the run is scheduled
    /// Under MPI: per tick, the processes' reports (rx, held, paused) so far.
    std::map<uint64_t, std::vector<std::array<uint64_t, 3>>> m_stallReports;
};

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_RUN_H */
