/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fluid-network.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetwork");

NS_OBJECT_ENSURE_REGISTERED(FluidNetwork);

namespace
{

/// A number of seconds as a simulated time, rounded to the nanosecond.
Time
FromSeconds(double s)
{
    return NanoSeconds(static_cast<int64_t>(std::llround(s * 1e9)));
}

} // namespace

TypeId
FluidNetwork::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluidNetwork")
            .SetParent<RdmaMessageOffload>()
            .SetGroupName("Flux")
            .AddConstructor<FluidNetwork>()
            .AddAttribute("PacketOverhead",
                          "Wire bytes of a data packet besides its payload: Ethernet with "
                          "its 802.1Q tag, IPv4, UDP, BTH, ICRC, FCS, preamble and "
                          "inter-frame gap.",
                          UintegerValue(86),
                          MakeUintegerAccessor(&FluidNetwork::m_packetOverhead),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckBytes",
                          "Wire bytes of an ACK (the time the sender learns of a delivery "
                          "takes one ACK's serialisation per hop).",
                          UintegerValue(90),
                          MakeUintegerAccessor(&FluidNetwork::m_ackBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Delivered",
                            "A message's last byte reached its receiver.",
                            MakeTraceSourceAccessor(&FluidNetwork::m_deliveredTrace),
                            "ns3::FluidNetwork::DeliveredTracedCallback");
    return tid;
}

FluidNetwork::FluidNetwork()
    : m_packetOverhead(86),
      m_ackBytes(90)
{
    NS_LOG_FUNCTION(this);
}

FluidNetwork::~FluidNetwork() = default;

void
FluidNetwork::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_update.Cancel();
    m_next.Cancel();
    for (const auto& nic : m_hosts)
    {
        if (nic->GetMessageOffload() == this)
        {
            nic->SetMessageOffload(nullptr);
        }
    }
    m_hosts.clear();
    m_senders.clear();
    m_senderOf.clear();
    m_active.clear();
    m_paths = PathFunction();
    RdmaMessageOffload::DoDispose();
}

uint32_t
FluidNetwork::AddLink(DataRate rate, Time delay)
{
    m_linkBps.push_back(static_cast<double>(rate.GetBitRate()));
    m_linkDelayS.push_back(delay.GetSeconds());
    m_linkBits.push_back(0);
    m_allocator.SetCapacities(m_linkBps);
    return static_cast<uint32_t>(m_linkBps.size() - 1);
}

void
FluidNetwork::AddHost(Ptr<RdmaNic> nic)
{
    NS_LOG_FUNCTION(this << nic);
    m_hostOfAddress[nic->GetAddress().Get()] = static_cast<uint32_t>(m_hosts.size());
    m_hosts.push_back(nic);
    nic->SetMessageOffload(this);
}

void
FluidNetwork::SetPathFunction(PathFunction paths)
{
    m_paths = std::move(paths);
    ++m_routeEpoch;
}

void
FluidNetwork::SetClassOrder(const std::vector<uint8_t>& order)
{
    m_allocator.SetClassOrder(order);
    ScheduleUpdate();
}

void
FluidNetwork::SetLinkUp(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    Advance();
    m_allocator.SetCapacity(link, up ? m_linkBps.at(link) : 0.0);
    ScheduleUpdate();
}

void
FluidNetwork::RefreshPaths()
{
    NS_LOG_FUNCTION(this);
    Advance();
    ++m_routeEpoch;
    for (uint32_t i : m_active)
    {
        Route(m_senders[i]);
    }
    ScheduleUpdate();
}

uint64_t
FluidNetwork::GetMessagesDelivered() const
{
    return m_messagesDelivered;
}

uint64_t
FluidNetwork::GetBytesDelivered() const
{
    return m_bytesDelivered;
}

uint64_t
FluidNetwork::GetRateUpdates() const
{
    return m_rateUpdates;
}

