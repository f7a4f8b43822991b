/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-topology.h"

#include "pfc-link-helper.h"

#include "ns3/assert.h"
#include "ns3/fabric-queue-disc-item.h"
#include "ns3/fabric-ranks.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-channel.h"
#include "ns3/switch-mmu.h"
#include "ns3/system-path.h"
#include "ns3/traffic-class.h"
#include "ns3/udp-header.h"

#include <algorithm>
#include <deque>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopology");

uint32_t
FabricTopology::GetNHosts() const
{
    return hosts.GetN();
}

int64_t
FabricTopology::FindLink(const std::string& name) const
{
    for (std::size_t l = 0; l < links.size(); ++l)
    {
        if (links[l].name == name)
        {
            return static_cast<int64_t>(l);
        }
    }
    return -1;
}

int64_t
FabricTopology::GetHostIndex(Ipv4Address address) const
{
    // Host i has 10.0.0.0 + (i + 1); check rather than assume.
    const int64_t guess = static_cast<int64_t>(address.Get()) - 0x0a000000 - 1;
    if (guess >= 0 && guess < static_cast<int64_t>(hostAddresses.size()) &&
        hostAddresses[guess] == address)
    {
        return guess;
    }
    for (std::size_t i = 0; i < hostAddresses.size(); ++i)
    {
        if (hostAddresses[i] == address)
        {
            return i;
        }
    }
    return -1;
}

std::vector<uint32_t>
FabricTopology::GetPath(uint32_t src, uint32_t dst, uint16_t srcPort, uint16_t dstPort) const
{
    std::vector<uint32_t> path;
    if (src >= GetNHosts() || dst >= GetNHosts())
    {
        return path;
    }
    // A probe with the flow's 5-tuple, the item the switches make of a
    // packet, so that it hashes as they do.
    Ptr<Packet> p = Create<Packet>();
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(dstPort);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(hostAddresses[src]);
    ip.SetDestination(hostAddresses[dst]);
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    Ptr<FabricQueueDiscItem> probe = Create<FabricQueueDiscItem>(p, ip, 0, 0, 0);

    // (src == dst too: up to the host's switch, which sends it back down,
    // as it does a packet addressed to the host it came from)
    path.push_back(hostUplink[src]);
    uint32_t sw = hostSwitch[src];
    // A shortest path never visits more switches than there are.
    for (std::size_t hop = 0; hop <= switches.size(); ++hop)
    {
        const int64_t port = switches[sw].sw->GetEgressPort(probe);
        if (port < 0)
        {
            return {};
        }
        const uint32_t link = switches[sw].portLink[port];
        path.push_back(link);
        Ptr<Node> next = links[link].rx->GetNode();
        if (next == hosts.Get(dst))
        {
            return path;
        }
        const uint32_t id = next->GetId();
        if (id >= switchOfNode.size() || switchOfNode[id] < 0)
        {
            return {};
        }
        sw = switchOfNode[id];
    }
    return {};
}

std::vector<uint32_t>
FabricTopology::GetBuiltPath(uint32_t src, uint32_t dst) const
{
    if (src >= GetNHosts() || dst >= GetNHosts())
    {
        return {};
    }
    // Breadth first from src's switch over the links out of switches; a
    // link's index marks how its far end was first reached.
    std::vector<std::vector<uint32_t>> out(switches.size());
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        const uint32_t id = links[l].tx->GetNode()->GetId();
        if (id < switchOfNode.size() && switchOfNode[id] >= 0)
        {
            out[switchOfNode[id]].push_back(l);
        }
    }
    const uint32_t target = hosts.Get(dst)->GetId();
    std::vector<int64_t> via(switches.size(), -1); // the link into each switch
    std::deque<uint32_t> todo{hostSwitch[src]};
    via[hostSwitch[src]] = hostUplink[src];
    while (!todo.empty())
    {
        const uint32_t sw = todo.front();
        todo.pop_front();
        for (uint32_t l : out[sw])
        {
            const uint32_t id = links[l].rx->GetNode()->GetId();
            if (id == target)
            {
                std::vector<uint32_t> path{l};
                for (uint32_t at = sw;; at = switchOfNode[links[via[at]].tx->GetNode()->GetId()])
                {
                    path.push_back(static_cast<uint32_t>(via[at]));
                    if (via[at] == hostUplink[src])
                    {
                        break;
                    }
                }
                std::reverse(path.begin(), path.end());
                return path;
            }
            if (id < switchOfNode.size() && switchOfNode[id] >= 0 && via[switchOfNode[id]] < 0)
            {
                via[switchOfNode[id]] = l;
                todo.push_back(switchOfNode[id]);
            }
        }
    }
    return {};
}

