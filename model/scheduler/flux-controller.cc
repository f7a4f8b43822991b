/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-controller.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluxController");

NS_OBJECT_ENSURE_REGISTERED(FluxController);

TypeId
FluxController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluxController")
            .SetParent<JobScheduler>()
            .SetGroupName("Flux")
            .AddConstructor<FluxController>()
            .AddAttribute("ControlLatency",
                          "One-way latency of the messages between the controller and the gates.",
                          TimeValue(MicroSeconds(5)),
                          MakeTimeAccessor(&FluxController::m_latency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("ReplanInterval",
                          "Re-plan this often while a job communicates, besides at every run "
                          "start and end (0: only then).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&FluxController::m_replanInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Hysteresis",
                          "Lead in service time a waiting task needs over the task being "
                          "served to take its place.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&FluxController::m_hysteresis),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxHold",
                          "Longest time a gate holds a request, whatever the plan (0: no limit).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FluxController::m_maxHold),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("PerChunk",
                          "Gates decide per chunk of a ring step rather than per step.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FluxController::m_perChunk),
                          MakeBooleanChecker())
            .AddAttribute("MinShare",
                          "Starvation guard of the switch ports' FluxQueueDisc: least share "
                          "of a port's bytes a waiting class gets.",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&FluxController::m_minShare),
                          MakeDoubleChecker<double>(0, 0.5))
            .AddAttribute("MaxWait",
                          "Starvation guard of the switch ports' FluxQueueDisc: a class whose "
                          "head packet waited this long is served first (0: off).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FluxController::m_maxWait),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MeasurementWeight",
                          "Weight of a new measurement in the moving averages of compute gap "
                          "and throughput.",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FluxController::m_ewma),
                          MakeDoubleChecker<double>(0, 1))
            .AddTraceSource("Plan",
                            "A plan was sent to a gate (job, run, release time, class).",
                            MakeTraceSourceAccessor(&FluxController::m_planTrace),
                            "ns3::FluxController::PlanTracedCallback");
    return tid;
}

FluxController::FluxController()
    : m_perChunk(false),
      m_minShare(0.05),
      m_ewma(0.5)
{
    NS_LOG_FUNCTION(this);
}

FluxController::~FluxController() = default;

void
FluxController::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_periodic.Cancel();
    for (auto& g : m_gates)
    {
        g->Dispose();
    }
    m_gates.clear();
    JobScheduler::DoDispose();
}

std::string
FluxController::GetPolicyName() const
{
    return "flux";
}

bool
FluxController::UsesOwnClasses() const
{
    return true;
}

bool
FluxController::GetQueueDiscFactory(ObjectFactory& factory) const
{
    factory.SetTypeId("ns3::FluxQueueDisc");
    factory.Set("Order", StringValue(GetClassOrderString()));
    factory.Set("MinShare", DoubleValue(m_minShare));
    factory.Set("MaxWait", TimeValue(m_maxWait));
    return true;
}

bool
FluxController::GetQpArbiterFactory(ObjectFactory& factory) const
{
    factory.SetTypeId("ns3::ClassQpArbiter");
    factory.Set("Order", StringValue(GetClassOrderString()));
    return true;
}

void
FluxController::Start()
{
    const uint32_t n = GetNJobs();
    m_view.assign(n, View());
    m_gates.clear();
    for (uint32_t j = 0; j < n; ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        Ptr<FluxGate> gate = CreateObject<FluxGate>();
        gate->SetAttribute("MaxHold", TimeValue(m_maxHold));
        gate->SetAttribute("PerChunk", BooleanValue(m_perChunk));
        gate->Setup(this, j);
        tj->GetCollective()->SetGate(gate);
        m_gates.push_back(gate);
        View& v = m_view[j];
        v.lastEnd = tj->GetStartTime();
        v.gap = tj->GetComputeTime().GetSeconds() / tj->GetNBuckets();
        v.nextBytes = static_cast<double>(
            tj->GetCollective()->GetBytesSentPerRank(tj->GetGradientBytes() / tj->GetNBuckets()));
        SetJobClass(j, GetJobClasses().front());
    }
    OrderedScheduler::SetNextKey(Key(ALL_JOBS));
    Simulator::ScheduleNow(&FluxController::Replan, this);
    if (m_replanInterval.IsStrictlyPositive())
    {
        OrderedScheduler::SetNextKey(Key(ALL_JOBS));
        m_periodic = Simulator::Schedule(m_replanInterval, &FluxController::PeriodicReplan, this);
    }
}

