/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-port-egress.h"

#include "fabric-queue-disc-item.h"
#include "fabric-switch.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchPortEgress");

NS_OBJECT_ENSURE_REGISTERED(SwitchPortEgress);

TypeId
SwitchPortEgress::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchPortEgress")
                            .SetParent<PfcEgress>()
                            .SetGroupName("Flux")
                            .AddConstructor<SwitchPortEgress>();
    return tid;
}

SwitchPortEgress::SwitchPortEgress()
    : m_switch(nullptr),
      m_port(0),
      m_polls(0)
{
    NS_LOG_FUNCTION(this);
}

SwitchPortEgress::~SwitchPortEgress() = default;

void
SwitchPortEgress::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_poll.Cancel();
    if (m_pfcAware)
    {
        m_pfcAware->SetPollCallback(PfcAwareQueueDisc::PollCallback());
    }
    if (m_qdisc)
    {
        m_qdisc->TraceDisconnectWithoutContext(
            "Drop",
            MakeCallback(&SwitchPortEgress::QueueDiscDropped, this));
        m_qdisc->Dispose();
    }
    m_qdisc = nullptr;
    m_pfcAware = nullptr;
    m_ndqi = nullptr;
    for (auto& band : m_bands)
    {
        band.clear();
    }
    m_switch = nullptr;
    PfcEgress::DoDispose();
}

void
SwitchPortEgress::SetSwitchPort(FabricSwitch* sw, uint32_t port)
{
    m_switch = sw;
    m_port = port;
}

void
SwitchPortEgress::SetNetDeviceQueueInterface(Ptr<NetDeviceQueueInterface> ndqi)
{
    m_ndqi = ndqi;
}

void
SwitchPortEgress::SetQueueDisc(Ptr<QueueDisc> qdisc)
{
    NS_LOG_FUNCTION(this << qdisc);
    NS_ABORT_MSG_IF(!qdisc, "SwitchPortEgress: null queue disc");
    DetachQueueDisc();
    NS_ABORT_MSG_IF(m_bandPackets > 0,
                    "SwitchPortEgress: cannot replace built-in bands that hold packets");
    m_builtIn = false;
    m_qdisc = qdisc;
    m_pfcAware = DynamicCast<PfcAwareQueueDisc>(qdisc);
    m_direct = m_pfcAware && m_pfcAware->StartDirect();
    if (m_pfcAware)
    {
        m_pfcAware->SetPollCallback(MakeCallback(&SwitchPortEgress::RequestPoll, this));
    }
    if (m_ndqi && !m_qdisc->GetNetDeviceQueueInterface())
    {
        m_qdisc->SetNetDeviceQueueInterface(m_ndqi);
    }
    m_qdisc->Initialize();
    m_reordersClass = m_pfcAware && !m_pfcAware->ServesClassInOrder();
    m_qdisc->TraceConnectWithoutContext("Drop",
                                        MakeCallback(&SwitchPortEgress::QueueDiscDropped, this));
}

Ptr<QueueDisc>
SwitchPortEgress::GetQueueDisc() const
{
    return m_qdisc;
}

bool
SwitchPortEgress::Enqueue(Ptr<QueueDiscItem> item)
{
    if (m_direct)
    {
        return m_pfcAware->EnqueueDirect(item);
    }
    if (!m_builtIn)
    {
        return m_qdisc->Enqueue(item);
    }
    // Only the switch feeds its ports: the item knows its class already.
    const uint8_t band = static_cast<const FabricQueueDiscItem*>(PeekPointer(item))->GetPriority();
    m_bandBytes += item->GetSize();
    ++m_bandPackets;
    m_bandMask |= static_cast<uint8_t>(1u << band);
    m_bands[band].push_back(std::move(item));
    return true;
}

void
SwitchPortEgress::UseBuiltInBands()
{
    NS_LOG_FUNCTION(this);
    if (m_qdisc)
    {
        DetachQueueDisc();
        m_qdisc->Dispose();
    }
    m_qdisc = nullptr;
    m_pfcAware = nullptr;
    m_builtIn = true;
    m_direct = false;
    m_reordersClass = false;
}

void
SwitchPortEgress::DetachQueueDisc()
{
    if (!m_qdisc)
    {
        return;
    }
    NS_ABORT_MSG_IF(GetNPackets() > 0,
                    "SwitchPortEgress: cannot replace a queue disc that holds packets");
    m_direct = false;
    m_qdisc->TraceDisconnectWithoutContext("Drop",
                                           MakeCallback(&SwitchPortEgress::QueueDiscDropped, this));
    if (m_pfcAware)
    {
        m_pfcAware->SetPollCallback(PfcAwareQueueDisc::PollCallback());
    }
}

