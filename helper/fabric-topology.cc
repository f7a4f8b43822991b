/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-topology.h"

#include "pfc-link-helper.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/switch-mmu.h"
#include "ns3/udp-header.h"

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
    if (src >= GetNHosts() || dst >= GetNHosts() || src == dst)
    {
        return path;
    }
    // A probe with the flow's 5-tuple, hashed as the switches hash packets.
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
    Ptr<Ipv4QueueDiscItem> probe = Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);

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

void
FabricTopology::EnablePcapHosts(const std::string& dir) const
{
    PfcLinkHelper helper;
    for (uint32_t i = 0; i < hostDevices.size(); ++i)
    {
        helper.EnablePcap(dir + "/host" + std::to_string(i) + ".pcap", hostDevices[i], false, true);
    }
}

void
FabricTopology::EnablePcapSwitches(const std::string& dir) const
{
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

uint64_t
FabricTopology::GetDrops() const
{
    uint64_t total = 0;
    for (const Switch& s : switches)
    {
        total += s.sw->GetDrops();
    }
    return total;
}

uint64_t
FabricTopology::GetEcnMarks() const
{
    uint64_t total = 0;
    for (const Switch& s : switches)
    {
        total += s.sw->GetEcnMarks();
    }
    return total;
}

uint64_t
FabricTopology::GetPfcPauses() const
{
    uint64_t total = 0;
    for (const Switch& s : switches)
    {
        total += s.sw->GetPfcPauses();
    }
    return total;
}

uint64_t
FabricTopology::GetPfcPauseFramesSent() const
{
    uint64_t total = 0;
    for (const Switch& s : switches)
    {
        total += s.sw->GetPfcPauseFramesSent();
    }
    return total;
}

uint64_t
FabricTopology::GetHeadroomDrops() const
{
    uint64_t total = 0;
    for (const Switch& s : switches)
    {
        total += s.sw->GetDrops(FabricSwitch::DROP_HEADROOM_EXCEEDED);
    }
    return total;
}

PfcWatchdog::Counters
FabricTopology::GetPfcWatchdogCounters() const
{
    PfcWatchdog::Counters total;
    for (const Switch& s : switches)
    {
        total += s.sw->GetPfcWatchdogCounters();
    }
    return total;
}

} // namespace ns3
