/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_BAND_QUEUE_H
#define PFC_BAND_QUEUE_H

#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>
#include <iterator>
#include <utility>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief One queue holding eight FIFO bands, one per priority, for the
 * internal queue of a strict-priority queue disc (PfcPrioQueueDisc).
 *
 * The items of all bands share one list, band 7's first, then band 6's, and
 * so on; an item joins the end of its band's stretch, and the queue keeps
 * where each band starts and how many packets and bytes it holds. Enqueue
 * and dequeue at a band are O(1) and go through ns-3's Queue, so the
 * queue's statistics and trace sources (and those of the queue disc that
 * owns it) are those of any internal queue.
 *
 * One such queue per switch port instead of eight DropTailQueues saves the
 * memory of seven Queue objects and of the 28 callbacks a QueueDisc connects
 * to them (about 6 KB per port) and keeps a port's state in fewer cache
 * lines.
 *
 * Enqueue() classifies by TrafficClass::FromDsField() of the item's DS field
 * (band 0 without one); Dequeue(), Remove() and Peek() take the head of the
 * highest non-empty band. EnqueueBand(), DequeueBand() and PeekBand() name
 * the band. The queue has no size limit unless MaxSize is set.
 */
class PfcBandQueue : public QueueDisc::InternalQueue
{
  public:
    /// Number of bands, one per traffic class.
    static constexpr uint8_t N_BANDS = TrafficClass::N_CLASSES;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcBandQueue();
    ~PfcBandQueue() override;

    bool Enqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> Dequeue() override;
    Ptr<QueueDiscItem> Remove() override;
    Ptr<const QueueDiscItem> Peek() const override;

    /**
     * \brief Add an item at the end of a band.
     * \param band the band (0..7)
     * \param item the item
     * \return false when the queue is full (the item is dropped and traced)
     */
    bool EnqueueBand(uint8_t band, Ptr<QueueDiscItem> item);

    /**
     * \param band a non-empty band
     * \return its head item, removed
     */
    Ptr<QueueDiscItem> DequeueBand(uint8_t band);

    /**
     * \param band a non-empty band
     * \return its head item
     */
    Ptr<const QueueDiscItem> PeekBand(uint8_t band) const;

    /** \return bit b set when band b holds packets */
    uint8_t GetNonEmptyMask() const
    {
        return m_nonEmpty;
    }

    /**
     * \param band a band
     * \return the packets it holds
     */
    uint32_t GetBandPackets(uint8_t band) const;

    /**
     * \param band a band
     * \return the bytes it holds
     */
    uint32_t GetBandBytes(uint8_t band) const;

  private:
    /// The list's const iterator (std::list in every supported ns-3 release).
    using ListIterator = typename QueueDisc::InternalQueue::ConstIterator;

    /**
     * \brief The list's end, whichever way the ns-3 release exposes it.
     * \return the past-the-end iterator
     */
    template <typename Q = PfcBandQueue>
    auto ListEnd(int) const -> decltype(std::declval<const Q&>().GetContainer().end())
    {
        return static_cast<const Q*>(this)->GetContainer().end();
    }

    /**
     * \brief The list's end, for releases without GetContainer() (3.31).
     * \return the past-the-end iterator
     */
    template <typename Q = PfcBandQueue>
    auto ListEnd(long) const -> decltype(std::declval<const Q&>().end())
    {
        return static_cast<const Q*>(this)->end();
    }

    /**
     * \brief Take the head item of a band out of the list and the counts.
     * \param band a non-empty band
     * \param drop remove as a drop (Remove()) rather than dequeue it
     * \return the item
     */
    Ptr<QueueDiscItem> TakeHead(uint8_t band, bool drop);

    /** \return the highest non-empty band, or -1 */
    int HighestBand() const;

    std::array<ListIterator, N_BANDS> m_head;    //!< per band: its first item (when non-empty)
    std::array<uint32_t, N_BANDS> m_bandPackets; //!< per band: packets
    std::array<uint32_t, N_BANDS> m_bandBytes;   //!< per band: bytes
    uint8_t m_nonEmpty;                          //!< bit b set when band b holds packets
};

} // namespace ns3

#endif /* PFC_BAND_QUEUE_H */
