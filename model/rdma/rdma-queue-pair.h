/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "int-header.h"
#include "job-step-tag.h"
#include "rdma-congestion-control.h"

#include "ns3/callback.h"
#include "ns3/compact-fifo.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <utility>
#include <vector>

namespace ns3
{

class RdmaNic;
class IbBthHeader;
class IbAethHeader;
class Packet;

/**
 * \ingroup flux-rdma
 * \brief A reliable-connection (RC) queue pair of a RoCEv2 NIC.
 *
 * Both directions of the connection live here. The send side segments
 * posted messages (SEND or RDMA WRITE) into path-MTU packets with
 * consecutive 24-bit PSNs, asks for an ACK on each message's last packet,
 * and recovers losses by go-back-N: from the NAKed PSN on a NAK at once, and
 * from the oldest unacknowledged PSN when the local ACK timeout expires (so
 * a lost NAK or a lost tail never stalls the queue pair). As in InfiniBand,
 * RetryCount timeouts in a row without acknowledged progress move the queue
 * pair to the error state: its outstanding messages complete with an error
 * (the first with RETRY_EXCEEDED, the others FLUSHED), later posts complete
 * FLUSHED at once, and it neither sends nor accepts packets any more. The
 * receive side accepts
 * only the expected PSN, ACKs every AckInterval packets and on AckReq, sends
 * one NAK per sequence gap, answers duplicates with an ACK, and asks the NIC
 * for a CNP when a CE-marked packet arrives.
 *
 * The traffic class of the data can change during a run (SetPriority()).
 * The switches queue classes apart, so packets of a new class could
 * overtake packets of the old one still in the fabric, which the receiver
 * would take for a loss (go-back-N). A new class therefore takes effect only
 * when no packet of the queue pair is unacknowledged; until then the queue
 * pair keeps sending in its old class and the new one is pending.
 *
 * Completions play the role of CQEs: the sender's fires when all packets of
 * a message are acknowledged, the receiver's when its last packet arrives in
 * order. Messages complete in posting order on both sides.
 */
class RdmaQueuePair : public Object
{
  public:
    /**
     * \brief Completion handler: the queue pair, the message sequence number
     * on this queue pair (0, 1, ...), and the message size in bytes.
     */
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> CompletionCallback;

    /// The state of a queue pair (the InfiniBand states a connected one can be in).
    enum State
    {
        RTS, //!< ready to send (and receive)
        ERR  //!< error: retries exhausted; nothing is sent or accepted any more
    };

    /// The status of a completion in error (as verbs' work completion status).
    enum WcStatus
    {
        RETRY_EXCEEDED, //!< the message that exhausted the retries (IBV_WC_RETRY_EXC_ERR)
        FLUSHED         //!< flushed by the error state (IBV_WC_WR_FLUSH_ERR)
    };

    /**
     * \brief Error completion handler: the queue pair, the message's sequence
     * number, its size in bytes, and the status.
     */
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t, WcStatus> ErrorCallback;

    /**
     * TracedCallback signature for messages.
     * \param [in] seq the message's sequence number on the queue pair
     * \param [in] bytes its size in bytes
     */
    typedef void (*MessageTracedCallback)(uint64_t seq, uint64_t bytes);

    /// Transport counters of a queue pair, addable over queue pairs.
    struct Counters
    {
        uint64_t retransmitted{0};    //!< packets sent again by go-back-N (send side)
        uint64_t repairsReceived{0};  //!< retransmitted packets that repaired a loss (receive side)
        uint64_t timeouts{0};         //!< retransmission timer expiries
        uint64_t errorCompletions{0}; //!< messages completed in error

        /**
         * \param o counters to add
         * \return this
         */
        Counters& operator+=(const Counters& o);
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /**
     * \brief Post a message for sending.
     * \param bytes message size (0 sends one empty packet)
     * \param rdmaWrite true for RDMA WRITE, false for SEND
     * \return the message's sequence number on this queue pair
     */
    uint64_t PostSend(uint64_t bytes, bool rdmaWrite = false);

    /**
     * \brief Post a message whose packets carry a JobStepTag.
     * \param bytes message size (0 is allowed: one packet)
     * \param tag copied into every packet of the message, retransmissions included
     * \param rdmaWrite send as RDMA WRITE (with a RETH) rather than SEND
     * \return the message's sequence number
     */
    uint64_t PostSend(uint64_t bytes, const JobStepTag& tag, bool rdmaWrite = false);

    /** \param cb handler called when a posted message is fully acknowledged */
    void SetSendCompletionCallback(CompletionCallback cb);

    /** \return whether a send completion handler is set */
    bool HasSendCompletionCallback() const;

    /** \param cb handler called when a message has been fully received */
    void SetReceiveCompletionCallback(CompletionCallback cb);

