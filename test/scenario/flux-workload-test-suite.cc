/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Training jobs, collectives and background tenants: their times against
 * the alpha-beta model, overlap, contention, offered load, the results
 * file's consistency and determinism.
 */

#include "../alpha-beta.h"

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/network-module.h"
#include "ns3/poisson-traffic.h"
#include "ns3/rdma-helper.h"
#include "ns3/results-writer.h"
#include "ns3/ring-allreduce.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/training-job-helper.h"
#include "ns3/training-job.h"

#include <numeric>

using namespace ns3;

namespace
{

/**
 * \brief Run a scenario given as JSON text.
 * \param text the scenario
 * \return the results
 */
RunResults
RunText(const std::string& text)
{
    ScenarioConfig cfg = ParseScenario(ParseScenarioText(text, "test"), ".");
    RunOptions opts;
    opts.quiet = true;
    return RunScenario(cfg, opts);
}

/**
 * \brief A single job on a single 100G switch.
 * \param ranks ranks
 * \param bytes gradient bytes
 * \param computeMs compute per iteration
 * \param buckets gradient buckets
 * \return the scenario text
 */
std::string
SingleJob(uint32_t ranks, uint64_t bytes, double computeMs, uint32_t buckets = 1)
{
    return R"({"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 16},
               "jobs": [{"name": "j", "ranks": )" +
           std::to_string(ranks) + R"(, "bytes": )" + std::to_string(bytes) +
           R"(, "compute_ms": )" + std::to_string(computeMs) + R"(, "buckets": )" +
           std::to_string(buckets) + R"(, "iterations": 2}]})";
}

/**
 * \brief Alpha-beta estimate of a ring allreduce on one 100G switch.
 * \param n ranks
 * \param bytes buffer bytes
 * \return milliseconds
 */
double
AlphaBetaMs(uint32_t n, double bytes)
{
    // alpha: per step, the first packet is stored and forwarded once at the
    // switch over two 1 us links; beta: line rate times goodput share.
    return 1e3 *
           (2.0 * (n - 1) * fluxtest::AlphaS() + 2.0 * (n - 1) / n * bytes * fluxtest::BetaS());
}

/**
 * One job alone on an idle fabric: the allreduce takes the alpha-beta time
 * 2(N-1) alpha + 2(N-1)/N S / B_eff within 10 %, and with no overlap the
 * iteration lasts compute + allreduce.
 */
class AlphaBetaTestCase : public TestCase
{
  public:
    /**
     * \param n ranks
     * \param bytes gradient bytes
     */
    AlphaBetaTestCase(uint32_t n, uint64_t bytes)
        : TestCase("ring allreduce of " + std::to_string(bytes) + " B on " + std::to_string(n) +
                   " ranks within 10 % of the alpha-beta estimate"),
          m_n(n),
          m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        const double computeMs = 0.5;
        RunResults r = RunText(SingleJob(m_n, m_bytes, computeMs));
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 1, "one job");
        const auto& job = r.jobs[0];
        NS_TEST_ASSERT_MSG_EQ(job.completed, true, "the job finished");
        NS_TEST_ASSERT_MSG_EQ(job.phases.size(), 2 * 2 * (m_n - 1), "2(N-1) phases per iteration");
        const double expected = AlphaBetaMs(m_n, m_bytes);
        for (uint32_t it = 0; it < 2; ++it)
        {
            double allreduce = 0;
            for (const auto& p : job.phases)
            {
                allreduce += p.iteration == it ? p.durationMs : 0;
            }
            NS_TEST_ASSERT_MSG_EQ_TOL(allreduce, expected, 0.1 * expected, "alpha-beta time");
            NS_TEST_ASSERT_MSG_EQ_TOL(job.iterationMs[it],
                                      computeMs + allreduce,
                                      0.001 * job.iterationMs[it],
                                      "iteration = compute + allreduce without overlap");
        }
    }

    uint32_t m_n;     //!< ranks
    uint64_t m_bytes; //!< gradient bytes
};

/**
 * TrainingJobHelper builds what it was told: the collective with its
 * attributes, the job with its attributes, and the job runs every iteration
 * as compute plus an allreduce within 10 % of the alpha-beta time.
 */
