/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The collective library: each algorithm's time on an idle switch against
 * its alpha-beta cost, its bytes per rank against its formula, its steps'
 * data dependencies, traffic between ranks of one server kept off the
 * NICs, channels, determinism, and the library's names.
 */

#include "alpha-beta.h"

#include "ns3/collective-library.h"
#include "ns3/core-module.h"
#include "ns3/direct-all-to-all.h"
#include "ns3/double-binary-tree-allreduce.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/halving-doubling-allreduce.h"
#include "ns3/hierarchical-allreduce.h"
#include "ns3/network-module.h"
#include "ns3/pfc-net-device.h"
#include "ns3/point-to-point-send.h"
#include "ns3/rdma-helper.h"
#include "ns3/recursive-doubling-all-gather.h"
#include "ns3/recursive-halving-reduce-scatter.h"
#include "ns3/ring-all-gather.h"
#include "ns3/ring-allreduce.h"
#include "ns3/ring-barrier.h"
#include "ns3/ring-broadcast.h"
#include "ns3/ring-reduce-scatter.h"
#include "ns3/string.h"

#include <cmath>

using namespace ns3;

namespace
{

/// What one run of a collective did.
struct CollectiveRun
{
    double seconds{0};                           //!< from Start() to done
    std::vector<uint64_t> rdmaBytes;             //!< per rank: bytes posted on its RDMA connections
    uint64_t intraBytes{0};                      //!< bytes over the GPU interconnect
    uint64_t nicPackets{0};                      //!< data packets the NICs sent
    uint64_t portBytes{0};                       //!< bytes the hosts' ports sent
    uint32_t connections{0};                     //!< RDMA connections
    uint32_t expectedConnections{0};             //!< GetNConnections() before Setup
    std::vector<Collective::StepRecord> records; //!< the step records
    Time gateWait;                               //!< Collective::GetGateWait
};

/// A gate that lets every request go 5 us after it was asked.
class DelayGate : public CollectiveGate
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::DelayGate").SetParent<CollectiveGate>();
        return tid;
    }

    void Ask(Ptr<Collective> collective, const Request& req) override
    {
        ++asks;
        Simulator::Schedule(MicroSeconds(5), &Collective::Release, collective, req.rank);
    }

    uint32_t asks{0}; //!< requests so far
};

/**
 * \brief Run a collective once on hosts of one 100G switch.
 * \param tid the collective's TypeId
 * \param ranks ranks
 * \param bytes buffer bytes (Start())
 * \param hostOfRank the host (NIC) of each rank (empty: rank r on host r)
 * \param servers the server of each rank (empty: every rank its own)
 * \param channels the Channels attribute
 * \param gate a gate in front of the sends, or nullptr
 * \param cc the NICs' congestion control TypeId (empty: RdmaNic default)
 * \return what it did
 */
CollectiveRun
RunCollective(TypeId tid,
              uint32_t ranks,
              uint64_t bytes,
              std::vector<uint32_t> hostOfRank = {},
              std::vector<uint32_t> servers = {},
              uint32_t channels = 1,
              Ptr<CollectiveGate> gate = nullptr,
              const std::string& cc = "")
{
    RngSeedManager::SetSeed(1);
    if (hostOfRank.empty())
    {
        for (uint32_t r = 0; r < ranks; ++r)
        {
            hostOfRank.push_back(r);
        }
    }
    const uint32_t hosts = *std::max_element(hostOfRank.begin(), hostOfRank.end()) + 1;
    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate("100Gbps"));
    fabric.SetLinkDelay(MicroSeconds(1));
    FabricTopology topo = fabric.BuildLeafSpine(1, 0, std::max<uint32_t>(hosts, 2));
    topo.AssignStreams(1);
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(static_cast<uint32_t>(fluxtest::MTU)));
    if (!cc.empty())
    {
        rdma.SetNicAttribute("CongestionControl", StringValue(cc));
    }
    std::vector<Ptr<RdmaNic>> hostNics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        hostNics.push_back(
            rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        nics.push_back(hostNics[hostOfRank[r]]);
    }
    ObjectFactory factory(tid.GetName());
    factory.Set("Channels", UintegerValue(channels));
    Ptr<Collective> c = factory.Create<Collective>();
    if (!servers.empty())
    {
        c->SetServers(servers);
    }
    CollectiveRun out;
    out.expectedConnections = c->GetNConnections(ranks);
    c->Setup(nics, 3, 50000);
    c->SetGate(gate);
    Time done;
    c->Start(bytes,
             MakeBoundCallback(
                 +[](Time* t) { *t = Simulator::Now(); },
                 &done));
    Simulator::Run();
    out.seconds = done.GetSeconds();
    out.rdmaBytes.assign(ranks, 0);
    const auto connections = c->GetConnections();
    out.connections = static_cast<uint32_t>(connections.size());
    for (const auto& conn : connections)
    {
        out.rdmaBytes[conn.src] += conn.sender->GetBytesPosted();
    }
    out.intraBytes = c->GetIntraServerBytes();
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        out.nicPackets += hostNics[h]->GetDataPacketsSent();
        out.portBytes += topo.hostDevices[h]->GetTxBytes();
    }
    out.records = c->GetStepRecords();
    out.gateWait = c->GetGateWait();
    c->Dispose();
    Simulator::Destroy();
    return out;
}

