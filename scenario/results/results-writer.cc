/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "results-writer.h"

#include "flux-version.h"
#include "hpcc-fct-writer.h"
#include "output-file.h"
#include "results-table.h"

#include "ns3/log.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResultsWriter");

namespace
{

using ojson = nlohmann::ordered_json;

constexpr int kTimeDigits = ResultsTable::kTimeDigits;   //!< decimals of ms values
constexpr int kUsDigits = ResultsTable::kUsDigits;       //!< decimals of us values
constexpr int kRatioDigits = ResultsTable::kRatioDigits; //!< decimals of ratios
constexpr int kWallDigits = 3;                           //!< decimals of wall-clock seconds

/// A rounded number, or null when it is not finite.
ojson
Number(double x, int digits)
{
    if (!std::isfinite(x))
    {
        return nullptr;
    }
    return ResultsTable::Round(x, digits);
}

/// {p50, p99, p999} of FCT slowdowns.
ojson
SlowdownJson(const SampleSummary& s)
{
    ojson j = ojson::object();
    j["p50"] = Number(s.P50(), kRatioDigits);
    j["p99"] = Number(s.P99(), kRatioDigits);
    j["p999"] = Number(s.P999(), kRatioDigits);
    return j;
}

/// \param l statistics of packet latencies
/// \return their count, mean, p50, p99, p999 and max, us
ojson
LatencyJson(const RunResults::LatencyStats& l)
{
    ojson lat = ojson::object();
    lat["count"] = l.count;
    lat["mean"] = Number(l.mean, kUsDigits);
    lat["p50"] = Number(l.p50, kUsDigits);
    lat["p99"] = Number(l.p99, kUsDigits);
    lat["p999"] = Number(l.p999, kUsDigits);
    lat["max"] = Number(l.max, kUsDigits);
    return lat;
}

/// Add a job's or tenant's transport counters to its JSON object.
void
AddTransport(ojson& j, const RunResults::TransportCounters& t)
{
    j["retransmissions"] = t.retransmissions;
    j["retransmissions_repair"] = t.repair;
    j["retransmissions_spurious"] = t.spurious;
    j["timeouts"] = t.timeouts;
    j["error_completions"] = t.errorCompletions;
}

/**
 * \brief Remove a field the backend cannot know.
 * \param j an object
 * \param path a dotted path in it; "name[]" goes into every element of the
 *        array "name" (every value when "name" is an object)
 */
void
EraseField(ojson& j, const std::string& path)
{
    const auto dot = path.find('.');
    std::string head = path.substr(0, dot);
    if (dot == std::string::npos)
    {
        if (j.is_object())
        {
            j.erase(head);
        }
        return;
    }
    const std::string rest = path.substr(dot + 1);
    const bool each = head.size() > 2 && head.compare(head.size() - 2, 2, "[]") == 0;
    if (each)
    {
        head.resize(head.size() - 2);
    }
    if (!j.is_object() || !j.contains(head))
    {
        return;
    }
    ojson& child = j[head];
    if (!each)
    {
        EraseField(child, rest);
        return;
    }
    for (auto& element : child)
    {
        EraseField(element, rest);
    }
}

} // namespace

