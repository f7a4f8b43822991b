/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-scheduler-helper.h"

#include "ns3/abort.h"
#include "ns3/config.h"
#include "ns3/fabric-switch.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/traffic-class.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobSchedulerHelper");

JobSchedulerHelper::JobSchedulerHelper()
{
    NS_LOG_FUNCTION(this);
    SetPolicy("fifo");
}

void
JobSchedulerHelper::SetPolicy(const std::string& name)
{
    const std::string known = JobScheduler::GetPolicyTypeName(name);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(known.empty() ? name : known, &tid) ||
        !tid.IsChildOf(JobScheduler::GetTypeId()))
    {
        std::string names;
        for (const auto& policy : JobScheduler::GetPolicies())
        {
            names += (names.empty() ? "" : ", ") + policy.first;
        }
        NS_FATAL_ERROR("JobSchedulerHelper::SetPolicy: \"" << name << "\" is neither a policy ("
                                                           << names
                                                           << ") nor the TypeId name of a "
                                                              "JobScheduler");
    }
    m_factory = ObjectFactory();
    m_factory.SetTypeId(tid);
}

void
JobSchedulerHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<JobScheduler>
JobSchedulerHelper::Create(uint8_t reservedClasses) const
{
    Ptr<JobScheduler> scheduler = m_factory.Create<JobScheduler>();
    const std::string problem = scheduler->AssignClasses(reservedClasses);
    NS_ABORT_MSG_UNLESS(problem.empty(),
                        "JobSchedulerHelper::Create (policy " << scheduler->GetPolicyName()
                                                              << "): " << problem);
    // A default an earlier Create set for its policy goes back to the
    // attribute's own when this policy needs none: policies compared in one
    // process must not inherit each other's queue disc or arbiter. (One set
    // by the program itself is left alone.)
    static bool queueDiscSet = false;
    static bool arbiterSet = false;
    auto apply = [](TypeId owner,
                    const std::string& attribute,
                    bool needed,
                    const ObjectFactory& factory,
                    bool& setHere) {
        const std::string path = owner.GetName() + "::" + attribute;
        if (needed)
        {
            Config::SetDefault(path, ObjectFactoryValue(factory));
            setHere = true;
            return;
        }
        TypeId::AttributeInformation info;
        if (setHere && owner.LookupAttributeByName(attribute, &info))
        {
            Config::SetDefault(path, *info.originalInitialValue);
        }
        setHere = false;
    };
    ObjectFactory queueDisc;
    const bool needsQueueDisc = scheduler->GetQueueDiscFactory(queueDisc);
    apply(FabricSwitch::GetTypeId(), "QueueDiscFactory", needsQueueDisc, queueDisc, queueDiscSet);
    ObjectFactory arbiter; // (its own: no queue disc attribute carried over)
    const bool needsArbiter = scheduler->GetQpArbiterFactory(arbiter);
    apply(RdmaNic::GetTypeId(), "QpArbiter", needsArbiter, arbiter, arbiterSet);
    return scheduler;
}

uint8_t
JobSchedulerHelper::GetLosslessClasses(Ptr<JobScheduler> scheduler,
                                       uint8_t otherClasses,
                                       uint8_t jobClass)
{
    const uint8_t jobs = scheduler->GetJobClasses().empty() ? TrafficClass::Bit(jobClass)
                                                            : scheduler->GetClassMask();
    return TrafficClass::Bit(TrafficClass::CONTROL) | otherClasses | jobs;
}

void
JobSchedulerHelper::SetFabric(Ptr<JobScheduler> scheduler, const FabricTopology& topo) const
{
    std::vector<double> linkBps;
    for (const auto& link : topo.links)
    {
        linkBps.push_back(static_cast<double>(link.tx->GetDataRate().GetBitRate()));
    }
    scheduler->SetPathFunction(
        [topo](uint32_t src, uint32_t dst, uint16_t port) { return topo.GetPath(src, dst, port); },
        std::move(linkBps));
}

void
JobSchedulerHelper::AddJob(Ptr<JobScheduler> scheduler,
                           const FabricTopology& topo,
                           Ptr<TrainingJob> job,
                           uint8_t cls) const
{
    NS_ABORT_MSG_UNLESS(job, "JobSchedulerHelper::AddJob: no job (null)");
    JobScheduler::JobInfo info;
    info.job = job;
    info.index = scheduler->GetNJobs();
    info.scenarioClass = cls;
    // The link directions each connection crosses under the fabric's ECMP
    // hashing, and the slowest of their rates.
    double bottleneck = 0;
    for (const auto& c : job->GetConnections())
    {
        const int64_t src = topo.GetHostIndex(c.sender->GetNic()->GetAddress());
        const int64_t dst = topo.GetHostIndex(c.receiver->GetNic()->GetAddress());
        NS_ABORT_MSG_IF(src < 0 || dst < 0,
                        "JobSchedulerHelper::AddJob: a NIC of job " << info.index
                                                                    << " is not a host of "
                                                                       "the fabric");
        info.connectionHosts.emplace_back(src, dst);
        info.rankLinks.push_back(topo.GetPath(src, dst, c.sender->GetSourcePort()));
        for (uint32_t l : info.rankLinks.back())
        {
            const double bps = static_cast<double>(topo.links[l].tx->GetDataRate().GetBitRate());
            bottleneck = bottleneck == 0 ? bps : std::min(bottleneck, bps);
        }
    }
    info.bottleneckBps = bottleneck;
    scheduler->AddJob(info);
}

} // namespace ns3
