/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fluid-network.h"

#include "ns3/boolean.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/trace-is-empty.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluidNetwork");

NS_OBJECT_ENSURE_REGISTERED(FluidNetwork);

namespace
{

/// Wire bytes of a data packet besides its payload: Ethernet with its
/// 802.1Q tag, IPv4, UDP, BTH, ICRC, FCS, preamble and inter-frame gap.
constexpr uint32_t DATA_OVERHEAD = WireBytes::L2 + WireBytes::IP_UDP + IbBthHeader::SIZE +
                                   IbBthHeader::ICRC_BYTES + WireBytes::FCS +
                                   WireBytes::PREAMBLE_IFG;
/// Wire bytes of an ACK: the same headers with an AETH and no payload.
constexpr uint32_t ACK_BYTES = DATA_OVERHEAD + IbAethHeader::SIZE;

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
                          UintegerValue(DATA_OVERHEAD),
                          MakeUintegerAccessor(&FluidNetwork::m_packetOverhead),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AckBytes",
                          "Wire bytes of an ACK (the time the sender learns of a delivery "
                          "takes one ACK's serialisation per hop).",
                          UintegerValue(ACK_BYTES),
                          MakeUintegerAccessor(&FluidNetwork::m_ackBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Shared",
                          "Whether flows share the links they cross (max-min fair within a "
                          "class, strict priority between classes). When false, every flow "
                          "runs at its path's slowest rate whatever else crosses its links: "
                          "no order of service can deliver a message sooner, so a job's "
                          "run is a lower bound on its run at either level (ComputeBound).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluidNetwork::m_shared),
                          MakeBooleanChecker())
            .AddTraceSource("Delivered",
                            "A message's last byte reached its receiver.",
                            MakeTraceSourceAccessor(&FluidNetwork::m_deliveredTrace),
                            "ns3::FluidNetwork::DeliveredTracedCallback");
    return tid;
}

FluidNetwork::FluidNetwork()
    : m_packetOverhead(DATA_OVERHEAD),
      m_ackBytes(ACK_BYTES),
      m_shared(true)
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
    m_updatePending = false;
    m_nextAtNs = -1;
    for (const auto& nic : m_hosts)
    {
        if (nic->GetMessageOffload() == this)
        {
            nic->SetMessageOffload(nullptr);
        }
    }
    m_hosts.clear();
    m_senders.clear();
    m_rates.clear();
    m_senderOfQpn.clear();
    m_links.clear();
    m_linkUp.clear();
    m_linkDelayS.clear();
    m_residual.clear();
    m_ends.Clear();
    m_paths = PathFunction();
    RdmaMessageOffload::DoDispose();
}

uint32_t
FluidNetwork::AddLink(DataRate rate, Time delay)
{
    Link link;
    link.bps = static_cast<double>(rate.GetBitRate());
    m_links.push_back(link);
    m_linkUp.push_back(1);
    m_linkDownNs.push_back(0);
    m_linkDelayS.push_back(delay.GetSeconds());
    m_residual.push_back(0);
    m_allocator.AddLink(link.bps);
    return static_cast<uint32_t>(m_links.size() - 1);
}

void
FluidNetwork::AddHost(Ptr<RdmaNic> nic)
{
    NS_LOG_FUNCTION(this << nic);
    m_hostOfAddress[nic->GetAddress().Get()] = static_cast<uint32_t>(m_hosts.size());
    m_hosts.push_back(nic);
    m_senderOfQpn.emplace_back();
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
    for (uint32_t i = 0; i < m_senders.size(); ++i)
    {
        if (m_senders[i].active)
        {
            MarkDirty(i);
        }
    }
    ScheduleUpdate();
}

void
FluidNetwork::SetLinkUp(uint32_t link, bool up)
{
    NS_LOG_FUNCTION(this << link << up);
    Link& l = m_links.at(link);
    if ((m_linkUp[link] != 0) == up)
    {
        return;
    }
    m_linkUp[link] = up ? 1 : 0;
    if (up)
    {
        --m_linksDown;
    }
    else
    {
        ++m_linksDown;
        m_linkDownNs[link] = Simulator::Now().GetNanoSeconds();
    }
    m_allocator.SetCapacity(link, up ? l.bps : 0.0);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    for (const auto& f : l.flows)
    {
        MarkDirty(f.first);
        if (up)
        {
            NoteRestored(f.first);
        }
        else
        {
            NoteCut(f.first, now);
        }
    }
    if (up)
    {
        RestoreLost();
    }
    ScheduleUpdate();
}

void
FluidNetwork::RestoreLost()
{
    // (senders idle since their messages were lost are on no link's list)
    std::vector<uint32_t> waiting;
    for (const auto& entry : m_lost)
    {
        waiting.push_back(entry.first);
    }
    std::sort(waiting.begin(), waiting.end()); // (the map's order is not the run's)
    for (uint32_t i : waiting)
    {
        NoteRestored(i);
    }
}

