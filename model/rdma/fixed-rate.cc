/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fixed-rate.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FixedRateCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(FixedRateCongestionControl);

TypeId
FixedRateCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FixedRateCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Flux")
            .AddConstructor<FixedRateCongestionControl>()
            .AddAttribute("Rate",
                          "Sending rate (capped at the line rate).",
                          DataRateValue(DataRate("100Gb/s")),
                          MakeDataRateAccessor(&FixedRateCongestionControl::m_fixed),
                          MakeDataRateChecker());
    return tid;
}

FixedRateCongestionControl::FixedRateCongestionControl()
    : m_fixed("100Gb/s")
{
    NS_LOG_FUNCTION(this);
}

FixedRateCongestionControl::~FixedRateCongestionControl() = default;

void
FixedRateCongestionControl::Init(DataRate lineRate)
{
    RdmaCongestionControl::Init(lineRate);
    m_rate = std::min(m_lineRate, static_cast<double>(m_fixed.GetBitRate()));
}

} // namespace ns3
