/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-bth-header.h"

#include "ns3/log.h"

#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbBthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbBthHeader);

IbBthHeader::IbBthHeader()
    : m_opcode(SEND_FIRST),
      m_se(false),
      m_migReq(false),
      m_padCnt(0),
      m_tver(0),
      m_pkey(DEFAULT_PKEY),
      m_destQp(0),
      m_ackReq(false),
      m_psn(0)
{
    NS_LOG_FUNCTION(this);
}

TypeId
IbBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<IbBthHeader>();
    return tid;
}

TypeId
IbBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbBthHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "(se " << m_se << " m " << m_migReq << " pad " << static_cast<uint32_t>(m_padCnt)
       << " tver " << static_cast<uint32_t>(m_tver) << " a " << m_ackReq << ") opcode 0x"
       << std::hex << std::setfill('0') << std::setw(2) << static_cast<uint32_t>(m_opcode)
       << " pkey 0x" << std::setw(4) << m_pkey << std::dec << " qp " << m_destQp << " psn "
       << m_psn;
    os.flags(flags);
}

uint32_t
IbBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbBthHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_opcode);
    start.WriteU8((m_se ? 0x80 : 0) | (m_migReq ? 0x40 : 0) | (m_padCnt << 4) | m_tver);
    start.WriteHtonU16(m_pkey);
    start.WriteHtonU32(m_destQp); // reserved byte, then the 24-bit QP
    start.WriteHtonU32((m_ackReq ? 0x80000000 : 0) | m_psn);
}

uint32_t
IbBthHeader::Deserialize(Buffer::Iterator start)
{
    m_opcode = start.ReadU8();
    uint8_t flags = start.ReadU8();
    m_se = (flags & 0x80) != 0;
    m_migReq = (flags & 0x40) != 0;
    m_padCnt = (flags >> 4) & 0x03;
    m_tver = flags & 0x0f;
    m_pkey = start.ReadNtohU16();
    m_destQp = start.ReadNtohU32() & QP_MASK;
    uint32_t word = start.ReadNtohU32();
    m_ackReq = (word & 0x80000000) != 0;
    m_psn = word & PSN_MASK;
    return SIZE;
}

void
IbBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

IbBthHeader::Opcode
IbBthHeader::GetOpcode() const
{
    return static_cast<Opcode>(m_opcode);
}

void
IbBthHeader::SetSolicitedEvent(bool se)
{
    m_se = se;
}

bool
IbBthHeader::GetSolicitedEvent() const
{
    return m_se;
}

void
IbBthHeader::SetMigReq(bool m)
{
    m_migReq = m;
}

bool
IbBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
IbBthHeader::SetPadCount(uint8_t padCnt)
{
    m_padCnt = padCnt & 0x03;
}

uint8_t
IbBthHeader::GetPadCount() const
{
    return m_padCnt;
}

void
IbBthHeader::SetTver(uint8_t tver)
{
    m_tver = tver & 0x0f;
}

uint8_t
IbBthHeader::GetTver() const
{
    return m_tver;
}

void
IbBthHeader::SetPkey(uint16_t pkey)
{
    m_pkey = pkey;
}

uint16_t
IbBthHeader::GetPkey() const
{
    return m_pkey;
}

void
IbBthHeader::SetDestQp(uint32_t qp)
{
    m_destQp = qp & QP_MASK;
}

uint32_t
IbBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
IbBthHeader::SetAckReq(bool ackReq)
{
    m_ackReq = ackReq;
}

bool
IbBthHeader::GetAckReq() const
{
    return m_ackReq;
}

void
IbBthHeader::SetPsn(uint32_t psn)
{
    m_psn = psn & PSN_MASK;
}

uint32_t
IbBthHeader::GetPsn() const
{
    return m_psn;
}

bool
IbBthHeader::IsFirst(uint8_t opcode)
{
    return opcode == SEND_FIRST || opcode == RDMA_WRITE_FIRST;
}

bool
IbBthHeader::IsLast(uint8_t opcode)
{
    return opcode == SEND_LAST || opcode == SEND_LAST_IMM || opcode == RDMA_WRITE_LAST ||
           opcode == RDMA_WRITE_LAST_IMM;
}

bool
IbBthHeader::IsOnly(uint8_t opcode)
{
    return opcode == SEND_ONLY || opcode == SEND_ONLY_IMM || opcode == RDMA_WRITE_ONLY ||
           opcode == RDMA_WRITE_ONLY_IMM;
}

bool
IbBthHeader::HasReth(uint8_t opcode)
{
    return opcode == RDMA_WRITE_FIRST || opcode == RDMA_WRITE_ONLY || opcode == RDMA_WRITE_ONLY_IMM;
}

bool
IbBthHeader::HasAeth(uint8_t opcode)
{
    // RC RDMA READ response first (0x0D), last (0x0F), only (0x10),
    // Acknowledge (0x11) and atomic Acknowledge (0x12).
    return opcode == 0x0D || opcode == 0x0F || opcode == 0x10 || opcode == ACKNOWLEDGE ||
           opcode == 0x12;
}

bool
IbBthHeader::HasImmediate(uint8_t opcode)
{
    return opcode == SEND_LAST_IMM || opcode == SEND_ONLY_IMM || opcode == RDMA_WRITE_LAST_IMM ||
           opcode == RDMA_WRITE_ONLY_IMM;
}

} // namespace ns3
