/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-switch.h"

#include "fabric-queue-disc-item.h"
#include "pfc-aware-queue-disc.h"
#include "pfc-prio-queue-disc.h"
#include "switch-port-egress.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");

NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{
/// Bytes of the Ethernet header and 802.1Q tag, charged to the buffer with each packet.
constexpr uint32_t L2_HEADER_BYTES = WireBytes::L2;

/**
 * \return a factory of the default egress queue disc
 *
 * By TypeId rather than by name: GetTypeId() may run during static
 * initialisation, before the queue disc's name is registered.
 */
ObjectFactory
DefaultQueueDiscFactory()
{
    ObjectFactory factory;
    factory.SetTypeId(PfcPrioQueueDisc::GetTypeId());
    return factory;
}

/**
 * \param factory a QueueDiscFactory
 * \return whether it makes what DefaultQueueDiscFactory() makes (same type,
 * no attribute set), the queue disc that built-in bands stand in for
 */
bool
IsDefaultQueueDisc(const ObjectFactory& factory)
{
    if (factory.GetTypeId() != PfcPrioQueueDisc::GetTypeId())
    {
        return false;
    }
    // (the default's text is the same every time: written once)
    static const std::string standard = [] {
        std::ostringstream text;
        text << DefaultQueueDiscFactory();
        return text.str();
    }();
    std::ostringstream chosen;
    chosen << factory;
    return chosen.str() == standard;
}

/** \return a factory of PFC watchdogs with their default attributes */
ObjectFactory
DefaultWatchdogFactory()
{
    ObjectFactory factory;
    factory.SetTypeId(PfcWatchdog::GetTypeId());
    return factory;
}
} // namespace

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddConstructor<FabricSwitch>()
            .AddAttribute(
                "EcmpSeed",
                "Perturbation of the 5-tuple hash that picks a member of an ECMP "
                "group. Give every switch its own seed, as real fabrics do.",
                UintegerValue(0),
                MakeUintegerAccessor(&FabricSwitch::SetEcmpSeed, &FabricSwitch::GetEcmpSeed),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("Failover",
                          "Follow the link state of the ports: a port whose link is down "
                          "leaves its ECMP groups (its queued packets are dropped) and rejoins "
                          "them when the link is back. False: keep routing onto dead links.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_failover),
                          MakeBooleanChecker())
            .AddAttribute("LinkDownDelay",
                          "Time from a port's link going down to the switch acting on it "
                          "(loss-of-signal detection; a BFD session would take about three "
                          "of its intervals). What is routed to the port meanwhile is lost.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricSwitch::m_linkDownDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("LinkUpDelay",
                          "Time from a port's link coming back to the switch routing over it "
                          "again (a hold-down against flapping links).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FabricSwitch::m_linkUpDelay),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MarkOnDequeue",
                          "Decide ECN marking when a packet leaves the egress queue, from the "
                          "queue length it leaves behind (as the HPCC simulator and many "
                          "shared-buffer switches do): the mark reaches the receiver without "
                          "waiting behind the queue it reports. False: decide when the "
                          "packet is enqueued.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_markOnDequeue),
                          MakeBooleanChecker())
            .AddAttribute("WaitEcn",
                          "On a port whose queue disc reorders the packets of a class "
                          "(FluxQueueDisc's round robin among flows), also mark a packet that "
                          "waited long: a second ECN decision, with the port's thresholds, "
                          "from the bytes the port sends in the time the packet waited. "
                          "Applies with MarkOnDequeue.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricSwitch::m_waitEcn),
                          MakeBooleanChecker())
            .AddAttribute("QueueDiscFactory",
                          "Makes the egress queue disc of each port added afterwards, e.g. "
                          "\"ns3::FifoQueueDisc[MaxSize=100000p]\".",
                          ObjectFactoryValue(DefaultQueueDiscFactory()),
                          MakeObjectFactoryAccessor(&FabricSwitch::m_queueDiscFactory),
                          MakeObjectFactoryChecker())
            .AddAttribute("NativeEgress",
                          "Ports added afterwards whose QueueDiscFactory is the default "
                          "(PfcPrioQueueDisc, no attribute set) keep their packets in eight "
                          "built-in bands served as PfcPrioQueueDisc serves them (strict "
                          "priority, paused classes skipped): the same order and results, "
                          "no QueueDisc on the path (faster on large fabrics), and "
                          "GetQueueDisc() null. False: such ports get the PfcPrioQueueDisc. "
                          "Any other QueueDiscFactory makes the port's queue disc either way.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FabricSwitch::m_nativeEgress),
                          MakeBooleanChecker())
            .AddAttribute("RouteOnly",
                          "Ports added afterwards get no egress (no queue disc nor built-in "
                          "bands, no PFC watchdog): the switch routes (GetEgressPort) but "
                          "cannot forward a packet. For the flow level, whose fluid flows "
                          "follow the switches' routes and need no queue (cheaper to build).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricSwitch::m_routeOnly),
                          MakeBooleanChecker())
            .AddAttribute("PfcWatchdog",
                          "Give every port a PFC watchdog (PfcWatchdogFactory) that detects "
                          "queues paused for too long and stops honouring their pauses for "
                          "a while.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FabricSwitch::SetPfcWatchdogEnabled,
                                              &FabricSwitch::GetPfcWatchdogEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcWatchdogFactory",
                          "Makes the ports' PFC watchdogs, e.g. "
                          "\"ns3::PfcWatchdog[DetectionTime=1ms|Action=forward]\"; read when "
                          "a watchdog is installed.",
                          ObjectFactoryValue(DefaultWatchdogFactory()),
                          MakeObjectFactoryAccessor(&FabricSwitch::m_watchdogFactory),
                          MakeObjectFactoryChecker())
            .AddAttribute("Mmu",
                          "The shared-buffer manager (read only; configure it through its "
                          "own attributes).",
                          TypeId::ATTR_GET,
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddTraceSource("Enqueue",
                            "A packet was admitted and queued at an egress port.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_enqueueTrace),
                            "ns3::FabricSwitch::PortItemTracedCallback")
            .AddTraceSource("Dequeue",
                            "A packet left an egress port's queue for the line.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dequeueTrace),
                            "ns3::FabricSwitch::PortItemTracedCallback")
            .AddTraceSource("EcnMark",
                            "The MMU had a packet marked CE (egress port; at dequeue "
                            "with MarkOnDequeue, else at enqueue).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_ecnMarkTrace),
                            "ns3::FabricSwitch::PortItemTracedCallback")
            .AddTraceSource("Drop",
                            "A packet was dropped (port, FabricSwitch::DropReason).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "ns3::FabricSwitch::DropTracedCallback")
            .AddTraceSource("PfcPause",
                            "An ingress port decided to pause a priority at its peer (XOFF).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_pauseTrace),
                            "ns3::FabricSwitch::PfcTracedCallback")
            .AddTraceSource("PfcResume",
                            "An ingress port decided to resume a priority at its peer (XON).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_resumeTrace),
                            "ns3::FabricSwitch::PfcTracedCallback")
            .AddTraceSource("LinkState",
                            "The switch acted on a port's link going down or up (port, up).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_linkStateTrace),
                            "ns3::FabricSwitch::LinkStateTracedCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
    : m_queueDiscFactory(DefaultQueueDiscFactory()),
      m_pfcWatchdog(false),
      m_watchdogFactory(DefaultWatchdogFactory()),
      m_markOnDequeue(true),
      m_ecmpSeed(0),
      m_failover(true)
{
    NS_LOG_FUNCTION(this);
    m_mmu = CreateObject<SwitchMmu>();
}

FabricSwitch::~FabricSwitch() = default;

void
FabricSwitch::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    // The ports were added one by one; a large fabric has thousands of
    // switches, and the spare capacity would be a tenth of their memory.
    m_ports.shrink_to_fit();
    m_portOfIfIndex.shrink_to_fit();
    m_mmu->ShrinkToFit();
    Object::DoInitialize();
}

void
FabricSwitch::SetEgressHook(Ptr<SwitchEgressHook> hook)
{
    NS_LOG_FUNCTION(this << hook);
    m_egressHook = hook;
}

Ptr<SwitchEgressHook>
FabricSwitch::GetEgressHook() const
{
    return m_egressHook;
}

void
FabricSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (Port& port : m_ports)
    {
        port.dev->SetIpv4Receiver(nullptr);
        if (port.egress)
        {
            port.egress->Dispose();
        }
    }
    m_ports.clear();
    m_egressHook = nullptr;
    m_portOfIfIndex.clear();
    m_routes.clear();
    m_groups.clear();
    m_memberPool.clear();
    m_memberRouted.clear();
    m_groupOfPorts.clear();
    if (m_mmu)
    {
        m_mmu->Dispose();
    }
    m_mmu = nullptr;
    Object::DoDispose();
}

uint32_t
FabricSwitch::AddPort(Ptr<PfcNetDevice> dev)
{
    NS_LOG_FUNCTION(this << dev);
    NS_ABORT_MSG_IF(!dev, "FabricSwitch::AddPort: null device");
    NS_ABORT_MSG_IF(!dev->GetNode(),
                    "FabricSwitch::AddPort: add the device to the switch's node first");
    const uint32_t port = m_ports.size();
    Port p;
    p.dev = dev;
    if (m_routeOnly)
    {
        return AddRoutePort(p);
    }
    p.egress = CreateObject<SwitchPortEgress>();
    p.egress->SetSwitchPort(this, port);
    Ptr<NetDeviceQueueInterface> ndqi = dev->GetObject<NetDeviceQueueInterface>();
    if (!ndqi)
    {
        ndqi = CreateObject<NetDeviceQueueInterface>();
        dev->AggregateObject(ndqi);
    }
    p.egress->SetNetDeviceQueueInterface(ndqi);
    if (m_nativeEgress && IsDefaultQueueDisc(m_queueDiscFactory))
    {
        p.egress->UseBuiltInBands();
    }
    else
    {
        p.egress->SetQueueDisc(m_queueDiscFactory.Create<QueueDisc>());
    }
    dev->SetEgress(p.egress);
    AddRoutePort(p);
    if (m_pfcWatchdog)
    {
        InstallWatchdog(port);
    }
    return port;
}

uint32_t
FabricSwitch::AddRoutePort(const Port& p)
{
    const uint32_t port = m_ports.size();
    Ptr<PfcNetDevice> dev = p.dev;
    m_ports.push_back(p);
    const uint32_t mmuPort = m_mmu->AddPort();
    NS_ABORT_MSG_IF(mmuPort != port, "FabricSwitch: MMU ports out of step");
    const uint32_t ifIndex = dev->GetIfIndex();
    if (m_portOfIfIndex.size() <= ifIndex)
    {
        m_portOfIfIndex.resize(ifIndex + 1, -1);
    }
    NS_ABORT_MSG_IF(m_portOfIfIndex[ifIndex] >= 0,
                    "FabricSwitch::AddPort: interface " << ifIndex << " is already a port");
    m_portOfIfIndex[ifIndex] = port;
    dev->SetIpv4Receiver(this);
    dev->AddLinkChangeCallback(MakeBoundCallback(&FabricSwitch::LinkChanged, this, port));
    return port;
}

void
FabricSwitch::SetPfcWatchdogEnabled(bool enabled)
{
    NS_LOG_FUNCTION(this << enabled);
    if (enabled == m_pfcWatchdog)
    {
        return;
    }
    m_pfcWatchdog = enabled;
    for (uint32_t port = 0; port < m_ports.size(); ++port)
    {
        if (!m_ports[port].egress)
        {
            continue; // (a route-only port: no queue to watch)
        }
        if (enabled)
        {
            InstallWatchdog(port);
        }
        else
        {
            m_ports[port].dev->SetWatchdog(nullptr);
        }
    }
}

bool
FabricSwitch::GetPfcWatchdogEnabled() const
{
    return m_pfcWatchdog;
}

void
FabricSwitch::InstallWatchdog(uint32_t port)
{
    m_ports[port].dev->SetWatchdog(m_watchdogFactory.Create<PfcWatchdog>());
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return m_ports.size();
}

Ptr<PfcNetDevice>
FabricSwitch::GetPortDevice(uint32_t port) const
{
    return m_ports.at(port).dev;
}

void
FabricSwitch::SetQueueDisc(uint32_t port, Ptr<QueueDisc> qdisc)
{
    NS_LOG_FUNCTION(this << port << qdisc);
    NS_ABORT_MSG_IF(!m_ports.at(port).egress,
                    "FabricSwitch::SetQueueDisc: port " << port << " is route-only");
    m_ports.at(port).egress->SetQueueDisc(qdisc);
}

Ptr<QueueDisc>
FabricSwitch::GetQueueDisc(uint32_t port) const
{
    const Port& p = m_ports.at(port);
    return p.egress ? p.egress->GetQueueDisc() : nullptr;
}

uint32_t
FabricSwitch::GetQueuedBytes(uint32_t port) const
{
    const Port& p = m_ports.at(port);
    return p.egress ? p.egress->GetNBytes() : 0;
}

uint32_t
FabricSwitch::GetQueuedPackets(uint32_t port) const
{
    const Port& p = m_ports.at(port);
    return p.egress ? p.egress->GetNPackets() : 0;
}

Ptr<SwitchMmu>
FabricSwitch::GetMmu() const
{
    return m_mmu;
}

uint32_t
FabricSwitch::InternGroup(const std::vector<uint32_t>& ports,
                          const std::vector<uint32_t>& withdrawn)
{
    // (a fabric's routes are set one destination switch at a time: many
    // hosts in a row with the same group)
    auto isWithdrawn = [&withdrawn](uint32_t port) {
        return std::find(withdrawn.begin(), withdrawn.end(), port) != withdrawn.end();
    };
    if (m_lastGroup < m_groups.size() && m_groups[m_lastGroup].n == ports.size())
    {
        const EcmpGroup& last = m_groups[m_lastGroup];
        bool same = true;
        for (uint32_t i = 0; i < last.n && same; ++i)
        {
            same = m_memberPool[last.first + i] == ports[i] &&
                   (m_memberRouted[last.first + i] == 0) == isWithdrawn(ports[i]);
        }
        if (same)
        {
            return m_lastGroup;
        }
    }
    std::vector<uint32_t> key = ports;
    if (!withdrawn.empty())
    {
        key.push_back(UINT32_MAX);
        key.insert(key.end(), withdrawn.begin(), withdrawn.end());
    }
    auto it = m_groupOfPorts.find(key);
    if (it != m_groupOfPorts.end())
    {
        m_lastGroup = it->second;
        return it->second;
    }
    EcmpGroup group;
    // Every group's members in one array: a switch reads them for every
    // packet, and one small array stays in the caches where a vector per
    // group would not.
    group.first = m_memberPool.size();
    group.n = ports.size();
    m_memberPool.insert(m_memberPool.end(), ports.begin(), ports.end());
    for (uint32_t port : ports)
    {
        const bool out = isWithdrawn(port);
        m_memberRouted.push_back(out ? 0 : 1);
        if (m_ports[port].up && !out)
        {
            group.live.push_back(port);
        }
    }
    m_groups.push_back(group);
    const uint32_t index = m_groups.size() - 1;
    m_groupOfPorts.emplace(key, index);
    m_lastGroup = index;
    return index;
}

void
FabricSwitch::AddRoute(Ipv4Address dst, uint32_t port)
{
    NS_LOG_FUNCTION(this << dst << port);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "FabricSwitch::AddRoute: no port " << port);
    std::vector<uint32_t> ports = GetRoute(dst);
    if (std::find(ports.begin(), ports.end(), port) == ports.end())
    {
        ports.push_back(port);
        m_routes.Set(dst.Get(), InternGroup(ports));
    }
}

void
FabricSwitch::SetRoute(Ipv4Address dst,
                       const std::vector<uint32_t>& ports,
                       const std::vector<uint32_t>& withdrawn)
{
    NS_LOG_FUNCTION(this << dst);
    if (ports.empty())
    {
        m_routes.erase(dst.Get());
        return;
    }
    for (uint32_t port : ports)
    {
        NS_ABORT_MSG_IF(port >= m_ports.size(), "FabricSwitch::SetRoute: no port " << port);
    }
    for (uint32_t port : withdrawn)
    {
        NS_ABORT_MSG_IF(std::find(ports.begin(), ports.end(), port) == ports.end(),
                        "FabricSwitch::SetRoute: withdrawn port " << port << " is no member");
    }
    m_routes.Set(dst.Get(), InternGroup(ports, withdrawn));
}

void
FabricSwitch::ClearRoutes()
{
    m_routes.clear();
    m_groups.clear();
    m_memberPool.clear();
    m_memberRouted.clear();
    m_groupOfPorts.clear();
}

std::vector<uint32_t>
FabricSwitch::GetRoute(Ipv4Address dst) const
{
    auto it = m_routes.find(dst.Get());
    if (it == m_routes.end())
    {
        return {};
    }
    const EcmpGroup& group = m_groups[it->second];
    const auto first = m_memberPool.begin() + group.first;
    return std::vector<uint32_t>(first, first + group.n);
}

std::vector<uint32_t>
FabricSwitch::GetLiveRoute(Ipv4Address dst) const
{
    auto it = m_routes.find(dst.Get());
    return it == m_routes.end() ? std::vector<uint32_t>() : m_groups[it->second].live;
}

bool
FabricSwitch::IsPortUp(uint32_t port) const
{
    return m_ports.at(port).up;
}

uint32_t
FabricSwitch::GetNRoutes() const
{
    return m_routes.size();
}

bool
FabricSwitch::SelectMember(const EcmpGroup& group, const QueueDiscItem* item, uint32_t& out) const
{
    const uint32_t* members = m_memberPool.data() + group.first;
    const uint8_t* routed = m_memberRouted.data() + group.first;
    const uint32_t n = group.n;
    if (n == 1)
    {
        out = members[0];
        return m_ports[out].up && routed[0];
    }
    // Resilient hashing: the member the hash picks among all members, or,
    // when that one is down or withdrawn, one of the live members by the
    // same hash.
    const uint32_t hash = item->Hash(m_ecmpSeed);
    out = members[hash % n];
    if (m_ports[out].up && routed[hash % n])
    {
        return true;
    }
    const std::vector<uint32_t>& live = group.live;
    if (live.empty())
    {
        return false;
    }
    out = live[(hash / n) % live.size()];
    return true;
}

int64_t
FabricSwitch::GetEgressPort(Ptr<const Ipv4QueueDiscItem> item) const
{
    auto it = m_routes.find(item->GetHeader().GetDestination().Get());
    if (it == m_routes.end())
    {
        return -1;
    }
    uint32_t out;
    return SelectMember(m_groups[it->second], PeekPointer(item), out) ? int64_t(out) : -1;
}

void
FabricSwitch::UpdateLiveMembers()
{
    for (EcmpGroup& group : m_groups)
    {
        group.live.clear();
        for (uint32_t i = 0; i < group.n; ++i)
        {
            const uint32_t port = m_memberPool[group.first + i];
            if (m_ports[port].up && m_memberRouted[group.first + i])
            {
                group.live.push_back(port);
            }
        }
    }
}

void
FabricSwitch::LinkChanged(FabricSwitch* self, uint32_t port)
{
    if (!self->m_failover || port >= self->m_ports.size())
    {
        return;
    }
    Port& p = self->m_ports[port];
    Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(p.dev->GetChannel());
    const bool up = !ch || ch->IsLinkUp();
    if (up == p.linkSeen)
    {
        return;
    }
    p.linkSeen = up;
    const Time delay = up ? self->m_linkUpDelay : self->m_linkDownDelay;
    if (delay.IsZero())
    {
        self->ApplyLinkState(port);
    }
    else
    {
        Simulator::Schedule(delay, &FabricSwitch::ApplyLinkState, self, port);
    }
}

void
FabricSwitch::ApplyLinkState(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    if (port >= m_ports.size())
    {
        return;
    }
    Port& p = m_ports[port];
    // The state now: a link that came back (or went down again) within the
    // detection delay is acted on by its own, later, event.
    if (p.linkSeen == p.up)
    {
        return;
    }
    p.up = p.linkSeen;
    ++m_stats.nLinkStateChanges;
    UpdateLiveMembers();
    if (!p.up)
    {
        FlushPort(port);
    }
    m_linkStateTrace(port, p.up);
}

void
FabricSwitch::FlushPort(uint32_t port)
{
    NS_LOG_FUNCTION(this << port);
    // A queue disc that holds an item back (a gate) keeps it: it goes to
    // the dead link later and is lost there. (A route-only port holds none.)
    if (!m_ports[port].egress)
    {
        return;
    }
    while (Ptr<QueueDiscItem> item = m_ports[port].egress->DequeueForFlush())
    {
        Drop(item, port, DROP_LINK_DOWN);
        Release(port, PeekPointer(item));
    }
}

void
FabricSwitch::SetEcmpSeed(uint32_t seed)
{
    m_ecmpSeed = seed;
}

uint32_t
FabricSwitch::GetEcmpSeed() const
{
    return m_ecmpSeed;
}

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    return m_mmu->AssignStreams(stream);
}

