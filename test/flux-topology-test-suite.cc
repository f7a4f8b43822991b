/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The topology helper: structure and numbering of leaf-spine, fat-tree and
 * dumbbell fabrics, all-pairs reachability over shortest paths, pcap
 * output, and clear errors for impossible configurations.
 */

#include "fabric-test-traffic.h"

#include "ns3/core-module.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-link-helper.h"
#include "ns3/switch-mmu.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

using namespace ns3;
using namespace ns3::fluxtest;

/**
 * \ingroup flux-tests
 * Every host reaches every other host, over a shortest path: each packet
 * arrives at its destination, in order, with its TTL reduced by the number
 * of switches the topology puts between the two hosts, and the path
 * FabricTopology::GetPath reports has that many switches.
 */
class AllPairsTestCase : public TestCase
{
  public:
    /// Builds the fabric.
    using Builder = std::function<FabricTopology(FabricTopologyHelper&)>;
    /// Number of switches between two hosts.
    using Hops = std::function<uint32_t(uint32_t, uint32_t)>;

    /**
     * \param name the fabric
     * \param build builds it
     * \param hops expected switches between two hosts
     * \param hosts expected number of hosts
     */
    AllPairsTestCase(std::string name, Builder build, Hops hops, uint32_t hosts)
        : TestCase(name + ": every host reaches every other over a shortest path"),
          m_build(build),
          m_hops(hops),
          m_hosts(hosts)
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology topo = m_build(helper);
        const uint32_t n = topo.GetNHosts();
        NS_TEST_ASSERT_MSG_EQ(n, m_hosts, "number of hosts");
        std::vector<Ptr<TrafficSink>> sinks;
        std::vector<Ptr<TrafficEgress>> egresses;
        for (uint32_t h = 0; h < n; ++h)
        {
            sinks.push_back(Create<TrafficSink>(topo.hostDevices[h], topo.hostAddresses[h]));
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[h], topo.hostAddresses[h], 200);
            for (uint32_t d = 0; d < n; ++d)
            {
                if (d != h)
                {
                    e->AddFlow(topo.hostAddresses[d], 5000 + d, 2);
                    const std::vector<uint32_t> path = topo.GetPath(h, d, 5000 + d);
                    NS_TEST_ASSERT_MSG_EQ(path.size(),
                                          m_hops(h, d) + 1,
                                          "path " << h << "->" << d << " crosses " << m_hops(h, d)
                                                  << " switches");
                }
            }
            e->Start(MicroSeconds(1));
            egresses.push_back(e);
        }
        Simulator::Run();
        for (uint32_t d = 0; d < n; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(sinks[d]->m_packets, 2 * (n - 1), "host " << d << " got all");
            NS_TEST_ASSERT_MSG_EQ(sinks[d]->m_misdelivered, 0, "only its own packets");
            NS_TEST_ASSERT_MSG_EQ(sinks[d]->m_reordered, 0, "in order");
            for (uint32_t s = 0; s < n; ++s)
            {
                if (s == d)
                {
                    continue;
                }
                NS_TEST_ASSERT_MSG_EQ(sinks[d]->GetFlow(topo.hostAddresses[s], 5000 + d).packets,
                                      2,
                                      "from host " << s << " to host " << d);
            }
            std::map<uint8_t, uint64_t> expectedTtls;
            for (uint32_t s = 0; s < n; ++s)
            {
                if (s != d)
                {
                    expectedTtls[64 - m_hops(s, d)] += 2;
                }
            }
            NS_TEST_ASSERT_MSG_EQ((sinks[d]->m_ttls == expectedTtls),
                                  true,
                                  "TTLs at host " << d << " match the shortest paths");
        }
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(), 0, "no drop");
        Simulator::Destroy();
    }

    Builder m_build;  //!< builds the fabric
    Hops m_hops;      //!< expected switch hops
    uint32_t m_hosts; //!< expected hosts
};

/**
 * \ingroup flux-tests
 * The TTL check above only tells that some packet had the right TTL; this
 * one checks the exact TTL per source on a fat-tree k=4 from host 0.
 */
