/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUID_NETWORK_H
#define FLUID_NETWORK_H

#include "max-min-allocator.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-message-offload.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \defgroup flux-flow Flow-level model
 * \ingroup flux
 * \brief A fluid model of the fabric that carries the RDMA messages of the
 * packet-level workloads whole.
 */

/**
 * \ingroup flux-flow
 * \brief A flow-level (fluid) model of a fabric: the messages of the hosts'
 * queue pairs cross their paths as fluid at the rates of max-min fair
 * sharing, with strict priority between traffic classes.
 *
 * The network is given as link directions (AddLink: rate and propagation
 * delay), hosts (AddHost: their NICs, whose messages it then carries as
 * their RdmaMessageOffload) and a path function that returns the link
 * directions a queue pair's packets would cross, for its source port: the
 * switches' own ECMP choice, so that every queue pair takes the path the
 * packet-level model gives it.
 *
 * Each sending queue pair is one fluid flow while it has messages, sending
 * them in order. Its rate is recomputed (MaxMinAllocator) whenever a flow
 * starts or ends, a class changes or a link goes down or up; all changes at
 * one instant are batched into one computation. The flow's bytes on the
 * wire are its payload plus PacketOverhead per packet of Mtu payload bytes,
 * so that a flow alone on a path reaches the packet-level goodput. A
 * message whose last byte left the sender at t reaches the receiver at
 * t + d, where d is the path's propagation delay plus the store-and-forward
 * time of its first packet on every hop but the slowest (whose time the
 * fluid already counts): a message alone on the idle fabric takes exactly
 * the ideal FCT of the packet-level results. The sender learns of the
 * delivery when an ACK (AckBytes on the wire) returns over the same hops.
 *
 * What the fluid model cannot know is absent: there are no queues, so no
 * PFC pauses, ECN marks, CNPs, drops, retransmissions or per-packet
 * latency; congestion control is its converged fair share (no convergence
 * time, no incast overshoot, no spreading of pauses).
 */
class FluidNetwork : public RdmaMessageOffload
{
  public:
    /**
     * The links a queue pair's packets cross: source host, destination
     * host, UDP source port -> link directions (empty: no route).
     */
    typedef std::function<std::vector<uint32_t>(uint32_t, uint32_t, uint16_t)> PathFunction;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FluidNetwork();
    ~FluidNetwork() override;

    /**
     * \brief Add a link direction; they are numbered in the order added.
     * \param rate its rate
     * \param delay its propagation delay
     * \return its index
     */
    uint32_t AddLink(DataRate rate, Time delay);

    /**
     * \brief Add a host (numbered in the order added) and carry its NIC's
     * messages from now on.
     * \param nic the host's NIC
     */
    void AddHost(Ptr<RdmaNic> nic);

    /** \param paths the path function (the switches' ECMP choice) */
    void SetPathFunction(PathFunction paths);

    /**
     * \brief Set the precedence of the classes on every link.
     * \param order classes, highest precedence first (see MaxMinAllocator)
     */
    void SetClassOrder(const std::vector<uint8_t>& order);

    /**
     * \brief A link direction goes down (carries nothing) or comes back.
     * \param link the link
     * \param up its new state
     */
    void SetLinkUp(uint32_t link, bool up);

    /// Ask the path function again for every queue pair's path (the
    /// switches' routes changed).
    void RefreshPaths();

    void Post(Ptr<RdmaQueuePair> qp, uint64_t seq, uint64_t bytes) override;
    void PriorityChanged(Ptr<RdmaQueuePair> qp) override;

    /** \return messages delivered so far */
    uint64_t GetMessagesDelivered() const;
    /** \return payload bytes delivered so far */
    uint64_t GetBytesDelivered() const;
    /** \return rate computations so far */
    uint64_t GetRateUpdates() const;
    /** \return the most flows active at once */
    uint32_t GetPeakFlows() const;

    /**
     * \param link a link direction
     * \return bits it has carried so far (wire bits, headers included)
     */
    double GetLinkBits(uint32_t link) const;

    /**
     * TracedCallback signature for delivered messages.
     * \param [in] src sending host
     * \param [in] dst receiving host
     * \param [in] bytes payload bytes
     * \param [in] posted when it was posted
     */
    typedef void (*DeliveredTracedCallback)(uint32_t src, uint32_t dst, uint64_t bytes, Time posted);

  protected:
    void DoDispose() override;

