/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-controller.h"

#include "ecmp-aware-scheduler.h"
#include "flux-queue-disc.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluxController");

NS_OBJECT_ENSURE_REGISTERED(FluxController);

namespace
{

/// Keyed events (OrderedScheduler): the controller's decisions, after
/// every job's and gate's timer of the same time.
const uint32_t CONTROL_EVENT = OrderedScheduler::RegisterKind("scheduler control", 5);

} // namespace

FLUX_REGISTER_POLICY("flux", FluxController, 3);

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
                          "Lead in virtual end time a waiting job needs over the job being "
                          "served to take its place.",
                          TimeValue(MicroSeconds(350)),
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
            .AddAttribute("PreemptRuns",
                          "A run let go may be held again at its next step (or chunk) when a "
                          "job due earlier starts (false: the unit of planning is the whole "
                          "run, an allreduce of one bucket).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluxController::m_preemptRuns),
                          MakeBooleanChecker())
            .AddAttribute("Holds",
                          "Hold a run at its gate while a job ahead of it that shares a link "
                          "is sending (false: order by strict classes alone; the held "
                          "traffic then takes what the job ahead leaves).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluxController::m_holds),
                          MakeBooleanChecker())
            .AddAttribute("MinShare",
                          "Starvation guard of the switch ports' FluxQueueDisc: least share "
                          "of a port's bytes a waiting class gets.",
                          DoubleValue(FluxQueueDisc::DEFAULT_MIN_SHARE),
                          MakeDoubleAccessor(&FluxController::m_minShare),
                          MakeDoubleChecker<double>(0, 0.5))
            .AddAttribute("MaxWait",
                          "Starvation guard of the switch ports' FluxQueueDisc: a class whose "
                          "head packet waited this long is served first (0: off).",
                          TimeValue(MicroSeconds(150)),
                          MakeTimeAccessor(&FluxController::m_maxWait),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("FlowsPerClass",
                          "Flow queues per class of the switch ports' FluxQueueDisc (0: one "
                          "when no other tenant has a data class, since per-flow deficit "
                          "round robin then only lengthens the jobs' queues, unless "
                          "FluxQueueDisc's default was changed; else that default).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluxController::m_flowsPerClass),
                          MakeUintegerChecker<uint32_t>(0, 1024))
            .AddAttribute("MeasurementWeight",
                          "Weight of a new measurement in the moving average of a job's "
                          "compute gap (which predicts its next run).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&FluxController::m_ewma),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("LateFactor",
                          "A job ahead stops holding the jobs behind it once its run has gone "
                          "for this many times its time alone (it is slowed elsewhere).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&FluxController::m_lateFactor),
                          MakeDoubleChecker<double>(1))
            .AddAttribute("MeasuredRates",
                          "Drain the virtual fair-sharing system at each job's measured "
                          "throughput (true) rather than its rate alone on its paths (false).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluxController::m_measuredRates),
                          MakeBooleanChecker())
            .AddAttribute("PathPlacement",
                          "Choose the jobs' paths (source ports) before the run.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluxController::m_placePaths),
                          MakeBooleanChecker())
            .AddAttribute("GuardSlack",
                          "Fifo guard: a job whose run ended in the shadow system (fifo's "
                          "fair sharing, on the jobs' own timelines) longer ago than this "
                          "fraction of the shadow's time since the job's start, and has not "
                          "ended, goes first (negative: off).",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&FluxController::m_guardSlack),
                          MakeDoubleChecker<double>(-1))
            .AddAttribute("RemainingWork",
                          "Order the runs under way by their remaining work at their rate "
                          "alone (shortest first; the gates report each ring step's start) "
                          "rather than by when fair sharing would end them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FluxController::m_remainingWork),
                          MakeBooleanChecker())
            .AddTraceSource("Plan",
                            "A plan was sent to a gate (job, run, hold, class).",
                            MakeTraceSourceAccessor(&FluxController::m_planTrace),
                            "ns3::FluxController::PlanTracedCallback");
    return tid;
}

FluxController::FluxController()
    : m_perChunk(false),
      m_preemptRuns(true),
      m_holds(true),
      m_minShare(FluxQueueDisc::DEFAULT_MIN_SHARE),
      m_flowsPerClass(0),
      m_ewma(0.5),
      m_lateFactor(1.5),
      m_measuredRates(true),
      m_placePaths(true),
      m_guardSlack(0.05),
      m_remainingWork(false)
{
    NS_LOG_FUNCTION(this);
}