void
FluidNetwork::RefreshPaths()
{
    NS_LOG_FUNCTION(this);
    ++m_routeEpoch;
    const int64_t now = Simulator::Now().GetNanoSeconds();
    for (uint32_t i = 0; i < m_senders.size(); ++i)
    {
        Sender& s = m_senders[i];
        if (!s.active)
        {
            if (m_lost.count(i))
            {
                Route(s); // (its lost messages go again on the new path)
            }
            continue; // looked up again at its next message
        }
        Settle(i, now);
        SetRate(i, 0, now);
        Detach(i);
        Route(s);
        Attach(i);
        MarkDirty(i);
        NoteRestored(i);
        NoteCut(i, now);
    }
    RestoreLost();
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

uint64_t
FluidNetwork::GetFlowsAllocated() const
{
    return m_flowsAllocated;
}

uint32_t
FluidNetwork::GetPeakFlows() const
{
    return m_peakFlows;
}

double
FluidNetwork::GetRateError() const
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (m_updatePending || !m_dirty.empty() || (!m_ends.Empty() && m_ends.Top().at <= now))
    {
        return -1;
    }
    // the allocator's class order, with the links' capacities as they are
    MaxMinAllocator fresh = m_allocator;
    std::vector<double> capacity(m_links.size());
    for (uint32_t l = 0; l < m_links.size(); ++l)
    {
        capacity[l] = Capacity(l);
    }
    fresh.SetCapacities(capacity);
    std::vector<uint32_t> flows;
    std::vector<MaxMinAllocator::Demand> demands;
    for (uint32_t i = 0; i < m_senders.size(); ++i)
    {
        const Sender& s = m_senders[i];
        if (s.active)
        {
            flows.push_back(i);
            MaxMinAllocator::Demand d;
            d.links = Path(s).data();
            d.hops = s.hops;
            d.cls = s.qp->GetPriority();
            demands.push_back(d);
        }
    }
    fresh.Allocate(demands);
    double worst = 0;
    for (std::size_t k = 0; k < flows.size(); ++k)
    {
        const Sender& s = m_senders[flows[k]];
        const double scale = s.hops == 0 ? 1.0 : m_links[Path(s).front()].bps;
        worst = std::max(worst, std::abs(demands[k].rate - m_rates[flows[k]].rateBps) / scale);
    }
    return worst;
}

double
FluidNetwork::GetLinkBits(uint32_t link) const
{
    const Link& l = m_links.at(link);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    return l.bits + l.loadBps * static_cast<double>(now - l.sinceNs) * 1e-9;
}

double
FluidNetwork::OnWire(uint64_t bytes, uint32_t mtu) const
{
    const uint64_t packets = bytes == 0 ? 1 : (bytes + mtu - 1) / mtu;
    return static_cast<double>(bytes + packets * m_packetOverhead);
}

uint32_t
FluidNetwork::HostOf(Ipv4Address address) const
{
    const auto it = m_hostOfAddress.find(address.Get());
    return it == m_hostOfAddress.end() ? NONE : it->second;
}

bool
FluidNetwork::IsCutOff(Ptr<RdmaQueuePair> qp) const
{
    const uint32_t src = HostOf(qp->GetNic()->GetAddress());
    const uint32_t index = src == NONE ? NONE : FindSender(src, qp->GetQpn());
    if (index == NONE || !m_senders[index].active)
    {
        return false;
    }
    return PathCut(m_senders[index]);
}

bool
FluidNetwork::PathCut(const Sender& s) const
{
    const Hops path = Path(s);
    return path.empty() ||
           std::any_of(path.begin(), path.end(), [this](uint32_t l) { return !m_linkUp[l]; });
}

bool
FluidNetwork::MetTheCut(const Sender& s, bool ack) const
{
    const Hops path = Path(s);
    if (path.empty())
    {
        return true;
    }
    // When the bytes arriving now began to cross each hop, counted back from
    // now: the data crossed the hops in path order, the ACK in reverse (on
    // the same cables). Serialisation is left out: a packet's time is small
    // beside the delays that make this matter.
    const int64_t now = Simulator::Now().GetNanoSeconds();
    double before = 0;
    for (uint32_t k = 0; k < path.size(); ++k)
    {
        const uint32_t l = path[ack ? k : path.size() - 1 - k];
        before += m_linkDelayS[l];
        if (!m_linkUp[l] && m_linkDownNs[l] <= now - static_cast<int64_t>(before * 1e9))
        {
            return true;
        }
    }
    return false;
}

bool
FluidNetwork::Outstanding(uint32_t index) const
{
    return m_senders[index].active || m_lost.count(index) > 0;
}

void
FluidNetwork::NoteCut(uint32_t index, int64_t nowNs)
{
    Sender& s = m_senders[index];
    if (!Outstanding(index) || s.cutSinceNs >= 0 || !PathCut(s))
    {
        return;
    }
    const Time giveUp = s.qp->GetGiveUpTime();
    if (giveUp.IsZero())
    {
        return; // no timer: it waits for the path, as a packet-level pair would
    }
    NS_LOG_DEBUG("sender " << index << " cut off, gives up in " << giveUp.As(Time::MS));
    s.cutSinceNs = nowNs;
    Simulator::Schedule(giveUp, &FluidNetwork::GiveUp, this, index, nowNs);
}

