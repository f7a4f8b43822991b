/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crux-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CruxScheduler");

NS_OBJECT_ENSURE_REGISTERED(CruxScheduler);
FLUX_REGISTER_POLICY("crux", CruxScheduler, 2);

TypeId
CruxScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CruxScheduler")
                            .SetParent<JobScheduler>()
                            .SetGroupName("Flux")
                            .AddConstructor<CruxScheduler>()
                            .AddAttribute("PathSelection",
                                          "Choose the jobs' paths, most GPU-intensive first.",
                                          BooleanValue(true),
                                          MakeBooleanAccessor(&CruxScheduler::m_paths),
                                          MakeBooleanChecker())
                            .AddAttribute("IntensityTolerance",
                                          "Relative difference under which two jobs' GPU "
                                          "intensities count as equal (one priority group).",
                                          DoubleValue(0.01),
                                          MakeDoubleAccessor(&CruxScheduler::m_tolerance),
                                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

CruxScheduler::CruxScheduler()
    : m_paths(true),
      m_tolerance(0.01)
{
}

CruxScheduler::~CruxScheduler() = default;

std::string
CruxScheduler::GetPolicyName() const
{
    return "crux";
}

bool
CruxScheduler::UsesOwnClasses() const
{
    return true;
}

bool
CruxScheduler::ChoosesPaths() const
{
    return true;
}

bool
CruxScheduler::GetQpArbiterFactory(ObjectFactory& factory) const
{
    // strict priority by class at the NIC, as at the switches
    factory.SetTypeId("ns3::ClassQpArbiter");
    return true;
}

double
CruxScheduler::GetIntensity(uint32_t job) const
{
    const Ptr<TrainingJob> tj = GetJobInfo(job).job;
    const double work = tj->GetComputeTime().GetSeconds() * tj->GetCollective()->GetNRanks();
    const double comm = CommTimeAlone(job).GetSeconds() * tj->GetNBuckets();
    return comm > 0 ? work / comm : 0;
}

std::vector<uint32_t>
CruxScheduler::ByIntensity() const
{
    const uint32_t n = GetNJobs();
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> p(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        p[j] = GetIntensity(j);
    }
    // decreasing intensity; equal jobs keep index order, which only the
    // path choice sees (their classes are the same)
    std::stable_sort(order.begin(), order.end(), [&p](uint32_t a, uint32_t b) {
        return p[a] > p[b];
    });
    return order;
}

bool
CruxScheduler::SameIntensity(uint32_t a, uint32_t b) const
{
    const double pa = GetIntensity(a);
    const double pb = GetIntensity(b);
    return std::abs(pa - pb) <= m_tolerance * std::max(pa, pb);
}

std::vector<uint32_t>
CruxScheduler::ComputeLevels() const
{
    const std::vector<uint32_t> order = ByIntensity();
    std::vector<uint32_t> level(order.size(), 0);
    // Priority compression: a job sits one level below the most intense
    // conflicting job of higher intensity; jobs of equal intensity are one
    // group and share a level, so the file's order never decides.
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        uint32_t lvl = 0;
        for (std::size_t k = 0; k < i; ++k)
        {
            if (Conflict(order[i], order[k]) && !SameIntensity(order[i], order[k]))
            {
                lvl = std::max(lvl, level[order[k]] + 1);
            }
        }
        level[order[i]] = lvl;
    }
    return level;
}

void
CruxScheduler::Start()
{
    // Path selection first: the most GPU-intensive jobs choose first.
    if (m_paths)
    {
        PlacePaths(ByIntensity());
    }
    const auto& classes = GetJobClasses();
    const std::vector<uint32_t> level = ComputeLevels();
    for (uint32_t j = 0; j < GetNJobs(); ++j)
    {
        const uint32_t lvl = std::min<uint32_t>(level[j], classes.size() - 1);
        NS_LOG_INFO("crux: job " << j << " intensity " << GetIntensity(j) << " level " << level[j]
                                 << " class " << +classes[lvl]);
        SetJobClass(j, classes[lvl]);
        ++m_counters.decisions;
    }
}

} // namespace ns3
