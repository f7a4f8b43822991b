/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "crux-scheduler.h"

#include "ns3/log.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CruxScheduler");

NS_OBJECT_ENSURE_REGISTERED(CruxScheduler);

TypeId
CruxScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::CruxScheduler")
                            .SetParent<JobScheduler>()
                            .SetGroupName("Flux")
                            .AddConstructor<CruxScheduler>();
    return tid;
}

CruxScheduler::CruxScheduler() = default;

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
CruxScheduler::ComputeLevels() const
{
    const uint32_t n = GetNJobs();
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> p(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        p[j] = GetIntensity(j);
    }
    // decreasing priority; ties by index, so that results do not depend on sort internals
    std::stable_sort(order.begin(), order.end(), [&p](uint32_t a, uint32_t b) {
        return p[a] > p[b];
    });
    std::vector<uint32_t> level(n, 0);
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        uint32_t lvl = 0;
        for (std::size_t k = 0; k < i; ++k)
        {
            if (Conflict(order[i], order[k]))
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
