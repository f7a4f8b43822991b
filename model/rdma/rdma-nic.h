/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_NIC_H
#define RDMA_NIC_H

#include "rdma-message-offload.h"
#include "rdma-qp-arbiter.h"
#include "rdma-queue-pair.h"

#include "ns3/compact-fifo.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-egress.h"
#include "ns3/pfc-ipv4-receiver.h"
#include "ns3/traced-callback.h"

#include <utility>
#include <vector>

namespace ns3
{

class PfcNetDevice;
class Packet;

/**
 * \ingroup flux-rdma
 * \brief A RoCEv2 NIC: reliable-connection queue pairs over one Ethernet port.
 *
 * The NIC is the egress of its PfcNetDevice. When the line is free it sends
 * queued CNPs first (in CnpPriority), then ACK/NAK packets (in
 * ControlPriority), then asks its
 * queue-pair arbiter (QpArbiter attribute, RdmaQpArbiter) for the next queue
 * pair whose class is not paused by PFC, whose pacing time (from its
 * congestion control's rate) has come and whose window is open. The default
 * arbiter, RoundRobinQpArbiter, takes one packet from each such queue pair
 * in turn; ClassQpArbiter serves classes by precedence. Packets
 * are IPv4 (DSCP = TrafficClass::ToDscp(class), ECT(0) on data) / UDP (destination port
 * 4791, source port per queue pair) / BTH [/ RETH | AETH] / payload / ICRC.
 * Queue pairs whose congestion control uses in-band telemetry (HPCC) put an
 * IntHeader after the BTH/RETH of their data packets (DSCP bit
 * IntHeader::DSCP_INT set), and their peer echoes the latest one after the
 * AETH of its ACKs (IntHeader::DSCP_INT_ECHO).
 *
 * Per-packet state is O(1): queue pairs are found by QP number in a vector.
 */
class RdmaNic : public PfcEgress, public PfcIpv4Receiver
{
  public:
    /**
     * DSCP bit of an ACK or NAK that echoes ECN: a CE-marked data packet
     * arrived since the receiver's previous ACK (the low DSCP bits are free
     * of the traffic class; IntHeader::DSCP_INT_ECHO is the next one).
     */
    static constexpr uint8_t DSCP_ECN_ECHO = 0x04;

    /// IPv4 TTL of the packets a NIC sends; each switch takes one off.
    static constexpr uint8_t TTL = 64;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaNic();
    ~RdmaNic() override;

    /**
     * \brief Attach the NIC to its port.
     * \param device the host's port
     * \param address the host's IPv4 address
     * \throw std::invalid_argument when the port's Mtu cannot carry the path MTU
     */
    void Setup(Ptr<PfcNetDevice> device, Ipv4Address address);

    /**
     * \brief Create a queue pair.
     * \param prio traffic class (802.1p priority) of its data
     * \param srcPort UDP source port, the flow entropy ECMP hashes on
     * \return the queue pair
     */
    Ptr<RdmaQueuePair> CreateQueuePair(uint8_t prio, uint16_t srcPort);

    /**
     * \brief Connect two queue pairs, as connection management would.
     * \param a one end
     * \param b the other end
     */
    static void Connect(Ptr<RdmaQueuePair> a, Ptr<RdmaQueuePair> b);

    /**
     * \brief Create a connected pair of queue pairs between two NICs.
     * \param src the sending side's NIC
     * \param dst the receiving side's NIC
     * \param prio traffic class
     * \param srcPort UDP source port of src's packets (ECMP entropy)
     * \return the queue pair at src (first) and the one at dst (second)
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> src,
                                                                     Ptr<RdmaNic> dst,
                                                                     uint8_t prio,
                                                                     uint16_t srcPort);

    /**
     * \brief Forget a queue pair; later packets for it are dropped.
     * \param qp the queue pair
     */
    void DestroyQueuePair(Ptr<RdmaQueuePair> qp);

    /**
     * \param qpn a local QP number
     * \return the queue pair, or nullptr when there is none (or it was destroyed)
     */
    Ptr<RdmaQueuePair> GetQueuePair(uint32_t qpn) const;

    /** \return the NIC's address */
    Ipv4Address GetAddress() const;
    /** \return the NIC's port */
    Ptr<PfcNetDevice> GetDevice() const;
    /** \return payload bytes per packet (the path MTU) */
    uint32_t GetMtu() const;

