/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-nic.h"

#include "ib-aeth-header.h"
#include "ib-bth-header.h"
#include "ib-reth-header.h"
#include "int-header.h"
#include "rdma-timestamp-tag.h"

#include "ns3/abort.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/trace-is-empty.h"
#include "ns3/traffic-class.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");

NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
/// QP numbers 0 and 1 are reserved by InfiniBand; ours start here.
constexpr uint32_t QPN_BASE = 2;
/// EtherType of IPv4.
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;

/// True when tid is a registered type and base or one of its subclasses (a
/// factory set from a misspelt name holds type 0, whose parent is unknown).
bool
IsTypeOf(TypeId tid, TypeId base)
{
    return tid.GetUid() != 0 && (tid == base || tid.IsChildOf(base));
}

} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<PfcEgress>()
            .SetGroupName("Flux")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "Path MTU: payload bytes per packet (256, 512, 1024, 2048 or 4096).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("AckInterval",
                          "The receiver acknowledges every this many in-order packets, and "
                          "every packet that asks for an ACK (the last of each message).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("IntAckInterval",
                          "The receiver acknowledges every this many in-order packets that "
                          "carry INT (HPCC wants feedback per packet: 1).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_intAckInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("IntMaxHops",
                          "Hop records an INT header has room for (8 bytes each, after a "
                          "4-byte fixed part), for congestion controls that use INT.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&RdmaNic::m_intMaxHops),
                          MakeUintegerChecker<uint8_t>(1, IntHeader::MAX_HOPS))
            .AddAttribute("AckTimeout",
                          "Local ACK timeout of new queue pairs, as InfiniBand's 5-bit "
                          "exponent t: a queue pair without acknowledged progress for "
                          "4.096 us x 2^t goes back to its oldest unacknowledged PSN "
                          "(0: no timer). Default 20 (4.3 s), NCCL's NCCL_IB_TIMEOUT.",
                          UintegerValue(20),
                          MakeUintegerAccessor(&RdmaNic::m_ackTimeout),
                          MakeUintegerChecker<uint8_t>(0, 31))
            .AddAttribute("RetryCount",
                          "Timeouts in a row without acknowledged progress that a queue "
                          "pair retries before it enters the error state (retry_cnt, "
                          "0..7). Default 7, NCCL's NCCL_IB_RETRY_CNT.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaNic::m_retryCount),
                          MakeUintegerChecker<uint32_t>(0, 7))
            .AddAttribute("RetransmitTimeout",
                          "Retransmission timeout of new queue pairs given as a time, "
                          "in place of AckTimeout's powers of two (0: use AckTimeout).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CnpInterval",
                          "Minimum time between two CNPs for one queue pair, 0 for a CNP per "
                          "marked packet (as the HPCC simulator signals every marked packet; "
                          "4 us in NVIDIA NICs, MIN_TIME_BETWEEN_CNPS; 50 us in the DCQCN "
                          "paper).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ControlPriority",
                          "Traffic class of ACK and NAK packets.",
                          UintegerValue(TrafficClass::CONTROL),
                          MakeUintegerAccessor(&RdmaNic::m_ctrlPrio),
                          MakeUintegerChecker<uint8_t>(0, TrafficClass::N_CLASSES - 1))
            .AddAttribute("CnpPriority",
                          "Traffic class of CNP packets (the HPCC simulator keeps them in the "
                          "highest class even when its ACKs share the data's).",
                          UintegerValue(TrafficClass::CONTROL),
                          MakeUintegerAccessor(&RdmaNic::m_cnpPrio),
                          MakeUintegerChecker<uint8_t>(0, TrafficClass::N_CLASSES - 1))
            .AddAttribute("CongestionControl",
                          "TypeId (and attributes) of the congestion control of new queue "
                          "pairs: a registered algorithm's (RdmaCongestionControl::"
                          "GetAlgorithms(), flux-run --list-cc); ns3::RdmaCongestionControl "
                          "is none: line rate.",
                          StringValue("ns3::DcqcnCongestionControl"),
                          MakeObjectFactoryAccessor(&RdmaNic::m_ccFactory),
                          MakeObjectFactoryChecker())
            .AddAttribute("QpArbiter",
                          "TypeId (and attributes) of the arbiter that picks the queue pair "
                          "whose data packet goes next (ns3::RoundRobinQpArbiter: one packet "
                          "per queue pair in turn; ns3::ClassQpArbiter: by class precedence, "
                          "deficit round robin within a class). Read by Setup().",
                          StringValue("ns3::RoundRobinQpArbiter"),
                          MakeObjectFactoryAccessor(&RdmaNic::m_arbiterFactory),
                          MakeObjectFactoryChecker())
            .AddTraceSource("DataRx",
                            "A data packet arrived (QPN, payload bytes, one-way latency).",
                            MakeTraceSourceAccessor(&RdmaNic::m_dataRxTrace),
                            "ns3::RdmaNic::DataRxTracedCallback")
            .AddTraceSource("CnpRx",
                            "A CNP arrived for a local queue pair (QPN).",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpRxTrace),
                            "ns3::RdmaNic::QpnTracedCallback")
            .AddTraceSource("Retransmit",
                            "A packet was sent again by go-back-N (QPN, PSN).",
                            MakeTraceSourceAccessor(&RdmaNic::m_retransmitTrace),
                            "ns3::RdmaNic::RetransmitTracedCallback")
            .AddTraceSource("QpError",
                            "A queue pair exhausted its retries and entered the error "
                            "state (QPN).",
                            MakeTraceSourceAccessor(&RdmaNic::m_qpErrorTrace),
                            "ns3::RdmaNic::QpnTracedCallback")
            .AddTraceSource("PriorityChanged",
                            "A queue pair's new traffic class took effect (QPN, old class, "
                            "new class); see RdmaQueuePair::SetPriority.",
                            MakeTraceSourceAccessor(&RdmaNic::m_prioChangedTrace),
                            "ns3::RdmaNic::PriorityChangedTracedCallback");
    return tid;
}

