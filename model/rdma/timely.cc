/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timely.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TimelyCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(TimelyCongestionControl);
FLUX_REGISTER_CC("timely", TimelyCongestionControl, RdmaCongestionControl::CC_RANK_OTHER);

TypeId
TimelyCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TimelyCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<TimelyCongestionControl>()
            .AddAttribute("Alpha",
                          "EWMA weight of the newest RTT difference in the gradient (0.875, "
                          "TIMELY paper and the HPCC simulator).",
                          DoubleValue(0.875),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_alpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Beta",
                          "Multiplicative decrease factor (0.8, TIMELY paper).",
                          DoubleValue(0.8),
                          MakeDoubleAccessor(&TimelyCongestionControl::m_beta),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("TLow",
                          "RTT below which the rate increases whatever the gradient (50 us, "
                          "TIMELY paper).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tLow),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("THigh",
                          "RTT above which the rate decreases whatever the gradient (500 us, "
                          "TIMELY paper).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_tHigh),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MinRtt",
                          "Normaliser of the RTT gradient (20 us, TIMELY paper).",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&TimelyCongestionControl::m_minRtt),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("AdditiveIncrease",
                          "Additive increment delta (0: 10 Mb/s x line rate / 10 Gb/s, the "
                          "paper's 10 Mb/s at 10 Gb/s; 100 Mb/s at 100 Gb/s).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_ai),
                          MakeDataRateChecker())
            .AddAttribute("HaiThreshold",
                          "N: samples of negative gradient in a row before the increase is "
                          "N x delta (hyperactive increase; 5, TIMELY paper).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_haiN),
                          MakeUintegerChecker<uint32_t>(1, 1000))
            .AddAttribute("SegmentBytes",
                          "Acknowledged bytes per RTT sample, the paper's completion events "
                          "of 16-64 KB segments; 0: one sample per RTT, on the ACK of the "
                          "first packet sent after the previous sample (the HPCC simulator).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TimelyCongestionControl::m_segment),
                          MakeUintegerChecker<uint64_t>(0, 1ULL << 30))
            .AddAttribute("MinRate",
                          "Lower bound of the rate.",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&TimelyCongestionControl::m_minRateAttr),
                          MakeDataRateChecker());
    return tid;
}

TimelyCongestionControl::TimelyCongestionControl()
    : m_alpha(0.875),
      m_beta(0.8),
      m_haiN(5),
      m_segment(0),
      m_delta(0),
      m_minRate(0),
      m_rttDiff(0),
      m_prevRtt(-1),
      m_gradient(0),
      m_negatives(0),
      m_segAcked(0),
      m_lastUpdatePsn(0),
      m_started(false)
{
    NS_LOG_FUNCTION(this);
}

TimelyCongestionControl::~TimelyCongestionControl() = default;

void
TimelyCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    m_delta =
        m_ai.GetBitRate() > 0 ? static_cast<double>(m_ai.GetBitRate()) : 10e6 * m_lineRate / 10e9;
    m_minRate = std::min(static_cast<double>(m_minRateAttr.GetBitRate()), m_lineRate);
    m_rttDiff = 0;
    m_prevRtt = -1;
    m_gradient = 0;
    m_negatives = 0;
    m_segAcked = 0;
    m_lastUpdatePsn = 0;
    m_started = false;
}

bool
TimelyCongestionControl::UsesRtt() const
{
    return true;
}

double
TimelyCongestionControl::GetGradient() const
{
    return m_gradient;
}

void
TimelyCongestionControl::OnAck(const AckEvent& ack)
{
    if (ack.rtt.IsNegative())
    {
        return;
    }
    if (m_segment > 0)
    {
        // the paper's completion events: a sample per SegmentBytes acknowledged
        m_segAcked += ack.ackedBytes;
        if (m_segAcked < m_segment)
        {
            return;
        }
        m_segAcked = 0;
        Update(ack.rtt);
        return;
    }
    // once per RTT: the ACK of a packet sent after the previous sample
    if (m_started && ack.nextPsn <= m_lastUpdatePsn)
    {
        return;
    }
    m_started = true;
    m_lastUpdatePsn = ack.sndNxt;
    Update(ack.rtt);
}

void
TimelyCongestionControl::Update(Time rttTime)
{
    const double rtt = rttTime.GetSeconds();
    if (m_prevRtt < 0)
    {
        m_prevRtt = rtt; // the first sample: nothing to differentiate yet
        return;
    }
    const double diff = rtt - m_prevRtt;
    m_prevRtt = rtt;
    m_rttDiff = (1 - m_alpha) * m_rttDiff + m_alpha * diff;
    m_gradient = m_rttDiff / m_minRtt.GetSeconds();
    const double delta = m_delta * m_aggressiveness;
    double rate = m_rate;
    if (rtt < m_tLow.GetSeconds())
    {
        rate += delta;
        m_negatives = 0;
    }
    else if (rtt > m_tHigh.GetSeconds())
    {
        rate *= 1 - m_beta * (1 - m_tHigh.GetSeconds() / rtt);
        m_negatives = 0;
    }
    else if (m_gradient <= 0)
    {
        m_negatives = std::min(m_negatives + 1, m_haiN);
        rate += (m_negatives >= m_haiN ? m_haiN : 1) * delta;
    }
    else
    {
        rate *= 1 - m_beta * std::min(m_gradient, 1.0);
        m_negatives = 0;
    }
    SetRateBps(std::clamp(rate, m_minRate, m_lineRate));
}

RdmaCongestionControl::State
TimelyCongestionControl::GetState()
{
    State s = RdmaCongestionControl::GetState();
    s.alpha = m_gradient;
    return s;
}

RdmaCongestionControl::SettingsProblem
TimelyCongestionControl::GetSettingsProblem(DataRate lineRate) const
{
    if (m_tLow >= m_tHigh)
    {
        // the rate would then fall at every RTT above THigh and rise below TLow, never between
        std::ostringstream why;
        why << "must be below THigh (" << m_tHigh.GetNanoSeconds() / 1e3 << " us), got "
            << m_tLow.GetNanoSeconds() / 1e3 << " us";
        return {"TLow", why.str()};
    }
    return MinRateProblem(m_minRateAttr, lineRate);
}

} // namespace ns3