class TrainingJobHelperTestCase : public TestCase
{
  public:
    TrainingJobHelperTestCase()
        : TestCase("TrainingJobHelper builds a job with the attributes given, which runs")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper fabric;
        fabric.SetHostRate(DataRate("100Gbps"));
        fabric.SetLinkDelay(MicroSeconds(1));
        FabricTopology topo = fabric.BuildLeafSpine(1, 0, 4);
        RdmaHelper rdma;
        rdma.SetNicAttribute("Mtu", UintegerValue(static_cast<uint32_t>(fluxtest::MTU)));
        std::vector<Ptr<RdmaNic>> nics;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            nics.push_back(
                rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
        }
        const uint64_t bytes = 1000000;
        const double computeMs = 0.1;
        TrainingJobHelper helper;
        helper.SetCollectiveAttribute("PipelineBytes", UintegerValue(65536));
        helper.SetJobAttribute("Iterations", UintegerValue(3));
        helper.SetJobAttribute("GradientBytes", UintegerValue(bytes));
        helper.SetJobAttribute("ComputeTime", TimeValue(MicroSeconds(100)));
        Ptr<TrainingJob> job = helper.Install("j", nics, 3, 50000);

        Ptr<RingAllreduce> ring = DynamicCast<RingAllreduce>(job->GetCollective());
        NS_TEST_ASSERT_MSG_NE(ring, nullptr, "the default collective is a ring allreduce");
        UintegerValue pipeline;
        ring->GetAttribute("PipelineBytes", pipeline);
        NS_TEST_ASSERT_MSG_EQ(pipeline.Get(), 65536, "collective attribute applied");
        NS_TEST_ASSERT_MSG_EQ(job->GetNIterations(), 3, "job attribute applied");

        job->Start();
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsFinished(), true, "the job finished");
        const auto& its = job->GetIterations();
        NS_TEST_ASSERT_MSG_EQ(its.size(), 3, "three iterations");
        const double expected = computeMs + AlphaBetaMs(4, bytes);
        for (const auto& it : its)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL((it.end - it.start).GetSeconds() * 1e3,
                                      expected,
                                      0.1 * expected,
                                      "compute + alpha-beta allreduce");
        }
        Simulator::Destroy();
    }
};

/**
 * Gradient bucketing overlaps allreduce with compute: the iteration gets
 * shorter than without overlap, and never shorter than max(compute,
 * allreduce).
 */
class BucketOverlapTestCase : public TestCase
{
  public:
    BucketOverlapTestCase()
        : TestCase("bucketing shortens the iteration, never below max(compute, allreduce)")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8000000;
        const double computeMs = 1.0;
        RunResults serial = RunText(SingleJob(8, bytes, computeMs, 1));
        RunResults overlap = RunText(SingleJob(8, bytes, computeMs, 4));
        const double iterSerial = serial.jobs[0].iterationMs[1];
        const double iterOverlap = overlap.jobs[0].iterationMs[1];
        const double allreduce = iterSerial - computeMs;
        NS_TEST_ASSERT_MSG_LT(iterOverlap, 0.9 * iterSerial, "overlap shortens the iteration");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(iterOverlap,
                                    std::max(computeMs, allreduce),
                                    "no shorter than max(compute, allreduce)");
        NS_TEST_ASSERT_MSG_EQ(overlap.jobs[0].phases.size(),
                              2 * 4 * 2 * 7,
                              "2(N-1) phases per bucket per iteration");
    }
};

/// Bytes a training job's NICs receive when it runs alone or with others.
struct ContentionRun
{
    std::vector<Time> jct; //!< JCT per job
    uint64_t received;     //!< payload bytes received by all NICs
    uint64_t expected;     //!< payload bytes the jobs send
};

/**
 * \brief Run jobs of 2 ranks across a 2-leaf, 1-spine fabric: each job's ring
 * crosses the single spine.
 * \param jobs number of jobs (1 or 2)
 * \return the outcome
 */
ContentionRun
RunCrossing(uint32_t jobs)
{
    RngSeedManager::SetSeed(1);
    FabricTopologyHelper topoHelper;
    FabricTopology topo = topoHelper.BuildLeafSpine(2, 1, 2);
    topo.AssignStreams(1);
    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    const uint64_t bytes = 4000000;
    const uint32_t iterations = 3;
    std::vector<Ptr<TrainingJob>> running;
    ContentionRun out{{}, 0, 0};
    for (uint32_t j = 0; j < jobs; ++j)
    {
        Ptr<RingAllreduce> ring = CreateObject<RingAllreduce>();
        ring->Setup({nics[j], nics[2 + j]}, 3, static_cast<uint16_t>(50000 + 10 * j));
        Ptr<TrainingJob> job = CreateObjectWithAttributes<TrainingJob>("Iterations",
                                                                       UintegerValue(iterations),
                                                                       "GradientBytes",
                                                                       UintegerValue(bytes));
        job->Setup("job" + std::to_string(j), ring);
        job->Start();
        running.push_back(job);
        out.expected += iterations * 2 * ring->GetBytesSentPerRank(bytes);
    }
    Simulator::Run();
    for (const auto& job : running)
    {
        out.jct.push_back(job->GetJct());
    }
    for (const auto& nic : nics)
    {
        out.received += nic->GetBytesReceived();
    }
    Simulator::Destroy();
    return out;
}

