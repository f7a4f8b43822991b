/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_SWITCH_H
#define FABRIC_SWITCH_H

#include "ecmp-route-table.h"
#include "switch-egress-hook.h"
#include "switch-mmu.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/pfc-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

class SwitchPortEgress;

/**
 * \ingroup flux-switch
 * \brief A shared-buffer Ethernet switch of a lossless RoCE fabric, routing
 * IPv4 by destination with per-flow ECMP.
 *
 * The switch is an Object aggregated to a Node; its ports are PfcNetDevices
 * added with AddPort(). For each packet received on a port:
 * 1. the IPv4 header is read and its TTL decremented (a packet whose TTL
 *    would reach 0 is dropped); the priority is TrafficClass::FromDsField(DS field);
 * 2. the destination address selects an ECMP group (AddRoute(), one array
 *    read in an EcmpRouteTable) and a member is chosen by the packet's 5-tuple hash
 *    (Ipv4QueueDiscItem::Hash: addresses, protocol, UDP/TCP ports) with the
 *    switch's EcmpSeed, so all packets of a flow take the same path and
 *    switches with different seeds split flows differently;
 * 3. the SwitchMmu admits the packet (or drops it: lossy and the buffer is
 *    full, or lossless and even the headroom is full), and pauses the ingress
 *    priority with PFC when its dynamic threshold is reached;
 * 4. an ECN-capable packet may be marked CE (RED-like, per egress queue);
 * 5. the packet joins the egress port's QueueDisc and the port is woken.
 * When the port's device pulls a packet (SwitchPortEgress), its buffer space
 * is released and the ingress priority resumed (XON) when it fell far
 * enough below the threshold. Packets dropped by a queue disc release their
 * space too.
 *
 * Each port's egress is chosen when the port is added. By default
 * (QueueDiscFactory left at ns3::PfcPrioQueueDisc, NativeEgress true) the
 * port keeps its packets in eight built-in bands served as PfcPrioQueueDisc
 * serves them (strict priority, paused bands skipped), with no QueueDisc on
 * the per-packet path; otherwise it gets a QueueDisc made by the
 * QueueDiscFactory attribute. Either may be replaced with SetQueueDisc()
 * before the simulation starts.
 *
 * PFC watchdog: with the PfcWatchdog attribute true, every port's device
 * gets a PfcWatchdog made by PfcWatchdogFactory, which watches the port's
 * egress queues (port, priority) for PFC storms and deadlocks; the
 * packets it discards are drops of reason DROP_PFC_WATCHDOG.
 *
 * Local failover (attribute Failover, on by default): the switch follows
 * the link state of its ports' PfcChannels, as loss-of-signal detection
 * does, after LinkDownDelay (down) or LinkUpDelay (up). A port seen down
 * leaves every ECMP group it belongs to, and the packets queued for it are
 * dropped (DROP_LINK_DOWN); a port seen up again rejoins them. Each group
 * keeps the array of its live members, updated at link changes, so the
 * choice stays O(1) per packet; it is resilient: a flow keeps the member
 * its hash picks among all configured members while that member is up, and
 * only the flows of a dead member are spread (by the same hash) over the
 * live ones. A packet whose group has no live member is dropped
 * (DROP_LINK_DOWN).
 */
class FabricSwitch : public Object, public PfcIpv4Receiver
{
  public:
    /// Why the switch dropped a packet.
    enum DropReason : uint8_t
    {
        DROP_NO_ROUTE = 0,      //!< no route to the destination
        DROP_TTL_EXPIRED,       //!< TTL would reach zero
        DROP_BUFFER_FULL,       //!< lossy priority, shared buffer full
        DROP_HEADROOM_EXCEEDED, //!< lossless priority, PFC headroom full (misconfiguration)
        DROP_QUEUE_DISC,        //!< dropped by the egress queue disc
        DROP_PFC_WATCHDOG,      //!< discarded by a port's PFC watchdog (Action "drop")
        DROP_LINK_DOWN,         //!< its egress port's link went down (queued there, or
                                //!< no live next hop)
        N_DROP_REASONS          //!< number of reasons
    };

    /**
     * TracedCallback signature for packets at a port.
     * \param [in] item the packet with its IPv4 header
     * \param [in] port the egress port (ingress port for drops before routing)
     */
    typedef void (*PortItemTracedCallback)(Ptr<const QueueDiscItem> item, uint32_t port);

    /**
     * TracedCallback signature for drops.
     * \param [in] item the packet with its IPv4 header
     * \param [in] port the ingress port, or the egress port for DROP_QUEUE_DISC
     * \param [in] reason a DropReason
     */
    typedef void (*DropTracedCallback)(Ptr<const QueueDiscItem> item,
                                       uint32_t port,
                                       uint8_t reason);

