/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ethernet-vlan-header.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetVlanHeader");

NS_OBJECT_ENSURE_REGISTERED(EthernetVlanHeader);

EthernetVlanHeader::EthernetVlanHeader()
    : m_destination(0),
      m_source(0),
      m_tci(0),
      m_etherType(0),
      m_tagged(false)
{
    NS_LOG_FUNCTION(this);
}

TypeId
EthernetVlanHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetVlanHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<EthernetVlanHeader>();
    return tid;
}

TypeId
EthernetVlanHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
EthernetVlanHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << GetSource() << " > " << GetDestination();
    if (m_tagged)
    {
        os << " 802.1Q pcp " << +GetPcp() << " dei " << GetDei() << " vid " << GetVid();
    }
    os << " type 0x" << std::hex << std::setfill('0') << std::setw(4) << m_etherType;
    os.flags(flags);
}

uint32_t
EthernetVlanHeader::GetSerializedSize() const
{
    return m_tagged ? TAGGED_SIZE : UNTAGGED_SIZE;
}

void
EthernetVlanHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32(static_cast<uint32_t>(m_destination >> 16));
    start.WriteHtonU32(static_cast<uint32_t>(m_destination << 16 | m_source >> 32));
    start.WriteHtonU32(static_cast<uint32_t>(m_source));
    if (m_tagged)
    {
        start.WriteHtonU16(TPID);
        start.WriteHtonU16(m_tci);
    }
    start.WriteHtonU16(m_etherType);
}

uint32_t
EthernetVlanHeader::Deserialize(Buffer::Iterator start)
{
    const uint64_t a = start.ReadNtohU32();
    const uint64_t b = start.ReadNtohU32();
    const uint64_t c = start.ReadNtohU32();
    m_destination = (a << 16) | (b >> 16);
    m_source = ((b & 0xffff) << 32) | c;
    m_etherType = start.ReadNtohU16();
    m_tagged = m_etherType == TPID;
    if (!m_tagged)
    {
        m_tci = 0;
        return UNTAGGED_SIZE;
    }
    m_tci = start.ReadNtohU16();
    m_etherType = start.ReadNtohU16();
    return TAGGED_SIZE;
}

uint64_t
EthernetVlanHeader::MacToBits(Mac48Address address)
{
    uint8_t mac[6];
    address.CopyTo(mac);
    uint64_t bits = 0;
    for (uint8_t byte : mac)
    {
        bits = (bits << 8) | byte;
    }
    return bits;
}

Mac48Address
EthernetVlanHeader::BitsToMac(uint64_t bits)
{
    uint8_t mac[6];
    for (int i = 5; i >= 0; --i)
    {
        mac[i] = static_cast<uint8_t>(bits);
        bits >>= 8;
    }
    Mac48Address address;
    address.CopyFrom(mac);
    return address;
}

void
EthernetVlanHeader::SetDestinationBits(uint64_t bits)
{
    m_destination = bits & 0xffffffffffffULL;
}

uint64_t
EthernetVlanHeader::GetDestinationBits() const
{
    return m_destination;
}

void
EthernetVlanHeader::SetSourceBits(uint64_t bits)
{
    m_source = bits & 0xffffffffffffULL;
}

uint64_t
EthernetVlanHeader::GetSourceBits() const
{
    return m_source;
}

void
EthernetVlanHeader::SetDestination(Mac48Address address)
{
    m_destination = MacToBits(address);
}

Mac48Address
EthernetVlanHeader::GetDestination() const
{
    return BitsToMac(m_destination);
}

void
EthernetVlanHeader::SetSource(Mac48Address address)
{
    m_source = MacToBits(address);
}

Mac48Address
EthernetVlanHeader::GetSource() const
{
    return BitsToMac(m_source);
}

void
EthernetVlanHeader::SetVlanTag(uint8_t pcp)
{
    m_tagged = true;
    m_tci = static_cast<uint16_t>((pcp & 0x07) << 13);
}

void
EthernetVlanHeader::ClearVlanTag()
{
    m_tagged = false;
    m_tci = 0;
}

bool
EthernetVlanHeader::IsTagged() const
{
    return m_tagged;
}

uint8_t
EthernetVlanHeader::GetPcp() const
{
    return static_cast<uint8_t>(m_tci >> 13);
}

bool
EthernetVlanHeader::GetDei() const
{
    return (m_tci & 0x1000) != 0;
}

uint16_t
EthernetVlanHeader::GetVid() const
{
    return m_tci & 0x0fff;
}

void
EthernetVlanHeader::SetEtherType(uint16_t etherType)
{
    m_etherType = etherType;
}

uint16_t
EthernetVlanHeader::GetEtherType() const
{
    return m_etherType;
}

} // namespace ns3
