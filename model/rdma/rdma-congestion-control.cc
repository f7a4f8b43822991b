/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "ns3/log.h"
#include "ns3/traced-callback.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddConstructor<RdmaCongestionControl>()
            .AddTraceSource("RateChange",
                            "The sending rate of the queue pair changed.",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_rateTrace),
                            "ns3::RdmaCongestionControl::RateTracedCallback");
    return tid;
}

RdmaCongestionControl::RdmaCongestionControl()
    : m_lineRate(100e9),
      m_rate(100e9),
      m_window(0)
{
}

RdmaCongestionControl::~RdmaCongestionControl() = default;

void
RdmaCongestionControl::Init(DataRate lineRate)
{
    m_lineRate = static_cast<double>(lineRate.GetBitRate());
    m_rate = m_lineRate;
}

double
RdmaCongestionControl::GetRateBps() const
{
    return m_rate;
}

void
RdmaCongestionControl::OnCnp()
{
}

void
RdmaCongestionControl::OnSent(uint32_t /* bytes */)
{
}

void
RdmaCongestionControl::Stop()
{
}

bool
RdmaCongestionControl::UsesInt() const
{
    return false;
}

void
RdmaCongestionControl::OnAck(uint64_t /* nextPsn */,
                             uint64_t /* sndNxt */,
                             const IntHeader& /* intHeader */)
{
}

void
RdmaCongestionControl::SetRateBps(double bps)
{
    if (bps != m_rate)
    {
        m_rateTrace(m_rate, bps);
        m_rate = bps;
    }
}

} // namespace ns3
