/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QP_ARBITER_H
#define RDMA_QP_ARBITER_H

#include "rdma-queue-pair.h"

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traffic-class.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief The policy by which an RdmaNic picks the queue pair whose data
 * packet goes next.
 *
 * The NIC sends its ACK/NAK/CNP packets first; when none is waiting it asks
 * its arbiter for the next queue pair with Next(). The arbiter keeps its own
 * lists of active queue pairs (those that may have data to send): the NIC
 * calls Activate() when a queue pair gets data while inactive, Remove() when
 * an active queue pair is destroyed, and ClassChanged() when an active queue
 * pair's traffic class changed. Next() must return a queue pair that is
 * eligible now (see Check()); it drops idle queue pairs from its lists
 * (SetInactive()) and reports the earliest pacing time of the queue pairs it
 * skipped for pacing, so that the NIC can schedule its wake-up. After
 * sending the packet of the queue pair Next() returned, the NIC calls
 * NotifySent() with the frame's bytes.
 *
 * Cost: Next() is called once per data packet and once per idle poll of the
 * port. An implementation should stay O(1) amortised per packet when few
 * queue pairs share a class.
 */
class RdmaQpArbiter : public Object
{
  public:
    /// What Check() found about a queue pair.
    enum Eligibility : uint8_t
    {
        IDLE,    //!< no data to send: leave the active list
        PAUSED,  //!< its class is paused by PFC
        PACING,  //!< its pacing time has not come (earliest updated)
        WINDOW,  //!< its congestion window is full (an ACK wakes it)
        ELIGIBLE //!< may send now
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQpArbiter();
    ~RdmaQpArbiter() override;

    /**
     * \brief A queue pair that was not active got data to send.
     *
     * The NIC has set the queue pair active; it stays active until the
     * arbiter finds it idle (SetInactive()) or it is removed.
     *
     * \param qp the queue pair
     */
    virtual void Activate(RdmaQueuePair* qp) = 0;

    /**
     * \brief An active queue pair goes away (destroyed).
     * \param qp the queue pair
     */
    virtual void Remove(RdmaQueuePair* qp) = 0;

    /**
     * \brief The traffic class of an active queue pair changed.
     * \param qp the queue pair (GetPriority() gives the new class)
     * \param oldClass its class before
     */
    virtual void ClassChanged(RdmaQueuePair* qp, uint8_t oldClass) = 0;

    /**
     * \brief Choose the queue pair whose packet goes next.
     * \param pausedMask bit c set when class c is paused by PFC
     * \param now the current time
     * \param[in,out] earliest lowered to the pacing time of each queue pair
     *                skipped because of pacing
     * \return an eligible queue pair, or nullptr when none may send now
     */
    virtual RdmaQueuePair* Next(uint8_t pausedMask, Time now, Time& earliest) = 0;

    /**
     * \brief The queue pair Next() returned has sent a packet.
     *
     * The default does nothing.
     *
     * \param qp the queue pair
     * \param bytes the frame's bytes (IPv4 packet and Ethernet header)
     */
    virtual void NotifySent(RdmaQueuePair* qp, uint32_t bytes);

    /**
     * \brief Whether some queue pair may have data to send (now or once
     * paced or resumed); false only when none can.
     *
     * The default, for an arbiter that cannot tell, says yes.
     *
     * \return true when a queue pair is active
     */
    virtual bool HasActive() const;

    /// Forget all queue pairs (the NIC is disposed).
    virtual void Clear() = 0;

  protected:
    /**
     * \brief Whether a queue pair may send now, with the NIC's rules: data
     * to send, class not paused, pacing time come, window not full.
     *
     * A queue pair found WINDOW is marked window-blocked: its next ACK
     * notifies the NIC again.
     *
     * \param qp the queue pair
     * \param pausedMask bit c set when class c is paused
     * \param now the current time
     * \param[in,out] earliest lowered to the queue pair's pacing time when PACING
     * \return what was found
     */
    static Eligibility Check(RdmaQueuePair* qp, uint8_t pausedMask, Time now, Time& earliest)
    {
        if (!qp->HasDataToSend())
        {
            return IDLE;
        }
        if (pausedMask & TrafficClass::Bit(qp->m_prio))
        {
            return PAUSED;
        }
        if (qp->m_nextTxTime > now)
        {
            if (qp->m_nextTxTime < earliest)
            {
                earliest = qp->m_nextTxTime;
            }
            return PACING;
        }
        const uint64_t window = qp->m_cc->GetWindowBytes();
        if (window != 0 && (qp->m_sndNxt - qp->m_sndUna) * qp->m_mtu >= window)
        {
            qp->m_winBlocked = true; // an ACK wakes it
            return WINDOW;
        }
        return ELIGIBLE;
    }

    /**
     * \brief Take a queue pair off the active lists: the NIC activates it
     * again when it gets data.
     * \param qp the queue pair
     */
    static void SetInactive(RdmaQueuePair* qp)
    {
        qp->m_active = false;
    }

    /**
     * \param qp a queue pair
     * \return its traffic class in effect
     */
    static uint8_t ClassOf(const RdmaQueuePair* qp)
    {
        return qp->m_prio;
    }
};

} // namespace ns3

#endif /* RDMA_QP_ARBITER_H */