void
FluidNetwork::NoteRestored(uint32_t index)
{
    Sender& s = m_senders[index];
    if (s.cutSinceNs >= 0 && !PathCut(s))
    {
        s.cutSinceNs = -1;
        if (m_lost.count(index))
        {
            Resend(index);
        }
    }
}

void
FluidNetwork::GiveUp(uint32_t index, int64_t sinceNs)
{
    NoteRestored(index);
    if (m_senders[index].cutSinceNs == sinceNs && Outstanding(index))
    {
        Fail(index);
    }
}

void
FluidNetwork::Lose(uint32_t index, const Lost& lost)
{
    Sender& s = m_senders[index];
    NS_LOG_DEBUG("sender " << index << " lost " << (lost.delivered ? "the ACK of " : "")
                           << "message " << lost.message.seq);
    --s.inFlight;
    if (s.gone)
    {
        ReleaseIfGone(s); // (nobody waits for it)
        return;
    }
    m_lost[index].push_back(lost);
    NoteCut(index, Simulator::Now().GetNanoSeconds());
}

void
FluidNetwork::Resend(uint32_t index)
{
    const auto it = m_lost.find(index);
    const std::vector<Lost> lost = std::move(it->second);
    m_lost.erase(it);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    // A lost ACK comes again (the receiver has the message); lost messages
    // go again, and the messages behind them from their start (go-back-N).
    std::vector<Message> queue;
    for (const Lost& l : lost)
    {
        Sender& s = m_senders[index];
        if (l.delivered)
        {
            ++s.inFlight;
            const double ackS = s.propagationS + 8.0 * m_ackBytes * s.perBitS;
            Simulator::Schedule(FromSeconds(ackS),
                                &FluidNetwork::Acknowledge,
                                this,
                                index,
                                l.message.seq,
                                l.message.bytes);
        }
        else
        {
            queue.push_back(l.message);
        }
    }
    Sender& s = m_senders[index];
    if (queue.empty())
    {
        return;
    }
    if (!s.active)
    {
        for (const Message& m : queue)
        {
            Enqueue(index, m, now); // (the first starts the flow)
        }
        return;
    }
    Settle(index, now);
    queue.push_back(s.head);
    for (std::size_t i = 0; i < s.waiting.size(); ++i)
    {
        queue.push_back(s.waiting[i]);
    }
    s.waiting.clear();
    s.head = queue.front();
    s.left = s.head.wire;
    for (std::size_t i = 1; i < queue.size(); ++i)
    {
        s.waiting.push_back(queue[i]);
    }
    PushEnd(index, now);
    ScheduleUpdate();
}

void
FluidNetwork::Fail(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    Sender& s = m_senders[index];
    std::vector<std::pair<uint64_t, uint64_t>> failed;
    const auto lost = m_lost.find(index);
    if (lost != m_lost.end())
    {
        for (const Lost& l : lost->second)
        {
            failed.emplace_back(l.message.seq, l.message.bytes);
        }
        m_lost.erase(lost);
    }
    if (s.active)
    {
        failed.emplace_back(s.head.seq, s.head.bytes);
        for (std::size_t i = 0; i < s.waiting.size(); ++i)
        {
            failed.emplace_back(s.waiting[i].seq, s.waiting[i].bytes);
        }
        s.waiting.clear();
        const int64_t now = Simulator::Now().GetNanoSeconds();
        Settle(index, now);
        --m_activeFlows;
        for (uint32_t l : Path(s))
        {
            LeaveLink(l, index);
        }
        SetRate(index, 0, now);
        Detach(index);
        s.active = false;
        s.left = 0;
    }
    std::sort(failed.begin(), failed.end()); // oldest first, as the queue pair posted them
    s.cutSinceNs = -1;
    Ptr<RdmaQueuePair> qp = s.qp; // (the handlers may post, and grow m_senders)
    qp->FailOffloaded(failed);
    ReleaseIfGone(m_senders[index]);
    ScheduleUpdate();
}

uint32_t
FluidNetwork::FindSender(uint32_t host, uint32_t qpn) const
{
    const auto& senders = m_senderOfQpn[host];
    return qpn < senders.size() ? senders[qpn] : NONE;
}

