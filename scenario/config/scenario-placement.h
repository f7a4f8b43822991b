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
 * \brief Give every job with a placement strategy its GPUs (its hosts
 * without servers): GPUs and hosts listed explicitly by any job are reserved
 * first, then each placed job, in file order, takes GPUs no explicit list
 * nor earlier job holds (see ResolvePlacement). Every job then has, per
 * rank, its GPU, its host (the GPU's NIC) and its server.
 * \param cfg the scenario, its jobs parsed; their gpus, hosts and servers are filled in
 * \throws ScenarioError when a job finds too few free GPUs, or two jobs list
 *         the same GPU
 */
void PlaceJobs(ScenarioConfig& cfg);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_PLACEMENT_H */
