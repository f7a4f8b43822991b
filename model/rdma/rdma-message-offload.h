/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_MESSAGE_OFFLOAD_H
#define RDMA_MESSAGE_OFFLOAD_H

#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup flux-rdma
 * \brief Carries the messages of a NIC's queue pairs instead of its packets.
 *
 * A NIC with an offload (RdmaNic::SetMessageOffload) hands every message
 * posted on its queue pairs to it, whole: no packet is built, sent or
 * acknowledged. The offload decides when the message's last byte reaches
 * the peer and then calls the receiving queue pair's DeliverOffloaded(),
 * and the sending queue pair's CompleteOffloaded() when the sender learns
 * it. Everything above the queue pairs (collectives, gates, schedulers,
 * background tenants) is unchanged: this is how a flow-level model of the
 * fabric (FluidNetwork) runs the same workloads as the packet-level one.
 */
class RdmaMessageOffload : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~RdmaMessageOffload() override;

    /**
     * \brief A message was posted on a queue pair of an offloaded NIC.
     * \param qp the sending queue pair (connected, in the RTS state; the
     *        offload keeps a reference if it needs one)
     * \param seq the message's sequence number on the queue pair
     * \param bytes its payload bytes
     */
    virtual void Post(RdmaQueuePair* qp, uint64_t seq, uint64_t bytes) = 0;

    /**
     * \brief The class of a queue pair's data changed.
     * \param qp the queue pair, with its new class
     */
    virtual void PriorityChanged(Ptr<RdmaQueuePair> qp) = 0;

    /**
     * \brief A queue pair of an offloaded NIC was destroyed
     * (RdmaNic::DestroyQueuePair): the offload may let it go once it has
     * nothing of it in flight. The default does nothing.
     * \param qp the queue pair
     */
    virtual void QueuePairDestroyed(RdmaQueuePair* qp);
};

} // namespace ns3

#endif /* RDMA_MESSAGE_OFFLOAD_H */
