/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_ATTRIBUTE_KEYS_H
#define SCENARIO_ATTRIBUTE_KEYS_H

#include "scenario-attribute-values.h"

#include "ns3/scenario-json.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{
namespace scenario
{

/**
 * \ingroup flux-scenario
 * \brief One scenario key that sets an attribute of a TypeId (a scheduling
 * policy's under "scheduler", a congestion control's under
 * "transport.<name>").
 *
 * The key mapping rule: the attribute's name in snake_case is the key
 * (MinShare: min_share); a Time attribute takes its unit as a suffix (_us,
 * _ms, _ns or _s: Hysteresis: hysteresis_us), a DataRate attribute its unit
 * (_mbps or _gbps: MinRate: min_rate_mbps); Boolean attributes take true or
 * false, Double, Uinteger and Integer ones a number, Enum and String ones a
 * string, each checked against the attribute's checker. Attributes of other
 * value types (objects, callbacks, ...) are not keys. A section may keep
 * older shapes (AttributeKeyRules).
 */
struct AttributeKey
{
    std::string key;          //!< the key ("hysteresis_us": times with their usual unit)
    std::string attribute;    //!< the attribute ("Hysteresis")
    std::string type;         //!< "boolean", "integer", "number", "time", "rate" or "string"
    std::string defaultValue; //!< the default, as the key writes it
    std::string range;        //!< the values accepted ("[0, 0.5]", "\"step\" | \"chunk\"")
    std::string help;         //!< the attribute's help text
};

/// How one section maps its keys to a TypeId's attributes.
struct AttributeKeyRules
{
    std::string section; //!< the section's path ("scheduler"); ranges in the schema are
                         //!< looked up as section.key
    TypeId root;         //!< the attributes of the TypeId and its parents up to this one
    /// keys whose stem is not the attribute's snake_case name: (stem, attribute)
    std::vector<std::pair<std::string, std::string>> stemAliases;
    std::string choiceKey;       //!< a string key that sets a Boolean attribute ("granularity")
    std::string choiceAttribute; //!< the attribute it sets ("PerChunk")
    std::vector<std::string> choiceValues; //!< its two values, false's first
};

/// A key resolved against a TypeId.
struct ResolvedKey
{
    TypeId::AttributeInformation info;       //!< the attribute it sets
    AttributeKind kind{AttributeKind::NONE}; //!< its value kind
    TypeId owner;                            //!< the TypeId that declares it
    double unit{1}; //!< TIME: ns per unit of the key; DATA_RATE: bit/s per unit
};

/**
 * \param tid a TypeId
 * \param rules the section's rules
 * \return its keys, in the order of its attributes (its own first, then its
 *         parents' up to rules.root)
 */
std::vector<AttributeKey> GetAttributeKeys(TypeId tid, const AttributeKeyRules& rules);

/**
 * \param tid a TypeId
 * \param rules the section's rules
 * \return every spelling of every key of the TypeId (all units)
 */
std::vector<std::string> GetAttributeKeySpellings(TypeId tid, const AttributeKeyRules& rules);

/**
 * \param tid a TypeId
 * \param rules the section's rules
 * \param key a key
 * \param[out] out what it sets
 * \return whether the key sets an attribute of the TypeId
 */
bool ResolveAttributeKey(TypeId tid,
                         const AttributeKeyRules& rules,
                         const std::string& key,
                         ResolvedKey& out);

/**
 * \brief Check a key's value against its attribute (type, range, checker;
 * a ScenarioError naming path otherwise) and give it as the attribute's
 * string form.
 * \param v the value
 * \param path the key's path
 * \param key the key
 * \param rules the section's rules
 * \param res what it sets
 * \param[out] number the key's number (0 for non-numeric keys)
 * \return the value as the attribute deserialises it
 */
std::string ConvertAttributeKey(const nlohmann::json& v,
                                const std::string& path,
                                const std::string& key,
                                const AttributeKeyRules& rules,
                                const ResolvedKey& res,
                                double& number);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_ATTRIBUTE_KEYS_H */
