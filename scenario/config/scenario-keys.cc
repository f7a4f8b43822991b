/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioKeys");

namespace scenario
{

/// scenario.schema.json, compiled in (cmake/flux-embed-schema.cmake).
extern const char kScenarioSchemaText[];

namespace
{

using ojson = nlohmann::ordered_json;

/// The schema node of a section: "" the root, "topology", "jobs[]",
/// "background[].flows[]" (an array's items are "[]").
const ojson&
SectionNode(const std::string& section)
{
    const ojson* node = &ScenarioSchema();
    size_t i = 0;
    while (i < section.size())
    {
        if (section.compare(i, 2, "[]") == 0)
        {
            node = &node->at("items");
            i += 2;
            continue;
        }
        if (section[i] == '.')
        {
            ++i;
        }
        const size_t end = section.find_first_of(".[", i);
        const std::string key = section.substr(i, end == std::string::npos ? end : end - i);
        node = &node->at("properties").at(key);
        i = end == std::string::npos ? section.size() : end;
    }
    return *node;
}

/// Every numeric key's range, by its full name ("jobs[].bytes"), from the
/// schema's type, minimum / exclusiveMinimum, maximum and x- annotations.
void
CollectRanges(const ojson& node, const std::string& prefix, std::map<std::string, NumberRange>& out)
{
    if (node.contains("items"))
    {
        CollectRanges(node["items"], prefix + "[]", out);
    }
    if (!node.contains("properties"))
    {
        return;
    }
    for (const auto& [key, p] : node["properties"].items())
    {
        const std::string name = prefix.empty() ? key : prefix + "." + key;
        const auto type = p.find("type");
        if (type != p.end() && (*type == "integer" || *type == "number"))
        {
            out[name] = RangeOfNode(p, key);
        }
        CollectRanges(p, name, out);
    }
}

/// The ranges of every numeric key, read once.
const std::map<std::string, NumberRange>&
NumberRanges()
{
    static const std::map<std::string, NumberRange> ranges = [] {
        std::map<std::string, NumberRange> r;
        CollectRanges(ScenarioSchema(), "", r);
        return r;
    }();
    return ranges;
}

} // namespace

NumberRange
RangeOfNode(const nlohmann::ordered_json& p, const std::string& name)
{
    if (p.value("type", "") == "integer")
    {
        return Int(p.value("minimum", uint64_t{0}), p.value("maximum", kU64Max));
    }
    NumberRange r;
    r.minOpen = p.contains("exclusiveMinimum");
    r.min = r.minOpen ? p["exclusiveMinimum"].get<double>() : p.value("minimum", 0.0);
    r.max = p.value("maximum", std::numeric_limits<double>::max());
    r.interval = p.value("x-interval", false);
    if (p.value("x-time", false))
    {
        r.kind = NumberRange::Kind::TIME;
        // units are in the key names: "_ms" or "_us"
        r.nsPerUnit = name.size() > 3 && name.compare(name.size() - 3, 3, "_ms") == 0 ? 1e6 : 1e3;
    }
    return r;
}

const nlohmann::ordered_json&
ScenarioSchema()
{
    static const ojson schema = ojson::parse(kScenarioSchemaText);
    return schema;
}

std::vector<std::string>
SchemaKeys(const std::string& section)
{
    std::vector<std::string> keys;
    for (const auto& [key, p] : SectionNode(section).at("properties").items())
    {
        keys.push_back(key);
    }
    return keys;
}

namespace
{
/// The keys only entries of one kind of a section have (its "x-variants").
std::vector<std::string>
VariantKeys(const std::string& section, const std::string& variant)
{
    return SectionNode(section).at("x-variants").at(variant).get<std::vector<std::string>>();
}

/// The names a string key accepts (its "enum").
std::vector<std::string>
Names(const std::string& key)
{
    return SectionNode(key).at("enum").get<std::vector<std::string>>();
}
} // namespace

const std::vector<std::string> kPlacements = Names("jobs[].placement");
const std::vector<std::string> kPfcWatchdogActions = Names("pfc_watchdog.action");
const std::vector<std::string> kGranularities = Names("scheduler.granularity");
const std::vector<std::string> kBackgroundCdfKeys = VariantKeys("background[]", "cdf");
const std::vector<std::string> kBackgroundPatternKeys = VariantKeys("background[]", "pattern");
const std::vector<std::string> kBackgroundCommonKeys = [] {
    std::vector<std::string> common;
    for (const auto& key : SchemaKeys("background[]"))
    {
        if (std::find(kBackgroundCdfKeys.begin(), kBackgroundCdfKeys.end(), key) ==
                kBackgroundCdfKeys.end() &&
            std::find(kBackgroundPatternKeys.begin(), kBackgroundPatternKeys.end(), key) ==
                kBackgroundPatternKeys.end())
        {
            common.push_back(key);
        }
    }
    return common;
}();

NumberRange
Int(uint64_t min, uint64_t max)
{
    NumberRange r;
    r.kind = NumberRange::Kind::INTEGER;
    r.imin = min;
    r.imax = max;
    return r;
}

const NumberRange*
FindRange(const std::string& name)
{
    const auto it = NumberRanges().find(name);
    return it == NumberRanges().end() ? nullptr : &it->second;
}

} // namespace scenario
} // namespace ns3
