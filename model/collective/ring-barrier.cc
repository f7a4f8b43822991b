/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-barrier.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingBarrier");

NS_OBJECT_ENSURE_REGISTERED(RingBarrier);

TypeId
RingBarrier::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingBarrier")
                            .SetParent<RingAllGather>()
                            .SetGroupName("Flux")
                            .AddConstructor<RingBarrier>();
    return tid;
}

RingBarrier::RingBarrier()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::BARRIER, "ring");
}

RingBarrier::~RingBarrier() = default;

uint64_t
RingBarrier::GetBytesSentPerRank(uint64_t /* bytes */) const
{
    return (GetNRanks() - 1) * FLAG_BYTES;
}

uint64_t
RingBarrier::GetStepBytes(uint32_t /* n */,
                          uint32_t /* rank */,
                          uint32_t /* step */,
                          uint64_t /* bytes */) const
{
    return FLAG_BYTES;
}

uint32_t
RingBarrier::GetPieces(uint64_t /* bytes */) const
{
    return 1; // a flag is not cut
}

} // namespace ns3
