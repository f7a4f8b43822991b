/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-json.h"
#include "scenario-keys.h"
#include "scenario-reader.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioValidate");

namespace scenario
{

extern const char kScenarioSchemaText[];

namespace
{

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

/// The schema, parsed by valijson (once).
const valijson::Schema&
CompiledSchema()
{
    static const auto schema = [] {
        const json doc = json::parse(kScenarioSchemaText);
        auto s = std::make_unique<valijson::Schema>();
        valijson::SchemaParser(valijson::SchemaParser::kDraft7)
            .populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), *s);
        return s;
    }();
    return *schema;
}

/**
 * The document as valijson reads it, with the runner's notion of numbers:
 * integral floats are integers (5e7), integers beyond int64 are floats (so
 * that they fail "integer" rather than wrap), NaN and infinities are null
 * (so that they fail "number").
 */
json
Normalized(const json& v)
{
    switch (v.type())
    {
    case json::value_t::object: {
        json out = json::object();
        for (auto it = v.begin(); it != v.end(); ++it)
        {
            out[it.key()] = Normalized(it.value());
        }
        return out;
    }
    case json::value_t::array: {
        json out = json::array();
        for (const auto& e : v)
        {
            out.push_back(Normalized(e));
        }
        return out;
    }
    case json::value_t::number_float: {
        const double d = v.get<double>();
        if (!std::isfinite(d))
        {
            return nullptr;
        }
        if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        {
            return static_cast<int64_t>(d);
        }
        return v;
    }
    case json::value_t::number_unsigned:
        if (v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        {
            return v.get<double>();
        }
        return v;
    default:
        return v;
    }
}

/// One failure valijson found, located in the document and the schema.
struct Failure
{
    std::string path;             //!< the runner's path ("jobs[0].bytes")
    const json* value{nullptr};   //!< the value there, as given
    const ojson* schema{nullptr}; //!< its schema node
    std::string key;              //!< the property a failure is about
    std::vector<int64_t> order;   //!< its place in document order
    std::string description;      //!< valijson's words
};

/// The schema node of a member of an object.
const ojson*
MemberSchema(const ojson* s, const std::string& key, int64_t& position)
{
    if (!s)
    {
        return nullptr;
    }
    if (s->contains("properties") && (*s)["properties"].contains(key))
    {
        const auto& props = (*s)["properties"];
        position = std::distance(props.begin(), props.find(key));
        return &props[key];
    }
    position = 1 << 20; // after the named keys
    const auto it = s->find("additionalProperties");
    return it != s->end() && it->is_object() ? &*it : nullptr;
}

/// Locate valijson's context ("<root>", "[jobs]", "[0]", ...) in the document
/// and the schema.
Failure
Locate(const json& doc, const valijson::ValidationResults::Error& error)
{
    Failure f;
    f.value = &doc;
    f.schema = &ScenarioSchema();
    f.description = error.description;
    for (size_t i = 1; i < error.context.size(); ++i)
    {
        const std::string& c = error.context[i];
        const std::string name = c.size() >= 2 ? c.substr(1, c.size() - 2) : c;
        if (f.value->is_array())
        {
            const size_t index = std::stoul(name);
            f.path = Index(f.path, index);
            f.value = &(*f.value)[index];
            f.schema = f.schema && f.schema->contains("items") ? &(*f.schema)["items"] : nullptr;
            f.order.push_back(static_cast<int64_t>(index));
        }
        else
        {
            int64_t position = 0;
            f.path = Child(f.path, name);
            f.value = &(*f.value)[name];
            f.schema = MemberSchema(f.schema, name, position);
            f.order.push_back(position);
        }
    }
    // A missing key is reported where the key would be; everything else
    // about a value comes before its members.
    const std::string missing = "Missing required property '";
    if (error.description.rfind(missing, 0) == 0)
    {
        f.key = error.description.substr(missing.size());
        f.key = f.key.substr(0, f.key.rfind('\''));
        int64_t position = 0;
        MemberSchema(f.schema, f.key, position);
        f.order.push_back(position);
    }
    else
    {
        f.order.push_back(-1);
    }
    return f;
}

/// The first key of an object that its schema does not name.
std::string
UnknownKey(const json& v, const ojson& s, std::string& note)
{
    const ojson& props = s.contains("properties") ? s["properties"] : ojson::object();
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& key = it.key();
        if (props.contains(key))
        {
            continue;
        }
        std::string best;
        size_t bestDistance = 3;
        for (const auto& [k, p] : props.items())
        {
            const size_t d = EditDistance(key, k);
            if (d < bestDistance)
            {
                best = k;
                bestDistance = d;
            }
        }
        note = best.empty() ? "unknown key" : "unknown key (did you mean " + Quote(best) + "?)";
        return key;
    }
    return "";
}

