/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllreduce);

TypeId
RingAllreduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllreduce")
                            .SetParent<RingCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RingAllreduce>();
    return tid;
}

RingAllreduce::RingAllreduce()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_REDUCE, "ring");
}

RingAllreduce::~RingAllreduce() = default;

uint32_t
RingAllreduce::GetNStepsFor(uint32_t n) const
{
    return 2 * (n - 1);
}

uint64_t
RingAllreduce::GetBytesSentPerRank(uint64_t bytes) const
{
    // every chunk but one, twice; averaged over ranks
    const uint32_t n = GetNRanks();
    return 2 * (n - 1) * bytes / n;
}

uint32_t
RingAllreduce::ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const
{
    if (step < n - 1)
    {
        return (rank + n - step) % n; // reduce-scatter: (r - k) mod N
    }
    const uint32_t k = step - (n - 1);
    return (rank + 1 + n - k) % n; // all-gather: (r + 1 - k) mod N
}

} // namespace ns3
