/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-timestamp-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaTimestampTag);

TypeId
RdmaTimestampTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaTimestampTag")
                            .SetParent<Tag>()
                            .SetGroupName("Flux")
                            .AddConstructor<RdmaTimestampTag>();
    return tid;
}

TypeId
RdmaTimestampTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RdmaTimestampTag::RdmaTimestampTag()
    : m_ts(0)
{
}

RdmaTimestampTag::RdmaTimestampTag(Time t)
    : m_ts(t.GetTimeStep())
{
}

Time
RdmaTimestampTag::GetTimestamp() const
{
    return TimeStep(m_ts);
}

uint32_t
RdmaTimestampTag::GetSerializedSize() const
{
    return sizeof(int64_t);
}

void
RdmaTimestampTag::Serialize(TagBuffer i) const
{
    i.WriteU64(static_cast<uint64_t>(m_ts));
}

void
RdmaTimestampTag::Deserialize(TagBuffer i)
{
    m_ts = static_cast<int64_t>(i.ReadU64());
}

void
RdmaTimestampTag::Print(std::ostream& os) const
{
    os << "sent=" << TimeStep(m_ts);
}

} // namespace ns3
