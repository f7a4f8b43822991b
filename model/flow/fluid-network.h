/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUID_NETWORK_H
#define FLUID_NETWORK_H

#include "indexed-heap.h"
#include "max-min-allocator.h"

#include "ns3/compact-fifo.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/rdma-message-offload.h"
#include "ns3/rdma-nic.h"
#include "ns3/traced-callback.h"

#include <cstdint>
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
 * them in order. Rates change only when a flow starts or ends, a class
 * changes, or a link goes down or up, and only for the flows that share a
 * link with the change, directly or through other flows (MaxMinAllocator
 * on that part of the fabric alone); all changes at one instant are
 * batched into one computation. A flow that starts where every link has
 * room for its full rate, or ends leaving no full link to anyone, moves no
 * other rate and costs no computation. Between changes nothing is done but
 * at message ends, kept in a heap: the cost is per change, not per flow. The flow's bytes on the
 * wire are its payload plus PacketOverhead per packet of Mtu payload bytes,
 * so that a flow alone on a path reaches the packet-level goodput. A
 * message whose last byte left the sender at t reaches the receiver at
 * t + d, where d is the path's propagation delay plus the store-and-forward
 * time of its first packet on every hop but the slowest (whose time the
 * fluid already counts): a message alone on the idle fabric takes exactly
 * the ideal FCT of the packet-level results. The sender learns of the
 * delivery when an ACK (AckBytes on the wire) returns over the same hops.
 * A queue pair whose path is cut (a link direction down, or no route)
 * keeps its messages for as long as its retries would last at packet level,
 * then enters the error state as they would; a message (or its ACK) that
 * reaches a cut path is lost, and sent (or acknowledged) again when the path
 * comes back.
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

    void Post(RdmaQueuePair* qp, uint64_t seq, uint64_t bytes) override;
    void PriorityChanged(Ptr<RdmaQueuePair> qp) override;
    void QueuePairDestroyed(RdmaQueuePair* qp) override;

    /** \return messages delivered so far */
    uint64_t GetMessagesDelivered() const;
    /** \return payload bytes delivered so far */
    uint64_t GetBytesDelivered() const;
    /** \return rate computations so far */
    uint64_t GetRateUpdates() const;
    /** \return flows whose rates were computed, summed over the computations */
    uint64_t GetFlowsAllocated() const;
    /** \return the most flows active at once */
    uint32_t GetPeakFlows() const;

    /**
     * \brief Compare every flow's rate with the max-min fair allocation
     * computed from scratch (every active flow, its queue pair's class,
     * the links' capacities now): the check of the incremental
     * computations, for tests.
     * \return the largest difference, as a share of the flow's first link
     *         rate; -1 at an instant whose changes are not computed yet
     */
    double GetRateError() const;

    /**
     * \brief Whether a queue pair's messages wait on a link that is down
     * (or on no route). They wait for the link to come back, for as long
     * as the queue pair's retries would last at packet level
     * (RdmaQueuePair::GetGiveUpTime()); then they complete in error.
     * \param qp a sending queue pair
     * \return true when it has a message and its path is cut
     */
    bool IsCutOff(Ptr<RdmaQueuePair> qp) const;

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
    typedef void (*DeliveredTracedCallback)(uint32_t src,
                                            uint32_t dst,
                                            uint64_t bytes,
                                            Time posted);

  protected:
    void DoDispose() override;

  private:
    /// A posted message not yet sent.
    struct Message
    {
        uint64_t seq;     //!< its sequence number on the queue pair
        uint64_t bytes;   //!< payload bytes
        double wire;      //!< bytes on the wire
        int64_t postedNs; //!< when it was posted, ns
    };

    /// What the rate computations read of every flow on a link, apart from
    /// the rest of its sender so that they are dense (m_rates).
    struct FlowRate
    {
        double rateBps{0};   //!< current rate, bit/s
        double next{0};      //!< its rate in the computation that includes it, bit/s
        uint32_t seen{0};    //!< m_visit of the last computation that included it
        uint32_t checked{0}; //!< m_pass of the last check that met it
        uint8_t cls{0};      //!< its class when its rate was computed
        uint8_t hint{0};     //!< the hop that was its bottleneck when last checked
    };

    /// A sending queue pair: one fluid flow while it has messages. (The
    /// fields of the message in progress first; its rate is in m_rates.)
    struct Sender
    {
        double left{0};               //!< wire bytes of the head message not sent at m_since
        int64_t sinceNs{0};           //!< when left was last brought up to date, ns
        uint32_t inFlight{0};         //!< messages sent whose ACK has not returned
        bool active{false};           //!< it has messages (it is on its links' lists)
        bool dirty{false};            //!< listed in m_dirty
        bool gone{false};             //!< its queue pair or the peer was destroyed
        uint8_t cls{0};               //!< its queue pair's class (PriorityChanged keeps it)
        uint32_t mtu{0};              //!< payload bytes per packet of its NIC
        uint32_t pathAt{0};           //!< where its path is in m_hopPool (Path, Slots)
        uint32_t hops{0};             //!< its path's link directions, 0 without a route
        double propagationS{0};       //!< sum of the path's propagation delays, s
        double perBitS{0};            //!< sum over the path of 1 / rate, s per bit
        double slowestPerBitS{0};     //!< 1 / the slowest rate on the path, s per bit
        Message head{};               //!< the message it sends (while active)
        CompactFifo<Message> waiting; //!< posted behind the head, oldest first
        Ptr<RdmaQueuePair> qp;        //!< the queue pair
        Ptr<RdmaQueuePair> peer;      //!< the receiving queue pair
        uint32_t src{0};              //!< sending host
        uint32_t dst{0};              //!< receiving host
        uint32_t qpn{0};              //!< the queue pair's number
        uint32_t peerQpn{0};          //!< its peer's QP number
        uint32_t peerAddress{0};      //!< its peer's address
        uint64_t routeEpoch{0};       //!< m_routeEpoch when the path was looked up
        int64_t cutSinceNs{-1}; //!< since when its path is cut while it has messages (-1: not)
    };

    /// What a bottleneck check found on a link (HeldAt).
    struct LinkStamp
    {
        double load{0};    //!< load of the classes up to rank, bit/s
        double top{0};     //!< largest rate of class rank rank, bit/s
        uint32_t stamp{0}; //!< m_pass of load and top
        uint8_t rank{0};   //!< the class rank of load and top
    };

    /// A link direction: what a message's start and end and a rate
    /// computation read and write of it in its first cache line, the
    /// bottleneck check in the second (its state and delay are apart:
    /// m_linkUp, m_linkDelayS).
    struct alignas(64) Link
    {
        double bps{0};       //!< its rate, bit/s
        double loadBps{0};   //!< sum of the rates of its flows, bit/s
        double bits{0};      //!< bits carried up to sinceNs
        int64_t sinceNs{0};  //!< when bits was last brought up to date, ns
        uint32_t seen{0};    //!< m_pass of the last computation that crossed it
        uint32_t changed{0}; //!< m_visit of the last computation that moved a rate on it
        /// its active flows: (sender, hop of the link on the sender's path)
        std::vector<std::pair<uint32_t, uint32_t>> flows;
        alignas(64) LinkStamp check; //!< its last bottleneck check
    };

    /// A sender's path: its link directions (a view into m_hopPool).
    struct Hops
    {
        const uint32_t* first; //!< the first link direction
        uint32_t n;            //!< how many

        /** \return the first link direction */
        const uint32_t* begin() const
        {
            return first;
        }

        /** \return past the last */
        const uint32_t* end() const
        {
            return first + n;
        }

        /** \return the link directions */
        const uint32_t* data() const
        {
            return first;
        }

        /** \return how many */
        uint32_t size() const
        {
            return n;
        }

        /** \return whether there are none */
        bool empty() const
        {
            return n == 0;
        }

        /** \return the first one */
        uint32_t front() const
        {
            return first[0];
        }

        /**
         * \param h a hop
         * \return its link direction
         */
        uint32_t operator[](uint32_t h) const
        {
            return first[h];
        }
    };

    /**
     * \param s a sender
     * \return its path (valid until a path is looked up again)
     */
    Hops Path(const Sender& s) const
    {
        return Hops{m_hopPool.data() + s.pathAt, s.hops};
    }

    /**
     * \param s a sender
     * \return per hop of its path, its place in the link's flow list
     */
    uint32_t* Slots(const Sender& s)
    {
        return m_hopPool.data() + s.pathAt + s.hops;
    }

    /// No host, no sender.
    static constexpr uint32_t NONE = 0xffffffff;

    /**
     * \param address a host's address
     * \return the host (NONE: not one of the network's)
     */
    uint32_t HostOf(Ipv4Address address) const;
    /**
     * \param host a host
     * \param qpn a queue pair number of its NIC
     * \return the queue pair's sender (NONE: none yet)
     */
    uint32_t FindSender(uint32_t host, uint32_t qpn) const;
    /**
     * \param qp a queue pair
     * \return its sender index (created on first use)
     */
    uint32_t SenderOf(RdmaQueuePair* qp);
    /**
     * \brief Let an idle sender's queue pairs go when one of them was
     * destroyed.
     * \param s the sender
     */
    void ReleaseIfGone(Sender& s);
    /**
     * \brief Look up a sender's path and its latency terms.
     * \param s the sender
     */
    void Route(Sender& s);
    /**
     * \brief Put an active sender on its links' lists.
     * \param index the sender
     */
    void Attach(uint32_t index);
    /**
     * \brief Take a sender off its links' lists (its rate becomes 0).
     * \param index the sender
     */
    void Detach(uint32_t index);
    /**
     * \brief A flow leaves a link: if the link is some other flow's
     * bottleneck (full, and that flow's rate the largest on it), the flows
     * on it may get more and must be recomputed. Call before the flow's
     * rate leaves the link's load.
     * \param link the link
     * \param leaving the flow
     */
    void LeaveLink(uint32_t link, uint32_t leaving);
    /**
     * \brief A flow starts: when it can take what some link on its path
     * has left without being outdone there (so that the link becomes its
     * bottleneck) it does, and no other rate moves.
     * \param index the flow, on its links' lists with rate 0
     * \return whether it got its rate so
     */
    bool JoinWithoutChange(uint32_t index);
    /**
     * \param index a flow
     * \return the slowest capacity on its path (0 without one): its rate
     *         when flows do not share (Shared false)
     */
    double PathRate(uint32_t index) const;
    /**
     * \param index a sender whose rate must be recomputed
     */
    void MarkDirty(uint32_t index);
    /**
     * \brief Bring a sender's bytes left up to now.
     * \param index the sender
     * \param nowNs now, ns
     */
    void Settle(uint32_t index, int64_t nowNs);
    /**
     * \brief Give a sender a new rate (its links' loads follow) and
     * schedule the end of its head message.
     * \param index the sender
     * \param bps the rate
     * \param nowNs now, ns
     */
    void SetRate(uint32_t index, double bps, int64_t nowNs);
    /**
     * \brief Schedule the end of a sender's head message at its rate.
     * \param index the sender
     * \param nowNs now, ns
     */
    void PushEnd(uint32_t index, int64_t nowNs);
    /// Recompute the rates at the end of this instant (once).
    void ScheduleUpdate();
    /// Recompute the rates of the changed flows, and of the flows they
    /// take a bottleneck from (transitively), then schedule the next
    /// message end.
    void Update();

    /**
     * \param link a link direction
     * \return what it can carry, bit/s (0 while it is down)
     */
    double Capacity(uint32_t link) const
    {
        return m_linkUp[link] ? m_links[link].bps : 0.0;
    }

    /**
     * \param index a sender
     * \return its rate in the computation under way (its current one when
     *         the computation does not include it), bit/s
     */
    double NextRate(uint32_t index) const;
    /**
     * \param link a link on a sender's path
     * \param index the sender
     * \return whether the link is its bottleneck at the rates of the
     *         computation under way: the classes up to its own fill the
     *         link, and no flow of its class gets more there
     */
    bool HeldAt(uint32_t link, uint32_t index);
    /**
     * \param index a sender
     * \return whether some link of its path is its bottleneck (HeldAt)
     */
    bool Bottlenecked(uint32_t index);
    /**
     * \brief Note that a sender's rate or class moves in the computation
     * under way: the other flows on its links must be checked.
     * \param s the sender
     */
    void MarkChanged(const Sender& s);
    /**
     * \brief A sender joins the computation under way (with its current
     * class).
     * \param index the sender
     */
    void Join(uint32_t index);
    /**
     * \brief A sender joins the next round of the computation under way.
     * \param index the sender
     */
    void Grow(uint32_t index);
    /// Keep the message-end event at the earliest end.
    void ScheduleNextEnd();
    /// The earliest message ends: finish what is done.
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
     * \param postedNs when it was posted, ns
     */
    void Deliver(uint32_t sender, uint64_t seq, uint64_t bytes, int64_t postedNs);
    /**
     * \brief The ACK of a delivered message reached its sender.
     * \param sender the sender's index
     * \param seq the message
     * \param bytes its payload bytes
     */
    void Acknowledge(uint32_t sender, uint64_t seq, uint64_t bytes);
    /**
     * \param bytes a message's payload bytes
     * \param mtu the payload bytes per packet
     * \return its bytes on the wire
     */
    double OnWire(uint64_t bytes, uint32_t mtu) const;

    /// A message, or its ACK, that reached a cut path.
    struct Lost
    {
        Message message; //!< the message
        bool delivered;  //!< its ACK was lost (the receiver has it)
    };

    /**
     * \param s a sender
     * \return whether its path is cut: no route, or a link direction down
     */
    bool PathCut(const Sender& s) const;
    /**
     * \param s a sender
     * \param ack what arrives now is an ACK (else the last bytes of a message)
     * \return whether it met a cut: a link direction of the path went down
     *         before the bytes crossed it (or the path is gone)
     */
    bool MetTheCut(const Sender& s, bool ack) const;
    /**
     * \param index a sender
     * \return whether it has messages not acknowledged: sending, or lost
     */
    bool Outstanding(uint32_t index) const;
    /// NoteRestored for every sender with lost messages (idle ones are on
    /// no link's list).
    void RestoreLost();
    /**
     * \brief A message, or its ACK, reached the sender's path cut: it waits
     * for the path (Resend) or the give-up (Fail).
     * \param index the sender
     * \param lost the message
     */
    void Lose(uint32_t index, const Lost& lost);
    /**
     * \brief The path of a sender with lost messages came back: they go
     * again, before the messages behind them, and lost ACKs return.
     * \param index the sender
     */
    void Resend(uint32_t index);
    /**
     * \brief Queue a message behind the sender's others (it starts the
     * flow if it has none).
     * \param index the sender
     * \param m the message
     * \param nowNs now, ns
     */
    void Enqueue(uint32_t index, const Message& m, int64_t nowNs);
    /**
     * \brief A sender with messages (Outstanding) may have lost its path: if it did, its
     * queue pair gives up after its GetGiveUpTime(), as its retries would
     * at packet level, unless the path comes back first.
     * \param index the sender
     * \param nowNs now, ns
     */
    void NoteCut(uint32_t index, int64_t nowNs);
    /**
     * \brief A sender's path may have come back: it no longer gives up,
     * and its lost messages go again (Resend).
     * \param index the sender
     */
    void NoteRestored(uint32_t index);
    /**
     * \brief A sender's give-up time has passed since its path was cut:
     * unless the path came back meanwhile, its messages fail (Fail).
     * \param index the sender
     * \param sinceNs when the path was cut, ns (a later cut has its own)
     */
    void GiveUp(uint32_t index, int64_t sinceNs);
    /**
     * \brief The sender's queue pair enters the error state: its messages
     * leave the fluid and complete in error (RdmaQueuePair::FailOffloaded).
     * \param index the sender
     */
    void Fail(uint32_t index);

    uint32_t m_packetOverhead;         //!< wire bytes per packet besides payload
    uint32_t m_ackBytes;               //!< wire bytes of an ACK
    bool m_shared;                     //!< flows share links (else each at its path's rate)
    std::vector<Link> m_links;         //!< the link directions
    std::vector<uint8_t> m_linkUp;     //!< per link direction: whether it carries anything
    uint32_t m_linksDown{0};           //!< link directions down
    std::vector<int64_t> m_linkDownNs; //!< per link direction: when it last went down, ns
    std::vector<double> m_linkDelayS;  //!< per link direction: its propagation delay, s
    std::vector<double> m_residual;    //!< per link direction: what a computation may give out
    std::vector<Ptr<RdmaNic>> m_hosts; //!< NIC per host
    std::unordered_map<uint32_t, uint32_t> m_hostOfAddress; //!< address -> host
    PathFunction m_paths;                                   //!< the switches' ECMP choice
    std::vector<Sender> m_senders;                          //!< every sending queue pair
    std::unordered_map<uint32_t, std::vector<Lost>> m_lost; //!< per sender: its lost messages
    /// the senders' paths, each followed by its slots (Path, Slots)
    std::vector<uint32_t> m_hopPool;
    std::vector<FlowRate> m_rates; //!< per sender: its rate
    /// per host: QP number of a sending queue pair -> its sender (NONE: none yet)
    std::vector<std::vector<uint32_t>> m_senderOfQpn;
    uint64_t m_routeEpoch{0};                       //!< bumped when the routes change
    uint32_t m_activeFlows{0};                      //!< senders with messages
    std::vector<uint32_t> m_dirty;                  //!< senders whose rate must be recomputed
    std::vector<uint32_t> m_component;              //!< the flows of one recomputation
    std::vector<MaxMinAllocator::Demand> m_demands; //!< parallel to m_component
    MaxMinAllocator m_allocator;                    //!< computes the rates
    uint32_t m_visit{0};             //!< rate computations so far (wraps: a stamp, not a count)
    uint32_t m_pass{0};              //!< rounds of rate computations so far (wraps: a stamp)
    std::vector<uint32_t> m_touched; //!< links of the round under way
    std::vector<uint32_t> m_grow;    //!< senders joining the next round
    IndexedHeap m_ends;              //!< per active sender: its head message's end, ns
    EventId m_update;                //!< the pending rate computation
    bool m_updatePending{false};     //!< m_update is pending
    EventId m_next;                  //!< the next message end
    int64_t m_nextAtNs{-1};          //!< when m_next fires (-1: none)
    uint64_t m_messagesDelivered{0}; //!< messages delivered
    uint64_t m_bytesDelivered{0};    //!< payload bytes delivered
    uint64_t m_rateUpdates{0};       //!< rate computations
    uint64_t m_flowsAllocated{0};    //!< flows over all rate computations
    uint32_t m_peakFlows{0};         //!< most flows at once
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_deliveredTrace; //!< delivered messages
};

} // namespace ns3

#endif /* FLUID_NETWORK_H */
