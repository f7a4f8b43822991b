/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_EGRESS_H
#define PFC_EGRESS_H

#include "ns3/object.h"
#include "ns3/queue-item.h"

namespace ns3
{

/**
 * \ingroup flux-link
 * \brief The source a PfcNetDevice pulls its next frame from.
 *
 * A PfcNetDevice never queues data itself: when its line becomes free it
 * asks its egress for the next item whose priority is not paused by the
 * peer. A switch port's egress wraps a QueueDisc; a host's egress is the
 * RDMA NIC, which arbitrates among its queue pairs and paces them. Whoever
 * has new work calls PfcNetDevice::Wake() (a no-op when the device will ask
 * anyway, see HasPending()).
 *
 * Items hold an IPv4 packet whose header may still be held apart
 * (Ipv4QueueDiscItem); the device calls AddHeader() before framing. The
 * priority of an item is its DSCP class selector (TrafficClass::FromDsField).
 */
class PfcEgress : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~PfcEgress() override;

    /**
     * \brief Hand over the next item to transmit.
     * \param pausedMask bit p set when priority p is paused by the peer
     * \return the item, or nullptr when nothing may be sent now
     */
    virtual Ptr<QueueDiscItem> DequeueForTransmit(uint8_t pausedMask) = 0;

    /**
     * \brief Hand over the next item of some priorities to be discarded
     * (the PfcWatchdog's "drop" action).
     *
     * The default serves DequeueForTransmit with every other priority
     * paused; an egress that accounts for what it sends (such as a switch
     * port) overrides it to account for a drop instead.
     *
     * \param prioMask bit p set for priority p
     * \return the item, or nullptr when none of those priorities is ready
     */
    virtual Ptr<QueueDiscItem> DequeueForDiscard(uint8_t prioMask);

    /**
     * \brief Whether items of a priority are waiting (the PfcWatchdog declares
     * a storm only on a paused priority that holds packets back).
     *
     * The default, for an egress that cannot tell, says yes.
     *
     * \param prio the priority
     * \return true when items of the priority are waiting
     */
    virtual bool HasQueued(uint8_t prio) const;

    /**
     * \brief Whether items may be waiting (queued, paused or paced), so that
     * the device asks again as soon as its line is free. When this says no,
     * whoever brings new work calls PfcNetDevice::Wake(), as for an idle
     * device, and the device asks at the end of the frame on its line.
     *
     * The default, for an egress that cannot tell, says yes.
     *
     * \return true when items may be waiting
     */
    virtual bool HasPending() const;
};

} // namespace ns3

#endif /* PFC_EGRESS_H */