void
FabricSwitch::ReceiveIpv4(Ptr<PfcNetDevice> dev, Ptr<Packet> p, Ipv4Header& ip, uint8_t pcp)
{
    NS_LOG_FUNCTION(this << dev << p << +pcp);
    const uint32_t port = m_portOfIfIndex[dev->GetIfIndex()];
    ++m_stats.nRxPackets;
    const uint8_t prio = TrafficClass::FromDsField(ip.GetTos());
    const uint8_t ttl = ip.GetTtl();
    ip.SetTtl(ttl > 0 ? ttl - 1 : 0);
    const uint32_t bytes = p->GetSize() + ip.GetSerializedSize() + L2_HEADER_BYTES;
    Ptr<FabricQueueDiscItem> item = Create<FabricQueueDiscItem>(p, ip, port, prio, bytes);
    if (ttl <= 1)
    {
        Drop(item, port, DROP_TTL_EXPIRED);
        return;
    }
    auto route = m_routes.find(ip.GetDestination().Get());
    if (route == m_routes.end())
    {
        Drop(item, port, DROP_NO_ROUTE);
        return;
    }
    uint32_t out;
    if (!SelectMember(m_groups[route->second], PeekPointer(item), out))
    {
        Drop(item, port, DROP_LINK_DOWN);
        return;
    }

    switch (m_mmu->Admit(port, out, prio, bytes))
    {
    case SwitchMmu::ADMITTED:
        break;
    case SwitchMmu::DROP_BUFFER_FULL:
        Drop(item, port, DROP_BUFFER_FULL);
        return;
    default:
        Drop(item, port, DROP_HEADROOM_EXCEEDED);
        return;
    }
    if (m_mmu->CheckXoff(port, prio))
    {
        ++m_ports[port].pfcPauses;
        dev->SetPauseUpstream(prio, true);
        m_pauseTrace(port, prio);
    }
    if (!m_markOnDequeue)
    {
        MaybeMarkEcn(item, out, prio);
    }
    Port& egress = m_ports[out];
    NS_ABORT_MSG_IF(!egress.egress, "FabricSwitch: a packet for route-only port " << out);
    // A refused item was reported by the queue disc's Drop trace, which
    // released its buffer space.
    if (egress.egress->Enqueue(item))
    {
        if (m_egressHook)
        {
            m_egressHook->Enqueued(out, egress.egress->GetNBytes());
        }
        m_enqueueTrace(item, out);
        egress.dev->Wake();
    }
}