class FatTreeTtlTestCase : public TestCase
{
  public:
    FatTreeTtlTestCase()
        : TestCase("fat-tree k=4: 1, 3 and 5 switch hops for same edge, same pod, other pod")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology topo = helper.BuildFatTree(4);
        std::vector<Ptr<TrafficSink>> sinks;
        for (uint32_t d : {1u, 2u, 4u, 15u})
        {
            sinks.push_back(Create<TrafficSink>(topo.hostDevices[d], topo.hostAddresses[d]));
        }
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 200);
        for (uint32_t d : {1u, 2u, 4u, 15u})
        {
            e->AddFlow(topo.hostAddresses[d], 7, 1);
        }
        e->Start(MicroSeconds(1));
        Simulator::Run();
        const uint8_t expected[] = {63, 61, 59, 59}; // same edge, same pod, other pods
        for (std::size_t i = 0; i < sinks.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(sinks[i]->m_packets, 1, "delivered");
            NS_TEST_ASSERT_MSG_EQ(sinks[i]->m_ttls[expected[i]], 1, "TTL after the shortest path");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * Structure and numbering: host i has 10.0.0.(i+1) and sits under the
 * switch the topology order says; switch counts, tiers, port counts, link
 * names, rates, and ECMP groups are as designed.
 */
class StructureTestCase : public TestCase
{
  public:
    StructureTestCase()
        : TestCase("structure, numbering, addresses, link names, rates and ECMP groups")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetHostRate(DataRate("25Gbps"));
        helper.SetFabricRate(DataRate("100Gbps"));
        helper.SetLinkDelay(NanoSeconds(500));
        FabricTopology ls = helper.BuildLeafSpine(4, 2, 8);
        NS_TEST_ASSERT_MSG_EQ(ls.kind, "leaf-spine", "kind");
        NS_TEST_ASSERT_MSG_EQ(ls.GetNHosts(), 32, "4 x 8 hosts");
        NS_TEST_ASSERT_MSG_EQ(ls.switches.size(), 6, "4 leaves + 2 spines");
        NS_TEST_ASSERT_MSG_EQ(ls.links.size(), 2 * (32 + 8), "both directions of 40 cables");
        for (uint32_t h = 0; h < 32; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(ls.hostAddresses[h],
                                  Ipv4Address(0x0a000000 + h + 1),
                                  "address of host " << h);
            NS_TEST_ASSERT_MSG_EQ(ls.GetHostIndex(ls.hostAddresses[h]), h, "index from address");
            NS_TEST_ASSERT_MSG_EQ(ls.switches[ls.hostSwitch[h]].name,
                                  "leaf" + std::to_string(h / 8),
                                  "host " << h << " under leaf " << h / 8);
            NS_TEST_ASSERT_MSG_EQ(ls.links[ls.hostUplink[h]].name,
                                  "host" + std::to_string(h) + "->leaf" + std::to_string(h / 8),
                                  "uplink name");
            NS_TEST_ASSERT_MSG_EQ(ls.hostDevices[h]->GetDataRate(),
                                  DataRate("25Gbps"),
                                  "host rate");
            NS_TEST_ASSERT_MSG_EQ(ls.hostDevices[h]->GetNode(), ls.hosts.Get(h), "device on host");
            NS_TEST_ASSERT_MSG_EQ(ls.hostDevices[h]->GetEgress(), nullptr, "no host stack yet");
        }
        NS_TEST_ASSERT_MSG_EQ(ls.GetHostIndex(Ipv4Address("10.0.0.200")), -1, "unknown address");
        bool found = false;
        for (const FabricTopology::Link& l : ls.links)
        {
            if (l.name == "leaf0->spine1")
            {
                found = true;
                NS_TEST_ASSERT_MSG_EQ(l.tx->GetDataRate(), DataRate("100Gbps"), "fabric rate");
                NS_TEST_ASSERT_MSG_EQ(DynamicCast<PfcChannel>(l.tx->GetChannel())->GetDelay(),
                                      NanoSeconds(500),
                                      "link delay");
                NS_TEST_ASSERT_MSG_EQ(l.rx, l.tx->GetPeer(), "rx is tx's peer");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(found, true, "link leaf0->spine1 exists");
        for (uint32_t s = 0; s < 4; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].tier, 0, "leaves are tier 0");
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].sw->GetNPorts(), 10, "8 hosts + 2 spines");
            // A remote host: ECMP over both spines; a local one: one port.
            NS_TEST_ASSERT_MSG_EQ(
                ls.switches[s].sw->GetRoute(ls.hostAddresses[(s * 8 + 8) % 32]).size(),
                2,
                "two equal-cost next hops to another leaf");
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].sw->GetRoute(ls.hostAddresses[s * 8]).size(),
                                  1,
                                  "one next hop to a local host");
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].sw->GetNRoutes(), 32, "a route to every host");
            // Headroom follows each port's link rate.
            Ptr<SwitchMmu> mmu = ls.switches[s].sw->GetMmu();
            NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroom(0),
                                  helper.GetHeadroom(DataRate("25Gbps")),
                                  "host port headroom");
            NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroom(9),
                                  helper.GetHeadroom(DataRate("100Gbps")),
                                  "fabric port headroom");
        }
        for (uint32_t s = 4; s < 6; ++s)
        {
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].tier, 1, "spines are tier 1");
            NS_TEST_ASSERT_MSG_EQ(ls.switches[s].sw->GetNPorts(), 4, "one port per leaf");
        }

        FabricTopology ft = helper.BuildFatTree(4);
        NS_TEST_ASSERT_MSG_EQ(ft.GetNHosts(), 16, "k^3/4 hosts");
        NS_TEST_ASSERT_MSG_EQ(ft.switches.size(), 20, "8 edge + 8 aggregation + 4 core");
        NS_TEST_ASSERT_MSG_EQ(ft.links.size(),
                              2 * 48,
                              "16 host + 16 edge-agg + 16 agg-core cables");
        uint32_t perTier[3] = {0, 0, 0};
        for (const FabricTopology::Switch& s : ft.switches)
        {
            NS_TEST_ASSERT_MSG_EQ(s.sw->GetNPorts(), 4, s.name << " has k ports");
            ++perTier[s.tier];
        }
        NS_TEST_ASSERT_MSG_EQ(perTier[0], 8, "edge switches");
        NS_TEST_ASSERT_MSG_EQ(perTier[1], 8, "aggregation switches");
        NS_TEST_ASSERT_MSG_EQ(perTier[2], 4, "core switches");
        NS_TEST_ASSERT_MSG_EQ(ft.switches[ft.hostSwitch[5]].name, "pod1-edge0", "host 5's edge");
        NS_TEST_ASSERT_MSG_EQ(ft.switches[ft.hostSwitch[15]].name, "pod3-edge1", "host 15's edge");

        FabricTopology db = helper.BuildDumbbell(3);
        NS_TEST_ASSERT_MSG_EQ(db.GetNHosts(), 6, "2 x 3 hosts");
        NS_TEST_ASSERT_MSG_EQ(db.switches[db.hostSwitch[2]].name, "left", "host 2 on the left");
        NS_TEST_ASSERT_MSG_EQ(db.switches[db.hostSwitch[3]].name, "right", "host 3 on the right");
        NS_TEST_ASSERT_MSG_EQ(db.switches[0].sw->GetNPorts(), 4, "3 hosts + 1 fabric link");

        std::set<uint32_t> seeds;
        for (const FabricTopology::Switch& s : ft.switches)
        {
            seeds.insert(s.sw->GetEcmpSeed());
        }
        NS_TEST_ASSERT_MSG_EQ(seeds.size(), ft.switches.size(), "one ECMP seed per switch");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * Impossible configurations fail with one clear message naming the
 * parameter, from the Check methods and as std::invalid_argument from the
 * Build methods, before any node is created.
 */
