/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "bound-writer.h"

#include "flux-version.h"
#include "results-table.h"
#include "results-writer.h"

#include <cmath>

namespace ns3
{

namespace
{

using ojson = nlohmann::ordered_json;

/// A time in ms rounded to the nanosecond, or null when it is not finite.
ojson
Ms(double ms)
{
    if (!std::isfinite(ms))
    {
        return nullptr;
    }
    return ResultsTable::Round(ms, ResultsTable::kTimeDigits);
}

/// {mean_jct_ms, worst_iteration_ms} of a run.
ojson
OutcomeJson(const BoundResult::Outcome& o)
{
    ojson j = ojson::object();
    j["mean_jct_ms"] = Ms(o.meanJctMs);
    j["worst_iteration_ms"] = Ms(o.worstIterationMs);
    return j;
}

} // namespace

double
BoundWriter::GapShare(double fifo, double policy, double best)
{
    if (!std::isfinite(fifo) || !std::isfinite(policy) || !std::isfinite(best) ||
        fifo - best <= 1e-6 * std::abs(fifo))
    {
        return std::nan("");
    }
    return (fifo - policy) / (fifo - best);
}

ojson
BoundWriter::ToJson(const BoundResult& bound)
{
    ojson out = ojson::object();
    out["seed"] = bound.seed;
    out["seeds"] = ojson{{"ecmp", bound.seeds.ecmp},
                         {"background", bound.seeds.background},
                         {"placement", bound.seeds.placement}};
    out["backend"] = "flow";
    ojson jobs = ojson::array();
    for (const auto& job : bound.jobs)
    {
        ojson j = ojson::object();
        j["name"] = job.name;
        j["start_ms"] = Ms(job.startMs);
        j["alone_jct_ms"] = Ms(job.jctMs);
        j["alone_best_iteration_ms"] = Ms(job.bestIterationMs);
        j["alone_worst_iteration_ms"] = Ms(job.worstIterationMs);
        j["bound_jct_ms"] = Ms(job.boundJctMs);
        j["bound_iteration_ms"] = Ms(job.boundIterationMs);
        jobs.push_back(std::move(j));
    }
    out["jobs"] = std::move(jobs);

    ojson lower = ojson::object();
    lower["mean_jct_ms"] = Ms(bound.lowerMeanJctMs);
    lower["mean_alone_jct_ms"] = Ms(bound.meanAloneJctMs);
    lower["mean_job_bound_ms"] = Ms(bound.meanJobBoundMs);
    lower["srpt_mean_jct_ms"] = Ms(bound.srptMeanJctMs);
    lower["srpt_link"] = bound.srptLink;
    lower["worst_iteration_ms"] = Ms(bound.lowerWorstIterationMs);
    out["lower_bound"] = std::move(lower);

    const auto& b = bound.best;
    ojson best = OutcomeJson(b);
    best["schedule"] = b.schedule;
    best["order"] = b.order;
    ojson classes = ojson::object();
    for (const auto& [name, cls] : b.classes)
    {
        classes[name] = cls;
    }
    best["classes"] = std::move(classes);
    best["schedules_tried"] = b.schedulesTried;
    best["search"] = b.search;
    out["best"] = std::move(best);

    out["fifo"] = OutcomeJson(bound.fifo);
    ojson policy = ojson::object();
    policy["name"] = bound.policy;
    policy["mean_jct_ms"] = Ms(bound.policyOutcome.meanJctMs);
    policy["worst_iteration_ms"] = Ms(bound.policyOutcome.worstIterationMs);
    const double share =
        GapShare(bound.fifo.meanJctMs, bound.policyOutcome.meanJctMs, bound.best.meanJctMs);
    policy["gap_share"] = std::isfinite(share)
                              ? ojson(ResultsTable::Round(share, ResultsTable::kRatioDigits))
                              : ojson(nullptr);
    out["policy"] = std::move(policy);

    ojson sim = ojson::object();
    sim["runs"] = bound.runs;
    sim["wall_s"] = ResultsTable::Round(bound.wallS, 3);
    sim["flux_version"] = GetFluxVersion();
    sim["ns3_version"] = GetFluxNs3Version();
    sim["plugins"] = bound.plugins;
    out["sim"] = std::move(sim);
    return out;
}

void
BoundWriter::Write(const BoundResult& bound, const std::string& path)
{
    ResultsWriter::WriteFiles({{path, ToJson(bound).dump(2) + "\n"}});
}

} // namespace ns3