/// One algorithm's case: how to build it and what it should cost.
struct AlgorithmCase
{
    std::string name;                   //!< for messages
    TypeId tid;                         //!< the collective
    uint32_t ranks;                     //!< ranks
    uint64_t bytes;                     //!< buffer bytes
    double expectedS;                   //!< alpha-beta time
    uint64_t bytesPerRank;              //!< the formula's bytes per (busiest) rank
    bool pipelined;                     //!< pieces overlap steps (no step-order check)
    std::vector<uint32_t> hostOfRank{}; //!< host (NIC) of each rank (empty: its own)
    std::vector<uint32_t> servers{};    //!< server of each rank (empty: its own)
    uint64_t intraBytes{0};             //!< bytes over the GPU interconnect, all ranks
    std::string cc{};                   //!< congestion control TypeId (empty: the NIC default)
};

/**
 * One algorithm alone on an idle switch: it finishes within 5 % of its
 * alpha-beta cost, its busiest rank sends exactly the formula's bytes, and
 * no rank starts a step before its earlier steps' data arrived.
 */
class AlgorithmCostTestCase : public TestCase
{
  public:
    /** \param c the case */
    explicit AlgorithmCostTestCase(const AlgorithmCase& c)
        : TestCase(c.name + " within 5 % of alpha-beta; bytes per rank as the formula"),
          m_case(c)
    {
    }

  private:
    void DoRun() override
    {
        const CollectiveRun run = RunCollective(m_case.tid,
                                                m_case.ranks,
                                                m_case.bytes,
                                                m_case.hostOfRank,
                                                m_case.servers,
                                                1,
                                                nullptr,
                                                m_case.cc);
        NS_TEST_ASSERT_MSG_GT(run.seconds, 0, "the collective finished");

        NS_TEST_EXPECT_MSG_EQ_TOL(run.seconds,
                                  m_case.expectedS,
                                  0.05 * m_case.expectedS,
                                  "alpha-beta time");
        const uint64_t most = *std::max_element(run.rdmaBytes.begin(), run.rdmaBytes.end());
        NS_TEST_EXPECT_MSG_EQ(most, m_case.bytesPerRank, "bytes of the busiest rank");
        NS_TEST_EXPECT_MSG_EQ(run.connections, run.expectedConnections, "GetNConnections");
        NS_TEST_EXPECT_MSG_EQ(run.intraBytes, m_case.intraBytes, "bytes inside the servers");
        if (m_case.pipelined)
        {
            return;
        }
        for (const auto& later : run.records)
        {
            for (const auto& earlier : run.records)
            {
                if (later.rank != earlier.rank || earlier.step >= later.step || later.idle ||
                    earlier.idle || later.start.IsZero())
                {
                    continue;
                }
                NS_TEST_EXPECT_MSG_GT_OR_EQ(later.start,
                                            earlier.end,
                                            "rank " << later.rank << " started step " << later.step
                                                    << " before step " << earlier.step << " ended");
            }
        }
    }

    AlgorithmCase m_case; //!< the case
};

/**
 * Ranks of one server talk over the GPU interconnect only: a ring
 * all-reduce of four ranks on one server sends nothing through a NIC or a
 * port, and takes exactly 2(N-1) (latency + S/N / rate); with two servers
 * of two ranks sharing a NIC each, only the two cross-server links use
 * RDMA, each carrying its ring share.
 */
