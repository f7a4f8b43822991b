/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "ns3/fabric-switch.h"
#include "ns3/ipv4-address.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/pfc-net-device.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-helper
 * \brief A fabric built by FabricTopologyHelper: hosts, switches, links and
 * the facts about them that experiments need.
 *
 * Hosts are numbered 0..H-1 in topology order (leaf 0's hosts first; in a
 * fat-tree pod 0 edge 0's hosts first; in a dumbbell the left side first;
 * in a rail-optimised fabric by server, host = server x rails + NIC).
 * Host i has the IPv4 address 10.0.0.0 + (i + 1) and one PfcNetDevice with
 * no egress yet: the caller installs the host stack (e.g. RdmaHelper).
 */
struct FabricTopology
{
    /// A switch of the fabric.
    struct Switch
    {
        Ptr<Node> node;       //!< its node
        Ptr<FabricSwitch> sw; //!< the switch aggregated to the node
        std::string name; //!< e.g. "leaf0", "spine1", "rg0-rail3", "pod2-agg1", "core3", "ring2"
        uint32_t tier; //!< 0 = connects hosts (leaf, edge), 1 = next (spine, aggregation), 2 = core
        std::vector<uint32_t> portLink; //!< per port: index in links of its outgoing direction
    };

    /// One direction of a cable.
    struct Link
    {
        std::string name;     //!< e.g. "leaf0->spine1", "host3->leaf0"
        Ptr<PfcNetDevice> tx; //!< the sending device
        Ptr<PfcNetDevice> rx; //!< the receiving device
    };

    std::string kind; //!< "leaf-spine", "rail-optimized", "fat-tree", "dumbbell", "ring" or "links"
    NodeContainer hosts;                        //!< the hosts, in topology order
    std::vector<Ptr<PfcNetDevice>> hostDevices; //!< per host: its port
    std::vector<Ipv4Address> hostAddresses;     //!< per host: its address
    std::vector<uint32_t> hostSwitch;           //!< per host: index in switches of its switch
    std::vector<uint32_t> hostUplink;           //!< per host: index in links of host->switch
    NodeContainer switchNodes;                  //!< the switch nodes, in switches' order
    std::vector<Switch> switches;               //!< the switches
    std::vector<Link> links;                    //!< both directions of every cable
    std::vector<int32_t> switchOfNode;          //!< per node id: index in switches, or -1

    /** \return the number of hosts */
    uint32_t GetNHosts() const;

    /**
     * \param address an address
     * \return the index of the host that has it, or -1
     */
    int64_t GetHostIndex(Ipv4Address address) const;

    /**
     * \param name a link direction's name, e.g. "leaf0->spine1"
     * \return its index in links, or -1 when there is none
     */
    int64_t FindLink(const std::string& name) const;

    /**
     * \brief The links a flow crosses, following each switch's ECMP choice.
     * \param src source host
     * \param dst destination host
     * \param srcPort UDP source port (the flow's entropy)
     * \param dstPort UDP destination port
     * \return indices in links, from src's uplink to dst's downlink (for
     *         src == dst, the host's link to its switch and back); empty
     *         when the flow finds no route
     */
    std::vector<uint32_t> GetPath(uint32_t src,
                                  uint32_t dst,
                                  uint16_t srcPort,
                                  uint16_t dstPort = 4791) const;

    /**
     * \brief A shortest path on the fabric as built, every cable up and
     * no ECMP choice (the first in port order): what a flow would cross on
     * the intact fabric, for an ideal time when its own route is broken.
     * \param src source host
     * \param dst destination host
     * \return indices in links, as GetPath; empty when no cable joins them
     */
    std::vector<uint32_t> GetBuiltPath(uint32_t src, uint32_t dst) const;

    /**
     * \brief Install every switch's routes: for every switch with hosts, a
     * breadth-first search over the switch graph gives every other switch
     * all its next hops on shortest paths to it, which form the ECMP group
     * of each of that switch's hosts; a switch's own hosts have a one-port
     * group. Only the fabric cables that are up count (PfcChannel::IsLinkUp),
     * so that calling it again after a link change withdraws the routes
     * over a dead cable and restores them when it is back, as a routing
     * protocol would once converged; a switch that no longer reaches a
     * host's switch loses its route to the host. Routes never move off a
     * host's own cable (its switch has no other way to it).
     *
     * FabricTopologyHelper calls it once with every cable up.
     */
    void ComputeRoutes() const;

    /**
     * \brief The base RTT of the fabric for HPCC (its BaseRtt attribute): the
     * largest over the paths from host 0 (every path length of the
     * symmetric topologies) of the propagation delays both ways plus one
     * data frame's and one ACK's serialization per hop, as the HPCC
     * authors' simulator takes the largest base RTT of its topology. A
     * receiver that acknowledges every \p ackEvery packets holds the ACK of
     * a window's first packet for \p ackEvery - 1 more frames of its link:
     * that is in the RTT a sender at line rate sees, and in its window.
     * \param mtu RDMA payload bytes per packet
     * \param intBytes INT bytes per data packet and ACK (IntHeader::SizeFor)
     * \param ackEvery the receivers' ACK interval, packets
     * \return the base RTT
     */
    Time GetMaxBaseRtt(uint32_t mtu, uint32_t intBytes, uint32_t ackEvery = 1) const;

    /**
     * \brief The pcap files of EnablePcapHosts that this process writes.
     * \param dir the directory
     * \param hosts the hosts to capture (empty: all)
     * \return (host, DIR/host<i>.pcap) of each chosen host of this process
     */
    std::vector<std::pair<uint32_t, std::string>> GetPcapHostFiles(
        const std::string& dir,
        const std::vector<uint32_t>& hosts) const;

    /**
     * \brief Write one pcap per host port: DIR/host<i>.pcap.
     * \param dir the directory (created if missing)
     * \param hosts the hosts to capture (empty: all)
     * \param snapLen bytes kept of each frame (65535: whole frames)
     * \param start frames before this time are left out
     * \param stop frames from this time on are left out (zero: none)
     */
    void EnablePcapHosts(const std::string& dir,
                         const std::vector<uint32_t>& hosts = {},
                         uint32_t snapLen = 65535,
                         Time start = Time(),
                         Time stop = Time()) const;

    /**
     * \brief Write one pcap per switch port: DIR/<switch>-port<p>.pcap.
     * \param dir the directory (created if missing)
     */
    void EnablePcapSwitches(const std::string& dir) const;

    /**
     * \brief Fix the random streams of the switches (ECN marking).
     * \param stream first stream index to use
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream) const;

    /** \return the counters of all switches, added up (peak buffer: the largest) */
    FabricSwitch::Stats GetSwitchStats() const;
    /**
     * \param link a link direction (index in links) that ends at a switch
     * \return PFC pause decisions of that switch port against the link's
     *         sender (0 when the link ends at a host: hosts never pause)
     */
    uint64_t GetPfcPauses(uint32_t link) const;
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_H */
