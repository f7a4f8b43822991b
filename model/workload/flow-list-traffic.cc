/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-list-traffic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowListTraffic");

NS_OBJECT_ENSURE_REGISTERED(FlowListTraffic);

TypeId
FlowListTraffic::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FlowListTraffic")
                            .SetParent<FlowTraffic>()
                            .SetGroupName("Flux")
                            .AddConstructor<FlowListTraffic>();
    return tid;
}

FlowListTraffic::FlowListTraffic()
    : m_next(0),
      m_stopped(false)
{
    NS_LOG_FUNCTION(this);
}

FlowListTraffic::~FlowListTraffic() = default;

void
FlowListTraffic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_event.Cancel();
    FlowTraffic::DoDispose();
}

void
FlowListTraffic::Configure(const std::vector<Entry>& flows)
{
    for (std::size_t i = 1; i < flows.size(); ++i)
    {
        NS_ABORT_MSG_IF(flows[i].start < flows[i - 1].start,
                        "FlowListTraffic: flows must be listed by start time");
    }
    m_list = flows;
    m_next = 0;
}

void
FlowListTraffic::Start()
{
    if (m_next < m_list.size())
    {
        m_event = Simulator::Schedule(std::max(m_list[m_next].start - Simulator::Now(), Time(0)),
                                      &FlowListTraffic::StartDue,
                                      this);
    }
}

void
FlowListTraffic::StartDue()
{
    const Time now = Simulator::Now();
    while (m_next < m_list.size() && m_list[m_next].start <= now)
    {
        const Entry& e = m_list[m_next++];
        StartFlow(e.src, e.dst, e.bytes);
    }
    if (m_next < m_list.size())
    {
        m_event = Simulator::Schedule(m_list[m_next].start - now, &FlowListTraffic::StartDue, this);
    }
}

void
FlowListTraffic::StopArrivals()
{
    m_stopped = true;
    m_event.Cancel();
}

bool
FlowListTraffic::ArrivalsOver() const
{
    return m_stopped || m_next >= m_list.size();
}

} // namespace ns3
