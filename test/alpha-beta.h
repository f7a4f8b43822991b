/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ALPHA_BETA_H
#define ALPHA_BETA_H

// Test-only alpha-beta model of hosts on one switch (100G links of 1 us,
// 4096 B MTU), shared by the suites that check collectives' times.

namespace ns3
{
namespace fluxtest
{

/// Payload bytes per packet.
constexpr double MTU = 4096;
/// Bytes per packet on the wire beyond the payload: Ethernet+VLAN 18, IPv4
/// 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble+SFD+IFG 20.
constexpr double WIRE_OVERHEAD = 86;
/// Host link rate, bit/s.
constexpr double HOST_RATE = 100e9;

/**
 * \brief Alpha of one message between two hosts of one switch: two 1 us
 * links, and the first packet stored and forwarded once at the switch.
 * \param payload bytes of the message's first packet (up to an MTU)
 * \return seconds
 */
inline double
AlphaS(double payload = MTU)
{
    return 2 * 1e-6 + (payload + WIRE_OVERHEAD) * 8 / HOST_RATE;
}

/**
 * \brief Beta: seconds per payload byte at line rate, headers included.
 * \return seconds per byte
 */
inline double
BetaS()
{
    return 8 / HOST_RATE * (MTU + WIRE_OVERHEAD) / MTU;
}

} // namespace fluxtest
} // namespace ns3

#endif /* ALPHA_BETA_H */
