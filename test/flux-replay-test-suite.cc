/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Replayed workloads (WorkloadReplay): the order a workload graph's nodes
 * run in, one compute node at a time per GPU, communicators that run their
 * operations in order, the compute / communication / exposed time each
 * rank reports, and workloads whose ranks wait for each other.
 */

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/network-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/ring-allreduce.h"
#include "ns3/training-job.h"
#include "ns3/workload-replay.h"

#include <map>

using namespace ns3;

namespace
{

/// One finished node, as the replay reported it.
struct Finished
{
    uint32_t rank;    //!< its rank
    std::string name; //!< its name
    Time start;       //!< when it started
    Time end;         //!< when it finished
};

/// Nodes of a hand-built graph.
class GraphBuilder
{
  public:
    /**
     * \param ranks ranks, one group with all of them
     */
    explicit GraphBuilder(uint32_t ranks)
    {
        trace.ranks = ranks;
        trace.nodes.resize(ranks);
        trace.groups.emplace_back();
        for (uint32_t r = 0; r < ranks; ++r)
        {
            trace.groups[0].push_back(r);
        }
    }

    /**
     * \brief Add a compute node to every rank.
     * \param name its name
     * \param us its time
     * \param deps its dependencies
     */
    void Compute(const std::string& name, uint64_t us, std::vector<uint32_t> deps = {})
    {
        WorkloadNode n;
        n.name = name;
        n.kind = WorkloadNode::Kind::COMPUTE;
        n.durationNs = us * 1000;
        n.deps = std::move(deps);
        Add(n);
    }

    /**
     * \brief Add an all-reduce on the group of all ranks to every rank.
     * \param name its name
     * \param bytes its buffer
     * \param deps its dependencies
     */
    void AllReduce(const std::string& name, uint64_t bytes, std::vector<uint32_t> deps = {})
    {
        WorkloadNode n;
        n.name = name;
        n.kind = WorkloadNode::Kind::COLLECTIVE;
        n.collective = CollectiveType::ALL_REDUCE;
        n.bytes = bytes;
        n.deps = std::move(deps);
        Add(n);
    }

    WorkloadTrace trace; //!< the graph

  private:
    /**
     * \param n a node to add to every rank
     */
    void Add(WorkloadNode n)
    {
        for (auto& nodes : trace.nodes)
        {
            n.id = nodes.size();
            nodes.push_back(n);
        }
    }
};

/// A replay on hosts of one switch, its collectives rings.
struct ReplayRun
{
    std::vector<Finished> finished;                 //!< every finished node
    std::vector<WorkloadReplay::RankStats> ranks;   //!< per-rank times
    std::vector<TrainingJob::Iteration> iterations; //!< the job's iterations
    Time ringAlone;                                 //!< one ring of the graph's bytes alone
};

/**
 * \brief Record a finished node.
 * \param run where
 * \param rank its rank
 * \param n the node
 * \param start when it started
 * \param end when it finished
 */
void
Record(ReplayRun* run, uint32_t rank, const WorkloadNode& n, Time start, Time end)
{
    run->finished.push_back(Finished{rank, n.name, start, end});
}

/**
 * \brief Run a graph as a job's iterations.
 * \param trace the graph
 * \param iterations iterations
 * \return what happened
 */
ReplayRun
Replay(const WorkloadTrace& trace, uint32_t iterations)
{
    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate("100Gbps"));
    fabric.SetLinkDelay(MicroSeconds(1));
    FabricTopology topo = fabric.BuildLeafSpine(1, 0, trace.ranks);
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    uint16_t port = 50000;
    auto ring = [&](const std::vector<uint32_t>& ranks) {
        std::vector<Ptr<RdmaNic>> members;
        for (uint32_t r : ranks)
        {
            members.push_back(nics[r]);
        }
        Ptr<RingAllreduce> c = CreateObject<RingAllreduce>();
        c->Setup(members, 3, port);
        port += static_cast<uint16_t>(ranks.size());
        return Ptr<Collective>(c);
    };
    Ptr<WorkloadReplay> replay = CreateObject<WorkloadReplay>();
    replay->Setup(
        std::make_shared<WorkloadTrace>(trace),
        [&](CollectiveType, const std::vector<uint32_t>& ranks) { return ring(ranks); },
        [&](uint32_t a, uint32_t b) {
            return ring({a, b});
        });
    ReplayRun out;
    replay->SetNodeCallback(MakeBoundCallback(&Record, &out));
    Ptr<TrainingJob> job =
        CreateObjectWithAttributes<TrainingJob>("Iterations", UintegerValue(iterations));
    job->SetWorkload("replay", replay);
    job->Start();
    Simulator::Run();
    out.ranks = replay->GetRankStats();
    out.iterations = job->GetIterations();
    Simulator::Destroy();
    return out;
}