uint32_t
FluidNetwork::GetPeakFlows() const
{
    return m_peakFlows;
}

double
FluidNetwork::GetLinkBits(uint32_t link) const
{
    return m_linkBits.at(link);
}

double
FluidNetwork::WireBytes(uint64_t bytes, uint32_t mtu) const
{
    const uint64_t packets = bytes == 0 ? 1 : (bytes + mtu - 1) / mtu;
    return static_cast<double>(bytes + packets * m_packetOverhead);
}

uint32_t
FluidNetwork::SenderOf(Ptr<RdmaQueuePair> qp)
{
    const auto src = m_hostOfAddress.find(qp->GetNic()->GetAddress().Get());
    const auto dst = m_hostOfAddress.find(qp->GetPeerAddress().Get());
    NS_ABORT_MSG_IF(src == m_hostOfAddress.end() || dst == m_hostOfAddress.end(),
                    "FluidNetwork: a queue pair between hosts it does not know");
    const uint64_t key = (uint64_t{src->second} << 32) | qp->GetQpn();
    auto it = m_senderOf.find(key);
    uint32_t index;
    if (it == m_senderOf.end())
    {
        index = static_cast<uint32_t>(m_senders.size());
        m_senderOf.emplace(key, index);
        m_senders.emplace_back();
        m_senders.back().src = src->second;
        m_senders.back().dst = dst->second;
    }
    else
    {
        index = it->second;
    }
    Sender& s = m_senders[index];
    if (!s.qp)
    {
        s.qp = qp;
        s.peer = m_hosts[s.dst]->GetQueuePair(qp->GetPeerQpn());
        NS_ABORT_MSG_IF(!s.peer, "FluidNetwork: the queue pair's peer does not exist");
    }
    if (s.routeEpoch != m_routeEpoch)
    {
        Route(s);
    }
    return index;
}

void
FluidNetwork::Route(Sender& s)
{
    s.routeEpoch = m_routeEpoch;
    s.path = m_paths ? m_paths(s.src, s.dst, s.qp->GetSourcePort()) : std::vector<uint32_t>();
    s.propagationS = 0;
    s.perBitS = 0;
    s.slowestPerBitS = 0;
    for (uint32_t l : s.path)
    {
        s.propagationS += m_linkDelayS[l];
        s.perBitS += 1.0 / m_linkBps[l];
        s.slowestPerBitS = std::max(s.slowestPerBitS, 1.0 / m_linkBps[l]);
    }
    NS_LOG_LOGIC("host " << s.src << " -> " << s.dst << ": " << s.path.size() << " hops");
}

void
FluidNetwork::Post(Ptr<RdmaQueuePair> qp, uint64_t seq, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << qp << seq << bytes);
    Advance();
    const uint32_t index = SenderOf(qp);
    Sender& s = m_senders[index];
    const double wire = WireBytes(bytes, qp->GetNic()->GetMtu());
    s.messages.push_back(Message{seq, bytes, wire, Simulator::Now()});
    if (!s.active)
    {
        s.active = true;
        s.left = wire;
        s.rateBps = 0;
        m_active.push_back(index);
        m_peakFlows = std::max(m_peakFlows, static_cast<uint32_t>(m_active.size()));
        ScheduleUpdate();
    }
}

void
FluidNetwork::PriorityChanged(Ptr<RdmaQueuePair> qp)
{
    NS_LOG_FUNCTION(this << qp);
    Advance();
    ScheduleUpdate();
}

void
FluidNetwork::Advance()
{
    const Time now = Simulator::Now();
    if (now <= m_advanced)
    {
        return;
    }
    const double dt = (now - m_advanced).GetSeconds();
    m_advanced = now;
    for (uint32_t i : m_active)
    {
        Sender& s = m_senders[i];
        if (s.rateBps <= 0)
        {
            continue;
        }
        const double bits = s.rateBps * dt;
        s.left -= bits / 8;
        for (uint32_t l : s.path)
        {
            m_linkBits[l] += bits;
        }
    }
}