    /**
     * \return the retransmission timeout of new queue pairs: RetransmitTimeout
     * when set, else the local ACK timeout 4.096 us x 2^AckTimeout (zero, no
     * timer, when AckTimeout is 0)
     */
    Time GetRetransmitTimeout() const;

    /**
     * \param exponent the 5-bit local ACK timeout of InfiniBand
     * \return 4.096 us x 2^exponent; zero (infinite) for exponent 0
     */
    static Time AckTimeoutToTime(uint8_t exponent);

    /**
     * \return the queue-pair arbiter, created by Setup() from the QpArbiter
     * attribute (nullptr before Setup())
     */
    Ptr<RdmaQpArbiter> GetQpArbiter() const;

    /**
     * \brief Hand the messages of this NIC's queue pairs to an offload (a
     * flow-level model of the fabric) instead of sending packets; set
     * before the first message is posted.
     * \param offload the offload; nullptr sends packets again
     */
    void SetMessageOffload(Ptr<RdmaMessageOffload> offload);

    /** \return the message offload, or nullptr when the NIC sends packets */
    Ptr<RdmaMessageOffload> GetMessageOffload() const;

    Ptr<QueueDiscItem> DequeueForTransmit(uint8_t pausedMask) override;

    /** \return whether control packets are queued or a queue pair is active */
    bool HasPending() const override;

    /** \return data packets sent (first transmissions and retransmissions) */
    uint64_t GetDataPacketsSent() const;
    /** \return packets retransmitted by go-back-N, over all queue pairs */
    uint64_t GetRetransmittedPackets() const;
    /** \return retransmission timer expiries, over all queue pairs */
    uint64_t GetTimeouts() const;
    /** \return the transport counters over all queue pairs, destroyed ones included */
    RdmaQueuePair::Counters GetCounters() const;
    /** \return queue pairs that went to the error state */
    uint64_t GetQpErrors() const;
    /** \return CNPs sent by this NIC as notification point */
    uint64_t GetCnpsSent() const;
    /** \return CNPs received */
    uint64_t GetCnpsReceived() const;
    /** \return NAKs sent */
    uint64_t GetNaksSent() const;
    /** \return data packets received with ECN CE */
    uint64_t GetCeReceived() const;
    /** \return payload bytes received in order */
    uint64_t GetBytesReceived() const;

    /**
     * TracedCallback signature for received data packets.
     * \param [in] qpn local queue pair number
     * \param [in] payload payload bytes
     * \param [in] latency one-way delay from the sender's NIC
     */
    typedef void (*DataRxTracedCallback)(uint32_t qpn, uint32_t payload, Time latency);

    /**
     * TracedCallback signature for queue pair events.
     * \param [in] qpn local queue pair number
     */
    typedef void (*QpnTracedCallback)(uint32_t qpn);

    /**
     * TracedCallback signature for retransmissions.
     * \param [in] qpn local queue pair number
     * \param [in] psn the 24-bit PSN sent again
     */
    typedef void (*RetransmitTracedCallback)(uint32_t qpn, uint32_t psn);

    /**
     * TracedCallback signature for a change of a queue pair's class.
     * \param [in] qpn local queue pair number
     * \param [in] oldClass the class before
     * \param [in] newClass the class in effect from now on
     */
    typedef void (*PriorityChangedTracedCallback)(uint32_t qpn, uint8_t oldClass, uint8_t newClass);

  protected:
    void DoDispose() override;

  private:
    friend class RdmaQueuePair;

    /**
     * \brief Make the congestion control of a queue pair (the
     * CongestionControl attribute's, for the port's rate).
     * \return it
     */
    Ptr<RdmaCongestionControl> CreateCongestionControl();

    /**
     * \brief A queue pair got data to send.
     * \param qp the queue pair
     */
    void NotifyHasData(RdmaQueuePair* qp);

    /**
     * \brief A queue pair's new class took effect.
     * \param qp the queue pair (with its new class)
     * \param oldClass its class before
     */
    void NotifyPriorityChanged(RdmaQueuePair* qp, uint8_t oldClass);

    /**
     * \brief A queue pair entered the error state.
     * \param qp the queue pair
     */
    void NotifyQpError(RdmaQueuePair* qp);

    /**
     * \brief Queue an ACK or NAK.
     * \param qp the receiving queue pair
     * \param psn PSN to acknowledge (ACK) or expected (NAK)
     * \param nak true for a NAK
     * \param msn message sequence number
     */
    void SendAck(RdmaQueuePair* qp, uint64_t psn, bool nak, uint64_t msn);