uint32_t
FluidNetwork::SenderOf(RdmaQueuePair* qp)
{
    // The queue pair's sender, which it carries, when the pair is still the
    // same connection: its QP number and its peer's address and QP number
    // (a peer queue pair has one connection, and QP numbers are not reused).
    const uint32_t qpn = qp->GetQpn();
    const uint32_t peerQpn = qp->GetPeerQpn();
    const uint32_t peerAddress = qp->GetPeerAddress().Get();
    uint32_t index = qp->GetOffloadSendIndex();
    if (index < m_senders.size())
    {
        const Sender& c = m_senders[index];
        if (PeekPointer(c.qp) != qp || c.qpn != qpn || c.peerQpn != peerQpn ||
            c.peerAddress != peerAddress)
        {
            index = NONE;
        }
    }
    else
    {
        index = NONE;
    }
    if (index == NONE)
    {
        const uint32_t src = HostOf(qp->GetNic()->GetAddress());
        NS_ABORT_MSG_IF(src == NONE, "FluidNetwork: a queue pair of a host it does not know");
        index = FindSender(src, qpn);
    }
    if (index == NONE)
    {
        const uint32_t src = HostOf(qp->GetNic()->GetAddress());
        const uint32_t dst = HostOf(qp->GetPeerAddress());
        NS_ABORT_MSG_IF(dst == NONE, "FluidNetwork: a queue pair to a host it does not know");
        index = static_cast<uint32_t>(m_senders.size());
        auto& senders = m_senderOfQpn[src];
        if (qpn >= senders.size())
        {
            senders.resize(qpn + 1, NONE);
        }
        senders[qpn] = index;
        m_senders.emplace_back();
        m_rates.emplace_back();
        m_senders.back().src = src;
        m_senders.back().dst = dst;
        m_senders.back().qpn = qpn;
        m_senders.back().peerQpn = peerQpn;
        m_senders.back().peerAddress = peerAddress;
    }
    Sender& s = m_senders[index];
    s.cls = qp->GetPriority(); // (PriorityChanged keeps it while the pair lives)
    if (!s.qp)
    {
        s.qp = qp;
        s.peer = m_hosts[s.dst]->GetQueuePair(qp->GetPeerQpn());
        NS_ABORT_MSG_IF(!s.peer, "FluidNetwork: the queue pair's peer does not exist");
        s.mtu = qp->GetNic()->GetMtu();
        s.gone = false;
        qp->SetOffloadSendIndex(index);
        s.peer->SetOffloadReceiveIndex(index);
    }
    if (s.routeEpoch != m_routeEpoch && !s.active)
    {
        Route(s);
    }
    return index;
}

void
FluidNetwork::QueuePairDestroyed(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp);
    for (const uint32_t index : {qp->GetOffloadSendIndex(), qp->GetOffloadReceiveIndex()})
    {
        if (index < m_senders.size())
        {
            Sender& s = m_senders[index];
            if (PeekPointer(s.qp) == qp || PeekPointer(s.peer) == qp)
            {
                s.gone = true;
                ReleaseIfGone(s);
            }
        }
    }
}

void
FluidNetwork::ReleaseIfGone(Sender& s)
{
    if (s.gone && !s.active && s.inFlight == 0)
    {
        // Idle: let the queue pairs go (a tenant destroys its flows' queue
        // pairs once acknowledged); the path stays cached.
        s.qp = nullptr;
        s.peer = nullptr;
        s.gone = false;
    }
}

void
FluidNetwork::Route(Sender& s)
{
    s.routeEpoch = m_routeEpoch;
    const std::vector<uint32_t> path =
        m_paths ? m_paths(s.src, s.dst, s.qp->GetSourcePort()) : std::vector<uint32_t>();
    if (path.size() != s.hops)
    {
        // a new place in the pool (a route of another length: rare)
        s.hops = static_cast<uint32_t>(path.size());
        s.pathAt = static_cast<uint32_t>(m_hopPool.size());
        m_hopPool.resize(m_hopPool.size() + 2 * path.size());
    }
    std::copy(path.begin(), path.end(), m_hopPool.begin() + s.pathAt);
    std::fill_n(m_hopPool.begin() + s.pathAt + s.hops, s.hops, 0);
    s.propagationS = 0;
    s.perBitS = 0;
    s.slowestPerBitS = 0;
    for (uint32_t l : Path(s))
    {
        s.propagationS += m_linkDelayS[l];
        s.perBitS += 1.0 / m_links[l].bps;
        s.slowestPerBitS = std::max(s.slowestPerBitS, 1.0 / m_links[l].bps);
    }
    NS_LOG_LOGIC("host " << s.src << " -> " << s.dst << ": " << Path(s).size() << " hops");
}

void
FluidNetwork::Attach(uint32_t index)
{
    Sender& s = m_senders[index];
    const Hops path = Path(s);
    uint32_t* slot = Slots(s);
    for (uint32_t h = 0; h < path.size(); ++h)
    {
        auto& flows = m_links[path[h]].flows;
        slot[h] = static_cast<uint32_t>(flows.size());
        flows.emplace_back(index, h);
    }
}

void
FluidNetwork::Detach(uint32_t index)
{
    Sender& s = m_senders[index];
    const Hops path = Path(s);
    const uint32_t* slot = Slots(s);
    for (uint32_t h = 0; h < path.size(); ++h)
    {
        auto& flows = m_links[path[h]].flows;
        const uint32_t at = slot[h];
        flows[at] = flows.back();
        flows.pop_back();
        if (flows.empty())
        {
            m_links[path[h]].loadBps = 0; // (what rounding left of the rates that left)
        }
        if (at < flows.size())
        {
            Slots(m_senders[flows[at].first])[flows[at].second] = at;
        }
    }
}

