/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-run.h"
#include "timeline-builder.h"

#include "ns3/job-step-tag.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ns3
{

namespace scenario
{

namespace
{

/**
 * \param phase a collective's phase
 * \return its name on the timeline
 */
std::string
PhaseName(JobStepTag::Phase phase)
{
    switch (phase)
    {
    case JobStepTag::REDUCE_SCATTER:
        return "reduce-scatter";
    case JobStepTag::ALL_GATHER:
        return "all-gather";
    default:
        return "step";
    }
}

/// Milliseconds of the results as nanoseconds.
int64_t
MsToNs(double ms)
{
    return std::llround(ms * 1e6);
}

/// No step records (a replayed workload's nodes are shown instead).
const std::vector<Collective::StepRecord> kNoRecords;

/// A workload node's category in the timeline.
std::string
NodeCategory(const WorkloadNode& n)
{
    switch (n.kind)
    {
    case WorkloadNode::Kind::COMPUTE:
        return "compute";
    case WorkloadNode::Kind::MEMORY:
        return "memory";
    case WorkloadNode::Kind::COLLECTIVE:
        return CollectiveTypeName(n.collective);
    case WorkloadNode::Kind::SEND:
        return "send";
    case WorkloadNode::Kind::RECV:
        return "recv";
    }
    return "node";
}

} // namespace

void
ScenarioRun::TimelineJob(TimelineBuilder& b, TimelineData& t, uint32_t j) const
{
    const Ptr<TrainingJob>& job = m_jobs[j];
    const Ptr<Collective> coll = job->GetCollective();
    const Ptr<WorkloadReplay> replay = job->GetWorkload();
    const uint32_t nRanks = replay ? replay->GetTrace().ranks : coll->GetNRanks();
    const uint32_t id = b.AddJob(job->GetName(), nRanks);
    const uint32_t buckets = std::max(1U, job->GetNBuckets());
    const auto& iterations = job->GetIterations();
    for (uint32_t i = 0; i < iterations.size(); ++i)
    {
        const auto& it = iterations[i];
        const auto index = static_cast<double>(i);
        b.AddJobSpan(id,
                     "iteration " + std::to_string(i),
                     "iteration",
                     it.start,
                     it.end,
                     {{"iteration", index}});
        if (it.compute > it.start)
        {
            // the scheduler held the iteration's start (an iteration gate)
            b.AddJobSpan(id, "held", "gate", it.start, it.compute, {{"iteration", index}});
        }
        for (uint32_t r = 0; r < nRanks && !replay; ++r)
        {
            b.AddRankSpan(id,
                          r,
                          "compute",
                          "compute",
                          it.compute,
                          it.compute + job->GetComputeTime(),
                          {{"iteration", index}});
        }
    }
    if (replay)
    {
        // every node of the workload, as the replay ran it
        for (const auto& rec : replay->GetNodeRecords())
        {
            const WorkloadNode& n = replay->GetTrace().nodes[rec.rank][rec.node];
            b.AddRankSpan(id,
                          rec.rank,
                          n.name.empty() ? NodeCategory(n) : n.name,
                          NodeCategory(n),
                          rec.start,
                          rec.end,
                          {{"iteration", static_cast<double>(rec.iteration)},
                           {"node", static_cast<double>(n.id)},
                           {"bytes", static_cast<double>(n.bytes)}});
        }
    }
    // The collective's runs, rank by rank: each run from the rank's first
    // step being ready to its last step's end, and in it every step, after
    // the time it was held at the scheduler's gate (ready to start).
    const auto& records = replay ? kNoRecords : coll->GetStepRecords();
    const uint32_t nSteps = coll->GetNSteps();
    const std::size_t perRun = static_cast<std::size_t>(nRanks) * nSteps;
    for (std::size_t base = 0; perRun > 0 && base + perRun <= records.size(); base += perRun)
    {
        const uint32_t run = records[base].run;
        const double iteration = run / buckets;
        const double bucket = run % buckets;
        const std::string runName =
            buckets > 1 ? "allreduce (bucket " + std::to_string(run % buckets) + ")" : "allreduce";
        for (uint32_t r = 0; r < nRanks; ++r)
        {
            bool complete = true;
            for (uint32_t s = 0; s < nSteps; ++s)
            {
                const auto& rec = records[base + static_cast<std::size_t>(s) * nRanks + r];
                // (a step that ended took time: a zero end is a step not finished)
                if (!rec.end.IsStrictlyPositive())
                {
                    complete = false;
                    continue;
                }
                const double step = s;
                if (rec.start > rec.ready)
                {
                    b.AddRankSpan(id, r, "held", "gate", rec.ready, rec.start, {{"step", step}});
                }
                b.AddRankSpan(id,
                              r,
                              PhaseName(coll->GetPhase(s)) + " " + std::to_string(s),
                              "step",
                              rec.start,
                              rec.end,
                              {{"iteration", iteration}});
            }
            if (complete)
            {
                const auto& first = records[base + r];
                const auto& last =
                    records[base + static_cast<std::size_t>(nSteps - 1) * nRanks + r];
                b.AddRankSpan(id,
                              r,
                              runName,
                              "collective",
                              first.ready,
                              last.end,
                              {{"run", static_cast<double>(run)},
                               {"iteration", iteration},
                               {"bucket", bucket}});
            }
        }
    }
    // The scheduler's classes: a counter, and an instant at each change.
    const uint32_t cls = t.AddCounter(b.GetProcess(id), "traffic class", {"class"});
    for (const auto& c : m_scheduler->GetClassTimeline(j))
    {
        t.AddCounterSample(cls, c.at.GetNanoSeconds(), {static_cast<double>(c.cls)});
        b.AddJobInstant(id,
                        "class " + std::to_string(c.cls),
                        "class",
                        c.at,
                        {{"class", static_cast<double>(c.cls)}});
    }
}

void
ScenarioRun::TimelineLinks(const RunResults& r, TimelineData& t, int32_t sortIndex) const
{
    if (m_traceLinks.empty() || r.queues.empty())
    {
        return; // (the flow level samples no links: an empty process would mislead)
    }
    // Per traced link, its utilisation over each sampling interval (shown
    // from the interval's start) and its egress queue at each sample.
    const uint32_t process = t.AddProcess("links", sortIndex);
    std::map<std::string, std::pair<uint32_t, uint32_t>> counters;
    for (uint32_t l : m_traceLinks)
    {
        const std::string& name = m_topo.links[l].name;
        if (counters.count(name) == 0)
        {
            counters[name] = {t.AddCounter(process, name + " utilization", {"utilization"}),
                              t.AddCounter(process, name + " queue", {"bytes"})};
        }
    }
    const int64_t intervalNs = std::llround(m_cfg.traces.intervalUs * 1e3);
    for (const auto& q : r.queues)
    {
        const auto c = counters.find(q.link);
        if (c == counters.end())
        {
            continue;
        }
        const int64_t at = std::llround(q.timeUs * 1e3);
        if (at > 0)
        {
            t.AddCounterSample(c->second.first,
                               std::max<int64_t>(0, at - intervalNs),
                               {q.utilization});
        }
        t.AddCounterSample(c->second.second, at, {static_cast<double>(q.queueBytes)});
    }
}

void
ScenarioRun::TimelineTenants(const RunResults& r, TimelineData& t, int32_t sortIndex) const
{
    if (m_tenants.empty())
    {
        return;
    }
    // Per tenant, its finished flows: in flight at the start of each
    // interval, and finished during it (only the changes are written).
    const uint32_t process = t.AddProcess("background", sortIndex);
    const int64_t endNs = MsToNs(r.sim.simulatedMs);
    int64_t binNs = m_cfg.traces.enabled ? std::llround(m_cfg.traces.intervalUs * 1e3) : 0;
    binNs = std::max<int64_t>({binNs, endNs / 1000, 1000});
    for (const auto& tenant : m_tenants)
    {
        std::vector<int64_t> starts;
        std::vector<int64_t> ends;
        for (const auto& f : r.flows)
        {
            if (f.tenant == tenant->GetName())
            {
                starts.push_back(MsToNs(f.startMs));
                ends.push_back(starts.back() + std::llround(f.fctUs * 1e3));
            }
        }
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        const uint32_t inFlight =
            t.AddCounter(process, tenant->GetName() + " flows in flight", {"flows"});
        const uint32_t finished =
            t.AddCounter(process, tenant->GetName() + " flows finished", {"flows"});
        auto count = [](const std::vector<int64_t>& v, int64_t upTo) {
            return static_cast<double>(std::upper_bound(v.begin(), v.end(), upTo) - v.begin());
        };
        double lastInFlight = -1;
        double lastFinished = -1;
        for (int64_t at = 0; at <= endNs; at += binNs)
        {
            const double flying = count(starts, at) - count(ends, at);
            const double done = count(ends, at + binNs - 1) - count(ends, at - 1);
            if (flying != lastInFlight)
            {
                t.AddCounterSample(inFlight, at, {flying});
                lastInFlight = flying;
            }
            if (done != lastFinished)
            {
                t.AddCounterSample(finished, at, {done});
                lastFinished = done;
            }
        }
        // the flows that end in the last, partial interval
        const double flying = count(starts, endNs) - count(ends, endNs);
        if (flying != lastInFlight)
        {
            t.AddCounterSample(inFlight, endNs, {flying});
        }
    }
}

void
ScenarioRun::CollectTimeline(const RunResults& r, TimelineData& t) const
{
    t.SetMetadata("policy", r.policy);
    t.SetMetadata("seed", std::to_string(r.seed));
    t.SetMetadata("backend", m_fluid ? "flow" : "packet");
    if (!m_cfg.description.empty())
    {
        t.SetMetadata("description", m_cfg.description);
    }
    t.SetMetadata("stop_reason", r.sim.stopReason);
    TimelineBuilder b(t);
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        TimelineJob(b, t, j);
    }
    b.Finish();
    const auto next = static_cast<int32_t>(m_jobs.size());
    TimelineLinks(r, t, next);
    TimelineTenants(r, t, next + 1);
}

} // namespace scenario
} // namespace ns3
