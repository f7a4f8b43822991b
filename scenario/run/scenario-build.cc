/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-collectives.h"
#include "scenario-run.h"
#include "scenario-scheduler.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/flow-list-traffic.h"
#include "ns3/incast-traffic.h"
#include "ns3/int-header.h"
#include "ns3/job-scheduler-helper.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/pointer.h"
#include "ns3/poisson-traffic.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-helper.h"
#include "ns3/ring-allreduce.h"
#include "ns3/scenario-error.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioBuild");

namespace scenario
{

namespace
{

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

} // namespace

void
ScenarioRun::BuildScheduler()
{
    if (FabricRanks::GetNRanks() > 1 && m_cfg.scheduler.Number("MaxHold") > 0)
    {
        // A gate releases all its held ranks once the oldest has waited this
        // long: that knowledge spans processes with no latency.
        throw ScenarioError("scheduler.max_hold_us",
                            "must be 0 under MPI with more than one process");
    }
    m_scheduler = CreateScheduler(m_cfg);
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
    helper.SetLinkDelay(NanoSeconds(static_cast<int64_t>(std::llround(t.linkDelayUs * 1000))));
    helper.SetBufferSize(static_cast<uint64_t>(t.bufferMb * 1e6));
    helper.SetPfc(tr.pfc);
    helper.SetEcn(static_cast<uint32_t>(tr.ecn.kminKb * 1000),
                  static_cast<uint32_t>(tr.ecn.kmaxKb * 1000),
                  tr.ecn.pmax);
    for (const auto& e : tr.ecn.perRate)
    {
        helper.SetEcnForRate(DataRate(static_cast<uint64_t>(e.gbps * 1e9)),
                             static_cast<uint32_t>(e.kminKb * 1000),
                             static_cast<uint32_t>(e.kmaxKb * 1000),
                             e.pmax);
    }
    helper.SetEcmpSeed(m_cfg.EcmpSeed());
    // Under MPI each process simulates a block of pods or leaves (Build*
    // refuses more processes than that).
    helper.SetRanks(FabricRanks::GetNRanks());
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
    if (m_opts.backend == "flow")
    {
        // Fluid flows take the switches' routes but never queue there.
        helper.SetSwitchAttribute("RouteOnly", BooleanValue(true));
    }
    try
    {
        if (t.kind == "leaf-spine")
        {
            m_topo = helper.BuildLeafSpine(t.leaves, t.spines, t.hostsPerLeaf);
        }
        else if (t.kind == "rail-optimized")
        {
            m_topo = helper.BuildRailOptimized(t.railGroups,
                                               t.serversPerRailGroup,
                                               t.servers.nics,
                                               t.spines);
        }
        else if (t.kind == "fat-tree")
        {
            m_topo = helper.BuildFatTree(t.k);
        }
        else if (t.kind == "ring")
        {
            m_topo = helper.BuildRing(t.switches, t.hostsPerSwitch);
        }
        else if (t.kind == "links")
        {
            std::vector<FabricTopologyHelper::Cable> cables;
            for (const auto& l : t.links)
            {
                cables.push_back(
                    {l.a,
                     l.b,
                     DataRate(static_cast<uint64_t>(l.gbps * 1e9)),
                     NanoSeconds(static_cast<int64_t>(std::llround(l.delayUs * 1000)))});
            }
            m_topo = helper.BuildGraph(t.nodes, t.switchNodes, cables);
        }
        else
        {
            m_topo = helper.BuildDumbbell(t.hostsPerSide);
        }
    }
    catch (const std::invalid_argument& e)
    {
        // (the helper's words for a buffer too small for its headroom)
        const bool buffer = std::string(e.what()).rfind("switch buffer size", 0) == 0;
        const std::string field = buffer ? "topology.buffer_mb" : "topology";
        // a key an imported file gave: that file's field and place
        const auto origin = m_cfg.importOrigins.find(field);
        if (origin != m_cfg.importOrigins.end())
        {
            throw ScenarioError(origin->second.first, origin->second.second + ": " + e.what());
        }
        throw ScenarioError(field, e.what());
    }
    m_topo.AssignStreams(STREAM_FABRIC);

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(tr.mtuBytes));
    rdma.SetNicAttribute("AckTimeout", UintegerValue(tr.ackTimeout));
    rdma.SetNicAttribute("RetryCount", UintegerValue(tr.retryCnt));
    if (!m_cfg.ns3Defaults.count("ns3::RdmaNic::CongestionControl"))
    {
        rdma.SetCongestionControl(tr.cc); // else the scenario's factory
    }
    for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
    {
        Ptr<RdmaNic> nic =
            rdma.Install(m_topo.hosts.Get(h), m_topo.hostDevices[h], m_topo.hostAddresses[h]);
        nic->TraceConnectWithoutContext(
            "DataRx",
            MakeBoundCallback(
                +[](ScenarioRun* self, uint32_t host, uint32_t qpn, uint32_t, Time latency) {
                    self->PacketLatency(host, qpn, latency);
                },
                this,
                h));
        m_nics.push_back(nic);
    }
    m_qpOwner.resize(m_nics.size());
    if (m_opts.backend == "flow")
    {
        BuildFluid();
    }
    else
    {
        ConfigureTransport();
    }
    EnablePcap();
}

uint32_t
ScenarioRun::HostOf(Ptr<RdmaNic> nic) const
{
    const auto it = m_hostOfNic.find(PeekPointer(nic));
    NS_ABORT_MSG_IF(it == m_hostOfNic.end(), "a NIC of no host");
    return it->second;
}

