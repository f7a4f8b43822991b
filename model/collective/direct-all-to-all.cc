/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-all-to-all.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectAllToAll");

NS_OBJECT_ENSURE_REGISTERED(DirectAllToAll);

TypeId
DirectAllToAll::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectAllToAll")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<DirectAllToAll>();
    return tid;
}

DirectAllToAll::DirectAllToAll()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_TO_ALL, "direct");
}

DirectAllToAll::~DirectAllToAll() = default;

uint32_t
DirectAllToAll::GetNStepsFor(uint32_t /* n */) const
{
    return 1;
}

JobStepTag::Phase
DirectAllToAll::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::ALL_GATHER;
}

uint64_t
DirectAllToAll::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

void
DirectAllToAll::GetSends(uint32_t n,
                         uint32_t rank,
                         uint32_t /* step */,
                         uint64_t bytes,
                         std::vector<Send>& sends) const
{
    sends.clear();
    for (uint32_t i = 1; i < n; ++i)
    {
        const uint32_t peer = (rank + i) % n;
        sends.push_back(Send{peer, bytes / n + (peer < bytes % n ? 1 : 0)});
    }
}

uint32_t
DirectAllToAll::GetNReceives(uint32_t n, uint32_t /* rank */, uint32_t /* step */) const
{
    return n - 1;
}

} // namespace ns3
