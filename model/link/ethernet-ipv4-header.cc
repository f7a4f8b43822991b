/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/ethernet-ipv4-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetIpv4Header");

NS_OBJECT_ENSURE_REGISTERED(EthernetIpv4Header);

EthernetIpv4Header::EthernetIpv4Header()
    : m_ipSource(nullptr),
      m_ipSink(nullptr),
      m_hasIp(false)
{
}

TypeId
EthernetIpv4Header::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetIpv4Header")
                            .SetParent<EthernetVlanHeader>()
                            .SetGroupName("Flux")
                            .AddConstructor<EthernetIpv4Header>();
    return tid;
}

TypeId
EthernetIpv4Header::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
EthernetIpv4Header::Print(std::ostream& os) const
{
    EthernetVlanHeader::Print(os);
    const Ipv4Header* ip = m_ipSource ? m_ipSource : (m_hasIp ? m_ipSink : nullptr);
    if (ip)
    {
        os << " ";
        ip->Print(os);
    }
}

uint32_t
EthernetIpv4Header::GetSerializedSize() const
{
    return EthernetVlanHeader::GetSerializedSize() +
           (m_ipSource ? m_ipSource->GetSerializedSize() : 0);
}

void
EthernetIpv4Header::Serialize(Buffer::Iterator start) const
{
    EthernetVlanHeader::Serialize(start);
    if (m_ipSource)
    {
        start.Next(EthernetVlanHeader::GetSerializedSize());
        m_ipSource->Serialize(start);
    }
}

uint32_t
EthernetIpv4Header::Deserialize(Buffer::Iterator start)
{
    const uint32_t link = EthernetVlanHeader::Deserialize(start);
    m_hasIp = m_ipSink && GetEtherType() == ETHERTYPE_IPV4;
    if (!m_hasIp)
    {
        return link;
    }
    start.Next(link);
    return link + m_ipSink->Deserialize(start);
}

void
EthernetIpv4Header::SetIpv4(const Ipv4Header* ip)
{
    m_ipSource = ip;
}

void
EthernetIpv4Header::SetIpv4Sink(Ipv4Header* ip)
{
    m_ipSink = ip;
}

bool
EthernetIpv4Header::HasIpv4() const
{
    return m_hasIp || m_ipSource;
}

} // namespace ns3
