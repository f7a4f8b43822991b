/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_H
#define HPCC_H

#include "int-header.h"
#include "rdma-congestion-control.h"

#include "ns3/nstime.h"

#include <array>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief HPCC sender (Li et al., SIGCOMM 2019): window and pacing from
 * in-band network telemetry.
 *
 * Each ACK echoes the INT records of the data packet it acknowledges. Per
 * hop j, against the same hop's record in the previous ACK:
 * txRate = delta txBytes / delta ts and
 * u_j = min(qLen, qLen_prev) / (B_j T) + txRate / B_j,
 * with B_j the hop's line rate and T the base RTT. U = max_j u_j is smoothed
 * as U <- (1 - tau/T) U + (tau/T) u with tau the delta ts of the most loaded
 * hop (at most T). Then, on every ACK:
 * - if U >= eta or incStage >= MaxStage: W = Wc / (U / eta) + W_AI, stage 0;
 * - else W = Wc + W_AI, stage + 1;
 * and the reference window Wc (and the stage) take the new values once per
 * RTT: on the first ACK of a PSN sent after the last commit. W is bounded to
 * [MinRate T, LineRate T]; the NIC keeps bytes in flight below W and paces
 * the queue pair at R = W / T.
 *
 * W_AI is AdditiveIncrease x T times the aggressiveness (SetAggressiveness(),
 * 1 unless a policy such as mltcp sets it). By default it follows the HPCC
 * paper's rule, W_AI = (1 - eta) LineRate T / ExpectedFlows: that many flows
 * together add at most the headroom below eta per RTT. Shares converge only
 * through W_AI (unequal windows approach each other by N W_AI / (LineRate T)
 * per RTT), so it must outpace the noise of each flow's own samples of U:
 * with 4 KB packets and 16 flows a flow hears one ACK per RTT, and the
 * authors' simulator's step (10 Mb/s x line rate / 25G, for 78 flows) leaves
 * the shares unequal (Jain's index 0.90).
 *
 * eta = 0.95 and MaxStage = 5 are the HPCC paper's settings (the authors'
 * simulator runs MaxStage = 0, which an imported configuration keeps). With
 * MaxStage = 0 every ACK that finds U below eta multiplies the window by
 * eta / U; with packets of 1 KB, whose per-packet samples of U swing, the
 * flows then overshoot together and the queue swings between empty and
 * tens of KB, which U counts: the link runs at 0.91-0.92 instead of 0.96-0.99.
 */
class HpccCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HpccCongestionControl();
    ~HpccCongestionControl() override;

    void Init(DataRate lineRate) override;
    bool UsesInt() const override;
    void OnAck(const AckEvent& ack) override;
    State GetState() override;
    SettingsProblem GetSettingsProblem(DataRate lineRate) const override;

    /** \return the smoothed utilisation estimate U */
    double GetUtilization() const;
    /** \return the reference window Wc, bytes */
    double GetReferenceWindow() const;
    /** \return the base RTT T in use */
    Time GetBaseRtt() const;

  private:
    double m_eta;             //!< target utilisation
    uint32_t m_maxStage;      //!< additive-increase stages before a multiplicative update
    DataRate m_aiRate;        //!< W_AI as a rate (0: from ExpectedFlows)
    uint32_t m_expectedFlows; //!< N of the paper's rule for W_AI
    Time m_baseRtt;           //!< T (0: DEFAULT_BASE_RTT)
    DataRate m_minRate;       //!< lower bound of W / T

    double m_t;                                     //!< T, seconds
    double m_wMax;                                  //!< line rate x T, bytes
    double m_wMin;                                  //!< MinRate x T, bytes
    double m_wAi;                                   //!< W_AI, bytes
    double m_wc;                                    //!< reference window Wc, bytes
    double m_u;                                     //!< smoothed utilisation U
    uint32_t m_incStage;                            //!< additive-increase stage
    uint64_t m_lastUpdatePsn;                       //!< Wc is committed by an ACK beyond this PSN
    bool m_havePrev;                                //!< m_prev holds a previous ACK's records
    uint8_t m_prevHops;                             //!< hops in m_prev
    std::array<IntHop, IntHeader::MAX_HOPS> m_prev; //!< previous ACK's records
};

} // namespace ns3

#endif /* HPCC_H */
