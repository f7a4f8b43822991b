/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_H
#define DCQCN_H

#include "rdma-congestion-control.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief DCQCN reaction point (Zhu et al., SIGCOMM 2015).
 *
 * On a CNP the current rate Rc is cut by a factor (1 - alpha/2), at most once
 * per RateDecreaseInterval, and the target rate Rt remembers the rate before
 * the cut. alpha follows an EWMA with gain G, updated once per AlphaInterval:
 * towards 1 in intervals with a CNP, towards 0 otherwise (computed lazily,
 * so an idle queue pair costs no events). Recovery runs on a timer of
 * RateIncreaseInterval and on a byte counter of ByteCounter bytes: while
 * both counters are below F stages, fast recovery (Rc = (Rc + Rt) / 2); then
 * additive increase (Rt += AdditiveIncrease) and, once both exceed F, hyper
 * increase (Rt += i * HyperIncrease), the phase of a step following the
 * steps taken before it (without a byte counter, ByteCounter = 0, the timer
 * alone). The timer only runs while the rate is below line rate. Both
 * increase steps are multiplied by the queue pair's aggressiveness
 * (SetAggressiveness(), 1 unless a policy such as mltcp sets it). Defaults
 * are the HPCC simulator's setting at 100 Gb/s; DcqcnProfile holds this and
 * other published sets, scaled to the link rate where their source does.
 *
 * Optionally a window bounds the bytes in flight, as in the HPCC simulator's
 * DCQCN with a window (the HPCC paper's "DCQCN+w"): Window bytes, or with
 * VariableWindow Window x Rc / line rate, so that the window follows the
 * rate and a queue pair never has more than its share of a BDP in flight.
 */
class DcqcnCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DcqcnCongestionControl();
    ~DcqcnCongestionControl() override;

    void Init(DataRate lineRate) override;
    void OnCnp() override;
    void OnSent(uint32_t bytes) override;
    void Stop() override;

    /** \return alpha, brought up to date */
    double GetAlpha();

    /** \return the target rate Rt in bit/s */
    double GetTargetRateBps() const;

    State GetState() override;
    SettingsProblem GetSettingsProblem(DataRate lineRate) const override;

    /**
     * TracedCallback signature for DCQCN updates.
     * \param [in] rate current rate Rc, bit/s
     * \param [in] target target rate Rt, bit/s
     * \param [in] alpha the congestion estimate
     */
    typedef void (*UpdateTracedCallback)(double rate, double target, double alpha);

  protected:
    void DoDispose() override;

  private:
    /** \brief Decay alpha over the intervals elapsed without CNP. */
    void UpdateAlpha();
    /** \brief The recovery timer expired. */
    void TimerExpired();
    /** \brief One recovery step (timer or byte counter). */
    void Increase();
    /** \brief Arm the recovery timer when the rate is below line rate. */
    void ArmTimer();
    /// Set the rate Rc and the window that follows it.
    /// \param bps the new rate
    void SetRate(double bps);

    double m_g;                    //!< alpha EWMA gain
    bool m_clampTargetRate;        //!< Rt = Rc at every cut
    bool m_clampAfterTimer;        //!< Rt = Rc at a cut after a timer step
    double m_initialAlpha;         //!< alpha at the first CNP
    bool m_releaseAtLineRate;      //!< line rate resets the reaction point
    Time m_alphaInterval;          //!< alpha update period
    Time m_decreaseInterval;       //!< minimum time between rate cuts
    Time m_increaseInterval;       //!< recovery timer period
    uint64_t m_byteCounter;        //!< recovery byte counter, bytes
    uint32_t m_fastRecoveryStages; //!< F
    DataRate m_rai;                //!< additive increase step
    DataRate m_rhai;               //!< hyper increase step
    DataRate m_minRate;            //!< floor of the rate
    uint64_t m_windowBytes;        //!< window at line rate, bytes (0: none)
    bool m_variableWindow;         //!< the window scales with Rc / line rate

    double m_alpha;             //!< congestion estimate
    Time m_alphaUpdated;        //!< start of the current alpha interval
    bool m_cnpInInterval;       //!< a CNP arrived in the current alpha interval
    double m_targetRate;        //!< Rt, bit/s
    Time m_lastDecrease;        //!< time of the last rate cut
    bool m_decreased;           //!< a rate cut happened already
    uint32_t m_timerStage;      //!< recovery timer expiries since the last cut
    uint32_t m_byteStage;       //!< byte-counter expiries since the last cut
    uint64_t m_bytesSinceStage; //!< bytes sent towards the byte counter
    EventId m_timer;            //!< recovery timer

    TracedCallback<double, double, double> m_updateTrace; //!< cuts and recovery steps
};

} // namespace ns3

#endif /* DCQCN_H */
