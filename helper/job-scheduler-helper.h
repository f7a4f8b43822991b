/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_SCHEDULER_HELPER_H
#define JOB_SCHEDULER_HELPER_H

#include "fabric-topology.h"

#include "ns3/attribute.h"
#include "ns3/job-scheduler.h"
#include "ns3/object-factory.h"
#include "ns3/training-job.h"

#include <string>

namespace ns3
{

/**
 * \ingroup flux-helper
 * \brief Sets up a scheduling policy (a JobScheduler: fifo, cassini, crux,
 * flux, ...) around a fabric and its jobs, in the order the policy needs.
 *
 * \code
 *   JobSchedulerHelper schedulers;
 *   schedulers.SetPolicy("flux");                        // flux-run --list-policies
 *   schedulers.SetAttribute("Classes", UintegerValue(2)); // --describe-policy flux
 *   // 1. before the fabric: the classes, the switch ports' queue disc and
 *   //    the NICs' arbiter that the policy needs (Config defaults)
 *   Ptr<JobScheduler> policy = schedulers.Create(tenantClasses);
 *   FabricTopologyHelper fabric;
 *   fabric.SetLosslessPriorities(JobSchedulerHelper::GetLosslessClasses(policy, tenantClasses, 3));
 *   FabricTopology topo = fabric.BuildLeafSpine(2, 2, 4);
 *   // ... NICs (RdmaHelper), jobs (TrainingJobHelper) ...
 *   // 2. the fabric's paths, then every job; 3. start before Simulator::Run
 *   schedulers.SetFabric(policy, topo);
 *   for (const auto& job : jobs) { schedulers.AddJob(policy, topo, job, 3); }
 *   policy->Start();
 *   for (const auto& job : jobs) { job->Start(); }
 * \endcode
 *
 * A misuse is a fatal error that names it, rather than a crash later: an
 * unknown policy, more classes than the tenants leave free, a job whose NICs
 * are not the fabric's hosts (and, in JobScheduler, a policy asked for its
 * classes before AssignClasses(), a job without one path per connection).
 */
class JobSchedulerHelper
{
  public:
    JobSchedulerHelper();

    /**
     * \brief Choose the policy (default "fifo").
     * \param name a registered policy's name (JobScheduler::GetPolicies(),
     *        flux-run --list-policies) or the TypeId name of a JobScheduler
     */
    void SetPolicy(const std::string& name);

    /**
     * \brief Set an attribute of the schedulers this helper creates.
     * \param name attribute name (flux-run --describe-policy shows them)
     * \param value attribute value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Create the scheduler and pick its classes (AssignClasses), before
     * the fabric is built; set the Config defaults of the switch ports'
     * queue disc (ns3::FabricSwitch::QueueDiscFactory) and the NICs' arbiter
     * (ns3::RdmaNic::QpArbiter) when the policy needs its own.
     * \param reservedClasses bit mask of the classes other traffic (tenants)
     *        uses, which the jobs' classes avoid (the control class always is)
     * \return the scheduler
     */
    Ptr<JobScheduler> Create(uint8_t reservedClasses = 0) const;

    /**
     * \param scheduler a scheduler from Create()
     * \param otherClasses classes of other lossless traffic (tenants)
     * \param jobClass the class the jobs' data has when the policy gives it
     *        none (AddJob's cls)
     * \return the classes the fabric must make lossless
     *         (FabricTopologyHelper::SetLosslessPriorities): the control
     *         class, otherClasses, and the scheduler's classes or jobClass
     */
    static uint8_t GetLosslessClasses(Ptr<JobScheduler> scheduler,
                                      uint8_t otherClasses,
                                      uint8_t jobClass = 3);

    /**
     * \brief Tell the scheduler the fabric's paths (FabricTopology::GetPath,
     * the switches' ECMP choice) and link rates, for its path choice.
     * \param scheduler a scheduler from Create()
     * \param topo the fabric (copied: its switches are shared)
     */
    void SetFabric(Ptr<JobScheduler> scheduler, const FabricTopology& topo) const;

    /**
     * \brief Tell the scheduler a job, set up and not started: the links each
     * of its connections crosses under the fabric's hashing, their hosts.
     * \param scheduler a scheduler given the fabric (SetFabric())
     * \param topo the fabric
     * \param job the job (its index is the number of jobs added before it)
     * \param cls the class the job's data would have without a policy
     */
    void AddJob(Ptr<JobScheduler> scheduler,
                const FabricTopology& topo,
                Ptr<TrainingJob> job,
                uint8_t cls) const;

  private:
    ObjectFactory m_factory; //!< scheduler factory
};

} // namespace ns3

#endif /* JOB_SCHEDULER_HELPER_H */
