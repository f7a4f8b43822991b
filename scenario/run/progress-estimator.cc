/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "progress-estimator.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ProgressEstimator");

void
ProgressEstimator::SetWorkTotal(double work)
{
    m_workTotal = std::max(0.0, work);
}

double
ProgressEstimator::GetWorkTotal() const
{
    return m_workTotal;
}

void
ProgressEstimator::SetStopTime(double simMs)
{
    m_stopMs = std::max(0.0, simMs);
}

void
ProgressEstimator::SetWindow(double minS, double maxS)
{
    m_minWindowS = std::max(0.0, minS);
    m_maxWindowS = std::max(m_minWindowS, maxS);
}

void
ProgressEstimator::AddSample(double wallS, double work, double simMs)
{
    if (m_samples.empty())
    {
        m_first = Sample{wallS, work, simMs};
    }
    m_samples.push_back(Sample{wallS, work, simMs});
    // Keep the longest window, plus the last sample before it.
    while (m_samples.size() > 2 && m_samples[1].wallS <= wallS - m_maxWindowS)
    {
        m_samples.pop_front();
    }
}

std::size_t
ProgressEstimator::GetNSamples() const
{
    return m_samples.size();
}

const ProgressEstimator::Sample&
ProgressEstimator::WindowStart() const
{
    const Sample& now = m_samples.back();
    const double span = now.wallS - m_first.wallS;
    const double window = std::min(m_maxWindowS, std::max(m_minWindowS, span / 2));
    // The newest sample at least one window old, else the oldest kept.
    for (auto it = m_samples.rbegin() + 1; it != m_samples.rend(); ++it)
    {
        if (it->wallS <= now.wallS - window)
        {
            return *it;
        }
    }
    return m_samples.front();
}

double
ProgressEstimator::Rate(double Sample::*member) const
{
    if (m_samples.size() < 2)
    {
        return 0;
    }
    const Sample& now = m_samples.back();
    const Sample& from = WindowStart();
    if (now.*member > from.*member && now.wallS > from.wallS)
    {
        return (now.*member - from.*member) / (now.wallS - from.wallS);
    }
    if (now.*member > m_first.*member && now.wallS > m_first.wallS)
    {
        return (now.*member - m_first.*member) / (now.wallS - m_first.wallS);
    }
    return 0;
}

double
ProgressEstimator::GetWorkRate() const
{
    return Rate(&Sample::work);
}

double
ProgressEstimator::GetEta() const
{
    if (m_samples.empty())
    {
        return -1;
    }
    const Sample& now = m_samples.back();
    double simEta = -1;
    if (m_stopMs > 0)
    {
        const double left = std::max(0.0, m_stopMs - now.simMs);
        const double rate = Rate(&Sample::simMs);
        if (left == 0)
        {
            simEta = 0;
        }
        else if (rate > 0)
        {
            simEta = left / rate;
        }
    }
    if (m_workTotal <= 0)
    {
        return simEta;
    }
    const double left = std::max(0.0, m_workTotal - now.work);
    const double rate = Rate(&Sample::work);
    double workEta = -1;
    if (left == 0)
    {
        workEta = 0;
    }
    else if (rate > 0)
    {
        workEta = left / rate;
    }
    if (workEta < 0)
    {
        return -1; // no work done yet: nothing to divide by
    }
    return simEta >= 0 ? std::min(workEta, simEta) : workEta;
}

} // namespace ns3
