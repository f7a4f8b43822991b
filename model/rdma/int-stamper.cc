/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "int-stamper.h"

#include "int-header.h"

#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntStamper");

NS_OBJECT_ENSURE_REGISTERED(IntStamper);

TypeId
IntStamper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IntStamper")
            .SetParent<SwitchEgressHook>()
            .SetGroupName("Flux")
            .AddConstructor<IntStamper>()
            .AddAttribute("QueueAverage",
                          "Time constant of the queue length stamped into INT records: the "
                          "egress queue averaged over time (an exponential moving average "
                          "of the queue, exact between its changes; it should span several "
                          "packet times). Zero stamps the queue a packet leaves behind it, "
                          "which a paced flow samples without its own packets: the smaller "
                          "a flow's share, the more of the others' queue it sees, and "
                          "HPCC's shares drift apart with large packets.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&IntStamper::m_average),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

IntStamper::IntStamper()
    : m_average(MicroSeconds(1))
{
    NS_LOG_FUNCTION(this);
}

IntStamper::~IntStamper() = default;

void
IntStamper::Enqueued(uint32_t port, uint64_t queueBytes)
{
    if (port < m_ports.size() && m_ports[port].seen)
    {
        Track(m_ports[port], queueBytes);
    }
}

void
IntStamper::Dequeued(uint32_t port,
                     uint64_t queueBytes,
                     uint64_t txBytes,
                     uint64_t lineRateBps,
                     const Ptr<QueueDiscItem>& item)
{
    const auto* ip = static_cast<const Ipv4QueueDiscItem*>(PeekPointer(item));
    if (!(ip->GetHeader().GetDscp() & IntHeader::DSCP_INT))
    {
        if (port < m_ports.size() && m_ports[port].seen)
        {
            Track(m_ports[port], queueBytes);
        }
        return;
    }
    uint64_t qlen = queueBytes;
    if (m_average.IsStrictlyPositive())
    {
        if (m_ports.size() <= port)
        {
            m_ports.resize(port + 1);
        }
        PortQueue& q = m_ports[port];
        if (!q.seen)
        {
            q.seen = true;
            q.mean = static_cast<double>(queueBytes);
            q.now = queueBytes;
            q.since = Simulator::Now().GetNanoSeconds();
        }
        Track(q, queueBytes);
        qlen = static_cast<uint64_t>(q.mean + 0.5);
    }
    IntHeader::StampPacket(item->GetPacket(), lineRateBps, txBytes, qlen);
}

void
IntStamper::Track(PortQueue& q, uint64_t queueBytes) const
{
    // The queue held q.now bytes since its last change: the average relaxes
    // towards it by 1 - exp(-dt / tau), exactly.
    const int64_t now = Simulator::Now().GetNanoSeconds();
    const int64_t dt = now - q.since;
    if (dt > 0)
    {
        const double keep = std::exp(-static_cast<double>(dt) / m_average.GetNanoSeconds());
        q.mean = static_cast<double>(q.now) + (q.mean - static_cast<double>(q.now)) * keep;
        q.since = now;
    }
    q.now = queueBytes;
}

} // namespace ns3