class TopologyErrorsTestCase : public TestCase
{
  public:
    TopologyErrorsTestCase()
        : TestCase("impossible configurations: one clear message, no node created")
    {
    }

  private:
    /**
     * \param msg a message
     * \param word a word
     * \return true if msg contains word
     */
    static bool Has(const std::string& msg, const std::string& word)
    {
        return msg.find(word) != std::string::npos;
    }

    void DoRun() override
    {
        const uint32_t nodesBefore = NodeList::GetNNodes();
        {
            FabricTopologyHelper h;
            NS_TEST_ASSERT_MSG_EQ(h.CheckFatTree(4), "", "k = 4 is fine");
            NS_TEST_ASSERT_MSG_EQ(h.CheckLeafSpine(4, 2, 8), "", "leaf-spine is fine");
            NS_TEST_ASSERT_MSG_EQ(h.CheckDumbbell(4), "", "dumbbell is fine");
            NS_TEST_ASSERT_MSG_EQ(h.CheckLeafSpine(1, 0, 17), "", "a single switch is fine");
            NS_TEST_ASSERT_MSG_EQ(h.CheckRing(3, 1), "", "a ring of three is fine");
            const std::string ring = h.CheckRing(2, 4);
            NS_TEST_ASSERT_MSG_EQ((Has(ring, "ring") && Has(ring, "at least 3")),
                                  true,
                                  "a ring of two: " << ring);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckRing(5, 0), "hosts per switch"), true, "no host");
            FabricTopologyHelper badSwitch;
            badSwitch.SetSwitchAttribute("NoSuchAttribute", BooleanValue(true));
            NS_TEST_ASSERT_MSG_EQ(Has(badSwitch.CheckRing(3, 1), "NoSuchAttribute"),
                                  true,
                                  "an unknown switch attribute");
            const std::string odd = h.CheckFatTree(5);
            NS_TEST_ASSERT_MSG_EQ((Has(odd, "k") && Has(odd, "even")), true, "k odd: " << odd);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckFatTree(0), "even"), true, "k = 0");
            bool threw = false;
            try
            {
                h.BuildFatTree(3);
            }
            catch (const std::invalid_argument& e)
            {
                threw = Has(e.what(), "even");
            }
            NS_TEST_ASSERT_MSG_EQ(threw, true, "BuildFatTree(3) throws invalid_argument");
            const std::string many = h.CheckFatTree(512);
            NS_TEST_ASSERT_MSG_EQ(Has(many, "addresses"), true, "too many hosts: " << many);
            const std::string manyLs = h.CheckLeafSpine(70000, 4, 256);
            NS_TEST_ASSERT_MSG_EQ(Has(manyLs, "addresses"), true, "too many hosts: " << manyLs);
            const std::string noSpine = h.CheckLeafSpine(2, 0, 4);
            NS_TEST_ASSERT_MSG_EQ(Has(noSpine, "spines"), true, "no spine: " << noSpine);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckLeafSpine(0, 1, 4), "leaves"), true, "no leaf");
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckLeafSpine(2, 1, 0), "hosts per leaf"),
                                  true,
                                  "no host");
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(0), "hosts per side"), true, "no host");
        }
        {
            FabricTopologyHelper h;
            h.SetHostRate(DataRate(0));
            const std::string msg = h.CheckLeafSpine(2, 2, 2);
            NS_TEST_ASSERT_MSG_EQ(Has(msg, "host rate"), true, "zero host rate: " << msg);
            bool threw = false;
            try
            {
                h.BuildLeafSpine(2, 2, 2);
            }
            catch (const std::invalid_argument& e)
            {
                threw = Has(e.what(), "host rate");
            }
            NS_TEST_ASSERT_MSG_EQ(threw, true, "BuildLeafSpine throws on a zero rate");
        }
        {
            FabricTopologyHelper h;
            h.SetFabricRate(DataRate(0));
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(2), "fabric rate"), true, "zero fabric rate");
        }
        {
            FabricTopologyHelper h;
            h.SetLinkDelay(NanoSeconds(-5));
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(2), "delay"), true, "negative delay");
        }
        {
            FabricTopologyHelper h;
            h.SetMtu(20);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(2), "MTU"), true, "tiny MTU");
        }
        {
            FabricTopologyHelper h;
            h.SetEcn(500000, 100000, 0.2);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(2), "kmin"), true, "kmin > kmax");
            h.SetEcn(100000, 500000, 2);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckDumbbell(2), "pmax"), true, "pmax > 1");
        }
        {
            // 66 ports of 100 Gb/s with 2 us links, 8 lossless priorities:
            // the headroom alone exceeds a 16 MiB buffer.
            FabricTopologyHelper h;
            h.SetLinkDelay(MicroSeconds(2));
            const std::string msg = h.CheckLeafSpine(2, 2, 64);
            NS_TEST_ASSERT_MSG_EQ((Has(msg, "buffer") && Has(msg, "headroom") && Has(msg, "leaf0")),
                                  true,
                                  "buffer too small for headroom: " << msg);
            bool threw = false;
            try
            {
                h.BuildLeafSpine(2, 2, 64);
            }
            catch (const std::invalid_argument& e)
            {
                threw = Has(e.what(), "headroom");
            }
            NS_TEST_ASSERT_MSG_EQ(threw, true, "BuildLeafSpine throws on a small buffer");
            // Without PFC there is no headroom to hold.
            h.SetPfc(false);
            NS_TEST_ASSERT_MSG_EQ(h.CheckLeafSpine(2, 2, 64), "", "fits without PFC");
            // Or with one lossless priority.
            h.SetPfc(true);
            h.SetLosslessPriorities(0x08);
            NS_TEST_ASSERT_MSG_EQ(h.CheckLeafSpine(2, 2, 64), "", "fits with one lossless class");
        }
        {
            FabricTopologyHelper h;
            h.SetBufferSize(0);
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckFatTree(4), "buffer"), true, "zero buffer");
        }
        {
            FabricTopologyHelper h;
            h.SetMmuAttribute("NoSuchThing", UintegerValue(1));
            NS_TEST_ASSERT_MSG_EQ(Has(h.CheckFatTree(4), "NoSuchThing"), true, "unknown attribute");
            FabricTopologyHelper h2;
            h2.SetQueueDisc("ns3::NoSuchQueueDisc");
            NS_TEST_ASSERT_MSG_EQ(Has(h2.CheckFatTree(4), "NoSuchQueueDisc"),
                                  true,
                                  "unknown qdisc");
            FabricTopologyHelper h5;
            h5.SetDeviceAttribute("PauseQuanta", UintegerValue(0));
            NS_TEST_ASSERT_MSG_EQ(Has(h5.CheckFatTree(4), "PauseQuanta"),
                                  true,
                                  "an invalid device attribute value");
            FabricTopologyHelper h4;
            h4.SetQueueDisc("ns3::Node");
            NS_TEST_ASSERT_MSG_EQ(Has(h4.CheckFatTree(4), "not a QueueDisc"),
                                  true,
                                  "a type that is no queue disc");
            FabricTopologyHelper h3;
            h3.SetMmuAttribute("PfcAlpha", DoubleValue(-1));
            NS_TEST_ASSERT_MSG_EQ(Has(h3.CheckFatTree(4), "PfcAlpha"), true, "negative alpha");
            // what the helper sets from its own settings is refused, naming
            // the call to use, not overwritten in silence
            const std::vector<std::pair<std::function<void(FabricTopologyHelper&)>, std::string>>
                own = {{[](FabricTopologyHelper& h) {
                            h.SetMmuAttribute("EcnKmin", UintegerValue(5000));
                        },
                        "switch buffer: SwitchMmu's EcnKmin is the helper's own: use SetEcn"},
                       {[](FabricTopologyHelper& h) {
                            h.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Gbps")));
                        },
                        "links: PfcNetDevice's DataRate is the helper's own: use SetHostRate and "
                        "SetFabricRate"},
                       {[](FabricTopologyHelper& h) {
                            h.SetSwitchAttribute("EcmpSeed", UintegerValue(3));
                        },
                        "switches: FabricSwitch's EcmpSeed is the helper's own: use SetEcmpSeed"}};
            for (const auto& [set, problem] : own)
            {
                FabricTopologyHelper h;
                set(h);
                NS_TEST_ASSERT_MSG_EQ(h.CheckFatTree(4), problem, "the helper's own attribute");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(NodeList::GetNNodes(), nodesBefore, "no node was created");
    }
};

