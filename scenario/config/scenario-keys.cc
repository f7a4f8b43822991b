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
        const std::string type = p.value("type", "");
        if (type == "integer")
        {
            out[name] = Int(p.value("minimum", uint64_t{0}), p.value("maximum", kU64Max));
        }
        else if (type == "number")
        {
            NumberRange r;
            r.minOpen = p.contains("exclusiveMinimum");
            r.min = r.minOpen ? p["exclusiveMinimum"].get<double>() : p.value("minimum", 0.0);
            r.max = p.value("maximum", std::numeric_limits<double>::max());
            r.interval = p.value("x-interval", false);
            if (p.value("x-time", false))
            {
                r.kind = NumberRange::Kind::TIME;
                // units are in the key names: "_ms" or "_us"
                r.nsPerUnit =
                    key.size() > 3 && key.compare(key.size() - 3, 3, "_ms") == 0 ? 1e6 : 1e3;
            }
            out[name] = r;
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

std::vector<std::string>
SchemaVariantKeys(const std::string& section, const std::string& variant)
{
    return SectionNode(section).at("x-variants").at(variant).get<std::vector<std::string>>();
}

std::vector<std::string>
SchemaNames(const std::string& key)
{
    return SectionNode(key).at("enum").get<std::vector<std::string>>();
}

// ---------------------------------------------------------------------------
// The names each key accepts and the keys of each section: the schema's.
// ---------------------------------------------------------------------------

const std::vector<std::string> kTopologyKinds = SchemaNames("topology.kind");
const std::vector<uint64_t> kMtus =
    SectionNode("transport.mtu_bytes").at("enum").get<std::vector<uint64_t>>();
const std::vector<std::string> kPlacements = SchemaNames("jobs[].placement");
const std::vector<std::string> kCollectives = SchemaNames("jobs[].collective");
const std::vector<std::string> kPatterns = SchemaNames("background[].pattern");
const std::vector<std::string> kPfcWatchdogActions = SchemaNames("pfc_watchdog.action");
const std::vector<std::string> kGranularities = SchemaNames("scheduler.granularity");

const std::vector<std::string> kRootKeys = SchemaKeys("");
const std::vector<std::string> kTopologyKeys = SchemaKeys("topology");
const std::vector<std::string> kLinkKeys = SchemaKeys("topology.links[]");
const std::vector<std::string> kServersKeys = SchemaKeys("topology.servers");
const std::vector<std::string> kTransportKeys = SchemaKeys("transport");
const std::vector<std::string> kDcqcnKeys = SchemaKeys("transport.dcqcn");
const std::vector<std::string> kFaultKeys = SchemaKeys("faults[]");
const std::vector<std::string> kTracesKeys = SchemaKeys("traces");
const std::vector<std::string> kPfcWatchdogKeys = SchemaKeys("pfc_watchdog");
const std::vector<std::string> kSeedsKeys = SchemaKeys("seeds");
const std::vector<std::string> kEcnKeys = SchemaKeys("transport.ecn");
const std::vector<std::string> kEcnRateKeys = SchemaKeys("transport.ecn.per_rate[]");
const std::vector<std::string> kJobKeys = SchemaKeys("jobs[]");
const std::vector<std::string> kJobWorkloadKeys = SchemaKeys("jobs[].workload");
const std::vector<std::string> kBackgroundCdfKeys = SchemaVariantKeys("background[]", "cdf");
const std::vector<std::string> kBackgroundPatternKeys =
    SchemaVariantKeys("background[]", "pattern");
const std::vector<std::string> kFlowKeys = SchemaKeys("background[].flows[]");
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

const NumberRange&
RangeOf(const std::string& path, const std::string& key)
{
    // "jobs[3]" -> "jobs[]"
    std::string section;
    for (size_t i = 0; i < path.size(); ++i)
    {
        section += path[i];
        if (path[i] == '[')
        {
            i = path.find(']', i) - 1;
        }
    }
    const std::string name = section.empty() ? key : section + "." + key;
    const NumberRange* range = FindRange(name);
    if (!range)
    {
        throw std::logic_error("scenario key " + name + " is not a number in the schema");
    }
    return *range;
}

} // namespace scenario
} // namespace ns3
