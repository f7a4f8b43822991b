/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-timestamp-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaTimestampTag");

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
    : m_ts(0),
      m_retransmitted(false)
{
    NS_LOG_FUNCTION(this);
}

RdmaTimestampTag::RdmaTimestampTag(Time t, bool retransmitted)
    : m_ts(t.GetTimeStep()),
      m_retransmitted(retransmitted)
{
    NS_LOG_FUNCTION(this);
}

Time
RdmaTimestampTag::GetTimestamp() const
{
    return TimeStep(m_ts);
}

bool
RdmaTimestampTag::IsRetransmitted() const
{
    return m_retransmitted;
}

uint32_t
RdmaTimestampTag::GetSerializedSize() const
{
    return sizeof(int64_t) + 1;
}

void
RdmaTimestampTag::Serialize(TagBuffer i) const
{
    i.WriteU64(static_cast<uint64_t>(m_ts));
    i.WriteU8(m_retransmitted ? 1 : 0);
}

void
RdmaTimestampTag::Deserialize(TagBuffer i)
{
    m_ts = static_cast<int64_t>(i.ReadU64());
    m_retransmitted = i.ReadU8() != 0;
}

void
RdmaTimestampTag::Print(std::ostream& os) const
{
    os << "sent=" << TimeStep(m_ts) << (m_retransmitted ? " retransmitted" : "");
}

} // namespace ns3
