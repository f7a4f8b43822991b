/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "incast-traffic.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IncastTraffic");

NS_OBJECT_ENSURE_REGISTERED(IncastTraffic);

TypeId
IncastTraffic::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IncastTraffic")
                            .SetParent<FlowTraffic>()
                            .SetGroupName("Flux")
                            .AddConstructor<IncastTraffic>()
                            .AddAttribute("StartTime",
                                          "Time of the first burst.",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&IncastTraffic::m_startTime),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute("Interval",
                                          "Time between the starts of two bursts.",
                                          TimeValue(MilliSeconds(1)),
                                          MakeTimeAccessor(&IncastTraffic::m_interval),
                                          MakeTimeChecker(Seconds(0)))
                            .AddAttribute("Repeat",
                                          "Number of bursts.",
                                          UintegerValue(1),
                                          MakeUintegerAccessor(&IncastTraffic::m_repeat),
                                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

IncastTraffic::IncastTraffic()
    : m_receiver(0),
      m_bytes(0),
      m_repeat(1),
      m_bursts(0)
{
    NS_LOG_FUNCTION(this);
}

IncastTraffic::~IncastTraffic() = default;

void
IncastTraffic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_next.Cancel();
    FlowTraffic::DoDispose();
}

void
IncastTraffic::Configure(const std::vector<uint32_t>& senders, uint32_t receiver, uint64_t bytes)
{
    m_senders = senders;
    m_receiver = receiver;
    m_bytes = bytes;
}

void
IncastTraffic::Start()
{
    m_next = Simulator::Schedule(std::max(m_startTime - Simulator::Now(), Time(0)),
                                 &IncastTraffic::Burst,
                                 this);
}

void
IncastTraffic::StopArrivals()
{
    // A burst pattern is finite: it runs all its bursts.
}

void
IncastTraffic::Burst()
{
    for (uint32_t s : m_senders)
    {
        StartFlow(s, m_receiver, m_bytes);
    }
    if (++m_bursts < m_repeat)
    {
        m_next = Simulator::Schedule(m_interval, &IncastTraffic::Burst, this);
    }
}

bool
IncastTraffic::ArrivalsOver() const
{
    return m_bursts >= m_repeat;
}

} // namespace ns3
