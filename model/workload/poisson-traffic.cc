/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "poisson-traffic.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoissonTraffic");

NS_OBJECT_ENSURE_REGISTERED(PoissonTraffic);

TypeId
PoissonTraffic::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PoissonTraffic")
                            .SetParent<FlowTraffic>()
                            .SetGroupName("Flux")
                            .AddConstructor<PoissonTraffic>()
                            .AddAttribute("StartTime",
                                          "No arrival before this time.",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&PoissonTraffic::m_startTime),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute("StopTime",
                                          "No arrival at or after this time (0: until "
                                          "StopArrivals()).",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&PoissonTraffic::m_stopTime),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

PoissonTraffic::PoissonTraffic()
    : m_arrivalRate(0),
      m_stopped(false)
{
    NS_LOG_FUNCTION(this);
    m_gap = CreateObject<ExponentialRandomVariable>();
    m_pick = CreateObject<UniformRandomVariable>();
}

PoissonTraffic::~PoissonTraffic() = default;

void
PoissonTraffic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_next.Cancel();
    m_gap = nullptr;
    m_pick = nullptr;
    FlowTraffic::DoDispose();
}

void
PoissonTraffic::Configure(const std::vector<uint32_t>& hosts,
                          const FlowSizeCdf& sizes,
                          double load,
                          double lineRateBps)
{
    NS_ABORT_MSG_IF(hosts.size() < 2, "PoissonTraffic: needs at least two hosts");
    NS_ABORT_MSG_IF(!(load > 0) || !(load <= 1) || !sizes.IsValid() || sizes.Mean() <= 0,
                    "PoissonTraffic: needs a load in (0, 1] and a valid size distribution, got "
                    "load "
                        << load);
    m_hosts = hosts;
    m_sizes = sizes;
    m_arrivalRate = hosts.size() * load * lineRateBps / (8 * sizes.Mean());
    m_gap->SetAttribute("Mean", DoubleValue(1.0 / m_arrivalRate));
}

Time
PoissonTraffic::GetMeanInterArrival() const
{
    return Seconds(1.0 / m_arrivalRate);
}

int64_t
PoissonTraffic::AssignStreams(int64_t stream)
{
    const int64_t used = FlowTraffic::AssignStreams(stream);
    m_gap->SetStream(stream + used);
    m_pick->SetStream(stream + used + 1);
    return used + 2;
}

void
PoissonTraffic::Start()
{
    const Time first =
        std::max(m_startTime - Simulator::Now(), Time(0)) + Seconds(m_gap->GetValue());
    m_next = Simulator::Schedule(first, &PoissonTraffic::Arrival, this);
}

void
PoissonTraffic::StopArrivals()
{
    m_stopped = true;
    m_next.Cancel();
}

void
PoissonTraffic::Arrival()
{
    if (m_stopped || (!m_stopTime.IsZero() && Simulator::Now() >= m_stopTime))
    {
        return;
    }
    const auto n = static_cast<uint32_t>(m_hosts.size());
    const uint32_t s = m_pick->GetInteger(0, n - 1);
    uint32_t d = m_pick->GetInteger(0, n - 2);
    if (d >= s)
    {
        ++d;
    }
    const uint64_t bytes = std::max<uint64_t>(1, m_sizes.Sample(m_pick->GetValue(0, 1)));
    StartFlow(m_hosts[s], m_hosts[d], bytes);
    m_next = Simulator::Schedule(Seconds(m_gap->GetValue()), &PoissonTraffic::Arrival, this);
}

bool
PoissonTraffic::ArrivalsOver() const
{
    return m_stopped || (!m_stopTime.IsZero() && Simulator::Now() >= m_stopTime);
}

} // namespace ns3