void
FluidNetwork::LeaveLink(uint32_t link, uint32_t leaving)
{
    const Link& l = m_links[link];
    // Nobody is held back by a link with room left. (The tolerances err
    // towards recomputing.)
    if (l.flows.size() <= 1 || l.loadBps < l.bps * (1 - 1e-6))
    {
        return;
    }
    // A full link holds back the flows with the largest rate on it (it is
    // their bottleneck); the others have their bottleneck elsewhere, which
    // this departure leaves as it was. With several classes on the link,
    // the lower ones may gain: recompute.
    const uint8_t cls = m_rates[leaving].cls;
    double top = 0;
    bool held = false;
    for (const auto& f : l.flows)
    {
        const FlowRate& r = m_rates[f.first];
        top = std::max(top, r.rateBps);
        held = held || r.cls != cls;
    }
    for (const auto& f : l.flows)
    {
        held = held || (f.first != leaving && m_rates[f.first].rateBps >= top * (1 - 1e-6));
    }
    if (!held)
    {
        return;
    }
    for (const auto& f : l.flows)
    {
        MarkDirty(f.first);
    }
}

bool
FluidNetwork::JoinWithoutChange(uint32_t index)
{
    Sender& s = m_senders[index];
    if (Path(s).empty())
    {
        return false;
    }
    // What every link on the path has left: the most it can take alone.
    double rate = std::numeric_limits<double>::infinity();
    for (uint32_t l : Path(s))
    {
        const Link& link = m_links[l];
        rate = std::min(rate, m_linkUp[l] ? link.bps - link.loadBps : 0.0);
    }
    if (!(rate > 0) || rate < 1e-9 * m_links[Path(s).front()].bps)
    {
        return false; // it must take from others
    }
    // A link it fills where no flow outdoes it, all of its class, is its
    // bottleneck; every other flow keeps its own (none was on a full link
    // of the path, or nothing would be left).
    for (uint32_t l : Path(s))
    {
        const Link& link = m_links[l];
        if (link.bps - link.loadBps > rate * (1 + 1e-9))
        {
            continue;
        }
        bool bottleneck = true;
        const uint8_t cls = m_rates[index].cls;
        for (const auto& f : link.flows)
        {
            const FlowRate& o = m_rates[f.first];
            if (f.first != index && (o.cls != cls || o.rateBps > rate * (1 + 1e-9)))
            {
                bottleneck = false;
                break;
            }
        }
        if (bottleneck)
        {
            SetRate(index, rate, Simulator::Now().GetNanoSeconds());
            return true;
        }
    }
    return false;
}

void
FluidNetwork::MarkDirty(uint32_t index)
{
    Sender& s = m_senders[index];
    if (!s.dirty)
    {
        s.dirty = true;
        m_dirty.push_back(index);
    }
}

void
FluidNetwork::Settle(uint32_t index, int64_t nowNs)
{
    Sender& s = m_senders[index];
    if (nowNs > s.sinceNs)
    {
        s.left -= m_rates[index].rateBps * static_cast<double>(nowNs - s.sinceNs) * 1e-9 / 8;
        s.sinceNs = nowNs;
    }
}

void
FluidNetwork::SetRate(uint32_t index, double bps, int64_t nowNs)
{
    Sender& s = m_senders[index];
    FlowRate& r = m_rates[index];
    Settle(index, nowNs);
    const double delta = bps - r.rateBps;
    if (delta != 0)
    {
        for (uint32_t l : Path(s))
        {
            Link& link = m_links[l];
            link.bits += link.loadBps * static_cast<double>(nowNs - link.sinceNs) * 1e-9;
            link.sinceNs = nowNs;
            link.loadBps = std::max(0.0, link.loadBps + delta);
        }
        r.rateBps = bps;
    }
    // its end moves with its rate
    if (bps > 0 && s.active)
    {
        PushEnd(index, nowNs);
    }
    else
    {
        m_ends.Remove(index);
    }
}

void
FluidNetwork::PushEnd(uint32_t index, int64_t nowNs)
{
    const Sender& s = m_senders[index];
    const double seconds = std::max(0.0, s.left) * 8 / m_rates[index].rateBps;
    if (!(seconds < 1e6))
    {
        m_ends.Remove(index);
        return; // (a rate too small to end the message in a run: stalled)
    }
    // At least a nanosecond ahead: an end found not quite done is retried
    // later, never again at the same instant.
    const auto ns = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(seconds * 1e9)));
    m_ends.Set(index, nowNs + ns);
}

void
FluidNetwork::Post(RdmaQueuePair* qp, uint64_t seq, uint64_t bytes)
{
    // (no logging: called once per message)
    const uint32_t index = SenderOf(qp);
    const int64_t now = Simulator::Now().GetNanoSeconds();
    Enqueue(index, Message{seq, bytes, OnWire(bytes, m_senders[index].mtu), now}, now);
}

void
FluidNetwork::Enqueue(uint32_t index, const Message& m, int64_t now)
{
    Sender& s = m_senders[index];
    if (s.active)
    {
        // it goes after the messages before it, at the flow's rate
        s.waiting.push_back(m);
        return;
    }
    // (the head message lives in the sender, which the flow's start and
    // end touch anyway: no other memory per message in the common case)
    s.head = m;
    s.active = true;
    s.left = m.wire;
    s.sinceNs = now;
    m_rates[index].rateBps = 0;
    ++m_activeFlows;
    m_peakFlows = std::max(m_peakFlows, m_activeFlows);
    m_rates[index].cls = s.cls;
    Attach(index);
    if (m_linksDown > 0 || s.hops == 0)
    {
        NoteCut(index, now);
    }
    if (!m_shared)
    {
        SetRate(index, PathRate(index), now);
        ScheduleNextEnd();
        return;
    }
    if (JoinWithoutChange(index))
    {
        ScheduleNextEnd();
        return;
    }
    MarkDirty(index);
    ScheduleUpdate();
}

