/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_PORT_EGRESS_H
#define SWITCH_PORT_EGRESS_H

#include "pfc-aware-queue-disc.h"

#include "ns3/compact-fifo.h"
#include "ns3/event-id.h"
#include "ns3/net-device-queue-interface.h"
#include "ns3/nstime.h"
#include "ns3/pfc-egress.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>

namespace ns3
{

class FabricSwitch;

/**
 * \ingroup flux-switch
 * \brief The egress of one FabricSwitch port: the PfcEgress its PfcNetDevice
 * pulls from, wrapping the port's QueueDisc.
 *
 * When the device asks for the next item with the mask of priorities its
 * peer paused:
 * - a PfcAwareQueueDisc (such as the default PfcPrioQueueDisc) gets the mask
 *   and serves only unpaused priorities;
 * - any other QueueDisc is peeked at first when some priority is paused, and
 *   nothing is sent while the head item's priority is paused (head-of-line
 *   blocking, as a single hardware FIFO would have).
 *
 * Every item leaving the queue disc, sent, dropped by it (its "Drop" trace
 * source) or discarded by the port's PfcWatchdog (DequeueForDiscard), is
 * reported to the switch, which gives its buffer space back.
 * A PfcAwareQueueDisc that holds packets back asks for another dequeue
 * attempt with PfcAwareQueueDisc::RequestPoll(); the egress serves it with
 * RequestPoll(): one pending wake-up of the port's device, the earliest
 * asked for.
 *
 * Queue discs are only driven through Enqueue(), Dequeue() and Peek(): no
 * TrafficControlLayer is involved, so queue discs that restart themselves
 * through QueueDisc::Run() (e.g. TbfQueueDisc) are not supported.
 */
class SwitchPortEgress : public PfcEgress
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchPortEgress();
    ~SwitchPortEgress() override;

    /**
     * \brief Tie the egress to its switch port.
     * \param sw the switch (not owned)
     * \param port the port index
     */
    void SetSwitchPort(FabricSwitch* sw, uint32_t port);

    /**
     * \brief Set the interface of the port's device given to queue discs.
     *
     * Queue discs that read device parameters through it (e.g.
     * FqCoDelQueueDisc takes its default Quantum from the device MTU) find
     * them there, as they would under ns-3's TrafficControlLayer.
     *
     * \param ndqi the interface, aggregated to the port's device
     */
    void SetNetDeviceQueueInterface(Ptr<NetDeviceQueueInterface> ndqi);

    /**
     * \brief Install the queue disc; it is initialised here.
     *
     * The queue disc gets the port's NetDeviceQueueInterface unless it has
     * one. Note that QueueDisc::Initialize() only asserts the queue disc's
     * own configuration check, which release builds of ns-3 compile out:
     * configure queue discs fully before installing them.
     *
     * Replacing a queue disc that holds packets aborts: do it before the
     * simulation starts.
     *
     * \param qdisc the queue disc
     */
    void SetQueueDisc(Ptr<QueueDisc> qdisc);

    /** \return the queue disc (null with built-in bands) */
    Ptr<QueueDisc> GetQueueDisc() const;

    /**
     * \return whether the port's queue disc reorders the packets of a class
     * (PfcAwareQueueDisc::ServesClassInOrder false), so that the bytes
     * queued in the class are not the wait of the packet leaving
     */
    bool ReordersClass() const
    {
        return m_reordersClass;
    }

    /**
     * \brief Keep the port's packets in eight built-in bands instead of a
     *        queue disc (FabricSwitch::NativeEgress).
     *
     * The bands are served as PfcPrioQueueDisc serves its own: strict
     * priority, highest class first, paused classes skipped, first in first
     * out within a class, no limit (the switch's MMU admits packets). No
     * QueueDisc object is on the path, so a hop reads none of its state and
     * trace callbacks. Call it before the port holds packets; it removes the
     * queue disc.
     */
    void UseBuiltInBands();

