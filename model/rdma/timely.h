/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELY_H
#define TIMELY_H

#include "rdma-congestion-control.h"

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief TIMELY (Mittal et al., SIGCOMM 2015): rate control from the RTT
 * and its gradient.
 *
 * One RTT sample per RTT (the ACK of the first packet sent after the
 * previous sample, as the HPCC simulator updates TIMELY), or with
 * SegmentBytes per that many acknowledged bytes (the paper's completion
 * events of 16-64 KB segments), taken from the ACK's echoed send timestamp. With d = rtt - previous
 * rtt and the gradient g = EWMA_Alpha(d) / MinRtt (the EWMA weighs the new difference by Alpha):
 * - rtt < TLow: R += delta;
 * - rtt > THigh: R *= 1 - Beta (1 - THigh / rtt);
 * - g <= 0: R += N delta, N = HaiThreshold once the gradient has been
 *   negative for HaiThreshold samples in a row (hyperactive increase), else 1;
 * - g > 0: R *= 1 - Beta g;
 * R within [MinRate, line rate], no window. delta is AdditiveIncrease times
 * the aggressiveness (SetAggressiveness()). Defaults: the paper's T_low 50 us,
 * T_high 500 us, beta 0.8, alpha 0.875, minRTT 20 us, N = 5, with delta
 * 10 Mb/s x line rate / 10 Gb/s (the paper's 10 Mb/s at 10 Gb/s; 100 Mb/s at
 * 100 Gb/s, the HPCC simulator's setting).
 */
class TimelyCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TimelyCongestionControl();
    ~TimelyCongestionControl() override;

    void Init(DataRate lineRate) override;
    bool UsesRtt() const override;
    void OnAck(const AckEvent& ack) override;
    State GetState() override;
    SettingsProblem GetSettingsProblem(DataRate lineRate) const override;

    /** \return the normalised RTT gradient of the last update */
    double GetGradient() const;

    /**
     * \brief One RTT sample: the update of the rate (OnAck calls it once per
     * SegmentBytes acknowledged).
     * \param rtt the sample
     */
    void Update(Time rtt);

  private:
    double m_alpha;         //!< EWMA weight of the newest RTT difference
    double m_beta;          //!< multiplicative decrease factor
    Time m_tLow;            //!< below: additive increase regardless of the gradient
    Time m_tHigh;           //!< above: multiplicative decrease regardless of the gradient
    Time m_minRtt;          //!< normalises the gradient
    DataRate m_ai;          //!< delta (0: 10 Mb/s x line rate / 10G)
    uint32_t m_haiN;        //!< samples of negative gradient before hyperactive increase
    uint64_t m_segment;     //!< acknowledged bytes per RTT sample (0: one per RTT)
    DataRate m_minRateAttr; //!< lower bound of the rate

    double m_delta;           //!< delta, bit/s
    double m_minRate;         //!< lower bound, bit/s
    double m_rttDiff;         //!< EWMA of the RTT differences, s
    double m_prevRtt;         //!< previous sample, s (negative: none yet)
    double m_gradient;        //!< normalised gradient of the last update
    uint32_t m_negatives;     //!< samples in a row with gradient <= 0
    uint64_t m_segAcked;      //!< bytes acknowledged towards the next sample
    uint64_t m_lastUpdatePsn; //!< per RTT: the next sample comes with an ACK beyond this PSN
    bool m_started;           //!< per RTT: a sample was taken
};

} // namespace ns3

#endif /* TIMELY_H */