    /** \param cb handler called for each posted message that completes in error */
    void SetErrorCallback(ErrorCallback cb);

    /**
     * \brief The NIC's message offload delivered a message to this
     * (receiving) queue pair: count it and complete the receive, as the
     * arrival of its last packet would.
     * \param bytes the message's payload bytes
     */
    void DeliverOffloaded(uint64_t bytes);

    /**
     * \brief The NIC's message offload completed a message of this
     * (sending) queue pair, as its last ACK would (nothing in the error
     * state: its messages completed in error).
     * \param seq the message's sequence number
     * \param bytes its payload bytes
     */
    void CompleteOffloaded(uint64_t seq, uint64_t bytes);

    /**
     * \brief The NIC's message offload saw this (sending) queue pair's path
     * stay cut for GetGiveUpTime(): it counts the timeouts and enters the
     * error state as the last one would, and the messages the offload held
     * complete in error (the first RETRY_EXCEEDED, the others FLUSHED).
     * \param messages the messages not acknowledged, (sequence number, payload
     *        bytes), oldest first
     */
    void FailOffloaded(const std::vector<std::pair<uint64_t, uint64_t>>& messages);

    /**
     * \brief The NIC's message offload keeps this queue pair's sending side
     * under an index of its own, so that it finds it without a look-up.
     * \param index the offload's index (NO_OFFLOAD_INDEX: none)
     */
    void SetOffloadSendIndex(uint32_t index)
    {
        m_offloadSend = index;
    }

    /** \return the offload's index of the sending side (NO_OFFLOAD_INDEX: none) */
    uint32_t GetOffloadSendIndex() const
    {
        return m_offloadSend;
    }

    /**
     * \brief The NIC's message offload keeps the sending side of this queue
     * pair's peer, which sends to this one, under an index of its own.
     * \param index the offload's index (NO_OFFLOAD_INDEX: none)
     */
    void SetOffloadReceiveIndex(uint32_t index)
    {
        m_offloadReceive = index;
    }

    /** \return the offload's index of the peer's sending side (NO_OFFLOAD_INDEX: none) */
    uint32_t GetOffloadReceiveIndex() const
    {
        return m_offloadReceive;
    }

    /// No offload index.
    static constexpr uint32_t NO_OFFLOAD_INDEX = 0xffffffff;

    /** \return the queue pair's state */
    State GetState() const;

    /** \return the local queue pair number */
    uint32_t GetQpn() const;
    /** \return the remote queue pair number */
    uint32_t GetPeerQpn() const;
    /** \return the remote address */
    Ipv4Address GetPeerAddress() const;
    /** \return the traffic class (802.1p priority) of the data, in effect now */
    uint8_t GetPriority() const;

    /**
     * \brief Move the data to another traffic class.
     *
     * The change takes effect at once when no packet of the queue pair is
     * unacknowledged (every PSN sent has been acknowledged), otherwise when
     * the ACK of the last unacknowledged packet arrives; until then packets
     * keep the old class (GetPriority()) and the new one is pending
     * (GetPendingPriority()). A queue pair that always has packets in flight
     * keeps its old class. Setting the class in effect again cancels a
     * pending change. The NIC's PriorityChanged trace source fires when a
     * change takes effect.
     *
     * \param prio the new class, 0..TrafficClass::N_CLASSES - 1
     */
    void SetPriority(uint8_t prio);

    /** \return the class SetPriority() asked for last (GetPriority() when none is pending) */
    uint8_t GetPendingPriority() const;

    /** \return the number of class changes that took effect */
    uint64_t GetPriorityChanges() const;
    /** \return the UDP source port (flow entropy for ECMP) */
    uint16_t GetSourcePort() const;

    /**
     * \brief Choose the UDP source port, and so the ECMP path of what the
     * queue pair sends from now on.
     *
     * RoCE NICs take it from the queue pair's context (the flow label set
     * when the queue pair is connected); changing it while packets are in
     * flight would reorder them, which go-back-N would read as loss, so it is
     * refused then.
     *
     * \param port the new source port
     * \return false (and no change) while posted messages are not fully
     *         acknowledged
     */
    bool SetSourcePort(uint16_t port);
    /** \return the NIC owning this queue pair */
    Ptr<RdmaNic> GetNic() const;
    /**
     * \return the congestion control of the send side (made now if the
     *         queue pair has none yet: a NIC with a message offload makes
     *         none at first)
     */
    Ptr<RdmaCongestionControl> GetCongestionControl();

