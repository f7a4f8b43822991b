/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_QUEUE_DISC_ITEM_H
#define FABRIC_QUEUE_DISC_ITEM_H

#include "ns3/ipv4-queue-disc-item.h"

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief An IPv4 packet held by a FabricSwitch between ingress and egress.
 *
 * Besides the packet and its IPv4 header (kept apart, as in any
 * Ipv4QueueDiscItem, so that queue discs can read and mark it), the item
 * remembers what the switch's buffer manager charged for it: the ingress
 * port, the priority and the number of bytes. The same numbers are given
 * back when the item leaves the switch or is dropped by a queue disc, so the
 * buffer accounting stays exact whatever the egress queue disc does.
 */
class FabricQueueDiscItem : public Ipv4QueueDiscItem
{
  public:
    /**
     * \brief Create an item.
     * \param p the packet, without its IPv4 header
     * \param header the IPv4 header
     * \param ingressPort the switch port the packet arrived on
     * \param priority the traffic class (TrafficClass::FromDsField of the DS field)
     * \param chargedBytes the bytes the buffer manager accounts for the packet
     */
    FabricQueueDiscItem(Ptr<Packet> p,
                        const Ipv4Header& header,
                        uint32_t ingressPort,
                        uint8_t priority,
                        uint32_t chargedBytes);

    ~FabricQueueDiscItem() override;

    /**
     * \brief Memory for an item, from the items freed before when there are
     * any: a switch makes one item per packet and hop, which would cost an
     * allocation and a release each. (Sanitizer builds allocate every item,
     * so that a use after release is still caught.)
     * \param size the bytes of the item
     * \return the memory
     */
    static void* operator new(std::size_t size);

    /**
     * \brief Keep an item's memory for the next item.
     * \param p the memory
     * \param size its bytes
     */
    static void operator delete(void* p, std::size_t size);

    // Delete default constructor, copy constructor and assignment operator to avoid misuse
    FabricQueueDiscItem() = delete;
    FabricQueueDiscItem(const FabricQueueDiscItem&) = delete;
    FabricQueueDiscItem& operator=(const FabricQueueDiscItem&) = delete;

    /** \return the switch port the packet arrived on */
    uint32_t GetIngressPort() const;

    /** \return the traffic class (TrafficClass::FromDsField of the DS field) */
    uint8_t GetPriority() const;

    /** \return the bytes the buffer manager accounts for the packet */
    uint32_t GetChargedBytes() const;

    /**
     * \brief The size of the IPv4 packet, header included.
     *
     * The same as Ipv4QueueDiscItem::GetSize() (the packet does not change
     * while the switch holds it; AddHeader() moves the header into it), but
     * computed once: queue discs and queues ask for it several times per
     * packet.
     *
     * \return the size in bytes
     */
    uint32_t GetSize() const override;

    /**
     * \brief The flow hash of Ipv4QueueDiscItem::Hash, computed cheaply.
     *
     * The same bytes go into the same Murmur3 hash (source, destination,
     * protocol, the TCP or UDP ports of an unfragmented packet, the
     * perturbation), so flows take the paths ns-3's hash gives them (and
     * FabricTopology::GetPath, whose probes are such items, agrees), but the
     * 5-tuple is read once (the ports from the transport header's first
     * four bytes) instead of through header objects at every call: ECMP
     * and FluxQueueDisc hash every packet.
     *
     * \param perturbation hash perturbation value
     * \return the hash of the packet's 5-tuple
     */
    uint32_t Hash(uint32_t perturbation) const override;

  private:
    uint32_t m_ingressPort;  //!< port the packet arrived on
    uint32_t m_size;         //!< IPv4 packet bytes, header included
    uint32_t m_chargedBytes; //!< bytes accounted by the buffer manager
    uint8_t m_priority;      //!< traffic class
    /// Bytes of the 5-tuple in the hash: addresses, protocol, ports.
    static constexpr std::size_t TUPLE_BYTES = 13;
    mutable uint8_t m_tuple[TUPLE_BYTES]; //!< the 5-tuple's bytes, once read
    mutable bool m_tupleRead{false};      //!< whether m_tuple was read
};

} // namespace ns3

#endif /* FABRIC_QUEUE_DISC_ITEM_H */