class IntraServerTestCase : public TestCase
{
  public:
    IntraServerTestCase()
        : TestCase("ranks of one server never reach a NIC; GPU interconnect alpha-beta exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4000000;
        const uint32_t n = 4;
        const TypeId ring = RingAllreduce::GetTypeId();
        CollectiveRun one = RunCollective(ring, n, bytes, {0, 1, 2, 3}, {0, 0, 0, 0});
        NS_TEST_EXPECT_MSG_EQ(one.connections, 0, "no RDMA connection within a server");
        NS_TEST_EXPECT_MSG_EQ(one.nicPackets, 0, "no packet from any NIC");
        NS_TEST_EXPECT_MSG_EQ(one.portBytes, 0, "no byte on any port");
        NS_TEST_EXPECT_MSG_EQ(one.intraBytes, n * 2 * (n - 1) * bytes / n, "ring bytes");
        // defaults: 2400 Gb/s, 1 us
        const double expected = 2.0 * (n - 1) * (1e-6 + bytes / n * 8 / 2400e9);
        NS_TEST_EXPECT_MSG_EQ_TOL(one.seconds,
                                  expected,
                                  1e-8,
                                  "alpha-beta of the interconnect (ns rounding)");

        CollectiveRun two = RunCollective(ring, n, bytes, {0, 0, 1, 1}, {0, 0, 1, 1});
        NS_TEST_EXPECT_MSG_EQ(two.connections, 2, "links 1->2 and 3->0 cross servers");
        NS_TEST_EXPECT_MSG_EQ(two.expectedConnections, 2, "GetNConnections with servers");
        NS_TEST_EXPECT_MSG_EQ(two.rdmaBytes[1], 2 * (n - 1) * bytes / n, "rank 1 over RDMA");
        NS_TEST_EXPECT_MSG_EQ(two.rdmaBytes[3], 2 * (n - 1) * bytes / n, "rank 3 over RDMA");
        NS_TEST_EXPECT_MSG_EQ(two.rdmaBytes[0] + two.rdmaBytes[2], 0, "0->1, 2->3 stay inside");
        NS_TEST_EXPECT_MSG_EQ(two.intraBytes, 2 * 2 * (n - 1) * bytes / n, "two inner links");
    }
};

/**
 * Channels split every message over K queue pairs per link: K times the
 * connections, the same bytes, and about the same time on an idle switch.
 */
class ChannelsTestCase : public TestCase
{
  public:
    ChannelsTestCase()
        : TestCase("K channels: K queue pairs per link, same bytes, same time within 5 %")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 4000000;
        const TypeId ring = RingAllreduce::GetTypeId();
        CollectiveRun one = RunCollective(ring, 4, bytes);
        CollectiveRun four = RunCollective(ring, 4, bytes, {}, {}, 4);
        NS_TEST_EXPECT_MSG_EQ(one.connections, 4, "one per link");
        NS_TEST_EXPECT_MSG_EQ(four.connections, 16, "four per link");
        NS_TEST_EXPECT_MSG_EQ(four.expectedConnections, 16, "GetNConnections counts channels");
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(four.rdmaBytes[r], one.rdmaBytes[r], "same bytes");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(four.seconds, one.seconds, 0.05 * one.seconds, "same time");
        const uint32_t a2a =
            CreateObjectWithAttributes<DirectAllToAll>("Channels", UintegerValue(2))
                ->GetNConnections(8);
        NS_TEST_EXPECT_MSG_EQ(a2a, 8 * 7 * 2, "all-to-all: N(N-1) K connections");
    }
};

/**
 * A scheduled algorithm goes through the gate: halving-doubling on 8 ranks
 * asks once per rank and step (48 asks), each rank waits 5 us per step
 * (30 us of gate wait), and the run takes that much longer than without.
 */
class ScheduledGateTestCase : public TestCase
{
  public:
    ScheduledGateTestCase()
        : TestCase("every step of a scheduled algorithm is asked of the gate")
    {
    }

  private:
    void DoRun() override
    {
        const TypeId tid = HalvingDoublingAllreduce::GetTypeId();
        CollectiveRun free = RunCollective(tid, 8, 4000000);
        Ptr<DelayGate> gate = CreateObject<DelayGate>();
        CollectiveRun held = RunCollective(tid, 8, 4000000, {}, {}, 1, gate);
        NS_TEST_EXPECT_MSG_EQ(gate->asks, 8 * 6, "one ask per rank and step");
        NS_TEST_EXPECT_MSG_EQ(held.gateWait, MicroSeconds(30), "5 us per step");
        NS_TEST_EXPECT_MSG_EQ_TOL(held.seconds - free.seconds,
                                  30e-6,
                                  3e-6,
                                  "the holds add up along the steps");
    }
};

/**
 * The same all-to-all (the incast pattern, where congestion control acts)
 * run twice with one seed takes the same time to the nanosecond.
 */