void
FluidNetwork::ScheduleUpdate()
{
    if (m_update.IsExpired())
    {
        m_update = Simulator::ScheduleNow(&FluidNetwork::Update, this);
    }
}

void
FluidNetwork::Update()
{
    Advance();
    ++m_rateUpdates;
    m_demands.resize(m_active.size());
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        const Sender& s = m_senders[m_active[i]];
        MaxMinAllocator::Demand& d = m_demands[i];
        d.links = s.path.data();
        d.hops = static_cast<uint32_t>(s.path.size());
        d.cls = s.qp->GetPriority();
        d.weight = 1;
    }
    m_allocator.Allocate(m_demands);
    double soonest = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        Sender& s = m_senders[m_active[i]];
        s.rateBps = m_demands[i].rate;
        if (s.rateBps > 0)
        {
            soonest = std::min(soonest, std::max(0.0, s.left) * 8 / s.rateBps);
        }
    }
    m_next.Cancel();
    if (soonest < std::numeric_limits<double>::infinity())
    {
        const auto ns = static_cast<int64_t>(std::ceil(soonest * 1e9));
        m_next = Simulator::Schedule(NanoSeconds(ns), &FluidNetwork::MessageEnd, this);
    }
}

void
FluidNetwork::MessageEnd()
{
    Advance();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        const uint32_t index = m_active[i];
        Sender& s = m_senders[index];
        // Done when what is left would take under half a nanosecond.
        if (s.rateBps > 0 && s.left * 8 <= s.rateBps * 0.5e-9 + 1e-6)
        {
            FinishHead(index);
        }
        if (s.active)
        {
            m_active[kept++] = index;
        }
    }
    m_active.resize(kept);
    Update();
}

void
FluidNetwork::FinishHead(uint32_t index)
{
    Sender& s = m_senders[index];
    const Message m = s.messages.front();
    s.messages.pop_front();
    // The first packet's store-and-forward time on every hop but the
    // slowest, whose time the fluid has already counted.
    const uint32_t mtu = s.qp->GetNic()->GetMtu();
    const double firstBits = 8.0 * (std::min<uint64_t>(m.bytes, mtu) + m_packetOverhead);
    const double delay = s.propagationS + firstBits * (s.perBitS - s.slowestPerBitS);
    ++s.inFlight;
    Simulator::Schedule(FromSeconds(delay), &FluidNetwork::Deliver, this, index, m.seq, m.bytes, m.posted);
    if (s.messages.empty())
    {
        s.active = false;
        s.left = 0;
        s.rateBps = 0;
    }
    else
    {
        s.left = s.messages.front().wire;
    }
}

void
FluidNetwork::Deliver(uint32_t index, uint64_t seq, uint64_t bytes, Time posted)
{
    Sender& s = m_senders[index];
    ++m_messagesDelivered;
    m_bytesDelivered += bytes;
    m_deliveredTrace(s.src, s.dst, bytes, posted);
    const double ackS = s.propagationS + 8.0 * m_ackBytes * s.perBitS;
    Simulator::Schedule(FromSeconds(ackS), &FluidNetwork::Acknowledge, this, index, seq, bytes);
    s.peer->DeliverOffloaded(bytes);
}

void
FluidNetwork::Acknowledge(uint32_t index, uint64_t seq, uint64_t bytes)
{
    Sender& s = m_senders[index];
    Ptr<RdmaQueuePair> qp = s.qp;
    --s.inFlight;
    if (!s.active && s.inFlight == 0)
    {
        // Idle: let the queue pairs go (a tenant destroys its flows' queue
        // pairs once acknowledged); the path stays cached.
        s.qp = nullptr;
        s.peer = nullptr;
    }
    qp->CompleteOffloaded(seq, bytes);
}

} // namespace ns3
