/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{
/// Bytes of opcode, class-enable vector and quanta; the rest is padding.
constexpr uint32_t PFC_FIELD_BYTES = 4 + 2 * PfcHeader::PRIORITIES;
} // namespace

PfcHeader::PfcHeader()
    : m_opcode(OPCODE),
      m_classEnable(0)
{
    NS_LOG_FUNCTION(this);
    m_quanta.fill(0);
}

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

Mac48Address
PfcHeader::GetMulticastAddress()
{
    static const Mac48Address address("01:80:c2:00:00:01");
    return address;
}

void
PfcHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "opcode 0x" << std::hex << std::setfill('0') << std::setw(4) << m_opcode << " enable 0x"
       << std::setw(2) << static_cast<uint32_t>(m_classEnable) << std::dec;
    os.flags(flags);
    os << " quanta";
    for (uint16_t q : m_quanta)
    {
        os << " " << q;
    }
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU16(m_opcode);
    start.WriteHtonU16(m_classEnable);
    for (uint16_t q : m_quanta)
    {
        start.WriteHtonU16(q);
    }
    start.WriteU8(0, SIZE - PFC_FIELD_BYTES);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadNtohU16();
    // The high byte of the vector is reserved.
    m_classEnable = static_cast<uint8_t>(start.ReadNtohU16() & 0x00ff);
    for (uint16_t& q : m_quanta)
    {
        q = start.ReadNtohU16();
    }
    if (m_opcode != OPCODE)
    {
        NS_LOG_LOGIC("MAC control opcode " << m_opcode << " is not PFC");
        m_classEnable = 0;
        m_quanta.fill(0);
    }
    return SIZE;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

bool
PfcHeader::IsPfc() const
{
    return m_opcode == OPCODE;
}

void
PfcHeader::SetClassEnable(uint8_t mask)
{
    m_classEnable = mask;
}

uint8_t
PfcHeader::GetClassEnable() const
{
    return m_classEnable;
}

void
PfcHeader::SetQuanta(uint8_t prio, uint16_t quanta)
{
    NS_ABORT_MSG_IF(prio >= PRIORITIES, "PFC priority " << +prio << " out of range");
    m_quanta[prio] = quanta;
}

uint16_t
PfcHeader::GetQuanta(uint8_t prio) const
{
    NS_ABORT_MSG_IF(prio >= PRIORITIES, "PFC priority " << +prio << " out of range");
    return m_quanta[prio];
}

void
PfcHeader::Pause(uint8_t prio, uint16_t quanta)
{
    NS_ABORT_MSG_IF(prio >= PRIORITIES, "PFC priority " << +prio << " out of range");
    m_classEnable |= static_cast<uint8_t>(1u << prio);
    m_quanta[prio] = quanta;
}

bool
PfcHeader::IsPaused(uint8_t prio) const
{
    NS_ABORT_MSG_IF(prio >= PRIORITIES, "PFC priority " << +prio << " out of range");
    return (m_classEnable & (1u << prio)) != 0 && m_quanta[prio] > 0;
}

} // namespace ns3