class CollectiveDeterminismTestCase : public TestCase
{
  public:
    CollectiveDeterminismTestCase()
        : TestCase("a run is deterministic for a seed")
    {
    }

  private:
    void DoRun() override
    {
        const TypeId tid = DirectAllToAll::GetTypeId();
        CollectiveRun a = RunCollective(tid, 8, 8000000);
        CollectiveRun b = RunCollective(tid, 8, 8000000);
        NS_TEST_EXPECT_MSG_EQ(a.seconds, b.seconds, "same time");
        NS_TEST_EXPECT_MSG_EQ((a.rdmaBytes == b.rdmaBytes), true, "same bytes");
    }
};

/**
 * The library names each operation's algorithms, the default first; every
 * TypeId it gives creates a collective reporting that operation and name;
 * an unknown name is not found; halving-doubling refuses 6 ranks.
 */
class CollectiveLibraryTestCase : public TestCase
{
  public:
    CollectiveLibraryTestCase()
        : TestCase("the library maps (operation, algorithm) to collectives that report it")
    {
    }

  private:
    void DoRun() override
    {
        const std::pair<CollectiveType, std::string> defaults[] = {
            {CollectiveType::ALL_REDUCE, "ring"},
            {CollectiveType::ALL_GATHER, "ring"},
            {CollectiveType::REDUCE_SCATTER, "ring"},
            {CollectiveType::ALL_TO_ALL, "direct"},
            {CollectiveType::BROADCAST, "ring"},
            {CollectiveType::BARRIER, "ring"},
        };
        for (const auto& [type, name] : defaults)
        {
            NS_TEST_EXPECT_MSG_EQ(CollectiveLibrary::GetDefault(type), name, "default");
            for (const auto& algorithm : CollectiveLibrary::GetAlgorithms(type))
            {
                ObjectFactory f(CollectiveLibrary::GetTypeId(type, algorithm).GetName());
                Ptr<Collective> c = f.Create<Collective>();
                NS_TEST_EXPECT_MSG_EQ(static_cast<int>(c->GetCollectiveType()),
                                      static_cast<int>(type),
                                      "reports its operation");
                NS_TEST_EXPECT_MSG_EQ(c->GetAlgorithmName(), algorithm, "reports its name");
            }
        }
        TypeId tid;
        NS_TEST_EXPECT_MSG_EQ(CollectiveLibrary::Find(CollectiveType::ALL_REDUCE, "tree", tid),
                              false,
                              "unknown name");
        NS_TEST_EXPECT_MSG_EQ(
            CollectiveLibrary::Find(CollectiveType::ALL_REDUCE, "halving-doubling", tid),
            true,
            "halving-doubling all-reduce");
        NS_TEST_EXPECT_MSG_EQ(tid, HalvingDoublingAllreduce::GetTypeId(), "its TypeId");
        NS_TEST_EXPECT_MSG_NE(
            CollectiveLibrary::CheckRanks(CollectiveType::ALL_REDUCE, "halving-doubling", 6),
            "",
            "6 ranks is not a power of two");
        NS_TEST_EXPECT_MSG_NE(
            CollectiveLibrary::CheckRanks(CollectiveType::ALL_GATHER, "halving-doubling", 6),
            "",
            "recursive doubling needs a power of two");
        NS_TEST_EXPECT_MSG_EQ(
            CollectiveLibrary::CheckRanks(CollectiveType::REDUCE_SCATTER, "halving-doubling", 8),
            "",
            "8 ranks is one");
        NS_TEST_EXPECT_MSG_EQ(
            CollectiveLibrary::Find(CollectiveType::ALL_REDUCE, "double-binary-tree", tid),
            true,
            "double binary tree all-reduce");
        NS_TEST_EXPECT_MSG_EQ(tid, DoubleBinaryTreeAllreduce::GetTypeId(), "its TypeId");
        NS_TEST_EXPECT_MSG_EQ(
            CollectiveLibrary::CheckRanks(CollectiveType::ALL_REDUCE, "double-binary-tree", 6),
            "",
            "any number of ranks");
        NS_TEST_EXPECT_MSG_EQ(
            CollectiveLibrary::Find(CollectiveType::REDUCE_SCATTER, "halving-doubling", tid),
            true,
            "recursive-halving reduce-scatter");
        NS_TEST_EXPECT_MSG_EQ(tid, RecursiveHalvingReduceScatter::GetTypeId(), "its TypeId");
    }
};

