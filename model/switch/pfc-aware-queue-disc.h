/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_AWARE_QUEUE_DISC_H
#define PFC_AWARE_QUEUE_DISC_H

#include "ns3/queue-disc.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux
 * \brief Base of queue discs that know which priorities the link peer has
 * paused with PFC.
 *
 * A switch port (or a NIC) sets the mask of paused priorities with
 * SetPausedMask() right before calling Dequeue() or Peek(). A queue disc
 * derived from this class must then return only items whose priority (DS
 * field >> 5) is not paused, so that a paused class never blocks the others.
 *
 * Any other ns-3 QueueDisc may be installed on a FabricSwitch port as well;
 * the port then peeks at the head item and sends nothing while the head's
 * priority is paused (head-of-line blocking, as a single FIFO would have in
 * hardware).
 */
class PfcAwareQueueDisc : public QueueDisc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Constructor.
     * \param policy the size policy of the queue disc
     */
    explicit PfcAwareQueueDisc(QueueDiscSizePolicy policy);

    ~PfcAwareQueueDisc() override;

    /**
     * \brief Set the priorities that must not be served until the next call.
     * \param mask bit p set when priority p is paused
     */
    void SetPausedMask(uint8_t mask);

    /** \return bit p set when priority p is paused */
    uint8_t GetPausedMask() const;

    /**
     * \brief The priority of an item, as the link carries it in the 802.1Q PCP.
     * \param item the item
     * \return its DS field >> 5, or 0 for items without a DS field
     */
    static uint8_t GetItemPriority(Ptr<const QueueDiscItem> item);

  protected:
    uint8_t m_pausedMask; //!< priorities paused by the link peer
};

} // namespace ns3

#endif /* PFC_AWARE_QUEUE_DISC_H */
