/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_TOPOLOGY_HELPER_H
#define FABRIC_TOPOLOGY_HELPER_H

#include "fabric-topology.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/queue-disc.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-helper
 * \brief Builds lossless RoCE fabrics: leaf-spine, rail-optimised
 * leaf-spine, k-ary fat-tree, dumbbell, ring, and any fabric given cable by
 * cable (BuildGraph), with
 * FabricSwitches, PFC links, addresses and ECMP routes.
 *
 * Configure with the setters, then call one of the Build methods. Each
 * returns a FabricTopology whose hosts are numbered 0..H-1 in topology order
 * and have no host stack yet (install one on FabricTopology::hostDevices).
 *
 * What the helper sets up:
 * - links: host links at the host rate, switch-to-switch links at the
 *   fabric rate, all with the same propagation delay and MTU; PFC on the
 *   devices follows SetPfc();
 * - switches: one FabricSwitch per switch node, its SwitchMmu sized with
 *   SetBufferSize(), PFC headroom per port from the port's link (see
 *   GetHeadroom()), ECN thresholds from SetEcn() and SetEcnClass() on every
 *   port, the egress queue discs of SetQueueDisc() (if called), and an ECMP
 *   seed per switch derived from SetEcmpSeed() and the switch's index;
 * - routes: for every destination host, every switch gets all its next hops
 *   on shortest paths (breadth-first search over the switch graph) as the
 *   destination's ECMP group.
 *
 * Any parameter that cannot work (zero rate, negative delay, a buffer that
 * cannot hold the PFC headroom, an odd fat-tree arity, more hosts than
 * addresses, ...) is reported before any node is created: the Check methods
 * return one message naming the parameter (empty when fine), and the Build
 * methods throw std::invalid_argument with that message.
 */
class FabricTopologyHelper
{
  public:
    /// The largest number of hosts: addresses 10.0.0.1 .. 10.255.255.254.
    static constexpr uint32_t MAX_HOSTS = (1u << 24) - 2;

    FabricTopologyHelper();

    /** \param rate line rate of host links (default 100 Gb/s) */
    void SetHostRate(DataRate rate);
    /** \param rate line rate of switch-to-switch links (default 100 Gb/s) */
    void SetFabricRate(DataRate rate);
    /** \param delay one-way propagation delay of every link (default 1 us) */
    void SetLinkDelay(Time delay);
    /** \param bytes buffer of each switch (default 16 MiB) */
    void SetBufferSize(uint64_t bytes);
    /** \param bytes largest IPv4 packet on the links, the devices' Mtu (default 9000) */
    void SetMtu(uint32_t bytes);
    /** \param enabled PFC on (lossless) or off (lossy, drops at the buffer limit); default on */
    void SetPfc(bool enabled);
    /** \param mask priorities that are lossless when PFC is on (default all 8) */
    void SetLosslessPriorities(uint8_t mask);
    /**
     * \brief ECN marking thresholds of every switch egress queue
     * (default 400 KB, 1600 KB, 0.2).
     * \param kminBytes bytes below which nothing is marked
     * \param kmaxBytes bytes above which everything is marked
     * \param pmax marking probability just below kmax
     */
    void SetEcn(uint32_t kminBytes, uint32_t kmaxBytes, double pmax);
    /**
     * \brief ECN marking thresholds of one traffic class on every switch
     * egress port, in place of those of SetEcn() for that class.
     * \param prio the class (0..7)
     * \param kminBytes bytes below which nothing is marked
     * \param kmaxBytes bytes above which everything is marked
     * \param pmax marking probability just below kmax
     */
    void SetEcnClass(uint8_t prio, uint32_t kminBytes, uint32_t kmaxBytes, double pmax);
    /**
     * \brief ECN marking thresholds of every switch egress port whose link
     * has this rate, in place of those of SetEcn() (SetEcnClass() still
     * overrides them for its class). Fabrics with links of several rates
     * mark each at thresholds of its own, as the HPCC simulator's KMIN_MAP,
     * KMAX_MAP and PMAX_MAP do.
     * \param rate the link rate
     * \param kminBytes bytes below which nothing is marked
     * \param kmaxBytes bytes above which everything is marked
     * \param pmax marking probability just below kmax
     */
    void SetEcnForRate(DataRate rate, uint32_t kminBytes, uint32_t kmaxBytes, double pmax);
    /** \param seed fabric-wide ECMP seed; each switch derives its own from it (default 1) */
    void SetEcmpSeed(uint32_t seed);

