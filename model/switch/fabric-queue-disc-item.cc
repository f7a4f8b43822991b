/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-queue-disc-item.h"

#include "ns3/hash.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricQueueDiscItem");

namespace
{
/// EtherType of IPv4.
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
/// IP protocol numbers whose first four header bytes are the ports.
constexpr uint8_t PROTO_TCP = 6;
constexpr uint8_t PROTO_UDP = 17;

/// Memory of a released item, kept for the next one.
struct FreeItem
{
    FreeItem* next; //!< the next kept item
};

FreeItem* g_freeItems = nullptr; //!< the released items' memory, the last released first

#if defined(__SANITIZE_ADDRESS__)
constexpr bool KEEP_ITEMS = false; //!< sanitizer builds allocate every item
#else
constexpr bool KEEP_ITEMS = true; //!< items reuse the memory of released ones
#endif
} // namespace

void*
FabricQueueDiscItem::operator new(std::size_t size)
{
    if (KEEP_ITEMS && size == sizeof(FabricQueueDiscItem) && g_freeItems)
    {
        FreeItem* item = g_freeItems;
        g_freeItems = item->next;
        return item;
    }
    return ::operator new(size);
}

void
FabricQueueDiscItem::operator delete(void* p, std::size_t size)
{
    // (a subclass of another size goes back to the heap)
    if (KEEP_ITEMS && size == sizeof(FabricQueueDiscItem))
    {
        auto* item = static_cast<FreeItem*>(p);
        item->next = g_freeItems;
        g_freeItems = item;
        return;
    }
    ::operator delete(p, size);
}

FabricQueueDiscItem::FabricQueueDiscItem(Ptr<Packet> p,
                                         const Ipv4Header& header,
                                         uint32_t ingressPort,
                                         uint8_t priority,
                                         uint32_t chargedBytes)
    : Ipv4QueueDiscItem(p, Address(), ETHERTYPE_IPV4, header),
      m_ingressPort(ingressPort),
      m_size(p->GetSize() + header.GetSerializedSize()),
      m_chargedBytes(chargedBytes),
      m_priority(priority)
{
    NS_LOG_FUNCTION(this);
}

FabricQueueDiscItem::~FabricQueueDiscItem() = default;

uint32_t
FabricQueueDiscItem::GetIngressPort() const
{
    return m_ingressPort;
}

uint32_t
FabricQueueDiscItem::GetSize() const
{
    return m_size;
}

uint32_t
FabricQueueDiscItem::Hash(uint32_t perturbation) const
{
    if (!m_tupleRead)
    {
        // Ipv4QueueDiscItem::Hash's first 13 bytes, read once (before the
        // queue disc adds the IPv4 header back at dequeue): the addresses,
        // the protocol and the transport header's first four bytes, which
        // are the ports of TCP and UDP
        m_tupleRead = true;
        const Ipv4Header& ip = GetHeader();
        const uint8_t protocol = ip.GetProtocol();
        ip.GetSource().Serialize(m_tuple);
        ip.GetDestination().Serialize(m_tuple + 4);
        m_tuple[8] = protocol;
        std::fill(m_tuple + 9, m_tuple + TUPLE_BYTES, 0);
        if ((protocol == PROTO_TCP || protocol == PROTO_UDP) && ip.GetFragmentOffset() == 0)
        {
            GetPacket()->CopyData(m_tuple + 9, 4);
        }
    }
    uint8_t buf[TUPLE_BYTES + 4];
    std::copy(m_tuple, m_tuple + TUPLE_BYTES, buf);
    buf[13] = (perturbation >> 24) & 0xff;
    buf[14] = (perturbation >> 16) & 0xff;
    buf[15] = (perturbation >> 8) & 0xff;
    buf[16] = perturbation & 0xff;
    return Hash32(reinterpret_cast<const char*>(buf), sizeof(buf));
}

uint8_t
FabricQueueDiscItem::GetPriority() const
{
    return m_priority;
}

uint32_t
FabricQueueDiscItem::GetChargedBytes() const
{
    return m_chargedBytes;
}

} // namespace ns3