ojson
ResultsWriter::ToJson(const RunResults& results)
{
    ojson out = ojson::object();
    out["policy"] = results.policy;
    out["seed"] = results.seed;
    {
        out["seeds"] = {{"ecmp", results.seeds.ecmp},
                        {"background", results.seeds.background},
                        {"placement", results.seeds.placement}};
        ojson ecmp = ojson::object();
        ecmp["shared_links"] = results.ecmp.sharedLinks;
        ecmp["job_pairs"] = results.ecmp.jobPairs;
        out["ecmp"] = std::move(ecmp);
    }
    {
        const auto& sc = results.scheduler;
        ojson sched = ojson::object();
        sched["policy"] = results.policy;
        sched["classes"] = sc.classes;
        sched["order"] = sc.order;
        sched["decisions"] = sc.decisions;
        sched["held"] = sc.held;
        sched["replans"] = sc.replans;
        sched["messages"] = sc.messages;
        sched["class_changes"] = sc.classChanges;
        sched["paths_moved"] = sc.pathsMoved;
        sched["overdue_runs"] = sc.overdue;
        sched["counters"] = sc.counters;
        sched["settings"] = ojson::parse(sc.settings);
        sched["ignored"] = sc.ignored;
        out["scheduler"] = std::move(sched);
    }
    // (at flow level transport.cc is among the backend's limits: a fluid
    // shares fairly, and the record goes with the other fields it lists)
    out["transport"] = {{"cc", results.cc}};

    ojson jobs = ojson::array();
    for (const auto& job : results.jobs)
    {
        ojson j = ojson::object();
        j["name"] = job.name;
        j["completed"] = job.completed;
        j["status"] = job.status;
        j["reason"] = job.reason;
        j["iterations"] = job.iterationMs.size();
        j["jct_ms"] = job.completed ? Number(job.jctMs, kTimeDigits) : ojson(nullptr);
        ojson iterations = ojson::array();
        for (double ms : job.iterationMs)
        {
            iterations.push_back(Number(ms, kTimeDigits));
        }
        j["iteration_ms"] = std::move(iterations);
        SampleSummary phases;
        for (const auto& phase : job.phases)
        {
            phases.Add(phase.durationMs);
        }
        ojson phaseMs = ojson::object();
        phaseMs["count"] = phases.Count();
        phaseMs["p50"] = Number(phases.P50(), kTimeDigits);
        phaseMs["p99"] = Number(phases.P99(), kTimeDigits);
        phaseMs["max"] = Number(phases.Max(), kTimeDigits);
        j["phase_ms"] = std::move(phaseMs);
        j["gate_wait_ms"] = Number(job.gateWaitMs, kTimeDigits);
        j["class"] = job.trafficClass;
        j["class_timeline"] = ojson::array();
        for (const auto& [ms, cls] : job.classTimeline)
        {
            j["class_timeline"].push_back({ms, cls});
        }
        j["links"] = job.links;
        if (job.replay)
        {
            ojson w = ojson::object();
            w["compute_ms"] = Number(job.computeMs, kTimeDigits);
            w["comm_ms"] = Number(job.commMs, kTimeDigits);
            w["exposed_comm_ms"] = Number(job.exposedCommMs, kTimeDigits);
            ojson ops = ojson::object();
            for (const auto& op : job.operations)
            {
                ops[op.kind] = {{"count", op.count},
                                {"bytes", op.bytes},
                                {"time_ms", Number(op.timeMs, kTimeDigits)}};
            }
            w["operations"] = std::move(ops);
            j["workload"] = std::move(w);
        }
        AddTransport(j, job.transport);
        j["packet_latency_us"] = LatencyJson(job.packetLatencyUs);
        jobs.push_back(std::move(j));
    }
    out["jobs"] = std::move(jobs);

    SampleSummary all;
    std::map<std::string, std::pair<uint64_t, SampleSummary>> tenants;
    for (const auto& flow : results.flows)
    {
        const double slowdown = ResultsTable::Slowdown(flow);
        all.Add(slowdown);
        auto& tenant = tenants[flow.tenant];
        ++tenant.first;
        tenant.second.Add(slowdown);
    }
    ojson flows = ojson::object();
    flows["count"] = results.flows.size();
    flows["fct_slowdown"] = SlowdownJson(all);
    for (const auto& tenant : results.tenants)
    {
        tenants[tenant.name]; // listed even without a finished flow
    }
    ojson perTenant = ojson::object();
    for (const auto& [name, tenant] : tenants)
    {
        ojson t = ojson::object();
        t["count"] = tenant.first;
        t["fct_slowdown"] = SlowdownJson(tenant.second);
        for (const auto& tr : results.tenants)
        {
            if (tr.name == name)
            {
                t["started"] = tr.started;
                t["failed"] = tr.failed;
                t["arrivals_end_ms"] = Number(tr.arrivalsEndMs, kTimeDigits);
                AddTransport(t, tr.transport);
                t["packet_latency_us"] = LatencyJson(tr.packetLatencyUs);
            }
        }
        perTenant[name] = std::move(t);
    }
    flows["tenants"] = std::move(perTenant);
    out["flows"] = std::move(flows);

    out["packet_latency_us"] = LatencyJson(RunResults::LatencyStats::Of(results.packetLatencyUs));

    const auto& n = results.network;
    ojson network = ojson::object();
    network["drops"] = n.drops;
    network["pfc_pauses"] = n.pfcPauses;
    network["ecn_marks"] = n.ecnMarks;
    network["cnps"] = n.cnps;
    network["retransmissions"] = n.retransmissions;
    network["retransmissions_repair"] = n.retransmissionsRepair;
    network["retransmissions_spurious"] = n.retransmissionsSpurious;
    network["timeouts"] = n.timeouts;
    network["qp_errors"] = n.qpErrors;
    network["link_losses"] = n.linkLosses;
    if (n.pfcWatchdog)
    {
        network["pfc_watchdog_storms"] = n.pfcWatchdogStorms;
        network["pfc_watchdog_restorations"] = n.pfcWatchdogRestorations;
        network["pfc_watchdog_drops"] = n.pfcWatchdogDrops;
        network["pfc_watchdog_forwarded"] = n.pfcWatchdogForwarded;
    }
    network["link_down_drops"] = n.linkDownDrops;
    network["link_state_changes"] = n.linkStateChanges;
    network["route_updates"] = n.routeUpdates;
    ojson byTier = ojson::object();
    for (const auto& [kind, pauses] : n.pfcPausesByTier)
    {
        byTier[kind] = pauses;
    }
    network["pfc_pauses_by_tier"] = std::move(byTier);
    ojson byLink = ojson::object();
    for (const auto& [link, pauses] : n.pfcPausesByLink)
    {
        byLink[link] = pauses;
    }
    network["pfc_pauses_by_link"] = std::move(byLink);
    std::vector<const RunResults::LinkUtilization*> links;
    for (const auto& link : results.links)
    {
        links.push_back(&link);
    }
    std::sort(links.begin(), links.end(), [](const auto* a, const auto* b) {
        const double ua = std::isfinite(a->utilization) ? a->utilization : -1.0;
        const double ub = std::isfinite(b->utilization) ? b->utilization : -1.0;
        return ua != ub ? ua > ub : a->link < b->link;
    });
    ojson busiest = ojson::array();
    for (size_t i = 0; i < links.size() && i < kBusiestLinks; ++i)
    {
        ojson l = ojson::object();
        l["link"] = links[i]->link;
        l["utilization"] = Number(links[i]->utilization, kRatioDigits);
        busiest.push_back(std::move(l));
    }
    network["busiest_links"] = std::move(busiest);
    out["network"] = std::move(network);

    ojson sim = ojson::object();
    sim["simulated_ms"] = Number(results.sim.simulatedMs, kTimeDigits);
    sim["wall_s"] = Number(results.sim.wallS, kWallDigits);
    sim["events"] = results.sim.events;
    sim["stop_reason"] = results.sim.stopReason;
    sim["flux_version"] = GetFluxVersion();
    sim["ns3_version"] = GetFluxNs3Version();
    sim["plugins"] = results.sim.plugins;
    if (const auto& info = results.sim; results.backend == "flow")
    {
        sim["rate_updates"] = info.rateUpdates;
        // (a mean over no computation: every rate was its path's alone)
        sim["flows_per_update"] =
            info.rateUpdates ? Number(double(info.flowsAllocated) / info.rateUpdates, kRatioDigits)
                             : ojson(nullptr);
    }
    out["sim"] = std::move(sim);
    out["backend"] = results.backend;
    out["backend_limits"] = results.backendLimits;
    for (const auto& field : results.backendLimits)
    {
        EraseField(out, field);
    }
    return out;
}

