/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "ib-bth-header.h"
#include "ib-reth-header.h"
#include "rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/traffic-class.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
/// No NAK outstanding.
constexpr uint64_t NO_NAK = std::numeric_limits<uint64_t>::max();
} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddTraceSource("Posted",
                            "A message was posted for sending (sequence number, bytes).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_postedTrace),
                            "ns3::RdmaQueuePair::MessageTracedCallback")
            .AddTraceSource("Delivered",
                            "A message was fully received, in order, and handed to the "
                            "receive completion handler (sequence number, bytes).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_deliveredTrace),
                            "ns3::RdmaQueuePair::MessageTracedCallback");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_qpn(0),
      m_peerQpn(0),
      m_prio(0),
      m_pendingPrio(0),
      m_prioChanges(0),
      m_srcPort(0),
      m_mtu(4096),
      m_retryCount(7),
      m_state(RTS),
      m_int(false),
      m_rtt(false),
      m_txMsg(0),
      m_nextSeq(0),
      m_postedEnd(0),
      m_sndUna(0),
      m_sndNxt(0),
      m_maxSent(0),
      m_bytesPosted(0),
      m_completedBytes(0),
      m_ackedBytes(0),
      m_active(false),
      m_winBlocked(false),
      m_rtoArmed(false),
      m_retransmitted(0),
      m_timeouts(0),
      m_retries(0),
      m_errorCompletions(0),
      m_ePsn(0),
      m_nakPsn(NO_NAK),
      m_unacked(0),
      m_rxSeq(0),
      m_rxMsgBytes(0),
      m_bytesReceived(0),
      m_rxRepairs(0),
      m_cnpSent(false),
      m_echoInt(false),
      m_echoTs(false),
      m_ceSinceAck(false)
{
    NS_LOG_FUNCTION(this);
}

RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_rto.Cancel();
    m_rtoArmed = false;
    if (m_cc)
    {
        m_cc->Dispose();
    }
    m_cc = nullptr;
    m_nic = nullptr;
    m_sendDone = CompletionCallback();
    m_recvDone = CompletionCallback();
    m_error = ErrorCallback();
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(Ptr<RdmaNic> nic,
                     uint32_t qpn,
                     uint8_t prio,
                     uint16_t srcPort,
                     Ptr<RdmaCongestionControl> cc)
{
    m_nic = nic;
    m_qpn = qpn;
    m_prio = prio;
    m_pendingPrio = prio;
    m_srcPort = srcPort;
    m_mtu = nic->GetMtu();
    if (cc)
    {
        AttachCongestionControl(cc);
    }
    m_rtoValue = nic->GetRetransmitTimeout();
    m_retryCount = nic->m_retryCount;
}

void
RdmaQueuePair::AttachCongestionControl(Ptr<RdmaCongestionControl> cc)
{
    m_cc = cc;
    m_cc->SetRateIncreaseCallback(MakeCallback(&RdmaQueuePair::RateIncreased, this));
    m_int = cc->UsesInt();
    m_rtt = cc->UsesRtt();
}

void
RdmaQueuePair::SetPeer(Ipv4Address addr, uint32_t qpn)
{
    m_peerAddr = addr;
    m_peerQpn = qpn;
}

uint64_t
RdmaQueuePair::PostSend(uint64_t bytes, bool rdmaWrite)
{
    return Post(bytes, rdmaWrite, nullptr);
}

uint64_t
RdmaQueuePair::PostSend(uint64_t bytes, const JobStepTag& tag, bool rdmaWrite)
{
    return Post(bytes, rdmaWrite, &tag);
}

uint64_t
RdmaQueuePair::Post(uint64_t bytes, bool rdmaWrite, const JobStepTag* tag)
{
    NS_LOG_FUNCTION(this << bytes << rdmaWrite);
    const uint64_t seq = m_nextSeq++;
    m_postedTrace(seq, bytes);
    if (m_state == ERR)
    {
        // A queue pair in error completes new work requests as flushed.
        Simulator::ScheduleNow(&RdmaQueuePair::CompleteInError, this, seq, bytes, FLUSHED);
        return seq;
    }
    if (m_nic->m_offload)
    {
        m_bytesPosted += bytes;
        m_nic->m_offload->Post(this, seq, bytes);
        return seq;
    }
    if (!m_cc)
    {
        AttachCongestionControl(m_nic->CreateCongestionControl());
    }
    const uint32_t packets = bytes == 0 ? 1 : static_cast<uint32_t>((bytes + m_mtu - 1) / m_mtu);
    m_msgs.push_back(Message{seq,
                             bytes,
                             m_postedEnd,
                             packets,
                             rdmaWrite,
                             tag != nullptr,
                             tag ? *tag : JobStepTag()});
    m_postedEnd += packets;
    m_bytesPosted += bytes;
    m_nic->NotifyHasData(this);
    return seq;
}