/// The range of a numeric schema node (the key's name gives the unit).
NumberRange
RangeOfNode(const ojson& p, const std::string& path)
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
        r.nsPerUnit = path.size() > 3 && path.compare(path.size() - 3, 3, "_ms") == 0 ? 1e6 : 1e3;
    }
    return r;
}

/**
 * Throw the runner's message for a failure, phrased from the schema node's
 * constraints; return when the value passes them (a failure the runner
 * words itself, e.g. a host index beyond the topology).
 */
void
Explain(const Failure& f)
{
    const json& v = *f.value;
    if (!f.key.empty())
    {
        Fail(Child(f.path, f.key), "required");
    }
    if (f.path.empty() && v.is_object() && !v.contains("topology") && !v.contains("hpcc"))
    {
        Fail("topology", "required");
    }
    if (!f.schema)
    {
        return;
    }
    const ojson& s = *f.schema;
    const std::string type = s.contains("type") && s["type"].is_string() ? s["type"] : "";
    if (type == "object")
    {
        if (!v.is_object())
        {
            TypeFail(f.path.empty() ? "scenario" : f.path, "an object", v);
        }
        std::string note;
        const std::string key = UnknownKey(v, s, note);
        if (!key.empty() && s.value("additionalProperties", json(true)) == false)
        {
            Fail(Child(f.path, key), note);
        }
    }
    else if (type == "array")
    {
        if (!v.is_array())
        {
            // host indices have no upper bound but the topology
            const bool hosts = s.contains("items") && s["items"].value("type", "") == "integer" &&
                               !s["items"].contains("maximum");
            TypeFail(f.path, hosts ? "an array of host indices" : "an array", v);
        }
    }
    else if (type == "integer")
    {
        const uint64_t u = ToInteger(v, f.path, RangeOfNode(s, f.path));
        if (s.contains("enum"))
        {
            const auto known = s["enum"].get<std::vector<uint64_t>>();
            if (std::find(known.begin(), known.end(), u) == known.end())
            {
                Fail(f.path,
                     std::to_string(u) + " is not an allowed " + s.value("x-name", "value") +
                         " (allowed: " + Join(known) + ")");
            }
        }
    }
    else if (type == "number")
    {
        if (!v.is_number())
        {
            TypeFail(f.path, "a number", v);
        }
        ToReal(v, f.path, RangeOfNode(s, f.path));
    }
    else if (type == "boolean")
    {
        ToBool(v, f.path);
    }
    else if (type == "string")
    {
        if (s.contains("enum"))
        {
            ToOneOf(v, f.path, s["enum"].get<std::vector<std::string>>());
        }
        ToString(v, f.path);
    }
}

} // namespace

void
ValidateScenario(const json& doc)
{
    const json normalized = Normalized(doc);
    valijson::Validator validator(valijson::Validator::kStrongTypes);
    valijson::ValidationResults results;
    if (validator.validate(CompiledSchema(),
                           valijson::adapters::NlohmannJsonAdapter(normalized),
                           &results))
    {
        return;
    }
    std::vector<Failure> failures;
    for (const auto& error : results)
    {
        failures.push_back(Locate(doc, error));
    }
    std::stable_sort(failures.begin(), failures.end(), [](const Failure& a, const Failure& b) {
        return a.order < b.order;
    });
    for (const auto& f : failures)
    {
        Explain(f);
    }
}

} // namespace scenario
} // namespace ns3
