/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLASS_QP_ARBITER_H
#define CLASS_QP_ARBITER_H

#include "rdma-qp-arbiter.h"

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief A queue-pair arbiter by traffic class: strict precedence between
 * classes, deficit round robin among the queue pairs of one class.
 *
 * Classes are served in the order SetClassOrder() (or the Order attribute)
 * sets, highest precedence first; classes not listed follow in descending
 * class number. The default order is descending class number: strict
 * priority by class, as the switches' PfcPrioQueueDisc serves its bands.
 * The NIC's ACK/NAK/CNP packets still go before any queue pair.
 *
 * Next() serves the first class in that order that has an eligible queue
 * pair: a class paused by PFC, or whose queue pairs all wait for their
 * pacing time or congestion window, lets the next class send (the arbiter
 * is work-conserving).
 *
 * Within a class, deficit round robin over frame bytes (IPv4 packet and
 * Ethernet header): when a queue pair's turn comes it gets Quantum bytes of
 * credit and sends, one packet at a time, while its credit covers a frame
 * as large as its last one; the rest of the credit is kept for its next
 * turn. A queue pair that is not eligible when its turn comes keeps its
 * credit and the turn passes on. A queue pair that runs out of data leaves
 * the class's list and loses its credit. With equal frames, a Quantum of n
 * frames gives each queue pair n packets per turn; the queue pairs of a
 * class that stay eligible get the same bytes, within one Quantum.
 *
 * Cost per packet: O(number of classes) to find the class (a bit mask skips
 * empty and paused classes), O(1) amortised within the class when its queue
 * pairs are eligible.
 */
class ClassQpArbiter : public RdmaQpArbiter
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ClassQpArbiter();
    ~ClassQpArbiter() override;

    /**
     * \brief Set the precedence of the classes.
     * \param order classes, highest precedence first; classes not listed
     *        follow in descending class number (an empty list: descending
     *        class number)
     * \throw std::invalid_argument for a class >= TrafficClass::N_CLASSES or
     *        a class listed twice
     */
    void SetClassOrder(const std::vector<uint8_t>& order);

    /** \return all classes, highest precedence first */
    std::vector<uint8_t> GetClassOrder() const;

    /**
     * \param bytes credit a queue pair gets per turn within its class (positive)
     */
    void SetQuantum(uint32_t bytes);

    /** \return the credit per turn in bytes */
    uint32_t GetQuantum() const;

    /**
     * \param cls a class
     * \return the number of queue pairs on its active list
     */
    std::size_t GetNActive(uint8_t cls) const;

    void Activate(RdmaQueuePair* qp) override;
    void Remove(RdmaQueuePair* qp) override;
    void ClassChanged(RdmaQueuePair* qp, uint8_t oldClass) override;
    RdmaQueuePair* Next(uint8_t pausedMask, Time now, Time& earliest) override;
    bool HasActive() const override;
    void NotifySent(RdmaQueuePair* qp, uint32_t bytes) override;
    void Clear() override;

  protected:
    void DoDispose() override;

  private:
    /// An active queue pair of a class with its credit.
    struct Entry
    {
        RdmaQueuePair* qp; //!< the queue pair
        int64_t deficit;   //!< credit in bytes
        uint32_t last;     //!< bytes of its last frame (0: none yet)
    };

    /**
     * \brief Set the order from the Order attribute.
     * \param order class numbers separated by spaces or commas
     */
    void SetOrderString(std::string order);

    /** \return the order, as the Order attribute gives it */
    std::string GetOrderString() const;

    /**
     * \brief Pick the next queue pair of one class.
     * \param cls the class
     * \param pausedMask the classes paused
     * \param now the current time
     * \param[in,out] earliest pacing time of skipped queue pairs
     * \return an eligible queue pair of the class, or nullptr
     */
    RdmaQueuePair* NextInClass(uint8_t cls, uint8_t pausedMask, Time now, Time& earliest);

    /**
     * \brief Take the entry at an index off a class's list.
     * \param cls the class
     * \param i the index
     */
    void Erase(uint8_t cls, std::size_t i);

    std::array<std::vector<Entry>, TrafficClass::N_CLASSES> m_lists; //!< active QPs per class
    std::array<std::size_t, TrafficClass::N_CLASSES> m_pos; //!< per class: whose turn it is
    std::array<bool, TrafficClass::N_CLASSES> m_turnOpen;   //!< per class: m_pos got its quantum
    std::array<uint8_t, TrafficClass::N_CLASSES> m_order;   //!< classes, highest precedence first
    uint8_t m_nonEmpty;      //!< bit c set when m_lists[c] is not empty
    uint32_t m_quantum;      //!< credit per turn, bytes
    uint8_t m_lastClass;     //!< class of the last queue pair returned
    std::size_t m_lastIndex; //!< its index in the class's list
};

} // namespace ns3

#endif /* CLASS_QP_ARBITER_H */
