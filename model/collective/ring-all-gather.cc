/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-all-gather.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RingAllGather);

TypeId
RingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllGather")
                            .SetParent<RingCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RingAllGather>();
    return tid;
}

RingAllGather::RingAllGather()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_GATHER, "ring");
}

RingAllGather::~RingAllGather() = default;

uint32_t
RingAllGather::GetNStepsFor(uint32_t n) const
{
    return n - 1;
}

JobStepTag::Phase
RingAllGather::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::ALL_GATHER;
}

uint64_t
RingAllGather::GetBytesSentPerRank(uint64_t bytes) const
{
    // every chunk but one, once; averaged over ranks
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

uint32_t
RingAllGather::ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const
{
    return (rank + n - step) % n; // its own chunk first, then what it received;
}

} // namespace ns3
