/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-runner.h"

#include "fabric-topology-helper.h"
#include "fabric-topology.h"
#include "memory-estimate.h"
#include "progress-estimator.h"
#include "rdma-helper.h"
#include "scenario-error.h"
#include "training-job-helper.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/ib-bth-header.h"
#include "ns3/incast-traffic.h"
#include "ns3/int-header.h"
#include "ns3/job-scheduler.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/pointer.h"
#include "ns3/poisson-traffic.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-nic.h"
#include "ns3/ring-allreduce.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-port-egress.h"
#include "ns3/traffic-class.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioRunner");

namespace
{

/// Random stream indices, fixed so that repeated runs in one process agree.
constexpr int64_t STREAM_FABRIC = 1000;
constexpr int64_t STREAM_PORTS = 100;
constexpr int64_t STREAM_TENANTS = 2000;
constexpr int64_t STREAM_FAULTS = 100000;

/// The phases of one job as its collective traces them ("Phase").
struct PhaseLog
{
    uint32_t buckets{1};                      //!< collective runs per iteration
    uint32_t steps{0};                        //!< steps per run
    std::vector<RunResults::PhaseTime> times; //!< finished phases, in finishing order
};

/**
 * \brief Collective "Phase" sink: the last rank finished a step.
 * \param log the job's phases
 * \param run the collective run (iteration x buckets + bucket)
 * \param step the step within the run
 * \param start when the first rank started the step
 * \param end now
 */
void
PhaseEnded(PhaseLog* log, uint32_t run, uint32_t step, Time start, Time end)
{
    RunResults::PhaseTime pt;
    pt.iteration = run / log->buckets;
    pt.step = (run % log->buckets) * log->steps + step;
    pt.startMs = start.GetSeconds() * 1e3;
    pt.durationMs = (end - start).GetSeconds() * 1e3;
    log->times.push_back(pt);
}

/// Simulated time of a number of milliseconds.
Time
FromMs(double ms)
{
    return NanoSeconds(static_cast<int64_t>(ms * 1e6));
}

/**
 * \brief The base RTT HPCC needs: the largest over the paths from host 0
 * (every path length of the symmetric topologies) of the propagation delays
 * both ways plus one data frame's and one ACK's serialization per hop, as
 * the HPCC authors' simulator takes the largest base RTT of its topology.
 * \param topo the topology
 * \param mtu RDMA payload bytes per packet
 * \param intBytes INT bytes per data packet and ACK
 * \return the base RTT
 */
Time
MaxBaseRtt(const FabricTopology& topo, uint32_t mtu, uint32_t intBytes)
{
    // Ethernet+VLAN 18, IPv4 20, UDP 8, BTH 12, RETH 16, ICRC 4; the ACK's AETH 4
    const uint32_t dataFrame = mtu + 78 + intBytes;
    const uint32_t ackFrame = 66 + intBytes;
    Time worst;
    for (uint32_t dst = 1; dst < topo.GetNHosts(); ++dst)
    {
        Time rtt;
        for (uint32_t l : topo.GetPath(0, dst, 49152))
        {
            const auto& link = topo.links[l];
            rtt += 2 * DynamicCast<PfcChannel>(link.tx->GetChannel())->GetDelay();
            rtt += link.tx->GetFrameTxTime(dataFrame) + link.tx->GetFrameTxTime(ackFrame);
        }
        worst = std::max(worst, rtt);
    }
    return worst;
}

/// The results' form of a queue pair's counters.
RunResults::TransportCounters
ToResults(const RdmaQueuePair::Counters& c)
{
    RunResults::TransportCounters t;
    t.retransmissions = c.retransmitted;
    t.repair = c.repairsReceived;
    // Every copy that did not deliver new data: duplicates, copies still in
    // flight at the end, copies lost themselves.
    t.spurious = c.retransmitted - std::min(c.retransmitted, c.repairsReceived);
    t.timeouts = c.timeouts;
    t.errorCompletions = c.errorCompletions;
    return t;
}

/// Wall-clock seconds since a start point.
double
WallSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// CPU seconds the process has used so far.
double
ProcessCpuSeconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

/**
 * \brief One run of a scenario: builds the network and workload, runs the
 * simulation, and gathers the results.
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

    /** \return the results */
    RunResults Run();

  private:
    /// Reset ns-3's global state and apply the scenario's defaults.
    void ResetNs3();
    /// Create the scheduler of the policy and let it pick the jobs' classes.
    void BuildScheduler();
    /**
     * \brief Count the frames the devices sent (the run's packet-hops).
     * \param timings where to put them
     */
    void CountFrames(RunTimings& timings) const;
    /// Build switches, links, hosts and NICs.
    void BuildNetwork();
    /// Create the training jobs.
    void BuildJobs();
    /// HPCC: give the queue pairs the topology's base RTT.
    void ConfigureHpcc();
    /// Create the background tenants.
    void BuildBackground();
    /// Install the scenario's link faults.
    void ApplyFaults();
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
    void SampleRate(const std::string& owner, const Ptr<RdmaQueuePair>& qp);
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
     * \brief A data packet arrived at a NIC.
     * \param qpn queue pair
     * \param payload payload bytes
     * \param latency one-way latency
     */
    void PacketLatency(uint32_t qpn, uint32_t payload, Time latency);
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
     * \brief FCT of a flow alone on the idle fabric.
     * \param rec the flow
     * \return the ideal FCT
     */
    Time IdealFct(const FlowTraffic::FlowRecord& rec) const;
    /**
     * \brief Gather everything measured.
     * \param wallS wall-clock seconds of the run
     * \return the results
     */
    RunResults Collect(double wallS) const;

