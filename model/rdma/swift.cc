/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "swift.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwiftCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(SwiftCongestionControl);
FLUX_REGISTER_CC("swift", SwiftCongestionControl, RdmaCongestionControl::CC_RANK_OTHER);

TypeId
SwiftCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwiftCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<SwiftCongestionControl>()
            .AddAttribute("BaseTarget",
                          "Base target delay, before hop and flow scaling (20 us, htsim's "
                          "Swift).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_baseTarget),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("HopScale",
                          "Target delay added per switch on the path (0: BaseTarget / 6.55, "
                          "htsim's Swift).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_hopScale),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsRange",
                          "Range of the flow-scaling term (0: 5 x BaseTarget, htsim's Swift).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_fsRange),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("FsMinCwnd",
                          "Window (packets) at which the flow-scaling term reaches FsRange "
                          "(0.1, htsim's Swift).",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMinCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("FsMaxCwnd",
                          "Window (packets) at which the flow-scaling term is 0 (100, htsim's "
                          "Swift).",
                          DoubleValue(100),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_fsMaxCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("AdditiveIncrease",
                          "Additive increase, packets per RTT (1, htsim's Swift).",
                          DoubleValue(1),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_ai),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor (0.8, htsim's Swift).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MaxMdf",
                          "Largest fraction of the window one decrease takes (0.5, Swift "
                          "paper and htsim).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxMdf),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("MinCwnd",
                          "Lower bound of the window, packets (0.001, the Swift paper's "
                          "smallest window).",
                          DoubleValue(0.001),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_minCwnd),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("BaseRtt",
                          "The path's base RTT, so that the window's bound covers it (0: "
                          "none; the scenario runner sets the topology's largest base RTT).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SwiftCongestionControl::m_baseRtt),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxCwnd",
                          "Upper bound of the window, packets (0: line rate x the larger of "
                          "BaseTarget and BaseRtt).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&SwiftCongestionControl::m_maxCwndAttr),
                          MakeDoubleChecker<double>(0, 1e9));
    return tid;
}

SwiftCongestionControl::SwiftCongestionControl()
    : m_fsMinCwnd(0.1),
      m_fsMaxCwnd(100),
      m_ai(1),
      m_beta(0.8),
      m_maxMdf(0.5),
      m_minCwnd(0.001),
      m_maxCwndAttr(0),
      m_cwnd(1),
      m_maxCwnd(1),
      m_fsA(0),
      m_fsB(0),
      m_hopS(0),
      m_fsRangeS(0),
      m_lastRtt(0),
      m_lastDelay(0),
      m_decreased(false)
{
    NS_LOG_FUNCTION(this);
}

SwiftCongestionControl::~SwiftCongestionControl() = default;

void
SwiftCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    const double base = m_baseTarget.GetSeconds();
    m_hopS = m_hopScale.IsStrictlyPositive() ? m_hopScale.GetSeconds() : base / 6.55;
    m_fsRangeS = m_fsRange.IsStrictlyPositive() ? m_fsRange.GetSeconds() : 5 * base;
    const double lo = 1 / std::sqrt(m_fsMinCwnd);
    const double hi = 1 / std::sqrt(m_fsMaxCwnd);
    m_fsA = lo > hi ? m_fsRangeS / (lo - hi) : 0;
    m_fsB = -m_fsA * hi;
    // (a bound below the path's BDP would hold a lone flow below line rate)
    const double bdpTime = std::max(base, m_baseRtt.GetSeconds());
    m_maxCwnd = m_maxCwndAttr > 0 ? m_maxCwndAttr : std::max(1.0, m_lineRate * bdpTime / 8 / m_mtu);
    m_cwnd = m_maxCwnd;
    m_lastRtt = base;
    m_lastDelay = 0;
    m_decreased = false;
    Apply();
}

bool
SwiftCongestionControl::UsesRtt() const
{
    return true;
}

double
SwiftCongestionControl::GetCwnd() const
{
    return m_cwnd;
}

Time
SwiftCongestionControl::GetTargetDelay(uint8_t hops) const
{
    const double fs = std::clamp(m_fsA / std::sqrt(m_cwnd) + m_fsB, 0.0, m_fsRangeS);
    return Seconds(m_baseTarget.GetSeconds() + hops * m_hopS + fs);
}

void
SwiftCongestionControl::OnAck(const AckEvent& ack)
{
    if (ack.rtt.IsNegative())
    {
        return;
    }
    const double rtt = ack.rtt.GetSeconds();
    m_lastRtt = rtt;
    const double target = GetTargetDelay(ack.hops).GetSeconds();
    m_lastDelay = rtt - target;
    const double acked = static_cast<double>(ack.ackedBytes) / m_mtu;
    const Time now = Simulator::Now();
    if (rtt < target)
    {
        const double ai = m_ai * m_aggressiveness;
        m_cwnd += m_cwnd >= 1 ? ai / m_cwnd * acked : ai * acked;
    }
    else if (!m_decreased || now - m_lastDecrease >= ack.rtt)
    {
        m_cwnd *= std::max(1 - m_beta * (rtt - target) / rtt, 1 - m_maxMdf);
        m_lastDecrease = now;
        m_decreased = true;
    }
    m_cwnd = std::clamp(m_cwnd, m_minCwnd, m_maxCwnd);
    Apply();
}

void
SwiftCongestionControl::Apply()
{
    if (m_cwnd >= 1)
    {
        m_window = static_cast<uint64_t>(m_cwnd * m_mtu);
        SetRateBps(m_lineRate);
        return;
    }
    // below one packet: one packet in flight, one per rtt / cwnd
    m_window = m_mtu;
    SetRateBps(std::min(m_cwnd * m_mtu * 8 / m_lastRtt, m_lineRate));
}

RdmaCongestionControl::State
SwiftCongestionControl::GetState()
{
    // the rate the window allows at the last RTT (pacing only below a packet)
    const double rate = std::min(m_rate, static_cast<double>(m_window) * 8 / m_lastRtt);
    return State{rate, rate, m_lastDelay * 1e6, static_cast<double>(m_window)};
}

RdmaCongestionControl::SettingsProblem
SwiftCongestionControl::GetSettingsProblem(DataRate /* lineRate */) const
{
    if (m_maxCwndAttr > 0 && m_minCwnd > m_maxCwndAttr)
    {
        std::ostringstream why;
        why << "must be at most MaxCwnd (" << m_maxCwndAttr << " packets), got " << m_minCwnd;
        return {"MinCwnd", why.str()};
    }
    if (m_fsMinCwnd >= m_fsMaxCwnd)
    {
        std::ostringstream why;
        why << "must be below FsMaxCwnd (" << m_fsMaxCwnd << " packets), got " << m_fsMinCwnd;
        return {"FsMinCwnd", why.str()};
    }
    return {};
}

} // namespace ns3