/**
 * \brief When a node of rank 0 finished in the first iteration.
 * \param run the replay
 * \param name the node
 * \return its record
 */
Finished
Find(const ReplayRun& run, const std::string& name)
{
    for (const auto& f : run.finished)
    {
        if (f.rank == 0 && f.name == name)
        {
            return f;
        }
    }
    NS_ABORT_MSG("no node " << name);
    return {};
}

/**
 * Nodes run once their dependencies have finished (fan-in, fan-out), one
 * compute node at a time per GPU in the order they became ready (a node of
 * no time takes no turn), and a collective once every rank has reached it.
 */
class ReplayOrderTestCase : public TestCase
{
  public:
    ReplayOrderTestCase()
        : TestCase("a workload graph runs in dependency order, one compute node at a time per GPU")
    {
    }

  private:
    void DoRun() override
    {
        GraphBuilder g(4);
        g.Compute("a", 100);             // 0
        g.Compute("b", 200);             // 1
        g.Compute("c", 50, {0, 1});      // 2: fan-in
        g.AllReduce("ar", 1000000, {2}); // 3
        g.Compute("d", 30, {3});         // 4: fan-out
        g.Compute("e", 40, {3});         // 5
        g.Compute("f", 500, {0});        // 6: ready after a, queued behind b
        g.Compute("m", 0, {0});          // 7: no time (a metadata node): not queued
        g.Compute("g", 10, {7});         // 8: after m, so queued behind b and f
        const ReplayRun run = Replay(g.trace, 1);
        const auto us = [](Time t) { return t.GetNanoSeconds() / 1000.0; };
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "a").end), 100, "a first");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "b").start), 100, "b waits for the GPU");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "b").end), 300, "b");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "f").start), 300, "f queued behind b");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "f").end), 800, "f");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "m").end), 100, "a node of no time waits for no kernel");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "g").start), 800, "g ready at 100 µs, behind b and f");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "c").start), 810, "c after a and b, behind f and g");
        NS_TEST_ASSERT_MSG_EQ(us(Find(run, "ar").start), 860, "the collective once c is done");
        const Time arEnd = Find(run, "ar").end;
        NS_TEST_ASSERT_MSG_GT(arEnd, MicroSeconds(860), "the collective takes time");
        NS_TEST_ASSERT_MSG_EQ(Find(run, "d").start, arEnd, "d once the collective is done");
        NS_TEST_ASSERT_MSG_EQ(Find(run, "e").end, arEnd + MicroSeconds(70), "d then e");
        for (const auto& f : run.finished)
        {
            if (f.name == "ar")
            {
                NS_TEST_ASSERT_MSG_EQ(f.end, arEnd, "every rank leaves the collective at once");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(run.iterations.size(), 1, "one iteration");
        NS_TEST_ASSERT_MSG_EQ(run.iterations[0].end, arEnd + MicroSeconds(70), "its end");
        for (const auto& r : run.ranks)
        {
            NS_TEST_ASSERT_MSG_EQ(r.compute, MicroSeconds(930), "compute: the nodes' sum");
            NS_TEST_ASSERT_MSG_EQ(r.comm, arEnd - MicroSeconds(860), "communication");
            NS_TEST_ASSERT_MSG_EQ(r.exposedComm, r.comm, "none of it hidden");
        }
    }
};

