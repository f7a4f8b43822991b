/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_EGRESS_HOOK_H
#define SWITCH_EGRESS_HOOK_H

#include "ns3/object.h"
#include "ns3/queue-item.h"

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief What a FabricSwitch tells a layer above it about its egress queues,
 * so that the layer may write into the packets that leave (in-band
 * telemetry: IntStamper) without the switch knowing what it writes.
 *
 * The switch calls Enqueued() after an item joins a port's egress queue and
 * Dequeued() as an item leaves it for the line, after the port has counted
 * it and before its buffer is released and ECN decided at dequeue
 * (FabricSwitch::SetEgressHook()).
 */
class SwitchEgressHook : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~SwitchEgressHook() override;

    /**
     * \brief An item joined a port's egress queue.
     * \param port the port
     * \param queueBytes the bytes the queue holds now
     */
    virtual void Enqueued(uint32_t port, uint64_t queueBytes) = 0;

    /**
     * \brief An item leaves a port's egress queue for the line.
     * \param port the port
     * \param queueBytes the bytes left in the queue
     * \param txBytes the bytes (IPv4 packets) the port has sent, this one included
     * \param lineRateBps the port's line rate, bit/s
     * \param item the item, which the hook may change
     */
    virtual void Dequeued(uint32_t port,
                          uint64_t queueBytes,
                          uint64_t txBytes,
                          uint64_t lineRateBps,
                          const Ptr<QueueDiscItem>& item) = 0;
};

} // namespace ns3

#endif /* SWITCH_EGRESS_HOOK_H */