/**
 * Two jobs whose rings cross the same fabric link both slow down against
 * running alone, and every byte each rank sends is received.
 */
class ContentionTestCase : public TestCase
{
  public:
    ContentionTestCase()
        : TestCase("two jobs crossing one bottleneck both slow down; bytes are conserved")
    {
    }

  private:
    void DoRun() override
    {
        ContentionRun alone = RunCrossing(1);
        ContentionRun both = RunCrossing(2);
        NS_TEST_ASSERT_MSG_EQ(alone.received,
                              alone.expected,
                              "bytes received = bytes sent (alone)");
        NS_TEST_ASSERT_MSG_EQ(both.received, both.expected, "bytes received = bytes sent (both)");
        for (uint32_t j = 0; j < 2; ++j)
        {
            NS_TEST_ASSERT_MSG_GT(both.jct[j].GetSeconds(),
                                  1.5 * alone.jct[0].GetSeconds(),
                                  "job " << j << " slows down when sharing the spine link");
        }
    }
};

/**
 * A Poisson tenant at load L over 8 hosts of one switch loads the host
 * links at L within a few percent.
 */
class BackgroundLoadTestCase : public TestCase
{
  public:
    BackgroundLoadTestCase()
        : TestCase("background flows at load L load the host links at L within 5 %")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        FabricTopologyHelper topoHelper;
        FabricTopology topo = topoHelper.BuildLeafSpine(1, 0, 8);
        topo.AssignStreams(1);
        RdmaHelper rdma;
        std::vector<Ptr<RdmaNic>> nics;
        std::vector<uint32_t> hosts;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            nics.push_back(
                rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
            hosts.push_back(h);
        }
        const double load = 0.4;
        Ptr<PoissonTraffic> bg = CreateObject<PoissonTraffic>();
        bg->Configure(hosts, FlowSizeCdf::Builtin("hadoop"), load, 100e9);
        bg->Setup("bg", nics);
        bg->AssignStreams(10);
        bg->Start();
        // Offered bytes over [0, T) against delivered bytes by T + drain.
        const Time T = MilliSeconds(50);
        bg->SetAttribute("StopTime", TimeValue(T));
        Simulator::Stop(T + MilliSeconds(20));
        Simulator::Run();
        uint64_t delivered = 0;
        for (const auto& nic : nics)
        {
            delivered += nic->GetBytesReceived();
        }
        const double capacity = hosts.size() * 100e9 / 8 * T.GetSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(bg->GetBytesStarted() / capacity,
                                  load,
                                  0.05 * load,
                                  "offered load matches L");
        NS_TEST_ASSERT_MSG_EQ(bg->GetFlowsFinished(), bg->GetFlowsStarted(), "all flows finish");
        NS_TEST_ASSERT_MSG_EQ_TOL(delivered / capacity,
                                  load,
                                  0.05 * load,
                                  "carried load matches L");
        Simulator::Destroy();
    }
};

/// A multi-tenant scenario: two jobs and an RPC tenant on a leaf-spine.
const char* MULTI_TENANT = R"({
  "seed": 3,
  "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4},
  "jobs": [
    {"name": "a", "ranks": 4, "placement": "spread", "bytes": 2000000, "compute_ms": 0.2, "iterations": 3},
    {"name": "b", "ranks": 2, "hosts": [1, 5], "bytes": 1000000, "compute_ms": 0.1, "iterations": 4}
  ],
  "background": [{"name": "rpc", "cdf": "websearch", "load": 0.2, "hosts": [3, 7]}]
})";

/**
 * The results of a multi-tenant run have every field of the contract and
 * agree with each other: JCT equals the sum of back-to-back iterations,
 * phases per iteration, flows finished.
 */
class ResultsConsistencyTestCase : public TestCase
{
  public:
    ResultsConsistencyTestCase()
        : TestCase("results have every contract field and are consistent")
    {
    }