void
FabricSwitch::Drop(Ptr<const QueueDiscItem> item, uint32_t port, DropReason reason)
{
    NS_LOG_FUNCTION(this << item << port << +reason);
    ++m_stats.nDroppedPackets[reason];
    m_dropTrace(item, port, reason);
}

void
FabricSwitch::Release(uint32_t port, const QueueDiscItem* item)
{
    // Only the switch feeds its ports' queue discs.
    const auto* fitem = static_cast<const FabricQueueDiscItem*>(item);
    const uint32_t inPort = fitem->GetIngressPort();
    const uint8_t prio = fitem->GetPriority();
    m_mmu->Release(inPort, port, prio, fitem->GetChargedBytes());
    if (m_mmu->CheckXon(inPort, prio))
    {
        m_resumeTrace(inPort, prio);
        // Deferred: we may be inside a device's transmit path, and the XON
        // frame goes out through a device that may be that very one.
        Simulator::ScheduleNow(&FabricSwitch::ApplyPauseState, this, inPort, prio);
    }
}

void
FabricSwitch::ItemDequeued(uint32_t port, Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << port << item);
    Port& p = m_ports[port];
    ++p.txPackets;
    p.txBytes += item->GetSize();
    const auto* fitem = static_cast<const FabricQueueDiscItem*>(PeekPointer(item));
    if (m_egressHook)
    {
        m_egressHook->Dequeued(port,
                               p.egress->GetNBytes(),
                               p.txBytes,
                               p.dev->GetDataRate().GetBitRate(),
                               item);
    }
    Release(port, PeekPointer(item));
    if (m_markOnDequeue)
    {
        // from the queue the packet leaves behind
        MaybeMarkEcn(item, port, fitem->GetPriority());
    }
    m_dequeueTrace(item, port);
}

