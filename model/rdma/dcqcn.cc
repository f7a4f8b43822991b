/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Gain of the alpha EWMA (1/256 in Mellanox NICs and the HPCC "
                          "simulator; the DCQCN paper analyses 1/16).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaInterval",
                          "Period of the alpha update (55 us, DCQCN paper).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreaseInterval",
                          "Minimum time between two rate cuts (4 us, HPCC simulator).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker())
            .AddAttribute("RateIncreaseInterval",
                          "Period of the recovery timer (55 us, DCQCN paper).",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Bytes sent per recovery step of the byte counter (10 MB, DCQCN "
                          "paper).",
                          UintegerValue(10000000),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoveryStages",
                          "Number F of fast-recovery stages (5, DCQCN paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_fastRecoveryStages),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "Additive increase step R_AI (40 Mb/s, DCQCN paper).",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncrease",
                          "Hyper increase step R_HAI (100 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "Set the target rate to the current rate at every cut (DCQCN "
                          "paper); when false, only at the first cut after a recovery step, "
                          "as in Mellanox NICs and the HPCC simulator (faster recovery, slower "
                          "convergence to fairness).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Floor of the sending rate (100 Mb/s).",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddTraceSource("Update",
                            "A rate cut or a recovery step: current rate, target rate (bit/s) "
                            "and alpha after it.",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_updateTrace),
                            "ns3::DcqcnCongestionControl::UpdateTracedCallback");
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
    : m_g(1.0 / 256),
      m_clampTargetRate(true),
      m_byteCounter(10000000),
      m_fastRecoveryStages(5),
      m_alpha(1.0),
      m_cnpInInterval(false),
      m_targetRate(0),
      m_decreased(false),
      m_timerStage(0),
      m_byteStage(0),
      m_bytesSinceStage(0)
{
    NS_LOG_FUNCTION(this);
}

DcqcnCongestionControl::~DcqcnCongestionControl() = default;

void
DcqcnCongestionControl::DoDispose()
{
    m_timer.Cancel();
    RdmaCongestionControl::DoDispose();
}

void
DcqcnCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    m_targetRate = m_lineRate;
    m_alpha = 1.0;
    m_alphaUpdated = Simulator::Now();
    m_cnpInInterval = false;
}

void
DcqcnCongestionControl::UpdateAlpha()
{
    const Time now = Simulator::Now();
    if (now < m_alphaUpdated + m_alphaInterval)
    {
        return;
    }
    // Close the current interval, then decay over the empty ones after it.
    m_alpha = m_cnpInInterval ? (1 - m_g) * m_alpha + m_g : (1 - m_g) * m_alpha;
    const int64_t elapsed = (now - m_alphaUpdated).GetTimeStep() / m_alphaInterval.GetTimeStep();
    if (elapsed > 1)
    {
        m_alpha *= std::pow(1 - m_g, static_cast<double>(elapsed - 1));
    }
    m_alphaUpdated += m_alphaInterval * elapsed;
    m_cnpInInterval = false;
}

double
DcqcnCongestionControl::GetAlpha()
{
    UpdateAlpha();
    return m_alpha;
}

double
DcqcnCongestionControl::GetTargetRateBps() const
{
    return m_targetRate;
}

RdmaCongestionControl::State
DcqcnCongestionControl::GetState()
{
    UpdateAlpha();
    return State{m_rate, m_targetRate, m_alpha, std::numeric_limits<double>::quiet_NaN()};
}

void
DcqcnCongestionControl::OnCnp()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    if (!m_decreased)
    {
        // the first congestion notification: alpha starts at 1
        m_alpha = 1.0;
        m_alphaUpdated = now;
    }
    UpdateAlpha();
    m_cnpInInterval = true;
    if (m_decreased && now < m_lastDecrease + m_decreaseInterval)
    {
        return;
    }
    m_decreased = true;
    m_lastDecrease = now;
    // Mellanox NICs keep the target of the previous cut while no recovery
    // step happened since (cuts in a row); clamping resets it at every cut.
    if (m_clampTargetRate || m_timerStage + m_byteStage > 0)
    {
        m_targetRate = m_rate;
    }
    SetRateBps(std::max(static_cast<double>(m_minRate.GetBitRate()), m_rate * (1 - m_alpha / 2)));
    m_timerStage = 0;
    m_byteStage = 0;
    m_bytesSinceStage = 0;
    m_timer.Cancel();
    ArmTimer();
    m_updateTrace(m_rate, m_targetRate, m_alpha);
}

void
DcqcnCongestionControl::OnSent(uint32_t bytes)
{
    if (m_rate >= m_lineRate)
    {
        return;
    }
    m_bytesSinceStage += bytes;
    if (m_bytesSinceStage >= m_byteCounter)
    {
        m_bytesSinceStage -= m_byteCounter;
        ++m_byteStage;
        Increase();
    }
}

void
DcqcnCongestionControl::ArmTimer()
{
    if (m_rate < m_lineRate && m_timer.IsExpired())
    {
        m_timer =
            Simulator::Schedule(m_increaseInterval, &DcqcnCongestionControl::TimerExpired, this);
    }
}

void
DcqcnCongestionControl::TimerExpired()
{
    ++m_timerStage;
    Increase();
    ArmTimer();
}

void
DcqcnCongestionControl::Increase()
{
    const uint32_t f = m_fastRecoveryStages;
    if (std::max(m_timerStage, m_byteStage) < f)
    {
        // fast recovery: approach the rate before the cut
    }
    else if (std::min(m_timerStage, m_byteStage) > f)
    {
        const uint32_t i = std::min(m_timerStage, m_byteStage) - f;
        m_targetRate += i * static_cast<double>(m_rhai.GetBitRate());
    }
    else
    {
        m_targetRate += static_cast<double>(m_rai.GetBitRate());
    }
    m_targetRate = std::min(m_targetRate, m_lineRate);
    SetRateBps(std::min(m_lineRate, (m_rate + m_targetRate) / 2));
    if (m_lineRate - m_rate < 1e-6 * m_lineRate)
    {
        SetRateBps(m_lineRate);
    }
    m_updateTrace(m_rate, m_targetRate, m_alpha);
}

void
DcqcnCongestionControl::Stop()
{
    // The timer keeps running while rate-limited so that an idle queue pair
    // recovers as in hardware; nothing to do.
}

} // namespace ns3
