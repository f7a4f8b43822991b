/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// What a program of one's own gets wrong with the helpers ends in one
// message that names the mistake, rather than in a crash later: Debian's
// optimised ns-3 does not check TypeId names, so a misspelt one would fail
// inside ObjectFactory::Create, and a null NIC or a class above the data
// classes would fail far from the call that gave it.

#include "rdma-fabric.h"
#include "two-hosts.h"

#include "ns3/fabric-topology-helper.h"
#include "ns3/incast-traffic.h"
#include "ns3/job-scheduler-helper.h"
#include "ns3/job-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/poisson-traffic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/training-job-helper.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A flux scheduler, a two-pair dumbbell with its classes, and a job on it.
struct SchedulerSetup
{
    JobSchedulerHelper schedulers; //!< the helper
    Ptr<JobScheduler> scheduler;   //!< the policy
    fluxtest::RdmaFabric fabric;   //!< the network
    Ptr<TrainingJob> job;          //!< a job between hosts 0 and 2

    SchedulerSetup()
        : scheduler(Create("flux")),
          fabric(Dumbbell(scheduler), RdmaHelper()),
          job(TrainingJobHelper().Install("a", {fabric.nics[0], fabric.nics[2]}, 3, 50000))
    {
    }

    /**
     * \param policy a policy
     * \return it, its classes assigned
     */
    static Ptr<JobScheduler> Create(const std::string& policy)
    {
        JobSchedulerHelper schedulers;
        schedulers.SetPolicy(policy);
        return schedulers.Create();
    }

    /**
     * \param scheduler the policy
     * \return a dumbbell whose lossless classes are the policy's
     */
    static FabricTopology Dumbbell(Ptr<JobScheduler> scheduler)
    {
        FabricTopologyHelper fabric;
        fabric.SetLosslessPriorities(JobSchedulerHelper::GetLosslessClasses(scheduler, 0, 3));
        return fabric.BuildDumbbell(2);
    }
};

} // namespace

TEST(HelperMisuseDeathTest, MisspeltCongestionControlIsNamed)
{
    RdmaHelper rdma;
    EXPECT_DEATH(rdma.SetCongestionControl("cubic"),
                 "\"cubic\" is neither a congestion control \\(dcqcn, hpcc, none");
    EXPECT_DEATH(rdma.SetCongestionControl("ns3::RingAllreduce"), "is neither a congestion");
    rdma.SetCongestionControl("hpcc");                        // a name
    rdma.SetCongestionControl("ns3::DcqcnCongestionControl"); // a TypeId
}

TEST(HelperMisuseDeathTest, MisspeltCollectiveIsNamed)
{
    TrainingJobHelper jobs;
    EXPECT_DEATH(jobs.SetCollective("ns3::NoSuch"),
                 "\"ns3::NoSuch\" is not the TypeId name of a Collective");
    EXPECT_DEATH(jobs.SetCollective("ns3::DcqcnCongestionControl"), "not the TypeId name");
    jobs.SetCollective("ns3::HalvingDoublingAllreduce");
}

TEST(HelperMisuseDeathTest, UnknownPolicyIsNamed)
{
    JobSchedulerHelper schedulers;
    EXPECT_DEATH(schedulers.SetPolicy("sjf"), "\"sjf\" is neither a policy \\(fifo, cassini");
    schedulers.SetPolicy("crux");
    schedulers.SetPolicy("ns3::FluxController");
}

TEST(HelperMisuseDeathTest, BadNicSettingsAreNamed)
{
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            rdma.SetNicAttribute("Mtu", UintegerValue(1000));
            fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), rdma);
        },
        "Mtu 1000 is not an InfiniBand path MTU");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), rdma);
            hosts.nicA->CreateQueuePair(7, 1000);
        },
        "traffic class 7 is not a data class \\(0-6; 7 carries ACKs");
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), rdma);
            rdma.Install(hosts.devA->GetNode(), hosts.devB, Ipv4Address("10.0.0.3"));
        },
        "the device is not one of the host's");
    Simulator::Destroy();
}