bool
FluxController::DecidesPerRank() const
{
    return true; // the gates in the ranks decide
}

Ptr<FluxGate>
FluxController::GetGate(uint32_t job) const
{
    return m_gates.at(job);
}

void
FluxController::CountDecision(bool held)
{
    ++m_counters.decisions;
    if (held)
    {
        ++m_counters.held;
    }
}

double
FluxController::Rate(uint32_t job) const
{
    const View& v = m_view[job];
    if (v.rate > 0)
    {
        return v.rate;
    }
    return std::max(1.0, GetJobInfo(job).bottleneckBps / 8);
}

void
FluxController::SendRunStarted(uint32_t job, uint32_t run, uint64_t bytes)
{
    ++m_counters.messages;
    OrderedScheduler::SetNextKey(Key(job));
    Simulator::Schedule(m_latency,
                        &FluxController::RunStarted,
                        this,
                        job,
                        run,
                        bytes,
                        Simulator::Now());
}

void
FluxController::SendRunFinished(uint32_t job, uint32_t run)
{
    ++m_counters.messages;
    OrderedScheduler::SetNextKey(Key(job));
    Simulator::Schedule(m_latency, &FluxController::RunFinished, this, job, run, Simulator::Now());
}

void
FluxController::RunStarted(uint32_t job, uint32_t run, uint64_t bytes, Time sent)
{
    NS_LOG_FUNCTION(this << job << run << bytes << sent);
    View& v = m_view.at(job);
    if (run > 0 || v.gapKnown)
    {
        const double gap = (sent - v.lastEnd).GetSeconds();
        if (gap >= 0)
        {
            v.gap = v.gapKnown ? (1 - m_ewma) * v.gap + m_ewma * gap : gap;
            v.gapKnown = true;
        }
    }
    v.communicating = true;
    v.run = run;
    v.ready = sent;
    v.bytes = static_cast<double>(GetJobInfo(job).job->GetCollective()->GetBytesSentPerRank(bytes));
    v.served = 0;
    v.servedUntil = sent;
    Replan();
}

void
FluxController::RunFinished(uint32_t job, uint32_t run, Time sent)
{
    NS_LOG_FUNCTION(this << job << run << sent);
    View& v = m_view.at(job);
    Time from = v.ready;
    if (v.planned && v.plannedRun == run && v.plannedStart > from)
    {
        from = std::min(v.plannedStart, sent);
    }
    const double duration = (sent - from).GetSeconds();
    if (duration > 0 && v.bytes > 0)
    {
        const double rate = v.bytes / duration;
        v.rate = v.rate > 0 ? (1 - m_ewma) * v.rate + m_ewma * rate : rate;
    }
    v.communicating = false;
    v.lastEnd = sent;
    v.run = run + 1;
    v.nextBytes = v.bytes > 0 ? v.bytes : v.nextBytes;
    const Ptr<TrainingJob> tj = GetJobInfo(job).job;
    v.done = tj->IsFinished() || tj->HasFailed();
    Replan();
}

void
FluxController::PeriodicReplan()
{
    bool active = false;
    bool left = false;
    for (uint32_t j = 0; j < m_view.size(); ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        if (tj->IsFinished() || tj->HasFailed())
        {
            m_view[j].done = true;
        }
        left = left || !m_view[j].done;
        active = active || (m_view[j].communicating && !m_view[j].done);
    }
    if (active)
    {
        Replan();
    }
    if (left)
    {
        OrderedScheduler::SetNextKey(Key(ALL_JOBS));
        m_periodic = Simulator::Schedule(m_replanInterval, &FluxController::PeriodicReplan, this);
    }
}