/**
 * Seven frames of 300 bytes from host 0 to host 1 of a one-host-a-side
 * dumbbell, traced as the caller asks, then the simulator destroyed (the
 * traces' files are complete once the devices are gone).
 * \param trace turns traces on in the built fabric
 * \return the frames host 1 received
 */
static uint64_t
SevenFramesAcrossADumbbell(const std::function<void(const FabricTopology&)>& trace)
{
    FabricTopologyHelper helper;
    FabricTopology topo = helper.BuildDumbbell(1);
    trace(topo);
    Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
    Ptr<TrafficEgress> e =
        CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 300);
    e->AddFlow(topo.hostAddresses[1], 9, 7);
    e->Start(MicroSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    return sink->m_packets;
}

/**
 * \ingroup flux-tests
 * Pcap: one Ethernet (DLT_EN10MB) file per host port and per switch port,
 * holding the frames that crossed it.
 */
class PcapTestCase : public TestCase
{
  public:
    PcapTestCase()
        : TestCase("pcap: Ethernet captures of host and switch ports")
    {
    }

  private:
    /**
     * \param path a pcap file
     * \param linkType set to its link type
     * \return the number of records in it
     */
    static uint32_t Records(const std::string& path, uint32_t& linkType)
    {
        std::ifstream in(path, std::ios::binary);
        uint32_t header[6] = {0, 0, 0, 0, 0, 0};
        in.read(reinterpret_cast<char*>(header), sizeof(header));
        linkType = header[5];
        uint32_t records = 0;
        uint32_t rec[4];
        while (in.read(reinterpret_cast<char*>(rec), sizeof(rec)))
        {
            in.seekg(rec[2], std::ios::cur);
            ++records;
        }
        return records;
    }

