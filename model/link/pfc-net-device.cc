/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-net-device.h"

#include "ethernet-ipv4-header.h"
#include "ethernet-vlan-header.h"
#include "pfc-channel.h"
#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <typeinfo>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcNetDevice");

NS_OBJECT_ENSURE_REGISTERED(PfcNetDevice);

/**
 * \brief Accessor of the per-frame trace sources (MacTx, MacRx, Sniffer,
 * PromiscSniffer): that of the TracedCallback, which also records in the
 * device that a sink was connected.
 *
 * The device fires these traces for every frame only once a sink has been
 * connected through its TypeId (TraceConnect, Config::Connect, pcap
 * helpers): checking a flag beside the transmit state is cheaper than
 * reading four callback lists that live in cache lines of their own.
 */
class PfcNetDevice::FrameTraceAccessor : public TraceSourceAccessor
{
  public:
    /** \param inner the accessor of the TracedCallback */
    explicit FrameTraceAccessor(Ptr<const TraceSourceAccessor> inner)
        : m_inner(inner)
    {
    }

    bool ConnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        Mark(obj);
        return m_inner->ConnectWithoutContext(obj, cb);
    }

    bool Connect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        Mark(obj);
        return m_inner->Connect(obj, context, cb);
    }

    bool DisconnectWithoutContext(ObjectBase* obj, const CallbackBase& cb) const override
    {
        return m_inner->DisconnectWithoutContext(obj, cb);
    }

    bool Disconnect(ObjectBase* obj, std::string context, const CallbackBase& cb) const override
    {
        return m_inner->Disconnect(obj, context, cb);
    }

  private:
    /**
     * \brief Record in the device that its frame traces have a sink.
     * \param obj the device
     */
    static void Mark(ObjectBase* obj)
    {
        auto* dev = dynamic_cast<PfcNetDevice*>(obj);
        if (dev)
        {
            dev->m_frameTraced = true;
        }
    }

    Ptr<const TraceSourceAccessor> m_inner; //!< the TracedCallback's accessor
};

namespace
{
/// EtherType of IPv4.
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
/// Smallest Ethernet frame without its FCS.
constexpr uint32_t MIN_FRAME_BYTES = 60;
/// The broadcast MAC address, as EthernetVlanHeader::MacToBits() gives it.
constexpr uint64_t BROADCAST_BITS = 0xffffffffffffULL;
} // namespace

