/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Faults: link failures and failover at the switches (resilient ECMP over
 * the live members, detection delays, queued and in-flight packets lost and
 * counted), route recomputation over the cables that are up, exactly-once
 * in-order delivery of RDMA messages under random loss and across a spine
 * link failure, and PFC pauses spreading hop by hop back from an incast.
 */

#include "fabric-test-traffic.h"

#include "ns3/core-module.h"
#include "ns3/error-model.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/pfc-channel.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/ring-allreduce.h"
#include "ns3/switch-mmu.h"
#include "ns3/training-job.h"
#include "ns3/udp-header.h"

#include <deque>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/**
 * \param topo a fabric
 * \param name a link direction, e.g. "leaf0->spine1"
 * \return the channel of that link (the cable)
 */
Ptr<PfcChannel>
Cable(const FabricTopology& topo, const std::string& name)
{
    const int64_t l = topo.FindLink(name);
    NS_ABORT_MSG_IF(l < 0, "no link " << name);
    return DynamicCast<PfcChannel>(topo.links[l].tx->GetChannel());
}

/**
 * \param topo a fabric
 * \param name a link direction that leaves a switch
 * \return (switch index, port) of its sender
 */
std::pair<uint32_t, uint32_t>
SwitchPortOf(const FabricTopology& topo, const std::string& name)
{
    const int64_t l = topo.FindLink(name);
    NS_ABORT_MSG_IF(l < 0, "no link " << name);
    for (uint32_t s = 0; s < topo.switches.size(); ++s)
    {
        const auto& pl = topo.switches[s].portLink;
        for (uint32_t p = 0; p < pl.size(); ++p)
        {
            if (pl[p] == static_cast<uint32_t>(l))
            {
                return {s, p};
            }
        }
    }
    NS_ABORT_MSG("link " << name << " does not leave a switch");
    return {0, 0};
}

/**
 * \param src source address
 * \param dst destination address
 * \param srcPort UDP source port
 * \return a probe packet hashed as the switches hash a RoCEv2 flow
 */