void
FabricTopology::ComputeRoutes() const
{
    const std::size_t nSwitches = switches.size();
    // Per switch: (port, neighbour switch) over the cables that are up, in
    // port order, and the hosts on it with their ports.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> adjacency(nSwitches);
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> intact(nSwitches); // every cable
    bool down = false;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> hostsOf(nSwitches);
    std::vector<int64_t> hostOfNode(switchOfNode.size(), -1);
    for (uint32_t h = 0; h < GetNHosts(); ++h)
    {
        const uint32_t id = hosts.Get(h)->GetId();
        if (hostOfNode.size() <= id)
        {
            hostOfNode.resize(id + 1, -1);
        }
        hostOfNode[id] = h;
    }
    for (uint32_t s = 0; s < nSwitches; ++s)
    {
        const auto& portLinks = switches[s].portLink;
        for (uint32_t port = 0; port < portLinks.size(); ++port)
        {
            const Link& link = links[portLinks[port]];
            const uint32_t id = link.rx->GetNode()->GetId();
            if (id < switchOfNode.size() && switchOfNode[id] >= 0)
            {
                Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(link.tx->GetChannel());
                if (!ch || ch->IsLinkUp())
                {
                    adjacency[s].emplace_back(port, switchOfNode[id]);
                }
                down = down || (ch && !ch->IsLinkUp());
                intact[s].emplace_back(port, switchOfNode[id]);
            }
            else if (id < hostOfNode.size() && hostOfNode[id] >= 0)
            {
                hostsOf[s].emplace_back(hostOfNode[id], port);
            }
        }
    }
    const uint32_t unreached = std::numeric_limits<uint32_t>::max();
    // hops from every switch to t over the given cables
    auto distances = [&](const auto& cables, uint32_t t) {
        std::vector<uint32_t> dist(nSwitches, unreached);
        std::deque<uint32_t> queue{t};
        dist[t] = 0;
        while (!queue.empty())
        {
            const uint32_t s = queue.front();
            queue.pop_front();
            for (const auto& [port, n] : cables[s])
            {
                if (dist[n] == unreached)
                {
                    dist[n] = dist[s] + 1;
                    queue.push_back(n);
                }
            }
        }
        return dist;
    };
    // the ports of s on shortest paths to t
    auto towards = [&](const auto& cables, const std::vector<uint32_t>& dist, uint32_t s) {
        std::vector<uint32_t> ports;
        for (const auto& [port, n] : cables[s])
        {
            if (dist[s] != unreached && dist[n] + 1 == dist[s])
            {
                ports.push_back(port);
            }
        }
        return ports;
    };
    std::vector<uint32_t> group;
    std::vector<uint32_t> all;
    std::vector<uint32_t> withdrawn;
    for (uint32_t t = 0; t < nSwitches; ++t)
    {
        if (hostsOf[t].empty())
        {
            continue;
        }
        const std::vector<uint32_t> dist = distances(adjacency, t);
        const std::vector<uint32_t> whole = down ? distances(intact, t) : dist;
        for (const auto& [h, port] : hostsOf[t])
        {
            switches[t].sw->SetRoute(hostAddresses[h], {port});
        }
        for (uint32_t s = 0; s < nSwitches; ++s)
        {
            if (s == t)
            {
                continue;
            }
            group = towards(adjacency, dist, s);
            // Where a failure only takes members away (the paths left are
            // as short), the group keeps them as withdrawn: resilient
            // hashing moves their flows alone, as the switch's failover did.
            // (Every live next hop is then an intact one: its intact distance
            // is at most its live one, one less than s's, and at least that,
            // since the cable to s is intact.) Where paths grow, the hash
            // starts over.
            withdrawn.clear();
            all = down && !group.empty() && dist[s] == whole[s] ? towards(intact, whole, s) : group;
            for (uint32_t port : all)
            {
                if (std::find(group.begin(), group.end(), port) == group.end())
                {
                    withdrawn.push_back(port);
                }
            }
            NS_ASSERT(all.size() - withdrawn.size() == group.size());
            for (const auto& hp : hostsOf[t])
            {
                // (an empty group: no route)
                switches[s].sw->SetRoute(hostAddresses[hp.first], all, withdrawn);
            }
        }
    }
}