TEST(HelperMisuseDeathTest, AJobOnAMissingNicIsNamed)
{
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), rdma);
            TrainingJobHelper().Install("a", {hosts.nicA, nullptr}, 3, 50000);
        },
        "rank 1 has no RdmaNic");
    Simulator::Destroy();
}

TEST(HelperMisuseDeathTest, APolicyWithoutItsClassesSaysWhichCallIsMissing)
{
    ObjectFactory factory("ns3::FluxController");
    Ptr<JobScheduler> flux = factory.Create<JobScheduler>();
    EXPECT_DEATH(flux->GetJobClasses(), "AssignClasses\\(\\) was not called");
    // classes beyond what the tenants leave free: Create names the policy
    JobSchedulerHelper schedulers;
    schedulers.SetPolicy("flux");
    schedulers.SetAttribute("Classes", UintegerValue(6));
    EXPECT_DEATH(schedulers.Create(0x0f), "Create \\(policy flux\\): needs 6 classes, but only");
    flux->Dispose();
}

TEST(HelperMisuseDeathTest, ATenantsHostsAreCheckedAgainstItsNics)
{
    // a host beyond the NICs given to Setup, or no Setup at all: named at
    // the first flow, not a read past the end of the NICs
    EXPECT_DEATH(
        {
            RdmaHelper rdma;
            fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), rdma);
            Ptr<IncastTraffic> incast = CreateObject<IncastTraffic>();
            incast->Configure({0}, 5, 10000);
            incast->Setup("burst", {hosts.nicA, hosts.nicB});
            incast->Start();
            Simulator::Run();
        },
        "FlowTraffic \"burst\": host 5 is not among the 2 NICs given to Setup\\(\\)");
    EXPECT_DEATH(
        {
            Ptr<IncastTraffic> incast = CreateObject<IncastTraffic>();
            incast->Configure({0}, 1, 10000);
            incast->Start();
            Simulator::Run();
        },
        "not among the 0 NICs given to Setup\\(\\) \\(was Setup\\(\\) called\\?\\)");
    EXPECT_DEATH(CreateObject<PoissonTraffic>()->Configure({0, 1},
                                                           FlowSizeCdf::Builtin("websearch"),
                                                           2,
                                                           100e9),
                 "needs a load in \\(0, 1\\] .*got load 2");
    Simulator::Destroy();
}

TEST(HelperMisuseDeathTest, ASchedulerGetsItsFabricFirstAndEachJobOnce)
{
    // the jobs' links are computed as they are added, a job added twice
    // would contend with itself, and a path-aware policy without paths would
    // keep the hash's silently
    EXPECT_DEATH(
        {
            SchedulerSetup s;
            s.schedulers.AddJob(s.scheduler, s.fabric.topo, s.job, 3);
            s.schedulers.SetFabric(s.scheduler, s.fabric.topo);
        },
        "the fabric \\(JobSchedulerHelper::SetFabric\\) must be given before the jobs");
    EXPECT_DEATH(
        {
            SchedulerSetup s;
            s.schedulers.SetFabric(s.scheduler, s.fabric.topo);
            s.schedulers.AddJob(s.scheduler, s.fabric.topo, s.job, 3);
            s.schedulers.AddJob(s.scheduler, s.fabric.topo, s.job, 3);
        },
        "job 1 is job 0 added again");
    EXPECT_DEATH(
        {
            SchedulerSetup s;
            s.schedulers.AddJob(s.scheduler, s.fabric.topo, s.job, 3);
            s.scheduler->Start();
        },
        "policy flux chooses paths, but it was given no fabric");
    // in the right order, the same calls run
    SchedulerSetup s;
    s.schedulers.SetFabric(s.scheduler, s.fabric.topo);
    s.schedulers.AddJob(s.scheduler, s.fabric.topo, s.job, 3);
    s.scheduler->Start();
    EXPECT_EQ(s.scheduler->GetNJobs(), 1u);
    s.scheduler->Dispose();
    Simulator::Destroy();
}
