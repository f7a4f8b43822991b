/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scheduling policies: the gate holds and releases as the plan says and
 * never without one; flux interleaves two identical jobs on one link;
 * cassini's shifts and crux's classes match hand-computed values; flux's
 * ports have per-flow queues only beside a tenant; one job
 * alone runs alike under every policy; every policy is deterministic.
 */

#include "ns3/collective.h"
#include "ns3/core-module.h"
#include "ns3/flux-controller.h"
#include "ns3/flux-gate.h"
#include "ns3/flux-queue-disc.h"
#include "ns3/job-scheduler.h"
#include "ns3/rdma-nic.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/traffic-class.h"

#include <algorithm>
#include <map>

using namespace ns3;

namespace
{

/**
 * \brief Run a scenario given as JSON text.
 * \param text the scenario
 * \param policy the policy
 * \return the results
 */
RunResults
RunText(const std::string& text, const std::string& policy)
{
    ScenarioConfig cfg = ParseScenario(ParseScenarioText(text, "test"), ".");
    cfg.scheduler.policy = policy;
    RunOptions opts;
    opts.quiet = true;
    return RunScenario(cfg, opts);
}

/**
 * Two 2-rank jobs across a dumbbell's one fabric cable, both directions
 * shared: each sends 12.5 MB per rank per iteration (1 ms at 100 Gb/s) after
 * 1 ms of compute, so perfect interleaving takes 2 ms per iteration and even
 * sharing 3 ms.
 */
const std::string TWO_EQUAL_JOBS = R"({
  "stop_ms": 200,
  "topology": {"kind": "dumbbell", "hosts_per_side": 2},
  "jobs": [
    {"name": "a", "ranks": 2, "hosts": [0, 2], "bytes": 12500000, "compute_ms": 1, "iterations": 8},
    {"name": "b", "ranks": 2, "hosts": [1, 3], "bytes": 12500000, "compute_ms": 1, "iterations": 8}
  ]})";

/**
 * \param job a job's results
 * \param iteration an iteration
 * \return [first phase start, last phase end] of its allreduce, ms
 */
std::pair<double, double>
CommInterval(const RunResults::JobResult& job, uint32_t iteration)
{
    double start = 1e300;
    double end = 0;
    for (const auto& p : job.phases)
    {
        if (p.iteration == iteration)
        {
            start = std::min(start, p.startMs);
            end = std::max(end, p.startMs + p.durationMs);
        }
    }
    return {start, end};
}

/// A collective without a network: it records when each send was posted.
class RecordingCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::test::RecordingCollective").SetParent<Collective>();
        return tid;
    }

    /** \param ranks number of ranks */
    explicit RecordingCollective(uint32_t ranks)
    {
        m_nics.assign(ranks, nullptr);
        BeginRun(ranks, GetNSteps());
    }

    void Setup(const std::vector<Ptr<RdmaNic>>& /* nics */,
               uint8_t /* prio */,
               uint16_t /* srcPorts */) override
    {
    }

    void Start(uint64_t /* bytes */, DoneCallback /* done */) override
    {
    }

    uint32_t GetNSteps() const override
    {
        return 2;
    }

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override
    {
        return bytes;
    }

    std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const override
    {
        return {};
    }

    std::vector<Connection> GetConnections() const override
    {
        return {};
    }

    /**
     * \brief A rank's step is ready (what a ring does on receiving data).
     * \param rank the rank
     * \param step the step
     */
    void Ready(uint32_t rank, uint32_t step)
    {
        Submit(rank, step, 0, 1000, 1000);
    }

    std::vector<std::pair<uint32_t, Time>> posted; //!< (rank, time) of each post

  protected:
    void DoPost(uint32_t rank, uint32_t /* step */, uint32_t /* chunk */) override
    {
        posted.emplace_back(rank, Simulator::Now());
    }
};

} // namespace

/**
 * The gate goes by its plan: without a plan nothing waits; a request of a
 * held run waits until a plan says go (release on completion: no clock); a
 * plan for another run does not hold this one; MaxHold bounds any hold.
 */
