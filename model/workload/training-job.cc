/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJob");

NS_OBJECT_ENSURE_REGISTERED(TrainingJob);

TypeId
TrainingJob::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingJob")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddConstructor<TrainingJob>()
            .AddAttribute("Iterations",
                          "Number of training iterations.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingJob::m_iterations),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ComputeTime",
                          "Compute (forward and backward pass) time per iteration.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&TrainingJob::m_compute),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("GradientBytes",
                          "Gradient bytes allreduced per iteration.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&TrainingJob::m_bytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("Buckets",
                          "Gradient buckets whose allreduce overlaps the compute (1 = none).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingJob::m_buckets),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("StartTime",
                          "Start of the first iteration.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&TrainingJob::m_startTime),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Iteration",
                            "An iteration ended (index, start, end).",
                            MakeTraceSourceAccessor(&TrainingJob::m_iterationTrace),
                            "ns3::TrainingJob::IterationTracedCallback");
    return tid;
}

TrainingJob::TrainingJob()
    : m_iterations(1),
      m_bytes(1000000),
      m_buckets(1),
      m_ready(0),
      m_reduced(0),
      m_reducing(false),
      m_failed(false)
{
    NS_LOG_FUNCTION(this);
}

TrainingJob::~TrainingJob() = default;

void
TrainingJob::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    m_collective = nullptr;
    m_replay = nullptr;
    m_finished = FinishedCallback();
    m_failedCb = FinishedCallback();
    m_iterationGate = IterationGateCallback();
    Object::DoDispose();
}

void
TrainingJob::Setup(const std::string& name, Ptr<Collective> collective)
{
    m_name = name;
    m_collective = collective;
    m_collective->SetFailedCallback(MakeCallback(&TrainingJob::CollectiveFailed, this));
}

void
TrainingJob::SetWorkload(const std::string& name, Ptr<WorkloadReplay> replay)
{
    NS_ABORT_MSG_IF(!replay->GetPrincipal(), "TrainingJob: a workload without communication");
    m_name = name;
    m_replay = replay;
    m_collective = replay->GetPrincipal();
    for (const auto& c : replay->GetCollectives())
    {
        c->SetFailedCallback(MakeCallback(&TrainingJob::CollectiveFailed, this));
    }
    m_compute = replay->GetComputePerIteration();
    m_bytes = std::max<uint64_t>(1, replay->GetPrincipalBytes());
    m_buckets = std::max<uint32_t>(1, replay->GetPrincipalRuns());
}

Ptr<WorkloadReplay>
TrainingJob::GetWorkload() const
{
    return m_replay;
}

void
TrainingJob::SetFinishedCallback(FinishedCallback cb)
{
    m_finished = cb;
}

void
TrainingJob::SetFailedCallback(FinishedCallback cb)
{
    m_failedCb = cb;
}

bool
TrainingJob::HasFailed() const
{
    return m_failed;
}

const std::string&
TrainingJob::GetFailureReason() const
{
    return m_failureReason;
}

void
TrainingJob::CollectiveFailed(const std::string& reason)
{
    NS_LOG_FUNCTION(this << m_name << reason);
    if (m_failed || IsFinished())
    {
        return;
    }
    m_failed = true;
    m_failureReason = reason;
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    if (m_replay)
    {
        m_replay->Stop();
    }
    if (!m_failedCb.IsNull())
    {
        m_failedCb(this);
    }
}

void
TrainingJob::Start()
{
    KeyNextEvent();
    m_events.push_back(Simulator::Schedule(m_startTime, &TrainingJob::StartIteration, this));
}

void
TrainingJob::StartIteration()
{
    NS_LOG_FUNCTION(this << m_name << m_done.size());
    m_iterStart = Simulator::Now();
    m_ready = 0;
    m_reduced = 0;
    m_events.clear();
    const auto index = static_cast<uint32_t>(m_done.size());
    m_collective->SetIteration(index);
    const Time delay = m_iterationGate.IsNull() ? Time() : m_iterationGate(this, index);
    if (delay.IsStrictlyPositive())
    {
        // held by the scheduler: the iteration (and so the JCT) includes the wait
        m_iterationWait += delay;
        KeyNextEvent();
        m_events.push_back(Simulator::Schedule(delay, &TrainingJob::BeginCompute, this));
        return;
    }
    BeginCompute();
}