Ptr<Ipv4QueueDiscItem>
Probe(Ipv4Address src, Ipv4Address dst, uint16_t srcPort)
{
    Ptr<Packet> p = Create<Packet>(100);
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(src);
    ip.SetDestination(dst);
    ip.SetProtocol(17);
    ip.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/// The egress port of every probe flow (source port 40000 + i) at a switch.
std::vector<int64_t>
EgressOfFlows(const FabricTopology& topo, uint32_t sw, uint32_t srcHost, uint32_t dstHost)
{
    std::vector<int64_t> out;
    for (uint16_t i = 0; i < 2000; ++i)
    {
        out.push_back(topo.switches[sw].sw->GetEgressPort(
            Probe(topo.hostAddresses[srcHost], topo.hostAddresses[dstHost], 40000 + i)));
    }
    return out;
}

/**
 * \ingroup flux-tests
 * A dead port leaves its ECMP groups at once and rejoins them when it is
 * back, with resilient hashing: of 2000 flows from leaf 0 over 4 spines,
 * those on the three live uplinks keep their port, those of the dead one
 * are spread over all three live ones, none is sent to the dead port, and
 * every flow is back on its own port once the link returns. At the other
 * end, spine 1's only way to leaf 0's hosts is dead: no egress. With
 * Failover false the switch keeps hashing onto the dead link.
 */
class EcmpFailoverTestCase : public TestCase
{
  public:
    EcmpFailoverTestCase()
        : TestCase("a dead port leaves its ECMP groups and rejoins them; resilient hashing "
                   "moves only the dead member's flows")
    {
    }

  private:
    void DoRun() override
    {
        Check(true);
        Check(false);
    }

    void Check(bool failover)
    {
        Config::SetDefault("ns3::FabricSwitch::Failover", BooleanValue(failover));
        FabricTopologyHelper helper;
        FabricTopology topo = helper.BuildLeafSpine(2, 4, 2);
        const auto [leaf0, dead] = SwitchPortOf(topo, "leaf0->spine1");
        const auto [spine1, down] = SwitchPortOf(topo, "spine1->leaf0");
        Ptr<FabricSwitch> sw = topo.switches[leaf0].sw;
        const std::vector<int64_t> before = EgressOfFlows(topo, leaf0, 0, 2);
        std::map<int64_t, uint32_t> share;
        for (int64_t port : before)
        {
            ++share[port];
        }
        NS_TEST_ASSERT_MSG_EQ(share.size(), 4, "flows spread over the 4 uplinks");
        NS_TEST_ASSERT_MSG_GT(share[dead], 300, "the uplink to spine 1 carries flows");

        Cable(topo, "leaf0->spine1")->SetLinkUp(false);
        const std::vector<int64_t> during = EgressOfFlows(topo, leaf0, 0, 2);
        if (!failover)
        {
            NS_TEST_ASSERT_MSG_EQ((during == before), true, "no failover: nothing moves");
            NS_TEST_ASSERT_MSG_EQ(sw->IsPortUp(dead), true, "no failover: port still routed");
            Simulator::Destroy();
            Config::Reset();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(sw->IsPortUp(dead), false, "the port is seen down");
        NS_TEST_ASSERT_MSG_EQ(sw->GetRoute(topo.hostAddresses[2]).size(), 4, "configured group");
        NS_TEST_ASSERT_MSG_EQ(sw->GetLiveRoute(topo.hostAddresses[2]).size(), 3, "live members");
        std::map<int64_t, uint32_t> moved;
        for (std::size_t i = 0; i < before.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_NE(during[i], dead, "no flow goes to the dead port");
            NS_TEST_ASSERT_MSG_GT(during[i], -1, "every flow has a live port");
            if (before[i] != dead)
            {
                NS_TEST_ASSERT_MSG_EQ(during[i], before[i], "flows on live ports stay");
            }
            else
            {
                ++moved[during[i]];
            }
        }
        NS_TEST_ASSERT_MSG_EQ(moved.size(), 3, "the dead member's flows spread over all 3");
        for (const auto& [port, n] : moved)
        {
            NS_TEST_ASSERT_MSG_GT(n, share[dead] / 6, "roughly evenly");
        }
        // spine 1 has no other way to leaf 0's hosts
        NS_TEST_ASSERT_MSG_EQ(topo.switches[spine1].sw->GetEgressPort(
                                  Probe(topo.hostAddresses[2], topo.hostAddresses[0], 40000)),
                              -1,
                              "no live next hop at the far end");
        NS_TEST_ASSERT_MSG_EQ(topo.switches[spine1].sw->IsPortUp(down), false, "far end sees it");

        Cable(topo, "leaf0->spine1")->SetLinkUp(true);
        const std::vector<int64_t> after = EgressOfFlows(topo, leaf0, 0, 2);
        NS_TEST_ASSERT_MSG_EQ((after == before), true, "every flow back on its own port");
        NS_TEST_ASSERT_MSG_EQ(sw->GetStats().nLinkStateChanges,
                              2,
                              "down and up, acted on once each");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * \ingroup flux-tests
 * LinkDownDelay and LinkUpDelay: the switch acts on a link change only
 * after them (the port stays routed 100 us after the cable died and is
 * routed 50 us after it came back, not before), and a flap shorter than
 * the delay is never acted on.
 */
class DetectionDelayTestCase : public TestCase
{
  public:
    DetectionDelayTestCase()
        : TestCase("link changes are acted on after LinkDownDelay and LinkUpDelay; shorter "
                   "flaps are ignored")
    {
    }

  private:
    /// Record whether the port is routed now.
    void Sample()
    {
        m_samples.push_back(m_sw->IsPortUp(m_port));
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::FabricSwitch::LinkDownDelay", TimeValue(MicroSeconds(100)));
        Config::SetDefault("ns3::FabricSwitch::LinkUpDelay", TimeValue(MicroSeconds(50)));
        FabricTopologyHelper helper;
        FabricTopology topo = helper.BuildLeafSpine(2, 2, 1);
        const auto [leaf0, port] = SwitchPortOf(topo, "leaf0->spine0");
        m_sw = topo.switches[leaf0].sw;
        m_port = port;
        Ptr<PfcChannel> ch = Cable(topo, "leaf0->spine0");
        Simulator::Schedule(MilliSeconds(1), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Schedule(MilliSeconds(2), &PfcChannel::SetLinkUp, ch, true);
        // a 60 us flap: shorter than the down delay
        Simulator::Schedule(MilliSeconds(3), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Schedule(MicroSeconds(3060), &PfcChannel::SetLinkUp, ch, true);
        for (int64_t us : {1090, 1110, 2040, 2060, 3050, 3120, 3500})
        {
            Simulator::Schedule(MicroSeconds(us), &DetectionDelayTestCase::Sample, this);
        }
        Simulator::Run();
        const std::vector<bool> expected = {true, false, false, true, true, true, true};
        NS_TEST_ASSERT_MSG_EQ(m_samples.size(), expected.size(), "samples");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(static_cast<bool>(m_samples[i]),
                                  static_cast<bool>(expected[i]),
                                  "sample " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(m_sw->GetStats().nLinkStateChanges, 2, "the flap was never acted on");
        m_sw = nullptr;
        Simulator::Destroy();
        Config::Reset();
    }

    Ptr<FabricSwitch> m_sw;      //!< leaf 0
    uint32_t m_port{0};          //!< its port to spine 0
    std::vector<bool> m_samples; //!< port routed, per sample
};

/**
 * \ingroup flux-tests
 * Packet conservation across a link failure under load: four hosts of
 * leaf 0 send 2:1 oversubscribed traffic to leaf 1 (PFC off, so every loss
 * is counted somewhere, the buffer's own drops included) and the cable leaf0<->spine0 dies mid-run,
 * with a 10 us propagation delay so that frames are on the wire. Every packet sent is received or
 * counted lost exactly once: the packets queued at the dead port are dropped (DROP_LINK_DOWN) and
 * the frames on the wire are lost at the channel (both > 0); the flows move to spine 1; the buffers
 * are empty at the end.
 */
class LinkDownConservationTestCase : public TestCase
{
  public:
    LinkDownConservationTestCase()
        : TestCase("a loaded link dies: sent = received + dropped + lost, queued and in-flight "
                   "packets counted")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetPfc(false);
        helper.SetLinkDelay(MicroSeconds(10));
        FabricTopology topo = helper.BuildLeafSpine(2, 2, 4);
        topo.AssignStreams(1);
        std::vector<Ptr<TrafficSink>> sinks;
        std::vector<Ptr<TrafficEgress>> egresses;
        for (uint32_t h = 0; h < 8; ++h)
        {
            sinks.push_back(Create<TrafficSink>(topo.hostDevices[h], topo.hostAddresses[h]));
        }
        for (uint32_t h = 0; h < 4; ++h)
        {
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[h], topo.hostAddresses[h], 4000);
            for (uint16_t f = 0; f < 4; ++f)
            {
                e->AddFlow(topo.hostAddresses[4 + (h + f) % 4], 20000 + 10 * h + f, 1000);
            }
            e->Start(MicroSeconds(1));
            egresses.push_back(e);
        }
        Ptr<PfcChannel> ch = Cable(topo, "leaf0->spine0");
        Simulator::Schedule(MicroSeconds(300), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        uint64_t sent = 0;
        for (const auto& e : egresses)
        {
            sent += e->GetSentPackets();
        }
        uint64_t received = 0;
        for (const auto& s : sinks)
        {
            received += s->m_packets;
            NS_TEST_ASSERT_MSG_EQ(s->m_misdelivered, 0, "no misdelivery");
        }
        uint64_t drops = 0;
        uint64_t linkDownDrops = 0;
        uint64_t bufferDrops = 0;
        uint64_t residual = 0;
        for (const auto& s : topo.switches)
        {
            drops += s.sw->GetStats().GetNDroppedPackets();
            linkDownDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_LINK_DOWN);
            bufferDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_BUFFER_FULL);
            Ptr<SwitchMmu> mmu = s.sw->GetMmu();
            residual += mmu->GetTotalUsed() + mmu->GetSharedUsed();
        }
        const uint64_t lost = ch->GetLostFrames();
        NS_TEST_ASSERT_MSG_EQ(sent, 4 * 4 * 1000, "every packet was sent");
        NS_TEST_ASSERT_MSG_EQ(sent, received + drops + lost, "sent = received + dropped + lost");
        NS_TEST_ASSERT_MSG_GT(linkDownDrops, 0, "packets queued at the dead port were dropped");
        NS_TEST_ASSERT_MSG_GT(lost, 0, "frames on the wire were lost");
        NS_TEST_ASSERT_MSG_EQ(drops, linkDownDrops + bufferDrops, "the others: buffer full");
        NS_TEST_ASSERT_MSG_GT(received, sent / 2, "the flows went on through spine 1");
        NS_TEST_ASSERT_MSG_EQ(residual, 0, "buffers empty at the end");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * FabricTopology::ComputeRoutes over the cables that are up: with
 * spine0<->leaf1 down, leaf 0 and leaf 2 reach leaf 1's hosts through
 * spine 1 only while their routes to each other still use both spines; in
 * a k=4 fat-tree with pod0-agg0<->core0 down, the other pods' aggregation
 * switch 0 stop sending pod 0's traffic to core 0; with the cables back
 * every route is the original one again.
 */
class RouteRecomputationTestCase : public TestCase
{
  public:
    RouteRecomputationTestCase()
        : TestCase("routes recomputed over the live cables avoid a dead cable upstream and "
                   "come back with it")
    {
    }

  private:
    /// Every route of every switch.
    static std::vector<std::vector<uint32_t>> AllRoutes(const FabricTopology& topo)
    {
        std::vector<std::vector<uint32_t>> out;
        for (const auto& s : topo.switches)
        {
            for (const auto& a : topo.hostAddresses)
            {
                out.push_back(s.sw->GetRoute(a));
            }
        }
        return out;
    }

    void DoRun() override
    {
        FabricTopologyHelper helper;
        {
            FabricTopology topo = helper.BuildLeafSpine(3, 2, 2);
            const auto original = AllRoutes(topo);
            topo.ComputeRoutes();
            NS_TEST_ASSERT_MSG_EQ((AllRoutes(topo) == original), true, "same routes, all up");
            Cable(topo, "spine0->leaf1")->SetLinkUp(false);
            topo.ComputeRoutes();
            for (uint32_t leaf : {0u, 2u})
            {
                Ptr<FabricSwitch> sw = topo.switches[leaf].sw;
                const auto toLeaf1 = sw->GetLiveRoute(topo.hostAddresses[2]);
                NS_TEST_ASSERT_MSG_EQ(toLeaf1.size(), 1, "leaf " << leaf << ": one way left");
                NS_TEST_ASSERT_MSG_EQ(topo.links[topo.switches[leaf].portLink[toLeaf1[0]]].name,
                                      "leaf" + std::to_string(leaf) + "->spine1",
                                      "through spine 1");
            }
            NS_TEST_ASSERT_MSG_EQ(topo.switches[0].sw->GetRoute(topo.hostAddresses[4]).size(),
                                  2,
                                  "leaf 0 to leaf 2: both spines still");
            Cable(topo, "spine0->leaf1")->SetLinkUp(true);
            topo.ComputeRoutes();
            NS_TEST_ASSERT_MSG_EQ((AllRoutes(topo) == original), true, "original routes back");
            Simulator::Destroy();
        }
        {
            FabricTopology topo = helper.BuildFatTree(4);
            const auto original = AllRoutes(topo);
            const auto [agg, toCore0] = SwitchPortOf(topo, "pod1-agg0->core0");
            NS_TEST_ASSERT_MSG_EQ(topo.switches[agg].sw->GetRoute(topo.hostAddresses[0]).size(),
                                  2,
                                  "pod1-agg0 reaches pod 0 through two cores");
            Cable(topo, "pod0-agg0->core0")->SetLinkUp(false);
            topo.ComputeRoutes();
            const auto route = topo.switches[agg].sw->GetLiveRoute(topo.hostAddresses[0]);
            NS_TEST_ASSERT_MSG_EQ(route.size(), 1, "one core left");
            NS_TEST_ASSERT_MSG_NE(route[0], toCore0, "not core 0");
            Cable(topo, "pod0-agg0->core0")->SetLinkUp(true);
            topo.ComputeRoutes();
            NS_TEST_ASSERT_MSG_EQ((AllRoutes(topo) == original), true, "original routes back");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup flux-tests
 * Routes recomputed after a failure move only the flows that crossed it:
 * with spine0<->leaf1 down on a leaf-spine of 4 spines, leaf 0 keeps spine
 * 0 in its group to leaf 1's hosts as a withdrawn member, so of 2000 flows
 * those on spines 1-3 keep their uplink and spine 0's spread over the
 * three; flows to leaf 2 do not move at all; with the cable back every
 * flow is on its own uplink again. (Rebuilt from the live spines alone,
 * the group hashed every flow anew.)
 */
class ResilientConvergenceTestCase : public TestCase
{
  public:
    ResilientConvergenceTestCase()
        : TestCase("routes recomputed after a failure move only the flows that crossed it")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology topo = helper.BuildLeafSpine(3, 4, 2);
        const auto [leaf0, toSpine0] = SwitchPortOf(topo, "leaf0->spine0");
        const std::vector<int64_t> toLeaf1 = EgressOfFlows(topo, leaf0, 0, 2);
        const std::vector<int64_t> toLeaf2 = EgressOfFlows(topo, leaf0, 0, 4);
        Cable(topo, "spine0->leaf1")->SetLinkUp(false);
        topo.ComputeRoutes();
        const std::vector<int64_t> during = EgressOfFlows(topo, leaf0, 0, 2);
        std::set<int64_t> moved;
        uint32_t stayed = 0;
        for (std::size_t i = 0; i < toLeaf1.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_NE(during[i], int64_t{toSpine0}, "nothing to the spine cut off");
            if (toLeaf1[i] != int64_t{toSpine0})
            {
                NS_TEST_ASSERT_MSG_EQ(during[i], toLeaf1[i], "flows on live spines stay");
                ++stayed;
            }
            else
            {
                moved.insert(during[i]);
            }
        }
        NS_TEST_ASSERT_MSG_GT(stayed, 1000, "most flows crossed other spines");
        NS_TEST_ASSERT_MSG_EQ(moved.size(), 3, "spine 0's flows spread over the other three");
        NS_TEST_ASSERT_MSG_EQ((EgressOfFlows(topo, leaf0, 0, 4) == toLeaf2),
                              true,
                              "flows to leaf 2 untouched");
        Cable(topo, "spine0->leaf1")->SetLinkUp(true);
        topo.ComputeRoutes();
        NS_TEST_ASSERT_MSG_EQ((EgressOfFlows(topo, leaf0, 0, 2) == toLeaf1),
                              true,
                              "every flow back on its own uplink");
        Simulator::Destroy();
    }
};

/// The messages of one connection: posted at the sender, delivered at the receiver.
struct MessageLog
{
    std::vector<std::pair<uint64_t, uint64_t>> posted;    //!< (seq, bytes) posted
    std::vector<std::pair<uint64_t, uint64_t>> delivered; //!< (seq, bytes) delivered
};

/// Trace sink: append (seq, bytes) to a list.
void
LogMessage(std::vector<std::pair<uint64_t, uint64_t>>* list, uint64_t seq, uint64_t bytes)
{
    list->emplace_back(seq, bytes);
}

/// What a two-job run on a 2 x 2 x 4 leaf-spine reports.
struct TwoJobRun
{
    std::vector<uint32_t> iterationsDone; //!< per job
    std::vector<bool> finished;           //!< per job
    uint64_t connections{0};              //!< connections checked
    uint64_t messages{0};                 //!< messages posted
    uint64_t badConnections{0};           //!< delivered list != posted list
    uint64_t retransmitted{0};            //!< packets sent again
    uint64_t repairs{0};                  //!< copies that repaired a loss
    uint64_t qpErrors{0};                 //!< queue pairs in error
    uint64_t rxErrors{0};                 //!< frames lost by the error models
    uint64_t channelLost{0};              //!< frames lost on dead links
    uint64_t linkDownDrops{0};            //!< switch drops for a dead link
    uint64_t otherDrops{0};               //!< switch drops for any other reason
};

/**
 * \brief Two 4-rank ring-allreduce jobs whose every ring step crosses the
 * spines, every connection's messages logged at both ends.
 */
class TwoJobFabric
{
  public:
    /**
     * \param cc congestion control ("dcqcn", "hpcc", "none")
     * \param pfc PFC on
     * \param iterations iterations per job
     * \param bytes gradient bytes per iteration
     */
    TwoJobFabric(const std::string& cc, bool pfc, uint32_t iterations, uint64_t bytes)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        FabricTopologyHelper helper;
        helper.SetPfc(pfc);
        m_topo = helper.BuildLeafSpine(2, 2, 4);
        m_topo.AssignStreams(1);
        RdmaHelper rdma;
        // A lost tail waits for the timer: 4.096 us x 2^8 = 1.05 ms rather
        // than the default 4.29 s.
        rdma.SetNicAttribute("AckTimeout", UintegerValue(8));
        rdma.SetCongestionControl(cc);
        for (uint32_t h = 0; h < m_topo.GetNHosts(); ++h)
        {
            m_nics.push_back(
                rdma.Install(m_topo.hosts.Get(h), m_topo.hostDevices[h], m_topo.hostAddresses[h]));
        }
        const std::vector<std::vector<uint32_t>> hosts = {{0, 4, 1, 5}, {2, 6, 3, 7}};
        for (uint32_t j = 0; j < hosts.size(); ++j)
        {
            std::vector<Ptr<RdmaNic>> nics;
            for (uint32_t h : hosts[j])
            {
                nics.push_back(m_nics[h]);
            }
            // pieces of 256 KB: many messages per connection
            Ptr<RingAllreduce> ring =
                CreateObjectWithAttributes<RingAllreduce>("PipelineBytes", UintegerValue(262144));
            ring->Setup(nics, 3, static_cast<uint16_t>(50000 + 100 * j));
            Ptr<TrainingJob> job =
                CreateObjectWithAttributes<TrainingJob>("Iterations",
                                                        UintegerValue(iterations),
                                                        "GradientBytes",
                                                        UintegerValue(bytes));
            job->Setup("job" + std::to_string(j), ring);
            // the sending queue pairs come first, one per rank
            const auto qps = ring->GetQueuePairs();
            for (std::size_t r = 0; r < hosts[j].size(); ++r)
            {
                const Ptr<RdmaQueuePair>& qp = qps[r];
                const int64_t peer = m_topo.GetHostIndex(qp->GetPeerAddress());
                Ptr<RdmaQueuePair> rx = m_nics[peer]->GetQueuePair(qp->GetPeerQpn());
                NS_ABORT_MSG_IF(!rx, "no receiving queue pair");
                m_logs.emplace_back();
                qp->TraceConnectWithoutContext(
                    "Posted",
                    MakeBoundCallback(&LogMessage, &m_logs.back().posted));
                rx->TraceConnectWithoutContext(
                    "Delivered",
                    MakeBoundCallback(&LogMessage, &m_logs.back().delivered));
            }
            m_jobs.push_back(job);
        }
    }

    /** \return the fabric */
    FabricTopology& GetTopology()
    {
        return m_topo;
    }

    /// Start the jobs, run, gather and tear down.
    TwoJobRun Run()
    {
        for (const auto& job : m_jobs)
        {
            job->Start();
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        TwoJobRun r;
        for (const auto& job : m_jobs)
        {
            r.iterationsDone.push_back(job->GetIterations().size());
            r.finished.push_back(job->IsFinished());
        }
        for (const auto& log : m_logs)
        {
            ++r.connections;
            r.messages += log.posted.size();
            // exactly the posted messages, each once, in posting order, with its bytes
            r.badConnections += log.delivered == log.posted ? 0 : 1;
        }
        for (const auto& nic : m_nics)
        {
            const auto c = nic->GetCounters();
            r.retransmitted += c.retransmitted;
            r.repairs += c.repairsReceived;
            r.qpErrors += nic->GetQpErrors();
        }
        std::set<const PfcChannel*> cables;
        for (const auto& link : m_topo.links)
        {
            r.rxErrors += link.rx->GetRxErrors();
            Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(link.tx->GetChannel());
            if (cables.insert(PeekPointer(ch)).second)
            {
                r.channelLost += ch->GetLostFrames();
            }
        }
        for (const auto& s : m_topo.switches)
        {
            r.linkDownDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_LINK_DOWN);
            r.otherDrops += s.sw->GetStats().GetNDroppedPackets() -
                            s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_LINK_DOWN);
        }
        m_jobs.clear();
        m_nics.clear();
        m_topo = FabricTopology();
        Simulator::Destroy();
        return r;
    }

  private:
    FabricTopology m_topo;                //!< the fabric
    std::vector<Ptr<RdmaNic>> m_nics;     //!< per host
    std::vector<Ptr<TrainingJob>> m_jobs; //!< the two jobs
    std::deque<MessageLog> m_logs;        //!< per connection (stable addresses)
};

/**
 * \ingroup flux-tests
 * Random loss of 1e-3 on every link direction (a 1.05 ms ACK timer; DCQCN
 * and HPCC without PFC, DCQCN with PFC, whose frames are lost too): every
 * message of every connection of both jobs is delivered to the application
 * exactly once, in posting order, with exactly its posted bytes; both jobs
 * finish every iteration; losses happened and were repaired by go-back-N;
 * no queue pair failed.
 */
class ExactlyOnceUnderLossTestCase : public TestCase
{
  public:
    /**
     * \param cc congestion control
     * \param pfc PFC on
     */
    ExactlyOnceUnderLossTestCase(const std::string& cc, bool pfc)
        : TestCase("1e-3 loss on every link, " + cc + (pfc ? ", PFC" : ", no PFC") +
                   ": every message delivered once, in order, with its bytes"),
          m_cc(cc),
          m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        TwoJobFabric fabric(m_cc, m_pfc, 3, 4000000);
        FabricTopology& topo = fabric.GetTopology();
        int64_t stream = 500;
        for (const auto& link : topo.links)
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            em->SetAttribute("ErrorRate", DoubleValue(1e-3));
            stream += em->AssignStreams(stream);
            link.rx->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
        const TwoJobRun r = fabric.Run();
        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished[j], true, "job " << j << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.iterationsDone[j], 3, "job " << j << " iterations");
        }
        NS_TEST_ASSERT_MSG_EQ(r.connections, 8, "4 ring connections per job");
        NS_TEST_ASSERT_MSG_GT(r.messages, 8 * 3 * 6, "several messages per step");
        NS_TEST_ASSERT_MSG_EQ(r.badConnections, 0, "delivered == posted on every connection");
        NS_TEST_ASSERT_MSG_GT(r.rxErrors, 50, "frames were lost");
        NS_TEST_ASSERT_MSG_GT(r.repairs, 0, "losses repaired by go-back-N");
        NS_TEST_ASSERT_MSG_EQ(r.qpErrors, 0, "no queue pair failed");
    }

    std::string m_cc; //!< congestion control
    bool m_pfc;       //!< PFC on
};

/**
 * \ingroup flux-tests
 * A spine link fails and returns during a two-job run (DCQCN, PFC, routes
 * recomputed 200 us after each change): both jobs finish, every message is
 * delivered exactly once in order with its bytes, the failure cost
 * retransmissions and lost packets (queued at or routed to the dead port,
 * on the wire); 200 us after the failure no packet is lost any more and no
 * data crosses the dead cable in either direction until it returns, and
 * then data crosses it again in both directions.
 */
class SpineFailoverTwoJobsTestCase : public TestCase
{
  public:
    SpineFailoverTwoJobsTestCase()
        : TestCase("a spine link fails and returns under two jobs: both finish, exactly-once "
                   "delivery, traffic leaves the dead link and comes back")
    {
    }

  private:
    /// One sample of the cable's data bytes and of the losses so far.
    struct Sample
    {
        Time at;          //!< when
        uint64_t up{0};   //!< IPv4 bytes leaf1 sent to spine0
        uint64_t down{0}; //!< IPv4 bytes spine0 sent to leaf1
        uint64_t lost{0}; //!< packets lost so far (drops + lost frames)
    };

    /// Take a sample.
    void TakeSample()
    {
        Sample s;
        s.at = Simulator::Now();
        s.up = m_leaf1->GetTxBytes(m_upPort);
        s.down = m_spine0->GetTxBytes(m_downPort);
        for (const auto& sw : m_switches)
        {
            s.lost += sw->GetStats().GetNDroppedPackets();
        }
        s.lost += m_cable->GetLostFrames();
        m_samples.push_back(s);
    }

    /**
     * \param at a time
     * \return the last sample taken at or before it
     */
    const Sample& At(Time at) const
    {
        const Sample* best = &m_samples.front();
        for (const auto& s : m_samples)
        {
            if (s.at <= at)
            {
                best = &s;
            }
        }
        return *best;
    }

    void DoRun() override
    {
        TwoJobFabric fabric("dcqcn", true, 4, 8000000);
        FabricTopology& topo = fabric.GetTopology();
        std::tie(std::ignore, m_upPort) = SwitchPortOf(topo, "leaf1->spine0");
        std::tie(std::ignore, m_downPort) = SwitchPortOf(topo, "spine0->leaf1");
        m_leaf1 = topo.switches[1].sw;
        m_spine0 = topo.switches[2].sw;
        for (const auto& s : topo.switches)
        {
            m_switches.push_back(s.sw);
        }
        m_cable = Cable(topo, "leaf1->spine0");
        const Time down = MicroSeconds(1000);
        const Time up = MicroSeconds(3000);
        const Time converge = MicroSeconds(200);
        Simulator::Schedule(down, &PfcChannel::SetLinkUp, m_cable, false);
        // the routing converges
        Simulator::Schedule(down + converge, &FabricTopology::ComputeRoutes, &topo);
        Simulator::Schedule(up, &PfcChannel::SetLinkUp, m_cable, true);
        Simulator::Schedule(up + converge, &FabricTopology::ComputeRoutes, &topo);
        for (Time t = MicroSeconds(50); t < MilliSeconds(20); t += MicroSeconds(50))
        {
            Simulator::Schedule(t, &SpineFailoverTwoJobsTestCase::TakeSample, this);
        }
        const TwoJobRun r = fabric.Run();

        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_EQ(r.finished[j], true, "job " << j << " finished");
            NS_TEST_ASSERT_MSG_EQ(r.iterationsDone[j], 4, "job " << j << " iterations");
        }
        NS_TEST_ASSERT_MSG_EQ(r.badConnections, 0, "delivered == posted on every connection");
        NS_TEST_ASSERT_MSG_EQ(r.qpErrors, 0, "no queue pair failed");
        NS_TEST_ASSERT_MSG_GT(r.retransmitted, 0, "the failure cost retransmissions");
        NS_TEST_ASSERT_MSG_GT(r.linkDownDrops, 0, "packets dropped for the dead link");
        NS_TEST_ASSERT_MSG_EQ(r.otherDrops, 0, "no other drop (lossless fabric)");
        NS_TEST_ASSERT_MSG_GT(r.linkDownDrops + r.channelLost, 0, "losses counted");

        // the jobs run across the failure
        NS_TEST_ASSERT_MSG_GT(m_samples.back().at, up + MilliSeconds(1), "samples after");
        const Sample& before = At(down);
        const Sample& early = At(down - MicroSeconds(500));
        NS_TEST_ASSERT_MSG_GT(before.up, early.up, "leaf1->spine0 carries data before");
        NS_TEST_ASSERT_MSG_GT(before.down, early.down, "spine0->leaf1 carries data before");
        // converged: no data on the dead cable, and nothing lost any more
        const Sample& from = At(down + converge + MicroSeconds(50));
        const Sample& to = At(up);
        NS_TEST_ASSERT_MSG_EQ(to.up, from.up, "no data leaf1->spine0 while down");
        NS_TEST_ASSERT_MSG_EQ(to.down, from.down, "no data spine0->leaf1 while down");
        NS_TEST_ASSERT_MSG_EQ(to.lost, from.lost, "no loss once converged");
        // back in use in both directions once the routes are back
        const Sample& last = m_samples.back();
        const Sample& back = At(up + converge);
        NS_TEST_ASSERT_MSG_GT(last.up, back.up, "leaf1->spine0 used again");
        NS_TEST_ASSERT_MSG_GT(last.down, back.down, "spine0->leaf1 used again");
        m_leaf1 = nullptr;
        m_spine0 = nullptr;
        m_switches.clear();
        m_cable = nullptr;
    }

    FabricTopology* m_topo{nullptr};           //!< the fabric during the run
    Ptr<FabricSwitch> m_leaf1;                 //!< leaf 1
    Ptr<FabricSwitch> m_spine0;                //!< spine 0
    uint32_t m_upPort{0};                      //!< leaf 1's port to spine 0
    uint32_t m_downPort{0};                    //!< spine 0's port to leaf 1
    std::vector<Ptr<FabricSwitch>> m_switches; //!< all switches
    Ptr<PfcChannel> m_cable;                   //!< the failing cable
    std::vector<Sample> m_samples;             //!< every 50 us
};

/**
 * \ingroup flux-tests
 * PFC at scale, small: a 15-to-1 incast on a k=4 fat-tree whose host links
 * (10 Gb/s) are the only oversubscribed ones, PFC on, no congestion
 * control. Zero drops and every byte arrives; pauses spread hop by hop
 * back from the victim: the switches at every distance from the victim's
 * edge switch pause (0: the edge switch, 1: pod 0's aggregation switches,
 * 2: the cores and pod 0's other edge switch, 3: the other pods'
 * aggregation switches, 4: their edge switches, pausing the senders), and
 * the first pause at each distance comes after the first at the distance
 * before.
 */
class PfcPropagationTestCase : public TestCase
{
  public:
    PfcPropagationTestCase()
        : TestCase("15-to-1 incast on a k=4 fat-tree: no drop, pauses spread hop by hop")
    {
    }

  private:
    /// A switch paused an ingress port.
    static void Paused(PfcPropagationTestCase* self, uint32_t hop, uint32_t port, uint8_t prio)
    {
        ++self->m_pauses[hop];
        if (self->m_first[hop].IsZero())
        {
            self->m_first[hop] = Simulator::Now();
        }
    }

    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetHostRate(DataRate("10Gbps"));
        FabricTopology topo = helper.BuildFatTree(4);
        topo.AssignStreams(1);
        // distance of every switch from the victim's (BFS over the switches)
        const uint32_t victim = 0;
        std::vector<uint32_t> hop(topo.switches.size(), std::numeric_limits<uint32_t>::max());
        std::deque<uint32_t> queue{topo.hostSwitch[victim]};
        hop[topo.hostSwitch[victim]] = 0;
        while (!queue.empty())
        {
            const uint32_t s = queue.front();
            queue.pop_front();
            for (uint32_t l : topo.switches[s].portLink)
            {
                const uint32_t id = topo.links[l].rx->GetNode()->GetId();
                if (id < topo.switchOfNode.size() && topo.switchOfNode[id] >= 0)
                {
                    const uint32_t n = topo.switchOfNode[id];
                    if (hop[n] == std::numeric_limits<uint32_t>::max())
                    {
                        hop[n] = hop[s] + 1;
                        queue.push_back(n);
                    }
                }
            }
        }
        for (uint32_t s = 0; s < topo.switches.size(); ++s)
        {
            topo.switches[s].sw->TraceConnectWithoutContext(
                "PfcPause",
                MakeBoundCallback(&PfcPropagationTestCase::Paused, this, hop[s]));
        }
        Ptr<TrafficSink> sink =
            Create<TrafficSink>(topo.hostDevices[victim], topo.hostAddresses[victim]);
        std::vector<Ptr<TrafficEgress>> egresses;
        for (uint32_t h = 1; h < topo.GetNHosts(); ++h)
        {
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[h], topo.hostAddresses[h], 4000);
            e->AddFlow(topo.hostAddresses[victim], static_cast<uint16_t>(20000 + h), 2000);
            e->Start(MicroSeconds(1));
            egresses.push_back(e);
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        uint64_t sent = 0;
        for (const auto& e : egresses)
        {
            sent += e->GetSentBytes();
        }
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(), 0, "no drop");
        NS_TEST_ASSERT_MSG_EQ(sink->m_bytes, sent, "every byte arrives");
        NS_TEST_ASSERT_MSG_EQ(sink->m_reordered, 0, "in order");
        for (uint32_t h = 0; h <= 4; ++h)
        {
            NS_TEST_ASSERT_MSG_GT(m_pauses[h], 0, "switches " << h << " hops away pause");
            if (h > 0)
            {
                NS_TEST_ASSERT_MSG_GT(m_first[h],
                                      m_first[h - 1],
                                      "hop " << h << " pauses after hop " << h - 1);
            }
        }
        uint64_t tiers = 0;
        for (uint32_t l = 0; l < topo.links.size(); ++l)
        {
            tiers += topo.GetPfcPauses(l);
        }
        NS_TEST_ASSERT_MSG_EQ(tiers, topo.GetSwitchStats().nPfcPauses, "per-link pauses add up");
        NS_TEST_ASSERT_MSG_GT(topo.hostDevices[1]->GetPfcPausesReceived() +
                                  topo.hostDevices[15]->GetPfcPausesReceived(),
                              0,
                              "senders are paused");
        Simulator::Destroy();
    }

    std::map<uint32_t, uint64_t> m_pauses; //!< XOFF decisions per hop from the victim
    std::map<uint32_t, Time> m_first;      //!< first XOFF per hop
};

} // namespace

namespace ns3
{

/**
 * \ingroup flux-tests
 * The faults suite.
 */
class FluxFaultsTestSuite : public TestSuite
{
  public:
    FluxFaultsTestSuite()
        : TestSuite("flux-faults")
    {
        AddTestCase(new EcmpFailoverTestCase);
        AddTestCase(new DetectionDelayTestCase);
        AddTestCase(new LinkDownConservationTestCase);
        AddTestCase(new RouteRecomputationTestCase);
        AddTestCase(new ResilientConvergenceTestCase);
        AddTestCase(new ExactlyOnceUnderLossTestCase("dcqcn", false));
        AddTestCase(new ExactlyOnceUnderLossTestCase("hpcc", false));
        AddTestCase(new ExactlyOnceUnderLossTestCase("dcqcn", true));
        AddTestCase(new SpineFailoverTwoJobsTestCase);
        AddTestCase(new PfcPropagationTestCase);
    }
};

static FluxFaultsTestSuite g_fluxFaultsTestSuite; //!< Static variable for test initialization

} // namespace ns3