void
ScenarioRun::BuildJobs()
{
    for (uint32_t h = 0; h < m_nics.size(); ++h)
    {
        m_hostOfNic[PeekPointer(m_nics[h])] = h;
    }
    Ptr<UniformRandomVariable> ports = CreateObject<UniformRandomVariable>();
    {
        SeedScope ecmp(m_cfg.EcmpSeed(), m_cfg.seed);
        ports->SetStream(STREAM_PORTS);
    }
    // a path-aware policy may choose the jobs' paths among the fabric's
    const JobSchedulerHelper schedulers;
    schedulers.SetFabric(m_scheduler, m_topo);
    for (const auto& jc : m_cfg.jobs)
    {
        auto base = static_cast<uint16_t>(ports->GetInteger(49152, 65535 - jc.ranks));
        const std::size_t index = m_jobs.size();
        if (index < m_opts.portBases.size() && m_opts.portBases[index] != 0)
        {
            // (drawn all the same: the next jobs' ports stay where they were)
            base = m_opts.portBases[index];
            if (base > 65535 - jc.ranks)
            {
                throw ScenarioError("jobs[" + std::to_string(index) + "]",
                                    "source port " + std::to_string(base) + " leaves no room for " +
                                        std::to_string(jc.ranks) + " ranks");
            }
        }
        m_portBases.push_back(base);
        JobCollectives collectives(m_nics, m_cfg, jc, m_completionLatency, base);
        Ptr<TrainingJob> job = jc.workload.trace ? collectives.BuildReplay() : collectives.Build();
        if (job->GetWorkload())
        {
            job->GetWorkload()->SetJobId(static_cast<uint32_t>(m_jobs.size()));
            job->GetWorkload()->SetAttribute("RecordNodes", BooleanValue(bool(m_opts.timeline)));
        }
        job->GetCollective()->SetJobId(static_cast<uint32_t>(m_jobs.size()));
        job->SetFinishedCallback(MakeCallback(&ScenarioRun::JobFinished, this));
        job->SetFailedCallback(MakeCallback(&ScenarioRun::JobFailed, this));
        m_phases.push_back(std::make_unique<PhaseLog>());
        m_phases.back()->buckets = job->GetNBuckets();
        m_phases.back()->steps = job->GetCollective()->GetNSteps();
        job->GetCollective()->TraceConnectWithoutContext(
            "Phase",
            MakeBoundCallback(&PhaseEnded, m_phases.back().get()));
        // What the scheduler may know: the link directions each connection
        // of the job's collectives crosses under the fabric's ECMP hashing
        schedulers.AddJob(m_scheduler, m_topo, job, static_cast<uint8_t>(jc.priority));
        m_jobs.push_back(job);
    }
    m_jobsLeft = static_cast<uint32_t>(m_jobs.size());
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        for (const auto& qp : m_jobs[j]->GetQueuePairs())
        {
            SetQpOwner(qp, j);
        }
    }
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
        double arrivalsEndMs = std::numeric_limits<double>::quiet_NaN(); // (until known)
        if (bc.kind == ScenarioConfig::BackgroundConfig::Kind::CDF)
        {
            Ptr<PoissonTraffic> p = CreateObject<PoissonTraffic>();
            p->Configure(bc.hosts, bc.flowSizes, bc.load, m_cfg.topology.hostGbps * 1e9);
            p->SetAttribute("StartTime",
                            TimeValue(NanoSeconds(static_cast<int64_t>(bc.startMs * 1e6))));
            if (bc.stopMs)
            {
                arrivalsEndMs = *bc.stopMs;
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
        else if (bc.pattern == "flows")
        {
            std::vector<FlowListTraffic::Entry> list;
            for (const auto& f : bc.flows)
            {
                list.push_back({f.src, f.dst, f.bytes, FromMs(f.startMs)});
            }
            Ptr<FlowListTraffic> p = CreateObject<FlowListTraffic>();
            p->Configure(list);
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
        {
            SeedScope seed(m_cfg.BackgroundSeed(), m_cfg.seed);
            stream += tenant->AssignStreams(stream);
        }
        tenant->SetFlowCallback(MakeBoundCallback(
            +[](ScenarioRun* self, uint32_t index, const FlowTraffic::FlowRecord& rec) {
                self->FlowFinished(index, rec);
            },
            this,
            i));
        if (m_cfg.hpccFct)
        {
            tenant->SetFlowAckedCallback(MakeBoundCallback(
                +[](ScenarioRun* self, uint32_t index, const FlowTraffic::FlowRecord& rec) {
                    self->FlowAcked(index, rec);
                },
                this,
                i));
        }
        tenant->SetFlowFailedCallback(MakeBoundCallback(
            +[](ScenarioRun* self, uint32_t index, uint64_t id) { self->FlowFailed(index, id); },
            this,
            i));
        tenant->TraceConnectWithoutContext("FlowStart",
                                           MakeBoundCallback(
                                               +[](ScenarioRun* self,
                                                   uint32_t owner,
                                                   Ptr<RdmaQueuePair> tx,
                                                   Ptr<RdmaQueuePair> rx) {
                                                   self->SetQpOwner(tx, owner);
                                                   self->SetQpOwner(rx, owner);
                                               },
                                               this,
                                               static_cast<uint32_t>(m_jobs.size() + i)));
        m_tenants.push_back(tenant);
        m_tenantOpenEnded.push_back(openEnded);
        m_tenantArrivalsEndMs.push_back(arrivalsEndMs);
    }
    // per job, per tenant, and the packets of queue pairs neither owns
    m_latencyUs.resize(m_jobs.size() + m_tenants.size() + 1);
}

} // namespace scenario
} // namespace ns3