class GateFollowsPlanTestCase : public TestCase
{
  public:
    GateFollowsPlanTestCase()
        : TestCase("the gate holds exactly until a plan says go, or MaxHold")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RecordingCollective> c = CreateObject<RecordingCollective>(3);
        Ptr<FluxGate> gate = CreateObject<FluxGate>();
        gate->SetAttribute("MaxHold", TimeValue(MicroSeconds(200)));
        c->SetGate(gate);
        // no plan: at once
        Simulator::Schedule(MicroSeconds(1), &RecordingCollective::Ready, c, 0, 0);
        // run 0 held from 5 us; rank 1 asks at 10 us; go at 50 us
        Simulator::Schedule(MicroSeconds(5), &FluxGate::ReceivePlan, gate, 0, true, false, true);
        Simulator::Schedule(MicroSeconds(10), &RecordingCollective::Ready, c, 1, 0);
        Simulator::Schedule(MicroSeconds(50), &FluxGate::ReceivePlan, gate, 0, false, false, true);
        // held again at 60 us; a hold for run 1 does not hold run 0; go at 80 us
        Simulator::Schedule(MicroSeconds(60), &FluxGate::ReceivePlan, gate, 0, true, false, true);
        Simulator::Schedule(MicroSeconds(70), &RecordingCollective::Ready, c, 2, 0);
        Simulator::Schedule(MicroSeconds(80), &FluxGate::ReceivePlan, gate, 1, true, false, true);
        // held from 90 us and never let go: MaxHold (200 us) releases it at 300 us
        Simulator::Schedule(MicroSeconds(90), &FluxGate::ReceivePlan, gate, 0, true, false, true);
        Simulator::Schedule(MicroSeconds(100), &RecordingCollective::Ready, c, 0, 1);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(c->posted.size(), 4, "every request was released");
        NS_TEST_EXPECT_MSG_EQ(c->posted[0].second, MicroSeconds(1), "no plan: at once");
        NS_TEST_EXPECT_MSG_EQ(c->posted[1].second, MicroSeconds(50), "held until go");
        NS_TEST_EXPECT_MSG_EQ(c->posted[2].second, MicroSeconds(80), "a plan for another run");
        NS_TEST_EXPECT_MSG_EQ(c->posted[3].second, MicroSeconds(300), "MaxHold bounds a hold");
        NS_TEST_EXPECT_MSG_EQ(gate->GetHeld(), 3, "three requests held");
        NS_TEST_EXPECT_MSG_EQ(c->GetGateWait(),
                              NanoSeconds((0 + 40000 + 10000 + 200000) / 3),
                              "gate wait: release - ready, summed over steps, mean over ranks");
    }
};

/**
 * A replayed job's other collectives go per whole collective: the start of
 * one (its step 0) waits while the job's gate holds requests of the
 * planned collective and goes when that gate releases them; its later
 * steps, and starts while nothing is held, go at once.
 */