    const ScenarioConfig& m_cfg;                     //!< the scenario
    const RunOptions& m_opts;                        //!< run options
    FabricTopology m_topo;                           //!< the network
    std::vector<Ptr<RdmaNic>> m_nics;                //!< NIC of each host
    std::vector<Ptr<TrainingJob>> m_jobs;            //!< the jobs, scenario order
    std::vector<std::unique_ptr<PhaseLog>> m_phases; //!< each job's traced phases
    Ptr<JobScheduler> m_scheduler;                   //!< the policy
    std::vector<Ptr<FlowTraffic>> m_tenants;         //!< background tenants, scenario order
    std::vector<bool> m_tenantOpenEnded;             //!< arrivals end with the last job
    std::vector<std::pair<uint32_t, FlowTraffic::FlowRecord>> m_flows; //!< finished flows
    SampleSummary m_latencyUs;                     //!< one-way packet latency, us
    uint32_t m_jobsLeft;                           //!< jobs neither finished nor failed
    uint32_t m_jobsFailed{0};                      //!< jobs failed
    std::vector<uint32_t> m_traceLinks;            //!< traced link directions (indices)
    std::vector<uint64_t> m_traceWireBytes;        //!< their wire bytes at the last sample
    std::vector<RunResults::RateSample> m_rates;   //!< sampled rates
    std::vector<RunResults::QueueSample> m_queues; //!< sampled queues
    uint64_t m_routeUpdates{0};                    //!< route recomputations
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
};

void
ScenarioRun::ResetNs3()
{
    Simulator::Destroy();
    Config::Reset();
    RngSeedManager::SetSeed(m_cfg.seed);
    RngSeedManager::SetRun(1);
    ObjectFactory events;
    events.SetTypeId(ScenarioConfig::EventSchedulerTypeName(m_cfg.eventScheduler));
    Simulator::SetScheduler(events);
    // The DCQCN profile first, so that ns3_defaults can still change any
    // single attribute.
    for (const auto& [name, value] : m_cfg.transport.dcqcn.HostAttributes(m_cfg.topology.hostGbps))
    {
        Config::SetDefault(name, StringValue(value));
    }
    for (const auto& [name, value] : m_cfg.ns3Defaults)
    {
        if (!Config::SetDefaultFailSafe(name, StringValue(value)))
        {
            throw ScenarioError("ns3_defaults[\"" + name + "\"]",
                                "not an ns-3 attribute, or the value does not fit it");
        }
    }
}

void
ScenarioRun::BuildScheduler()
{
    m_scheduler = m_cfg.CreateScheduler();
    const std::string err = m_scheduler->AssignClasses(m_cfg.BackgroundClasses());
    if (!err.empty())
    {
        throw ScenarioError("scheduler.classes", err);
    }
    // Switch ports and NICs run what the policy needs, unless the scenario
    // chose them itself in ns3_defaults.
    ObjectFactory qdisc;
    if (m_scheduler->GetQueueDiscFactory(qdisc) &&
        !m_cfg.ns3Defaults.count("ns3::FabricSwitch::QueueDiscFactory"))
    {
        Config::SetDefault("ns3::FabricSwitch::QueueDiscFactory", ObjectFactoryValue(qdisc));
    }
    ObjectFactory arbiter;
    if (m_scheduler->GetQpArbiterFactory(arbiter) &&
        !m_cfg.ns3Defaults.count("ns3::RdmaNic::QpArbiter"))
    {
        Config::SetDefault("ns3::RdmaNic::QpArbiter", ObjectFactoryValue(arbiter));
    }
}

