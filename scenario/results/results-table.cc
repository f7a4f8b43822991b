/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "results-table.h"

#include "ns3/log.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ResultsTable");

namespace
{

/// A CSV field, quoted when needed (RFC 4180).
std::string
CsvField(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
    {
        return s;
    }
    std::string out = "\"";
    for (char c : s)
    {
        out += c;
        if (c == '"')
        {
            out += '"';
        }
    }
    return out + "\"";
}

using Cell = ResultsTable::Cell;

} // namespace

ResultsTable::Cell
ResultsTable::Cell::Text(const std::string& s)
{
    Cell c;
    c.kind = Kind::TEXT;
    c.text = s;
    return c;
}

ResultsTable::Cell
ResultsTable::Cell::Integer(uint64_t v)
{
    Cell c;
    c.kind = Kind::INTEGER;
    c.integer = v;
    return c;
}

ResultsTable::Cell
ResultsTable::Cell::Number(double x, int digits)
{
    Cell c;
    if (std::isfinite(x))
    {
        c.kind = Kind::NUMBER;
        c.number = Round(x, digits);
    }
    return c;
}

double
ResultsTable::Round(double x, int digits)
{
    if (!std::isfinite(x))
    {
        return x;
    }
    const double scale = std::pow(10.0, digits);
    const double r = std::round(x * scale) / scale;
    return r == 0.0 ? 0.0 : r; // no "-0.0"
}

double
ResultsTable::Slowdown(const RunResults::FlowResult& f)
{
    if (!(f.idealFctUs > 0) || !std::isfinite(f.fctUs))
    {
        return std::nan("");
    }
    return f.fctUs / f.idealFctUs;
}

std::string
ResultsTable::ToCsv() const
{
    std::ostringstream os;
    for (size_t i = 0; i < columns.size(); ++i)
    {
        os << (i ? "," : "") << columns[i];
    }
    os << '\n';
    for (const auto& row : rows)
    {
        for (size_t i = 0; i < row.size(); ++i)
        {
            if (i)
            {
                os << ',';
            }
            const Cell& c = row[i];
            switch (c.kind)
            {
            case Cell::Kind::TEXT:
                os << CsvField(c.text);
                break;
            case Cell::Kind::INTEGER:
                os << c.integer;
                break;
            case Cell::Kind::NUMBER:
                os << nlohmann::ordered_json(c.number).dump();
                break;
            case Cell::Kind::EMPTY:
                break;
            }
        }
        os << '\n';
    }
    return os.str();
}

ResultsTable
ResultsTable::Iterations(const RunResults& results)
{
    ResultsTable t;
    t.columns = {"job", "iteration", "iteration_ms"};
    for (const auto& job : results.jobs)
    {
        for (size_t i = 0; i < job.iterationMs.size(); ++i)
        {
            t.rows.push_back({Cell::Text(job.name),
                              Cell::Integer(i),
                              Cell::Number(job.iterationMs[i], kTimeDigits)});
        }
    }
    return t;
}

ResultsTable
ResultsTable::Phases(const RunResults& results)
{
    ResultsTable t;
    t.columns = {"job", "iteration", "step", "start_ms", "duration_ms"};
    for (const auto& job : results.jobs)
    {
        for (const auto& phase : job.phases)
        {
            t.rows.push_back({Cell::Text(job.name),
                              Cell::Integer(phase.iteration),
                              Cell::Integer(phase.step),
                              Cell::Number(phase.startMs, kTimeDigits),
                              Cell::Number(phase.durationMs, kTimeDigits)});
        }
    }
    return t;
}

ResultsTable
ResultsTable::Flows(const RunResults& results)
{
    ResultsTable t;
    t.columns =
        {"tenant", "src", "dst", "size_bytes", "start_ms", "fct_us", "ideal_fct_us", "slowdown"};
    for (const auto& f : results.flows)
    {
        t.rows.push_back({Cell::Text(f.tenant),
                          Cell::Integer(f.src),
                          Cell::Integer(f.dst),
                          Cell::Integer(f.sizeBytes),
                          Cell::Number(f.startMs, kTimeDigits),
                          Cell::Number(f.fctUs, kUsDigits),
                          Cell::Number(f.idealFctUs, kUsDigits),
                          Cell::Number(Slowdown(f), kRatioDigits)});
    }
    return t;
}

ResultsTable
ResultsTable::Rates(const RunResults& results)
{
    ResultsTable t;
    t.columns = {"time_us",
                 "owner",
                 "src",
                 "dst",
                 "qpn",
                 "rate_gbps",
                 "target_gbps",
                 "alpha",
                 "window_bytes"};
    for (const auto& s : results.rates)
    {
        t.rows.push_back({Cell::Number(s.timeUs, kUsDigits),
                          Cell::Text(s.owner),
                          Cell::Integer(s.src),
                          Cell::Integer(s.dst),
                          Cell::Integer(s.qpn),
                          Cell::Number(s.rateGbps, kRatioDigits),
                          Cell::Number(s.targetGbps, kRatioDigits),
                          Cell::Number(s.alpha, kRatioDigits),
                          Cell::Number(s.windowBytes, 0)});
    }
    return t;
}

ResultsTable
ResultsTable::Queues(const RunResults& results)
{
    ResultsTable t;
    t.columns = {"time_us", "link", "queue_bytes", "utilization"};
    for (const auto& s : results.queues)
    {
        t.rows.push_back({Cell::Number(s.timeUs, kUsDigits),
                          Cell::Text(s.link),
                          Cell::Integer(s.queueBytes),
                          Cell::Number(s.utilization, kRatioDigits)});
    }
    return t;
}

} // namespace ns3