class FollowerGateTestCase : public TestCase
{
  public:
    FollowerGateTestCase()
        : TestCase("a job's other collectives start only when its gate holds nothing")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RecordingCollective> planned = CreateObject<RecordingCollective>(2);
        Ptr<RecordingCollective> other = CreateObject<RecordingCollective>(2);
        Ptr<FluxGate> gate = CreateObject<FluxGate>();
        Ptr<FluxFollowerGate> follower = CreateObject<FluxFollowerGate>();
        follower->Setup(PeekPointer(gate));
        gate->AddFollower(follower);
        planned->SetGate(gate);
        other->SetGate(follower);
        // nothing held: the other collective starts at once
        Simulator::Schedule(MicroSeconds(1), &RecordingCollective::Ready, other, 0, 0);
        // run 0 held from 5 us, its rank 0 asks at 10 us: held; the other
        // collective's start at 20 us waits, its step 1 at 30 us does not
        Simulator::Schedule(MicroSeconds(5), &FluxGate::ReceivePlan, gate, 0, true, false, true);
        Simulator::Schedule(MicroSeconds(10), &RecordingCollective::Ready, planned, 0, 0);
        Simulator::Schedule(MicroSeconds(20), &RecordingCollective::Ready, other, 1, 0);
        Simulator::Schedule(MicroSeconds(30), &RecordingCollective::Ready, other, 0, 1);
        // go at 50 us: both the held request and the waiting start
        Simulator::Schedule(MicroSeconds(50), &FluxGate::ReceivePlan, gate, 0, false, false, true);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(other->posted.size(), 3, "every request of the other went");
        NS_TEST_EXPECT_MSG_EQ(other->posted[0].second, MicroSeconds(1), "nothing held: at once");
        NS_TEST_EXPECT_MSG_EQ(other->posted[1].second, MicroSeconds(30), "a later step: at once");
        NS_TEST_EXPECT_MSG_EQ(other->posted[2].second, MicroSeconds(50), "a start: with the go");
        NS_TEST_ASSERT_MSG_EQ(planned->posted.size(), 1, "the planned request went");
        NS_TEST_EXPECT_MSG_EQ(planned->posted[0].second, MicroSeconds(50), "held until go");
        NS_TEST_EXPECT_MSG_EQ(follower->GetHeld(), 1, "one start held");
        planned->Dispose();
        other->Dispose();
    }
};

/**
 * Two identical jobs on one link under flux: after the first iteration their
 * allreduces take turns (less than 10 % of communication time overlaps) and
 * the mean JCT beats fifo's by at least 1.3x (the bound is 1.5x).
 */
class FluxInterleavesTestCase : public TestCase
{
  public:
    FluxInterleavesTestCase()
        : TestCase("flux: two identical jobs on one link interleave their allreduces")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults flux = RunText(TWO_EQUAL_JOBS, "flux");
        const RunResults fifo = RunText(TWO_EQUAL_JOBS, "fifo");
        NS_TEST_ASSERT_MSG_EQ(flux.jobs.size(), 2, "two jobs");
        double overlap = 0;
        double comm = 0;
        for (uint32_t it = 1; it < 8; ++it)
        {
            const auto a = CommInterval(flux.jobs[0], it);
            const auto b = CommInterval(flux.jobs[1], it);
            comm += (a.second - a.first) + (b.second - b.first);
            for (uint32_t k = it - 1; k <= it + 1 && k < 8; ++k)
            {
                const auto o = CommInterval(flux.jobs[1], k);
                overlap += std::max(0.0, std::min(a.second, o.second) - std::max(a.first, o.first));
            }
        }
        NS_TEST_EXPECT_MSG_LT(overlap, 0.1 * comm / 2, "allreduces overlap little");
        const double meanFlux = (flux.jobs[0].jctMs + flux.jobs[1].jctMs) / 2;
        const double meanFifo = (fifo.jobs[0].jctMs + fifo.jobs[1].jctMs) / 2;
        NS_TEST_EXPECT_MSG_GT(meanFifo / meanFlux, 1.3, "mean JCT: flux beats fifo by 1.3x");
        NS_TEST_EXPECT_MSG_LT(meanFifo / meanFlux, 1.55, "and not beyond the 1.5x bound");
        NS_TEST_EXPECT_MSG_GT(flux.scheduler.held, 0, "the gate held steps");
        NS_TEST_EXPECT_MSG_EQ(flux.network.drops, 0, "no drops");
    }
};

/**
 * cassini on the two identical jobs (period 2 ms: 1 ms compute and 1 ms of
 * communication alone, 12.5 MB at 100 Gb/s): the first job is not shifted,
 * the second by half a period, 32 points of the 64-point grid, so its first
 * iteration waits exactly 1 ms; later iterations run late against the grid
 * (the wire's headers make them 2.06 ms) and so never wait.
 */
class CassiniShiftTestCase : public TestCase
{
  public:
    CassiniShiftTestCase()
        : TestCase("cassini: the second of two identical jobs is shifted by half a period")
    {
    }