    /**
     * \brief Split the fabric over MPI processes (FabricRanks).
     *
     * Nodes go to processes by group: a fat-tree's pods (edge and
     * aggregation switches with their hosts; the core switches spread
     * evenly), a leaf-spine's leaves with their hosts (the spines spread
     * evenly), a rail-optimised fabric's rail groups (their leaves with their
     * servers; the spines spread evenly), a ring's switches, a dumbbell's
     * sides. Consecutive groups share a process, so only the links between
     * groups cross processes, and the groups are shared as evenly as they
     * divide. Every process builds the whole fabric and simulates the nodes
     * whose system id is its rank. Build*() throws std::invalid_argument
     * when there are more processes than groups.
     *
     * \param ranks number of processes (default 1: every node on rank 0)
     */
    void SetRanks(uint32_t ranks);

    /**
     * \param kind a topology kind ("fat-tree", "leaf-spine", ...)
     * \return what SetRanks splits it by ("pods", "leaves", "sides",
     *         "switches", "rail groups"; "fabrics" for "links", whole)
     */
    static std::string GetSplitUnit(const std::string& kind);

    /** \return the number of processes the fabric is split over */
    uint32_t GetRanks() const;

    /**
     * \brief The attributes the helper sets on every fabric it builds from
     * its own settings (rates, delay, MTU, buffer, PFC, ECN, ECMP seed):
     * Set*Attribute refuses them, and a Config::SetDefault of one has no
     * effect on its fabrics.
     * \param attribute an attribute's full name ("ns3::SwitchMmu::BufferSize")
     * \return the setter that sets it ("SetBufferSize"), or "" for one the
     *         helper leaves alone
     */
    static std::string GetOwnSetter(const std::string& attribute);

    /**
     * \brief Set an attribute of every switch's SwitchMmu (e.g. PfcAlpha,
     * ReservedBytes, ResumeOffset). BufferSize, Lossless and the ECN and
     * headroom settings are the helper's own. ResumeOffset defaults to two
     * maximum frames, 2 x (MTU + 18) bytes.
     * \param name the attribute
     * \param value its value
     */
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every PfcNetDevice (e.g. PauseQuanta).
     * DataRate, Mtu and PfcEnabled are the helper's own.
     * \param name the attribute
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of every FabricSwitch (e.g. PfcWatchdog,
     * PfcWatchdogFactory, MarkOnDequeue), before its ports are added.
     * EcmpSeed, Mmu and (after SetQueueDisc()) QueueDiscFactory and
     * NativeEgress are the helper's own.
     * \param name the attribute
     * \param value its value
     */
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Choose the egress queue disc of every switch port.
     *
     * Every port then gets a queue disc of this type, PfcPrioQueueDisc
     * included (the switches' NativeEgress is turned off). Without a call,
     * the helper leaves the switches' QueueDiscFactory attribute alone: its
     * default, served by built-in bands (FabricSwitch NativeEgress), or what
     * Config::SetDefault("ns3::FabricSwitch::QueueDiscFactory", ...) made it.
     * \tparam Ts attribute name and value pairs
     * \param type the QueueDisc's TypeId name
     * \param args attributes of the queue disc
     */
    template <typename... Ts>
    void SetQueueDisc(const std::string& type, Ts&&... args);

    /**
     * \brief PFC headroom that a port needs on a link, per lossless priority:
     * 3 x rate x delay (bytes on the wire both ways plus reaction margin,
     * after REFERENCE) + 3 maximum frames (the frame our port is sending
     * when XOFF is decided, the one the peer is sending when XOFF arrives,
     * and the one whose arrival decided it) + 2 PFC frames.
     * \param rate the link rate
     * \return bytes
     */
    uint32_t GetHeadroom(DataRate rate) const;

    /**
     * \brief PFC headroom of a port on a link of its own delay (see
     * GetHeadroom(DataRate)).
     * \param rate the link rate
     * \param delay the link's propagation delay
     * \return bytes
     */
    uint32_t GetHeadroom(DataRate rate, Time delay) const;

    /**
     * \param index a host index
     * \return its address, 10.0.0.0 + (index + 1)
     */
    static Ipv4Address GetHostAddress(uint32_t index);

    /**
     * \param leaves number of leaf switches
     * \param spines number of spine switches (0 allowed with one leaf: a single switch)
     * \param hostsPerLeaf hosts under each leaf
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf) const;
    /**
     * \param k arity of the fat-tree (even, at least 2)
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckFatTree(uint32_t k) const;
    /**
     * \param hostsPerSide hosts on each side
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckDumbbell(uint32_t hostsPerSide) const;
    /**
     * \param switches switches in the ring (at least 3)
     * \param hostsPerSwitch hosts under each switch
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckRing(uint32_t switches, uint32_t hostsPerSwitch) const;
    /**
     * \param railGroups number of rail groups
     * \param serversPerRailGroup servers in each rail group
     * \param rails NICs per server, so leaves per rail group
     * \param spines number of spine switches (0 allowed with a single leaf)
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckRailOptimized(uint32_t railGroups,
                                   uint32_t serversPerRailGroup,
                                   uint32_t rails,
                                   uint32_t spines) const;

    /**
     * \brief Build a two-tier leaf-spine (Clos) fabric: every leaf joined to
     * every spine. Oversubscription at the leaves is
     * hostsPerLeaf x host rate : spines x fabric rate.
     * Switches: leaf0..leafL-1 (tier 0), then spine0..spineS-1 (tier 1).
     * Host i sits under leaf i / hostsPerLeaf.
     * \param leaves number of leaves
     * \param spines number of spines (0 with one leaf: a single switch)
     * \param hostsPerLeaf hosts per leaf
     * \return the topology
     * \throw std::invalid_argument when CheckLeafSpine() finds a fault
     */
    FabricTopology BuildLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);

