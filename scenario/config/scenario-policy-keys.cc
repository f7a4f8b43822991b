/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-policy-keys.h"

#include "scenario-attribute-values.h"
#include "scenario-json.h"
#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/job-scheduler.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioPolicyKeys");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/// A unit suffix of a time key.
struct TimeUnit
{
    const char* suffix; //!< "_us"
    double nsPerUnit;   //!< nanoseconds per unit
};

/// The units a time key may take, the usual one (us) first.
const TimeUnit kTimeUnits[] = {{"_us", 1e3}, {"_ms", 1e6}, {"_ns", 1}, {"_s", 1e9}};

/// Keys whose stem is not the attribute's snake_case name (older shapes).
const std::vector<std::pair<std::string, std::string>> kStemAliases = {
    {"replan", "ReplanInterval"}};

/// The key that sets PerChunk from "step" | "chunk".
const std::string kGranularityKey = "granularity";
/// The attribute behind kGranularityKey.
const std::string kGranularityAttribute = "PerChunk";

/**
 * \param attribute an attribute name
 * \return the stem of its key: an alias, or its snake_case name
 */
std::string
StemOf(const std::string& attribute)
{
    for (const auto& [stem, name] : kStemAliases)
    {
        if (name == attribute)
        {
            return stem;
        }
    }
    return SnakeCase(attribute);
}

/// An attribute with a key.
struct KeyedAttribute
{
    TypeId::AttributeInformation info; //!< the attribute
    AttributeKind kind;                //!< its value kind
    TypeId owner;                      //!< the TypeId that declares it
};

/**
 * \param tid a policy's TypeId
 * \return its attributes that have keys: its own first, then its parents'
 *         up to JobScheduler's
 */
std::vector<KeyedAttribute>
KeyedAttributes(TypeId tid)
{
    std::vector<KeyedAttribute> out;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            const AttributeKind kind = KindOf(info);
            if (kind != AttributeKind::NONE)
            {
                out.push_back(KeyedAttribute{info, kind, t});
            }
        }
        if (t == JobScheduler::GetTypeId() || t.GetParent() == t)
        {
            break;
        }
    }
    return out;
}

/**
 * \param a an attribute with a key
 * \return every key spelling that sets it
 */
std::vector<std::string>
KeysOf(const KeyedAttribute& a)
{
    if (a.info.name == kGranularityAttribute && a.kind == AttributeKind::BOOLEAN)
    {
        return {kGranularityKey};
    }
    const std::string stem = StemOf(a.info.name);
    if (a.kind != AttributeKind::TIME)
    {
        return {stem};
    }
    std::vector<std::string> keys;
    for (const auto& u : kTimeUnits)
    {
        keys.push_back(stem + u.suffix);
    }
    return keys;
}

/// A key resolved against a policy.
struct Resolved
{
    KeyedAttribute attr; //!< the attribute it sets
    double nsPerUnit{1}; //!< TIME: its unit
};

/**
 * \param tid a policy's TypeId
 * \param key a scheduler key
 * \param[out] out the attribute it sets
 * \return whether the key sets an attribute of the policy
 */
bool
Resolve(TypeId tid, const std::string& key, Resolved& out)
{
    for (const auto& a : KeyedAttributes(tid))
    {
        const std::vector<std::string> keys = KeysOf(a);
        for (std::size_t i = 0; i < keys.size(); ++i)
        {
            if (keys[i] == key)
            {
                out.attr = a;
                out.nsPerUnit = a.kind == AttributeKind::TIME ? kTimeUnits[i].nsPerUnit : 1;
                return true;
            }
        }
    }
    return false;
}

/// \return the registered policies' TypeIds, in GetPolicies() order
std::vector<TypeId>
PolicyTypeIds()
{
    std::vector<TypeId> tids;
    for (const auto& entry : JobScheduler::GetPolicies())
    {
        tids.push_back(TypeId::LookupByName(entry.second));
    }
    return tids;
}

/**
 * \param key a scheduler key
 * \param res what it sets
 * \return the range the key's number must be in: a kNumberRanges entry
 *         ("scheduler.<key>", for times that of the same stem in any unit)
 *         where there is one, otherwise the attribute checker's interval
 */
