/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/named-type-registry.h"
#include "ns3/traced-callback.h"

#include <algorithm>
#include <limits>
#include <sstream>

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

FLUX_REGISTER_CC("none", RdmaCongestionControl, 2);

NamedTypeRegistry&
RdmaCongestionControl::GetAlgorithmRegistry()
{
    // a function-local static: registrations from other files' static
    // initialisation may come before anything of this file is initialised
    static NamedTypeRegistry registry("RdmaCongestionControl: congestion control");
    return registry;
}

bool
RdmaCongestionControl::RegisterAlgorithm(const std::string& name,
                                         TypeId (*getTypeId)(),
                                         uint32_t rank)
{
    return GetAlgorithmRegistry().Register(name, getTypeId, rank);
}

const std::vector<std::pair<std::string, std::string>>&
RdmaCongestionControl::GetAlgorithms()
{
    return GetAlgorithmRegistry().List();
}

std::string
RdmaCongestionControl::GetAlgorithmTypeName(const std::string& name)
{
    for (const auto& [known, type] : GetAlgorithms())
    {
        if (known == name)
        {
            return type;
        }
    }
    return "";
}

RdmaCongestionControl::RdmaCongestionControl()
    : m_lineRate(100e9),
      m_rate(100e9),
      m_window(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaCongestionControl::~RdmaCongestionControl() = default;

void
RdmaCongestionControl::Init(DataRate lineRate)
{
    m_lineRate = static_cast<double>(lineRate.GetBitRate());
    m_rate = m_lineRate;
}

RdmaCongestionControl::State
RdmaCongestionControl::GetState()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return State{m_rate, m_rate, nan, nan};
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

RdmaCongestionControl::SettingsProblem
RdmaCongestionControl::GetSettingsProblem(DataRate /* lineRate */) const
{
    return {};
}

RdmaCongestionControl::SettingsProblem
RdmaCongestionControl::MinRateProblem(DataRate minRate, DataRate lineRate)
{
    if (minRate > lineRate)
    {
        std::ostringstream why;
        why << "the floor " << minRate.GetBitRate() / 1e9 << " Gb/s is above the line rate "
            << lineRate.GetBitRate() / 1e9 << " Gb/s (the algorithm would never slow down)";
        return {"MinRate", why.str()};
    }
    return {};
}

bool
RdmaCongestionControl::UsesRtt() const
{
    return false;
}

void
RdmaCongestionControl::OnAck(const AckEvent& /* ack */)
{
}

void
RdmaCongestionControl::SetRateBps(double bps)
{
    if (bps != m_rate)
    {
        m_rateTrace(m_rate, bps);
        const bool up = bps > m_rate;
        m_rate = bps;
        if (up && !m_rateUp.IsNull())
        {
            m_rateUp();
        }
    }
}

void
RdmaCongestionControl::SetRateIncreaseCallback(Callback<void> cb)
{
    m_rateUp = cb;
}

} // namespace ns3
