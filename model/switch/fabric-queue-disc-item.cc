/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-queue-disc-item.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricQueueDiscItem");

namespace
{
/// EtherType of IPv4.
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
} // namespace

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