void
ScenarioRun::BuildNetwork()
{
    const auto& t = m_cfg.topology;
    const auto& tr = m_cfg.transport;
    FabricTopologyHelper helper;
    helper.SetHostRate(DataRate(static_cast<uint64_t>(t.hostGbps * 1e9)));
    helper.SetFabricRate(DataRate(static_cast<uint64_t>(t.fabricGbps * 1e9)));
    helper.SetLinkDelay(NanoSeconds(static_cast<int64_t>(t.linkDelayUs * 1000)));
    helper.SetBufferSize(static_cast<uint64_t>(t.bufferMb * 1e6));
    helper.SetPfc(tr.pfc);
    helper.SetEcn(static_cast<uint32_t>(tr.ecn.kminKb * 1000),
                  static_cast<uint32_t>(tr.ecn.kmaxKb * 1000),
                  tr.ecn.pmax);
    helper.SetEcmpSeed(m_cfg.seed);
    // Only the classes in use are lossless (each lossless class needs PFC
    // headroom on every port): the tenants' data classes and the control
    // class of ACK/NAK/CNP, as RoCE deployments configure it.
    // The jobs' data goes in the policy's classes, or in their own.
    uint8_t lossless = TrafficClass::Bit(TrafficClass::CONTROL) | m_cfg.BackgroundClasses() |
                       m_scheduler->GetClassMask();
    for (const auto& j : m_cfg.jobs)
    {
        if (m_scheduler->GetJobClasses().empty())
        {
            lossless |= TrafficClass::Bit(static_cast<uint8_t>(j.priority));
        }
    }
    helper.SetLosslessPriorities(lossless);
    if (m_cfg.pfcWatchdog.enabled)
    {
        const auto& w = m_cfg.pfcWatchdog;
        ObjectFactory watchdog;
        watchdog.SetTypeId(PfcWatchdog::GetTypeId());
        watchdog.Set("DetectionTime", TimeValue(FromMs(w.detectionMs)));
        watchdog.Set("RestorationTime", TimeValue(FromMs(w.restorationMs)));
        watchdog.Set("Action", StringValue(w.action));
        helper.SetSwitchAttribute("PfcWatchdogFactory", ObjectFactoryValue(watchdog));
        helper.SetSwitchAttribute("PfcWatchdog", BooleanValue(true));
    }
    try
    {
        if (t.kind == "leaf-spine")
        {
            m_topo = helper.BuildLeafSpine(t.leaves, t.spines, t.hostsPerLeaf);
        }
        else if (t.kind == "fat-tree")
        {
            m_topo = helper.BuildFatTree(t.k);
        }
        else if (t.kind == "ring")
        {
            m_topo = helper.BuildRing(t.switches, t.hostsPerSwitch);
        }
        else
        {
            m_topo = helper.BuildDumbbell(t.hostsPerSide);
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError("topology", e.what());
    }
    m_topo.AssignStreams(STREAM_FABRIC);

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(tr.mtuBytes));
    rdma.SetNicAttribute("AckTimeout", UintegerValue(tr.ackTimeout));
    rdma.SetNicAttribute("RetryCount", UintegerValue(tr.retryCnt));
    rdma.SetCongestionControl(tr.cc);
    for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic =
            rdma.Install(m_topo.hosts.Get(h), m_topo.hostDevices[h], m_topo.hostAddresses[h]);
        nic->TraceConnectWithoutContext("DataRx", MakeCallback(&ScenarioRun::PacketLatency, this));
        m_nics.push_back(nic);
    }
    if (tr.cc == "hpcc")
    {
        ConfigureHpcc();
    }
    if (!m_opts.pcapDir.empty())
    {
        std::error_code ec;
        std::filesystem::create_directories(m_opts.pcapDir, ec);
        if (ec)
        {
            throw ScenarioError("--pcap", "cannot create " + m_opts.pcapDir + ": " + ec.message());
        }
        m_topo.EnablePcapHosts(m_opts.pcapDir);
    }
}

void
ScenarioRun::ConfigureHpcc()
{
    if (m_cfg.ns3Defaults.count("ns3::HpccCongestionControl::BaseRtt") || m_nics.empty())
    {
        return; // set by the scenario
    }
    UintegerValue hops;
    m_nics[0]->GetAttribute("IntMaxHops", hops);
    const Time rtt = MaxBaseRtt(m_topo,
                                m_cfg.transport.mtuBytes,
                                IntHeader::SizeFor(static_cast<uint8_t>(hops.Get())));
    const std::string cc =
        "ns3::HpccCongestionControl[BaseRtt=" + std::to_string(rtt.GetNanoSeconds()) + "ns]";
    for (const auto& nic : m_nics)
    {
        nic->SetAttribute("CongestionControl", StringValue(cc));
    }
}

void
ScenarioRun::BuildJobs()
{
    Ptr<UniformRandomVariable> ports = CreateObject<UniformRandomVariable>();
    ports->SetStream(STREAM_PORTS);
    for (const auto& jc : m_cfg.jobs)
    {
        std::vector<Ptr<RdmaNic>> nics;
        for (uint32_t h : jc.hosts)
        {
            nics.push_back(m_nics[h]);
        }
        TrainingJobHelper jobs;
        jobs.SetCollectiveAttribute("PipelineBytes", UintegerValue(jc.chunkBytes));
        jobs.SetJobAttribute("Iterations", UintegerValue(jc.iterations));
        jobs.SetJobAttribute("ComputeTime",
                             TimeValue(NanoSeconds(static_cast<int64_t>(jc.computeMs * 1e6))));
        jobs.SetJobAttribute("GradientBytes", UintegerValue(jc.bytes));
        jobs.SetJobAttribute("Buckets", UintegerValue(jc.buckets));
        jobs.SetJobAttribute("StartTime",
                             TimeValue(NanoSeconds(static_cast<int64_t>(jc.startMs * 1e6))));
        const auto base = static_cast<uint16_t>(ports->GetInteger(49152, 65535 - jc.ranks));
        Ptr<TrainingJob> job = jobs.Install(jc.name, nics, static_cast<uint8_t>(jc.priority), base);
        job->GetCollective()->SetJobId(static_cast<uint32_t>(m_jobs.size()));
        job->SetFinishedCallback(MakeCallback(&ScenarioRun::JobFinished, this));
        job->SetFailedCallback(MakeCallback(&ScenarioRun::JobFailed, this));
        m_phases.push_back(std::make_unique<PhaseLog>());
        m_phases.back()->buckets = job->GetNBuckets();
        m_phases.back()->steps = job->GetCollective()->GetNSteps();
        job->GetCollective()->TraceConnectWithoutContext(
            "Phase",
            MakeBoundCallback(&PhaseEnded, m_phases.back().get()));
        // What the scheduler may know: the link directions each rank's sends
        // cross under the fabric's ECMP hashing, and the slowest of their rates.
        JobScheduler::JobInfo info;
        info.job = job;
        info.index = static_cast<uint32_t>(m_jobs.size());
        info.scenarioClass = static_cast<uint8_t>(jc.priority);
        double bottleneck = 0;
        for (uint32_t r = 0; r < jc.ranks; ++r)
        {
            const uint32_t next = (r + 1) % jc.ranks;
            info.rankLinks.push_back(
                m_topo.GetPath(jc.hosts[r], jc.hosts[next], static_cast<uint16_t>(base + r)));
            for (uint32_t l : info.rankLinks.back())
            {
                const double bps =
                    static_cast<double>(m_topo.links[l].tx->GetDataRate().GetBitRate());
                bottleneck = bottleneck == 0 ? bps : std::min(bottleneck, bps);
            }
        }
        info.bottleneckBps = bottleneck;
        m_scheduler->AddJob(info);
        m_jobs.push_back(job);
    }
    m_jobsLeft = static_cast<uint32_t>(m_jobs.size());
}