double
FluidNetwork::PathRate(uint32_t index) const
{
    const Hops path = Path(m_senders[index]);
    if (path.empty())
    {
        return 0;
    }
    double rate = std::numeric_limits<double>::infinity();
    for (uint32_t l : path)
    {
        rate = std::min(rate, Capacity(l));
    }
    return rate;
}

void
FluidNetwork::PriorityChanged(Ptr<RdmaQueuePair> qp)
{
    NS_LOG_FUNCTION(this << qp);
    const uint32_t src = HostOf(qp->GetNic()->GetAddress());
    if (src == NONE)
    {
        return;
    }
    const uint32_t index = FindSender(src, qp->GetQpn());
    if (index == NONE)
    {
        return; // (its first message reads the class)
    }
    Sender& s = m_senders[index];
    if (s.qp == qp)
    {
        s.cls = qp->GetPriority();
    }
    if (s.active)
    {
        MarkDirty(index);
        ScheduleUpdate();
    }
}

void
FluidNetwork::ScheduleUpdate()
{
    // (a flag, not m_update.IsExpired(): asking the simulator costs more)
    if (!m_updatePending)
    {
        m_updatePending = true;
        m_update = Simulator::ScheduleNow(&FluidNetwork::Update, this);
    }
}

double
FluidNetwork::NextRate(uint32_t index) const
{
    const FlowRate& r = m_rates[index];
    return r.seen == m_visit ? r.next : r.rateBps;
}

bool
FluidNetwork::HeldAt(uint32_t link, uint32_t index)
{
    Link& l = m_links[link];
    const uint8_t rank = m_allocator.GetRank(m_rates[index].cls);
    LinkStamp& st = l.check;
    if (st.stamp != m_pass || st.rank != rank)
    {
        // What the classes up to this one take of the link, and the
        // largest rate of this one on it.
        double load = 0;
        double top = 0;
        for (const auto& f : l.flows)
        {
            const uint8_t r = m_allocator.GetRank(m_rates[f.first].cls);
            if (r <= rank)
            {
                const double rate = NextRate(f.first);
                load += rate;
                if (r == rank)
                {
                    top = std::max(top, rate);
                }
            }
        }
        st.stamp = m_pass;
        st.rank = rank;
        st.load = load;
        st.top = top;
    }
    const double capacity = Capacity(link);
    return st.load >= capacity * (1 - 2e-9) && NextRate(index) >= st.top * (1 - 1e-12);
}

bool
FluidNetwork::Bottlenecked(uint32_t index)
{
    const Hops path = Path(m_senders[index]);
    if (path.empty())
    {
        return true; // (rate 0, and no link to give it more)
    }
    // The link that held it last time first: it usually still does. (Which
    // link is asked first changes nothing but the work: HeldAt only caches.)
    FlowRate& r = m_rates[index];
    const uint32_t first = r.hint;
    if (first < path.size() && HeldAt(path[first], index))
    {
        return true;
    }
    for (uint32_t h = 0; h < path.size(); ++h)
    {
        if (h != first && HeldAt(path[h], index))
        {
            r.hint = static_cast<uint8_t>(std::min<uint32_t>(h, 255));
            return true;
        }
    }
    return false;
}

void
FluidNetwork::Grow(uint32_t index)
{
    FlowRate& r = m_rates[index];
    if (r.seen != m_visit && r.checked != m_pass)
    {
        r.checked = m_pass;
        m_grow.push_back(index);
    }
}

void
FluidNetwork::MarkChanged(const Sender& s)
{
    for (uint32_t l : Path(s))
    {
        m_links[l].changed = m_visit;
    }
}

void
FluidNetwork::Join(uint32_t index)
{
    const Sender& s = m_senders[index];
    FlowRate& r = m_rates[index];
    r.seen = m_visit;
    const uint8_t cls = s.cls;
    NS_ASSERT(cls == s.qp->GetPriority());
    if (cls != r.cls)
    {
        r.cls = cls;
        MarkChanged(s);
    }
    m_component.push_back(index);
}

