/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-reduce-scatter.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingReduceScatter");

NS_OBJECT_ENSURE_REGISTERED(RingReduceScatter);

TypeId
RingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingReduceScatter")
                            .SetParent<RingCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RingReduceScatter>();
    return tid;
}

RingReduceScatter::RingReduceScatter()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::REDUCE_SCATTER, "ring");
}

RingReduceScatter::~RingReduceScatter() = default;

uint32_t
RingReduceScatter::GetNStepsFor(uint32_t n) const
{
    return n - 1;
}

JobStepTag::Phase
RingReduceScatter::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::REDUCE_SCATTER;
}

uint64_t
RingReduceScatter::GetBytesSentPerRank(uint64_t bytes) const
{
    // every chunk but one, once; averaged over ranks
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

uint32_t
RingReduceScatter::ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const
{
    return (rank + n - step) % n; // (r - k) mod N, as the all-reduce;
}

} // namespace ns3