void
FluxController::Replan()
{
    ++m_counters.replans;
    const Time now = Simulator::Now();
    const double t = now.GetSeconds();

    struct Task
    {
        uint32_t job;
        double ready;
        double service;
        double key;
        double start;
        double end;
    };

    std::vector<Task> tasks;
    tasks.reserve(m_view.size());
    for (uint32_t j = 0; j < m_view.size(); ++j)
    {
        View& v = m_view[j];
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        if (v.done || tj->IsFinished() || tj->HasFailed())
        {
            v.done = true;
            continue;
        }
        const double rate = Rate(j);
        Task task{j, 0, 0, 0, 0, 0};
        if (v.communicating)
        {
            // what the job sent since the last plan, as far as the plan let it
            Time from = v.servedUntil;
            const bool planned = v.planned && v.plannedRun == v.run;
            if (planned)
            {
                from = std::max(from, v.plannedStart);
            }
            if (now > from)
            {
                v.served += rate * (now - from).GetSeconds();
            }
            v.servedUntil = now;
            // at least one step's worth is always left until the run ends
            const double floor = v.bytes / std::max<uint32_t>(1, tj->GetCollective()->GetNSteps());
            const double remaining = std::max(v.bytes - v.served, floor);
            task.ready = v.ready.GetSeconds();
            task.service = remaining / rate;
            const bool served = planned && v.plannedStart <= now;
            task.key =
                served ? task.service - m_hysteresis.GetSeconds() : task.service - (t - task.ready);
        }
        else
        {
            task.ready = std::max(t, v.lastEnd.GetSeconds() + v.gap);
            task.service = v.nextBytes / rate;
            task.key = task.service + (task.ready - t);
        }
        tasks.push_back(task);
    }
    std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) {
        return a.key < b.key;
    });
    const auto& classes = GetJobClasses();
    for (std::size_t i = 0; i < tasks.size(); ++i)
    {
        Task& task = tasks[i];
        task.start = std::max(task.ready, t);
        uint32_t before = 0;
        for (std::size_t k = 0; k < i; ++k)
        {
            if (Conflict(task.job, tasks[k].job))
            {
                task.start = std::max(task.start, tasks[k].end);
                ++before;
            }
        }
        task.end = task.start + task.service;
        View& v = m_view[task.job];
        const uint8_t cls = classes[std::min<std::size_t>(before, classes.size() - 1)];
        // a start already reached is "now": the gate need not hold
        const Time start = task.start <= t ? now : Seconds(task.start);
        const bool startChanged = !(start <= now && v.plannedStart <= now) &&
                                  (start - v.plannedStart > NanoSeconds(100) ||
                                   v.plannedStart - start > NanoSeconds(100));
        if (v.planned && v.plannedRun == v.run && v.plannedClass == cls && !startChanged)
        {
            continue;
        }
        v.planned = true;
        v.plannedRun = v.run;
        v.plannedStart = start;
        v.plannedClass = cls;
        ++m_counters.messages;
        m_planTrace(task.job, v.run, start, cls);
        OrderedScheduler::SetNextKey(Key(task.job));
        Simulator::Schedule(m_latency,
                            &FluxController::DeliverPlan,
                            this,
                            task.job,
                            v.run,
                            start,
                            cls);
    }
}

uint32_t
FluxController::Key(uint32_t job)
{
    return OrderedScheduler::ControlKey(OrderedScheduler::CONTROL, job);
}

void
FluxController::DeliverPlan(uint32_t job, uint32_t run, Time releaseAt, uint8_t cls)
{
    SetJobClass(job, cls);
    m_gates.at(job)->ReceivePlan(run, releaseAt);
}

} // namespace ns3