    void DoRun() override
    {
        // (a folder that does not exist yet, two levels deep: the helper
        // creates it)
        const std::string dir = CreateTempDirFilename("flux-pcap") + "/captures";
        SevenFramesAcrossADumbbell([&dir](const FabricTopology& topo) {
            topo.EnablePcapHosts(dir);
            topo.EnablePcapSwitches(dir);
        });
        uint32_t linkType = 0;
        NS_TEST_ASSERT_MSG_EQ(Records(dir + "/host0.pcap", linkType), 7, "host 0 sent 7 frames");
        NS_TEST_ASSERT_MSG_EQ(linkType, 1, "DLT_EN10MB");
        NS_TEST_ASSERT_MSG_EQ(Records(dir + "/host1.pcap", linkType), 7, "host 1 got 7 frames");
        // left: port 0 host 0, port 1 the fabric link.
        NS_TEST_ASSERT_MSG_EQ(Records(dir + "/left-port1.pcap", linkType), 7, "left forwarded 7");
        NS_TEST_ASSERT_MSG_EQ(Records(dir + "/right-port0.pcap", linkType), 7, "right delivered 7");
        for (const char* f :
             {"host0", "host1", "left-port0", "left-port1", "right-port0", "right-port1"})
        {
            std::remove((dir + "/" + f + ".pcap").c_str());
        }
    }
};

