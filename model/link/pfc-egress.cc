/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-egress.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcEgress");

NS_OBJECT_ENSURE_REGISTERED(PfcEgress);

TypeId
PfcEgress::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcEgress").SetParent<Object>().SetGroupName("Flux");
    return tid;
}

PfcEgress::~PfcEgress() = default;

Ptr<QueueDiscItem>
PfcEgress::DequeueForDiscard(uint8_t prioMask)
{
    return DequeueForTransmit(static_cast<uint8_t>(~prioMask));
}

bool
PfcEgress::HasQueued(uint8_t /* prio */) const
{
    return true;
}

bool
PfcEgress::HasPending() const
{
    return true;
}

} // namespace ns3