    /** \return true while posted packets remain unsent */
    bool HasDataToSend() const;
    /** \return true while posted messages are not fully acknowledged */
    bool HasOutstanding() const;
    /** \return bytes posted so far */
    uint64_t GetBytesPosted() const;
    /** \return bytes received in order so far */
    uint64_t GetBytesReceived() const;
    /** \return packets sent again by go-back-N */
    uint64_t GetRetransmittedPackets() const;
    /** \return retransmission timer expiries */
    uint64_t GetTimeouts() const;
    /** \return messages completed in error */
    uint64_t GetErrorCompletions() const;
    /** \return all transport counters */
    Counters GetCounters() const;
    /** \return the retransmission timeout in use (zero: none) */
    Time GetRetransmitTimeout() const;
    /**
     * \return how long the queue pair goes without acknowledged progress
     * before it enters the error state: its RetryCount retries and the
     * timeout after them, (RetryCount + 1) x the timeout (zero: never)
     */
    Time GetGiveUpTime() const;
    /**
     * \return retransmitted packets received that repaired a loss: the
     * receive side accepted them in order (it did not have their data).
     * Every other copy the peer sent was spurious: a duplicate, or lost.
     */
    uint64_t GetRepairRetransmissionsReceived() const;

  protected:
    void DoDispose() override;

  private:
    friend class RdmaNic;
    friend class RdmaQpArbiter;

    /// One posted message, as long as it is not fully acknowledged.
    struct Message
    {
        uint64_t seq;      //!< sequence number on this queue pair
        uint64_t bytes;    //!< size
        uint64_t firstPsn; //!< PSN of its first packet (64-bit, unwrapped)
        uint32_t packets;  //!< number of packets
        bool write;        //!< RDMA WRITE rather than SEND
        bool tagged;       //!< its packets carry tag
        JobStepTag tag;    //!< the job step the message belongs to
    };

    /**
     * \brief Bind to a NIC (called by RdmaNic::CreateQueuePair).
     * \param nic the NIC
     * \param qpn local QP number
     * \param prio traffic class
     * \param srcPort UDP source port
     * \param cc congestion control (nullptr: made when first needed)
     */
    void Setup(Ptr<RdmaNic> nic,
               uint32_t qpn,
               uint8_t prio,
               uint16_t srcPort,
               Ptr<RdmaCongestionControl> cc);

    /**
     * \brief Take a congestion control for the send side.
     * \param cc the congestion control
     */
    void AttachCongestionControl(Ptr<RdmaCongestionControl> cc);

    /**
     * \brief Set the remote end (called by RdmaNic::Connect).
     * \param addr remote address
     * \param qpn remote QP number
     */
    void SetPeer(Ipv4Address addr, uint32_t qpn);

    /**
     * \brief Post a message.
     * \param bytes message size
     * \param rdmaWrite RDMA WRITE rather than SEND
     * \param tag the tag of its packets, or nullptr
     * \return the message's sequence number
     */
    uint64_t Post(uint64_t bytes, bool rdmaWrite, const JobStepTag* tag);

    /**
     * \brief Build the next data packet of the send side.
     * \param[out] payload payload bytes of the packet
     * \param[out] retransmitted the packet is a copy sent again
     * \return the packet (BTH and below, without IPv4/UDP), with its PSN advanced
     */
    Ptr<Packet> BuildNextPacket(uint32_t& payload, bool& retransmitted);

    /**
     * \brief An ACK or NAK arrived.
     * \param psn the 24-bit PSN of the ACK/NAK
     * \param nak true for a NAK
     * \param intHeader the INT it echoes, or nullptr
     * \param rtt now minus the send time it echoes; negative when none
     * \param hops switches it crossed
     * \param ece it carries ECN-echo
     */
    void ReceiveAck(uint32_t psn,
                    bool nak,
                    const IntHeader* intHeader = nullptr,
                    Time rtt = Time(-1),
                    uint8_t hops = 0,
                    bool ece = false);

    /**
     * \brief A data packet arrived.
     * \param bth its BTH
     * \param payload payload bytes
     * \param ce the packet carried ECN CE
     * \param retransmitted the packet is a copy sent again by the peer
     * \param intHeader its INT, or nullptr
     */
    void ReceiveData(const IbBthHeader& bth,
                     uint32_t payload,
                     bool ce,
                     bool retransmitted,
                     const IntHeader* intHeader = nullptr);

    /**
     * \brief Unwrap a 24-bit PSN near a 64-bit reference.
     * \param psn the 24-bit PSN
     * \param ref the reference
     * \return the 64-bit PSN closest to ref
     */
    static uint64_t Unwrap(uint32_t psn, uint64_t ref);