void
ScenarioRun::BuildBackground()
{
    int64_t stream = STREAM_TENANTS;
    for (uint32_t i = 0; i < m_cfg.background.size(); ++i)
    {
        const auto& bc = m_cfg.background[i];
        Ptr<FlowTraffic> tenant;
        bool openEnded = false;
        if (bc.kind == ScenarioConfig::BackgroundConfig::Kind::CDF)
        {
            Ptr<PoissonTraffic> p = CreateObject<PoissonTraffic>();
            p->Configure(bc.hosts, bc.flowSizes, bc.load, m_cfg.topology.hostGbps * 1e9);
            p->SetAttribute("StartTime",
                            TimeValue(NanoSeconds(static_cast<int64_t>(bc.startMs * 1e6))));
            if (bc.stopMs)
            {
                p->SetAttribute("StopTime",
                                TimeValue(NanoSeconds(static_cast<int64_t>(*bc.stopMs * 1e6))));
                Simulator::Schedule(NanoSeconds(static_cast<int64_t>(*bc.stopMs * 1e6)),
                                    &ScenarioRun::CheckDone,
                                    this);
            }
            else
            {
                // Without jobs, arrivals go on until the scenario's safety stop.
                openEnded = !m_jobs.empty();
            }
            tenant = p;
        }
        else
        {
            Ptr<IncastTraffic> p = CreateObject<IncastTraffic>();
            p->Configure(bc.senders, bc.receiver, bc.bytes);
            p->SetAttribute("StartTime",
                            TimeValue(NanoSeconds(static_cast<int64_t>(bc.startMs * 1e6))));
            p->SetAttribute("Interval",
                            TimeValue(NanoSeconds(static_cast<int64_t>(bc.intervalMs * 1e6))));
            p->SetAttribute("Repeat", UintegerValue(bc.repeat));
            tenant = p;
        }
        tenant->SetAttribute("Priority", UintegerValue(bc.priority));
        tenant->Setup(bc.name, m_nics);
        stream += tenant->AssignStreams(stream);
        tenant->SetFlowCallback(MakeBoundCallback(
            +[](ScenarioRun* self, uint32_t index, const FlowTraffic::FlowRecord& rec) {
                self->FlowFinished(index, rec);
            },
            this,
            i));
        tenant->SetFlowFailedCallback(MakeCallback(&ScenarioRun::CheckDone, this));
        m_tenants.push_back(tenant);
        m_tenantOpenEnded.push_back(openEnded);
    }
}

void
ScenarioRun::JobFinished(Ptr<TrainingJob> /* job */)
{
    if (--m_jobsLeft == 0)
    {
        for (std::size_t i = 0; i < m_tenants.size(); ++i)
        {
            if (m_tenantOpenEnded[i])
            {
                m_tenants[i]->StopArrivals();
            }
        }
    }
    CheckDone();
}

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
        }
        if (f.downMs)
        {
            // The switches at the cable's ends see it at once (FabricSwitch
            // failover); the routing converges route_convergence_ms later.
            const auto& conv = m_cfg.topology.routeConvergenceMs;
            Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(m_topo.links[dirs[0]].tx->GetChannel());
            Simulator::Schedule(FromMs(*f.downMs), &PfcChannel::SetLinkUp, ch, false);
            if (conv && *f.downMs + *conv < m_cfg.stopMs)
            {
                Simulator::Schedule(FromMs(*f.downMs + *conv), &ScenarioRun::UpdateRoutes, this);
            }
            if (f.upMs && *f.upMs < m_cfg.stopMs)
            {
                Simulator::Schedule(FromMs(*f.upMs), &PfcChannel::SetLinkUp, ch, true);
                if (conv && *f.upMs + *conv < m_cfg.stopMs)
                {
                    Simulator::Schedule(FromMs(*f.upMs + *conv), &ScenarioRun::UpdateRoutes, this);
                }
            }
        }
    }
}

void
ScenarioRun::UpdateRoutes()
{
    m_topo.ComputeRoutes();
    ++m_routeUpdates;
}

void
ScenarioRun::SetupTraces()
{
    const auto& tc = m_cfg.traces;
    if (!tc.enabled)
    {
        return;
    }
    for (std::size_t i = 0; i < tc.links.size(); ++i)
    {
        const int64_t l = m_topo.FindLink(tc.links[i]);
        if (l < 0)
        {
            throw ScenarioError("traces.links[" + std::to_string(i) + "]",
                                "no link " + tc.links[i] + " in this topology");
        }
        m_traceLinks.push_back(static_cast<uint32_t>(l));
        m_traceWireBytes.push_back(0);
    }
    Simulator::Schedule(Time(0), &ScenarioRun::Sample, this);
}

