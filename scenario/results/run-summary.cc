/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "run-summary.h"

#include "bound-writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

namespace ns3
{

namespace
{

/// A number with a fixed number of decimals.
std::string
Fixed(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
    return buf;
}

/// The value at quantile q of sorted values (nearest rank).
double
Quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
    {
        return NAN;
    }
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

/**
 * \param l a job's or tenant's packet latencies
 * \return their p99, us, or "-" without packets
 */
std::string
LatencyP99(const RunResults::LatencyStats& l)
{
    return l.count > 0 ? Fixed(l.p99, 2) : "-";
}

/// Rows of cells printed as left-aligned columns two spaces apart.
std::string
Columns(const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> width;
    for (const auto& row : rows)
    {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c)
        {
            width[c] = std::max(width[c], row[c].size());
        }
    }
    std::ostringstream out;
    for (const auto& row : rows)
    {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c)
        {
            line += row[c];
            if (c + 1 < row.size())
            {
                line += std::string(width[c] - row[c].size() + 2, ' ');
            }
        }
        out << "  " << line << '\n';
    }
    return out.str();
}

} // namespace

std::string
FormatRunSummary(const RunResults& r)
{
    const auto known = [&r](const std::string& field) {
        return std::find(r.backendLimits.begin(), r.backendLimits.end(), field) ==
               r.backendLimits.end();
    };
    std::ostringstream out;
    out << "policy " << r.policy << ", seed " << r.seed << ", " << r.backend
        << " level: " << Fixed(r.sim.simulatedMs, 3) << " ms simulated in " << Fixed(r.sim.wallS, 1)
        << " s (" << r.sim.stopReason << ")\n";
    // the policy's settings, the congestion control and the faults' losses
    // this level has no counterpart for (a fluid has no queues, no
    // congestion window, loses nothing): said here, not only in the file
    std::vector<std::string> ignored;
    for (const auto& field : r.backendLimits)
    {
        if (field.rfind("scheduler.", 0) == 0 || field.rfind("faults[", 0) == 0 ||
            field.rfind("transport.", 0) == 0)
        {
            ignored.push_back(field);
        }
    }
    if (!ignored.empty())
    {
        out << "  no effect at this level (backend_limits): ";
        for (std::size_t i = 0; i < ignored.size(); ++i)
        {
            out << (i ? ", " : "") << ignored[i];
        }
        out << '\n';
    }

    if (!r.jobs.empty())
    {
        bool replay = false;
        for (const auto& j : r.jobs)
        {
            replay = replay || j.replay;
        }
        std::vector<std::vector<std::string>> rows;
        rows.push_back(
            {"job", "status", "iterations", "JCT ms", "iteration ms mean", "p99", "gate wait ms"});
        if (replay)
        {
            rows.back().insert(rows.back().end(), {"compute ms", "exposed comm ms"});
        }
        const bool latency = known("jobs[].packet_latency_us");
        if (latency)
        {
            rows.back().push_back("packet p99 us");
        }
        for (const auto& j : r.jobs)
        {
            std::vector<double> it(j.iterationMs);
            std::sort(it.begin(), it.end());
            double sum = 0;
            for (double v : it)
            {
                sum += v;
            }
            rows.push_back({j.name,
                            j.status,
                            std::to_string(it.size()),
                            j.completed ? Fixed(j.jctMs, 3) : "-",
                            it.empty() ? "-" : Fixed(sum / static_cast<double>(it.size()), 3),
                            it.empty() ? "-" : Fixed(Quantile(it, 0.99), 3),
                            Fixed(j.gateWaitMs, 3)});
            if (replay)
            {
                rows.back().push_back(j.replay ? Fixed(j.computeMs, 3) : "-");
                rows.back().push_back(j.replay ? Fixed(j.exposedCommMs, 3) : "-");
            }
            if (latency)
            {
                rows.back().push_back(LatencyP99(j.packetLatencyUs));
            }
        }
        out << Columns(rows);
    }

    if (!r.tenants.empty())
    {
        std::map<std::string, std::vector<double>> slowdowns;
        std::map<std::string, std::size_t> finished;
        for (const auto& f : r.flows)
        {
            ++finished[f.tenant];
            if (f.idealFctUs > 0)
            {
                slowdowns[f.tenant].push_back(std::max(1.0, f.fctUs / f.idealFctUs));
            }
        }
        std::vector<std::vector<std::string>> rows;
        rows.push_back({"tenant", "flows", "finished", "failed", "FCT slowdown p50", "p99"});
        const bool latency = known("flows.tenants[].packet_latency_us");
        if (latency)
        {
            rows.back().push_back("packet p99 us");
        }
        for (const auto& t : r.tenants)
        {
            auto& s = slowdowns[t.name];
            std::sort(s.begin(), s.end());
            rows.push_back({t.name,
                            std::to_string(t.started),
                            std::to_string(finished[t.name]),
                            std::to_string(t.failed),
                            s.empty() ? "-" : Fixed(Quantile(s, 0.5), 2),
                            s.empty() ? "-" : Fixed(Quantile(s, 0.99), 2)});
            if (latency)
            {
                rows.back().push_back(LatencyP99(t.packetLatencyUs));
            }
        }
        out << Columns(rows);
    }

    std::vector<std::string> fabric;
    const auto& n = r.network;
    if (known("network.drops"))
    {
        fabric.push_back(std::to_string(n.drops) + " drops");
    }
    if (known("network.pfc_pauses"))
    {
        fabric.push_back(std::to_string(n.pfcPauses) + " PFC pauses");
    }
    if (known("network.ecn_marks"))
    {
        fabric.push_back(std::to_string(n.ecnMarks) + " ECN marks");
    }
    if (known("network.retransmissions"))
    {
        fabric.push_back(std::to_string(n.retransmissions) + " retransmissions");
    }
    if (n.pfcWatchdog && known("network.pfc_watchdog_storms"))
    {
        fabric.push_back(std::to_string(n.pfcWatchdogStorms) + " PFC watchdog storms");
    }
    if (known("packet_latency_us") && r.packetLatencyUs.Count() > 0)
    {
        fabric.push_back("packet latency p50 " + Fixed(r.packetLatencyUs.P50(), 2) + " us, p99 " +
                         Fixed(r.packetLatencyUs.P99(), 2) + " us");
    }
    if (!fabric.empty())
    {
        out << "fabric: ";
        for (std::size_t i = 0; i < fabric.size(); ++i)
        {
            out << (i ? ", " : "") << fabric[i];
        }
        out << '\n';
    }
    return out.str();
}