void
RdmaQueuePair::DeliverOffloaded(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    m_bytesReceived += bytes;
    const uint64_t seq = m_rxSeq++;
    m_deliveredTrace(seq, bytes);
    if (!m_recvDone.IsNull())
    {
        m_recvDone(this, seq, bytes);
    }
}

void
RdmaQueuePair::CompleteOffloaded(uint64_t seq, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << seq << bytes);
    if (m_state == ERR)
    {
        return; // (its messages completed in error when it gave up)
    }
    if (!m_sendDone.IsNull())
    {
        m_sendDone(this, seq, bytes);
    }
}

void
RdmaQueuePair::FailOffloaded(const std::vector<std::pair<uint64_t, uint64_t>>& messages)
{
    NS_LOG_FUNCTION(this << messages.size());
    Ptr<RdmaQueuePair> self = this; // a handler may destroy the queue pair
    m_timeouts += m_retryCount + 1;
    m_retries = m_retryCount;
    EnterError(); // (the offload holds the messages: none are here)
    for (std::size_t i = 0; i < messages.size(); ++i)
    {
        CompleteInError(messages[i].first, messages[i].second, i == 0 ? RETRY_EXCEEDED : FLUSHED);
    }
}

void
RdmaQueuePair::SetSendCompletionCallback(CompletionCallback cb)
{
    m_sendDone = cb;
}

bool
RdmaQueuePair::HasSendCompletionCallback() const
{
    return !m_sendDone.IsNull();
}

void
RdmaQueuePair::SetReceiveCompletionCallback(CompletionCallback cb)
{
    m_recvDone = cb;
}

void
RdmaQueuePair::SetErrorCallback(ErrorCallback cb)
{
    m_error = cb;
}