void
ScenarioRun::SetupProgress()
{
    // The jobs' traffic: every rank's share of every iteration's collective.
    double total = 0;
    for (const auto& job : m_jobs)
    {
        Ptr<Collective> coll = job->GetCollective();
        total += static_cast<double>(job->GetNIterations()) * coll->GetNRanks() *
                 coll->GetBytesSentPerRank(job->GetGradientBytes());
        for (const auto& qp : coll->GetQueuePairs())
        {
            if (qp)
            {
                m_jobQps.push_back(qp);
            }
        }
    }
    // The tenants whose traffic ends on its own: the mean offered load over
    // their arrival window, the bursts that start before the stop. A tenant
    // whose arrivals end with the last job is left out: it runs alongside the
    // jobs, so their share of the work measures its progress too.
    const double stopMs = m_cfg.stopMs;
    for (std::size_t i = 0; i < m_cfg.background.size(); ++i)
    {
        const auto& bc = m_cfg.background[i];
        m_tenantCounted.push_back(!m_tenantOpenEnded[i]);
        m_tenantFlowBytes.push_back(0);
        if (m_tenantOpenEnded[i])
        {
            continue;
        }
        if (bc.kind == ScenarioConfig::BackgroundConfig::Kind::CDF)
        {
            const double endMs = std::min(stopMs, bc.stopMs.value_or(stopMs));
            const double windowS = std::max(0.0, endMs - bc.startMs) / 1e3;
            total += bc.hosts.size() * bc.load * m_cfg.topology.hostGbps * 1e9 / 8 * windowS;
        }
        else if (bc.startMs < stopMs)
        {
            double bursts = bc.repeat;
            if (bc.intervalMs > 0)
            {
                bursts = std::min(bursts, std::floor((stopMs - bc.startMs) / bc.intervalMs) + 1);
            }
            total += bursts * bc.senders.size() * static_cast<double>(bc.bytes);
        }
    }
    m_eta.SetWorkTotal(total);
    m_eta.SetStopTime(stopMs);
}

double
ScenarioRun::WorkDone() const
{
    // Payload received in order: the jobs' from their queue pairs, the
    // tenants' the rest of the NICs' count.
    uint64_t jobs = 0;
    for (const auto& qp : m_jobQps)
    {
        jobs += qp->GetBytesReceived();
    }
    uint64_t all = 0;
    for (const auto& nic : m_nics)
    {
        all += nic->GetBytesReceived();
    }
    double tenants = static_cast<double>(all - std::min(all, jobs));
    // With tenants both in and out of the work total, the share of the
    // counted ones in the bytes of the finished flows.
    uint64_t counted = 0;
    uint64_t finished = 0;
    bool anyCounted = false;
    bool anyOther = false;
    for (std::size_t i = 0; i < m_tenantCounted.size(); ++i)
    {
        finished += m_tenantFlowBytes[i];
        if (m_tenantCounted[i])
        {
            counted += m_tenantFlowBytes[i];
            anyCounted = true;
        }
        else
        {
            anyOther = true;
        }
    }
    if (!anyCounted)
    {
        tenants = 0;
    }
    else if (anyOther)
    {
        tenants = finished > 0 ? tenants * counted / finished : 0;
    }
    return static_cast<double>(jobs) + tenants;
}

void
ScenarioRun::SampleRate(const std::string& owner, const Ptr<RdmaQueuePair>& qp)
{
    const auto st = qp->GetCongestionControl()->GetState();
    RunResults::RateSample s;
    s.timeUs = Simulator::Now().GetSeconds() * 1e6;
    s.owner = owner;
    s.src = static_cast<uint32_t>(m_topo.GetHostIndex(qp->GetNic()->GetAddress()));
    s.dst = static_cast<uint32_t>(m_topo.GetHostIndex(qp->GetPeerAddress()));
    s.qpn = qp->GetQpn();
    s.rateGbps = st.rateBps / 1e9;
    s.targetGbps = st.targetBps / 1e9;
    s.alpha = st.alpha;
    s.windowBytes = st.windowBytes;
    m_rates.push_back(s);
}

void
ScenarioRun::Sample()
{
    const Time interval = NanoSeconds(static_cast<int64_t>(m_cfg.traces.intervalUs * 1e3));
    if (m_cfg.traces.rates)
    {
        for (const auto& job : m_jobs)
        {
            for (const auto& qp : job->GetCollective()->GetQueuePairs())
            {
                if (qp && qp->GetBytesPosted() > 0)
                {
                    SampleRate(job->GetName(), qp);
                }
            }
        }
        for (const auto& t : m_tenants)
        {
            for (const auto& f : t->GetActiveFlows())
            {
                SampleRate(t->GetName(), f.tx);
            }
        }
    }
    for (std::size_t i = 0; i < m_traceLinks.size(); ++i)
    {
        const auto& link = m_topo.links[m_traceLinks[i]];
        RunResults::QueueSample q;
        q.timeUs = Simulator::Now().GetSeconds() * 1e6;
        q.link = link.name;
        Ptr<SwitchPortEgress> egress = DynamicCast<SwitchPortEgress>(link.tx->GetEgress());
        q.queueBytes = egress && egress->GetQueueDisc() ? egress->GetQueueDisc()->GetNBytes() : 0;
        const uint64_t wire = link.tx->GetTxBytes() + 24 * link.tx->GetTxFrames();
        const double capacity = link.tx->GetDataRate().GetBitRate() * interval.GetSeconds() / 8.0;
        q.utilization = Simulator::Now().IsZero() ? 0.0 : (wire - m_traceWireBytes[i]) / capacity;
        m_traceWireBytes[i] = wire;
        m_queues.push_back(q);
    }
    Simulator::Schedule(interval, &ScenarioRun::Sample, this);
}