RdmaNic::RdmaNic()
    : m_mtu(4096),
      m_ackInterval(4),
      m_intAckInterval(1),
      m_intMaxHops(5),
      m_intMultiplier(1),
      m_intBytes(0),
      m_ackTimeout(20),
      m_retryCount(7),
      m_ctrlPrio(TrafficClass::CONTROL),
      m_cnpPrio(TrafficClass::CONTROL),
      m_ipId(0),
      m_dataSent(0),
      m_cnpsSent(0),
      m_cnpsReceived(0),
      m_naksSent(0),
      m_ceReceived(0),
      m_qpErrors(0),
      m_bytesReceivedClosed(0)
{
    NS_LOG_FUNCTION(this);
    m_ccFactory.SetTypeId("ns3::DcqcnCongestionControl");
    m_arbiterFactory.SetTypeId("ns3::RoundRobinQpArbiter");
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wake.Cancel();
    for (auto& qp : m_qps)
    {
        if (qp)
        {
            qp->Dispose();
        }
    }
    m_qps.clear();
    if (m_arbiter)
    {
        m_arbiter->Dispose();
        m_arbiter = nullptr;
    }
    m_ctrlQueue.clear();
    m_cnpQueue.clear();
    m_offload = nullptr;
    if (m_device)
    {
        m_device->SetIpv4Receiver(nullptr);
    }
    m_device = nullptr;
    PfcEgress::DoDispose();
}