RdmaQueuePair::State
RdmaQueuePair::GetState() const
{
    return m_state;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

Ipv4Address
RdmaQueuePair::GetPeerAddress() const
{
    return m_peerAddr;
}

uint8_t
RdmaQueuePair::GetPriority() const
{
    return m_prio;
}

void
RdmaQueuePair::SetPriority(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    NS_ABORT_MSG_IF(prio >= TrafficClass::N_CLASSES,
                    "RdmaQueuePair::SetPriority: class " << +prio << " out of range");
    m_pendingPrio = prio;
    ApplyPendingPriority();
}

uint8_t
RdmaQueuePair::GetPendingPriority() const
{
    return m_pendingPrio;
}

uint64_t
RdmaQueuePair::GetPriorityChanges() const
{
    return m_prioChanges;
}

void
RdmaQueuePair::ApplyPendingPriority()
{
    // Every PSN ever sent acknowledged (m_sndNxt == m_sndUna as well): no
    // packet of the old class can still be in the fabric.
    if (m_pendingPrio == m_prio || m_sndUna < m_maxSent)
    {
        return;
    }
    const uint8_t old = m_prio;
    m_prio = m_pendingPrio;
    ++m_prioChanges;
    if (m_nic)
    {
        m_nic->NotifyPriorityChanged(this, old);
    }
}

uint16_t
RdmaQueuePair::GetSourcePort() const
{
    return m_srcPort;
}

bool
RdmaQueuePair::SetSourcePort(uint16_t port)
{
    NS_LOG_FUNCTION(this << port);
    if (HasOutstanding())
    {
        return false;
    }
    m_srcPort = port;
    return true;
}

Ptr<RdmaNic>
RdmaQueuePair::GetNic() const
{
    return m_nic;
}

Ptr<RdmaCongestionControl>
RdmaQueuePair::GetCongestionControl()
{
    if (!m_cc && m_nic)
    {
        AttachCongestionControl(m_nic->CreateCongestionControl());
    }
    return m_cc;
}

bool
RdmaQueuePair::HasDataToSend() const
{
    return m_sndNxt < m_postedEnd;
}

bool
RdmaQueuePair::HasOutstanding() const
{
    return m_sndUna < m_postedEnd;
}

uint64_t
RdmaQueuePair::GetBytesPosted() const
{
    return m_bytesPosted;
}

uint64_t
RdmaQueuePair::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
RdmaQueuePair::GetRetransmittedPackets() const
{
    return m_retransmitted;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaQueuePair::GetErrorCompletions() const
{
    return m_errorCompletions;
}

RdmaQueuePair::Counters&
RdmaQueuePair::Counters::operator+=(const Counters& o)
{
    retransmitted += o.retransmitted;
    repairsReceived += o.repairsReceived;
    timeouts += o.timeouts;
    errorCompletions += o.errorCompletions;
    return *this;
}

RdmaQueuePair::Counters
RdmaQueuePair::GetCounters() const
{
    Counters c;
    c.retransmitted = m_retransmitted;
    c.repairsReceived = m_rxRepairs;
    c.timeouts = m_timeouts;
    c.errorCompletions = m_errorCompletions;
    return c;
}

Time
RdmaQueuePair::GetRetransmitTimeout() const
{
    return m_rtoValue;
}

Time
RdmaQueuePair::GetGiveUpTime() const
{
    return m_rtoValue * static_cast<int64_t>(m_retryCount + 1);
}

uint64_t
RdmaQueuePair::GetRepairRetransmissionsReceived() const
{
    return m_rxRepairs;
}

uint64_t
RdmaQueuePair::Unwrap(uint32_t psn, uint64_t ref)
{
    const uint64_t mask = IbBthHeader::PSN_MASK;
    const uint64_t delta = (psn - ref) & mask;
    // Within half the PSN space ahead of ref, otherwise behind it.
    if (delta < (mask + 1) / 2)
    {
        return ref + delta;
    }
    const uint64_t back = (mask + 1) - delta;
    return ref >= back ? ref - back : 0;
}

Ptr<Packet>
RdmaQueuePair::BuildNextPacket(uint32_t& payload, bool& retransmitted)
{
    const Message& msg = m_msgs[m_txMsg];
    const uint64_t psn = m_sndNxt;
    const uint64_t index = psn - msg.firstPsn;
    const bool first = index == 0;
    const bool last = index + 1 == msg.packets;
    payload = last ? static_cast<uint32_t>(msg.bytes - index * m_mtu) : m_mtu;
    uint8_t opcode;
    if (msg.write)
    {
        opcode = first && last ? IbBthHeader::RDMA_WRITE_ONLY
                 : first       ? IbBthHeader::RDMA_WRITE_FIRST
                 : last        ? IbBthHeader::RDMA_WRITE_LAST
                               : IbBthHeader::RDMA_WRITE_MIDDLE;
    }
    else
    {
        opcode = first && last ? IbBthHeader::SEND_ONLY
                 : first       ? IbBthHeader::SEND_FIRST
                 : last        ? IbBthHeader::SEND_LAST
                               : IbBthHeader::SEND_MIDDLE;
    }
    Ptr<Packet> p = Create<Packet>(payload + IbBthHeader::ICRC_BYTES);
    if (m_int)
    {
        p->AddHeader(IntHeader(m_nic->m_intMaxHops, m_nic->m_intMultiplier));
    }
    if (msg.write && first)
    {
        IbRethHeader reth;
        reth.SetVirtualAddress(index * m_mtu);
        reth.SetRKey(m_peerQpn);
        reth.SetDmaLength(static_cast<uint32_t>(msg.bytes));
        p->AddHeader(reth);
    }
    // An ACK for the last packet of a message, and for the packet that fills
    // the congestion control's window: the receiver coalesces ACKs, and a
    // window of fewer packets than its interval would wait for one forever.
    const uint64_t window = m_cc->GetWindowBytes();
    const bool windowFull = window != 0 && (psn + 1 - m_sndUna) * m_mtu >= window;
    IbBthHeader bth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(m_peerQpn);
    bth.SetAckReq(last || windowFull);
    bth.SetPsn(static_cast<uint32_t>(psn));
    p->AddHeader(bth);
    if (msg.tagged)
    {
        p->AddPacketTag(msg.tag);
    }

    retransmitted = psn < m_maxSent;
    if (retransmitted)
    {
        ++m_retransmitted;
        m_nic->m_retransmitTrace(m_qpn, static_cast<uint32_t>(psn));
    }
    ++m_sndNxt;
    m_maxSent = std::max(m_maxSent, m_sndNxt);
    if (last)
    {
        ++m_txMsg;
    }
    ArmRto();
    return p;
}

void
RdmaQueuePair::ArmRto()
{
    if (m_rtoArmed || m_rtoValue.IsZero())
    {
        return; // running, or no timer (local ACK timeout 0: infinite)
    }
    m_rtoArmed = true;
    m_rtoDeadline = Simulator::Now() + m_rtoValue;
    // One pending event per queue pair: an ACK that restarts the timer only
    // moves the deadline, and the event, when it comes, waits for it.
    if (m_rto.IsExpired())
    {
        m_rto = Simulator::Schedule(m_rtoValue, &RdmaQueuePair::RtoTimerFired, this);
    }
}

void
RdmaQueuePair::RtoTimerFired()
{
    if (!m_rtoArmed)
    {
        return;
    }
    const Time now = Simulator::Now();
    if (now < m_rtoDeadline)
    {
        m_rto = Simulator::Schedule(m_rtoDeadline - now, &RdmaQueuePair::RtoTimerFired, this);
        return;
    }
    m_rtoArmed = false;
    RetransmitTimeout();
}

void
RdmaQueuePair::RetransmitTimeout()
{
    NS_LOG_FUNCTION(this);
    if (!HasOutstanding())
    {
        return;
    }
    ++m_timeouts;
    if (m_retries >= m_retryCount)
    {
        EnterError();
        return;
    }
    ++m_retries;
    m_sndNxt = m_sndUna;
    m_txMsg = 0;
    m_nic->NotifyHasData(this);
}

void
RdmaQueuePair::RateIncreased()
{
    if (m_nextTxTime <= Simulator::Now())
    {
        return;
    }
    // The gap after the last packet, at the new rate.
    const double line = static_cast<double>(m_nic->GetDevice()->GetDataRate().GetBitRate());
    const double rate = m_cc->GetRateBps();
    const Time next =
        rate >= line
            ? m_lastTxStart + m_lastTxWire
            : m_lastTxStart + Time::FromDouble(m_lastTxWire.GetSeconds() * line / rate, Time::S);
    if (next < m_nextTxTime)
    {
        m_nextTxTime = next;
        m_nic->NotifyHasData(this);
    }
}

void
RdmaQueuePair::EnterError()
{
    NS_LOG_FUNCTION(this);
    m_state = ERR;
    m_rto.Cancel();
    m_rtoArmed = false;
    // Nothing is left to send or to wait for.
    m_sndUna = m_postedEnd;
    m_sndNxt = m_postedEnd;
    m_txMsg = 0;
    CompactFifo<Message> flushed;
    flushed.swap(m_msgs);
    m_nic->NotifyQpError(this);
    ApplyPendingPriority();
    // Completions in posting order; a handler may destroy the queue pair,
    // whose disposal is deferred by the NIC.
    Ptr<RdmaQueuePair> self = this;
    for (std::size_t i = 0; i < flushed.size(); ++i)
    {
        CompleteInError(flushed[i].seq, flushed[i].bytes, i == 0 ? RETRY_EXCEEDED : FLUSHED);
    }
}

void
RdmaQueuePair::CompleteInError(uint64_t seq, uint64_t bytes, WcStatus status)
{
    ++m_errorCompletions;
    if (!m_error.IsNull())
    {
        m_error(this, seq, bytes, status);
    }
}

void
RdmaQueuePair::ReceiveAck(uint32_t psn24,
                          bool nak,
                          const IntHeader* intHeader,
                          Time rtt,
                          uint8_t hops,
                          bool ece)
{
    NS_LOG_FUNCTION(this << psn24 << nak);
    if (m_state == ERR)
    {
        return;
    }
    // An ACK carries the last PSN received in order; a NAK the expected one.
    uint64_t next = Unwrap(psn24, m_sndUna);
    if (!nak)
    {
        next += 1;
    }
    if (next > m_maxSent)
    {
        return; // acknowledges what was never sent: stale or corrupt
    }
    const bool progress = next > m_sndUna;
    if (progress)
    {
        m_sndUna = next;
        m_retries = 0;
        while (!m_msgs.empty() && m_msgs.front().firstPsn + m_msgs.front().packets <= m_sndUna)
        {
            const Message done = m_msgs.front();
            m_msgs.pop_front();
            m_completedBytes += done.bytes;
            if (m_txMsg > 0)
            {
                --m_txMsg;
            }
            if (!m_sendDone.IsNull())
            {
                m_sendDone(this, done.seq, done.bytes);
            }
        }
        // restart the timer
        m_rtoArmed = false;
        if (HasOutstanding())
        {
            ArmRto();
        }
        if (m_pendingPrio != m_prio)
        {
            ApplyPendingPriority();
        }
    }
    if (m_sndNxt < m_sndUna)
    {
        m_sndNxt = m_sndUna;
        m_txMsg = 0;
    }
    if (nak && next >= m_sndUna && m_sndNxt > next)
    {
        // go back to the first PSN the receiver is missing
        m_sndNxt = next;
        m_txMsg = 0;
        while (m_txMsg < m_msgs.size() &&
               m_msgs[m_txMsg].firstPsn + m_msgs[m_txMsg].packets <= m_sndNxt)
        {
            ++m_txMsg;
        }
        m_nic->NotifyHasData(this);
    }
    // Every ACK reaches the congestion control, with what it says.
    uint64_t acked = m_completedBytes;
    if (!m_msgs.empty() && m_sndUna > m_msgs.front().firstPsn)
    {
        const Message& front = m_msgs.front();
        acked += std::min<uint64_t>((m_sndUna - front.firstPsn) * m_mtu, front.bytes);
    }
    RdmaCongestionControl::AckEvent ev;
    ev.nextPsn = next;
    ev.sndNxt = m_sndNxt;
    ev.ackedBytes = acked > m_ackedBytes ? acked - m_ackedBytes : 0;
    ev.inFlightBytes = (m_sndNxt - m_sndUna) * m_mtu;
    ev.rtt = rtt;
    ev.intHeader = intHeader;
    ev.hops = hops;
    ev.nak = nak;
    ev.ece = ece;
    m_ackedBytes = std::max(m_ackedBytes, acked);
    m_cc->OnAck(ev);
    if (m_winBlocked && HasDataToSend())
    {
        // the window may have opened: acknowledged bytes, or a larger window
        m_winBlocked = false;
        m_nic->NotifyHasData(this);
    }
}

void
RdmaQueuePair::ReceiveData(const IbBthHeader& bth,
                           uint32_t payload,
                           bool ce,
                           bool retransmitted,
                           const IntHeader* intHeader)
{
    if (m_state == ERR)
    {
        return;
    }
    uint32_t ackInterval = m_nic->m_ackInterval;
    if (intHeader)
    {
        // echoed by every ACK or NAK from now on
        m_rxInt = *intHeader;
        m_echoInt = true;
        ackInterval = m_nic->m_intAckInterval;
    }
    if (ce)
    {
        m_ceSinceAck = true;
        const Time now = Simulator::Now();
        if (!m_cnpSent || now >= m_lastCnp + m_nic->m_cnpInterval)
        {
            m_cnpSent = true;
            m_lastCnp = now;
            m_nic->SendCnp(this);
        }
    }
    const uint64_t psn = Unwrap(bth.GetPsn(), m_ePsn);
    if (psn == m_ePsn)
    {
        m_rxRepairs += retransmitted ? 1 : 0;
        ++m_ePsn;
        m_nakPsn = NO_NAK;
        m_bytesReceived += payload;
        m_rxMsgBytes += payload;
        const uint8_t op = bth.GetOpcode();
        const bool last = IbBthHeader::IsLast(op) || IbBthHeader::IsOnly(op);
        if (last)
        {
            const uint64_t bytes = m_rxMsgBytes;
            const uint64_t seq = m_rxSeq++;
            m_rxMsgBytes = 0;
            m_deliveredTrace(seq, bytes);
            if (!m_recvDone.IsNull())
            {
                m_recvDone(this, seq, bytes);
            }
        }
        if (++m_unacked >= ackInterval || bth.GetAckReq())
        {
            m_unacked = 0;
            m_nic->SendAck(this, m_ePsn - 1, false, m_rxSeq);
        }
    }
    else if (psn < m_ePsn)
    {
        // duplicate after a go-back-N: tell the sender where we are
        if (m_ePsn > 0)
        {
            m_nic->SendAck(this, m_ePsn - 1, false, m_rxSeq);
        }
    }
    else if (m_nakPsn != m_ePsn)
    {
        m_nakPsn = m_ePsn;
        m_nic->SendAck(this, m_ePsn, true, m_rxSeq);
    }
}

} // namespace ns3