void
FabricSwitch::MaybeMarkEcn(const Ptr<QueueDiscItem>& item, uint32_t out, uint8_t prio)
{
    const auto* ipItem = static_cast<const Ipv4QueueDiscItem*>(PeekPointer(item));
    const Ipv4Header::EcnType ecn = ipItem->GetHeader().GetEcn();
    if (ecn != Ipv4Header::ECN_ECT0 && ecn != Ipv4Header::ECN_ECT1)
    {
        return;
    }
    bool mark = m_mmu->ShouldMarkEcn(out, prio);
    if (!mark && m_waitEcn && m_markOnDequeue && m_ports[out].egress->ReordersClass())
    {
        const Port& p = m_ports[out];
        // A queue disc that serves the flows of a class in turn delays a
        // packet by its own flow's backlog and by the classes served before
        // its own, which the class's bytes do not show: a second decision
        // judges the queue a first-in first-out port would have made it wait
        // behind, the bytes the port sends in the time it waited.
        const double waited = (Simulator::Now() - item->GetTimeStamp()).GetSeconds();
        const double bytes = waited * static_cast<double>(p.dev->GetDataRate().GetBitRate()) / 8;
        mark = m_mmu->ShouldMarkEcn(out, prio, static_cast<uint64_t>(bytes));
    }
    if (mark)
    {
        item->Mark();
        ++m_stats.nEcnMarks;
        m_ecnMarkTrace(item, out);
    }
}