    /**
     * \brief Build a k-ary fat-tree (Al-Fares et al.): k pods of k/2 edge
     * and k/2 aggregation switches, (k/2)^2 core switches, k^3/4 hosts.
     * Switches: pod<p>-edge<e> (tier 0, pod-major), pod<p>-agg<a> (tier 1),
     * core<c> (tier 2). Host i sits under edge switch i / (k/2).
     * \param k the arity
     * \return the topology
     * \throw std::invalid_argument when CheckFatTree() finds a fault
     */
    FabricTopology BuildFatTree(uint32_t k);

    /**
     * \brief Build a dumbbell: switches "left" and "right" joined by one
     * fabric link; hosts 0..n-1 on the left, n..2n-1 on the right.
     * \param hostsPerSide n
     * \return the topology
     * \throw std::invalid_argument when CheckDumbbell() finds a fault
     */
    FabricTopology BuildDumbbell(uint32_t hostsPerSide);

    /**
     * \brief Build a ring: switches ring0 … ringN-1, switch i joined to
     * switch i+1 (and the last to the first) by fabric links, hosts
     * hostsPerSwitch × i … under switch i. Shortest paths take the short way
     * round (both ways, as an ECMP group, to the opposite switch of an even
     * ring). Flows that go more than one hop round the same way make a
     * cyclic buffer dependency: the topology in which PFC deadlocks.
     * \param switches number of switches (at least 3)
     * \param hostsPerSwitch hosts per switch
     * \return the topology
     * \throw std::invalid_argument when CheckRing() finds a fault
     */
    FabricTopology BuildRing(uint32_t switches, uint32_t hostsPerSwitch);

    /**
     * \brief Build a rail-optimised leaf-spine, as AI clusters cable their
     * GPU servers: each server has \p rails NICs, and NIC i of every server
     * of a rail group sits on that group's leaf i (rail i), so that traffic
     * between same-numbered NICs of a rail group crosses one leaf only;
     * every leaf is joined to every spine, which carry traffic between
     * rails and between rail groups.
     *
     * Switches: rg<r>-rail<i> for rail group r and rail i (tier 0, rail
     * group-major: leaf index r x rails + i), then spine0..spineS-1
     * (tier 1). Hosts are numbered by server: host h is NIC h % rails of
     * server h / rails, and server s belongs to rail group
     * s / serversPerRailGroup. Each leaf has serversPerRailGroup hosts
     * (not consecutive ones: they are rails apart).
     * \param railGroups number of rail groups
     * \param serversPerRailGroup servers in each rail group
     * \param rails NICs per server (leaves per rail group)
     * \param spines number of spines (0 with a single leaf)
     * \return the topology
     * \throw std::invalid_argument when CheckRailOptimized() finds a fault
     */
    FabricTopology BuildRailOptimized(uint32_t railGroups,
                                      uint32_t serversPerRailGroup,
                                      uint32_t rails,
                                      uint32_t spines);