    /**
     * \brief Queue a CNP for the sender of a queue pair.
     * \param qp the receiving queue pair
     */
    void SendCnp(RdmaQueuePair* qp);

    /**
     * \brief Wrap a transport packet into IPv4/UDP and make it an item.
     * \param p the packet, from its BTH
     * \param qp the queue pair it belongs to
     * \param prio traffic class
     * \param ect mark the packet ECN-capable
     * \param dscpFlags IntHeader DSCP bits to set below the priority's
     * \return the item
     */
    Ptr<QueueDiscItem> Encapsulate(Ptr<Packet> p,
                                   const RdmaQueuePair* qp,
                                   uint8_t prio,
                                   bool ect,
                                   uint8_t dscpFlags = 0);

    /**
     * \brief Handle a packet from the port.
     * \param dev the port
     * \param p the packet, after its IPv4 header
     * \param ip its IPv4 header
     * \param prio its priority
     */
    void ReceiveIpv4(Ptr<PfcNetDevice> dev, Ptr<Packet> p, Ipv4Header& ip, uint8_t prio) override;

    /// Let the port pull again (pacing timer).
    void WakeDevice();

    /**
     * \brief Make sure the port is woken at a pacing time.
     * \param when the time
     */
    void ScheduleWake(Time when);

    /**
     * \brief Look up a queue pair.
     * \param qpn QP number
     * \return the queue pair or nullptr
     */
    RdmaQueuePair* Lookup(uint32_t qpn) const;

    Ptr<PfcNetDevice> m_device;                  //!< the port
    Ipv4Address m_address;                       //!< host address
    uint32_t m_mtu;                              //!< payload bytes per packet
    uint32_t m_ackInterval;                      //!< ACK every this many packets
    uint32_t m_intAckInterval;                   //!< ACK every this many packets with INT
    uint8_t m_intMaxHops;                        //!< INT capacity of data packets, hops
    uint8_t m_intMultiplier;                     //!< INT unit multiplier (line rate / 25G)
    uint32_t m_intBytes;                         //!< INT bytes per data packet (0: no INT)
    Time m_rto;                                  //!< explicit retransmission timeout, or zero
    uint8_t m_ackTimeout;                        //!< local ACK timeout exponent
    uint32_t m_retryCount;                       //!< retry_cnt of new queue pairs
    Time m_cnpInterval;                          //!< min time between CNPs per QP
    uint8_t m_ctrlPrio;                          //!< priority of ACK/NAK
    uint8_t m_cnpPrio;                           //!< priority of CNP
    ObjectFactory m_ccFactory;                   //!< congestion control of new QPs
    ObjectFactory m_arbiterFactory;              //!< queue-pair arbiter
    Ptr<RdmaQpArbiter> m_arbiter;                //!< picks the next queue pair to send
    Ptr<RdmaMessageOffload> m_offload;           //!< carries messages instead of packets
    std::vector<Ptr<RdmaQueuePair>> m_qps;       //!< by QP number - QPN_BASE
    CompactFifo<Ptr<QueueDiscItem>> m_ctrlQueue; //!< ACK/NAK waiting for the line
    CompactFifo<Ptr<QueueDiscItem>> m_cnpQueue;  //!< CNP waiting for the line
    EventId m_wake;                              //!< pacing wake-up
    uint16_t m_ipId;                             //!< IPv4 identification counter

    uint64_t m_dataSent;              //!< data packets sent
    uint64_t m_cnpsSent;              //!< CNPs sent
    uint64_t m_cnpsReceived;          //!< CNPs received
    uint64_t m_naksSent;              //!< NAKs sent
    uint64_t m_ceReceived;            //!< CE-marked data received
    RdmaQueuePair::Counters m_closed; //!< transport counters of destroyed QPs
    uint64_t m_qpErrors;              //!< queue pairs that entered the error state
    uint64_t m_bytesReceivedClosed;   //!< bytes received by destroyed QPs

    TracedCallback<uint32_t, uint32_t, Time> m_dataRxTrace;        //!< data received
    TracedCallback<uint32_t> m_cnpRxTrace;                         //!< CNP received (QPN)
    TracedCallback<uint32_t, uint32_t> m_retransmitTrace;          //!< go-back-N (QPN, PSN)
    TracedCallback<uint32_t> m_qpErrorTrace;                       //!< QP entered error (QPN)
    TracedCallback<uint32_t, uint8_t, uint8_t> m_prioChangedTrace; //!< class change took effect
};

} // namespace ns3

#endif /* RDMA_NIC_H */