/// The collective library's tests.
class FluxCollectiveTestSuite : public TestSuite
{
  public:
    FluxCollectiveTestSuite()
        : TestSuite("flux-collective", TestSuite::Type::UNIT)
    {
        using fluxtest::AlphaS;
        using fluxtest::BetaS;
        const double a = AlphaS();
        const double b = BetaS();
        const uint64_t s = 4000000; // divisible by 4 and 8
        std::vector<AlgorithmCase> cases = {
            {"ring all-reduce",
             RingAllreduce::GetTypeId(),
             4,
             s,
             2 * 3 * a + 2.0 * 3 / 4 * s * b,
             2 * 3 * s / 4,
             false},
            {"ring reduce-scatter",
             RingReduceScatter::GetTypeId(),
             4,
             s,
             3 * a + 3.0 / 4 * s * b,
             3 * s / 4,
             false},
            {"ring all-gather",
             RingAllGather::GetTypeId(),
             4,
             s,
             3 * a + 3.0 / 4 * s * b,
             3 * s / 4,
             false},
            // N pieces by default: (N-1 + P-1) hops of a piece
            {"ring broadcast",
             RingBroadcast::GetTypeId(),
             4,
             s,
             (3 + 3) * (a + s / 4.0 * b),
             s,
             true},
            {"ring barrier",
             RingBarrier::GetTypeId(),
             4,
             s,
             3 * AlphaS(RingBarrier::FLAG_BYTES),
             3 * RingBarrier::FLAG_BYTES,
             false},
            {"direct all-to-all",
             DirectAllToAll::GetTypeId(),
             8,
             s,
             a + 7.0 / 8 * s * b,
             7 * s / 8,
             false},
            {"point-to-point send", PointToPointSend::GetTypeId(), 2, s, a + s * b, s, false},
            {"halving-doubling all-reduce",
             HalvingDoublingAllreduce::GetTypeId(),
             8,
             s,
             2 * 3 * a + 2.0 * 7 / 8 * s * b,
             2 * 7 * s / 8,
             false},
            // 8 ranks: both trees 3 high (D = 3), 6 steps, chunks c of
            // 128 KiB of each half. Every NIC sends and takes 2 S; the first
            // chunk crosses 2D hops before the pipeline is full. Four flows
            // meet at an inner node's NIC: with no congestion control, as
            // alpha-beta assumes (DCQCN's first cuts slow the first run)
            {"double binary tree all-reduce",
             DoubleBinaryTreeAllreduce::GetTypeId(),
             8,
             s,
             2.0 * s * b + 2 * 3 * (a + 131072.0 * b),
             2 * s,
             true,
             {},
             {},
             0,
             "ns3::RdmaCongestionControl"},
            {"double binary tree all-reduce, 16 ranks",
             DoubleBinaryTreeAllreduce::GetTypeId(),
             16,
             s,
             2.0 * s * b + 2 * 4 * (a + 131072.0 * b),
             2 * s,
             true,
             {},
             {},
             0,
             "ns3::RdmaCongestionControl"},
            {"recursive-halving reduce-scatter",
             RecursiveHalvingReduceScatter::GetTypeId(),
             8,
             s,
             3 * a + 7.0 / 8 * s * b,
             7 * s / 8,
             false},
            {"recursive-doubling all-gather",
             RecursiveDoublingAllGather::GetTypeId(),
             8,
             s,
             3 * a + 7.0 / 8 * s * b,
             7 * s / 8,
             false},
        };
        // 2 servers of 4 GPUs, one NIC each: rings of 4 inside (2400 Gb/s,
        // 1 us), then 4 rings of 2 across, the 4 sharing each NIC
        const double intraStep = 1e-6 + s / 4.0 * 8 / 2400e9;
        cases.push_back({"hierarchical all-reduce (2 x 4)",
                         HierarchicalAllreduce::GetTypeId(),
                         8,
                         s,
                         2 * 3 * intraStep + 2 * 1 * (a + s / 2.0 * b),
                         2 * 1 * (s / 4 / 2),
                         false,
                         {0, 0, 0, 0, 1, 1, 1, 1},
                         {0, 0, 0, 0, 1, 1, 1, 1},
                         8 * 2 * 3 * (s / 4)});
        for (const auto& c : cases)
        {
            AddTestCase(new AlgorithmCostTestCase(c));
        }
        AddTestCase(new IntraServerTestCase);
        AddTestCase(new ChannelsTestCase);
        AddTestCase(new CollectiveDeterminismTestCase);
        AddTestCase(new ScheduledGateTestCase);
        AddTestCase(new CollectiveLibraryTestCase);
    }
};

/// The suite's instance.
static FluxCollectiveTestSuite g_fluxCollectiveTestSuite;

} // namespace
