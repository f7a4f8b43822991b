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
      m_retransmitted(false),
      m_echo(false)
{
    NS_LOG_FUNCTION(this);
}

RdmaTimestampTag::RdmaTimestampTag(Time t, bool retransmitted, bool echo)
    : m_ts(t.GetTimeStep()),
      m_retransmitted(retransmitted),
      m_echo(echo)
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

bool
RdmaTimestampTag::IsEchoRequested() const
{
    return m_echo;
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
    i.WriteU8((m_retransmitted ? 1 : 0) | (m_echo ? 2 : 0));
}

void
RdmaTimestampTag::Deserialize(TagBuffer i)
{
    m_ts = static_cast<int64_t>(i.ReadU64());
    const uint8_t flags = i.ReadU8();
    m_retransmitted = (flags & 1) != 0;
    m_echo = (flags & 2) != 0;
}

void
RdmaTimestampTag::Print(std::ostream& os) const
{
    os << "sent=" << TimeStep(m_ts) << (m_retransmitted ? " retransmitted" : "")
       << (m_echo ? " echo" : "");
}

} // namespace ns3