  private:
    void DoRun() override
    {
        const RunResults r = RunText(TWO_EQUAL_JOBS, "cassini");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[0].gateWaitMs, 0, "job a: no shift");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.jobs[1].gateWaitMs, 1.0, 1e-9, "job b: 1 ms, once");
        NS_TEST_EXPECT_MSG_EQ(r.scheduler.held, 1, "only b's first iteration waits");
        NS_TEST_EXPECT_MSG_EQ(r.scheduler.decisions, 16, "one decision per iteration start");
    }
};

/**
 * crux on three jobs: a (intensity 8: 2 ranks x 4 ms over 1 ms) and b
 * (intensity 2) share the fabric cable, c (intensity 4) stays under one
 * switch. Layering: a level 0, c level 0 (it contends with nobody), b level
 * 1: classes 6, 6, 5 of the default three (6, 5, 4).
 */
class CruxClassesTestCase : public TestCase
{
  public:
    CruxClassesTestCase()
        : TestCase("crux: classes by GPU intensity, layered on the contending jobs")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = R"({
          "stop_ms": 200,
          "topology": {"kind": "dumbbell", "hosts_per_side": 4},
          "jobs": [
            {"name": "a", "ranks": 2, "hosts": [0, 4], "bytes": 12500000, "compute_ms": 4, "iterations": 2},
            {"name": "b", "ranks": 2, "hosts": [1, 5], "bytes": 12500000, "compute_ms": 1, "iterations": 2},
            {"name": "c", "ranks": 2, "hosts": [2, 3], "bytes": 12500000, "compute_ms": 2, "iterations": 2}
          ]})";
        const RunResults r = RunText(text, "crux");
        NS_TEST_ASSERT_MSG_EQ(r.jobs.size(), 3, "three jobs");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[0].trafficClass, 6, "a: top class");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[1].trafficClass, 5, "b: below a, which it shares a link with");
        NS_TEST_EXPECT_MSG_EQ(r.jobs[2].trafficClass, 6, "c: top class, it shares no link");
        NS_TEST_EXPECT_MSG_EQ(r.scheduler.held, 0, "crux holds nothing");
    }
};

/**
 * flux's switch ports: one flow queue per class when no other tenant has a
 * data class (per-flow round robin would only lengthen the jobs' queues),
 * FluxQueueDisc's own number beside a background tenant or when its default
 * was changed, and the number FlowsPerClass gives whenever it gives one.
 */
class FluxFlowQueuesTestCase : public TestCase
{
  public:
    FluxFlowQueuesTestCase()
        : TestCase("flux: one flow queue per class without a tenant, per-flow queues beside one")
    {
    }

  private:
    /**
     * \param reserved the classes of other traffic
     * \param flowsPerClass the controller's FlowsPerClass
     * \return FlowsPerClass of the queue disc the controller asks for (0:
     *         it asks for none, or cannot assign its classes)
     */
    static uint32_t PortFlows(uint8_t reserved, uint32_t flowsPerClass)
    {
        Ptr<JobScheduler> flux = CreateObject<FluxController>();
        flux->SetAttribute("FlowsPerClass", UintegerValue(flowsPerClass));
        ObjectFactory factory;
        if (!flux->AssignClasses(reserved).empty() || !flux->GetQueueDiscFactory(factory))
        {
            return 0;
        }
        UintegerValue flows;
        factory.Create<QueueDisc>()->GetAttribute("FlowsPerClass", flows);
        return static_cast<uint32_t>(flows.Get());
    }