    /**
     * \brief Take out the next packet whatever its class (the port's link
     *        went down: the switch drops what the port holds). A queue disc
     *        that holds an item back (a gate) keeps it.
     * \return the item, or null
     */
    Ptr<QueueDiscItem> DequeueForFlush();

    /** \return bytes (IPv4 packets) queued at the port */
    uint32_t GetNBytes() const;

    /** \return packets queued at the port */
    uint32_t GetNPackets() const;

    /**
     * \brief Enqueue an item admitted by the switch.
     * \param item the item (a FabricQueueDiscItem)
     * \return false when the queue disc dropped it (already reported)
     */
    bool Enqueue(Ptr<QueueDiscItem> item);

    Ptr<QueueDiscItem> DequeueForTransmit(uint8_t pausedMask) override;

    /**
     * \brief Take out the next item of some priorities for the PfcWatchdog to
     * discard: the switch counts it as a DROP_PFC_WATCHDOG drop and gives its
     * buffer space back. A queue disc that is not a PfcAwareQueueDisc gives
     * its head item only when it is of one of those priorities.
     * \param prioMask bit p set for priority p
     * \return the item, or nullptr
     */
    Ptr<QueueDiscItem> DequeueForDiscard(uint8_t prioMask) override;

    /**
     * \param prio a priority
     * \return true when the switch's buffer holds packets of the priority
     * for this port (SwitchMmu::GetEgressBytes)
     */
    bool HasQueued(uint8_t prio) const override;

    /**
     * \return whether packets are queued at the port (built-in bands or
     * queue disc)
     */
    bool HasPending() const override;

    /**
     * \brief Wake the port's device after a delay, so that it asks the
     * queue disc for a packet again.
     *
     * One wake-up is pending at a time: a request for a later time than the
     * pending one is ignored, an earlier one replaces it.
     *
     * \param delay from now
     */
    void RequestPoll(Time delay);

    /** \return the polls that woke the port's device */
    uint64_t GetPolls() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Trace sink of the queue disc's "Drop" trace source.
     * \param item the dropped item
     */
    void QueueDiscDropped(Ptr<const QueueDiscItem> item);

    /// The requested poll is due: wake the port's device.
    void Poll();

    /// Disconnect the queue disc (which must be empty), before it is replaced.
    void DetachQueueDisc();

    /**
     * \param allowed bit b set when band b may be served
     * \return the head of the highest allowed non-empty built-in band,
     *         removed, or null
     */
    Ptr<QueueDiscItem> TakeFromBands(uint8_t allowed);

    /**
     * \return the queue disc's next item (on the direct path when it takes
     *         it), removed, or null
     */
    Ptr<QueueDiscItem> TakeFromQueueDisc();

    FabricSwitch* m_switch;              //!< the switch (owns this egress)
    uint32_t m_port;                     //!< port index
    Ptr<QueueDisc> m_qdisc;              //!< the queue disc
    Ptr<PfcAwareQueueDisc> m_pfcAware;   //!< the queue disc, when it skips paused priorities
    Ptr<NetDeviceQueueInterface> m_ndqi; //!< interface of the port's device
    EventId m_poll;                      //!< pending poll (RequestPoll)
    Time m_pollAt;                       //!< when the pending poll is due
    uint64_t m_polls;                    //!< polls done
    bool m_builtIn{false};               //!< built-in bands instead of the queue disc
    bool m_reordersClass{false};         //!< the queue disc reorders a class (ReordersClass)
    bool m_direct{false};                //!< the queue disc is on its direct path
    uint8_t m_bandMask{0};               //!< built-in bands: bit b set when band b holds packets
    uint32_t m_bandBytes{0};             //!< built-in bands: bytes queued
    uint32_t m_bandPackets{0};           //!< built-in bands: packets queued
    /// built-in bands, by class
    std::array<CompactFifo<Ptr<QueueDiscItem>>, TrafficClass::N_CLASSES> m_bands;
};

} // namespace ns3

#endif /* SWITCH_PORT_EGRESS_H */