    /// One cable of a fabric given cable by cable (BuildGraph).
    struct Cable
    {
        uint32_t a{0}; //!< one end, a node id
        uint32_t b{0}; //!< the other end, a node id
        DataRate rate; //!< line rate, both directions
        Time delay;    //!< propagation delay
    };

    /**
     * \param nodes number of nodes: ids 0 .. nodes - 1
     * \param switchIds the ids that are switches; the others are hosts
     * \param cables the cables
     * \return an empty string, or one message naming the cable or node at fault
     */
    std::string CheckGraph(uint32_t nodes,
                           const std::vector<uint32_t>& switchIds,
                           const std::vector<Cable>& cables) const;

    /**
     * \brief Build a fabric given cable by cable: any graph of switches,
     * each host on one cable to one switch (kind "links").
     *
     * Hosts are the node ids that are not switches, numbered 0..H-1 in id
     * order; switch s is named "sw<id>" after its id, host i "host<i>".
     * Each cable has its own rate and delay (PFC headroom and ECN from
     * them, see SetEcnForRate()); routes are ECMP over the shortest paths
     * in hops, as for the other kinds. A switch's tier is its distance in
     * hops from the nearest switch with hosts. One process only (SetRanks).
     * \param nodes number of nodes
     * \param switchIds the switches' ids
     * \param cables the cables
     * \return the topology
     * \throw std::invalid_argument when CheckGraph() finds a fault
     */
    FabricTopology BuildGraph(uint32_t nodes,
                              const std::vector<uint32_t>& switchIds,
                              const std::vector<Cable>& cables);

    /**
     * \brief The shape of a fabric: its switches, hosts and cables in the
     *        order the Build*() methods create them (for programs that build
     *        the same fabric another way, such as bench/fabric-bench).
     */
    struct Spec
    {
        std::string kind;                                        //!< topology kind
        uint32_t nHosts{0};                                      //!< number of hosts
        std::vector<std::pair<std::string, uint32_t>> switches;  //!< name and tier
        std::vector<uint32_t> hostSwitch;                        //!< per host: its switch
        std::vector<std::pair<uint32_t, uint32_t>> fabricCables; //!< switch pairs
        std::vector<uint32_t> switchGroup; //!< per switch: its group (SetRanks)
        uint32_t nGroups{1};               //!< number of groups
        std::string groupName{"groups"};   //!< what a group is ("pods", "leaves", ...)
        /// per host: its cable's rate and delay (empty: host rate, link delay)
        std::vector<std::pair<DataRate, Time>> hostCables;
        /// per fabric cable: its rate and delay (empty: fabric rate, link delay)
        std::vector<std::pair<DataRate, Time>> fabricCableLinks;
    };