/**
 * Communication beside compute is hidden for as long as the GPU computes;
 * two operations of one communicator run one after the other; every
 * iteration replays the whole graph.
 */
class ReplayOverlapTestCase : public TestCase
{
  public:
    ReplayOverlapTestCase()
        : TestCase("exposed communication is what compute does not hide; a group runs in order")
    {
    }

  private:
    void DoRun() override
    {
        GraphBuilder g(2);
        g.AllReduce("ar1", 2000000);    // 0
        g.AllReduce("ar2", 2000000);    // 1: same group, queued behind ar1
        g.Compute("hide", 100);         // 2: beside ar1
        g.Compute("after", 10, {0, 1}); // 3
        const ReplayRun run = Replay(g.trace, 2);
        const Time ar1 = Find(run, "ar1").end;
        const Time ar2 = Find(run, "ar2").end;
        NS_TEST_ASSERT_MSG_GT(ar1, MicroSeconds(100), "the all-reduce outlasts the compute");
        NS_TEST_ASSERT_MSG_EQ_TOL((ar2 - ar1).GetSeconds(),
                                  ar1.GetSeconds(),
                                  0.02 * ar1.GetSeconds(),
                                  "the second operation of the group runs after the first");
        NS_TEST_ASSERT_MSG_EQ(run.iterations.size(), 2, "two iterations");
        const Time first = run.iterations[0].end - run.iterations[0].start;
        NS_TEST_ASSERT_MSG_EQ(first, ar2 + MicroSeconds(10), "the iteration ends with 'after'");
        const Time second = run.iterations[1].end - run.iterations[1].start;
        NS_TEST_ASSERT_MSG_EQ_TOL(second.GetSeconds(),
                                  first.GetSeconds(),
                                  0.01 * first.GetSeconds(),
                                  "the second iteration replays the graph");
        for (const auto& r : run.ranks)
        {
            NS_TEST_ASSERT_MSG_EQ(r.compute, MicroSeconds(220), "compute over two iterations");
            NS_TEST_ASSERT_MSG_EQ(r.exposedComm,
                                  r.comm - MicroSeconds(200),
                                  "100 us of each iteration's communication hidden");
        }
    }
};

/**
 * A collective of a group of one rank moves nothing: it ends as soon as its
 * rank reaches it, with no collective made for it (as AICB's reader leaves
 * such collectives out).
 */
class ReplayOneRankGroupTestCase : public TestCase
{
  public:
    ReplayOneRankGroupTestCase()
        : TestCase("a collective of a one-rank group ends at once")
    {
    }

  private:
    void DoRun() override
    {
        GraphBuilder g(2);
        g.trace.groups.push_back({0});
        g.trace.groups.push_back({1});
        g.AllReduce("solo", 1000000);    // 0: each rank's group of itself
        g.AllReduce("ar", 1000000, {0}); // 1: both ranks
        for (uint32_t r = 0; r < 2; ++r)
        {
            g.trace.nodes[r][0].group = 1 + r;
        }
        const ReplayRun run = Replay(g.trace, 1);
        NS_TEST_ASSERT_MSG_EQ(run.iterations.size(), 1, "the iteration ends");
        NS_TEST_EXPECT_MSG_EQ(Find(run, "solo").end, Time(0), "the one-rank collective at once");
        NS_TEST_EXPECT_MSG_GT(Find(run, "ar").end, MicroSeconds(80), "the two-rank one moves 1 MB");
    }
};

/**
 * \param trace a graph
 * \return what FindDeadlock() says of it (no network: the collectives are
 *         made but never connected)
 */
std::string
Deadlock(const WorkloadTrace& trace)
{
    Ptr<WorkloadReplay> replay = CreateObject<WorkloadReplay>();
    replay->Setup(
        std::make_shared<WorkloadTrace>(trace),
        [](CollectiveType, const std::vector<uint32_t>&) {
            return Ptr<Collective>(CreateObject<RingAllreduce>());
        },
        [](uint32_t, uint32_t) { return Ptr<Collective>(CreateObject<RingAllreduce>()); });
    return replay->FindDeadlock();
}