    /// The retransmission timer expired: go back to the oldest unacked PSN.
    void RetransmitTimeout();
    /// Start the retransmission timer unless it runs.
    void ArmRto();
    /// The timer's event: time out at the deadline, or wait for a later one.
    void RtoTimerFired();
    /// The congestion control raised the rate: a packet waiting for its
    /// pacing time may leave earlier.
    void RateIncreased();
    /// Let a pending class change take effect if no packet is unacknowledged.
    void ApplyPendingPriority();
    /// Retries exhausted: enter the error state and flush the posted messages.
    void EnterError();
    /**
     * \brief Complete a message in error.
     * \param seq its sequence number
     * \param bytes its size
     * \param status the status
     */
    void CompleteInError(uint64_t seq, uint64_t bytes, WcStatus status);

    Ptr<RdmaNic> m_nic;              //!< owning NIC
    Ptr<RdmaCongestionControl> m_cc; //!< send-side congestion control
    uint32_t m_qpn;                  //!< local QP number
    uint32_t m_peerQpn;              //!< remote QP number
    Ipv4Address m_peerAddr;          //!< remote address
    uint8_t m_prio;                  //!< traffic class in effect
    uint8_t m_pendingPrio;           //!< traffic class asked for (m_prio when none is pending)
    uint64_t m_prioChanges;          //!< class changes that took effect
    uint16_t m_srcPort;              //!< UDP source port
    uint32_t m_offloadSend{NO_OFFLOAD_INDEX};    //!< the offload's index of the send side
    uint32_t m_offloadReceive{NO_OFFLOAD_INDEX}; //!< the offload's index of the peer's send side
    uint32_t m_mtu;                              //!< payload bytes per packet
    Time m_rtoValue;                             //!< retransmission timeout (zero: none)
    uint32_t m_retryCount;                       //!< timeouts in a row tolerated (retry_cnt)
    State m_state;                               //!< RTS or ERR
    bool m_int; //!< data carries INT (the congestion control uses it)
    bool m_rtt; //!< data asks for its send time back (UsesRtt())

    // send side
    CompactFifo<Message> m_msgs;   //!< messages not fully acknowledged
    std::size_t m_txMsg;           //!< index in m_msgs of the message of m_sndNxt
    uint64_t m_nextSeq;            //!< sequence number of the next posted message
    uint64_t m_postedEnd;          //!< PSN after the last posted packet
    uint64_t m_sndUna;             //!< oldest unacknowledged PSN
    uint64_t m_sndNxt;             //!< next PSN to send
    uint64_t m_maxSent;            //!< PSN after the highest ever sent
    uint64_t m_bytesPosted;        //!< bytes posted
    uint64_t m_completedBytes;     //!< payload bytes of the messages fully acknowledged
    uint64_t m_ackedBytes;         //!< payload bytes acknowledged (m_completedBytes and part
                                   //!< of the oldest message)
    Time m_nextTxTime;             //!< pacing: earliest next send
    Time m_lastTxStart;            //!< pacing: when the last packet left
    Time m_lastTxWire;             //!< pacing: its time on the wire at line rate
    bool m_active;                 //!< on the NIC's list of senders
    bool m_winBlocked;             //!< held back by the congestion control's window
    EventId m_rto;                 //!< retransmission timer event (at or before the deadline)
    Time m_rtoDeadline;            //!< when the running timer expires
    bool m_rtoArmed;               //!< the retransmission timer runs
    uint64_t m_retransmitted;      //!< packets sent again
    uint64_t m_timeouts;           //!< timer expiries
    uint32_t m_retries;            //!< timeouts since the last acknowledged progress
    uint64_t m_errorCompletions;   //!< messages completed in error
    CompletionCallback m_sendDone; //!< sender CQE
    ErrorCallback m_error;         //!< sender CQE in error

    // receive side
    uint64_t m_ePsn;               //!< next expected PSN
    uint64_t m_nakPsn;             //!< PSN a NAK was sent for (or ~0)
    uint32_t m_unacked;            //!< packets received since the last ACK
    uint64_t m_rxSeq;              //!< messages received
    uint64_t m_rxMsgBytes;         //!< bytes of the message being received
    uint64_t m_bytesReceived;      //!< bytes received in order
    uint64_t m_rxRepairs;          //!< retransmitted packets accepted in order
    Time m_lastCnp;                //!< when the last CNP was asked for
    bool m_cnpSent;                //!< a CNP was ever asked for
    bool m_echoInt;                //!< ACKs echo INT (data arrived with INT)
    bool m_echoTs;                 //!< the next ACK returns m_rxTs (the data asked for it)
    bool m_ceSinceAck;             //!< CE-marked data arrived since the last ACK (ECN-echo)
    Time m_rxTs;                   //!< send time of the latest data packet, echoed in ACKs
    IntHeader m_rxInt;             //!< INT of the latest data packet, echoed in ACKs
    CompletionCallback m_recvDone; //!< receiver CQE

    TracedCallback<uint64_t, uint64_t> m_postedTrace;    //!< a message was posted
    TracedCallback<uint64_t, uint64_t> m_deliveredTrace; //!< a message was received
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
