/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_PRIO_QUEUE_DISC_H
#define PFC_PRIO_QUEUE_DISC_H

#include "pfc-aware-queue-disc.h"
#include "pfc-band-queue.h"

#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief Eight FIFO bands, one per 802.1p priority, served in strict
 * priority (band 7 first), skipping the bands paused by PFC.
 *
 * This is the default egress queue disc of a FabricSwitch port.
 *
 * Classification: an item goes to band TrafficClass::FromDsField() of its
 * DS field (the DSCP class selector, which is also the 802.1Q PCP the link puts on the wire); items
 * without a DS field go to band 0. Packet filters are not used.
 *
 * Dequeue: the highest non-empty band whose priority is not in the paused
 * mask (PfcAwareQueueDisc::SetPausedMask). Peek() follows the same rule and
 * does not remove the item.
 *
 * Internal queues: by default one PfcBandQueue, created by the queue disc,
 * which holds the eight bands in one list (one Queue object per port rather
 * than eight: a large fabric has thousands of ports). Eight internal queues
 * of any type added before initialisation are used as the bands 0..7
 * instead (band b = GetInternalQueue(b)), as are one PfcBandQueue's.
 *
 * Size: the internal queues have no limit of their own and the
 * queue disc has none either: admission is the job of the switch's shared
 * buffer manager (SwitchMmu), which accounts bytes per port and priority.
 * Used elsewhere without such a manager, the queue disc never drops.
 *
 * Attributes: none beyond those of QueueDisc. Trace sources: those of
 * QueueDisc (Enqueue, Dequeue, Drop, Mark, PacketsInQueue, BytesInQueue,
 * SojournTime); per-band occupancy is available through GetBandPackets()
 * and GetBandBytes().
 */
class PfcPrioQueueDisc : public PfcAwareQueueDisc
{
  public:
    /// Number of bands, one per traffic class.
    static constexpr uint8_t N_BANDS = TrafficClass::N_CLASSES;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcPrioQueueDisc();
    ~PfcPrioQueueDisc() override;

    /**
     * \param band the band (priority)
     * \return the number of packets queued in it
     */
    uint32_t GetBandPackets(uint8_t band) const;

    /**
     * \param band the band (priority)
     * \return the number of bytes queued in it
     */
    uint32_t GetBandBytes(uint8_t band) const;

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /** \return the band to serve next, or -1 when none may be served */
    int SelectBand() const;

    PfcBandQueue* m_bandQueue;                   //!< all bands in one queue, or null
    std::array<InternalQueue*, N_BANDS> m_bands; //!< else one queue per band (owned by QueueDisc)
    uint8_t m_nonEmpty; //!< per-band queues: bit b set when b holds packets
};

} // namespace ns3

#endif /* PFC_PRIO_QUEUE_DISC_H */
