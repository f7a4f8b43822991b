/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collective.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingCollective").SetParent<ScheduledCollective>().SetGroupName("Flux");
    return tid;
}

RingCollective::RingCollective()
{
    NS_LOG_FUNCTION(this);
}

RingCollective::~RingCollective() = default;

uint64_t
RingCollective::ChunkBytes(uint64_t bytes, uint32_t n, uint32_t chunk)
{
    return bytes / n + (chunk < bytes % n ? 1 : 0);
}

uint64_t
RingCollective::GetStepBytes(uint32_t n, uint32_t rank, uint32_t step, uint64_t bytes) const
{
    return ChunkBytes(bytes, n, ChunkOf(n, rank, step));
}

void
RingCollective::GetSends(uint32_t n,
                         uint32_t rank,
                         uint32_t step,
                         uint64_t bytes,
                         std::vector<Send>& sends) const
{
    sends.clear();
    sends.push_back(Send{(rank + 1) % n, GetStepBytes(n, rank, step, bytes)});
}

uint32_t
RingCollective::GetNReceives(uint32_t /* n */, uint32_t /* rank */, uint32_t /* step */) const
{
    return 1;
}

} // namespace ns3