/**
 * \ingroup flux-tests
 * ASCII traces (PfcLinkHelper is an AsciiTraceHelperForDevice): on a shared
 * stream, one "-" line per frame a port put on the line and one "r" line per
 * frame it received, each naming its device's trace source; in a device's
 * own file, the same lines without the context.
 */
class AsciiTestCase : public TestCase
{
  public:
    AsciiTestCase()
        : TestCase("ascii: one line per frame sent and received, in ns-3's format")
    {
    }

  private:
    void DoRun() override
    {
        const std::string file = CreateTempDirFilename("flux-ascii-host1.tr");
        std::ostringstream shared;
        const uint64_t arrived =
            SevenFramesAcrossADumbbell([&shared, &file](const FabricTopology& topo) {
                PfcLinkHelper link;
                link.EnableAsciiAll(Create<OutputStreamWrapper>(&shared));
                link.EnableAscii(file, topo.hostDevices[1], true);
            });
        NS_TEST_ASSERT_MSG_EQ(arrived, 7, "the flow arrived");
        // host 0 is node 0, host 1 node 1 (device 0 each); left node 2, right 3
        std::map<std::string, uint32_t> count; // "<op> <trace path>" -> lines
        std::istringstream in(shared.str());
        std::string line;
        uint32_t lines = 0;
        while (std::getline(in, line))
        {
            ++lines;
            std::istringstream f(line);
            std::string op;
            std::string time;
            std::string path;
            f >> op >> time >> path;
            NS_TEST_ASSERT_MSG_EQ((op == "-" || op == "r"), true, "an operation: " << line);
            NS_TEST_ASSERT_MSG_EQ((std::stod(time) > 0), true, "a time in seconds: " << line);
            ++count[op + " " + path];
        }
        NS_TEST_ASSERT_MSG_EQ(count["- /NodeList/0/DeviceList/0/$ns3::PfcNetDevice/MacTx"],
                              7,
                              "host 0 sent 7 frames");
        NS_TEST_ASSERT_MSG_EQ(count["r /NodeList/1/DeviceList/0/$ns3::PfcNetDevice/MacRx"],
                              7,
                              "host 1 received 7 frames");
        NS_TEST_ASSERT_MSG_EQ(count["r /NodeList/2/DeviceList/0/$ns3::PfcNetDevice/MacRx"],
                              7,
                              "the left switch received them from host 0");
        // 7 frames over 3 links, each sent and received once
        NS_TEST_ASSERT_MSG_EQ(lines, 42, "no other line");
        std::ifstream own(file);
        uint32_t received = 0;
        while (std::getline(own, line))
        {
            NS_TEST_ASSERT_MSG_EQ(line.rfind("r ", 0), 0, "host 1 only receives: " << line);
            NS_TEST_ASSERT_MSG_EQ(line.find("/NodeList"), std::string::npos, "no context");
            ++received;
        }
        NS_TEST_ASSERT_MSG_EQ(received, 7, "host 1's own file has its 7 frames");
        std::remove(file.c_str());
    }
};

