/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-aeth-header.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAethHeader);

namespace
{
constexpr uint8_t SYNDROME_TYPE_MASK = 0x60;  //!< Type bits of the syndrome
constexpr uint8_t SYNDROME_TYPE_ACK = 0x00;   //!< Type bits of an ACK
constexpr uint8_t SYNDROME_TYPE_NAK = 0x60;   //!< Type bits of a NAK
constexpr uint8_t SYNDROME_VALUE_MASK = 0x1F; //!< Value bits of the syndrome
} // namespace

IbAethHeader::IbAethHeader()
    : m_syndrome(ACK_NO_CREDIT),
      m_msn(0)
{
    NS_LOG_FUNCTION(this);
}

TypeId
IbAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<IbAethHeader>();
    return tid;
}

TypeId
IbAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbAethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << (IsAck() ? "ACK" : (IsNak() ? "NAK" : "other")) << " syndrome 0x" << std::hex
       << std::setfill('0') << std::setw(2) << static_cast<uint32_t>(m_syndrome) << std::dec
       << " msn " << m_msn;
    os.flags(flags);
}

uint32_t
IbAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAethHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteHtonU32((static_cast<uint32_t>(m_syndrome) << 24) | m_msn);
}

uint32_t
IbAethHeader::Deserialize(Buffer::Iterator start)
{
    uint32_t word = start.ReadNtohU32();
    m_syndrome = static_cast<uint8_t>(word >> 24);
    m_msn = word & MSN_MASK;
    return SIZE;
}

void
IbAethHeader::SetAck(uint8_t credit)
{
    m_syndrome = SYNDROME_TYPE_ACK | (credit & SYNDROME_VALUE_MASK);
}

void
IbAethHeader::SetNak(uint8_t code)
{
    m_syndrome = SYNDROME_TYPE_NAK | (code & SYNDROME_VALUE_MASK);
}

bool
IbAethHeader::IsAck() const
{
    return (m_syndrome & SYNDROME_TYPE_MASK) == SYNDROME_TYPE_ACK;
}

bool
IbAethHeader::IsNak() const
{
    return (m_syndrome & SYNDROME_TYPE_MASK) == SYNDROME_TYPE_NAK;
}

uint8_t
IbAethHeader::GetSyndromeValue() const
{
    return m_syndrome & SYNDROME_VALUE_MASK;
}

void
IbAethHeader::SetSyndrome(uint8_t syndrome)
{
    m_syndrome = syndrome;
}

uint8_t
IbAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

void
IbAethHeader::SetMsn(uint32_t msn)
{
    m_msn = msn & MSN_MASK;
}

uint32_t
IbAethHeader::GetMsn() const
{
    return m_msn;
}

} // namespace ns3
