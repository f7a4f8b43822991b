/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dctcp.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DctcpCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(DctcpCongestionControl);
FLUX_REGISTER_CC("dctcp", DctcpCongestionControl, RdmaCongestionControl::CC_RANK_OTHER);

namespace
{
/// Base RTT when none is configured (the scenario runner sets the topology's).
constexpr int64_t DEFAULT_BASE_RTT_NS = 10000;
} // namespace

TypeId
DctcpCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DctcpCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<DctcpCongestionControl>()
            .AddAttribute("G",
                          "Gain of the alpha EWMA (1/16, DCTCP paper and the HPCC simulator).",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AdditiveIncrease",
                          "Window increase per RTT without marks, as a rate: the step is this "
                          "rate x BaseRtt (0: one MTU per RTT, as DCTCP's congestion "
                          "avoidance).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&DctcpCongestionControl::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("BaseRtt",
                          "The base RTT: W starts at line rate x BaseRtt and is paced at W / "
                          "BaseRtt (0: 10 us; the scenario runner sets the topology's "
                          "largest base RTT, with the frames whose ACK the receiver holds back).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&DctcpCongestionControl::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MinWindow",
                          "Lower bound of the window, bytes (0: one MTU).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&DctcpCongestionControl::m_minWindow),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("InitialAlpha",
                          "alpha before the first update (1, DCTCP's Linux default: the first "
                          "marks halve the window).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&DctcpCongestionControl::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1));
    return tid;
}

DctcpCongestionControl::DctcpCongestionControl()
    : m_g(1.0 / 16),
      m_minWindow(0),
      m_initialAlpha(1),
      m_t(1e-5),
      m_w(0),
      m_wMax(0),
      m_wMin(0),
      m_alphaValue(1),
      m_acked(0),
      m_marked(0),
      m_lastUpdatePsn(0),
      m_started(false),
      m_deliveryBps(0)
{
    NS_LOG_FUNCTION(this);
}

DctcpCongestionControl::~DctcpCongestionControl() = default;

void
DctcpCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    const Time t = m_baseRtt.IsStrictlyPositive() ? m_baseRtt : NanoSeconds(DEFAULT_BASE_RTT_NS);
    m_t = t.GetSeconds();
    m_wMax = m_lineRate * m_t / 8;
    m_wMin = std::min(m_minWindow > 0 ? static_cast<double>(m_minWindow) : m_mtu, m_wMax);
    m_w = m_wMax;
    m_alphaValue = m_initialAlpha;
    m_acked = 0;
    m_marked = 0;
    m_lastUpdatePsn = 0;
    m_started = false;
    m_deliveryBps = 0;
    Apply();
}

void
DctcpCongestionControl::Apply()
{
    m_window = std::max<uint64_t>(static_cast<uint64_t>(m_w), 1);
    SetRateBps(std::min(m_w * 8 / m_t, m_lineRate));
}

double
DctcpCongestionControl::GetAlpha() const
{
    return m_alphaValue;
}

double
DctcpCongestionControl::GetWindow() const
{
    return m_w;
}

void
DctcpCongestionControl::OnAck(const AckEvent& ack)
{
    m_acked += ack.ackedBytes;
    if (ack.ece)
    {
        // a NAK or a duplicate echoes marks too: count it as a packet
        m_marked += ack.ackedBytes > 0 ? ack.ackedBytes : m_mtu;
    }
    if (!m_started)
    {
        // the first ACK opens the first window
        m_started = true;
        m_lastUpdatePsn = ack.sndNxt;
        m_lastUpdate = Simulator::Now();
        return;
    }
    if (ack.nextPsn <= m_lastUpdatePsn)
    {
        return;
    }
    // Once per window: the ACK of a packet sent after the previous update.
    m_lastUpdatePsn = ack.sndNxt;
    const Time now = Simulator::Now();
    if (now > m_lastUpdate)
    {
        // what the window delivered, on the wire as the rates are: the
        // pacing rate W / BaseRtt says only what it allows, and ACK
        // clocking holds shared flows below it
        const double wire =
            static_cast<double>(WireBytes::OnWire(WireBytes::DataFrame(m_mtu))) / m_mtu;
        m_deliveryBps = static_cast<double>(m_acked) * 8 * wire / (now - m_lastUpdate).GetSeconds();
    }
    m_lastUpdate = now;
    const double f =
        m_acked > 0 ? std::min(1.0, static_cast<double>(m_marked) / m_acked) : (m_marked ? 1 : 0);
    m_alphaValue = (1 - m_g) * m_alphaValue + m_g * f;
    if (m_marked > 0)
    {
        m_w *= 1 - m_alphaValue / 2;
    }
    else
    {
        const double step = m_ai.GetBitRate() > 0 ? m_ai.GetBitRate() * m_t / 8 : m_mtu;
        m_w += step * m_aggressiveness;
    }
    m_w = std::clamp(m_w, m_wMin, m_wMax);
    m_acked = 0;
    m_marked = 0;
    Apply();
}

RdmaCongestionControl::State
DctcpCongestionControl::GetState()
{
    // (the rate it sends at: what the last window delivered, at most the pacing rate)
    const double rate = m_deliveryBps > 0 ? std::min(m_rate, m_deliveryBps) : m_rate;
    return State{rate, m_rate, m_alphaValue, static_cast<double>(m_window)};
}

} // namespace ns3
