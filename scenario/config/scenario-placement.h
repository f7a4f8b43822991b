/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_PLACEMENT_H
#define SCENARIO_PLACEMENT_H

#include "scenario-config.h"

namespace ns3
{
namespace scenario
{

/**
 * \brief Give every job with a placement strategy its hosts: hosts listed
 * explicitly by any job are reserved first, then each placed job, in file
 * order, takes hosts no explicit list nor earlier job holds (see
 * ResolvePlacement).
 * \param cfg the scenario, its jobs parsed; their hosts are filled in
 * \throws ScenarioError when a job finds too few free hosts
 */
void PlaceJobs(ScenarioConfig& cfg);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_PLACEMENT_H */
