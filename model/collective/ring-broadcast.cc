/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-broadcast.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingBroadcast");

NS_OBJECT_ENSURE_REGISTERED(RingBroadcast);

TypeId
RingBroadcast::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingBroadcast")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RingBroadcast>();
    return tid;
}

RingBroadcast::RingBroadcast()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::BROADCAST, "ring");
}

RingBroadcast::~RingBroadcast() = default;

uint32_t
RingBroadcast::GetNStepsFor(uint32_t n) const
{
    return n - 1;
}

JobStepTag::Phase
RingBroadcast::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::ALL_GATHER;
}

uint64_t
RingBroadcast::GetBytesSentPerRank(uint64_t bytes) const
{
    return bytes; // every rank but the last
}

void
RingBroadcast::GetSends(uint32_t n,
                        uint32_t rank,
                        uint32_t step,
                        uint64_t bytes,
                        std::vector<Send>& sends) const
{
    sends.clear();
    if (rank == step && rank + 1 < n)
    {
        sends.push_back(Send{rank + 1, bytes});
    }
}

uint32_t
RingBroadcast::GetNReceives(uint32_t /* n */, uint32_t rank, uint32_t step) const
{
    return rank == step + 1 ? 1 : 0;
}

uint32_t
RingBroadcast::GetPieces(uint64_t bytes) const
{
    const uint64_t piece = GetPipelineBytes();
    if (piece == 0)
    {
        return static_cast<uint32_t>(std::clamp<uint64_t>(bytes, 1, GetNRanks()));
    }
    return static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + piece - 1) / piece));
}

} // namespace ns3