TypeId
PfcNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Flux")
            .AddConstructor<PfcNetDevice>()
            .AddAttribute(
                "DataRate",
                "Line rate of the port.",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&PfcNetDevice::SetDataRate, &PfcNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("Mtu",
                          "Largest IPv4 packet the port carries (a jumbo frame by default, "
                          "as RoCE fabrics with a 4096-byte path MTU need).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&PfcNetDevice::SetMtu, &PfcNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(68))
            .AddAttribute("WireOverhead",
                          "Bytes each frame occupies on the line beyond the frame itself: "
                          "preamble and SFD (8), inter-frame gap (12) and FCS (4); at most "
                          "65535 (the frame lengths the links and switches add it to are "
                          "32-bit).",
                          UintegerValue(WireBytes::PREAMBLE_IFG + WireBytes::FCS),
                          MakeUintegerAccessor(&PfcNetDevice::m_wireOverhead),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("PfcEnabled",
                          "Send and honour 802.1Qbb PFC frames.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PfcNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Quanta (512 bit times each) of the pauses this port sends; "
                          "they are refreshed at half their duration while needed.",
                          UintegerValue(0xffff),
                          MakeUintegerAccessor(&PfcNetDevice::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute(
                "Watchdog",
                "The PFC watchdog of the port's priorities (none by default); "
                "each device needs its own.",
                PointerValue(),
                MakePointerAccessor(&PfcNetDevice::SetWatchdog, &PfcNetDevice::GetWatchdog),
                MakePointerChecker<PfcWatchdog>())
            .AddAttribute("ReceiveErrorModel",
                          "Loss model of frames arriving at this port (none by default).",
                          PointerValue(),
                          MakePointerAccessor(&PfcNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("PhyRxDrop",
                            "A frame was lost by the receive error model.",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource(
                "MacTx",
                "A frame was put on the line.",
                Create<FrameTraceAccessor>(MakeTraceSourceAccessor(&PfcNetDevice::m_macTxTrace)),
                "ns3::Packet::TracedCallback")
            .AddTraceSource(
                "MacRx",
                "A frame was received.",
                Create<FrameTraceAccessor>(MakeTraceSourceAccessor(&PfcNetDevice::m_macRxTrace)),
                "ns3::Packet::TracedCallback")
            .AddTraceSource(
                "Sniffer",
                "Frames sent and received, for non-promiscuous captures.",
                Create<FrameTraceAccessor>(MakeTraceSourceAccessor(&PfcNetDevice::m_snifferTrace)),
                "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Frames sent and received, for promiscuous captures (pcap).",
                            Create<FrameTraceAccessor>(
                                MakeTraceSourceAccessor(&PfcNetDevice::m_promiscSnifferTrace)),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcTx",
                            "A PFC frame was queued for one priority (quanta 0 = resume).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcTxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcRx",
                            "A PFC frame paused or resumed one priority (quanta 0 = resume).",
                            MakeTraceSourceAccessor(&PfcNetDevice::m_pfcRxTrace),
                            "ns3::PfcNetDevice::PfcTracedCallback");
    return tid;
}

PfcNetDevice::PfcNetDevice()
{
    NS_LOG_FUNCTION(this);
    m_rxHeader.SetIpv4Sink(&m_rxIp);
}

PfcNetDevice::~PfcNetDevice() = default;

const Ipv4QueueDiscItem*
PfcNetDevice::AsIpv4Item(const QueueDiscItem* item)
{
    // dynamic_cast across shared libraries compares type names: remember the
    // last dynamic type that converted, so that the usual case is one
    // pointer comparison.
    const std::type_info& type = typeid(*item);
    if (&type == m_ipv4ItemType)
    {
        return static_cast<const Ipv4QueueDiscItem*>(item);
    }
    const auto* ipItem = dynamic_cast<const Ipv4QueueDiscItem*>(item);
    if (ipItem)
    {
        m_ipv4ItemType = &type;
    }
    return ipItem;
}

void
PfcNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    if (m_pauseTimers)
    {
        for (uint8_t p = 0; p < N_PRIORITIES; ++p)
        {
            m_pauseTimers->expiry[p].Cancel();
            m_pauseTimers->refresh[p].Cancel();
        }
    }
    m_node = nullptr;
    m_channel = nullptr;
    m_egress = nullptr;
    m_txCompleteEvent = nullptr;
    m_receiveErrorModel = nullptr;
    if (m_watchdog)
    {
        m_watchdog->Dispose();
        m_watchdog = nullptr;
    }
    m_ctrlQueue.clear();
    m_sendQueue.clear();
    m_rxCallback = RxCallback();
    m_ipv4RxCallback = Ipv4RxCallback();
    m_ipv4Receiver = nullptr;
    m_stdRxCallback = NetDevice::ReceiveCallback();
    m_promiscRxCallback = NetDevice::PromiscReceiveCallback();
    NetDevice::DoDispose();
}

bool
PfcNetDevice::Attach(Ptr<PfcChannel> ch)
{
    NS_LOG_FUNCTION(this << ch);
    m_channel = ch;
    m_channel->Attach(this);
    // Each end keeps the other's MAC for the frames it sends.
    Ptr<PfcNetDevice> peer = GetPeer();
    if (peer)
    {
        m_peerAddressBits = peer->m_addressBits;
        peer->m_peerAddressBits = m_addressBits;
    }
    m_linkChange();
    return true;
}

void
PfcNetDevice::SetEgress(Ptr<PfcEgress> egress)
{
    m_egress = egress;
}

Ptr<PfcEgress>
PfcNetDevice::GetEgress() const
{
    return m_egress;
}

void
PfcNetDevice::SetRxCallback(RxCallback cb)
{
    m_rxCallback = cb;
}

void
PfcNetDevice::SetIpv4RxCallback(Ipv4RxCallback cb)
{
    m_ipv4RxCallback = cb;
}

void
PfcNetDevice::SetIpv4Receiver(PfcIpv4Receiver* receiver)
{
    m_ipv4Receiver = receiver;
}

Ptr<PfcNetDevice>
PfcNetDevice::GetPeer() const
{
    return m_channel ? m_channel->GetPeer(this) : nullptr;
}

void
PfcNetDevice::SetDataRate(DataRate bps)
{
    NS_ABORT_MSG_IF(bps.GetBitRate() == 0, "PfcNetDevice: DataRate must be positive");
    m_bps = bps;
    m_psPerByte = 8e12 / bps.GetBitRate();
}

DataRate
PfcNetDevice::GetDataRate() const
{
    return m_bps;
}

uint32_t
PfcNetDevice::GetWireOverhead() const
{
    return m_wireOverhead;
}

Time
PfcNetDevice::GetFrameTxTime(uint32_t bytes) const
{
    return PicoSeconds(GetFrameTxPicoSeconds(bytes));
}

int64_t
PfcNetDevice::GetFrameTxPicoSeconds(uint32_t bytes) const
{
    const uint64_t wire = std::max(bytes, MIN_FRAME_BYTES) + m_wireOverhead;
    return static_cast<int64_t>(wire * m_psPerByte + 0.5);
}

bool
PfcNetDevice::IsBusy() const
{
    return m_picking || Simulator::Now().GetTimeStep() < m_txEnd;
}

uint8_t
PfcNetDevice::GetPausedMask() const
{
    return m_pausedMask;
}

uint8_t
PfcNetDevice::GetUpstreamPausedMask() const
{
    return m_upstreamPausedMask;
}

void
PfcNetDevice::SetWatchdog(Ptr<PfcWatchdog> watchdog)
{
    NS_LOG_FUNCTION(this << watchdog);
    if (m_watchdog == watchdog)
    {
        return;
    }
    if (m_watchdog)
    {
        m_watchdog->SetDevice(nullptr);
        for (uint8_t p = 0; p < N_PRIORITIES; ++p)
        {
            HonourPause(p);
        }
    }
    m_watchdog = watchdog;
    if (m_watchdog)
    {
        m_watchdog->SetDevice(this);
    }
}

Ptr<PfcWatchdog>
PfcNetDevice::GetWatchdog() const
{
    return m_watchdog;
}

void
PfcNetDevice::IgnorePause(uint8_t prio, bool discard)
{
    NS_LOG_FUNCTION(this << +prio << discard);
    const uint8_t bit = 1u << prio;
    m_ignoredMask |= bit;
    if (discard)
    {
        m_discardMask |= bit;
    }
    if (m_pauseTimers)
    {
        m_pauseTimers->expiry[prio].Cancel();
    }
    if (m_pausedMask & bit)
    {
        m_pausedMask &= ~bit;
        m_pfcRxTrace(prio, 0);
    }
    Wake();
}

void
PfcNetDevice::HonourPause(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    const uint8_t bit = 1u << prio;
    m_ignoredMask &= ~bit;
    m_discardMask &= ~bit;
}

uint8_t
PfcNetDevice::GetIgnoredMask() const
{
    return m_ignoredMask;
}

uint64_t
PfcNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
PfcNetDevice::GetTxFrames() const
{
    return m_txFrames;
}

uint64_t
PfcNetDevice::GetTxFrames(uint8_t cls) const
{
    return cls < N_PRIORITIES ? m_txClassFrames[cls] : 0;
}

uint64_t
PfcNetDevice::GetRxErrors() const
{
    return m_rxErrors;
}

uint64_t
PfcNetDevice::GetPfcPausesSent() const
{
    return m_pfcPausesSent;
}

uint64_t
PfcNetDevice::GetPfcPausesReceived() const
{
    return m_pfcPausesReceived;
}

void
PfcNetDevice::Wake()
{
    if (!m_picking)
    {
        TryTransmit();
    }
}

void
PfcNetDevice::TryTransmit()
{
    NS_LOG_FUNCTION(this);
    if (m_picking || !m_channel)
    {
        return;
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    if (now < m_txEnd)
    {
        // The line is busy: pick again when it is free.
        ScheduleCompletion(now);
        return;
    }
    if (!m_ctrlQueue.empty())
    {
        Ptr<Packet> frame = m_ctrlQueue.front();
        m_ctrlQueue.pop_front();
        TransmitStart(frame, now);
        return;
    }
    Ptr<QueueDiscItem> item;
    if (!m_sendQueue.empty())
    {
        item = m_sendQueue.front();
        m_sendQueue.pop_front();
    }
    else if (m_egress)
    {
        // A Wake() from inside the egress's pick must not start a second
        // transmission.
        m_picking = true;
        if (m_discardMask != 0)
        {
            DiscardStormed();
        }
        item = m_egress->DequeueForTransmit(m_pausedMask | m_discardMask);
        m_picking = false;
    }
    if (!item)
    {
        return;
    }
    uint8_t ds = 0;
    item->GetUint8Value(QueueItem::IP_DSFIELD, ds);
    // Ethernet, 802.1Q tag and IPv4 header in one header: one pass over the
    // buffer, one Packet::AddHeader.
    EthernetIpv4Header& header = m_txHeader;
    header.SetSourceBits(m_addressBits);
    header.SetDestinationBits(m_peerAddressBits);
    const uint8_t cls = TrafficClass::FromDsField(ds);
    if (m_ignoredMask != 0 && ((m_ignoredMask >> cls) & 1u))
    {
        m_watchdog->Forwarded(cls);
    }
    ++m_txClassFrames[cls];
    header.SetVlanTag(TrafficClass::ToPcp(cls));
    header.SetEtherType(ETHERTYPE_IPV4);
    Ptr<Packet> frame = item->GetPacket();
    const Ipv4QueueDiscItem* ipItem = AsIpv4Item(PeekPointer(item));
    if (ipItem && item->GetSize() != frame->GetSize())
    {
        // the IPv4 header is still apart from the packet
        header.SetIpv4(&ipItem->GetHeader());
    }
    else
    {
        item->AddHeader();
        frame = item->GetPacket();
    }
    frame->AddHeader(header);
    // (between frames the header names no IPv4 header: the item's goes with it)
    header.SetIpv4(nullptr);
    TransmitStart(frame, now);
}

void
PfcNetDevice::ScheduleCompletion(int64_t now)
{
    if (m_completionPending)
    {
        return;
    }
    m_completionPending = true;
    if (!m_txCompleteEvent)
    {
        // One event object for all the frames (one is pending at a time): no
        // allocation per frame.
        m_txCompleteEvent = Ptr<EventImpl>(MakeEvent(&PfcNetDevice::TransmitComplete, this), false);
    }
    // As Schedule() would, in the current context, without making an EventId;
    // the simulator releases this reference after the event has run.
    m_txCompleteEvent->Ref();
    Simulator::ScheduleWithContext(Simulator::GetContext(),
                                   TimeStep(m_txEnd - now),
                                   PeekPointer(m_txCompleteEvent));
}

void
PfcNetDevice::DiscardStormed()
{
    NS_LOG_FUNCTION(this << +m_discardMask);
    while (Ptr<QueueDiscItem> item = m_egress->DequeueForDiscard(m_discardMask))
    {
        m_watchdog->Discarded(item);
    }
}

void
PfcNetDevice::TransmitStart(Ptr<Packet> frame, int64_t now)
{
    NS_LOG_FUNCTION(this << frame);
    m_txBytes += frame->GetSize();
    ++m_txFrames;
    if (m_frameTraced)
    {
        m_macTxTrace(frame);
        m_snifferTrace(frame);
        m_promiscSnifferTrace(frame);
    }
    // Keep the sub-resolution remainder so that long runs keep the exact rate.
    const uint64_t wire = std::max(frame->GetSize(), MIN_FRAME_BYTES) + m_wireOverhead;
    const int64_t ps = static_cast<int64_t>(wire * m_psPerByte + 0.5) + m_txCarryPs;
    const Time txTime = PicoSeconds(ps);
    m_txCarryPs = ps - txTime.GetPicoSeconds();
    m_txEnd = now + txTime.GetTimeStep();
    m_channel->TransmitStart(frame, this, txTime);
    // The end of a frame is an event only when something may wait for it:
    // on a link that is not saturated most frames end with nothing to send,
    // and whoever brings new work during the frame calls Wake() (which
    // schedules the end then).
    if (!m_ctrlQueue.empty() || !m_sendQueue.empty() || (m_egress && m_egress->HasPending()))
    {
        ScheduleCompletion(now);
    }
}

void
PfcNetDevice::TransmitComplete()
{
    NS_LOG_FUNCTION(this);
    m_completionPending = false;
    TryTransmit();
}

void
PfcNetDevice::Receive(Ptr<Packet> p)
{
    NS_LOG_FUNCTION(this << p);
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(p))
    {
        ++m_rxErrors;
        m_phyRxDropTrace(p);
        return;
    }
    if (m_frameTraced)
    {
        m_snifferTrace(p);
        m_promiscSnifferTrace(p);
        m_macRxTrace(p);
    }
    // Ethernet and, when present, the 802.1Q tag (PCP 0 when untagged),
    // and in an IPv4 frame the IPv4 header too, in one RemoveHeader.
    // (reused headers: nothing keeps them past this call, and no frame
    // reaches this device while it handles one)
    Ipv4Header& ip = m_rxIp;
    EthernetIpv4Header& eth = m_rxHeader;
    p->RemoveHeader(eth);
    const uint16_t type = eth.GetEtherType();
    const uint8_t prio = TrafficClass::FromPcp(eth.GetPcp());
    if (type == PfcHeader::ETHERTYPE)
    {
        ReceivePfc(p);
        return;
    }
    if (type != ETHERTYPE_IPV4)
    {
        NS_LOG_LOGIC("dropping frame of EtherType " << type);
        return;
    }
    if (m_ipv4Receiver)
    {
        m_ipv4Receiver->ReceiveIpv4(this, p, ip, prio);
        return;
    }
    if (!m_ipv4RxCallback.IsNull())
    {
        m_ipv4RxCallback(this, p, ip, prio);
        return;
    }
    // The other handlers take the packet from its IPv4 header on.
    p->AddHeader(ip);
    if (!m_rxCallback.IsNull())
    {
        m_rxCallback(this, p, prio);
    }
    else if (!m_stdRxCallback.IsNull())
    {
        m_stdRxCallback(this, p, ETHERTYPE_IPV4, eth.GetSource());
    }
}

PfcNetDevice::PauseTimers&
PfcNetDevice::Timers()
{
    if (!m_pauseTimers)
    {
        m_pauseTimers = std::make_unique<PauseTimers>();
    }
    return *m_pauseTimers;
}

Time
PfcNetDevice::QuantaToTime(uint16_t quanta) const
{
    return PicoSeconds(static_cast<int64_t>(quanta * 512.0 * 1e12 / m_bps.GetBitRate()));
}

void
PfcNetDevice::SetPauseUpstream(uint8_t prio, bool pause)
{
    NS_LOG_FUNCTION(this << +prio << pause);
    const uint8_t bit = 1u << prio;
    if (!m_pfcEnabled || pause == ((m_upstreamPausedMask & bit) != 0))
    {
        return;
    }
    if (pause)
    {
        m_upstreamPausedMask |= bit;
        RefreshPause(prio);
    }
    else
    {
        m_upstreamPausedMask &= ~bit;
        Timers().refresh[prio].Cancel();
        SendPfc(bit, 0);
    }
}

void
PfcNetDevice::RefreshPause(uint8_t prio)
{
    SendPfc(1u << prio, m_pauseQuanta);
    ++m_pfcPausesSent;
    Timers().refresh[prio] = Simulator::Schedule(QuantaToTime(m_pauseQuanta) / 2,
                                                 &PfcNetDevice::RefreshPause,
                                                 this,
                                                 prio);
}

void
PfcNetDevice::SendPfc(uint8_t classEnable, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +classEnable << quanta);
    PfcHeader pfc;
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        if (classEnable & (1u << p))
        {
            pfc.SetClassEnable(pfc.GetClassEnable() | (1u << p));
            pfc.SetQuanta(p, quanta);
            m_pfcTxTrace(p, quanta);
        }
    }
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetIpv4Header eth; // a link header only: the receiver removes this type
    eth.SetSourceBits(m_addressBits);
    eth.SetDestination(PfcHeader::GetMulticastAddress());
    eth.SetEtherType(PfcHeader::ETHERTYPE);
    frame->AddHeader(eth);
    m_ctrlQueue.push_back(frame);
    Wake();
}

void
PfcNetDevice::ReceivePfc(Ptr<Packet> frame)
{
    NS_LOG_FUNCTION(this << frame);
    if (!m_pfcEnabled)
    {
        return;
    }
    PfcHeader pfc;
    frame->RemoveHeader(pfc);
    if (pfc.GetOpcode() != PfcHeader::OPCODE)
    {
        return;
    }
    bool resumed = false;
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        if (!(pfc.GetClassEnable() & (1u << p)))
        {
            continue;
        }
        const uint16_t quanta = pfc.GetQuanta(p);
        if (m_ignoredMask & (1u << p))
        {
            // a stormed priority: the watchdog notes the pause, nothing stops
            if (quanta != 0)
            {
                m_watchdog->PauseIgnored(p);
            }
            continue;
        }
        m_pfcRxTrace(p, quanta);
        PauseTimers& timers = Timers();
        timers.expiry[p].Cancel();
        if (quanta == 0)
        {
            resumed = resumed || (m_pausedMask & (1u << p));
            m_pausedMask &= ~(1u << p);
        }
        else
        {
            ++m_pfcPausesReceived;
            const bool started = !(m_pausedMask & (1u << p));
            m_pausedMask |= (1u << p);
            timers.expiry[p] =
                Simulator::Schedule(QuantaToTime(quanta), &PfcNetDevice::PauseExpired, this, p);
            if (started && m_watchdog)
            {
                m_watchdog->PauseStarted(p);
            }
        }
    }
    if (resumed)
    {
        Wake();
    }
}

void
PfcNetDevice::PauseExpired(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    m_pausedMask &= ~(1u << prio);
    m_pfcRxTrace(prio, 0);
    Wake();
}

void
PfcNetDevice::NotifyLinkChange()
{
    NS_LOG_FUNCTION(this);
    if (!IsLinkUp())
    {
        for (uint8_t p = 0; m_pauseTimers && p < N_PRIORITIES; ++p)
        {
            m_pauseTimers->expiry[p].Cancel();
        }
        m_pausedMask = 0;
    }
    else
    {
        for (uint8_t p = 0; p < N_PRIORITIES; ++p)
        {
            if (m_upstreamPausedMask & (1u << p))
            {
                Timers().refresh[p].Cancel();
                RefreshPause(p);
            }
        }
    }
    m_linkChange();
    Wake();
}

// NetDevice interface

void
PfcNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
PfcNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
PfcNetDevice::GetChannel() const
{
    return m_channel;
}

void
PfcNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
    m_addressBits = EthernetVlanHeader::MacToBits(m_address);
    Ptr<PfcNetDevice> peer = GetPeer();
    if (peer)
    {
        peer->m_peerAddressBits = m_addressBits;
    }
}

Address
PfcNetDevice::GetAddress() const
{
    return m_address;
}

bool
PfcNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
PfcNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
PfcNetDevice::IsLinkUp() const
{
    return m_channel && m_channel->GetNDevices() == 2 && m_channel->IsLinkUp();
}

void
PfcNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChange.ConnectWithoutContext(callback);
}

bool
PfcNetDevice::IsBroadcast() const
{
    return true;
}

Address
PfcNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
PfcNetDevice::IsMulticast() const
{
    return true;
}

Address
PfcNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
PfcNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
PfcNetDevice::IsPointToPoint() const
{
    return true;
}

bool
PfcNetDevice::IsBridge() const
{
    return false;
}

bool
PfcNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    NS_LOG_FUNCTION(this << packet << dest << protocolNumber);
    if (protocolNumber != ETHERTYPE_IPV4 || packet->GetSize() > m_mtu)
    {
        return false;
    }
    Ipv4Header ip;
    packet->RemoveHeader(ip);
    m_sendQueue.push_back(Create<Ipv4QueueDiscItem>(packet, dest, protocolNumber, ip));
    Wake();
    return true;
}

bool
PfcNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
PfcNetDevice::GetNode() const
{
    return m_node;
}

void
PfcNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
PfcNetDevice::NeedsArp() const
{
    return false;
}

void
PfcNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_stdRxCallback = cb;
}

void
PfcNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscRxCallback = cb;
}

bool
PfcNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