void
FabricSwitch::ItemDiscarded(uint32_t port, Ptr<const QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << port << item);
    Drop(item, port, DROP_PFC_WATCHDOG);
    Release(port, PeekPointer(item));
}

void
FabricSwitch::ItemDroppedByQueueDisc(uint32_t port, Ptr<const QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << port << item);
    Drop(item, port, DROP_QUEUE_DISC);
    Release(port, PeekPointer(item));
}

void
FabricSwitch::ApplyPauseState(uint32_t port, uint8_t prio)
{
    if (port < m_ports.size())
    {
        m_ports[port].dev->SetPauseUpstream(prio, m_mmu->IsPaused(port, prio));
    }
}

uint64_t
FabricSwitch::Stats::GetNDroppedPackets() const
{
    uint64_t total = 0;
    for (uint64_t d : nDroppedPackets)
    {
        total += d;
    }
    return total;
}

uint64_t
FabricSwitch::Stats::GetNDroppedPackets(DropReason reason) const
{
    return reason < N_DROP_REASONS ? nDroppedPackets[reason] : 0;
}

FabricSwitch::Stats&
FabricSwitch::Stats::operator+=(const Stats& o)
{
    nRxPackets += o.nRxPackets;
    for (uint32_t r = 0; r < N_DROP_REASONS; ++r)
    {
        nDroppedPackets[r] += o.nDroppedPackets[r];
    }
    nEcnMarks += o.nEcnMarks;
    nQueueDiscMarks += o.nQueueDiscMarks;
    nPfcPauses += o.nPfcPauses;
    nPfcResumes += o.nPfcResumes;
    nPfcPauseFramesSent += o.nPfcPauseFramesSent;
    nLinkStateChanges += o.nLinkStateChanges;
    watchdog += o.watchdog;
    return *this;
}

FabricSwitch::Stats
FabricSwitch::GetStats() const
{
    Stats stats = m_stats;
    stats.nPfcPauses = m_mmu->GetStats().nPauses;
    stats.nPfcResumes = m_mmu->GetStats().nResumes;
    for (const Port& p : m_ports)
    {
        stats.nPfcPauseFramesSent += p.dev->GetPfcPausesSent();
        if (Ptr<PfcWatchdog> wd = p.dev->GetWatchdog())
        {
            stats.watchdog += wd->GetCounters();
        }
        if (Ptr<QueueDisc> q = p.egress ? p.egress->GetQueueDisc() : nullptr)
        {
            // (QueueDisc counts marks on the direct path too)
            stats.nQueueDiscMarks += q->GetStats().nTotalMarkedPackets;
        }
    }
    return stats;
}

uint64_t
FabricSwitch::GetPfcPauses(uint32_t port) const
{
    return m_ports.at(port).pfcPauses;
}

uint64_t
FabricSwitch::GetTxPackets(uint32_t port) const
{
    return m_ports.at(port).txPackets;
}

uint64_t
FabricSwitch::GetTxBytes(uint32_t port) const
{
    return m_ports.at(port).txBytes;
}

} // namespace ns3
