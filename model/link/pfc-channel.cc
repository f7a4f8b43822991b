/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/fabric-ranks.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/remote-frame-tag.h"
#include "ns3/simulator.h"

namespace ns3
{

namespace
{
/// m_context of an end whose node is not known yet.
constexpr uint32_t NO_CONTEXT = 0xffffffff;
} // namespace

NS_LOG_COMPONENT_DEFINE("PfcChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Flux")
                            .AddConstructor<PfcChannel>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay of the link.",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&PfcChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

PfcChannel::PfcChannel()
    : m_context{NO_CONTEXT, NO_CONTEXT},
      m_key{OrderedScheduler::DEFAULT_KEY, OrderedScheduler::DEFAULT_KEY}
{
    NS_LOG_FUNCTION(this);
}

PfcChannel::~PfcChannel() = default;

void
PfcChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_context[0] = NO_CONTEXT;
    m_context[1] = NO_CONTEXT;
    m_nDevices = 0;
    Channel::DoDispose();
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel: a point-to-point link has two ends");
    const std::size_t i = m_nDevices++;
    m_dev[i] = device;
    // The device is on its node (Node::AddDevice) before it is attached.
    Ptr<Node> node = device->GetNode();
    if (node)
    {
        m_context[i] = node->GetId();
        m_key[i] = device->GetIfIndex();
        m_local[i] = FabricRanks::IsLocal(*node);
    }
    if (m_nDevices == 2 && m_local[0] != m_local[1])
    {
        // frames from the other process arrive at the local end
        FabricRanks::InstallReceiver(m_dev[m_local[0] ? 0 : 1],
                                     MakeCallback(&PfcChannel::ReceiveRemote, this));
    }
}

void
PfcChannel::TransmitStart(Ptr<Packet> p, Ptr<PfcNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (!m_up)
    {
        ++m_lost;
        return;
    }
    const std::size_t to = (m_dev[0] == src) ? 1 : 0;
    if (!m_local[to])
    {
        SendRemote(to, p, txTime);
        return;
    }
    ScheduleArrival(to, txTime + m_delay, p, m_downs);
}

void
PfcChannel::ScheduleArrival(std::size_t to, Time delay, const Ptr<Packet>& frame, uint32_t downs)
{
    PfcNetDevice* dst = PeekPointer(m_dev[to]);
    if (m_context[to] == NO_CONTEXT)
    {
        m_context[to] = dst->GetNode()->GetId();
        m_key[to] = dst->GetIfIndex();
    }
    // A raw pointer to the device: the event need not hold a reference (the
    // channel and the node keep the device until the simulator is
    // destroyed), and taking one would touch the peer's memory at every send.
    ArrivalEvent* ev = TakeArrivalEvent();
    ev->Load(this, dst, frame, downs);
    // The simulator releases the reference after the event has run (or when
    // it is destroyed).
    OrderedScheduler::SetNextKey(m_key[to]);
    Simulator::ScheduleWithContext(m_context[to], delay, ev);
}

void
PfcChannel::SendRemote(std::size_t to, Ptr<Packet> frame, Time txTime)
{
    // The other process may have run its events up to now plus the
    // lookahead (at most this link's delay), so the message is delivered one
    // tick later, and the arrival, keyed like any other, is scheduled then.
    // That needs the frame's last bit at least two ticks after its first.
    NS_ABORT_MSG_IF(txTime < TimeStep(2),
                    "PfcChannel: a frame to another MPI process must take at least two time "
                    "steps to send (at 1 ns resolution, links up to 256 Gb/s)");
    const Time now = Simulator::Now();
    Ptr<Packet> copy = frame->Copy();
    copy->AddPacketTag(RemoteFrameTag(m_downs, now + txTime + m_delay));
    FabricRanks::SendFrame(copy, now + m_delay + TimeStep(1), m_context[to], m_key[to]);
}

void
PfcChannel::ReceiveRemote(Ptr<Packet> frame)
{
    const std::size_t to = m_local[0] ? 0 : 1;
    RemoteFrameTag tag;
    const bool tagged = frame->RemovePacketTag(tag);
    NS_ABORT_MSG_UNLESS(tagged, "PfcChannel: a frame from another process without its tag");
    ScheduleArrival(to, tag.GetArrival() - Simulator::Now(), frame, tag.GetDowns());
}

PfcChannel::ArrivalEvent* PfcChannel::s_freeArrivals = nullptr;

PfcChannel::ArrivalEvent*
PfcChannel::TakeArrivalEvent()
{
    ArrivalEvent* ev = s_freeArrivals;
    if (!ev)
    {
        return new ArrivalEvent(); // one reference, the simulator's
    }
    s_freeArrivals = ev->m_nextFree;
    return ev;
}

void
PfcChannel::ArrivalEvent::Load(PfcChannel* channel,
                               PfcNetDevice* dst,
                               Ptr<Packet> frame,
                               uint32_t downs)
{
    m_channel = channel;
    m_dst = dst;
    m_frame = std::move(frame);
    m_downs = downs;
}

void
PfcChannel::ArrivalEvent::Notify()
{
    Ptr<Packet> frame = std::move(m_frame);
    // Free again before the delivery, with the free list's own reference
    // (the simulator releases its one after this call): a frame sent during
    // the delivery may reuse the event at once.
    Ref();
    m_nextFree = s_freeArrivals;
    s_freeArrivals = this;
    if (m_channel->m_nDevices == 0)
    {
        return; // the channel was disposed meanwhile
    }
    if (m_downs != m_channel->m_downs)
    {
        // the link went down while the frame was on the wire
        ++m_channel->m_lost;
        return;
    }
    m_dst->Receive(frame);
}

void
PfcChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        ++m_downs;
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        if (m_local[i]) // the other process tells its own end
        {
            m_dev[i]->NotifyLinkChange();
        }
    }
}

bool
PfcChannel::IsLinkUp() const
{
    return m_up;
}

uint64_t
PfcChannel::GetLostFrames() const
{
    return m_lost;
}

Ptr<PfcNetDevice>
PfcChannel::GetPfcDevice(std::size_t i) const
{
    return i < m_nDevices ? m_dev[i] : nullptr;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return (m_dev[0] == device) ? m_dev[1] : m_dev[0];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return GetPfcDevice(i);
}

} // namespace ns3