void
ScenarioRun::JobFailed(Ptr<TrainingJob> job)
{
    NS_LOG_INFO("job " << job->GetName() << " failed: " << job->GetFailureReason());
    ++m_jobsFailed;
    // The rest of the job's traffic will not be sent.
    Ptr<Collective> coll = job->GetCollective();
    double done = 0;
    for (const auto& qp : coll->GetQueuePairs())
    {
        done += qp ? qp->GetBytesReceived() : 0;
    }
    const double total = static_cast<double>(job->GetNIterations()) * coll->GetNRanks() *
                         coll->GetBytesSentPerRank(job->GetGradientBytes());
    m_eta.SetWorkTotal(m_eta.GetWorkTotal() - std::max(0.0, total - done));
    JobFinished(job);
}

void
ScenarioRun::FlowFinished(uint32_t tenant, const FlowTraffic::FlowRecord& rec)
{
    m_flows.emplace_back(tenant, rec);
    m_tenantFlowBytes[tenant] += rec.bytes;
    CheckDone();
}

void
ScenarioRun::PacketLatency(uint32_t /* qpn */, uint32_t /* payload */, Time latency)
{
    ++m_dataPacketsRx;
    m_latencyUs.Add(latency.GetNanoSeconds() / 1000.0);
}

void
ScenarioRun::CheckDone()
{
    if (m_jobsLeft > 0)
    {
        return;
    }
    for (const auto& t : m_tenants)
    {
        if (!t->ArrivalsOver() ||
            t->GetFlowsFinished() + t->GetFlowsFailed() < t->GetFlowsStarted())
        {
            return;
        }
    }
    if (m_jobsFailed > 0)
    {
        m_stopReason = "job_failed";
    }
    Simulator::Stop();
}

bool
ScenarioRun::WorkWaitsOnPfc() const
{
    bool held = false;
    for (const auto& s : m_topo.switches)
    {
        if (s.sw->GetMmu()->GetTotalUsed() > 0)
        {
            held = true;
            break;
        }
    }
    if (!held)
    {
        return false;
    }
    for (const auto& link : m_topo.links)
    {
        if (link.tx->GetPausedMask() != 0)
        {
            return true;
        }
    }
    return false;
}

bool
ScenarioRun::CheckStall()
{
    // Called from Progress(), so that the check adds no event of its own:
    // results of runs that do not stall stay what they were.
    if (m_stallWindow.IsZero())
    {
        return false;
    }
    const Time now = Simulator::Now();
    if (m_dataPacketsRx != m_dataPacketsRxSeen || !WorkWaitsOnPfc())
    {
        m_dataPacketsRxSeen = m_dataPacketsRx;
        m_progressAt = now;
        return false;
    }
    if (now - m_progressAt < m_stallWindow)
    {
        return false;
    }
    NS_LOG_INFO("no data packet delivered since " << m_progressAt.As(Time::MS)
                                                  << " while PFC holds packets: stalled");
    m_stopReason = "stalled";
    Simulator::Stop();
    return true;
}

void
ScenarioRun::SafetyStop()
{
    m_stopReason = "stop_ms";
    Simulator::Stop();
}

void
ScenarioRun::Progress()
{
    if (m_opts.cancel && m_opts.cancel->load())
    {
        m_stopReason = "cancelled";
        Simulator::Stop();
        return;
    }
    if (CheckStall())
    {
        return;
    }
    const double wall = WallSince(m_wall0);
    if (m_opts.progress && wall - m_lastReport >= 0.5)
    {
        m_lastReport = wall;
        const double simMs = Simulator::Now().GetSeconds() * 1e3;
        // The work done against the work known up front, at its recent rate
        // (ProgressEstimator).
        m_eta.AddSample(wall, WorkDone(), simMs);
        m_opts.progress(simMs, wall, m_eta.GetEta());
    }
    Simulator::Schedule(MicroSeconds(100), &ScenarioRun::Progress, this);
}

Time
ScenarioRun::IdealFct(const FlowTraffic::FlowRecord& rec) const
{
    // First packet store-and-forward over every hop, the rest pipelined at
    // the slowest hop.
    const uint32_t mtu = m_cfg.transport.mtuBytes;
    const uint64_t packets = rec.bytes == 0 ? 1 : (rec.bytes + mtu - 1) / mtu;
    // A data packet's headers: Ethernet+VLAN, IPv4, UDP, BTH and ICRC.
    const uint32_t overhead =
        WireBytes::L2 + WireBytes::IP_UDP + IbBthHeader::SIZE + IbBthHeader::ICRC_BYTES;
    const uint64_t firstFrame = std::min<uint64_t>(rec.bytes, mtu) + overhead;
    const uint64_t restBytes = rec.bytes - std::min<uint64_t>(rec.bytes, mtu);
    const std::vector<uint32_t> path = m_topo.GetPath(rec.src, rec.dst, rec.srcPort);
    Time t;
    Time slowest;
    uint32_t slowestWire = 0; // preamble, IFG and FCS of the slowest hop's device
    for (uint32_t l : path)
    {
        const auto& link = m_topo.links[l];
        t += link.tx->GetFrameTxTime(static_cast<uint32_t>(firstFrame));
        t += DynamicCast<PfcChannel>(link.tx->GetChannel())->GetDelay();
        const Time frame = link.tx->GetFrameTxTime(mtu + overhead);
        if (frame > slowest)
        {
            slowest = frame;
            slowestWire = link.tx->GetWireOverhead();
        }
    }
    if (packets > 1)
    {
        const double perByte = slowest.GetSeconds() / (mtu + overhead + slowestWire);
        t += Seconds(perByte * (restBytes + (packets - 1) * (overhead + slowestWire)));
    }
    return t;
}

