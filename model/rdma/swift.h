/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWIFT_H
#define SWIFT_H

#include "rdma-congestion-control.h"

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief Swift (Kumar et al., SIGCOMM 2020): a window held at an
 * end-to-end delay target.
 *
 * Every ACK's RTT (from the echoed send timestamp; the model has no host
 * delay, so the whole RTT is fabric delay) is compared with the target
 * t = BaseTarget + hops x HopScale + fs(cwnd), with hops the switches the ACK
 * crossed and the flow-scaling term fs(cwnd) = clamp(a / sqrt(cwnd) + b, 0,
 * FsRange), a = FsRange / (1 / sqrt(FsMinCwnd) - 1 / sqrt(FsMaxCwnd)) and
 * b = -a / sqrt(FsMaxCwnd) (cwnd in packets). Below the target the window
 * grows by AdditiveIncrease packets per RTT (AI / cwnd per packet
 * acknowledged, AI per packet when cwnd < 1), times the aggressiveness;
 * above it, at most once per RTT, cwnd <- cwnd max(1 - Beta (rtt - t) / rtt,
 * 1 - MaxMdf). cwnd stays within [MinCwnd, MaxCwnd]. At one packet or more
 * the window is cwnd packets at line rate; below one packet the window is
 * one packet, paced at one packet per rtt / cwnd. Defaults: the values
 * htsim's Swift uses (base target 20 us, h = base / 6.55, FsRange 5 x base,
 * fs cwnd range 0.1-100 packets, AI 1 packet, beta 0.8, max_mdf 0.5).
 */
class SwiftCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwiftCongestionControl();
    ~SwiftCongestionControl() override;

    void Init(DataRate lineRate) override;
    bool UsesRtt() const override;
    void OnAck(const AckEvent& ack) override;

    /**
     * \return the state: rate is what the window allows at the last RTT
     * (min(pacing rate, window / rtt)), alpha the last delay minus the
     * target in us
     */
    State GetState() override;
    SettingsProblem GetSettingsProblem(DataRate lineRate) const override;

    /** \return cwnd in packets */
    double GetCwnd() const;

    /**
     * \param hops switches on the path
     * \return the target delay at the current cwnd
     */
    Time GetTargetDelay(uint8_t hops) const;

  private:
    /// Apply cwnd: window and pacing.
    void Apply();

    Time m_baseTarget;    //!< base target delay
    Time m_baseRtt;       //!< the path's base RTT (0: none), for the window's bound
    Time m_hopScale;      //!< target added per switch (0: BaseTarget / 6.55)
    Time m_fsRange;       //!< range of the flow-scaling term (0: 5 x BaseTarget)
    double m_fsMinCwnd;   //!< cwnd (packets) at which fs = FsRange
    double m_fsMaxCwnd;   //!< cwnd (packets) at which fs = 0
    double m_ai;          //!< additive increase, packets per RTT
    double m_beta;        //!< multiplicative decrease factor
    double m_maxMdf;      //!< largest cut of one decrease
    double m_minCwnd;     //!< lower bound of cwnd, packets
    double m_maxCwndAttr; //!< upper bound of cwnd, packets (0: line rate x BDP time)

    double m_cwnd;       //!< congestion window, packets
    double m_maxCwnd;    //!< upper bound in use, packets
    double m_fsA;        //!< flow-scaling a, seconds
    double m_fsB;        //!< flow-scaling b, seconds
    double m_hopS;       //!< HopScale in use, seconds
    double m_fsRangeS;   //!< FsRange in use, seconds
    double m_lastRtt;    //!< latest RTT sample, seconds
    double m_lastDelay;  //!< latest delay minus target, seconds (GetState)
    Time m_lastDecrease; //!< when cwnd was last cut
    bool m_decreased;    //!< cwnd was ever cut
};

} // namespace ns3

#endif /* SWIFT_H */