FluxController::~FluxController() = default;

void
FluxController::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_periodic.Cancel();
    m_replanEvent.Cancel();
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
FluxController::ChoosesPaths() const
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
    if (m_flowsPerClass > 0)
    {
        factory.Set("FlowsPerClass", UintegerValue(m_flowsPerClass));
    }
    else if ((GetReservedClasses() & ~TrafficClass::Bit(TrafficClass::CONTROL)) == 0 &&
             !FlowsPerClassDefaultChanged())
    {
        factory.Set("FlowsPerClass", UintegerValue(1));
    }
    return true;
}

bool
FluxController::FlowsPerClassDefaultChanged()
{
    TypeId::AttributeInformation info;
    FluxQueueDisc::GetTypeId().LookupAttributeByName("FlowsPerClass", &info);
    const auto current = DynamicCast<const UintegerValue>(info.initialValue);
    const auto original = DynamicCast<const UintegerValue>(info.originalInitialValue);
    return current && original && current->Get() != original->Get();
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
    RecordFairShares();
    if (m_placePaths)
    {
        PlacePaths(EcmpAwareScheduler::ByBytes(*this));
    }
    m_view.assign(n, View());
    m_gates.clear();
    m_virtualNow = Simulator::Now();
    m_shadowNow = m_virtualNow.GetSeconds();
    for (uint32_t j = 0; j < n; ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        Ptr<FluxGate> gate = CreateObject<FluxGate>();
        gate->SetAttribute("MaxHold", TimeValue(m_maxHold));
        gate->SetAttribute("PerChunk", BooleanValue(m_perChunk));
        gate->Setup(this, j);
        tj->GetCollective()->SetGate(gate);
        // a replayed job's other collectives: per whole collective
        for (const auto& c : tj->GetCollectives())
        {
            if (c != tj->GetCollective())
            {
                Ptr<FluxFollowerGate> follower = CreateObject<FluxFollowerGate>();
                follower->Setup(PeekPointer(gate));
                c->SetGate(follower);
                gate->AddFollower(follower);
            }
        }
        m_gates.push_back(gate);
        View& v = m_view[j];
        v.lastEnd = tj->GetStartTime();
        v.gap = tj->GetComputeTime().GetSeconds() / tj->GetNBuckets();
        v.nextBytes = static_cast<double>(
            tj->GetCollective()->GetBytesSentPerRank(tj->GetGradientBytes() / tj->GetNBuckets()));
        v.runs = tj->GetWorkload() ? 0 : tj->GetNIterations() * tj->GetNBuckets();
        v.shadowNext = tj->GetStartTime().GetSeconds() + v.gap;
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

std::vector<std::string>
FluxController::GetFlowLevelLimits() const
{
    return {"scheduler.max_wait_us", "scheduler.min_share", "scheduler.flows_per_class"};
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
    const double alone = std::max(1.0, GetJobInfo(job).bottleneckBps / 8);
    if (m_measuredRates && !m_view.empty() && m_view[job].rate > 0)
    {
        return std::min(m_view[job].rate, alone);
    }
    return alone;
}

void
FluxController::RecordFairShares()
{
    const uint32_t n = GetNJobs();
    m_fair.assign(n, FairShare());
    // per link direction: the jobs' sends on it
    std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> onLink;
    for (uint32_t j = 0; j < n; ++j)
    {
        m_fair[j].aloneBps = GetJobInfo(j).bottleneckBps;
        for (const auto& l : GetLinkLoads(j))
        {
            onLink[l.link].emplace_back(j, l.sends);
        }
    }
    for (uint32_t j = 0; j < n; ++j)
    {
        for (const auto& l : GetLinkLoads(j))
        {
            const auto& jobs = onLink[l.link];
            if (jobs.size() < 2)
            {
                continue; // its own: no other job slows it there
            }
            SharedLink shared{l.bps, l.sends, {}};
            for (const auto& e : jobs)
            {
                if (e.first != j)
                {
                    shared.others.push_back(e);
                }
            }
            m_fair[j].links.push_back(std::move(shared));
        }
    }
}

double
FluxController::VirtualRate(uint32_t job, const std::vector<double>& backlog) const
{
    const double rate = Rate(job);
    if (job >= m_fair.size() || m_fair[job].aloneBps <= 0)
    {
        return rate;
    }
    // Every send on a link gets an equal share (DCQCN's fair share); a ring
    // goes at its slowest send.
    const FairShare& f = m_fair[job];
    double share = f.aloneBps;
    for (const auto& l : f.links)
    {
        uint32_t sends = l.own;
        for (const auto& [k, s] : l.others)
        {
            if (backlog[k] > 0)
            {
                sends += s;
            }
        }
        share = std::min(share, l.bps / sends);
    }
    return std::min(rate, f.aloneBps / 8) * share / f.aloneBps;
}

bool
FluxController::FairRates(const std::vector<double>& backlog,
                          std::vector<double>& rate,
                          double& step) const
{
    bool any = false;
    for (uint32_t j = 0; j < backlog.size(); ++j)
    {
        rate[j] = backlog[j] > 0 ? VirtualRate(j, backlog) : 0;
        if (rate[j] > 0)
        {
            any = true;
            step = std::min(step, backlog[j] / rate[j]);
        }
    }
    return any;
}

void
FluxController::Drain(std::vector<double>& backlog,
                      double duration,
                      std::vector<double>* ends) const
{
    const std::size_t n = backlog.size();
    if (ends)
    {
        ends->assign(n, std::numeric_limits<double>::infinity());
    }
    std::vector<double> rate(n, 0.0);
    double t = 0;
    while (t < duration)
    {
        // until the next backlog empties, the rates stay as they are
        double step = duration - t;
        if (!FairRates(backlog, rate, step))
        {
            break;
        }
        t += step;
        for (uint32_t j = 0; j < n; ++j)
        {
            if (rate[j] <= 0)
            {
                continue;
            }
            backlog[j] -= rate[j] * step;
            // a remainder under a byte is rounding: the backlog is empty
            if (backlog[j] < 1)
            {
                backlog[j] = 0;
                if (ends)
                {
                    (*ends)[j] = t;
                }
            }
        }
    }
}

void
FluxController::AdvanceVirtual()
{
    const Time now = Simulator::Now();
    if (now <= m_virtualNow)
    {
        return;
    }
    std::vector<double> backlog(m_view.size());
    for (uint32_t j = 0; j < m_view.size(); ++j)
    {
        backlog[j] = m_view[j].backlog;
    }
    std::vector<double> ends;
    Drain(backlog, (now - m_virtualNow).GetSeconds(), &ends);
    for (uint32_t j = 0; j < m_view.size(); ++j)
    {
        m_view[j].backlog = backlog[j];
        if (std::isfinite(ends[j]))
        {
            m_view[j].virtualEnd = m_virtualNow.GetSeconds() + ends[j];
        }
    }
    m_virtualNow = now;
    AdvanceShadow(now.GetSeconds());
}

void
FluxController::AdvanceShadow(double until)
{
    if (m_guardSlack < 0)
    {
        return;
    }
    const std::size_t n = m_view.size();
    std::vector<double> backlog(n);
    std::vector<double> rate(n);
    double t = m_shadowNow;
    while (t < until)
    {
        for (uint32_t j = 0; j < n; ++j)
        {
            View& v = m_view[j];
            if (v.shadowBacklog <= 0 && v.shadowNext <= t && v.shadowEnds.size() < v.runs)
            {
                v.shadowBacklog = std::max(v.nextBytes, 1.0);
                v.shadowNext = std::numeric_limits<double>::infinity();
            }
            backlog[j] = v.shadowBacklog;
        }
        // until a backlog empties or a run starts
        double step = until - t;
        FairRates(backlog, rate, step);
        for (uint32_t j = 0; j < n; ++j)
        {
            if (rate[j] <= 0 && m_view[j].shadowNext > t)
            {
                step = std::min(step, m_view[j].shadowNext - t);
            }
        }
        // a step lost to rounding ends the advance rather than loop on it
        t = t + step > t ? t + step : until;
        for (uint32_t j = 0; j < n; ++j)
        {
            View& v = m_view[j];
            if (rate[j] <= 0)
            {
                continue;
            }
            v.shadowBacklog -= rate[j] * step;
            if (v.shadowBacklog < 1)
            {
                v.shadowBacklog = 0;
                v.shadowEnds.push_back(t);
                v.shadowNext = t + v.gap;
            }
        }
    }
    m_shadowNow = std::max(m_shadowNow, until);
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
FluxController::SendRunProgress(uint32_t job, uint32_t run, uint32_t step)
{
    ++m_counters.messages;
    OrderedScheduler::SetNextKey(Key(job));
    Simulator::Schedule(m_latency, &FluxController::RunProgress, this, job, run, step);
}

bool
FluxController::UsesProgress() const
{
    return m_remainingWork;
}

void
FluxController::RunProgress(uint32_t job, uint32_t run, uint32_t step)
{
    View& v = m_view.at(job);
    if (v.communicating && v.run == run)
    {
        v.latestStep = std::max(v.latestStep, step);
    }
}

void
FluxController::RunStarted(uint32_t job, uint32_t run, uint64_t bytes, Time sent)
{
    NS_LOG_FUNCTION(this << job << run << bytes << sent);
    AdvanceVirtual();
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
    const double perRank =
        static_cast<double>(GetJobInfo(job).job->GetCollective()->GetBytesSentPerRank(bytes));
    v.nextBytes = perRank > 0 ? perRank : v.nextBytes;
    v.runBytes = perRank;
    v.runStart = sent.GetSeconds();
    v.latestStep = 0;
    v.goAt = -1;
    v.overdue = false;
    v.backlog += perRank;
    RequestReplan();
}

void
FluxController::RunFinished(uint32_t job, uint32_t run, Time sent)
{
    NS_LOG_FUNCTION(this << job << run << sent);
    AdvanceVirtual();
    View& v = m_view.at(job);
    // its throughput from when it was let go: what the virtual system drains
    const double from = std::max(v.goAt + m_latency.GetSeconds(), v.runStart);
    const double duration = sent.GetSeconds() - from;
    if (v.goAt >= 0 && v.alone && duration > 0 && v.runBytes > 0)
    {
        const double rate = v.runBytes / duration;
        v.rate = v.rate > 0 ? (1 - m_ewma) * v.rate + m_ewma * rate : rate;
    }
    v.communicating = false;
    v.goAt = -1;
    v.lastEnd = sent;
    v.run = run + 1;
    const Ptr<TrainingJob> tj = GetJobInfo(job).job;
    v.done = tj->IsFinished() || tj->HasFailed();
    RequestReplan();
}

void
FluxController::RequestReplan()
{
    if (!m_replanEvent.IsExpired())
    {
        return;
    }
    // after every message of this instant: jobs that start together are
    // planned together, and no gate acts on a plan that knows only one
    OrderedScheduler::SetNextKey(Key(ALL_JOBS));
    m_replanEvent = Simulator::ScheduleNow(&FluxController::Replan, this);
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
        AdvanceVirtual();
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
    const uint32_t n = static_cast<uint32_t>(m_view.size());

    // when each backlog would empty under fair sharing, from now
    std::vector<double> backlog(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        if (tj->IsFinished() || tj->HasFailed())
        {
            m_view[j].done = true;
        }
        // a job done leaves the virtual system too: nobody waits for it
        backlog[j] = m_view[j].done ? 0 : m_view[j].backlog;
    }
    const std::vector<double> backlog0 = backlog;
    std::vector<double> ends;
    Drain(backlog, std::numeric_limits<double>::infinity(), &ends);

    struct Task
    {
        uint32_t job;
        double key;
        double ready; //!< predicted start of its next run (idle jobs), s
    };

    std::vector<Task> tasks;
    tasks.reserve(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        View& v = m_view[j];
        if (v.done)
        {
            continue;
        }
        double key;
        double ready = -1;
        if (v.communicating)
        {
            // when its backlog empties, or emptied: a run that is late
            // against fair sharing goes first, the latest-due last
            const uint32_t steps =
                m_remainingWork ? GetJobInfo(j).job->GetCollective()->GetNSteps() : 0;
            if (steps > 0)
            {
                // what is left of the run at its rate alone: the steps
                // before the latest one a rank has begun count as done
                const uint32_t done = std::min(steps, v.latestStep);
                const double left = static_cast<double>(steps - done) / steps;
                key = t + v.runBytes * left / Rate(j);
            }
            else
            {
                key = v.backlog > 0 && std::isfinite(ends[j]) ? t + ends[j] : v.virtualEnd;
            }
            // the job served keeps its place against small leads
            if (v.planned && v.plannedRun == v.run && !v.plannedHold)
            {
                key -= m_hysteresis.GetSeconds();
            }
            // behind fifo's pace (its shadow ended this run, and long enough
            // ago): first, the most overdue first
            if (m_guardSlack >= 0 && v.run < v.shadowEnds.size())
            {
                const double due = v.shadowEnds[v.run];
                const double since = GetJobInfo(j).job->GetStartTime().GetSeconds();
                if (t > due + m_guardSlack * (due - since))
                {
                    key = due - OVERDUE_LEAD;
                    if (!v.overdue)
                    {
                        v.overdue = true;
                        ++m_counters.overdue;
                    }
                }
            }
            // per-run planning: runs let go come first, in the order they went
            if (!m_preemptRuns && v.goAt >= 0)
            {
                key = v.goAt - 1e6;
            }
        }
        else
        {
            // its next run, at its fair share among the backlogged jobs, from
            // when it is predicted ready (as the runs under way are keyed)
            ready = std::max(t, v.lastEnd.GetSeconds() + v.gap);
            std::vector<double> joined = backlog0;
            joined[j] = std::max(v.nextBytes, 1.0);
            key = ready + v.nextBytes / VirtualRate(j, joined);
        }
        tasks.push_back(Task{j, key, ready});
    }
    // ties by job index: only exact ties, which the hysteresis then keeps
    std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) {
        return a.key < b.key;
    });

    const auto& classes = GetJobClasses();
    const double roundTrip = 2 * m_latency.GetSeconds();
    std::vector<uint32_t> level(n, 0);
    std::vector<bool> sending(n, false); // communicating and not held
    std::vector<bool> slowed(n, false);  // communicating, not held, but late
    for (std::size_t i = 0; i < tasks.size(); ++i)
    {
        const uint32_t j = tasks[i].job;
        View& v = m_view[j];
        bool hold = false;
        bool behind = false;
        uint32_t lvl = 0;
        for (std::size_t k = 0; k < i; ++k)
        {
            const uint32_t ahead = tasks[k].job;
            // A job ahead that sends but is late (slowed where it does not
            // contend) neither holds nor outranks it: the two share the
            // links fairly rather than this one taking the scraps of
            // strict priority.
            if (Conflict(j, ahead) && TurnsPay(ahead, j) && !(slowed[ahead] && m_holds))
            {
                lvl = std::max(lvl, level[ahead] + 1);
                hold = hold || sending[ahead];
                // both idle and due to start within a control round trip of
                // each other: neither's start message would reach the other
                // in time, so this one's gate waits for the answer to its own
                behind = behind || (tasks[i].ready >= 0 && tasks[k].ready >= 0 &&
                                    std::abs(tasks[k].ready - tasks[i].ready) <= roundTrip);
            }
        }
        if (!m_holds)
        {
            hold = false;
            behind = false;
        }
        level[j] = lvl;
        // A job ahead holds the others only while it sends at about its rate
        // alone: one that is late (slowed where it does not contend, or by
        // its transport) leaves room on the links it shares, which a held
        // job may use (work conservation; the periodic re-plan notices).
        if (v.communicating && !hold && v.goAt < 0)
        {
            v.goAt = t;
            v.alone = true;
        }
        // its throughput measures the fabric only while nothing preempts it
        v.alone = v.alone && !hold && lvl == 0;
        const double pace = v.rate > 0 ? std::min(v.rate, Rate(j)) : Rate(j);
        const bool late =
            v.goAt >= 0 && t > v.goAt + m_lateFactor * v.runBytes / pace + m_latency.GetSeconds();
        sending[j] = v.communicating && !hold && !late;
        slowed[j] = v.communicating && !hold && late;
        const uint8_t cls = classes[std::min<std::size_t>(lvl, classes.size() - 1)];
        // a plan that knows of the run's start answers the gate (it may wait)
        if (v.planned && v.plannedRun == v.run && v.plannedHold == hold && v.plannedClass == cls &&
            v.plannedBehind == behind && v.plannedStarted == v.communicating)
        {
            continue;
        }
        v.planned = true;
        v.plannedRun = v.run;
        v.plannedHold = hold;
        v.plannedClass = cls;
        v.plannedBehind = behind;
        v.plannedStarted = v.communicating;
        ++m_counters.messages;
        m_planTrace(j, v.run, hold, cls);
        OrderedScheduler::SetNextKey(Key(j));
        Simulator::Schedule(m_latency,
                            &FluxController::DeliverPlan,
                            this,
                            j,
                            v.run,
                            hold,
                            cls,
                            behind,
                            v.communicating);
    }
}

uint32_t
FluxController::Key(uint32_t job)
{
    return OrderedScheduler::ControlKey(CONTROL_EVENT, job);
}

void
FluxController::DeliverPlan(uint32_t job,
                            uint32_t run,
                            bool hold,
                            uint8_t cls,
                            bool behind,
                            bool started)
{
    SetJobClass(job, cls);
    m_gates.at(job)->ReceivePlan(run, hold, behind, started);
}

} // namespace ns3