void
FabricTopology::EnablePcapHosts(const std::string& dir,
                                const std::vector<uint32_t>& hosts,
                                uint32_t snapLen,
                                Time start,
                                Time stop) const
{
    SystemPath::MakeDirectories(dir); // (ns-3's pcap files need it)
    PfcLinkHelper helper;
    helper.SetPcapCapture(snapLen, start, stop);
    for (const auto& [host, file] : GetPcapHostFiles(dir, hosts))
    {
        helper.EnablePcap(file, hostDevices[host], false, true);
    }
}

std::vector<std::pair<uint32_t, std::string>>
FabricTopology::GetPcapHostFiles(const std::string& dir, const std::vector<uint32_t>& hosts) const
{
    std::vector<std::pair<uint32_t, std::string>> files;
    for (uint32_t i = 0; i < hostDevices.size(); ++i)
    {
        const bool chosen =
            hosts.empty() || std::find(hosts.begin(), hosts.end(), i) != hosts.end();
        if (chosen && FabricRanks::IsLocal(*hostDevices[i]->GetNode())) // under MPI, its process
        {                                                               // writes it
            files.emplace_back(i, dir + "/host" + std::to_string(i) + ".pcap");
        }
    }
    return files;
}

void
FabricTopology::EnablePcapSwitches(const std::string& dir) const
{
    SystemPath::MakeDirectories(dir); // (ns-3's pcap files need it)
    PfcLinkHelper helper;
    for (const Switch& s : switches)
    {
        for (uint32_t port = 0; port < s.sw->GetNPorts(); ++port)
        {
            helper.EnablePcap(dir + "/" + s.name + "-port" + std::to_string(port) + ".pcap",
                              s.sw->GetPortDevice(port),
                              false,
                              true);
        }
    }
}

int64_t
FabricTopology::AssignStreams(int64_t stream) const
{
    int64_t used = 0;
    for (const Switch& s : switches)
    {
        used += s.sw->AssignStreams(stream + used);
    }
    return used;
}

FabricSwitch::Stats
FabricTopology::GetSwitchStats() const
{
    FabricSwitch::Stats total;
    for (const Switch& s : switches)
    {
        total += s.sw->GetStats();
    }
    return total;
}

uint64_t
FabricTopology::GetPfcPauses(uint32_t link) const
{
    const Ptr<PfcNetDevice>& rx = links.at(link).rx;
    const uint32_t id = rx->GetNode()->GetId();
    if (id >= switchOfNode.size() || switchOfNode[id] < 0)
    {
        return 0;
    }
    const Switch& s = switches[switchOfNode[id]];
    for (uint32_t port = 0; port < s.sw->GetNPorts(); ++port)
    {
        if (s.sw->GetPortDevice(port) == rx)
        {
            return s.sw->GetPfcPauses(port);
        }
    }
    return 0;
}

Time
FabricTopology::GetMaxBaseRtt(uint32_t mtu, uint32_t intBytes, uint32_t ackEvery) const
{
    // the largest data frame (an RDMA WRITE's first, with its RETH)
    const uint32_t dataFrame = WireBytes::DataFrame(mtu, true) + intBytes;
    const uint32_t ackFrame = WireBytes::ACK_FRAME + intBytes;
    Time worst;
    for (uint32_t dst = 1; dst < GetNHosts(); ++dst)
    {
        Time rtt;
        Time frame; // of the last link, the receiver's
        for (uint32_t l : GetPath(0, dst, 49152))
        {
            const auto& link = links[l];
            frame = link.tx->GetFrameTxTime(dataFrame);
            rtt += 2 * DynamicCast<PfcChannel>(link.tx->GetChannel())->GetDelay();
            rtt += frame + link.tx->GetFrameTxTime(ackFrame);
        }
        rtt += (ackEvery > 1 ? ackEvery - 1 : 0) * frame;
        worst = std::max(worst, rtt);
    }
    return worst;
}

} // namespace ns3
