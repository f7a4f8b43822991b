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
      m_runBase(0),
      m_nSteps(0),
      m_failed(false)
{
}

Collective::~Collective() = default;

void
Collective::DoDispose()
{
    m_nics.clear();
    m_failedCb = FailedCallback();
    Object::DoDispose();
}

uint32_t
Collective::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
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
            m_records[m_runBase + s * nRanks + r] = StepRecord{m_run, s, r, Time(), Time()};
        }
    }
    m_stepFinished.assign(nSteps, 0);
    m_stepFirstStart.assign(nSteps, Time::Max());
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
