/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_POLICY_KEYS_H
#define SCENARIO_POLICY_KEYS_H

#include "scenario-attribute-keys.h"

#include <string>
#include <vector>

namespace ns3
{

namespace scenario
{

/**
 * \ingroup flux-scenario
 * \brief One key of the "scheduler" object: an attribute of a policy's
 * TypeId (its own or inherited from JobScheduler), by the mapping rule of
 * AttributeKey. Two keys keep an older shape: "granularity" ("step" |
 * "chunk") sets PerChunk, and "replan_us" is ReplanInterval.
 */
using PolicyKey = AttributeKey;

/**
 * \param policy a policy name (JobScheduler::GetPolicies())
 * \return its scenario keys besides "policy", in the order of its TypeId's
 *         attributes (the policy's own first, then JobScheduler's: classes
 *         and background_first for a policy with classes of its own,
 *         path_candidates for one that chooses paths); empty for an unknown
 *         policy
 */
std::vector<PolicyKey> GetPolicyKeys(const std::string& policy);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_POLICY_KEYS_H */
