/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "sample-summary.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SampleSummary");

void
SampleSummary::Add(double value)
{
    if (std::isnan(value))
    {
        return;
    }
    if (m_sorted && !m_values.empty() && value < m_values.back())
    {
        m_sorted = false;
    }
    m_values.push_back(value);
    m_sum += value;
}

void
SampleSummary::AddAll(const std::vector<double>& values)
{
    m_values.reserve(m_values.size() + values.size());
    for (double v : values)
    {
        Add(v);
    }
}

void
SampleSummary::Merge(const SampleSummary& other)
{
    if (!m_sorted || !other.m_sorted)
    {
        AddAll(other.m_values);
        return;
    }
    // Both sorted (their percentiles were asked for): merge in linear time
    // rather than sort the whole again. The sum adds the samples in the
    // order AddAll would.
    for (double v : other.m_values)
    {
        m_sum += v;
    }
    const auto middle = static_cast<std::ptrdiff_t>(m_values.size());
    m_values.insert(m_values.end(), other.m_values.begin(), other.m_values.end());
    std::inplace_merge(m_values.begin(), m_values.begin() + middle, m_values.end());
}

void
SampleSummary::Reserve(std::size_t count)
{
    m_values.reserve(count);
}

void
SampleSummary::Canonicalize()
{
    m_sum = SortedSum();
}

double
SampleSummary::SortedSum() const
{
    Sort();
    double sum = 0.0;
    for (double v : m_values)
    {
        sum += v;
    }
    return sum;
}

double
SampleSummary::CanonicalMean() const
{
    return m_values.empty() ? NAN : SortedSum() / static_cast<double>(m_values.size());
}

void
SampleSummary::Clear()
{
    m_values.clear();
    m_sorted = true;
    m_sum = 0.0;
}

uint64_t
SampleSummary::Count() const
{
    return m_values.size();
}

double
SampleSummary::Mean() const
{
    if (m_values.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return m_sum / static_cast<double>(m_values.size());
}

double
SampleSummary::Min() const
{
    return Percentile(0.0);
}

double
SampleSummary::Max() const
{
    return Percentile(100.0);
}

double
SampleSummary::Percentile(double p) const
{
    if (m_values.empty())
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    Sort();
    const double n = static_cast<double>(m_values.size());
    const double clamped = std::min(100.0, std::max(0.0, std::isnan(p) ? 0.0 : p));
    // Nearest rank r = ceil(p/100 * n), 1-based. The small tolerance keeps
    // exact ranks exact despite rounding (99.9/100 * 1000 = 999.0000000000001).
    double r = std::ceil(clamped / 100.0 * n - 1e-9);
    r = std::min(n, std::max(1.0, r));
    return m_values[static_cast<size_t>(r) - 1];
}

double
SampleSummary::P50() const
{
    return Percentile(50.0);
}

double
SampleSummary::P99() const
{
    return Percentile(99.0);
}

double
SampleSummary::P999() const
{
    return Percentile(99.9);
}

const std::vector<double>&
SampleSummary::Sorted() const
{
    Sort();
    return m_values;
}

void
SampleSummary::Sort() const
{
    if (!m_sorted)
    {
        std::sort(m_values.begin(), m_values.end());
        m_sorted = true;
    }
}

} // namespace ns3
