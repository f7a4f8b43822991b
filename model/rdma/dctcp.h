/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCTCP_H
#define DCTCP_H

#include "rdma-congestion-control.h"

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief DCTCP for RoCE (Alizadeh et al., SIGCOMM 2010, as the HPCC
 * simulator's dctcp mode runs it on RDMA queue pairs): a window cut by the
 * fraction of ECN-marked bytes.
 *
 * Every ACK adds its newly acknowledged bytes to the window's count, and to
 * the marked count when it echoes ECN. Once per window of data (the ACK of
 * the first PSN sent after the previous update) alpha <- (1 - G) alpha +
 * G F, F the marked fraction of the bytes acknowledged since; then, if any
 * of them was marked, W <- W (1 - alpha / 2), otherwise W <- W +
 * AdditiveIncrease x BaseRtt (one MTU per RTT by default) times the
 * aggressiveness. W starts at one bandwidth-delay product (line rate x
 * BaseRtt), stays within [MinWindow, line rate x BaseRtt], and the queue
 * pair is paced at W / BaseRtt. G = 1/16 as in DCTCP and the HPCC
 * simulator; the switches should mark with a step (Kmin = Kmax, Pmax 1).
 */
class DctcpCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DctcpCongestionControl();
    ~DctcpCongestionControl() override;

    void Init(DataRate lineRate) override;
    void OnAck(const AckEvent& ack) override;
    State GetState() override;

    /** \return alpha, the estimate of the marked fraction */
    double GetAlpha() const;
    /** \return the window W, bytes */
    double GetWindow() const;

  private:
    /// Apply W: the window in whole bytes, pacing at W / BaseRtt.
    void Apply();

    double m_g;            //!< gain of the alpha EWMA
    DataRate m_ai;         //!< additive increase as a rate (0: one MTU per BaseRtt)
    Time m_baseRtt;        //!< the base RTT (0: 10 us)
    uint32_t m_minWindow;  //!< lower bound of W, bytes (0: one MTU)
    double m_initialAlpha; //!< alpha before any update

    double m_t;               //!< base RTT, seconds
    double m_w;               //!< W, bytes
    double m_wMax;            //!< line rate x base RTT, bytes
    double m_wMin;            //!< lower bound, bytes
    double m_alphaValue;      //!< alpha
    uint64_t m_acked;         //!< bytes acknowledged in this window
    uint64_t m_marked;        //!< of which acknowledged by ECN-echo ACKs
    uint64_t m_lastUpdatePsn; //!< the next update comes with an ACK beyond this PSN
    bool m_started;           //!< an ACK arrived (the first window is open)
    Time m_lastUpdate;        //!< when the last window's update was
    double m_deliveryBps;     //!< bits acknowledged over the last window / its time (0: none)
};

} // namespace ns3

#endif /* DCTCP_H */
