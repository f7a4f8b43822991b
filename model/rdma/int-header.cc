/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "int-header.h"

#include "ib-bth-header.h"
#include "ib-reth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/udp-header.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntHeader");

NS_OBJECT_ENSURE_REGISTERED(IntHeader);

namespace
{
constexpr uint32_t QLEN_SHIFT = 0;
constexpr uint32_t BYTES_SHIFT = IntHop::QLEN_BITS;
constexpr uint32_t TIME_SHIFT = BYTES_SHIFT + IntHop::BYTES_BITS;
constexpr uint32_t RATE_SHIFT = TIME_SHIFT + IntHop::TIME_BITS;
constexpr uint64_t QLEN_MASK = (uint64_t{1} << IntHop::QLEN_BITS) - 1;
constexpr uint64_t BYTES_MASK = (uint64_t{1} << IntHop::BYTES_BITS) - 1;
constexpr uint64_t TIME_MASK = (uint64_t{1} << IntHop::TIME_BITS) - 1;
} // namespace

const std::array<uint64_t, 8> IntHop::LINE_RATES = {25000000000ULL,
                                                    50000000000ULL,
                                                    100000000000ULL,
                                                    200000000000ULL,
                                                    400000000000ULL,
                                                    10000000000ULL,
                                                    40000000000ULL,
                                                    800000000000ULL};

IntHop::IntHop()
    : word(0)
{
    NS_LOG_FUNCTION(this);
}

uint8_t
IntHop::EncodeLineRate(uint64_t bps)
{
    uint8_t best = 0;
    uint64_t bestDiff = UINT64_MAX;
    for (uint8_t i = 0; i < LINE_RATES.size(); ++i)
    {
        const uint64_t d = LINE_RATES[i] > bps ? LINE_RATES[i] - bps : bps - LINE_RATES[i];
        if (d < bestDiff)
        {
            bestDiff = d;
            best = i;
        }
    }
    return best;
}

bool
IntHop::IsCodedLineRate(uint64_t bps)
{
    return std::find(LINE_RATES.begin(), LINE_RATES.end(), bps) != LINE_RATES.end();
}

void
IntHop::Set(uint64_t lineRateBps,
            uint64_t timeNs,
            uint64_t txBytes,
            uint64_t qlenBytes,
            uint32_t multiplier)
{
    const uint64_t m = std::max<uint32_t>(multiplier, 1);
    const uint64_t qlen = std::min<uint64_t>(qlenBytes / (QLEN_UNIT * m), QLEN_MASK);
    const uint64_t bytes = (txBytes / (BYTE_UNIT * m)) & BYTES_MASK;
    word = (uint64_t{EncodeLineRate(lineRateBps)} << RATE_SHIFT) |
           ((timeNs & TIME_MASK) << TIME_SHIFT) | (bytes << BYTES_SHIFT) | (qlen << QLEN_SHIFT);
}

uint64_t
IntHop::GetLineRateBps() const
{
    return LINE_RATES[(word >> RATE_SHIFT) & 7];
}

uint32_t
IntHop::GetTimeField() const
{
    return static_cast<uint32_t>((word >> TIME_SHIFT) & TIME_MASK);
}

uint32_t
IntHop::GetBytesField() const
{
    return static_cast<uint32_t>((word >> BYTES_SHIFT) & BYTES_MASK);
}

uint32_t
IntHop::GetQlenField() const
{
    return static_cast<uint32_t>((word >> QLEN_SHIFT) & QLEN_MASK);
}

uint64_t
IntHop::GetQlenBytes(uint32_t multiplier) const
{
    return uint64_t{GetQlenField()} * QLEN_UNIT * std::max<uint32_t>(multiplier, 1);
}

uint64_t
IntHop::GetTimeDelta(const IntHop& older) const
{
    return (uint64_t{GetTimeField()} - older.GetTimeField()) & TIME_MASK;
}

uint64_t
IntHop::GetBytesDelta(const IntHop& older, uint32_t multiplier) const
{
    const uint64_t units = (uint64_t{GetBytesField()} - older.GetBytesField()) & BYTES_MASK;
    return units * BYTE_UNIT * std::max<uint32_t>(multiplier, 1);
}

