/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-aware-scheduler.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpAwareScheduler");

NS_OBJECT_ENSURE_REGISTERED(EcmpAwareScheduler);
FLUX_REGISTER_POLICY("ecmp-aware", EcmpAwareScheduler, JobScheduler::POLICY_RANK_OTHER);

TypeId
EcmpAwareScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EcmpAwareScheduler")
                            .SetParent<JobScheduler>()
                            .SetGroupName("Flux")
                            .AddConstructor<EcmpAwareScheduler>()
                            .AddAttribute("ByClass",
                                          "Jobs choose their paths in the order of their "
                                          "scenario classes (the highest first, then by "
                                          "bytes) rather than by bytes alone.",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&EcmpAwareScheduler::m_byClass),
                                          MakeBooleanChecker());
    return tid;
}

EcmpAwareScheduler::EcmpAwareScheduler()
    : m_byClass(false)
{
}

EcmpAwareScheduler::~EcmpAwareScheduler() = default;

std::string
EcmpAwareScheduler::GetPolicyName() const
{
    return "ecmp-aware";
}

bool
EcmpAwareScheduler::ChoosesPaths() const
{
    return true;
}

std::vector<uint32_t>
EcmpAwareScheduler::ByBytes(const JobScheduler& scheduler)
{
    const uint32_t n = scheduler.GetNJobs();
    std::vector<double> bytes(n);
    for (uint32_t j = 0; j < n; ++j)
    {
        const Ptr<TrainingJob> tj = scheduler.GetJobInfo(j).job;
        bytes[j] = static_cast<double>(tj->GetGradientBytes()) * tj->GetCollective()->GetNRanks();
    }
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&bytes](uint32_t a, uint32_t b) {
        return bytes[a] > bytes[b];
    });
    return order;
}

std::vector<uint32_t>
EcmpAwareScheduler::ByClass(const JobScheduler& scheduler)
{
    std::vector<uint32_t> order = ByBytes(scheduler);
    std::stable_sort(order.begin(), order.end(), [&scheduler](uint32_t a, uint32_t b) {
        return scheduler.GetJobInfo(a).scenarioClass > scheduler.GetJobInfo(b).scenarioClass;
    });
    return order;
}

void
EcmpAwareScheduler::Start()
{
    PlacePaths(m_byClass ? ByClass(*this) : ByBytes(*this));
}

} // namespace ns3