/**
 * \ingroup flux-tests
 * The queue disc of the switch ports: a Config default of
 * FabricSwitch::QueueDiscFactory (as a scenario's ns3_defaults sets it)
 * reaches every port when SetQueueDisc() is not called; SetQueueDisc()
 * overrides it, and gives a queue disc even of the default type; without
 * either (or with a Config default equal to the default) the ports have
 * the built-in bands that stand in for PfcPrioQueueDisc, no queue disc.
 */
class QueueDiscDefaultTestCase : public TestCase
{
  public:
    QueueDiscDefaultTestCase()
        : TestCase("a Config default queue disc is not overwritten by the helper")
    {
    }

  private:
    /**
     * \param helper the helper
     * \param type the queue disc expected on every port ("" for built-in bands)
     */
    void Expect(FabricTopologyHelper helper, const std::string& type)
    {
        FabricTopology topo = helper.BuildLeafSpine(2, 1, 2);
        for (const FabricTopology::Switch& s : topo.switches)
        {
            for (uint32_t port = 0; port < s.sw->GetNPorts(); ++port)
            {
                Ptr<QueueDisc> qdisc = s.sw->GetQueueDisc(port);
                NS_TEST_ASSERT_MSG_EQ((qdisc ? qdisc->GetInstanceTypeId().GetName() : ""),
                                      type,
                                      s.name << " port " << port);
            }
        }
        Simulator::Destroy();
    }

    void DoRun() override
    {
        Expect(FabricTopologyHelper(), "");
        Config::SetDefault("ns3::FabricSwitch::QueueDiscFactory",
                           StringValue("ns3::FifoQueueDisc"));
        Expect(FabricTopologyHelper(), "ns3::FifoQueueDisc");
        FabricTopologyHelper chosen;
        chosen.SetQueueDisc("ns3::PfcPrioQueueDisc");
        Expect(chosen, "ns3::PfcPrioQueueDisc");
        Config::SetDefault("ns3::FabricSwitch::QueueDiscFactory",
                           StringValue("ns3::PfcPrioQueueDisc"));
        Expect(FabricTopologyHelper(), "");
    }
};

/**
 * \ingroup flux-tests
 * SetEcnClass: the class's thresholds reach every switch port, the other
 * classes keep those of SetEcn(); an out-of-range class is a configuration
 * error.
 */
class EcnClassTestCase : public TestCase
{
  public:
    EcnClassTestCase()
        : TestCase("SetEcnClass sets one class's ECN thresholds on every switch port")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetEcn(1000000, 2000000, 0.2);
        helper.SetEcnClass(3, 10000, 20000, 1.0);
        FabricTopology topo = helper.BuildLeafSpine(2, 2, 2);
        for (const FabricTopology::Switch& s : topo.switches)
        {
            Ptr<SwitchMmu> mmu = s.sw->GetMmu();
            for (uint32_t port = 0; port < mmu->GetNPorts(); ++port)
            {
                NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(port, 3), 10000, "class 3 Kmin");
                NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmax(port, 3), 20000, "class 3 Kmax");
                NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnPmax(port, 3), 1.0, "class 3 Pmax");
                NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(port, 5), 1000000, "class 5: SetEcn's");
                NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmax(port, 0), 2000000, "class 0: SetEcn's");
            }
        }
        Simulator::Destroy();
        FabricTopologyHelper bad;
        bad.SetEcnClass(8, 1, 2, 0.5);
        NS_TEST_ASSERT_MSG_EQ((bad.CheckLeafSpine(1, 0, 2).find("class 8") != std::string::npos),
                              true,
                              "class 8 rejected");
    }
};

/**
 * \ingroup flux-tests
 * RouteOnly switches (the flow level's): their ports have no queue, and
 * every path is the one the switches with queues give.
 */
class RouteOnlyTestCase : public TestCase
{
  public:
    RouteOnlyTestCase()
        : TestCase("RouteOnly switches have no egress and give the same paths")
    {
    }

