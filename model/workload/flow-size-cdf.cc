/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-size-cdf.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowSizeCdf");

namespace
{

std::string
FormatNumber(double v)
{
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

} // namespace

FlowSizeCdf
FlowSizeCdf::FromPoints(std::vector<Point> points, const std::string& source)
{
    if (points.empty())
    {
        throw std::runtime_error(source + ": no CDF points");
    }
    for (size_t i = 0; i < points.size(); ++i)
    {
        const double size = points[i].first;
        const double pct = points[i].second;
        const std::string where = source + ": point " + std::to_string(i + 1) + " (" +
                                  FormatNumber(size) + " " + FormatNumber(pct) + ")";
        if (!std::isfinite(size) || size < 0)
        {
            throw std::runtime_error(where + ": size must be a non-negative number of bytes");
        }
        if (size > 1e15)
        {
            // Flow sizes are drawn as 64-bit byte counts.
            throw std::runtime_error(where + ": size must be at most 10^15 bytes");
        }
        if (!std::isfinite(pct) || pct < 0 || pct > 100)
        {
            throw std::runtime_error(where + ": percent must be in [0, 100]");
        }
        if (i > 0 && size <= points[i - 1].first)
        {
            throw std::runtime_error(where + ": sizes must increase strictly");
        }
        if (i > 0 && pct < points[i - 1].second)
        {
            throw std::runtime_error(where + ": cumulative percent decreases");
        }
    }
    if (points.back().second != 100.0)
    {
        throw std::runtime_error(source + ": the last point must be at 100 percent, not " +
                                 FormatNumber(points.back().second));
    }
    if (points.back().first < 1.0)
    {
        throw std::runtime_error(source + ": the largest size must be at least 1 byte");
    }

    FlowSizeCdf cdf;
    cdf.m_points = std::move(points);
    cdf.m_source = source;
    // Mean of the piecewise-linear distribution: the mass below the first
    // point sits at the first size; each segment is uniform.
    const auto& p = cdf.m_points;
    double mean = p[0].first * p[0].second / 100.0;
    for (size_t i = 1; i < p.size(); ++i)
    {
        mean += (p[i - 1].first + p[i].first) / 2.0 * (p[i].second - p[i - 1].second) / 100.0;
    }
    cdf.m_mean = mean;
    return cdf;
}

FlowSizeCdf
FlowSizeCdf::FromText(const std::string& text, const std::string& source)
{
    std::vector<Point> points;
    std::istringstream in(text);
    std::string line;
    size_t lineNo = 0;
    while (std::getline(in, line))
    {
        ++lineNo;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#')
        {
            continue;
        }
        std::istringstream fields(line);
        double size = 0;
        double pct = 0;
        std::string extra;
        if (!(fields >> size >> pct) || (fields >> extra))
        {
            throw std::runtime_error(source + ":" + std::to_string(lineNo) +
                                     ": expected two numbers \"size percent\", got \"" +
                                     line.substr(first, 40) + "\"");
        }
        points.emplace_back(size, pct);
    }
    if (points.empty())
    {
        throw std::runtime_error(source + ": no CDF points");
    }
    return FromPoints(std::move(points), source);
}

FlowSizeCdf
FlowSizeCdf::LoadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot read the file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw std::runtime_error(path + ": cannot read the file");
    }
    return FromText(text.str(), path);
}

FlowSizeCdf
FlowSizeCdf::Builtin(const std::string& name)
{
    for (const auto& table : BuiltinTables())
    {
        if (name == table.name)
        {
            return FromPoints(std::vector<Point>(table.points, table.points + table.count),
                              table.name);
        }
    }
    std::string known;
    for (const auto& n : BuiltinNames())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::runtime_error("\"" + name + "\" is not a builtin flow-size CDF (known: " + known +
                             ")");
}

bool
FlowSizeCdf::IsBuiltin(const std::string& name)
{
    const auto& tables = BuiltinTables();
    return std::any_of(tables.begin(), tables.end(), [&name](const BuiltinTable& t) {
        return name == t.name;
    });
}

std::vector<std::string>
FlowSizeCdf::BuiltinNames()
{
    std::vector<std::string> names;
    for (const auto& table : BuiltinTables())
    {
        names.emplace_back(table.name);
    }
    return names;
}

double
FlowSizeCdf::Quantile(double u) const
{
    if (m_points.empty())
    {
        throw std::logic_error("FlowSizeCdf::Quantile on an empty CDF");
    }
    const double q = std::min(100.0, std::max(0.0, std::isnan(u) ? 0.0 : u * 100.0));
    // First point whose cumulative percent reaches q.
    auto it = std::lower_bound(m_points.begin(), m_points.end(), q, [](const Point& p, double v) {
        return p.second < v;
    });
    if (it == m_points.begin())
    {
        return it->first;
    }
    if (it == m_points.end())
    {
        return m_points.back().first;
    }
    const Point& lo = *(it - 1);
    const Point& hi = *it;
    // lo.second < q <= hi.second, so the segment has positive height.
    return lo.first + (hi.first - lo.first) * (q - lo.second) / (hi.second - lo.second);
}

uint64_t
FlowSizeCdf::Sample(double u) const
{
    const long long bytes = std::llround(Quantile(u));
    return bytes < 1 ? 1 : static_cast<uint64_t>(bytes);
}

double
FlowSizeCdf::Cdf(double bytes) const
{
    if (m_points.empty())
    {
        throw std::logic_error("FlowSizeCdf::Cdf on an empty CDF");
    }
    if (bytes < m_points.front().first)
    {
        return 0.0;
    }
    if (bytes >= m_points.back().first)
    {
        return 1.0;
    }
    // First point with a size above bytes; the one before is at or below it.
    auto it =
        std::upper_bound(m_points.begin(), m_points.end(), bytes, [](double v, const Point& p) {
            return v < p.first;
        });
    const Point& lo = *(it - 1);
    const Point& hi = *it;
    const double pct =
        lo.second + (hi.second - lo.second) * (bytes - lo.first) / (hi.first - lo.first);
    return pct / 100.0;
}

double
FlowSizeCdf::Mean() const
{
    return m_mean;
}

double
FlowSizeCdf::Max() const
{
    return m_points.empty() ? 0.0 : m_points.back().first;
}

const std::vector<FlowSizeCdf::Point>&
FlowSizeCdf::GetPoints() const
{
    return m_points;
}

const std::string&
FlowSizeCdf::GetSource() const
{
    return m_source;
}

bool
FlowSizeCdf::IsValid() const
{
    return !m_points.empty();
}

} // namespace ns3