Ptr<QueueDiscItem>
SwitchPortEgress::DequeueForFlush()
{
    NS_LOG_FUNCTION(this);
    if (m_builtIn)
    {
        return TakeFromBands(0xff);
    }
    if (m_pfcAware)
    {
        m_pfcAware->SetPausedMask(0);
    }
    return m_qdisc ? TakeFromQueueDisc() : nullptr;
}

Ptr<QueueDiscItem>
SwitchPortEgress::TakeFromQueueDisc()
{
    return m_direct ? m_pfcAware->DequeueDirect() : m_qdisc->Dequeue();
}

uint32_t
SwitchPortEgress::GetNBytes() const
{
    if (m_builtIn || !m_qdisc)
    {
        return m_bandBytes;
    }
    return m_direct ? m_pfcAware->GetHeldBytes() : m_qdisc->GetNBytes();
}

uint32_t
SwitchPortEgress::GetNPackets() const
{
    if (m_builtIn || !m_qdisc)
    {
        return m_bandPackets;
    }
    return m_direct ? m_pfcAware->GetHeldPackets() : m_qdisc->GetNPackets();
}

Ptr<QueueDiscItem>
SwitchPortEgress::TakeFromBands(uint8_t allowed)
{
    const int highest = TrafficClass::HighestReady(m_bandMask & allowed);
    if (highest < 0)
    {
        return nullptr;
    }
    const auto band = static_cast<unsigned>(highest);
    CompactFifo<Ptr<QueueDiscItem>>& fifo = m_bands[band];
    Ptr<QueueDiscItem> item = std::move(fifo.front());
    fifo.pop_front();
    if (fifo.empty())
    {
        m_bandMask &= static_cast<uint8_t>(~(1u << band));
    }
    m_bandBytes -= item->GetSize();
    --m_bandPackets;
    return item;
}

Ptr<QueueDiscItem>
SwitchPortEgress::DequeueForTransmit(uint8_t pausedMask)
{
    NS_LOG_FUNCTION(this << +pausedMask);
    if (!m_switch)
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> item;
    if (m_builtIn)
    {
        item = TakeFromBands(static_cast<uint8_t>(~pausedMask));
    }
    else if (m_pfcAware)
    {
        m_pfcAware->SetPausedMask(pausedMask);
        item = TakeFromQueueDisc();
    }
    else
    {
        if (pausedMask != 0)
        {
            Ptr<const QueueDiscItem> head = m_qdisc->Peek();
            if (!head || ((pausedMask >> PfcAwareQueueDisc::GetItemPriority(head)) & 1u))
            {
                return nullptr;
            }
        }
        item = m_qdisc->Dequeue();
    }
    if (item)
    {
        m_switch->ItemDequeued(m_port, item);
    }
    return item;
}

Ptr<QueueDiscItem>
SwitchPortEgress::DequeueForDiscard(uint8_t prioMask)
{
    NS_LOG_FUNCTION(this << +prioMask);
    if (!m_switch)
    {
        return nullptr;
    }
    Ptr<QueueDiscItem> item;
    if (m_builtIn)
    {
        item = TakeFromBands(prioMask);
    }
    else if (m_pfcAware)
    {
        m_pfcAware->SetPausedMask(static_cast<uint8_t>(~prioMask));
        item = TakeFromQueueDisc();
    }
    else
    {
        Ptr<const QueueDiscItem> head = m_qdisc->Peek();
        if (!head || !((prioMask >> PfcAwareQueueDisc::GetItemPriority(head)) & 1u))
        {
            return nullptr;
        }
        item = m_qdisc->Dequeue();
    }
    if (item)
    {
        m_switch->ItemDiscarded(m_port, item);
    }
    return item;
}

bool
SwitchPortEgress::HasQueued(uint8_t prio) const
{
    return m_switch && m_switch->GetMmu()->GetEgressBytes(m_port, prio) > 0;
}

bool
SwitchPortEgress::HasPending() const
{
    return GetNPackets() > 0;
}

void
SwitchPortEgress::RequestPoll(Time delay)
{
    NS_LOG_FUNCTION(this << delay);
    const Time at = Simulator::Now() + std::max(delay, Time(0));
    if (!m_poll.IsExpired())
    {
        if (m_pollAt <= at)
        {
            return;
        }
        m_poll.Cancel();
    }
    m_pollAt = at;
    m_poll = Simulator::Schedule(at - Simulator::Now(), &SwitchPortEgress::Poll, this);
}

void
SwitchPortEgress::Poll()
{
    NS_LOG_FUNCTION(this);
    if (m_switch && m_port < m_switch->GetNPorts())
    {
        ++m_polls;
        m_switch->GetPortDevice(m_port)->Wake();
    }
}

uint64_t
SwitchPortEgress::GetPolls() const
{
    return m_polls;
}

void
SwitchPortEgress::QueueDiscDropped(Ptr<const QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    if (m_switch)
    {
        m_switch->ItemDroppedByQueueDisc(m_port, item);
    }
}

} // namespace ns3