IntHeader::IntHeader(uint8_t maxHops, uint8_t multiplier)
    : m_nHops(0),
      m_maxHops(std::min(maxHops, MAX_HOPS)),
      m_multiplier(std::max<uint8_t>(multiplier, 1))
{
    NS_LOG_FUNCTION(this);
}

TypeId
IntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntHeader")
                            .SetParent<Header>()
                            .SetGroupName("Flux")
                            .AddConstructor<IntHeader>();
    return tid;
}

TypeId
IntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IntHeader::Print(std::ostream& os) const
{
    os << "INT nHops=" << +m_nHops << " maxHops=" << +m_maxHops << " mult=" << +m_multiplier;
    for (uint8_t i = 0; i < m_nHops; ++i)
    {
        const IntHop& h = m_hops[i];
        os << " [" << h.GetLineRateBps() / 1000000000 << "G t=" << h.GetTimeField()
           << " tx=" << h.GetBytesField() << " q=" << h.GetQlenBytes(m_multiplier) << "]";
    }
}

uint32_t
IntHeader::SizeFor(uint8_t maxHops)
{
    return FIXED_BYTES + HOP_BYTES * std::min(maxHops, MAX_HOPS);
}

uint32_t
IntHeader::GetSerializedSize() const
{
    return SizeFor(m_maxHops);
}

void
IntHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(m_nHops);
    start.WriteU8(m_maxHops);
    start.WriteU8(m_multiplier);
    start.WriteU8(0);
    for (uint8_t i = 0; i < m_maxHops; ++i)
    {
        start.WriteHtonU64(i < m_nHops ? m_hops[i].word : 0);
    }
}

uint32_t
IntHeader::Deserialize(Buffer::Iterator start)
{
    m_nHops = start.ReadU8();
    m_maxHops = std::min(start.ReadU8(), MAX_HOPS);
    m_multiplier = std::max<uint8_t>(start.ReadU8(), 1);
    start.ReadU8();
    m_nHops = std::min(m_nHops, m_maxHops);
    for (uint8_t i = 0; i < m_maxHops; ++i)
    {
        m_hops[i].word = start.ReadNtohU64();
    }
    return GetSerializedSize();
}

uint8_t
IntHeader::GetNHops() const
{
    return m_nHops;
}

uint8_t
IntHeader::GetMaxHops() const
{
    return m_maxHops;
}

uint8_t
IntHeader::GetMultiplier() const
{
    return m_multiplier;
}

const IntHop&
IntHeader::GetHop(uint8_t i) const
{
    return m_hops[std::min<uint8_t>(i, MAX_HOPS - 1)];
}

bool
IntHeader::PushHop(uint64_t lineRateBps, Time now, uint64_t txBytes, uint64_t qlenBytes)
{
    if (m_nHops >= m_maxHops)
    {
        return false;
    }
    m_hops[m_nHops++].Set(lineRateBps,
                          static_cast<uint64_t>(now.GetNanoSeconds()),
                          txBytes,
                          qlenBytes,
                          m_multiplier);
    return true;
}

void
IntHeader::StampPacket(Ptr<Packet> p, uint64_t lineRateBps, uint64_t txBytes, uint64_t qlenBytes)
{
    // The headers in front of the INT come off and go back unchanged; the
    // packet keeps its size.
    UdpHeader udp;
    p->RemoveHeader(udp);
    IbBthHeader bth;
    p->RemoveHeader(bth);
    const bool reth = IbBthHeader::HasReth(bth.GetOpcode());
    IbRethHeader rh;
    if (reth)
    {
        p->RemoveHeader(rh);
    }
    IntHeader ih;
    p->RemoveHeader(ih);
    ih.PushHop(lineRateBps, Simulator::Now(), txBytes, qlenBytes);
    p->AddHeader(ih);
    if (reth)
    {
        p->AddHeader(rh);
    }
    p->AddHeader(bth);
    p->AddHeader(udp);
}

} // namespace ns3