  private:
    void DoRun() override
    {
        RunResults r = RunText(MULTI_TENANT);
        const auto j = ResultsWriter::ToJson(r);
        for (const char* key : {"policy", "seed", "jobs", "flows", "network", "sim"})
        {
            NS_TEST_ASSERT_MSG_EQ(j.contains(key), true, "results have " << key);
        }
        for (const char* key : {"drops", "pfc_pauses", "ecn_marks", "cnps", "retransmissions"})
        {
            NS_TEST_ASSERT_MSG_EQ(j["network"].contains(key), true, "network has " << key);
        }
        for (const char* key : {"simulated_ms", "wall_s", "events"})
        {
            NS_TEST_ASSERT_MSG_EQ(j["sim"].contains(key), true, "sim has " << key);
        }
        NS_TEST_ASSERT_MSG_EQ(j["flows"]["fct_slowdown"].contains("p999"), true, "slowdown tail");
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 2, "two jobs");
        const uint32_t ranks[] = {4, 2};
        for (std::size_t i = 0; i < r.jobs.size(); ++i)
        {
            const auto& job = r.jobs[i];
            const auto& jj = j["jobs"][i];
            NS_TEST_ASSERT_MSG_EQ(job.completed, true, "job completed");
            NS_TEST_ASSERT_MSG_EQ(jj.contains("jct_ms") && jj.contains("iteration_ms") &&
                                      jj.contains("phase_ms"),
                                  true,
                                  "job fields");
            const double sum = std::accumulate(job.iterationMs.begin(), job.iterationMs.end(), 0.0);
            NS_TEST_ASSERT_MSG_GT_OR_EQ(job.jctMs + 1e-6, sum, "JCT >= sum of iterations");
            NS_TEST_ASSERT_MSG_EQ_TOL(job.jctMs, sum, 1e-6 * sum + 1e-6, "iterations back to back");
            NS_TEST_ASSERT_MSG_EQ(job.phases.size(),
                                  job.iterationMs.size() * 2 * (ranks[i] - 1),
                                  "2(N-1) phases per iteration");
            NS_TEST_ASSERT_MSG_EQ(jj["phase_ms"]["count"].get<uint64_t>(),
                                  job.phases.size(),
                                  "phase count");
        }
        NS_TEST_ASSERT_MSG_GT(r.flows.size(), 0, "background flows ran");
        for (const auto& f : r.flows)
        {
            NS_TEST_ASSERT_MSG_GT_OR_EQ(f.fctUs,
                                        f.idealFctUs * 0.999,
                                        "no flow beats its ideal FCT");
        }
        NS_TEST_ASSERT_MSG_EQ(r.network.drops, 0, "lossless fabric");
        NS_TEST_ASSERT_MSG_EQ(r.sim.stopReason, "completed", "stopped when all work was done");
    }
};

/**
 * The same scenario and seed give byte-identical results apart from the
 * wall-clock time, even run twice in one process.
 */
class WorkloadDeterminismTestCase : public TestCase
{
  public:
    WorkloadDeterminismTestCase()
        : TestCase("same scenario and seed give identical results (but wall_s)")
    {
    }

  private:
    void DoRun() override
    {
        auto text = [](RunResults r) {
            r.sim.wallS = 0;
            return ResultsWriter::ToJsonText(r);
        };
        const std::string a = text(RunText(MULTI_TENANT));
        const std::string b = text(RunText(MULTI_TENANT));
        NS_TEST_ASSERT_MSG_EQ(a, b, "identical results");
        std::string other = MULTI_TENANT;
        other.replace(other.find("\"seed\": 3"), 9, "\"seed\": 4");
        NS_TEST_ASSERT_MSG_NE(a, text(RunText(other)), "another seed gives other results");
    }
};

} // namespace

/**
 * \ingroup flux
 * \brief Validation of jobs, collectives, tenants and the runner.
 */
class FluxWorkloadTestSuite : public TestSuite
{
  public:
    FluxWorkloadTestSuite()
        : TestSuite("flux-workload", TestSuite::Type::SYSTEM)
    {
        for (uint32_t n : {2, 4, 8, 16})
        {
            for (uint64_t bytes : {1000000, 8000000})
            {
                AddTestCase(new AlphaBetaTestCase(n, bytes));
            }
        }
        AddTestCase(new TrainingJobHelperTestCase);
        AddTestCase(new BucketOverlapTestCase);
        AddTestCase(new ContentionTestCase);
        AddTestCase(new BackgroundLoadTestCase);
        AddTestCase(new ResultsConsistencyTestCase);
        AddTestCase(new WorkloadDeterminismTestCase);
    }
};

static FluxWorkloadTestSuite g_fluxWorkloadTestSuite; //!< the suite