void
FluidNetwork::Update()
{
    m_updatePending = false;
    if (m_dirty.empty())
    {
        return;
    }
    const int64_t now = Simulator::Now().GetNanoSeconds();
    if (!m_shared)
    {
        // each at its path's rate: only a link's state moves it
        for (uint32_t i : m_dirty)
        {
            m_senders[i].dirty = false;
            if (m_senders[i].active && m_rates[i].rateBps != PathRate(i))
            {
                SetRate(i, PathRate(i), now);
            }
        }
        m_dirty.clear();
        ScheduleNextEnd();
        return;
    }
    // The changed flows are recomputed with every other flow's rate fixed
    // (what it takes of a link is not given out). The result is the
    // max-min fair allocation (unique) when every flow has a bottleneck: a
    // link that the classes up to its own fill, on which no flow of its
    // class gets more. A flow that has none after the computation, or
    // that the recomputed flows left without one, joins them and they are
    // computed again. They grow at most to the flows that share a link
    // with a changed one, transitively (what every flow there gets is then
    // max-min fair on its own).
    ++m_visit;
    m_component.clear();
    for (uint32_t i : m_dirty)
    {
        Sender& s = m_senders[i];
        s.dirty = false;
        if (s.active && m_rates[i].seen != m_visit)
        {
            Join(i);
        }
    }
    m_dirty.clear();
    // A flow that starts takes from the flows on its full links: they join
    // at once (else the check would call them in a second round).
    ++m_pass;
    const std::size_t changed = m_component.size();
    for (std::size_t k = 0; k < changed; ++k)
    {
        const Sender& s = m_senders[m_component[k]];
        if (m_rates[m_component[k]].rateBps != 0)
        {
            continue;
        }
        for (uint32_t l : Path(s))
        {
            const Link& link = m_links[l];
            if (link.loadBps >= Capacity(l) * (1 - 1e-8))
            {
                for (const auto& f : link.flows)
                {
                    Grow(f.first);
                }
            }
        }
    }
    for (uint32_t i : m_grow)
    {
        Join(i);
    }
    m_grow.clear();
    ++m_rateUpdates;
    while (true)
    {
        ++m_pass;
        m_flowsAllocated += m_component.size();
        m_demands.resize(m_component.size());
        m_touched.clear();
        for (std::size_t k = 0; k < m_component.size(); ++k)
        {
            const Sender& s = m_senders[m_component[k]];
            MaxMinAllocator::Demand& d = m_demands[k];
            d.links = Path(s).data();
            d.hops = static_cast<uint32_t>(Path(s).size());
            d.cls = m_rates[m_component[k]].cls;
            d.weight = 1;
            // what the flows not recomputed take of a link stays theirs:
            // all its load but the recomputed flows' rates
            const double rate = m_rates[m_component[k]].rateBps;
            for (uint32_t l : Path(s))
            {
                Link& link = m_links[l];
                if (link.seen != m_pass)
                {
                    link.seen = m_pass;
                    m_touched.push_back(l);
                    m_residual[l] = Capacity(l) - link.loadBps;
                }
                m_residual[l] += rate;
            }
        }
        for (uint32_t l : m_touched)
        {
            m_allocator.SetResidual(l, std::max(0.0, m_residual[l]));
        }
        m_allocator.Allocate(m_demands);
        for (std::size_t k = 0; k < m_component.size(); ++k)
        {
            FlowRate& f = m_rates[m_component[k]];
            f.next = m_demands[k].rate;
            if (f.next != f.rateBps)
            {
                MarkChanged(m_senders[m_component[k]]);
            }
        }
        // Check the bottlenecks: of the recomputed flows, and of the others
        // on their links (the others keep theirs elsewhere).
        m_grow.clear();
        for (uint32_t i : m_component)
        {
            if (Bottlenecked(i))
            {
                continue;
            }
            // held back by flows not recomputed: they join
            for (uint32_t l : Path(m_senders[i]))
            {
                const Link& link = m_links[l];
                double load = 0;
                for (const auto& f : link.flows)
                {
                    load += NextRate(f.first);
                }
                if (load >= Capacity(l) * (1 - 1e-8))
                {
                    for (const auto& f : link.flows)
                    {
                        Grow(f.first);
                    }
                }
            }
        }
        // (where no rate or class moved, every other flow keeps its bottleneck)
        for (uint32_t l : m_touched)
        {
            if (m_links[l].changed != m_visit)
            {
                continue;
            }
            for (const auto& f : m_links[l].flows)
            {
                FlowRate& o = m_rates[f.first];
                if (o.seen != m_visit && o.checked != m_pass)
                {
                    const bool held = Bottlenecked(f.first);
                    o.checked = m_pass;
                    if (!held)
                    {
                        m_grow.push_back(f.first);
                    }
                }
            }
        }
        if (m_grow.empty())
        {
            break;
        }
        for (uint32_t i : m_grow)
        {
            Join(i);
        }
    }
    for (std::size_t k = 0; k < m_component.size(); ++k)
    {
        const uint32_t i = m_component[k];
        if (m_demands[k].rate != m_rates[i].rateBps || m_rates[i].rateBps == 0)
        {
            SetRate(i, m_demands[k].rate, now);
        }
    }
    ScheduleNextEnd();
}

void
FluidNetwork::ScheduleNextEnd()
{
    // (m_nextAtNs >= 0 while m_next is pending: MessageEnd clears it)
    if (m_ends.Empty())
    {
        if (m_nextAtNs >= 0)
        {
            m_next.Cancel();
            m_nextAtNs = -1;
        }
        return;
    }
    const int64_t at = m_ends.Top().at;
    if (at == m_nextAtNs)
    {
        return;
    }
    if (m_nextAtNs >= 0)
    {
        m_next.Cancel();
    }
    m_nextAtNs = at;
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_next = Simulator::Schedule(NanoSeconds(std::max<int64_t>(0, at - now)),
                                 &FluidNetwork::MessageEnd,
                                 this);
}