void
RdmaNic::Setup(Ptr<PfcNetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    NS_ABORT_MSG_IF(!device, "RdmaNic::Setup: no device (a null PfcNetDevice)");
    NS_ABORT_MSG_UNLESS(m_mtu >= 256 && m_mtu <= 4096 && (m_mtu & (m_mtu - 1)) == 0,
                        "RdmaNic: Mtu " << m_mtu
                                        << " is not an InfiniBand path MTU (256, 512, 1024, "
                                           "2048 or 4096)");
    // A misspelt TypeId name leaves a factory without a type (Debian's
    // optimised ns-3 does not check LookupByName): say so before Create.
    NS_ABORT_MSG_UNLESS(IsTypeOf(m_ccFactory.GetTypeId(), RdmaCongestionControl::GetTypeId()),
                        "RdmaNic: CongestionControl is not an RdmaCongestionControl TypeId "
                        "(RdmaCongestionControl::GetAlgorithms(), flux-run --list-cc)");
    NS_ABORT_MSG_UNLESS(IsTypeOf(m_arbiterFactory.GetTypeId(), RdmaQpArbiter::GetTypeId()),
                        "RdmaNic: QpArbiter is not an RdmaQpArbiter TypeId");
    {
        // Whether the algorithm reads INT is a property of its type: one
        // probe per type, not per NIC (an algorithm object with its
        // attributes costs as much to build as the rest of the NIC).
        static std::map<TypeId, bool> usesInt;
        const TypeId tid = m_ccFactory.GetTypeId();
        auto it = usesInt.find(tid);
        if (it == usesInt.end())
        {
            Ptr<RdmaCongestionControl> probe = m_ccFactory.Create<RdmaCongestionControl>();
            it = usesInt.emplace(tid, probe->UsesInt()).first;
            probe->Dispose();
        }
        m_intBytes = it->second ? IntHeader::SizeFor(m_intMaxHops) : 0;
    }
    // units of the INT counters scale with the line rate, as in HPCC
    m_intMultiplier = static_cast<uint8_t>(
        std::clamp<uint64_t>(device->GetDataRate().GetBitRate() / 25000000000ULL, 1, 255));
    // The largest packet: IPv4, UDP, BTH, RETH, INT, a path-MTU payload and ICRC.
    const uint32_t largest = WireBytes::IP_UDP + IbBthHeader::SIZE + IbRethHeader::SIZE +
                             m_intBytes + m_mtu + IbBthHeader::ICRC_BYTES;
    if (device->GetMtu() < largest)
    {
        throw std::invalid_argument("RdmaNic: the port's Mtu (" + std::to_string(device->GetMtu()) +
                                    " bytes) cannot carry a " + std::to_string(m_mtu) +
                                    "-byte RDMA payload (" + std::to_string(largest) +
                                    " bytes of IPv4 packet)");
    }
    m_device = device;
    m_address = address;
    if (!m_arbiter)
    {
        m_arbiter = m_arbiterFactory.Create<RdmaQpArbiter>();
    }
    device->SetEgress(this);
    device->SetIpv4Receiver(this);
}

Ipv4Address
RdmaNic::GetAddress() const
{
    return m_address;
}

Ptr<PfcNetDevice>
RdmaNic::GetDevice() const
{
    return m_device;
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

Time
RdmaNic::AckTimeoutToTime(uint8_t exponent)
{
    if (exponent == 0)
    {
        return Time(0);
    }
    return NanoSeconds(uint64_t{4096} << (exponent & 31));
}

Time
RdmaNic::GetRetransmitTimeout() const
{
    return m_rto.IsStrictlyPositive() ? m_rto : AckTimeoutToTime(m_ackTimeout);
}

Ptr<RdmaQueuePair>
RdmaNic::CreateQueuePair(uint8_t prio, uint16_t srcPort)
{
    NS_LOG_FUNCTION(this << +prio << srcPort);
    NS_ABORT_MSG_IF(prio > TrafficClass::MAX_DATA,
                    "RdmaNic: traffic class "
                        << +prio << " is not a data class (0-" << +TrafficClass::MAX_DATA << "; "
                        << +TrafficClass::CONTROL << " carries ACKs, NAKs and CNPs)");
    // With a message offload no packet is sent: the queue pair makes its
    // congestion control when it is first asked for.
    Ptr<RdmaCongestionControl> cc = m_offload ? nullptr : CreateCongestionControl();
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    const uint32_t qpn = QPN_BASE + static_cast<uint32_t>(m_qps.size());
    NS_ABORT_MSG_IF(qpn > IbBthHeader::QP_MASK, "RdmaNic: out of 24-bit QP numbers");
    qp->Setup(this, qpn, prio, srcPort, cc);
    m_qps.push_back(qp);
    return qp;
}

Ptr<RdmaCongestionControl>
RdmaNic::CreateCongestionControl()
{
    Ptr<RdmaCongestionControl> cc = m_ccFactory.Create<RdmaCongestionControl>();
    cc->SetMtu(m_mtu);
    cc->Init(m_device->GetDataRate());
    return cc;
}

void
RdmaNic::Connect(Ptr<RdmaQueuePair> a, Ptr<RdmaQueuePair> b)
{
    a->SetPeer(b->GetNic()->GetAddress(), b->GetQpn());
    b->SetPeer(a->GetNic()->GetAddress(), a->GetQpn());
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaNic::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, uint8_t prio, uint16_t srcPort)
{
    Ptr<RdmaQueuePair> a = src->CreateQueuePair(prio, srcPort);
    Ptr<RdmaQueuePair> b = dst->CreateQueuePair(prio, srcPort);
    Connect(a, b);
    return {a, b};
}

void
RdmaNic::DestroyQueuePair(Ptr<RdmaQueuePair> qp)
{
    NS_LOG_FUNCTION(this << qp);
    const uint32_t index = qp->GetQpn() - QPN_BASE;
    if (index >= m_qps.size() || m_qps[index] != qp)
    {
        return;
    }
    m_closed += qp->GetCounters();
    m_bytesReceivedClosed += qp->GetBytesReceived();
    m_qps[index] = nullptr;
    if (m_offload)
    {
        m_offload->QueuePairDestroyed(PeekPointer(qp));
    }
    if (qp->m_active)
    {
        m_arbiter->Remove(PeekPointer(qp));
        qp->m_active = false;
    }
    // The caller may be inside one of the queue pair's callbacks.
    Simulator::ScheduleNow(&RdmaQueuePair::Dispose, qp);
}

Ptr<RdmaQueuePair>
RdmaNic::GetQueuePair(uint32_t qpn) const
{
    return Lookup(qpn);
}

RdmaQueuePair*
RdmaNic::Lookup(uint32_t qpn) const
{
    const uint32_t index = qpn - QPN_BASE;
    return index < m_qps.size() ? PeekPointer(m_qps[index]) : nullptr;
}

void
RdmaNic::NotifyQpError(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp);
    ++m_qpErrors;
    m_qpErrorTrace(qp->m_qpn);
}

