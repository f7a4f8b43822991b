/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAFFIC_CLASS_H
#define TRAFFIC_CLASS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief The one definition of traffic classes and of the wire's header sizes.
 *
 * A traffic class is an 802.1p priority, 0..7. It travels on the wire twice:
 * as the DSCP class selector of the IPv4 header (DSCP = class << 3, so the
 * DS field's top three bits; the low three DSCP bits are free for other uses,
 * e.g. IntHeader's flags) and as the PCP of the 802.1Q tag that the link adds
 * from it. Switches classify by the DS field, PFC pauses by PCP, and the
 * queue discs' bands are the classes. Every part of the module derives one
 * from the other through these functions.
 */
namespace TrafficClass
{

/// Number of classes: the 802.1p priorities, PFC's eight pause timers.
constexpr uint8_t N_CLASSES = 8;
/// Class of ACK, NAK and CNP packets (RdmaNic::ControlPriority's default).
constexpr uint8_t CONTROL = 7;
/// Highest class data may use (the control class is reserved).
constexpr uint8_t MAX_DATA = 6;
/// A bit mask with one bit per class.
constexpr uint8_t ALL = 0xff;

/**
 * \param cls the class
 * \return the DSCP (6 bits) carrying it: its class selector, cls << 3
 */
constexpr uint8_t
ToDscp(uint8_t cls)
{
    return static_cast<uint8_t>((cls & 7u) << 3);
}

/**
 * \param dscp a DSCP (6 bits)
 * \return its class (the class selector bits)
 */
constexpr uint8_t
FromDscp(uint8_t dscp)
{
    return static_cast<uint8_t>((dscp >> 3) & 7u);
}

/**
 * \param ds the IPv4 DS field (TOS byte: DSCP << 2 | ECN)
 * \return its class
 */
constexpr uint8_t
FromDsField(uint8_t ds)
{
    return static_cast<uint8_t>(ds >> 5);
}

/**
 * \param cls the class
 * \return the 802.1Q PCP carrying it (the same number)
 */
constexpr uint8_t
ToPcp(uint8_t cls)
{
    return static_cast<uint8_t>(cls & 7u);
}

/**
 * \param pcp an 802.1Q PCP
 * \return its class
 */
constexpr uint8_t
FromPcp(uint8_t pcp)
{
    return static_cast<uint8_t>(pcp & 7u);
}

/**
 * \param cls the class
 * \return its bit in a class mask
 */
constexpr uint8_t
Bit(uint8_t cls)
{
    return static_cast<uint8_t>(1u << (cls & 7u));
}

/**
 * \brief Strict priority between classes: the class served first.
 * \param ready a class mask of the classes that have a packet and may send
 * \return the highest class in it (7 before 0), or -1 when it is empty
 */
constexpr int
HighestReady(uint8_t ready)
{
    return ready == 0 ? -1 : 31 - __builtin_clz(static_cast<unsigned>(ready));
}

/**
 * \brief Read a class order, the form the Order attributes of the
 * class-ordered queue disc and arbiter take.
 * \param text class numbers separated by spaces or commas, highest
 *        precedence first, e.g. "3 2 1" or "3,2,1" (commas where the text
 *        goes into an ObjectFactory string, which holds no spaces)
 * \param[out] order the classes, in the order given
 * \return false when a token is not a class number 0..7
 */
bool ParseOrder(const std::string& text, std::vector<uint8_t>& order);

/**
 * \param order classes, highest precedence first
 * \return them as ParseOrder() reads them, separated by spaces
 */
std::string FormatOrder(const std::vector<uint8_t>& order);

} // namespace TrafficClass

/**
 * \ingroup flux
 * \brief Header sizes of a RoCEv2 frame on the wire, in bytes: the one
 * place they are written (the headers' classes, the runner, the memory
 * estimate and the Python package, through ns3flux.wire_bytes(), read
 * them here).
 */
namespace WireBytes
{

/// Ethernet header (14) with its 802.1Q tag (4), in front of the IPv4 header.
constexpr uint32_t L2 = 18;
/// IPv4 (20) and UDP (8) headers.
constexpr uint32_t IP_UDP = 28;
/// InfiniBand Base Transport Header.
constexpr uint32_t BTH = 12;
/// RDMA Extended Transport Header (first packet of an RDMA WRITE).
constexpr uint32_t RETH = 16;
/// ACK Extended Transport Header.
constexpr uint32_t AETH = 4;
/// Invariant CRC at the end of every RoCEv2 packet.
constexpr uint32_t ICRC = 4;
/// Ethernet FCS.
constexpr uint32_t FCS = 4;
/// Preamble, start-of-frame delimiter and inter-frame gap.
constexpr uint32_t PREAMBLE_IFG = 20;

/**
 * \param payload RDMA payload bytes
 * \param reth whether the packet carries a RETH
 * \return bytes of the data frame from the Ethernet header to the ICRC
 */
constexpr uint32_t
DataFrame(uint32_t payload, bool reth = false)
{
    return L2 + IP_UDP + BTH + (reth ? RETH : 0) + payload + ICRC;
}

/// Bytes of an ACK frame (no INT) from the Ethernet header to the ICRC.
constexpr uint32_t ACK_FRAME = L2 + IP_UDP + BTH + AETH + ICRC;

/**
 * \param frame bytes of a frame from the Ethernet header on
 * \return the bytes it takes on the wire (FCS, preamble and gap added)
 */
constexpr uint32_t
OnWire(uint32_t frame)
{
    return frame + FCS + PREAMBLE_IFG;
}

} // namespace WireBytes

} // namespace ns3

#endif /* TRAFFIC_CLASS_H */
