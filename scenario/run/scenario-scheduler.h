/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_SCHEDULER_H
#define SCENARIO_SCHEDULER_H

#include "ns3/job-scheduler.h"
#include "ns3/ptr.h"
#include "ns3/scenario-config.h"

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The scheduler of scheduler.policy, with the scenario's scheduler
 * keys as attributes (each set when the policy has it: keys of other
 * policies are left out).
 * \param cfg the scenario
 * \return the scheduler, its classes assigned (AssignSchedulerClasses())
 * \throws ScenarioError "scheduler.classes" when the policy finds too few
 *         classes where the background tenants leave room
 */
Ptr<JobScheduler> CreateScheduler(const ScenarioConfig& cfg);

/**
 * \ingroup flux-scenario
 * \brief Whether a policy takes a scheduler key of the scenario.
 * \param scheduler the scheduler CreateScheduler() made
 * \param setting one of the scenario's scheduler.settings
 * \return true when the policy has the key's attribute, takes its value and
 *         uses it (JobScheduler::UsesAttribute); false for a key of another
 *         policy, checked and ignored
 */
bool PolicyTakes(Ptr<const JobScheduler> scheduler,
                 const ScenarioConfig::SchedulerSetting& setting);

/**
 * \ingroup flux-scenario
 * \brief Checks of a parsed scenario that need the model's objects rather
 * than the scenario's text: the policy finds its classes where the
 * background tenants leave room. flux-run and ns3flux call it right after
 * ParseScenario, so that such a scenario fails before anything runs.
 * \param cfg the scenario
 * \throws ScenarioError naming the field
 */
void CheckScenario(const ScenarioConfig& cfg);

} // namespace ns3

#endif /* SCENARIO_SCHEDULER_H */