NumberRange
RangeFor(const std::string& key, const Resolved& res)
{
    const KeyedAttribute& a = res.attr;
    if (a.kind == AttributeKind::TIME)
    {
        const std::string stem = StemOf(a.info.name);
        for (const auto& u : kTimeUnits)
        {
            if (const NumberRange* r = FindRange("scheduler." + stem + u.suffix))
            {
                NumberRange out = *r;
                out.min = r->min * r->nsPerUnit / res.nsPerUnit;
                out.max = r->max * r->nsPerUnit / res.nsPerUnit;
                out.nsPerUnit = res.nsPerUnit;
                return out;
            }
        }
    }
    else if (const NumberRange* r = FindRange("scheduler." + key))
    {
        return *r;
    }
    const AttributeBounds b = CheckerBounds(a.info, a.kind);
    NumberRange r;
    switch (a.kind)
    {
    case AttributeKind::UINTEGER:
        return Int(static_cast<uint64_t>(b.min), static_cast<uint64_t>(b.max));
    case AttributeKind::TIME:
        r.kind = NumberRange::Kind::TIME;
        r.nsPerUnit = res.nsPerUnit;
        r.min = b.min / res.nsPerUnit;
        r.max = std::min(b.max, kMaxTimeNs) / res.nsPerUnit;
        return r;
    default: // DOUBLE, INTEGER
        r.min = b.min;
        r.max = b.max;
        r.interval = b.max < DBL_MAX && b.min > -DBL_MAX;
        return r;
    }
}

/**
 * \brief Check a key's value and give it as the attribute's string form.
 * \param v the value
 * \param path the key's path
 * \param key the key
 * \param res what it sets
 * \param[out] number the key's number (0 for non-numeric keys)
 * \return the value as the attribute deserialises it
 */
std::string
ConvertValue(const json& v,
             const std::string& path,
             const std::string& key,
             const Resolved& res,
             double& number)
{
    const KeyedAttribute& a = res.attr;
    number = 0;
    std::string text;
    switch (a.kind)
    {
    case AttributeKind::BOOLEAN:
        if (a.info.name == kGranularityAttribute && key == kGranularityKey)
        {
            const std::string g = ToString(v, path);
            if (std::find(kGranularities.begin(), kGranularities.end(), g) == kGranularities.end())
            {
                Fail(path, Quote(g) + " is not one of " + Join(kGranularities));
            }
            text = g == "chunk" ? "true" : "false";
        }
        else
        {
            text = ToBool(v, path) ? "true" : "false";
        }
        break;
    case AttributeKind::UINTEGER: {
        const uint64_t u = ToInteger(v, path, RangeFor(key, res));
        number = static_cast<double>(u);
        text = std::to_string(u);
        break;
    }
    case AttributeKind::INTEGER: {
        const NumberRange r = RangeFor(key, res);
        if (!v.is_number() ||
            (v.is_number_float() && v.get<double>() != std::floor(v.get<double>())))
        {
            TypeFail(path, "an integer", v);
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < r.min || d > r.max)
        {
            Fail(path, "must be in [" + Num(r.min) + ", " + Num(r.max) + "], got " + Got(v));
        }
        const int64_t i = v.is_number_integer() ? v.get<int64_t>() : static_cast<int64_t>(d);
        number = d;
        text = std::to_string(i);
        break;
    }
    case AttributeKind::DOUBLE:
        number = ToReal(v, path, RangeFor(key, res));
        text = ExactText(number);
        break;
    case AttributeKind::TIME: {
        number = ToReal(v, path, RangeFor(key, res));
        // truncated to whole nanoseconds, as every time key of the scenario
        text = std::to_string(static_cast<int64_t>(number * res.nsPerUnit)) + "ns";
        break;
    }
    case AttributeKind::ENUM:
    case AttributeKind::STRING:
        text = ToString(v, path);
        break;
    case AttributeKind::NONE:
        break;
    }
    const Ptr<AttributeValue> value = a.info.checker->Create();
    if (!value->DeserializeFromString(text, a.info.checker) || !a.info.checker->Check(*value))
    {
        Fail(path,
             (a.kind == AttributeKind::ENUM || a.kind == AttributeKind::STRING ? Quote(text)
                                                                               : Got(v)) +
                 " is not accepted by " + a.owner.GetName() + "::" + a.info.name);
    }
    return text;
}

/**
 * \param a an attribute with a key
 * \param key the key's spelling
 * \param res the key resolved
 * \return the attribute's default, as the key writes it
 */