    /**
     * \param leaves leaves \param spines spines \param hostsPerLeaf hosts per leaf
     * \return the leaf-spine fabric
     */
    static Spec MakeLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf);
    /**
     * \param k arity
     * \return the fat-tree
     */
    static Spec MakeFatTree(uint32_t k);
    /**
     * \param hostsPerSide hosts per side
     * \return the dumbbell
     */
    static Spec MakeDumbbell(uint32_t hostsPerSide);
    /**
     * \param switches switches \param hostsPerSwitch hosts per switch
     * \return the ring
     */
    static Spec MakeRing(uint32_t switches, uint32_t hostsPerSwitch);
    /**
     * \param railGroups rail groups \param serversPerRailGroup servers per rail group
     * \param rails NICs per server \param spines spines
     * \return the rail-optimised leaf-spine
     */
    static Spec MakeRailOptimized(uint32_t railGroups,
                                  uint32_t serversPerRailGroup,
                                  uint32_t rails,
                                  uint32_t spines);
    /**
     * \param nodes nodes \param switchIds switches \param cables cables
     * \return the fabric given cable by cable (checked by CheckGraph())
     */
    static Spec MakeGraph(uint32_t nodes,
                          const std::vector<uint32_t>& switchIds,
                          const std::vector<Cable>& cables);

  private:
    /** \return a message about the common parameters, or an empty string */
    std::string CheckCommon() const;
    /**
     * \param spec a fabric
     * \return a message if some switch's buffer cannot hold its reserves and headroom
     */
    std::string CheckBuffers(const Spec& spec) const;
    /**
     * \param spec a fabric
     * \return it, realised
     */
    FabricTopology Build(const Spec& spec) const;
    /**
     * \param mmu an MMU to configure as the switches' are (before ports are added)
     */
    void ConfigureMmu(Ptr<SwitchMmu> mmu) const;
    /**
     * \param mmu an MMU
     * \param port one of its ports
     * \param rate the port's link rate
     */
    void ConfigureMmuPort(Ptr<SwitchMmu> mmu, uint32_t port, DataRate rate) const;
    /**
     * \param mmu an MMU
     * \param port one of its ports
     * \param rate the port's link rate
     * \param delay the port's link delay
     */
    void ConfigureMmuPort(Ptr<SwitchMmu> mmu, uint32_t port, DataRate rate, Time delay) const;
    /**
     * \param spec a fabric given cable by cable
     * \return a message if some switch's buffer cannot hold its reserves and headroom
     */
    std::string CheckGraphBuffers(const Spec& spec) const;
    /**
     * \param index switch index
     * \return its ECMP seed
     */
    uint32_t SwitchSeed(uint32_t index) const;

    DataRate m_hostRate;          //!< host link rate
    DataRate m_fabricRate;        //!< switch link rate
    Time m_delay;                 //!< link delay
    uint64_t m_bufferSize;        //!< switch buffer
    uint32_t m_mtu;               //!< device MTU (IPv4 bytes)
    bool m_pfc;                   //!< lossless
    uint8_t m_losslessPriorities; //!< lossless priorities
    uint32_t m_kmin;              //!< ECN Kmin
    uint32_t m_kmax;              //!< ECN Kmax
    double m_pmax;                //!< ECN Pmax

    /// ECN thresholds of one class, set by SetEcnClass().
    struct EcnClass
    {
        bool set{false};  //!< overrides SetEcn() for the class
        uint32_t kmin{0}; //!< Kmin, bytes
        uint32_t kmax{0}; //!< Kmax, bytes
        double pmax{0};   //!< Pmax
    };

    std::array<EcnClass, TrafficClass::N_CLASSES> m_ecnClass; //!< per-class ECN thresholds
    std::map<uint64_t, EcnClass> m_ecnRate; //!< per link rate (bit/s): ECN thresholds
    uint32_t m_ecmpSeed;                    //!< fabric ECMP seed
    uint32_t m_ranks;                       //!< MPI processes
    std::vector<std::pair<std::string, Ptr<AttributeValue>>>
        m_mmuAttributes; //!< extra MMU attributes
    std::vector<std::pair<std::string, Ptr<AttributeValue>>>
        m_deviceAttributes; //!< extra device attributes
    std::vector<std::pair<std::string, Ptr<AttributeValue>>>
        m_switchAttributes;           //!< extra switch attributes
    ObjectFactory m_queueDiscFactory; //!< egress queue discs
    bool m_queueDiscSet;              //!< SetQueueDisc() was called
    std::string m_configError;        //!< error found by a setter, reported by the checks
};

template <typename... Ts>
void
FabricTopologyHelper::SetQueueDisc(const std::string& type, Ts&&... args)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(type, &tid))
    {
        m_configError = "queue disc: unknown type \"" + type + "\"";
        return;
    }
    if (!tid.IsChildOf(QueueDisc::GetTypeId()))
    {
        m_configError = "queue disc: \"" + type + "\" is not a QueueDisc";
        return;
    }
    m_queueDiscFactory = ObjectFactory();
    m_queueDiscFactory.SetTypeId(tid);
    m_queueDiscSet = true;
    if constexpr (sizeof...(Ts) > 0)
    {
        m_queueDiscFactory.Set(std::forward<Ts>(args)...);
    }
}

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_HELPER_H */
