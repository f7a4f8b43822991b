/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_IPV4_RECEIVER_H
#define PFC_IPV4_RECEIVER_H

#include "ns3/ipv4-header.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup flux-link
 * \brief What takes the IPv4 packets a PfcNetDevice receives, called
 *        directly (PfcNetDevice::SetIpv4Receiver).
 *
 * The module's own receivers, FabricSwitch and RdmaNic, take every frame of
 * every port, so they are called through this interface rather than a
 * Callback: a Callback reaches its method through two more objects, which
 * on a fabric of thousands of ports are seldom in the caches. Other code
 * may use PfcNetDevice::SetIpv4RxCallback as before.
 */
class PfcIpv4Receiver
{
  public:
    virtual ~PfcIpv4Receiver() = default;

    /**
     * \brief Take a received IPv4 packet.
     * \param dev the device that received it
     * \param p the packet, after its IPv4 header
     * \param ip its IPv4 header (the receiver may change it)
     * \param prio the priority of the frame's 802.1Q tag (0 when untagged)
     */
    virtual void ReceiveIpv4(Ptr<PfcNetDevice> dev,
                             Ptr<Packet> p,
                             Ipv4Header& ip,
                             uint8_t prio) = 0;
};

} // namespace ns3

#endif /* PFC_IPV4_RECEIVER_H */