void
RdmaNic::NotifyPriorityChanged(RdmaQueuePair* qp, uint8_t oldClass)
{
    NS_LOG_FUNCTION(this << qp << +oldClass);
    if (qp->m_active)
    {
        m_arbiter->ClassChanged(qp, oldClass);
    }
    m_prioChangedTrace(qp->m_qpn, oldClass, qp->m_prio);
    if (m_offload)
    {
        m_offload->PriorityChanged(qp);
        return;
    }
    if (qp->HasDataToSend() && m_device)
    {
        m_device->Wake();
    }
}

Ptr<RdmaQpArbiter>
RdmaNic::GetQpArbiter() const
{
    return m_arbiter;
}

void
RdmaNic::SetMessageOffload(Ptr<RdmaMessageOffload> offload)
{
    NS_LOG_FUNCTION(this << offload);
    m_offload = offload;
}

Ptr<RdmaMessageOffload>
RdmaNic::GetMessageOffload() const
{
    return m_offload;
}

void
RdmaNic::NotifyHasData(RdmaQueuePair* qp)
{
    if (!qp->m_active)
    {
        qp->m_active = true;
        m_arbiter->Activate(qp);
    }
    if (m_device)
    {
        m_device->Wake();
    }
}

Ptr<QueueDiscItem>
RdmaNic::Encapsulate(Ptr<Packet> p,
                     const RdmaQueuePair* qp,
                     uint8_t prio,
                     bool ect,
                     uint8_t dscpFlags)
{
    UdpHeader udp;
    udp.SetSourcePort(qp->m_srcPort);
    udp.SetDestinationPort(IbBthHeader::UDP_PORT);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(m_address);
    ip.SetDestination(qp->m_peerAddr);
    ip.SetProtocol(17);
    ip.SetTtl(TTL);
    ip.SetIdentification(m_ipId++);
    ip.SetDontFragment();
    ip.SetPayloadSize(p->GetSize());
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(TrafficClass::ToDscp(prio) | dscpFlags));
    ip.SetEcn(ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT);
    return Create<Ipv4QueueDiscItem>(p, Address(), ETHERTYPE_IPV4, ip);
}