std::string
FormatBoundSummary(const BoundResult& b)
{
    // a time, or "-" when a run did not complete (NaN)
    const auto ms = [](double v) { return std::isfinite(v) ? Fixed(v, 3) : std::string("-"); };
    std::ostringstream out;
    out << "bound, seed " << b.seed << ", flow level: " << b.runs << " runs in "
        << Fixed(b.wallS, 1) << " s\n";
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"job",
                    "start ms",
                    "alone JCT ms",
                    "alone iteration ms shortest",
                    "longest",
                    "bound JCT ms"});
    for (const auto& j : b.jobs)
    {
        rows.push_back({j.name,
                        Fixed(j.startMs, 3),
                        ms(j.jctMs),
                        ms(j.bestIterationMs),
                        ms(j.worstIterationMs),
                        ms(j.boundJctMs)});
    }
    out << Columns(rows);

    const auto share = [&b](double meanJctMs) {
        const double s = BoundWriter::GapShare(b.fifo.meanJctMs, meanJctMs, b.best.meanJctMs);
        return std::isfinite(s) ? Fixed(s, 2) : std::string("-");
    };
    rows.clear();
    rows.push_back({"schedule", "mean JCT ms", "worst iteration ms", "share of fifo->best gap"});
    rows.push_back(
        {"lower bound", Fixed(b.lowerMeanJctMs, 3), Fixed(b.lowerWorstIterationMs, 3), "-"});
    rows.push_back(
        {"best found", ms(b.best.meanJctMs), ms(b.best.worstIterationMs), share(b.best.meanJctMs)});
    rows.push_back(
        {"fifo", ms(b.fifo.meanJctMs), ms(b.fifo.worstIterationMs), share(b.fifo.meanJctMs)});
    if (!b.policy.empty() && b.policy != "fifo")
    {
        rows.push_back({b.policy,
                        ms(b.policyOutcome.meanJctMs),
                        ms(b.policyOutcome.worstIterationMs),
                        share(b.policyOutcome.meanJctMs)});
    }
    out << Columns(rows);

    out << "lower bound on the mean JCT: the larger of the jobs' mean bound ("
        << Fixed(b.meanJobBoundMs, 3) << " ms) and SRPT";
    if (!b.srptLink.empty())
    {
        out << " on " << b.srptLink;
    }
    out << " (" << Fixed(b.srptMeanJctMs, 3) << " ms)\n";
    out << "best schedule: " << b.best.schedule;
    if (!b.best.order.empty())
    {
        out << ", ";
        for (std::size_t g = 0; g < b.best.order.size(); ++g)
        {
            out << (g ? " > " : "");
            for (std::size_t k = 0; k < b.best.order[g].size(); ++k)
            {
                out << (k ? " = " : "") << b.best.order[g][k];
            }
        }
    }
    out << " (" << b.best.schedulesTried << " schedules tried, " << b.best.search << ")\n";
    return out.str();
}

} // namespace ns3