void
FluidNetwork::MessageEnd()
{
    const int64_t now = Simulator::Now().GetNanoSeconds();
    m_nextAtNs = -1;
    while (!m_ends.Empty() && m_ends.Top().at <= now)
    {
        const uint32_t sender = m_ends.Top().id;
        m_ends.Pop();
        Sender& s = m_senders[sender];
        // (a flow leaves the heap when it stops: SetRate(0) or a stall)
        NS_ASSERT_MSG(s.active, "FluidNetwork: an end of an idle flow");
        Settle(sender, now);
        // Done when what is left would take under half a nanosecond.
        if (s.left * 8 > m_rates[sender].rateBps * 0.5e-9 + 1e-6)
        {
            PushEnd(sender, now); // (rounding): not quite yet
            continue;
        }
        FinishHead(sender);
        if (s.active)
        {
            s.left = s.head.wire;
            PushEnd(sender, now); // the next message, at the same rate
            continue;
        }
        // The flow ends: the full links it leaves may give others more.
        --m_activeFlows;
        for (uint32_t l : Path(s))
        {
            LeaveLink(l, sender);
        }
        SetRate(sender, 0, now);
        Detach(sender);
        if (s.cutSinceNs >= 0 && m_lost.count(sender) == 0)
        {
            s.cutSinceNs = -1; // (a cut at this instant: nothing of it waits on the path)
        }
    }
    if (!m_dirty.empty() && !m_updatePending)
    {
        // every end of this instant is in: recompute now rather than in an
        // event of its own (a pending update, of a message posted at this
        // instant, does it with them)
        Update();
        return;
    }
    ScheduleNextEnd();
}

void
FluidNetwork::FinishHead(uint32_t index)
{
    Sender& s = m_senders[index];
    const Message m = s.head;
    // The first packet's store-and-forward time on every hop but the
    // slowest, whose time the fluid has already counted.
    const double firstBits = 8.0 * (std::min<uint64_t>(m.bytes, s.mtu) + m_packetOverhead);
    double delay = s.propagationS + firstBits * (s.perBitS - s.slowestPerBitS);
    if (!m_shared && m.bytes > s.mtu)
    {
        // A lower bound needs the exact pipeline: after the slowest hop
        // the last packet, shorter, is the one that waits.
        const double lastBits = 8.0 * ((m.bytes - 1) % s.mtu + 1 + m_packetOverhead);
        double after = 0;
        for (uint32_t l : Path(s))
        {
            const double perBit = 1.0 / m_links[l].bps;
            after = perBit >= s.slowestPerBitS ? 0 : after + perBit;
        }
        delay -= (firstBits - lastBits) * after;
    }
    ++s.inFlight;
    Simulator::Schedule(FromSeconds(delay),
                        &FluidNetwork::Deliver,
                        this,
                        index,
                        m.seq,
                        m.bytes,
                        m.postedNs);
    if (s.waiting.empty())
    {
        s.active = false;
        s.left = 0;
    }
    else
    {
        s.head = s.waiting.front();
        s.waiting.pop_front();
    }
}

void
FluidNetwork::Deliver(uint32_t index, uint64_t seq, uint64_t bytes, int64_t postedNs)
{
    Sender& s = m_senders[index];
    if (m_linksDown > 0 && MetTheCut(s, false))
    {
        // its last bytes met the cut: lost, sent again when the path returns
        Lose(index, Lost{Message{seq, bytes, OnWire(bytes, s.mtu), postedNs}, false});
        return;
    }
    ++m_messagesDelivered;
    m_bytesDelivered += bytes;
    if (!TraceIsEmpty(m_deliveredTrace, 0))
    {
        m_deliveredTrace(s.src, s.dst, bytes, NanoSeconds(postedNs));
    }
    Ptr<RdmaQueuePair> peer = s.peer;
    if (s.qp->HasSendCompletionCallback())
    {
        const double ackS = s.propagationS + 8.0 * m_ackBytes * s.perBitS;
        Simulator::Schedule(FromSeconds(ackS), &FluidNetwork::Acknowledge, this, index, seq, bytes);
    }
    else
    {
        // nobody waits for the ACK
        --s.inFlight;
        ReleaseIfGone(s);
    }
    peer->DeliverOffloaded(bytes);
}

void
FluidNetwork::Acknowledge(uint32_t index, uint64_t seq, uint64_t bytes)
{
    Sender& s = m_senders[index];
    if (m_linksDown > 0 && MetTheCut(s, true))
    {
        // the ACK met the cut (on the cable the data crossed): the receiver
        // has the message, the sender waits for the path to learn of it
        Lose(index, Lost{Message{seq, bytes, 0, 0}, true});
        return;
    }
    Ptr<RdmaQueuePair> qp = s.qp;
    --s.inFlight;
    ReleaseIfGone(s);
    qp->CompleteOffloaded(seq, bytes);
}

} // namespace ns3