    /**
     * TracedCallback signature for PFC decisions.
     * \param [in] port the ingress port that pauses or resumes its peer
     * \param [in] prio the priority
     */
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t prio);

    /**
     * TracedCallback signature for link state changes the switch acts on.
     * \param [in] port the port
     * \param [in] up its new state
     */
    typedef void (*LinkStateTracedCallback)(uint32_t port, bool up);

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FabricSwitch();
    ~FabricSwitch() override;

    /**
     * \brief Make a device a port of the switch.
     *
     * The device (already added to the switch's node, whose interface index
     * identifies the port on receive, and attached to its link) gets the switch's receive handler
     * and a SwitchPortEgress with built-in bands or a queue disc made by the QueueDiscFactory
     * (see NativeEgress), unless the switch is route-only (RouteOnly); the MMU gets a port.
     *
     * \param dev the device
     * \return the port index (0, 1, ... in the order of the calls)
     */
    uint32_t AddPort(Ptr<PfcNetDevice> dev);

    /** \return the number of ports */
    uint32_t GetNPorts() const;

    /**
     * \param port a port
     * \return its device
     */
    Ptr<PfcNetDevice> GetPortDevice(uint32_t port) const;

    /**
     * \brief Replace the egress queue disc of a port (before the simulation
     * starts). The queue disc is initialised here.
     * \param port the port
     * \param qdisc the queue disc
     */
    void SetQueueDisc(uint32_t port, Ptr<QueueDisc> qdisc);

    /**
     * \param port a port
     * \return its egress queue disc (null for a port with built-in bands, see NativeEgress)
     */
    Ptr<QueueDisc> GetQueueDisc(uint32_t port) const;

    /**
     * \param port a port
     * \return the bytes queued at its egress (built-in bands or queue disc)
     */
    uint32_t GetQueuedBytes(uint32_t port) const;

    /**
     * \param port a port
     * \return the packets queued at its egress (built-in bands or queue disc)
     */
    uint32_t GetQueuedPackets(uint32_t port) const;

    /** \return the shared-buffer manager */
    Ptr<SwitchMmu> GetMmu() const;

    /**
     * \brief Tell a hook of every item that joins or leaves an egress queue
     * (in-band telemetry; FabricTopologyHelper installs an IntStamper).
     * \param hook the hook (null: none)
     */
    void SetEgressHook(Ptr<SwitchEgressHook> hook);

    /// \return the egress hook (null: none)
    Ptr<SwitchEgressHook> GetEgressHook() const;

    /**
     * \brief Give every port (those added later too) a PfcWatchdog made by
     * the PfcWatchdogFactory attribute, or remove them.
     * \param enabled true to watch the ports
     */
    void SetPfcWatchdogEnabled(bool enabled);

    /** \return true when the ports have PFC watchdogs */
    bool GetPfcWatchdogEnabled() const;

    /**
     * \brief Add a next hop towards a destination host.
     *
     * All ports added for the same destination form its ECMP group; adding
     * a port twice has no effect.
     *
     * \param dst the destination address
     * \param port the egress port
     */
    void AddRoute(Ipv4Address dst, uint32_t port);

    /**
     * \brief Set the whole ECMP group of a destination, replacing any route to it.
     * \param dst the destination address
     * \param ports the egress ports (an empty list removes the route)
     * \param withdrawn members of \p ports that routing withdrew: they keep
     *        their place in the hash, as a dead port does, and their flows
     *        go to the others (resilient hashing), so that the rest stay put
     */
    void SetRoute(Ipv4Address dst,
                  const std::vector<uint32_t>& ports,
                  const std::vector<uint32_t>& withdrawn = {});

    /** \brief Remove all routes. */
    void ClearRoutes();

    /**
     * \param dst a destination address
     * \return its ECMP group as configured, dead and withdrawn members included (empty
     *         when there is no route)
     */
    std::vector<uint32_t> GetRoute(Ipv4Address dst) const;

    /**
     * \param dst a destination address
     * \return the members of its ECMP group that the switch sees up
     */
    std::vector<uint32_t> GetLiveRoute(Ipv4Address dst) const;

    /**
     * \param port a port
     * \return whether the switch sees the port's link up (and routes over it)
     */
    bool IsPortUp(uint32_t port) const;

    /** \return the number of destinations with a route */
    uint32_t GetNRoutes() const;

    /**
     * \brief The port a packet would leave by (the ECMP choice).
     * \param item the packet, IPv4 header apart, starting at its UDP/TCP header
     * \return the egress port, or -1 when there is no route or no live next hop
     */
    int64_t GetEgressPort(Ptr<const Ipv4QueueDiscItem> item) const;

    /** \param seed the ECMP hash seed */
    void SetEcmpSeed(uint32_t seed);
    /** \return the ECMP hash seed */
    uint32_t GetEcmpSeed() const;

    /**
     * \brief Fix the random streams of the switch (ECN marking).
     * \param stream first stream index to use
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief The switch's counters, in one place (as ns-3's QueueDisc::Stats):
     * its own, its MMU's PFC decisions, its ports' pause frames and
     * watchdogs, and the marks of its ports' queue discs.
     */
    struct Stats
    {
        uint64_t nRxPackets{0};                                 //!< packets received
        std::array<uint64_t, N_DROP_REASONS> nDroppedPackets{}; //!< drops per reason
        uint64_t nEcnMarks{0};           //!< packets marked CE (marks the MMU decided)
        uint64_t nQueueDiscMarks{0};     //!< packets the ports' queue discs marked CE
        uint64_t nPfcPauses{0};          //!< PFC pause decisions (XOFF) of all ports
        uint64_t nPfcResumes{0};         //!< PFC resume decisions (XON) of all ports
        uint64_t nPfcPauseFramesSent{0}; //!< PFC pause frames sent, refreshes included
        uint64_t nLinkStateChanges{0};   //!< link changes acted on (ports down or up)
        PfcWatchdog::Counters watchdog;  //!< what the ports' PFC watchdogs did

        /** \return all packets dropped, whatever the reason */
        uint64_t GetNDroppedPackets() const;
        /**
         * \param reason a reason
         * \return packets dropped for that reason
         */
        uint64_t GetNDroppedPackets(DropReason reason) const;
        /**
         * \param o counters to add
         * \return this
         */
        Stats& operator+=(const Stats& o);
    };

    /** \return the counters */
    Stats GetStats() const;
    /**
     * \param port a port
     * \return PFC pause decisions (XOFF) of the port: how often it paused its peer
     */
    uint64_t GetPfcPauses(uint32_t port) const;
    /**
     * \param port a port
     * \return packets sent by the port
     */
    uint64_t GetTxPackets(uint32_t port) const;
    /**
     * \param port a port
     * \return bytes (IPv4 packets) sent by the port
     */
    uint64_t GetTxBytes(uint32_t port) const;

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    friend class SwitchPortEgress;

    /// One port.
    struct Port
    {
        Ptr<PfcNetDevice> dev;        //!< the device
        Ptr<SwitchPortEgress> egress; //!< its egress
        uint64_t txPackets{0};        //!< packets sent
        uint64_t txBytes{0};          //!< IPv4 bytes sent
        uint64_t pfcPauses{0};        //!< XOFF decisions of the port as ingress
        bool linkSeen{true};          //!< the link state last reported by the channel
        bool up{true};                //!< the link state the routes follow
    };

    /// An ECMP group: its configured members and those that are up.
    struct EcmpGroup
    {
        uint32_t first;             //!< index of its first member in m_memberPool
        uint32_t n;                 //!< number of members
        std::vector<uint32_t> live; //!< members up and not withdrawn, in order
    };

    /**
     * \brief Receive handler of the port devices.
     * \param dev the device
     * \param p the packet, after its IPv4 header
     * \param ip its IPv4 header (the switch decrements its TTL)
     * \param pcp the priority of the frame's VLAN tag
     */
    void ReceiveIpv4(Ptr<PfcNetDevice> dev, Ptr<Packet> p, Ipv4Header& ip, uint8_t pcp) override;

    /**
     * \brief The ECMP choice of a packet in a group.
     * \param group the group
     * \param item the packet
     * \param [out] out the egress port
     * \return false when no member is up
     */
    bool SelectMember(const EcmpGroup& group, const QueueDiscItem* item, uint32_t& out) const;

    /**
     * \param ports the members of a group
     * \param withdrawn those of them routing withdrew
     * \return the index of the group with these members (created if needed)
     */
    uint32_t InternGroup(const std::vector<uint32_t>& ports,
                         const std::vector<uint32_t>& withdrawn = {});

    /// Rebuild the live members of every group from the ports' state.
    void UpdateLiveMembers();

    /**
     * \brief The link of a port changed state (link change callback of its device).
     * \param self the switch
     * \param port the port
     */
    static void LinkChanged(FabricSwitch* self, uint32_t port);

    /**
     * \brief Make the routes follow a port's link state (after the detection delay).
     * \param port the port
     */
    void ApplyLinkState(uint32_t port);

    /**
     * \brief Drop what is queued at a port whose link went down.
     * \param port the port
     */
    void FlushPort(uint32_t port);

    /**
     * \brief Count and trace a drop.
     * \param item the packet
     * \param port the port
     * \param reason the reason
     */
    void Drop(Ptr<const QueueDiscItem> item, uint32_t port, DropReason reason);

    /**
     * \brief An item left a port's queue disc for transmission.
     * \param port the port
     * \param item the item
     */
    void ItemDequeued(uint32_t port, Ptr<QueueDiscItem> item);

    /**
     * \brief Mark an ECN-capable packet CE when its egress queue says so.
     * \param item the packet
     * \param out its egress port
     * \param prio its priority
     */
    void MaybeMarkEcn(const Ptr<QueueDiscItem>& item, uint32_t out, uint8_t prio);

    /**
     * \brief A port's PFC watchdog discarded an item (SwitchPortEgress::DequeueForDiscard).
     * \param port the port
     * \param item the item
     */
    void ItemDiscarded(uint32_t port, Ptr<const QueueDiscItem> item);

    /**
     * \brief Add a port whose egress is set (none for a route-only port):
     * the MMU's port, the receive handler and the link state.
     * \param p the port
     * \return its index
     */
    uint32_t AddRoutePort(const Port& p);

    /**
     * \brief Give a port's device a watchdog from the factory.
     * \param port the port
     */
    void InstallWatchdog(uint32_t port);

    /**
     * \brief A port's queue disc dropped an item.
     * \param port the port
     * \param item the item
     */
    void ItemDroppedByQueueDisc(uint32_t port, Ptr<const QueueDiscItem> item);

    /**
     * \brief Give back an item's buffer space and resume its ingress when due.
     * \param port the egress port
     * \param item the item
     */
    void Release(uint32_t port, const QueueDiscItem* item);

    /**
     * \brief Make a port's device follow the MMU's pause state (deferred XON).
     * \param port the ingress port
     * \param prio the priority
     */
    void ApplyPauseState(uint32_t port, uint8_t prio);

    std::vector<Port> m_ports;            //!< the ports
    std::vector<int32_t> m_portOfIfIndex; //!< per device interface index: its port, or -1
    Ptr<SwitchMmu> m_mmu;                 //!< the buffer manager
    ObjectFactory m_queueDiscFactory;     //!< makes the ports' queue discs
    bool m_nativeEgress{true};            //!< default-queue-disc ports get built-in bands
    bool m_routeOnly{false};              //!< ports get no egress (attribute RouteOnly)
    bool m_pfcWatchdog;                   //!< ports have PFC watchdogs
    ObjectFactory m_watchdogFactory;      //!< makes the ports' PFC watchdogs
    bool m_markOnDequeue;                 //!< decide ECN marks at dequeue
    bool m_waitEcn{false};                //!< also mark from a packet's wait (attribute WaitEcn)
    Ptr<SwitchEgressHook> m_egressHook;   //!< told of every enqueue and dequeue (may be null)
    uint32_t m_ecmpSeed;                  //!< ECMP hash perturbation
    bool m_failover;                      //!< follow the ports' link state
    Time m_linkDownDelay;                 //!< link-down detection time
    Time m_linkUpDelay;                   //!< link-up detection (hold-down) time
    EcmpRouteTable m_routes;              //!< destination -> group index
    std::vector<EcmpGroup> m_groups;      //!< the ECMP groups in use
    std::vector<uint32_t> m_memberPool;   //!< the members of all groups, group after group
    std::vector<uint8_t> m_memberRouted;  //!< per m_memberPool entry: 0 when withdrawn
    /// members, then UINT32_MAX and the withdrawn ones -> group index
    std::map<std::vector<uint32_t>, uint32_t> m_groupOfPorts;
    uint32_t m_lastGroup{0}; //!< the group interned last (routes come in runs of one group)

    Stats m_stats; //!< the switch's own counters (see GetStats)

    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_enqueueTrace;       //!< packet queued
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_dequeueTrace;       //!< packet sent
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t> m_ecnMarkTrace;       //!< packet marked
    TracedCallback<Ptr<const QueueDiscItem>, uint32_t, uint8_t> m_dropTrace; //!< packet dropped
    TracedCallback<uint32_t, uint8_t> m_pauseTrace;                          //!< XOFF decided
    TracedCallback<uint32_t, uint8_t> m_resumeTrace;                         //!< XON decided
    TracedCallback<uint32_t, bool> m_linkStateTrace; //!< routes follow a link change
};

} // namespace ns3

#endif /* FABRIC_SWITCH_H */
