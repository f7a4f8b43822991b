/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "remote-frame-tag.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RemoteFrameTag);

TypeId
RemoteFrameTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RemoteFrameTag")
                            .SetParent<Tag>()
                            .SetGroupName("Flux")
                            .AddConstructor<RemoteFrameTag>();
    return tid;
}

TypeId
RemoteFrameTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

RemoteFrameTag::RemoteFrameTag()
    : m_downs(0),
      m_arrival(0)
{
}

RemoteFrameTag::RemoteFrameTag(uint32_t downs, Time arrival)
    : m_downs(downs),
      m_arrival(arrival.GetTimeStep())
{
}

Time
RemoteFrameTag::GetArrival() const
{
    return TimeStep(m_arrival);
}

uint32_t
RemoteFrameTag::GetDowns() const
{
    return m_downs;
}

uint32_t
RemoteFrameTag::GetSerializedSize() const
{
    return 12;
}

void
RemoteFrameTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_downs);
    i.WriteU64(static_cast<uint64_t>(m_arrival));
}

void
RemoteFrameTag::Deserialize(TagBuffer i)
{
    m_downs = i.ReadU32();
    m_arrival = static_cast<int64_t>(i.ReadU64());
}

void
RemoteFrameTag::Print(std::ostream& os) const
{
    os << "downs=" << m_downs << " arrival=" << m_arrival;
}

} // namespace ns3