    void DoRun() override
    {
        UintegerValue standard;
        CreateObject<FluxQueueDisc>()->GetAttribute("FlowsPerClass", standard);
        NS_TEST_ASSERT_MSG_GT(standard.Get(), 1, "FluxQueueDisc's own default is per-flow");
        const uint8_t tenant = TrafficClass::Bit(3);
        NS_TEST_EXPECT_MSG_EQ(PortFlows(0, 0), 1, "no tenant: one flow queue per class");
        NS_TEST_EXPECT_MSG_EQ(PortFlows(tenant, 0),
                              standard.Get(),
                              "a tenant in class 3: the queue disc's per-flow queues");
        NS_TEST_EXPECT_MSG_EQ(PortFlows(TrafficClass::Bit(5), 0),
                              standard.Get(),
                              "a tenant in class 5: per-flow queues too");
        NS_TEST_EXPECT_MSG_EQ(PortFlows(0, 8), 8, "a number given is the number used");
        NS_TEST_EXPECT_MSG_EQ(PortFlows(tenant, 2), 2, "also beside a tenant");
        // a default set for the queue disc (ns3_defaults) is kept
        Config::SetDefault("ns3::FluxQueueDisc::FlowsPerClass", UintegerValue(4));
        const uint32_t chosen = PortFlows(0, 0);
        Config::SetDefault("ns3::FluxQueueDisc::FlowsPerClass", standard);
        NS_TEST_EXPECT_MSG_EQ(chosen, 4, "no tenant, the queue disc's default changed: kept");
        NS_TEST_EXPECT_MSG_EQ(PortFlows(0, 0), 1, "the default back as it was: one again");
    }
};

/**
 * One job alone: every policy gives fifo's JCT within 2 %, and no gate holds
 * anything (the plans are work-conserving).
 */
class AloneTestCase : public TestCase
{
  public:
    AloneTestCase()
        : TestCase("one job alone: same JCT under every policy (2 %), nothing held")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = R"({
          "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4},
          "jobs": [{"name": "j", "ranks": 8, "bytes": 8000000, "compute_ms": 1, "buckets": 2,
                    "iterations": 3}]})";
        const double fifo = RunText(text, "fifo").jobs[0].jctMs;
        for (const auto& policy : ScenarioConfig::AvailablePolicies())
        {
            const RunResults r = RunText(text, policy);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.jobs[0].jctMs, fifo, 0.02 * fifo, policy << ": JCT");
            NS_TEST_EXPECT_MSG_EQ(r.scheduler.held, 0, policy << ": nothing held");
        }
    }
};

/// Every policy gives the same results twice under one seed.
class SchedulerDeterminismTestCase : public TestCase
{
  public:
    SchedulerDeterminismTestCase()
        : TestCase("every policy is deterministic under a seed")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& policy : ScenarioConfig::AvailablePolicies())
        {
            const RunResults a = RunText(TWO_EQUAL_JOBS, policy);
            const RunResults b = RunText(TWO_EQUAL_JOBS, policy);
            for (std::size_t j = 0; j < a.jobs.size(); ++j)
            {
                NS_TEST_EXPECT_MSG_EQ(a.jobs[j].jctMs, b.jobs[j].jctMs, policy << ": JCT");
                NS_TEST_EXPECT_MSG_EQ(a.jobs[j].gateWaitMs, b.jobs[j].gateWaitMs, policy);
            }
            NS_TEST_EXPECT_MSG_EQ(a.sim.events, b.sim.events, policy << ": events");
            NS_TEST_EXPECT_MSG_EQ(a.scheduler.messages, b.scheduler.messages, policy);
        }
    }
};

/**
 * \ingroup flux
 * \brief The scheduling policies.
 */
class FluxSchedulerTestSuite : public TestSuite
{
  public:
    FluxSchedulerTestSuite()
        : TestSuite("flux-scheduler", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new GateFollowsPlanTestCase);
        AddTestCase(new FollowerGateTestCase);
        AddTestCase(new FluxInterleavesTestCase);
        AddTestCase(new CassiniShiftTestCase);
        AddTestCase(new CruxClassesTestCase);
        AddTestCase(new FluxFlowQueuesTestCase);
        AddTestCase(new AloneTestCase);
        AddTestCase(new SchedulerDeterminismTestCase);
    }
};

static FluxSchedulerTestSuite g_fluxSchedulerTestSuite; //!< the suite