RunResults
ScenarioRun::Collect(double wallS) const
{
    RunResults r;
    r.policy = m_cfg.scheduler.policy;
    r.seed = m_cfg.seed;
    {
        const auto& c = m_scheduler->GetCounters();
        for (uint8_t cls : m_scheduler->GetJobClasses())
        {
            r.scheduler.classes.push_back(cls);
        }
        if (!m_scheduler->GetJobClasses().empty())
        {
            r.scheduler.order = m_scheduler->GetClassOrderString();
        }
        r.scheduler.decisions = c.decisions;
        r.scheduler.held = c.held;
        r.scheduler.replans = c.replans;
        r.scheduler.messages = c.messages;
        r.scheduler.classChanges = c.classChanges;
    }
    for (const auto& job : m_jobs)
    {
        RunResults::JobResult jr;
        jr.name = job->GetName();
        jr.completed = job->IsFinished();
        jr.status = jr.completed ? "completed" : job->HasFailed() ? "failed" : "unfinished";
        jr.reason = job->GetFailureReason();
        jr.transport = ToResults(job->GetCollective()->GetCounters());
        jr.jctMs = job->GetJct().GetSeconds() * 1e3;
        jr.gateWaitMs =
            (job->GetCollective()->GetGateWait() + job->GetIterationGateWait()).GetSeconds() * 1e3;
        jr.trafficClass = m_scheduler->GetCurrentClass(static_cast<uint32_t>(r.jobs.size()));
        for (const auto& it : job->GetIterations())
        {
            jr.iterationMs.push_back((it.end - it.start).GetSeconds() * 1e3);
        }
        // Phases as the collective traced them, in (iteration, step) order.
        jr.phases = m_phases[r.jobs.size()]->times;
        std::sort(jr.phases.begin(),
                  jr.phases.end(),
                  [](const RunResults::PhaseTime& x, const RunResults::PhaseTime& y) {
                      return std::tie(x.iteration, x.step) < std::tie(y.iteration, y.step);
                  });
        r.jobs.push_back(jr);
    }
    for (const auto& [tenant, rec] : m_flows)
    {
        RunResults::FlowResult fr;
        fr.tenant = m_tenants[tenant]->GetName();
        fr.src = rec.src;
        fr.dst = rec.dst;
        fr.sizeBytes = rec.bytes;
        fr.startMs = rec.start.GetSeconds() * 1e3;
        fr.fctUs = rec.fct.GetSeconds() * 1e6;
        fr.idealFctUs = IdealFct(rec).GetSeconds() * 1e6;
        r.flows.push_back(fr);
    }
    for (const auto& t : m_tenants)
    {
        RunResults::TenantResult tr;
        tr.name = t->GetName();
        tr.started = t->GetFlowsStarted();
        tr.failed = t->GetFlowsFailed();
        tr.transport = ToResults(t->GetCounters());
        r.tenants.push_back(tr);
    }
    r.packetLatencyUs = m_latencyUs;

    RdmaQueuePair::Counters all;
    for (const auto& nic : m_nics)
    {
        r.network.cnps += nic->GetCnpsSent();
        r.network.qpErrors += nic->GetQpErrors();
        all += nic->GetCounters();
    }
    const auto t = ToResults(all);
    r.network.retransmissions = t.retransmissions;
    r.network.retransmissionsRepair = t.repair;
    r.network.retransmissionsSpurious = t.spurious;
    r.network.timeouts = t.timeouts;
    // Frames lost to link faults: random loss at the receiving port, and
    // frames sent into a link that was down (counted once per cable).
    std::set<const PfcChannel*> cables;
    for (const auto& link : m_topo.links)
    {
        r.network.linkLosses += link.rx->GetRxErrors();
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(link.tx->GetChannel());
        if (cables.insert(PeekPointer(ch)).second)
        {
            r.network.linkLosses += ch->GetLostFrames();
        }
    }
    r.network.drops = m_topo.GetDrops() + r.network.linkLosses;
    r.network.pfcPauses = m_topo.GetPfcPauses();
    for (const auto& s : m_topo.switches)
    {
        r.network.linkDownDrops += s.sw->GetDrops(FabricSwitch::DROP_LINK_DOWN);
        r.network.linkStateChanges += s.sw->GetLinkStateChanges();
    }
    r.network.routeUpdates = m_routeUpdates;
    // PFC pauses per paused link direction, and by the tiers it joins.
    {
        static const std::map<std::string, std::vector<std::string>> tierNames = {
            {"leaf-spine", {"leaf", "spine"}},
            {"fat-tree", {"edge", "agg", "core"}},
            {"dumbbell", {"switch"}}};
        const auto names = tierNames.find(m_topo.kind);
        auto tierOf = [this, &names](const Ptr<PfcNetDevice>& dev) -> std::string {
            const uint32_t id = dev->GetNode()->GetId();
            if (id >= m_topo.switchOfNode.size() || m_topo.switchOfNode[id] < 0)
            {
                return "host";
            }
            const uint32_t tier = m_topo.switches[m_topo.switchOfNode[id]].tier;
            if (names == tierNames.end() || tier >= names->second.size())
            {
                return "tier" + std::to_string(tier);
            }
            return names->second[tier];
        };
        for (uint32_t l = 0; l < m_topo.links.size(); ++l)
        {
            const auto& link = m_topo.links[l];
            const std::string rxTier = tierOf(link.rx);
            if (rxTier == "host")
            {
                continue; // hosts never pause
            }
            const std::string kind = tierOf(link.tx) + "->" + rxTier;
            auto it = std::find_if(r.network.pfcPausesByTier.begin(),
                                   r.network.pfcPausesByTier.end(),
                                   [&kind](const auto& e) { return e.first == kind; });
            if (it == r.network.pfcPausesByTier.end())
            {
                r.network.pfcPausesByTier.emplace_back(kind, 0);
                it = r.network.pfcPausesByTier.end() - 1;
            }
            const uint64_t pauses = m_topo.GetPfcPauses(l);
            it->second += pauses;
            if (pauses > 0)
            {
                r.network.pfcPausesByLink.emplace_back(link.name, pauses);
            }
        }
    }
    r.network.ecnMarks = m_topo.GetEcnMarks();
    for (const auto& s : m_topo.switches)
    {
        r.network.pfcWatchdog = r.network.pfcWatchdog || s.sw->GetPfcWatchdogEnabled();
    }
    if (r.network.pfcWatchdog)
    {
        const PfcWatchdog::Counters wd = m_topo.GetPfcWatchdogCounters();
        r.network.pfcWatchdogStorms = wd.storms;
        r.network.pfcWatchdogRestorations = wd.restorations;
        r.network.pfcWatchdogDrops = wd.drops;
        r.network.pfcWatchdogForwarded = wd.forwarded;
    }

    const double simS = Simulator::Now().GetSeconds();
    if (simS > 0)
    {
        for (const auto& link : m_topo.links)
        {
            const double bits = 8.0 * (link.tx->GetTxBytes() + 24.0 * link.tx->GetTxFrames());
            const double u = bits / (link.tx->GetDataRate().GetBitRate() * simS);
            r.links.push_back(RunResults::LinkUtilization{link.name, std::min(1.0, u)});
        }
        std::stable_sort(r.links.begin(), r.links.end(), [](const auto& a, const auto& b) {
            return a.utilization > b.utilization;
        });
        if (r.links.size() > 10)
        {
            r.links.resize(10);
        }
    }
    r.sim.simulatedMs = simS * 1e3;
    r.sim.wallS = wallS;
    r.sim.events = Simulator::GetEventCount();
    r.sim.stopReason = m_stopReason;
    r.traces = m_cfg.traces.enabled;
    r.rates = m_rates;
    r.queues = m_queues;
    return r;
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
}

