/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective.h"

#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Collective");

NS_OBJECT_ENSURE_REGISTERED(Collective);

TypeId
Collective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Collective")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddTraceSource("Phase",
                            "Every rank finished one step (run, step, first start, last end).",
                            MakeTraceSourceAccessor(&Collective::m_phaseTrace),
                            "ns3::Collective::PhaseTracedCallback");
    return tid;
}

Collective::Collective()
    : m_run(0),
      m_jobId(0),
      m_iteration(0),
      m_runBase(0),
      m_nSteps(0),
      m_failed(false)
{
    NS_LOG_FUNCTION(this);
}

Collective::~Collective() = default;

void
Collective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nics.clear();
    m_gate = nullptr;
    m_rankGates.clear();
    m_failedCb = FailedCallback();
    Object::DoDispose();
}

uint32_t
Collective::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
}

JobStepTag::Phase
Collective::GetPhase(uint32_t step) const
{
    return step + 1 < GetNRanks() ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

void
Collective::SetGate(Ptr<CollectiveGate> gate)
{
    m_gate = gate;
}

Ptr<CollectiveGate>
Collective::GetGate() const
{
    return m_gate;
}

void
Collective::SetJobId(uint32_t job)
{
    m_jobId = job;
}

uint32_t
Collective::GetJobId() const
{
    return m_jobId;
}

void
Collective::SetIteration(uint32_t iteration)
{
    m_iteration = iteration;
}

uint32_t
Collective::GetIteration() const
{
    return m_iteration;
}

uint32_t
Collective::GetRun() const
{
    return m_run;
}

Time
Collective::GetGateWait() const
{
    if (GetNRanks() == 0)
    {
        return Time();
    }
    int64_t sum = 0;
    for (const auto& r : m_records)
    {
        if (r.start >= r.ready) // a step never released does not count
        {
            sum += (r.start - r.ready).GetTimeStep();
        }
    }
    return TimeStep(sum / GetNRanks());
}

JobStepTag
Collective::MakeTag(uint32_t step, uint32_t chunk) const
{
    return JobStepTag(m_jobId, m_iteration, GetPhase(step), static_cast<uint16_t>(step), chunk);
}

void
Collective::NotifyRunStarted(uint64_t bytes)
{
    if (m_gate)
    {
        m_gate->RunStarted(this, bytes);
    }
}

void
Collective::NotifyRunFinished()
{
    if (m_gate)
    {
        m_gate->RunFinished(this);
    }
}

void
Collective::Submit(uint32_t rank, uint32_t step, uint32_t chunk, uint64_t bytes, uint64_t stepBytes)
{
    if (chunk == 0)
    {
        RecordReady(rank, step);
    }
    if (!m_gate)
    {
        if (chunk == 0)
        {
            RecordStart(rank, step);
        }
        DoPost(rank, step, chunk);
        return;
    }
    if (m_rankGates.size() != GetNRanks())
    {
        m_rankGates.resize(GetNRanks());
    }
    m_rankGates[rank].queue.push_back(Pending{step, chunk, bytes, stepBytes});
    Pump(rank);
}

void
Collective::Release(uint32_t rank)
{
    NS_LOG_FUNCTION(this << rank);
    RankGate& g = m_rankGates.at(rank);
    if (!g.asking)
    {
        return; // nothing asked (e.g. released twice)
    }
    g.asking = false;
    g.granted = true;
    if (!g.pumping)
    {
        Pump(rank);
    }
}

void
Collective::Pump(uint32_t rank)
{
    RankGate& g = m_rankGates[rank];
    if (g.asking || g.pumping)
    {
        return;
    }
    g.pumping = true;
    const bool perChunk = m_gate->GetGranularity() == CollectiveGate::CHUNK;
    while (!g.queue.empty() && !m_failed)
    {
        const Pending p = g.queue.front();
        const bool open = !perChunk && g.stepOpen && g.releasedStep == p.step;
        if (!open)
        {
            if (!g.granted)
            {
                g.asking = true;
                CollectiveGate::Request req{m_run,
                                            m_iteration,
                                            rank,
                                            p.step,
                                            perChunk ? p.chunk : 0,
                                            perChunk ? p.bytes : p.stepBytes,
                                            GetPhase(p.step)};
                m_gate->Ask(this, req);
                if (g.asking)
                {
                    break; // the gate answers later
                }
            }
            g.granted = false;
            g.stepOpen = !perChunk;
            g.releasedStep = p.step;
        }
        g.queue.pop_front();
        if (p.chunk == 0)
        {
            RecordStart(rank, p.step);
        }
        DoPost(rank, p.step, p.chunk);
    }
    g.pumping = false;
}

const std::vector<Collective::StepRecord>&
Collective::GetStepRecords() const
{
    return m_records;
}

RdmaQueuePair::Counters
Collective::GetCounters() const
{
    RdmaQueuePair::Counters c;
    for (const auto& qp : GetQueuePairs())
    {
        if (qp)
        {
            c += qp->GetCounters();
        }
    }
    return c;
}

void
Collective::SetFailedCallback(FailedCallback cb)
{
    m_failedCb = cb;
}

bool
Collective::HasFailed() const
{
    return m_failed;
}

const std::string&
Collective::GetFailureReason() const
{
    return m_failureReason;
}

void
Collective::NotifyFailed(const std::string& reason)
{
    if (m_failed)
    {
        return;
    }
    NS_LOG_FUNCTION(this << reason);
    m_failed = true;
    m_failureReason = reason;
    if (!m_failedCb.IsNull())
    {
        m_failedCb(reason);
    }
}

void
Collective::BeginRun(uint32_t nRanks, uint32_t nSteps)
{
    m_nSteps = nSteps;
    m_runBase = m_records.size();
    m_records.resize(m_runBase + static_cast<std::size_t>(nRanks) * nSteps);
    for (uint32_t s = 0; s < nSteps; ++s)
    {
        for (uint32_t r = 0; r < nRanks; ++r)
        {
            m_records[m_runBase + s * nRanks + r] = StepRecord{m_run, s, r, Time(), Time(), Time()};
        }
    }
    m_stepFinished.assign(nSteps, 0);
    for (auto& g : m_rankGates)
    {
        g.stepOpen = false;
    }
    m_stepFirstStart.assign(nSteps, Time::Max());
}

void
Collective::RecordReady(uint32_t rank, uint32_t step)
{
    m_records[m_runBase + step * GetNRanks() + rank].ready = Simulator::Now();
}

void
Collective::RecordStart(uint32_t rank, uint32_t step)
{
    const Time now = Simulator::Now();
    m_records[m_runBase + step * GetNRanks() + rank].start = now;
    m_stepFirstStart[step] = std::min(m_stepFirstStart[step], now);
}

void
Collective::RecordEnd(uint32_t rank, uint32_t step)
{
    const Time now = Simulator::Now();
    m_records[m_runBase + step * GetNRanks() + rank].end = now;
    if (++m_stepFinished[step] == GetNRanks())
    {
        m_phaseTrace(m_run, step, m_stepFirstStart[step], now);
    }
}

} // namespace ns3
