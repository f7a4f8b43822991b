/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DcqcnCongestionControl);
FLUX_REGISTER_CC("dcqcn", DcqcnCongestionControl, 0);

TypeId
DcqcnCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DcqcnCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<DcqcnCongestionControl>()
            .AddAttribute("G",
                          "Gain of the alpha EWMA (1/256 in the HPCC simulator and the DCQCN "
                          "paper's testbed; 5/1024 in NVIDIA NICs, DCE_TCP_G 1019).",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaInterval",
                          "Period of the alpha update (1 us in the HPCC simulator and NVIDIA "
                          "NICs, DCE_TCP_RTT; 55 us in the DCQCN paper).",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_alphaInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateDecreaseInterval",
                          "Minimum time between two rate cuts (4 us, NVIDIA NICs' "
                          "RATE_REDUCE_MONITOR_PERIOD and the HPCC simulator).",
                          TimeValue(MicroSeconds(4)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_decreaseInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("RateIncreaseInterval",
                          "Period of the recovery timer (300 us in the HPCC simulator and "
                          "NVIDIA NICs, RPG_TIME_RESET; 55 us in the DCQCN paper).",
                          TimeValue(MicroSeconds(300)),
                          MakeTimeAccessor(&DcqcnCongestionControl::m_increaseInterval),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Bytes sent per recovery step of the byte counter, 0 for none "
                          "(none in the HPCC simulator; 32767 in NVIDIA NICs, RPG_BYTE_RESET; "
                          "10 MB in the DCQCN paper).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_byteCounter),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("FastRecoveryStages",
                          "Number F of fast-recovery stages (1 in the HPCC simulator and "
                          "NVIDIA NICs, RPG_THRESHOLD; 5 in the DCQCN paper).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_fastRecoveryStages),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "Additive increase step R_AI (the HPCC simulator's 5 Mb/s x "
                          "BW/25G at 100 Gb/s; 5 Mb/s in NVIDIA NICs, RPG_AI_RATE; 40 Mb/s in "
                          "the DCQCN paper).",
                          DataRateValue(DataRate("20Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rai),
                          MakeDataRateChecker())
            .AddAttribute("HyperIncrease",
                          "Hyper increase step R_HAI (the HPCC simulator's 50 Mb/s x BW/25G "
                          "at 100 Gb/s; 50 Mb/s in NVIDIA NICs, RPG_HAI_RATE).",
                          DataRateValue(DataRate("200Mbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_rhai),
                          MakeDataRateChecker())
            .AddAttribute("ClampTargetRate",
                          "Set the target rate to the current rate at every cut (DCQCN "
                          "paper); when false (NVIDIA NICs' CLAMP_TGT_RATE 0, the HPCC "
                          "simulator), see ClampTargetRateAfterTimeIncrease.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampTargetRate),
                          MakeBooleanChecker())
            .AddAttribute("ClampTargetRateAfterTimeIncrease",
                          "Without ClampTargetRate, set the target rate to the current rate "
                          "at a cut when a timer recovery step happened since the previous "
                          "cut (NVIDIA NICs' CLAMP_TGT_RATE_AFTER_TIME_INC 1, the HPCC "
                          "simulator); false: the target is kept over cuts.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_clampAfterTimer),
                          MakeBooleanChecker())
            .AddAttribute("InitialAlpha",
                          "Alpha at the first CNP (1 in the HPCC simulator and the DCQCN "
                          "paper; 1023/1024 in NVIDIA NICs, INITIAL_ALPHA_VALUE).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DcqcnCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("ReleaseAtLineRate",
                          "A queue pair that recovers to line rate leaves the rate-limited "
                          "state, so that its next CNP starts from InitialAlpha (as NICs "
                          "release the rate limiter); false: InitialAlpha applies to the very "
                          "first CNP only (the HPCC simulator).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_releaseAtLineRate),
                          MakeBooleanChecker())
            .AddAttribute("MinRate",
                          "Floor of the sending rate (1 Gb/s in the HPCC simulator; 1 Mb/s in "
                          "NVIDIA NICs, RPG_MIN_RATE).",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&DcqcnCongestionControl::m_minRate),
                          MakeDataRateChecker())
            .AddAttribute("Window",
                          "Bytes in flight at most, at line rate (0: no window; the HPCC "
                          "simulator's DCQCN with a window uses one largest BDP of its "
                          "topology, which the scenario key transport.dcqcn.window_bdp sets).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DcqcnCongestionControl::m_windowBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("VariableWindow",
                          "The window follows the rate: Window x Rc / line rate (the HPCC "
                          "simulator's VAR_WIN); false: Window whatever the rate.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&DcqcnCongestionControl::m_variableWindow),
                          MakeBooleanChecker())
            .AddTraceSource("Update",
                            "A rate cut or a recovery step: current rate, target rate (bit/s) "
                            "and alpha after it.",
                            MakeTraceSourceAccessor(&DcqcnCongestionControl::m_updateTrace),
                            "ns3::DcqcnCongestionControl::UpdateTracedCallback");
    return tid;
}

DcqcnCongestionControl::DcqcnCongestionControl()
    : m_g(1.0 / 256),
      m_clampTargetRate(false),
      m_clampAfterTimer(true),
      m_initialAlpha(1.0),
      m_releaseAtLineRate(false),
      m_byteCounter(0),
      m_fastRecoveryStages(1),
      m_windowBytes(0),
      m_variableWindow(true),
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
    NS_LOG_FUNCTION(this);
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
    SetRate(m_lineRate);
}

void
DcqcnCongestionControl::SetRate(double bps)
{
    SetRateBps(bps);
    if (m_windowBytes > 0)
    {
        m_window =
            m_variableWindow
                ? std::max<uint64_t>(1, static_cast<uint64_t>(m_windowBytes * m_rate / m_lineRate))
                : m_windowBytes;
    }
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
    return State{m_rate,
                 m_targetRate,
                 m_alpha,
                 m_window > 0 ? static_cast<double>(m_window)
                              : std::numeric_limits<double>::quiet_NaN()};
}

void
DcqcnCongestionControl::OnCnp()
{
    NS_LOG_FUNCTION(this);
    const Time now = Simulator::Now();
    if (!m_decreased)
    {
        // The first notification since the queue pair was last at line rate
        // (its rate limiter was released there): alpha starts afresh.
        m_alpha = m_initialAlpha;
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
    // NVIDIA NICs keep the target of the previous cut while no timer
    // recovery step happened since (cuts in a row); clamping resets it at
    // every cut.
    if (m_clampTargetRate || (m_clampAfterTimer && m_timerStage > 0))
    {
        m_targetRate = m_rate;
    }
    SetRate(std::max(static_cast<double>(m_minRate.GetBitRate()), m_rate * (1 - m_alpha / 2)));
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
    if (m_rate >= m_lineRate || m_byteCounter == 0)
    {
        return;
    }
    m_bytesSinceStage += bytes;
    if (m_bytesSinceStage >= m_byteCounter)
    {
        m_bytesSinceStage -= m_byteCounter;
        Increase();
        ++m_byteStage;
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
    Increase();
    ++m_timerStage;
    ArmTimer();
}

void
DcqcnCongestionControl::Increase()
{
    // The phase follows the steps taken before this one; without a byte
    // counter the timer alone decides it.
    const uint32_t f = m_fastRecoveryStages;
    const uint32_t t = m_timerStage;
    const uint32_t b = m_byteCounter == 0 ? t : m_byteStage;
    if (std::max(t, b) < f)
    {
        // fast recovery: approach the rate before the cut
    }
    else if (std::min(t, b) > f)
    {
        const uint32_t i = std::min(t, b) - f;
        m_targetRate += i * static_cast<double>(m_rhai.GetBitRate()) * m_aggressiveness;
    }
    else
    {
        m_targetRate += static_cast<double>(m_rai.GetBitRate()) * m_aggressiveness;
    }
    m_targetRate = std::min(m_targetRate, m_lineRate);
    SetRate(std::min(m_lineRate, (m_rate + m_targetRate) / 2));
    if (m_lineRate - m_rate < 1e-6 * m_lineRate)
    {
        SetRate(m_lineRate);
        // back at line rate: the rate limiter is released, and the next CNP
        // starts from InitialAlpha with the target at line rate
        m_decreased = !m_releaseAtLineRate;
        m_timer.Cancel();
    }
    m_updateTrace(m_rate, m_targetRate, m_alpha);
}

void
DcqcnCongestionControl::Stop()
{
    // The timer keeps running while rate-limited so that an idle queue pair
    // recovers as in hardware; nothing to do.
}

RdmaCongestionControl::SettingsProblem
DcqcnCongestionControl::GetSettingsProblem(DataRate lineRate) const
{
    return MinRateProblem(m_minRate, lineRate);
}

} // namespace ns3