void
RdmaNic::SendAck(RdmaQueuePair* qp, uint64_t psn, bool nak, uint64_t msn)
{
    Ptr<Packet> p = Create<Packet>(IbBthHeader::ICRC_BYTES);
    IbAethHeader aeth;
    if (nak)
    {
        aeth.SetNak();
        ++m_naksSent;
    }
    else
    {
        aeth.SetAck();
    }
    aeth.SetMsn(static_cast<uint32_t>(msn));
    uint8_t dscpFlags = 0;
    if (qp->m_echoInt)
    {
        p->AddHeader(qp->m_rxInt);
        dscpFlags |= IntHeader::DSCP_INT_ECHO;
    }
    if (qp->m_ceSinceAck)
    {
        qp->m_ceSinceAck = false;
        dscpFlags |= DSCP_ECN_ECHO;
    }
    if (qp->m_echoTs)
    {
        // the send time of the data packet that caused this ACK
        qp->m_echoTs = false;
        p->AddPacketTag(RdmaTimestampTag(qp->m_rxTs));
    }
    p->AddHeader(aeth);
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::ACKNOWLEDGE);
    bth.SetDestQp(qp->m_peerQpn);
    bth.SetPsn(static_cast<uint32_t>(psn));
    p->AddHeader(bth);
    m_ctrlQueue.push_back(Encapsulate(p, qp, m_ctrlPrio, false, dscpFlags));
    m_device->Wake();
}

void
RdmaNic::SendCnp(RdmaQueuePair* qp)
{
    Ptr<Packet> p = Create<Packet>(IbBthHeader::CNP_PAYLOAD_BYTES + IbBthHeader::ICRC_BYTES);
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::CNP);
    bth.SetDestQp(qp->m_peerQpn);
    p->AddHeader(bth);
    ++m_cnpsSent;
    m_cnpQueue.push_back(Encapsulate(p, qp, m_cnpPrio, false));
    m_device->Wake();
}

Ptr<QueueDiscItem>
RdmaNic::DequeueForTransmit(uint8_t pausedMask)
{
    if (!m_cnpQueue.empty() && !(pausedMask & TrafficClass::Bit(m_cnpPrio)))
    {
        Ptr<QueueDiscItem> item = m_cnpQueue.front();
        m_cnpQueue.pop_front();
        return item;
    }
    if (!m_ctrlQueue.empty() && !(pausedMask & TrafficClass::Bit(m_ctrlPrio)))
    {
        Ptr<QueueDiscItem> item = m_ctrlQueue.front();
        m_ctrlQueue.pop_front();
        return item;
    }
    const Time now = Simulator::Now();
    Time earliest = Time::Max();
    RdmaQueuePair* qp = m_arbiter->Next(pausedMask, now, earliest);
    if (qp)
    {
        uint32_t payload = 0;
        bool retransmitted = false;
        Ptr<Packet> p = qp->BuildNextPacket(payload, retransmitted);
        p->AddPacketTag(RdmaTimestampTag(now, retransmitted, qp->m_rtt));
        Ptr<QueueDiscItem> item =
            Encapsulate(p, qp, qp->m_prio, true, qp->m_int ? IntHeader::DSCP_INT : 0);
        ++m_dataSent;
        // Pace: the next packet of this queue pair leaves when this one
        // would have finished at the queue pair's rate.
        const uint32_t frame = item->GetSize() + WireBytes::L2;
        const double rate = qp->m_cc->GetRateBps();
        const double line = static_cast<double>(m_device->GetDataRate().GetBitRate());
        if (rate < line)
        {
            const Time wire = m_device->GetFrameTxTime(frame);
            qp->m_nextTxTime = now + Time::FromDouble(wire.GetSeconds() * line / rate, Time::S);
            qp->m_lastTxStart = now;
            qp->m_lastTxWire = wire;
        }
        qp->m_cc->OnSent(frame);
        m_arbiter->NotifySent(qp, frame);
        return item;
    }
    if (earliest != Time::Max())
    {
        ScheduleWake(earliest);
    }
    return nullptr;
}

bool
RdmaNic::HasPending() const
{
    return !m_ctrlQueue.empty() || !m_cnpQueue.empty() || m_arbiter->HasActive();
}

void
RdmaNic::ScheduleWake(Time when)
{
    if (!m_wake.IsExpired())
    {
        if (Simulator::GetDelayLeft(m_wake) + Simulator::Now() <= when)
        {
            return;
        }
        m_wake.Cancel();
    }
    m_wake = Simulator::Schedule(when - Simulator::Now(), &RdmaNic::WakeDevice, this);
}

void
RdmaNic::WakeDevice()
{
    m_device->Wake();
}