std::string
DefaultText(const KeyedAttribute& a, const std::string& key, const Resolved& res)
{
    const auto& initial = a.info.initialValue;
    switch (a.kind)
    {
    case AttributeKind::BOOLEAN: {
        const bool b = DynamicCast<const BooleanValue>(initial)->Get();
        if (key == kGranularityKey)
        {
            return b ? "\"chunk\"" : "\"step\"";
        }
        return b ? "true" : "false";
    }
    case AttributeKind::UINTEGER:
        return std::to_string(DynamicCast<const UintegerValue>(initial)->Get());
    case AttributeKind::INTEGER:
        return std::to_string(DynamicCast<const IntegerValue>(initial)->Get());
    case AttributeKind::DOUBLE:
        return Num(DynamicCast<const DoubleValue>(initial)->Get());
    case AttributeKind::TIME:
        return Num(
            static_cast<double>(DynamicCast<const TimeValue>(initial)->Get().GetNanoSeconds()) /
            res.nsPerUnit);
    default:
        return Quote(initial->SerializeToString(a.info.checker));
    }
}

} // namespace

std::vector<PolicyKey>
GetPolicyKeys(const std::string& policy)
{
    std::vector<PolicyKey> keys;
    const std::string type = JobScheduler::GetPolicyTypeName(policy);
    if (type.empty())
    {
        return keys;
    }
    for (const auto& a : KeyedAttributes(TypeId::LookupByName(type)))
    {
        const std::vector<std::string> spellings = KeysOf(a);
        // times: the unit of their kNumberRanges entry, else the first (us)
        std::string key = spellings.front();
        for (const auto& s : spellings)
        {
            if (FindRange("scheduler." + s))
            {
                key = s;
                break;
            }
        }
        Resolved res;
        Resolve(TypeId::LookupByName(type), key, res);
        PolicyKey k;
        k.key = key;
        k.attribute = a.info.name;
        k.help = a.info.help;
        k.defaultValue = DefaultText(a, key, res);
        switch (a.kind)
        {
        case AttributeKind::BOOLEAN:
            k.type = key == kGranularityKey ? "string" : "boolean";
            k.range = key == kGranularityKey ? "\"step\" | \"chunk\"" : "true | false";
            break;
        case AttributeKind::UINTEGER:
        case AttributeKind::INTEGER:
            k.type = "integer";
            k.range = RangeText(RangeFor(key, res));
            break;
        case AttributeKind::DOUBLE:
            k.type = "number";
            k.range = RangeText(RangeFor(key, res));
            break;
        case AttributeKind::TIME:
            k.type = "time";
            k.range = RangeText(RangeFor(key, res)) + " (unit suffix _ns, _us, _ms or _s)";
            break;
        default:
            k.type = "string";
            k.range = "a string the attribute accepts";
            break;
        }
        keys.push_back(k);
    }
    return keys;
}

void
ParsePolicy(const json& v, ScenarioConfig& cfg)
{
    const std::vector<TypeId> tids = PolicyTypeIds();
    // Every key of every policy is known here; which policy takes it is
    // decided below.
    std::vector<std::string> known{"policy"};
    for (const TypeId& tid : tids)
    {
        for (const auto& a : KeyedAttributes(tid))
        {
            for (const auto& k : KeysOf(a))
            {
                if (std::find(known.begin(), known.end(), k) == known.end())
                {
                    known.push_back(k);
                }
            }
        }
    }
    ObjectReader r(v, "scheduler", known);
    auto& sc = cfg.scheduler;
    if (r.Has("policy"))
    {
        const std::string path = r.Path("policy");
        const std::string policy = ToString(r["policy"], path);
        if (JobScheduler::GetPolicyTypeName(policy).empty())
        {
            Fail(path,
                 Quote(policy) + " is not a known policy (known: " +
                     Join(ScenarioConfig::AvailablePolicies()) + ")");
        }
        sc.policy = policy;
    }
    const TypeId chosen = TypeId::LookupByName(JobScheduler::GetPolicyTypeName(sc.policy));
    sc.settings.clear();
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& key = it.key();
        if (key == "policy")
        {
            continue;
        }
        // the chosen policy's attribute, else the first policy's that has it
        Resolved res;
        bool found = Resolve(chosen, key, res);
        for (std::size_t i = 0; !found && i < tids.size(); ++i)
        {
            found = Resolve(tids[i], key, res);
        }
        NS_ASSERT_MSG(found, "scheduler key " << key << " of no policy passed ObjectReader");
        for (const auto& s : sc.settings)
        {
            if (s.attribute == res.attr.info.name)
            {
                Fail(r.Path(key), "sets the same attribute as " + Quote(s.key) + "; give one");
            }
        }
        ScenarioConfig::SchedulerSetting s;
        s.key = key;
        s.attribute = res.attr.info.name;
        s.value = ConvertValue(*it, r.Path(key), key, res, s.number);
        sc.settings.push_back(s);
    }
}

} // namespace scenario
} // namespace ns3
