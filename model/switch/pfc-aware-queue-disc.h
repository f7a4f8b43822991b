/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_AWARE_QUEUE_DISC_H
#define PFC_AWARE_QUEUE_DISC_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/queue-disc.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief Base of queue discs that know which priorities the link peer has
 * paused with PFC.
 *
 * A switch port (or a NIC) sets the mask of paused priorities with
 * SetPausedMask() right before calling Dequeue() or Peek(). A queue disc
 * derived from this class must then return only items whose priority
 * (TrafficClass::FromDsField of the DS field) is not paused, so that a paused class never blocks
 * the others.
 *
 * A queue disc that holds packets back although the line is free (a
 * shaper, a scheduler that defers a class) calls RequestPoll(): its port
 * then asks it again for a packet after the given delay, even when no packet
 * arrives and no pause ends in between (those wake the port as well).
 *
 * Direct path: a queue disc that can hold its items in storage of its own
 * accepts StartDirect(); its port then hands items in and out with
 * EnqueueDirect() and DequeueDirect(), past QueueDisc's Enqueue() and
 * Dequeue() and the internal queues through which ns-3 counts packets
 * (about 1 500 instructions per packet on Debian's ns-3 3.37). QueueDisc's
 * packet and byte counters and its Enqueue, Dequeue, PacketsInQueue,
 * BytesInQueue and SojournTime traces then stay silent; drops and marks
 * are counted and traced as on the ns-3 path. Such a queue disc counts what
 * it holds itself (GetHeldPackets(), GetHeldBytes()), and once it took the
 * direct path its port uses only the direct calls and those counts.
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
     * \brief Handler of RequestPoll(): the delay after which the port is to
     * ask for a packet again.
     */
    typedef Callback<void, Time> PollCallback;

    /**
     * \brief Set who serves RequestPoll() (the port installing the queue disc).
     * \param cb the handler (a null callback: requests are ignored)
     */
    void SetPollCallback(PollCallback cb);

    /**
     * \brief The priority of an item, as the link carries it in the 802.1Q PCP.
     * \param item the item
     * \return TrafficClass::FromDsField of its DS field, or 0 for items without one
     */
    static uint8_t GetItemPriority(Ptr<const QueueDiscItem> item);

    /**
     * \brief Whether the packets of a class leave in the order they came.
     *
     * The switch marks ECN from the bytes its MMU holds for the class;
     * when they do not, FabricSwitch::WaitEcn also marks a packet from its
     * own wait.
     *
     * \return true (a queue disc that reorders a class overrides it)
     */
    virtual bool ServesClassInOrder() const;

    /**
     * \brief Switch to the direct path (see the class description), before
     * Initialize().
     * \return whether the queue disc takes it (the default: no)
     */
    virtual bool StartDirect();

    /**
     * \brief Enqueue on the direct path (after StartDirect()).
     * \param item the item (time-stamped now)
     * \return false when the queue disc dropped it (DropBeforeEnqueue)
     */
    virtual bool EnqueueDirect(Ptr<QueueDiscItem> item);

    /**
     * \brief Dequeue on the direct path (after StartDirect()), as Dequeue()
     * would.
     * \return the item, or null
     */
    virtual Ptr<QueueDiscItem> DequeueDirect();

    /** \return the packets the queue disc holds, as a direct-path queue disc counts them */
    uint32_t GetHeldPackets() const
    {
        return m_heldPackets;
    }

    /** \return the bytes the queue disc holds, as a direct-path queue disc counts them */
    uint32_t GetHeldBytes() const
    {
        return m_heldBytes;
    }

  protected:
    void DoDispose() override;

    /**
     * \brief Ask the port to try dequeuing again after a delay.
     *
     * For a queue disc that returned nothing (or less than it holds) while
     * the line was free. The port keeps one pending poll, the earliest asked
     * for; a dequeue in between does not cancel it (a poll that finds the
     * line busy or nothing to send does nothing).
     *
     * \param delay from now (zero: as soon as possible)
     */
    void RequestPoll(Time delay);

    uint8_t m_pausedMask; //!< priorities paused by the link peer
    /// packets held, counted by a queue disc that can take the direct path
    uint32_t m_heldPackets{0};
    /// bytes held, counted by a queue disc that can take the direct path
    uint32_t m_heldBytes{0};

  private:
    PollCallback m_pollCallback; //!< serves RequestPoll()
};

} // namespace ns3

#endif /* PFC_AWARE_QUEUE_DISC_H */
