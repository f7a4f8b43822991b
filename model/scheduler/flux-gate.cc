/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-gate.h"

#include "flux-controller.h"

#include "ns3/collective.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluxGate");

NS_OBJECT_ENSURE_REGISTERED(FluxGate);
NS_OBJECT_ENSURE_REGISTERED(FluxFollowerGate);

namespace
{

/// Keyed events (OrderedScheduler): a gate's release timer, after the
/// jobs' own timers.
const uint32_t GATE_TIMER_EVENT = OrderedScheduler::RegisterKind("gate timer", 4);

} // namespace

TypeId
FluxGate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluxGate")
            .SetParent<CollectiveGate>()
            .SetGroupName("Flux")
            .AddConstructor<FluxGate>()
            .AddAttribute("MaxHold",
                          "Longest time a request is held, whatever the plan (0: no limit).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FluxGate::m_maxHold),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Decision",
                            "A request was decided (job, run, rank, step, held).",
                            MakeTraceSourceAccessor(&FluxGate::m_decisionTrace),
                            "ns3::FluxGate::DecisionTracedCallback");
    return tid;
}

FluxGate::FluxGate()
    : m_controller(nullptr),
      m_job(0),
      m_hasPlan(false),
      m_planRun(0),
      m_hold(false),
      m_behind(false),
      m_awaiting(false),
      m_awaitRun(0),
      m_decisions(0),
      m_heldCount(0)
{
    NS_LOG_FUNCTION(this);
}

FluxGate::~FluxGate() = default;

void
FluxGate::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_timer.Cancel();
    m_collective = nullptr;
    m_controller = nullptr;
    m_followers.clear();
    CollectiveGate::DoDispose();
}

void
FluxGate::Setup(FluxController* controller, uint32_t job)
{
    m_controller = controller;
    m_job = job;
}

bool
FluxGate::Allowed(uint32_t run) const
{
    if (m_awaiting && m_awaitRun == run)
    {
        return false;
    }
    return !m_hasPlan || m_planRun != run || !m_hold;
}

void
FluxGate::Ask(Ptr<Collective> collective, const Request& req)
{
    ++m_decisions;
    const bool allowed = Allowed(req.run);
    if (m_controller)
    {
        m_controller->CountDecision(!allowed);
        if (m_controller->UsesProgress())
        {
            if (req.run != m_progressRun)
            {
                m_progressRun = req.run;
                m_progressStep = 1; // (the run's start message stands for step 0)
            }
            if (req.step + 1 > m_progressStep)
            {
                m_progressStep = req.step + 1;
                m_controller->SendRunProgress(m_job, req.run, req.step);
            }
        }
    }
    if (allowed)
    {
        m_decisionTrace(m_job, req.run, req.rank, req.step, false);
        collective->Release(req.rank);
        return;
    }
    NS_LOG_FUNCTION(this << m_job << req.run << req.rank << req.step);
    ++m_heldCount;
    m_decisionTrace(m_job, req.run, req.rank, req.step, true);
    m_collective = collective;
    m_held.push_back(req.rank);
    m_heldSince.push_back(Simulator::Now());
    Arm();
}

void
FluxGate::Arm()
{
    if (m_held.empty() || !m_maxHold.IsStrictlyPositive())
    {
        m_timer.Cancel();
        return;
    }
    const Time at = std::max(m_heldSince.front() + m_maxHold, Simulator::Now());
    if (!m_timer.IsExpired() && Simulator::Now() + Simulator::GetDelayLeft(m_timer) == at)
    {
        return;
    }
    m_timer.Cancel();
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(GATE_TIMER_EVENT, m_job));
    m_timer = Simulator::Schedule(at - Simulator::Now(), &FluxGate::ReleaseAll, this);
}

void
FluxGate::ReleaseAll()
{
    m_timer.Cancel();
    std::vector<uint32_t> ranks;
    ranks.swap(m_held);
    m_heldSince.clear();
    Ptr<Collective> c = m_collective;
    for (uint32_t rank : ranks)
    {
        c->Release(rank);
    }
    if (m_held.empty())
    {
        // Hold the collective only while holding its requests: it holds this
        // gate, and the cycle would keep both alive unless disposed.
        m_collective = nullptr;
        for (const auto& f : m_followers)
        {
            f->LeaderReleased(); // the job's other collectives may start
        }
    }
}

void
FluxGate::ReceivePlan(uint32_t run, bool hold, bool behind, bool started)
{
    NS_LOG_FUNCTION(this << m_job << run << hold << behind << started);
    m_hasPlan = true;
    m_planRun = run;
    m_hold = hold;
    m_behind = behind;
    if (started && m_awaiting && m_awaitRun == run)
    {
        m_awaiting = false;
    }
    if (m_held.empty())
    {
        return;
    }
    if (Allowed(m_collective->GetRun()))
    {
        ReleaseAll();
    }
    else
    {
        Arm();
    }
}

void
FluxGate::RunStarted(Ptr<Collective> collective, uint64_t bytes)
{
    if (m_controller)
    {
        // behind a job that may be starting too: wait for the answer
        m_awaiting = m_hasPlan && m_behind;
        m_awaitRun = collective->GetRun();
        m_controller->SendRunStarted(m_job, collective->GetRun(), bytes);
    }
}

void
FluxGate::RunFinished(Ptr<Collective> collective)
{
    if (m_controller)
    {
        m_controller->SendRunFinished(m_job, collective->GetRun());
    }
}

void
FluxGate::AddFollower(Ptr<FluxFollowerGate> gate)
{
    m_followers.push_back(gate);
}

bool
FluxGate::IsHolding() const
{
    return !m_held.empty();
}

uint64_t
FluxGate::GetHeld() const
{
    return m_heldCount;
}

uint64_t
FluxGate::GetDecisions() const
{
    return m_decisions;
}

TypeId
FluxFollowerGate::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FluxFollowerGate")
                            .SetParent<CollectiveGate>()
                            .SetGroupName("Flux")
                            .AddConstructor<FluxFollowerGate>();
    return tid;
}

FluxFollowerGate::FluxFollowerGate()
    : m_leader(nullptr),
      m_heldCount(0)
{
    NS_LOG_FUNCTION(this);
}

FluxFollowerGate::~FluxFollowerGate() = default;

void
FluxFollowerGate::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_waiting.clear();
    m_leader = nullptr;
    CollectiveGate::DoDispose();
}

void
FluxFollowerGate::Setup(FluxGate* leader)
{
    m_leader = leader;
}

void
FluxFollowerGate::Ask(Ptr<Collective> collective, const Request& req)
{
    if (req.step == 0 && req.chunk == 0 && m_leader && m_leader->IsHolding())
    {
        ++m_heldCount;
        m_waiting.emplace_back(collective, req.rank);
        return;
    }
    collective->Release(req.rank);
}

void
FluxFollowerGate::LeaderReleased()
{
    std::vector<std::pair<Ptr<Collective>, uint32_t>> waiting;
    waiting.swap(m_waiting);
    for (const auto& [c, rank] : waiting)
    {
        c->Release(rank);
    }
}

uint64_t
FluxFollowerGate::GetHeld() const
{
    return m_heldCount;
}

} // namespace ns3
