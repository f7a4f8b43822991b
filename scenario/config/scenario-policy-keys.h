/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_POLICY_KEYS_H
#define SCENARIO_POLICY_KEYS_H

#include <string>
#include <vector>

namespace ns3
{

namespace scenario
{

/**
 * \ingroup flux-scenario
 * \brief One key of the "scheduler" object: an attribute of a policy's
 * TypeId (its own or inherited from JobScheduler).
 *
 * The key mapping rule: the attribute's name in snake_case is the key
 * (MinShare: min_share); a Time attribute takes its unit as a suffix (_ns,
 * _us, _ms or _s: Hysteresis: hysteresis_us); Boolean attributes take true
 * or false, Double, Uinteger and Integer ones a number, Enum and String
 * ones a string, each checked against the attribute's checker. Two keys
 * keep an older shape: "granularity" ("step" | "chunk") sets PerChunk, and
 * "replan_us" is ReplanInterval. Attributes of other value types (objects,
 * callbacks, data rates, ...) are not keys.
 */
struct PolicyKey
{
    std::string key;          //!< the key ("hysteresis_us": times with their usual unit)
    std::string attribute;    //!< the attribute ("Hysteresis")
    std::string type;         //!< "boolean", "integer", "number", "time" or "string"
    std::string defaultValue; //!< the default, as the key writes it
    std::string range;        //!< the values accepted ("[0, 0.5]", "\"step\" | \"chunk\"")
    std::string help;         //!< the attribute's help text
};

/**
 * \param policy a policy name (JobScheduler::GetPolicies())
 * \return its scenario keys besides "policy", in the order of its TypeId's
 *         attributes (the policy's own first, then JobScheduler's); empty
 *         for an unknown policy
 */
std::vector<PolicyKey> GetPolicyKeys(const std::string& policy);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_POLICY_KEYS_H */
