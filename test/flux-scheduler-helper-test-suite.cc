/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A scheduling policy set up by JobSchedulerHelper in a program of one's
// own, without the scenario runner.

#include "rdma-fabric.h"

#include "ns3/collective.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/job-scheduler-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-job-helper.h"
#include "ns3/uinteger.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// What one run gives.
struct PolicyRun
{
    std::vector<double> jctMs;    //!< per job
    std::vector<uint32_t> jobIds; //!< per job: its collective's job id
    uint64_t retransmissions{0};  //!< packets sent again, all NICs
    uint64_t classChanges{0};     //!< the policy's class changes
    std::vector<uint8_t> classes; //!< the policy's classes
};

/**
 * \brief Two equal 2-rank jobs across a 100 Gb/s dumbbell (hosts 0, 2 and
 * 1, 3: every ring hop crosses the middle link), compute as long as the
 * communication alone, under a policy set up by JobSchedulerHelper.
 * \param policy the policy's name
 * \return the run's figures
 */
PolicyRun
RunTwoJobs(const std::string& policy)
{
    JobSchedulerHelper schedulers;
    schedulers.SetPolicy(policy);
    Ptr<JobScheduler> scheduler = schedulers.Create();
    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate("100Gbps"));
    fabric.SetFabricRate(DataRate("100Gbps"));
    fabric.SetLinkDelay(MicroSeconds(1));
    fabric.SetLosslessPriorities(JobSchedulerHelper::GetLosslessClasses(scheduler, 0, 3));
    fluxtest::RdmaFabric f(fabric.BuildDumbbell(2), RdmaHelper());
    schedulers.SetFabric(scheduler, f.topo);
    TrainingJobHelper jobs;
    jobs.SetJobAttribute("Iterations", UintegerValue(5));
    // a rank sends 2.5 MB per allreduce: 0.2 ms at 100 Gb/s
    jobs.SetJobAttribute("GradientBytes", UintegerValue(2500000));
    jobs.SetJobAttribute("ComputeTime", TimeValue(MicroSeconds(200)));
    std::vector<Ptr<TrainingJob>> started;
    for (uint32_t j = 0; j < 2; ++j)
    {
        Ptr<TrainingJob> job = jobs.Install("job" + std::to_string(j),
                                            {f.nics[j], f.nics[2 + j]},
                                            3,
                                            static_cast<uint16_t>(50000 + 10 * j));
        schedulers.AddJob(scheduler, f.topo, job, 3);
        started.push_back(job);
    }
    scheduler->Start();
    for (const auto& job : started)
    {
        job->Start();
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    PolicyRun run;
    for (const auto& job : started)
    {
        run.jctMs.push_back(job->GetJct().GetSeconds() * 1e3);
        run.jobIds.push_back(job->GetCollective()->GetJobId());
    }
    run.retransmissions = f.Retransmissions();
    run.classChanges = scheduler->GetCounters().classChanges;
    run.classes = scheduler->GetJobClasses();
    for (const auto& job : started)
    {
        job->Dispose();
    }
    scheduler->Dispose();
    Simulator::Destroy();
    return run;
}

/**
 * A policy set up by the helper acts as flux-run's does: two equal jobs
 * whose compute equals their communication alone interleave under flux
 * (mean JCT at most 0.85 of fifo's, where fair sharing stretches every
 * communication phase twofold), every job ends, the policy's classes are
 * lossless (no packet sent again), fifo keeps the jobs' class and flux
 * changes classes, and the jobs carry the ids 0 and 1 in install order;
 * fifo run again after flux gives the same JCTs as before it.
 */
class SchedulerHelperTestCase : public TestCase
{
  public:
    SchedulerHelperTestCase()
        : TestCase("a policy set up by JobSchedulerHelper schedules two jobs as flux-run's does")
    {
    }

  private:
    void DoRun() override
    {
        const PolicyRun fifo = RunTwoJobs("fifo");
        const PolicyRun flux = RunTwoJobs("flux");
        for (const PolicyRun* run : {&fifo, &flux})
        {
            for (double jct : run->jctMs)
            {
                NS_TEST_ASSERT_MSG_GT(jct, 0, "every job ends within the run");
            }
            NS_TEST_ASSERT_MSG_EQ(run->retransmissions, 0, "the jobs' classes are lossless");
            NS_TEST_ASSERT_MSG_EQ(run->jobIds[0], 0, "the first job installed has id 0");
            NS_TEST_ASSERT_MSG_EQ(run->jobIds[1], 1, "the second job installed has id 1");
        }
        NS_TEST_ASSERT_MSG_EQ(fifo.classes.size(), 0, "fifo gives no classes of its own");
        NS_TEST_ASSERT_MSG_EQ(fifo.classChanges, 0, "fifo changes no class");
        NS_TEST_ASSERT_MSG_GT(flux.classes.size(), 0, "flux has classes of its own");
        NS_TEST_ASSERT_MSG_GT(flux.classChanges, 0, "flux orders the jobs by class");
        const double fifoMean = (fifo.jctMs[0] + fifo.jctMs[1]) / 2;
        const double fluxMean = (flux.jctMs[0] + flux.jctMs[1]) / 2;
        NS_TEST_ASSERT_MSG_LT(fluxMean,
                              0.85 * fifoMean,
                              "flux interleaves the two jobs (" << fluxMean << " ms against fifo's "
                                                                << fifoMean << " ms)");
        // fifo after flux in the same process runs as fifo alone: Create
        // took back the queue disc and arbiter defaults flux's Create set
        const PolicyRun fifoAgain = RunTwoJobs("fifo");
        for (const auto& [owner, attribute] :
             {std::make_pair(TypeId::LookupByName("ns3::FabricSwitch"), "QueueDiscFactory"),
              std::make_pair(TypeId::LookupByName("ns3::RdmaNic"), "QpArbiter")})
        {
            TypeId::AttributeInformation info;
            owner.LookupAttributeByName(attribute, &info);
            // (the type the factory makes: "ns3::X" and "ns3::X[]" are one)
            auto typeOf = [&info](Ptr<const AttributeValue> v) {
                const std::string text = v->SerializeToString(info.checker);
                return text.substr(0, text.find('['));
            };
            NS_TEST_ASSERT_MSG_EQ(typeOf(info.initialValue),
                                  typeOf(info.originalInitialValue),
                                  attribute << "'s default is its own again after fifo's Create");
        }
        NS_TEST_ASSERT_MSG_EQ((fifoAgain.jctMs == fifo.jctMs),
                              true,
                              "fifo after flux gives fifo's JCTs ("
                                  << fifoAgain.jctMs[0] << ", " << fifoAgain.jctMs[1] << " ms)");
    }
};

/// The suite.
class SchedulerHelperTestSuite : public TestSuite
{
  public:
    SchedulerHelperTestSuite()
        : TestSuite("flux-scheduler-helper", TestSuite::Type::UNIT)
    {
        AddTestCase(new SchedulerHelperTestCase);
    }
};

/// Static instance: registers the suite.
SchedulerHelperTestSuite g_schedulerHelperTestSuite;

} // namespace