RunResults
ScenarioRun::Run()
{
    m_wall0 = std::chrono::steady_clock::now();
    ResetNs3();
    RunResults results;
    try
    {
        BuildScheduler();
        BuildNetwork();
        BuildJobs();
        BuildBackground();
        ApplyFaults();
        SetupTraces();
        SetupProgress();
        m_scheduler->Start();
        for (const auto& j : m_jobs)
        {
            j->Start();
        }
        for (const auto& t : m_tenants)
        {
            t->Start();
        }
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
        Simulator::Schedule(MicroSeconds(100), &ScenarioRun::Progress, this);
        const auto runStart = std::chrono::steady_clock::now();
        const double cpuStart = ProcessCpuSeconds();
        Simulator::Run();
        const auto runEnd = std::chrono::steady_clock::now();
        const double cpuEnd = ProcessCpuSeconds();
        results = Collect(WallSince(m_wall0));
        if (m_opts.timings)
        {
            m_opts.timings->buildS = std::chrono::duration<double>(runStart - m_wall0).count();
            m_opts.timings->runS = std::chrono::duration<double>(runEnd - runStart).count();
            m_opts.timings->runCpuS = cpuEnd - cpuStart;
            m_opts.timings->collectS = WallSince(runEnd);
            CountFrames(*m_opts.timings);
        }
    }
    catch (...)
    {
        Simulator::Destroy();
        throw;
    }
    const auto teardownStart = std::chrono::steady_clock::now();
    if (m_scheduler)
    {
        m_scheduler->Dispose();
        m_scheduler = nullptr;
    }
    m_jobs.clear();
    m_tenants.clear();
    m_nics.clear();
    m_topo = FabricTopology();
    Simulator::Destroy();
    if (m_opts.timings)
    {
        m_opts.timings->teardownS = WallSince(teardownStart);
    }
    return results;
}

} // namespace

RunResults
RunScenario(const ScenarioConfig& cfg, const RunOptions& opts)
{
    // Before any ns-3 object is built: refuse what this machine cannot hold.
    MemoryEstimate::Check(cfg);
    ScenarioRun run(cfg, opts);
    return run.Run();
}

} // namespace ns3