/**
 * \param name its name
 * \param kind SEND or RECV
 * \param peer the other rank
 * \param deps its dependencies
 * \return a transfer node of 1000 bytes, tag 0
 */
WorkloadNode
Transfer(const std::string& name,
         WorkloadNode::Kind kind,
         uint32_t peer,
         std::vector<uint32_t> deps = {})
{
    WorkloadNode n;
    n.name = name;
    n.kind = kind;
    n.peer = peer;
    n.bytes = 1000;
    n.deps = std::move(deps);
    return n;
}

/**
 * A workload whose ranks wait for each other is found before it runs
 * (WorkloadReplay::FindDeadlock): receives that wait for each other's
 * sends, and two groups whose collectives the ranks reach in opposite
 * orders; the same graphs in a consistent order are not.
 */
class ReplayDeadlockTestCase : public TestCase
{
  public:
    ReplayDeadlockTestCase()
        : TestCase("a workload whose ranks wait for each other is found before it runs")
    {
    }

  private:
    void DoRun() override
    {
        using Kind = WorkloadNode::Kind;
        // rank 0 sends, then receives; rank 1 receives, then sends (or,
        // crossed, both receive first)
        for (const bool crossed : {false, true})
        {
            WorkloadTrace t;
            t.ranks = 2;
            t.nodes.resize(2);
            t.nodes[0] = {
                Transfer(crossed ? "r0" : "s0", crossed ? Kind::RECV : Kind::SEND, 1),
                Transfer(crossed ? "s0" : "r0", crossed ? Kind::SEND : Kind::RECV, 1, {0})};
            t.nodes[1] = {Transfer("r1", Kind::RECV, 0), Transfer("s1", Kind::SEND, 0, {0})};
            for (auto& nodes : t.nodes)
            {
                nodes[1].id = 1;
            }
            const std::string why = Deadlock(t);
            if (!crossed)
            {
                NS_TEST_EXPECT_MSG_EQ(why, "", "a send meets a posted receive");
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(why,
                                  "the workload deadlocks: rank 0's node 0 \"r0\" waits for "
                                  "rank 1 (rank 1's node 1 \"s1\"), which waits at its node 0 "
                                  "\"r1\"",
                                  "both receive first");
        }
        // two groups of both ranks, reached in the same or opposite orders
        for (const bool opposite : {false, true})
        {
            GraphBuilder g(2);
            g.trace.groups.push_back(g.trace.groups[0]);
            g.AllReduce("a", 1000);
            g.AllReduce("b", 1000, {0});
            for (uint32_t r = 0; r < 2; ++r)
            {
                const bool aFirst = !opposite || r == 0;
                g.trace.nodes[r][0].group = aFirst ? 0 : 1;
                g.trace.nodes[r][1].group = aFirst ? 1 : 0;
            }
            const std::string why = Deadlock(g.trace);
            NS_TEST_EXPECT_MSG_EQ(why.empty(), !opposite, "groups in opposite orders: " << why);
        }
        // a group's second collective waits for its first (not a deadlock)
        GraphBuilder g(2);
        g.AllReduce("ar1", 1000);
        g.AllReduce("ar2", 1000);
        g.Compute("after", 10, {0, 1});
        NS_TEST_EXPECT_MSG_EQ(Deadlock(g.trace), "", "a group runs its operations in order");
    }
};

} // namespace

/// Replayed workloads.
class FluxReplayTestSuite : public TestSuite
{
  public:
    FluxReplayTestSuite()
        : TestSuite("flux-replay", TestSuite::Type::UNIT)
    {
        AddTestCase(new ReplayOrderTestCase);
        AddTestCase(new ReplayOverlapTestCase);
        AddTestCase(new ReplayOneRankGroupTestCase);
        AddTestCase(new ReplayDeadlockTestCase);
    }
};

/// The suite's instance.
static FluxReplayTestSuite g_fluxReplayTestSuite;
