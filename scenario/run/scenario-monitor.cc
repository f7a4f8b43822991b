/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-run.h"

#include "ns3/fabric-ranks.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/simulator.h"
#include "ns3/switch-port-egress.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioMonitor");

namespace scenario
{

/// Keyed events (OrderedScheduler), last of all the kinds at one time: the
/// end of a run (every job and flow done)...
static const uint32_t RUN_END_EVENT = OrderedScheduler::RegisterKind("run end", 6);
/// ... then the monitor's decisions.
static const uint32_t MONITOR_EVENT = OrderedScheduler::RegisterKind("run monitor", 7);

void
KeyMonitorEvent(uint32_t index)
{
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(MONITOR_EVENT, index));
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
    if (m_fluid)
    {
        return; // checked alike, but a fluid has no queues or rates to sample
    }
    KeyMonitorEvent(1);
    Simulator::Schedule(Time(0), &ScenarioRun::Sample, this);
}

void
ScenarioRun::SetupProgress()
{
    // The jobs' traffic: every rank's share of every iteration's collective.
    double total = 0;
    for (const auto& job : m_jobs)
    {
        // a replayed workload: all its collectives and transfers, over RDMA
        // (the GPU interconnect's transfers cost the simulation next to
        // nothing, and would make the rate jump)
        const Ptr<WorkloadReplay> replay = job->GetWorkload();
        total += static_cast<double>(job->GetNIterations()) *
                 (replay ? replay->GetNetworkBytesPerIteration()
                         : job->GetCollective()->GetNetworkBytes(job->GetGradientBytes()));
        for (const auto& qp : job->GetQueuePairs())
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
        else if (bc.pattern == "flows")
        {
            for (const auto& flow : bc.flows)
            {
                total += flow.startMs < stopMs ? static_cast<double>(flow.bytes) : 0.0;
            }
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
    if (FabricRanks::GetNRanks() > 1 && m_topo.GetNHosts() > 0)
    {
        // Under MPI a process sees the work of its own hosts: about their
        // share of the whole.
        uint32_t local = 0;
        for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
        {
            local += FabricRanks::IsLocal(*m_topo.hosts.Get(h)) ? 1 : 0;
        }
        total *= static_cast<double>(local) / m_topo.GetNHosts();
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
ScenarioRun::SampleRate(uint32_t owner, const Ptr<RdmaQueuePair>& qp, uint64_t position)
{
    m_rateOrder.emplace_back(owner, position);
    const auto st = qp->GetCongestionControl()->GetState();
    RunResults::RateSample s;
    s.timeUs = Simulator::Now().GetSeconds() * 1e6;
    s.owner = OwnerName(owner);
    s.src = static_cast<uint32_t>(m_topo.GetHostIndex(qp->GetNic()->GetAddress()));
    s.dst = static_cast<uint32_t>(m_topo.GetHostIndex(qp->GetPeerAddress()));
    s.qpn = qp->GetQpn();
    s.rateGbps = st.rateBps / 1e9;
    s.targetGbps = st.targetBps / 1e9;
    s.alpha = st.alpha;
    s.windowBytes = st.windowBytes;
    m_rates.push_back(s);
}

const std::string&
ScenarioRun::OwnerName(uint32_t owner) const
{
    return owner < m_jobs.size() ? m_jobs[owner]->GetName()
                                 : m_tenants[owner - m_jobs.size()]->GetName();
}

void
ScenarioRun::Sample()
{
    const Time interval = NanoSeconds(static_cast<int64_t>(m_cfg.traces.intervalUs * 1e3));
    if (m_cfg.traces.rates)
    {
        for (uint32_t j = 0; j < m_jobs.size(); ++j)
        {
            const auto qps = m_jobs[j]->GetCollective()->GetQueuePairs();
            for (std::size_t i = 0; i < qps.size(); ++i)
            {
                if (qps[i] && qps[i]->GetBytesPosted() > 0) // posted here: local under MPI
                {
                    SampleRate(j, qps[i], i);
                }
            }
        }
        for (uint32_t t = 0; t < m_tenants.size(); ++t)
        {
            for (const auto& f : m_tenants[t]->GetActiveFlows())
            {
                if (f.tx->GetBytesPosted() > 0) // posted here: local under MPI
                {
                    SampleRate(m_jobs.size() + t, f.tx, f.id);
                }
            }
        }
    }
    for (std::size_t i = 0; i < m_traceLinks.size(); ++i)
    {
        const auto& link = m_topo.links[m_traceLinks[i]];
        if (!FabricRanks::IsLocal(*link.tx->GetNode()))
        {
            continue; // its process samples it
        }
        RunResults::QueueSample q;
        q.timeUs = Simulator::Now().GetSeconds() * 1e6;
        q.link = link.name;
        Ptr<SwitchPortEgress> egress = DynamicCast<SwitchPortEgress>(link.tx->GetEgress());
        q.queueBytes = egress ? egress->GetNBytes() : 0;
        const uint64_t wire = link.tx->GetTxBytes() + 24 * link.tx->GetTxFrames();
        const double capacity = link.tx->GetDataRate().GetBitRate() * interval.GetSeconds() / 8.0;
        // A frame counts when its transmission starts, so an interval may
        // see up to one frame more than fits in it: what exceeds the
        // interval's capacity passes to the next.
        const double sent = std::min(static_cast<double>(wire - m_traceWireBytes[i]), capacity);
        q.utilization = Simulator::Now().IsZero() ? 0.0 : sent / capacity;
        m_traceWireBytes[i] += static_cast<uint64_t>(sent);
        m_queues.push_back(q);
        m_queueTrace.push_back(i);
    }
    KeyMonitorEvent(1);
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
ScenarioRun::JobFinished(Ptr<TrainingJob> /* job */)
{
    m_endAt = std::max(m_endAt, Simulator::Now());
    if (--m_jobsLeft == 0)
    {
        for (std::size_t i = 0; i < m_tenants.size(); ++i)
        {
            if (m_tenantOpenEnded[i])
            {
                m_tenants[i]->StopArrivals();
                m_tenantArrivalsEndMs[i] = Simulator::Now().GetSeconds() * 1e3;
            }
        }
    }
    CheckDone();
}

void
ScenarioRun::FlowFinished(uint32_t tenant, const FlowTraffic::FlowRecord& rec)
{
    m_flows.push_back(FinishedFlow{tenant, rec, IdealFct(rec).GetSeconds() * 1e6});
    m_tenantFlowBytes[tenant] += rec.bytes;
    FlowEnded(tenant, rec.id);
}

void
ScenarioRun::FlowFailed(uint32_t tenant, uint64_t id)
{
    FlowEnded(tenant, id);
}

void
ScenarioRun::PacketLatency(uint32_t host, uint32_t qpn, Time latency)
{
    ++m_dataPacketsRx;
    const auto& owners = m_qpOwner[host];
    const uint32_t owner = qpn < owners.size() ? owners[qpn] : NO_OWNER;
    // (the last summary holds the packets of queue pairs nobody owns)
    const std::size_t index = std::min<std::size_t>(owner, m_latencyUs.size() - 1);
    m_latencyUs[index].Add(latency.GetNanoSeconds() / 1000.0);
}

void
ScenarioRun::SetQpOwner(const Ptr<RdmaQueuePair>& qp, uint32_t owner)
{
    auto& owners = m_qpOwner[HostOf(qp->GetNic())];
    if (qp->GetQpn() >= owners.size())
    {
        owners.resize(qp->GetQpn() + 1, NO_OWNER);
    }
    owners[qp->GetQpn()] = owner;
}

void
ScenarioRun::CheckDone()
{
    if (m_jobsLeft > 0 || m_stopping)
    {
        return;
    }
    for (std::size_t i = 0; i < m_tenants.size(); ++i)
    {
        const Ptr<FlowTraffic>& t = m_tenants[i];
        // under MPI, flows end at several processes: count what they told
        const uint64_t ended =
            m_mpi ? m_tenantEnded[i] : t->GetFlowsFinished() + t->GetFlowsFailed();
        if (!t->ArrivalsOver() || ended < t->GetFlowsStarted())
        {
            return;
        }
        // the HPCC FCT file needs every sender's last ACK
        if (m_cfg.hpccFct && !m_mpi && !t->GetActiveFlows().empty())
        {
            return;
        }
    }
    if (m_jobsFailed > 0)
    {
        m_stopReason = "job_failed";
    }
    if (m_completionLatency.IsZero())
    {
        Simulator::Stop();
        return;
    }
    // Every process stops at the same time: CompletionLatency after the
    // last job or flow ended, which the other processes know by then.
    m_stopping = true;
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(RUN_END_EVENT, 0));
    Simulator::Schedule(m_endAt + m_completionLatency - Simulator::Now(),
                        &ScenarioRun::EndRun,
                        this);
}

void
ScenarioRun::EndRun()
{
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
ScenarioRun::Progress()
{
    if (m_opts.cancel && m_opts.cancel->load())
    {
        m_stopReason = "cancelled";
        Simulator::Stop();
        return;
    }
    if (m_mpi)
    {
        ReportStall(); // the processes decide together (scenario-distributed.cc)
    }
    else if (CheckStall())
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
    KeyMonitorEvent(0);
    Simulator::Schedule(MicroSeconds(100), &ScenarioRun::Progress, this);
}

} // namespace scenario
} // namespace ns3