void
RdmaNic::ReceiveIpv4(Ptr<PfcNetDevice> dev, Ptr<Packet> p, Ipv4Header& ip, uint8_t prio)
{
    if (ip.GetProtocol() != 17)
    {
        return;
    }
    UdpHeader udp;
    p->RemoveHeader(udp);
    if (udp.GetDestinationPort() != IbBthHeader::UDP_PORT)
    {
        return;
    }
    IbBthHeader bth;
    p->RemoveHeader(bth);
    RdmaQueuePair* qp = Lookup(bth.GetDestQp());
    if (!qp)
    {
        return;
    }
    const uint8_t op = bth.GetOpcode();
    if (op == IbBthHeader::ACKNOWLEDGE)
    {
        IbAethHeader aeth;
        p->RemoveHeader(aeth);
        const uint8_t dscp = ip.GetDscp();
        const bool ece = (dscp & DSCP_ECN_ECHO) != 0;
        const auto hops = static_cast<uint8_t>(TTL - std::min<uint8_t>(ip.GetTtl(), TTL));
        Time rtt(-1);
        if (qp->m_rtt)
        {
            RdmaTimestampTag ts;
            if (p->PeekPacketTag(ts))
            {
                rtt = Simulator::Now() - ts.GetTimestamp();
            }
        }
        if (dscp & IntHeader::DSCP_INT_ECHO)
        {
            IntHeader ih;
            p->RemoveHeader(ih);
            qp->ReceiveAck(bth.GetPsn(), aeth.IsNak(), &ih, rtt, hops, ece);
            return;
        }
        qp->ReceiveAck(bth.GetPsn(), aeth.IsNak(), nullptr, rtt, hops, ece);
        return;
    }
    if (op == IbBthHeader::CNP)
    {
        ++m_cnpsReceived;
        m_cnpRxTrace(qp->m_qpn);
        qp->m_cc->OnCnp();
        return;
    }
    if (IbBthHeader::HasReth(op))
    {
        IbRethHeader reth;
        p->RemoveHeader(reth);
    }
    std::optional<IntHeader> ih;
    if (ip.GetDscp() & IntHeader::DSCP_INT)
    {
        ih.emplace();
        p->RemoveHeader(*ih);
    }
    const uint32_t payload = p->GetSize() - IbBthHeader::ICRC_BYTES;
    const bool ce = ip.GetEcn() == Ipv4Header::ECN_CE;
    if (ce)
    {
        ++m_ceReceived;
    }
    RdmaTimestampTag ts;
    const bool tagged = p->PeekPacketTag(ts);
    if (tagged && !TraceIsEmpty(m_dataRxTrace, 0))
    {
        m_dataRxTrace(qp->m_qpn, payload, Simulator::Now() - ts.GetTimestamp());
    }
    if (tagged && ts.IsEchoRequested())
    {
        qp->m_echoTs = true;
        qp->m_rxTs = ts.GetTimestamp();
    }
    qp->ReceiveData(bth, payload, ce, tagged && ts.IsRetransmitted(), ih ? &*ih : nullptr);
}

uint64_t
RdmaNic::GetDataPacketsSent() const
{
    return m_dataSent;
}

RdmaQueuePair::Counters
RdmaNic::GetCounters() const
{
    RdmaQueuePair::Counters c = m_closed;
    for (const auto& qp : m_qps)
    {
        if (qp)
        {
            c += qp->GetCounters();
        }
    }
    return c;
}

uint64_t
RdmaNic::GetRetransmittedPackets() const
{
    return GetCounters().retransmitted;
}

uint64_t
RdmaNic::GetTimeouts() const
{
    return GetCounters().timeouts;
}

uint64_t
RdmaNic::GetQpErrors() const
{
    return m_qpErrors;
}

uint64_t
RdmaNic::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaNic::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
RdmaNic::GetNaksSent() const
{
    return m_naksSent;
}

uint64_t
RdmaNic::GetCeReceived() const
{
    return m_ceReceived;
}

uint64_t
RdmaNic::GetBytesReceived() const
{
    uint64_t n = m_bytesReceivedClosed;
    for (const auto& qp : m_qps)
    {
        n += qp ? qp->GetBytesReceived() : 0;
    }
    return n;
}

} // namespace ns3