  private:
    /// A posted message not yet sent.
    struct Message
    {
        uint64_t seq;   //!< its sequence number on the queue pair
        uint64_t bytes; //!< payload bytes
        double wire;    //!< bytes on the wire
        Time posted;    //!< when it was posted
    };

    /// A sending queue pair.
    struct Sender
    {
        Ptr<RdmaQueuePair> qp;        //!< the queue pair
        Ptr<RdmaQueuePair> peer;      //!< the receiving queue pair
        uint32_t src{0};              //!< sending host
        uint32_t dst{0};              //!< receiving host
        std::vector<uint32_t> path;   //!< link directions, empty without a route
        double propagationS{0};       //!< sum of the path's propagation delays, s
        double perBitS{0};            //!< sum over the path of 1 / rate, s per bit
        double slowestPerBitS{0};     //!< 1 / the slowest rate on the path, s per bit
        std::deque<Message> messages; //!< posted, head first
        double left{0};               //!< wire bytes of the head message not yet sent
        double rateBps{0};            //!< current rate, bit/s
        uint32_t inFlight{0};         //!< messages sent whose ACK has not returned
        uint64_t routeEpoch{0};       //!< m_routeEpoch when the path was looked up
        bool active{false};           //!< listed in m_active
    };

    /**
     * \param qp a queue pair
     * \return its sender index (created on first use)
     */
    uint32_t SenderOf(Ptr<RdmaQueuePair> qp);
    /**
     * \brief Look up a sender's path and its latency terms.
     * \param s the sender
     */
    void Route(Sender& s);
    /// Move every active flow forward to now.
    void Advance();
    /**
     * \brief The ACK of a delivered message reached its sender.
     * \param sender the sender's index
     * \param seq the message
     * \param bytes its payload bytes
     */
    void Acknowledge(uint32_t sender, uint64_t seq, uint64_t bytes);
    /// Recompute the rates at the end of this instant (once).
    void ScheduleUpdate();
    /// Recompute the rates and schedule the next message end.
    void Update();
    /// The earliest message end: finish what is done, then Update().
    void MessageEnd();
    /**
     * \brief A sender's head message has left: schedule its delivery.
     * \param sender the sender's index
     */
    void FinishHead(uint32_t sender);
    /**
     * \brief The last byte of a message arrived.
     * \param sender the sender's index
     * \param seq the message
     * \param bytes its payload bytes
     * \param posted when it was posted
     */
    void Deliver(uint32_t sender, uint64_t seq, uint64_t bytes, Time posted);
    /**
     * \param bytes a message's payload bytes
     * \param mtu the payload bytes per packet
     * \return its bytes on the wire
     */
    double WireBytes(uint64_t bytes, uint32_t mtu) const;

    uint32_t m_packetOverhead; //!< wire bytes per packet besides the payload
    uint32_t m_ackBytes;       //!< wire bytes of an ACK
    std::vector<double> m_linkBps;                            //!< per link: rate, bit/s
    std::vector<double> m_linkDelayS;                         //!< per link: propagation, s
    std::vector<double> m_linkBits;                           //!< per link: bits carried
    std::vector<Ptr<RdmaNic>> m_hosts;                        //!< NIC per host
    std::unordered_map<uint32_t, uint32_t> m_hostOfAddress;   //!< address -> host
    PathFunction m_paths;                                     //!< the switches' ECMP choice
    std::vector<Sender> m_senders;                            //!< every sending queue pair
    /// (host << 32 | QP number) of a sending queue pair -> its sender
    std::unordered_map<uint64_t, uint32_t> m_senderOf;
    uint64_t m_routeEpoch{0}; //!< bumped when the routes change
    std::vector<uint32_t> m_active;                 //!< senders with messages, activation order
    std::vector<MaxMinAllocator::Demand> m_demands; //!< parallel to m_active
    MaxMinAllocator m_allocator;                    //!< computes the rates
    Time m_advanced;                                //!< flows moved forward up to here
    EventId m_update;                               //!< the pending rate computation
    EventId m_next;                                 //!< the next message end
    uint64_t m_messagesDelivered{0};                //!< messages delivered
    uint64_t m_bytesDelivered{0};                   //!< payload bytes delivered
    uint64_t m_rateUpdates{0};                      //!< rate computations
    uint32_t m_peakFlows{0};                        //!< most flows at once
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_deliveredTrace; //!< delivered messages
};

} // namespace ns3

#endif /* FLUID_NETWORK_H */
