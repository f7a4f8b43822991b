/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_CC_KEYS_H
#define SCENARIO_CC_KEYS_H

#include "scenario-attribute-keys.h"

#include <string>
#include <vector>

namespace ns3
{

struct ScenarioConfig;

namespace scenario
{

class ObjectReader;

/**
 * \ingroup flux-scenario
 * \brief The keys of "transport.<name>" for a registered congestion control
 * (RdmaCongestionControl::GetAlgorithms()): its TypeId's attributes, its own
 * and its parents' below RdmaCongestionControl, by the mapping rule of
 * AttributeKey (TLow: t_low_us, AdditiveIncrease: additive_increase_mbps).
 * "transport.dcqcn" keeps its own keys (profiles, scaled steps: see
 * scenario-keys.h) and is not among them.
 * \param algorithm an algorithm's name
 * \return its keys; empty for an unknown name or for "dcqcn"
 */
std::vector<AttributeKey> GetCcKeys(const std::string& algorithm);

/**
 * \return the names of the "transport" sections that take an algorithm's
 *         attributes: every registered algorithm but "dcqcn"
 */
std::vector<std::string> GetCcSections();

/**
 * \brief Read every "transport.<name>" section of a registered algorithm
 * into cfg.transport.ccSettings: each key checked against the attribute it
 * sets (unknown key, wrong type, out of range: a ScenarioError naming it).
 * Keys of an algorithm other than transport.cc are checked, then left out.
 * \param r the "transport" object
 * \param cfg the configuration
 */
void ParseCcSections(const ObjectReader& r, ScenarioConfig& cfg);

/**
 * \brief Ask the chosen congestion control, set as the run will set it
 * (DCQCN profile, transport.<cc> keys, ns3_defaults), whether its settings
 * can work at the host link rate (RdmaCongestionControl::GetSettingsProblem).
 *
 * \param cfg the configuration, with ns3_defaults parsed
 * \throws ScenarioError naming the key (or ns3_defaults entry) that set the
 *         attribute at fault, or transport.cc when it is the default's
 */
void CheckCcSettings(const ScenarioConfig& cfg);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_CC_KEYS_H */