void
TrainingJob::BeginCompute()
{
    m_computeStart = Simulator::Now();
    if (m_replay)
    {
        m_replay->Run(static_cast<uint32_t>(m_done.size()),
                      MakeCallback(&TrainingJob::IterationDone, this));
        return;
    }
    for (uint32_t b = 1; b <= m_buckets; ++b)
    {
        KeyNextEvent();
        m_events.push_back(
            Simulator::Schedule(m_compute * b / m_buckets, &TrainingJob::BucketReady, this));
    }
}

void
TrainingJob::KeyNextEvent() const
{
    WorkloadReplay::KeyJobTimer(m_collective->GetJobId());
}

void
TrainingJob::SetIterationGate(IterationGateCallback cb)
{
    m_iterationGate = cb;
}

Time
TrainingJob::GetIterationGateWait() const
{
    return m_iterationWait;
}

Time
TrainingJob::GetComputeTime() const
{
    return m_compute;
}

uint64_t
TrainingJob::GetGradientBytes() const
{
    return m_bytes;
}

Time
TrainingJob::GetStartTime() const
{
    return m_startTime;
}

void
TrainingJob::BucketReady()
{
    ++m_ready;
    TryAllreduce();
}

void
TrainingJob::TryAllreduce()
{
    if (m_reducing || m_reduced >= m_ready)
    {
        return;
    }
    m_reducing = true;
    // the first bucket takes the remainder
    const uint64_t bytes = m_bytes / m_buckets + (m_reduced == 0 ? m_bytes % m_buckets : 0);
    m_collective->Start(bytes, MakeCallback(&TrainingJob::AllreduceDone, this));
}

void
TrainingJob::AllreduceDone()
{
    m_reducing = false;
    if (++m_reduced < m_buckets)
    {
        TryAllreduce();
        return;
    }
    IterationDone();
}

void
TrainingJob::IterationDone()
{
    const uint32_t index = static_cast<uint32_t>(m_done.size());
    m_done.push_back(Iteration{m_iterStart, Simulator::Now(), m_computeStart});
    m_iterationTrace(index, m_iterStart, Simulator::Now());
    if (m_done.size() < m_iterations)
    {
        StartIteration();
    }
    else if (!m_finished.IsNull())
    {
        m_finished(this);
    }
}

const std::string&
TrainingJob::GetName() const
{
    return m_name;
}

Ptr<Collective>
TrainingJob::GetCollective() const
{
    return m_collective;
}

std::vector<Ptr<Collective>>
TrainingJob::GetCollectives() const
{
    if (m_replay)
    {
        return m_replay->GetCollectives();
    }
    return {m_collective};
}

std::vector<Collective::Connection>
TrainingJob::GetConnections() const
{
    std::vector<Collective::Connection> all;
    for (const auto& c : GetCollectives())
    {
        const auto conns = c->GetConnections();
        all.insert(all.end(), conns.begin(), conns.end());
    }
    return all;
}

std::vector<Ptr<RdmaQueuePair>>
TrainingJob::GetQueuePairs() const
{
    std::vector<Ptr<RdmaQueuePair>> all;
    for (const auto& c : GetCollectives())
    {
        const auto qps = c->GetQueuePairs();
        all.insert(all.end(), qps.begin(), qps.end());
    }
    return all;
}

const std::vector<TrainingJob::Iteration>&
TrainingJob::GetIterations() const
{
    return m_done;
}

bool
TrainingJob::IsFinished() const
{
    return m_done.size() >= m_iterations;
}

uint32_t
TrainingJob::GetNIterations() const
{
    return m_iterations;
}

uint32_t
TrainingJob::GetNBuckets() const
{
    return m_buckets;
}

Time
TrainingJob::GetJct() const
{
    if (!IsFinished() || m_done.empty())
    {
        return Time();
    }
    return m_done.back().end - m_done.front().start;
}

} // namespace ns3