std::string
ResultsWriter::ToJsonText(const RunResults& results)
{
    return ToJson(results).dump(2) + "\n";
}

std::string
ResultsWriter::IterationsCsv(const RunResults& results)
{
    return ResultsTable::Iterations(results).ToCsv();
}

std::string
ResultsWriter::PhasesCsv(const RunResults& results)
{
    return ResultsTable::Phases(results).ToCsv();
}

std::string
ResultsWriter::FlowsCsv(const RunResults& results)
{
    return ResultsTable::Flows(results).ToCsv();
}

std::string
ResultsWriter::RatesCsv(const RunResults& results)
{
    return ResultsTable::Rates(results).ToCsv();
}

std::string
ResultsWriter::QueuesCsv(const RunResults& results)
{
    return ResultsTable::Queues(results).ToCsv();
}

std::string
ResultsWriter::Stem(const std::string& jsonPath)
{
    const std::string ext = ".json";
    if (jsonPath.size() > ext.size() &&
        jsonPath.compare(jsonPath.size() - ext.size(), ext.size(), ext) == 0)
    {
        return jsonPath.substr(0, jsonPath.size() - ext.size());
    }
    return jsonPath;
}

std::vector<std::string>
ResultsWriter::CompanionPaths(const std::string& jsonPath)
{
    const std::string stem = Stem(jsonPath);
    return {stem + "-iterations.csv",
            stem + "-phases.csv",
            stem + "-flows.csv",
            stem + "-fct.txt",
            stem + "-rates.csv",
            stem + "-queues.csv"};
}

void
ResultsWriter::Write(const RunResults& results, const std::string& jsonPath)
{
    const std::vector<std::string> paths = CompanionPaths(jsonPath);
    // (final path, content); the results file last, so that its presence
    // means every companion file is complete.
    std::vector<std::pair<std::string, std::string>> files = {
        {paths[0], IterationsCsv(results)},
        {paths[1], PhasesCsv(results)},
        {paths[2], FlowsCsv(results)},
    };
    if (results.hpccFct)
    {
        files.emplace_back(paths[3], HpccFctWriter::Text(results));
    }
    if (results.traces)
    {
        files.emplace_back(paths[4], RatesCsv(results));
        files.emplace_back(paths[5], QueuesCsv(results));
    }
    files.emplace_back(jsonPath, ToJsonText(results));
    // A companion this run does not write, left by an earlier run to the
    // same path, would be read as this run's: it goes first.
    for (const auto& path : paths)
    {
        const bool written = std::any_of(files.begin(), files.end(), [&path](const auto& f) {
            return f.first == path;
        });
        std::error_code ec;
        if (!written && std::filesystem::is_regular_file(path, ec))
        {
            std::filesystem::remove(path, ec);
        }
    }
    WriteFiles(files);
}

void
ResultsWriter::WriteFiles(const std::vector<std::pair<std::string, std::string>>& files)
{
    WriteOutputFiles(files);
}

} // namespace ns3
