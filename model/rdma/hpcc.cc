/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(HpccCongestionControl);
FLUX_REGISTER_CC("hpcc", HpccCongestionControl, 1);

namespace
{
/// Base RTT when none is configured (the scenario runner sets the topology's).
constexpr int64_t DEFAULT_BASE_RTT_NS = 10000;
} // namespace

TypeId
HpccCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::HpccCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<HpccCongestionControl>()
            .AddAttribute("TargetUtilization",
                          "eta: the bottleneck utilisation HPCC aims at (0.95, HPCC paper and "
                          "the authors' simulator).",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&HpccCongestionControl::m_eta),
                          MakeDoubleChecker<double>(0.1, 1.0))
            .AddAttribute("MaxStage",
                          "Additive-increase stages before a multiplicative update while U < "
                          "eta (5, the HPCC paper; the authors' simulator uses 0).",
                          UintegerValue(5),
                          MakeUintegerAccessor(&HpccCongestionControl::m_maxStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AdditiveIncrease",
                          "W_AI as a rate: the window step is this rate times the base RTT "
                          "(0: the HPCC paper's rule, (1 - eta) x line rate / ExpectedFlows; "
                          "the authors' simulator uses 10 Mb/s x line rate / 25 Gb/s).",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&HpccCongestionControl::m_aiRate),
                          MakeDataRateChecker())
            .AddAttribute("ExpectedFlows",
                          "N of the HPCC paper's rule for W_AI when AdditiveIncrease is 0: "
                          "N flows together add at most (1 - eta) x line rate per RTT.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&HpccCongestionControl::m_expectedFlows),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "BaseRtt",
                "T: the base RTT (0: 10 us; the scenario runner sets the "
                "topology's largest base RTT, as the authors' simulator does, with the frames "
                "whose ACK the receiver holds back: none at IntAckInterval 1).",
                TimeValue(Time(0)),
                MakeTimeAccessor(&HpccCongestionControl::m_baseRtt),
                MakeTimeChecker(Time(0)))
            .AddAttribute("MinRate",
                          "Lower bound of the sending rate W / T.",
                          DataRateValue(DataRate("100Mb/s")),
                          MakeDataRateAccessor(&HpccCongestionControl::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

HpccCongestionControl::HpccCongestionControl()
    : m_eta(0.95),
      m_maxStage(5),
      m_expectedFlows(16),
      m_t(1e-5),
      m_wMax(0),
      m_wMin(0),
      m_wAi(0),
      m_wc(0),
      m_u(1),
      m_incStage(0),
      m_lastUpdatePsn(0),
      m_havePrev(false),
      m_prevHops(0)
{
    NS_LOG_FUNCTION(this);
}

HpccCongestionControl::~HpccCongestionControl() = default;

void
HpccCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    const Time t = m_baseRtt.IsStrictlyPositive() ? m_baseRtt : NanoSeconds(DEFAULT_BASE_RTT_NS);
    m_t = t.GetSeconds();
    const double ai = m_aiRate.GetBitRate() > 0 ? static_cast<double>(m_aiRate.GetBitRate())
                                                : (1 - m_eta) * m_lineRate / m_expectedFlows;
    m_wMax = m_lineRate * m_t / 8;
    m_wMin = std::min(static_cast<double>(m_minRate.GetBitRate()), m_lineRate) * m_t / 8;
    m_wAi = ai * m_t / 8;
    // The first RTT at line rate.
    m_wc = m_wMax;
    m_u = 1;
    m_incStage = 0;
    m_havePrev = false;
    m_window = static_cast<uint64_t>(m_wMax);
    m_rate = m_lineRate;
}

bool
HpccCongestionControl::UsesInt() const
{
    return true;
}

double
HpccCongestionControl::GetUtilization() const
{
    return m_u;
}

double
HpccCongestionControl::GetReferenceWindow() const
{
    return m_wc;
}

Time
HpccCongestionControl::GetBaseRtt() const
{
    return Seconds(m_t);
}

void
HpccCongestionControl::OnAck(const AckEvent& ack)
{
    if (!ack.intHeader)
    {
        return; // only ACKs echoing INT carry HPCC's feedback
    }
    const IntHeader& ih = *ack.intHeader;
    const uint64_t nextPsn = ack.nextPsn;
    const uint64_t sndNxt = ack.sndNxt;
    const uint8_t n = ih.GetNHops();
    if (!m_havePrev || n != m_prevHops)
    {
        // First feedback, or the path changed: nothing to compare with yet.
        for (uint8_t i = 0; i < n; ++i)
        {
            m_prev[i] = ih.GetHop(i);
        }
        m_prevHops = n;
        m_havePrev = true;
        m_lastUpdatePsn = sndNxt;
        return;
    }
    const uint32_t mult = ih.GetMultiplier();
    double umax = -1;
    uint64_t tauNs = 0;
    for (uint8_t i = 0; i < n; ++i)
    {
        const IntHop& h = ih.GetHop(i);
        const IntHop& old = m_prev[i];
        const uint64_t dt = h.GetTimeDelta(old);
        if (dt > 0)
        {
            const double b = static_cast<double>(h.GetLineRateBps());
            const double txRate = h.GetBytesDelta(old, mult) * 8.0 / (dt * 1e-9);
            const double q =
                static_cast<double>(std::min(h.GetQlenBytes(mult), old.GetQlenBytes(mult)));
            const double u = q * 8 / (b * m_t) + txRate / b;
            if (u > umax)
            {
                umax = u;
                tauNs = dt;
            }
        }
        m_prev[i] = h;
    }
    if (umax < 0)
    {
        return; // no hop has advanced since the previous ACK
    }
    const double tau = std::min(tauNs * 1e-9, m_t);
    m_u = (m_u * (m_t - tau) + umax * tau) / m_t;

    const double k = m_u / m_eta;
    double w;
    uint32_t stage;
    if (k >= 1 || m_incStage >= m_maxStage)
    {
        w = k > 0 ? m_wc / k + m_wAi * m_aggressiveness : m_wMax;
        stage = 0;
    }
    else
    {
        w = m_wc + m_wAi * m_aggressiveness;
        stage = m_incStage + 1;
    }
    w = std::clamp(w, m_wMin, m_wMax);
    m_window = std::max<uint64_t>(static_cast<uint64_t>(w), 1);
    SetRateBps(w * 8 / m_t);
    if (nextPsn > m_lastUpdatePsn)
    {
        // Once per RTT: the ACK of a packet sent after the last commit.
        m_wc = w;
        m_incStage = stage;
        m_lastUpdatePsn = sndNxt;
    }
}

RdmaCongestionControl::State
HpccCongestionControl::GetState()
{
    // the window in bytes, and U in place of DCQCN's alpha
    return State{m_rate, m_rate, m_u, static_cast<double>(GetWindowBytes())};
}

RdmaCongestionControl::SettingsProblem
HpccCongestionControl::GetSettingsProblem(DataRate lineRate) const
{
    return MinRateProblem(m_minRate, lineRate);
}

} // namespace ns3
