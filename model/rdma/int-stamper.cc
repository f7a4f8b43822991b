/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "int-stamper.h"

#include "int-header.h"

#include "ns3/abort.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
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
            .AddAttribute("FloorPackets",
                          "The queue length stamped into INT records is the least queue "
                          "over the last FloorPackets to 2 x FloorPackets packet times (of "
                          "the largest INT packet sent on the port): the standing queue, "
                          "without the packet or two that paced flows leave when their "
                          "packets meet. Zero stamps the queue averaged over QueueAverage.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&IntStamper::m_floorPackets),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("QueueAverage",
                          "With FloorPackets zero, the time constant of the queue length "
                          "stamped: the egress queue averaged over time (an exponential "
                          "moving average of the queue, exact between its changes; it "
                          "should span several packet times). Zero stamps the queue a "
                          "packet leaves behind it, which a paced flow samples without its "
                          "own packets: the smaller a flow's share, the more of the others' "
                          "queue it sees, and HPCC's shares drift apart with large packets.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&IntStamper::m_average),
                          MakeTimeChecker(Seconds(0)));
    return tid;
}

IntStamper::IntStamper()
    : m_floorPackets(2),
      m_average(MicroSeconds(1)),
      m_codedRate(0)
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
    if (lineRateBps != m_codedRate)
    {
        // the record codes the rate as one of a few: another would reach
        // HPCC as the nearest of them, and its window would be wrong
        NS_ABORT_MSG_UNLESS(IntHop::IsCodedLineRate(lineRateBps),
                            "IntStamper: port " << port << " sends at " << lineRateBps
                                                << " b/s, a rate INT cannot code (10, 25, 40, "
                                                << "50, 100, 200, 400 or 800 Gb/s)");
        m_codedRate = lineRateBps;
    }
    uint64_t qlen = queueBytes;
    if (m_floorPackets > 0 || m_average.IsStrictlyPositive())
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
            q.epoch = q.since;
            q.curMin = queueBytes;
            q.prevMin = queueBytes;
        }
        if (m_floorPackets > 0 && item->GetSize() > q.largest && lineRateBps > 0)
        {
            // the window follows the largest packet: computed when one comes
            q.largest = item->GetSize();
            q.window = static_cast<int64_t>(
                std::ceil(m_floorPackets * q.largest * 8e9 / static_cast<double>(lineRateBps)));
        }
        Track(q, queueBytes);
        qlen = m_floorPackets > 0 ? std::min(q.prevMin, q.curMin)
                                  : static_cast<uint64_t>(q.mean + 0.5);
    }
    IntHeader::StampPacket(item->GetPacket(), lineRateBps, txBytes, qlen);
}

void
IntStamper::Track(PortQueue& q, uint64_t queueBytes) const
{
    if (m_floorPackets > 0)
    {
        TrackFloor(q, queueBytes);
    }
    else
    {
        TrackMean(q, queueBytes);
    }
}

void
IntStamper::TrackFloor(PortQueue& q, uint64_t queueBytes)
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (q.window > 0 && now >= q.epoch + q.window)
    {
        // Windows ended: the queue has held q.now since its last change, so
        // a window that ended more than one window ago saw only q.now.
        q.prevMin = now >= q.epoch + 2 * q.window ? q.now : q.curMin;
        q.curMin = q.now;
        q.epoch = now - (now - q.epoch) % q.window;
    }
    q.curMin = std::min(q.curMin, queueBytes);
    q.now = queueBytes;
}

void
IntStamper::TrackMean(PortQueue& q, uint64_t queueBytes) const
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
