/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"
#include "scenario-reader.h"

#include "ns3/log.h"
#include "ns3/scenario-json.h"

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
void
Normalize(json& v)
{
    if (v.is_structured())
    {
        for (auto& e : v)
        {
            Normalize(e);
        }
    }
    else if (v.is_number_float())
    {
        const double d = v.get<double>();
        if (!std::isfinite(d))
        {
            v = nullptr;
        }
        else if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        {
            v = static_cast<int64_t>(d);
        }
    }
    else if (v.is_number_unsigned() &&
             v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    {
        v = v.get<double>();
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
    bool registered{false};       //!< under a key the schema does not name
};

/// The place in document order of keys the schema does not name: after the
/// named ones.
constexpr int64_t kUnnamed = 1 << 20;

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
    position = kUnnamed;
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
    for (size_t i = 1; i < error.context.size(); ++i)
    {
        const std::string& c = error.context[i];
        const std::string name = c.size() >= 2 ? c.substr(1, c.size() - 2) : c;
        if (f.value->is_array())
        {
            const size_t index = std::stoul(name);
            f.path = Index(f.path, index);
            f.value = &f.value->at(index);
            f.schema = f.schema && f.schema->contains("items") ? &(*f.schema)["items"] : nullptr;
            f.order.push_back(static_cast<int64_t>(index));
        }
        else
        {
            int64_t position = 0;
            f.path = Child(f.path, name);
            f.value = &f.value->at(name);
            f.schema = MemberSchema(f.schema, name, position);
            f.registered = f.registered || position == kUnnamed;
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

/**
 * Throw the runner's message for a failure, phrased from the schema node's
 * constraints; return when the value passes them (a failure the runner
 * words itself, e.g. a host index beyond the topology).
 */
void
Explain(const Failure& f)
{
    const json& v = *f.value;
    if (f.registered)
    {
        // names of registered things (congestion controls, ns-3 attributes,
        // algorithms): their section's reader knows them and words it
        return;
    }
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
        if (s.value("additionalProperties", json(true)) == false)
        {
            std::vector<std::string> keys;
            const ojson props = s.value("properties", ojson::object());
            for (const auto& [key, p] : props.items())
            {
                keys.push_back(key);
            }
            for (auto it = v.begin(); it != v.end(); ++it)
            {
                if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
                {
                    Fail(Child(f.path, it.key()), UnknownKeyProblem(it.key(), keys));
                }
            }
        }
    }
    else if (type == "array")
    {
        if (!v.is_array())
        {
            TypeFail(f.path,
                     s.contains("x-name") ? "an array of " + s["x-name"].get<std::string>()
                                          : "an array",
                     v);
        }
    }
    else if (type == "integer")
    {
        const uint64_t u = ToInteger(v, f.path, RangeOfNode(s, f.path));
        const uint64_t multiple = s.value("multipleOf", uint64_t{1});
        if (u % multiple != 0)
        {
            Fail(f.path,
                 (multiple == 2 ? "must be even"
                                : "must be a multiple of " + std::to_string(multiple)) +
                     ", got " + std::to_string(u));
        }
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
        const std::string text = ToString(v, f.path);
        if (text.size() < s.value("minLength", uint64_t{0}))
        {
            Fail(f.path, "must not be empty");
        }
        if (s.contains("x-pattern"))
        {
            Fail(f.path, Quote(text) + " may contain only " + s["x-pattern"].get<std::string>());
        }
    }
}

} // namespace

void
ValidateScenario(const json& doc)
{
    json normalized = doc;
    Normalize(normalized);
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
