/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_IPV4_HEADER_H
#define ETHERNET_IPV4_HEADER_H

#include "ethernet-vlan-header.h"

#include "ns3/ipv4-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-link
 *
 * \brief The link header of a PfcNetDevice frame (an EthernetVlanHeader)
 * and, in an IPv4 frame, the IPv4 header that follows it, added to and
 * removed from the packet as one header.
 *
 * On the wire it is exactly the two headers one after the other. A switch
 * hop takes the frame's link and IPv4 headers off and puts new ones on; as
 * one header that is one Packet::RemoveHeader() and one AddHeader() per hop
 * instead of two of each (each costs a buffer adjustment, the packet's tag
 * and metadata bookkeeping, and a Header object's construction).
 *
 * The IPv4 header is not held but pointed to, for the duration of one
 * AddHeader() or RemoveHeader(): SetIpv4() names the header to write after
 * the link header, SetIpv4Sink() the header that Deserialize() fills when
 * the frame's EtherType is IPv4 (0x0800). Deserialize() returns the bytes
 * of both headers, or of the link header alone in other frames (PFC), whose
 * payload thus stays in the packet. Without either call the header is the
 * link header alone.
 */
class EthernetIpv4Header : public EthernetVlanHeader
{
  public:
    /// EtherType of IPv4.
    static constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;

    /** \brief An untagged link header with zero fields and no IPv4 header. */
    EthernetIpv4Header();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \brief Write an IPv4 header after the link header (whose EtherType
     * the caller sets to ETHERTYPE_IPV4).
     * \param ip the IPv4 header; it must outlive the AddHeader() call
     */
    void SetIpv4(const Ipv4Header* ip);

    /**
     * \brief Where Deserialize() puts the IPv4 header of an IPv4 frame.
     * \param ip the header to fill; it must outlive the RemoveHeader() call
     */
    void SetIpv4Sink(Ipv4Header* ip);

    /** \return whether an IPv4 header was written or read with the link header */
    bool HasIpv4() const;

  private:
    const Ipv4Header* m_ipSource; //!< the IPv4 header to write, or null
    Ipv4Header* m_ipSink;         //!< where to read the IPv4 header, or null
    bool m_hasIp;                 //!< the IPv4 header was read
};

} // namespace ns3

#endif /* ETHERNET_IPV4_HEADER_H */