  private:
    /**
     * \param routeOnly whether the switches are route-only
     * \return every host pair's path for a few source ports
     */
    std::vector<std::vector<uint32_t>> Paths(bool routeOnly)
    {
        FabricTopologyHelper helper;
        helper.SetEcmpSeed(7);
        helper.SetSwitchAttribute("RouteOnly", BooleanValue(routeOnly));
        FabricTopology topo = helper.BuildFatTree(4);
        std::vector<std::vector<uint32_t>> paths;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            for (uint32_t d = 0; d < topo.GetNHosts(); ++d)
            {
                for (uint16_t port = 49152; port < 49156; ++port)
                {
                    paths.push_back(topo.GetPath(h, d, port));
                }
            }
        }
        for (const FabricTopology::Switch& s : topo.switches)
        {
            for (uint32_t port = 0; port < s.sw->GetNPorts(); ++port)
            {
                NS_TEST_EXPECT_MSG_EQ((s.sw->GetPortDevice(port)->GetEgress() == nullptr),
                                      routeOnly,
                                      s.name << " port " << port << ": egress");
                NS_TEST_EXPECT_MSG_EQ(s.sw->GetQueuedBytes(port), 0, "nothing queued");
            }
        }
        Simulator::Destroy();
        return paths;
    }

    void DoRun() override
    {
        const auto full = Paths(false);
        const auto routeOnly = Paths(true);
        NS_TEST_ASSERT_MSG_EQ(full.size(), routeOnly.size(), "as many paths");
        for (std::size_t i = 0; i < full.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ((full[i] == routeOnly[i]), true, "path " << i);
            NS_TEST_EXPECT_MSG_EQ(full[i].empty(), false, "path " << i << " exists");
        }
    }
};

/**
 * \ingroup flux-tests
 * The topology test suite.
 */
class FluxTopologyTestSuite : public TestSuite
{
  public:
    FluxTopologyTestSuite()
        : TestSuite("flux-topology")
    {
        AddTestCase(new StructureTestCase);
        AddTestCase(new AllPairsTestCase(
            "leaf-spine 3x2x3",
            [](FabricTopologyHelper& h) { return h.BuildLeafSpine(3, 2, 3); },
            [](uint32_t a, uint32_t b) { return a / 3 == b / 3 ? 1u : 3u; },
            9));
        AddTestCase(new AllPairsTestCase(
            "fat-tree k=4",
            [](FabricTopologyHelper& h) { return h.BuildFatTree(4); },
            [](uint32_t a, uint32_t b) {
                if (a / 2 == b / 2)
                {
                    return 1u;
                }
                return a / 4 == b / 4 ? 3u : 5u;
            },
            16));
        AddTestCase(new AllPairsTestCase(
            "dumbbell 3+3",
            [](FabricTopologyHelper& h) { return h.BuildDumbbell(3); },
            [](uint32_t a, uint32_t b) { return a / 3 == b / 3 ? 1u : 2u; },
            6));
        AddTestCase(new AllPairsTestCase(
            "ring 6x2",
            [](FabricTopologyHelper& h) { return h.BuildRing(6, 2); },
            [](uint32_t a, uint32_t b) {
                const uint32_t d = a / 2 > b / 2 ? a / 2 - b / 2 : b / 2 - a / 2;
                return std::min(d, 6 - d) + 1;
            },
            12));
        AddTestCase(new AllPairsTestCase(
            "rail-optimized 2 groups x 2 servers x 2 rails",
            [](FabricTopologyHelper& h) { return h.BuildRailOptimized(2, 2, 2, 2); },
            // the same rail of a rail group: its leaf alone; else through a spine
            [](uint32_t a, uint32_t b) { return a / 4 == b / 4 && a % 2 == b % 2 ? 1u : 3u; },
            8));
        AddTestCase(new AllPairsTestCase(
            "single switch",
            [](FabricTopologyHelper& h) { return h.BuildLeafSpine(1, 0, 5); },
            [](uint32_t, uint32_t) { return 1u; },
            5));
        AddTestCase(new FatTreeTtlTestCase);
        AddTestCase(new TopologyErrorsTestCase);
        AddTestCase(new PcapTestCase);
        AddTestCase(new AsciiTestCase);
        AddTestCase(new QueueDiscDefaultTestCase);
        AddTestCase(new EcnClassTestCase);
        AddTestCase(new RouteOnlyTestCase);
    }
};

static FluxTopologyTestSuite g_fluxTopologyTestSuite; //!< Static variable for test initialization
