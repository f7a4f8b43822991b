/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "vlan-tag-header.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("VlanTagHeader");

NS_OBJECT_ENSURE_REGISTERED(VlanTagHeader);

VlanTagHeader::VlanTagHeader()
    : m_pcp(0),
      m_dei(false),
      m_vid(0),
      m_etherType(0)
{
    NS_LOG_FUNCTION(this);
}

VlanTagHeader::VlanTagHeader(uint8_t pcp, uint16_t vid, uint16_t etherType)
    : m_pcp(pcp & 0x07),
      m_dei(false),
      m_vid(vid & 0x0fff),
      m_etherType(etherType)
{
    NS_LOG_FUNCTION(this);
}

TypeId
VlanTagHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::VlanTagHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<VlanTagHeader>();
    return tid;
}

TypeId
VlanTagHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
VlanTagHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "pcp " << static_cast<uint32_t>(m_pcp) << " dei " << m_dei << " vid " << m_vid
       << " type 0x" << std::hex << std::setfill('0') << std::setw(4) << m_etherType;
    os.flags(flags);
}

uint32_t
VlanTagHeader::GetSerializedSize() const
{
    return SIZE;
}

void
VlanTagHeader::Serialize(Buffer::Iterator start) const
{
    uint16_t tci = (static_cast<uint16_t>(m_pcp) << 13) | (m_dei ? 0x1000 : 0) | m_vid;
    start.WriteHtonU16(tci);
    start.WriteHtonU16(m_etherType);
}

uint32_t
VlanTagHeader::Deserialize(Buffer::Iterator start)
{
    uint16_t tci = start.ReadNtohU16();
    m_pcp = static_cast<uint8_t>(tci >> 13);
    m_dei = (tci & 0x1000) != 0;
    m_vid = tci & 0x0fff;
    m_etherType = start.ReadNtohU16();
    return SIZE;
}

void
VlanTagHeader::SetPcp(uint8_t pcp)
{
    m_pcp = pcp & 0x07;
}

uint8_t
VlanTagHeader::GetPcp() const
{
    return m_pcp;
}

void
VlanTagHeader::SetDei(bool dei)
{
    m_dei = dei;
}

bool
VlanTagHeader::GetDei() const
{
    return m_dei;
}

void
VlanTagHeader::SetVid(uint16_t vid)
{
    m_vid = vid & 0x0fff;
}

uint16_t
VlanTagHeader::GetVid() const
{
    return m_vid;
}

void
VlanTagHeader::SetEtherType(uint16_t etherType)
{
    m_etherType = etherType;
}

uint16_t
VlanTagHeader::GetEtherType() const
{
    return m_etherType;
}

} // namespace ns3
