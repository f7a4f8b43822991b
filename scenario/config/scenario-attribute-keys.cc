/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-attribute-keys.h"

#include "scenario-keys.h"
#include "scenario-reader.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioAttributeKeys");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/**
 * \param info an Enum attribute
 * \return its values' names, quoted (none when the checker does not list them)
 */
std::vector<std::string>
EnumChoices(const TypeId::AttributeInformation& info)
{
    std::vector<std::string> names;
    if (!info.checker->HasUnderlyingTypeInformation())
    {
        return names;
    }
    const std::string all = info.checker->GetUnderlyingTypeInformation();
    for (std::size_t from = 0; from < all.size();)
    {
        const std::size_t bar = std::min(all.find('|', from), all.size());
        if (bar > from)
        {
            names.push_back(Quote(all.substr(from, bar - from)));
        }
        from = bar + 1;
    }
    return names;
}

/// A unit suffix of a key.
struct KeyUnit
{
    const char* suffix; //!< "_us"
    double perUnit;     //!< nanoseconds (times) or bit/s (rates) per unit
};

/// The units a time key may take, the usual one (us) first.
const KeyUnit kTimeUnits[] = {{"_us", 1e3}, {"_ms", 1e6}, {"_ns", 1}, {"_s", 1e9}};

/// The units a rate key may take, the usual one (Mb/s) first.
const KeyUnit kRateUnits[] = {{"_mbps", 1e6}, {"_gbps", 1e9}};

/**
 * \param attribute an attribute name
 * \param rules the section's rules
 * \return the stem of its key: an alias, or its snake_case name
 */
std::string
StemOf(const std::string& attribute, const AttributeKeyRules& rules)
{
    for (const auto& [stem, name] : rules.stemAliases)
    {
        if (name == attribute)
        {
            return stem;
        }
    }
    return SnakeCase(attribute);
}

/**
 * \param tid a TypeId
 * \param rules the section's rules
 * \return its attributes that have keys: its own first, then its parents'
 *         up to rules.root
 */
std::vector<ResolvedKey>
KeyedAttributes(TypeId tid, const AttributeKeyRules& rules)
{
    std::vector<ResolvedKey> out;
    for (TypeId t = tid;; t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            const TypeId::AttributeInformation info = t.GetAttribute(i);
            const AttributeKind kind = KindOf(info);
            if (kind != AttributeKind::NONE)
            {
                ResolvedKey k;
                k.info = info;
                k.kind = kind;
                k.owner = t;
                out.push_back(k);
            }
        }
        if (t == rules.root || t.GetParent() == t)
        {
            break;
        }
    }
    return out;
}

/**
 * \param a an attribute with a key
 * \param rules the section's rules
 * \return the units of its key (empty: a key without a unit)
 */
std::vector<KeyUnit>
UnitsOf(const ResolvedKey& a)
{
    if (a.kind == AttributeKind::TIME)
    {
        return {std::begin(kTimeUnits), std::end(kTimeUnits)};
    }
    if (a.kind == AttributeKind::DATA_RATE)
    {
        return {std::begin(kRateUnits), std::end(kRateUnits)};
    }
    return {};
}

/// \return whether a is the rules' choice key's attribute
bool
IsChoice(const ResolvedKey& a, const AttributeKeyRules& rules)
{
    return !rules.choiceKey.empty() && a.info.name == rules.choiceAttribute &&
           a.kind == AttributeKind::BOOLEAN;
}

/**
 * \param a an attribute with a key
 * \param rules the section's rules
 * \return every key spelling that sets it
 */
std::vector<std::string>
KeysOf(const ResolvedKey& a, const AttributeKeyRules& rules)
{
    if (IsChoice(a, rules))
    {
        return {rules.choiceKey};
    }
    const std::string stem = StemOf(a.info.name, rules);
    const std::vector<KeyUnit> units = UnitsOf(a);
    if (units.empty())
    {
        return {stem};
    }
    std::vector<std::string> keys;
    for (const auto& u : units)
    {
        keys.push_back(stem + u.suffix);
    }
    return keys;
}

/**
 * \param key a key
 * \param rules the section's rules
 * \param res what it sets
 * \return the range the key's number must be in: the schema's range
 *         (section.key; for times that of the same stem in any unit) where
 *         there is one, otherwise the attribute checker's interval
 */
NumberRange
RangeFor(const std::string& key, const AttributeKeyRules& rules, const ResolvedKey& res)
{
    if (res.kind == AttributeKind::TIME)
    {
        const std::string stem = StemOf(res.info.name, rules);
        for (const auto& u : kTimeUnits)
        {
            if (const NumberRange* r = FindRange(rules.section + "." + stem + u.suffix))
            {
                NumberRange out = *r;
                out.min = r->min * r->nsPerUnit / res.unit;
                out.max = r->max * r->nsPerUnit / res.unit;
                out.nsPerUnit = res.unit;
                return out;
            }
        }
    }
    else if (const NumberRange* r = FindRange(rules.section + "." + key))
    {
        return *r;
    }
    NumberRange r;
    if (res.kind == AttributeKind::DATA_RATE)
    {
        r.min = 0;
        r.max = 1e15 / res.unit; // up to a petabit per second
        return r;
    }
    const AttributeBounds b = CheckerBounds(res.info, res.kind);
    switch (res.kind)
    {
    case AttributeKind::UINTEGER:
        return Int(static_cast<uint64_t>(b.min), static_cast<uint64_t>(b.max));
    case AttributeKind::TIME:
        r.kind = NumberRange::Kind::TIME;
        r.nsPerUnit = res.unit;
        r.min = b.min / res.unit;
        r.max = std::min(b.max, kMaxTimeNs) / res.unit;
        return r;
    default: // DOUBLE, INTEGER
        r.min = b.min;
        r.max = b.max;
        r.interval = b.max < DBL_MAX && b.min > -DBL_MAX;
        return r;
    }
}

/**
 * \param a an attribute with a key
 * \param key the key's spelling
 * \param rules the section's rules
 * \param res the key resolved
 * \return the attribute's default, as the key writes it
 */
std::string
DefaultText(const ResolvedKey& a,
            const std::string& key,
            const AttributeKeyRules& rules,
            const ResolvedKey& res)
{
    const auto& initial = a.info.initialValue;
    switch (a.kind)
    {
    case AttributeKind::BOOLEAN: {
        const bool b = DynamicCast<const BooleanValue>(initial)->Get();
        if (key == rules.choiceKey && rules.choiceValues.size() == 2)
        {
            return Quote(rules.choiceValues[b ? 1 : 0]);
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
            res.unit);
    case AttributeKind::DATA_RATE:
        return Num(
            static_cast<double>(DynamicCast<const DataRateValue>(initial)->Get().GetBitRate()) /
            res.unit);
    default:
        return Quote(initial->SerializeToString(a.info.checker));
    }
}

} // namespace

bool
ResolveAttributeKey(TypeId tid,
                    const AttributeKeyRules& rules,
                    const std::string& key,
                    ResolvedKey& out)
{
    for (const auto& a : KeyedAttributes(tid, rules))
    {
        const std::vector<std::string> keys = KeysOf(a, rules);
        const std::vector<KeyUnit> units = IsChoice(a, rules) ? std::vector<KeyUnit>{} : UnitsOf(a);
        for (std::size_t i = 0; i < keys.size(); ++i)
        {
            if (keys[i] == key)
            {
                out = a;
                out.unit = units.empty() ? 1 : units[i].perUnit;
                return true;
            }
        }
    }
    return false;
}

std::vector<std::string>
GetAttributeKeySpellings(TypeId tid, const AttributeKeyRules& rules)
{
    std::vector<std::string> out;
    for (const auto& a : KeyedAttributes(tid, rules))
    {
        for (const auto& k : KeysOf(a, rules))
        {
            if (std::find(out.begin(), out.end(), k) == out.end())
            {
                out.push_back(k);
            }
        }
    }
    return out;
}

std::vector<AttributeKey>
GetAttributeKeys(TypeId tid, const AttributeKeyRules& rules)
{
    std::vector<AttributeKey> keys;
    for (const auto& a : KeyedAttributes(tid, rules))
    {
        const std::vector<std::string> spellings = KeysOf(a, rules);
        // times: the unit of their range in the schema, else the first (us)
        std::string key = spellings.front();
        for (const auto& s : spellings)
        {
            if (FindRange(rules.section + "." + s))
            {
                key = s;
                break;
            }
        }
        ResolvedKey res;
        ResolveAttributeKey(tid, rules, key, res);
        AttributeKey k;
        k.key = key;
        k.attribute = a.info.name;
        k.help = a.info.help;
        k.defaultValue = DefaultText(a, key, rules, res);
        const bool choice = key == rules.choiceKey && IsChoice(a, rules);
        switch (a.kind)
        {
        case AttributeKind::BOOLEAN:
            k.type = choice ? "string" : "boolean";
            if (choice)
            {
                std::vector<std::string> quoted;
                for (const auto& c : rules.choiceValues)
                {
                    quoted.push_back(Quote(c));
                }
                k.range = Join(quoted, " | ");
            }
            else
            {
                k.range = "true | false";
            }
            break;
        case AttributeKind::UINTEGER:
        case AttributeKind::INTEGER:
            k.type = "integer";
            k.range = RangeText(RangeFor(key, rules, res));
            break;
        case AttributeKind::DOUBLE:
            k.type = "number";
            k.range = RangeText(RangeFor(key, rules, res));
            break;
        case AttributeKind::TIME:
            k.type = "time";
            k.range = RangeText(RangeFor(key, rules, res)) + " (unit suffix _ns, _us, _ms or _s)";
            break;
        case AttributeKind::DATA_RATE:
            k.type = "rate";
            k.range = ">= 0 (unit suffix _mbps or _gbps)";
            break;
        case AttributeKind::ENUM: {
            k.type = "string";
            const auto choices = EnumChoices(res.info);
            k.range = choices.empty() ? "a string the attribute accepts" : Join(choices, " | ");
            break;
        }
        default:
            k.type = "string";
            k.range = "a string the attribute accepts";
            break;
        }
        keys.push_back(k);
    }
    return keys;
}

std::string
ConvertAttributeKey(const json& v,
                    const std::string& path,
                    const std::string& key,
                    const AttributeKeyRules& rules,
                    const ResolvedKey& res,
                    double& number)
{
    number = 0;
    std::string text;
    switch (res.kind)
    {
    case AttributeKind::BOOLEAN:
        if (key == rules.choiceKey && IsChoice(res, rules))
        {
            // one of the two values (the schema's "enum", checked)
            text = v.get<std::string>() == rules.choiceValues.back() ? "true" : "false";
        }
        else
        {
            text = ToBool(v, path) ? "true" : "false";
        }
        break;
    case AttributeKind::UINTEGER: {
        const uint64_t u = ToInteger(v, path, RangeFor(key, rules, res));
        number = static_cast<double>(u);
        text = std::to_string(u);
        break;
    }
    case AttributeKind::INTEGER: {
        const NumberRange r = RangeFor(key, rules, res);
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
        number = ToReal(v, path, RangeFor(key, rules, res));
        text = ExactText(number);
        break;
    case AttributeKind::TIME: {
        number = ToReal(v, path, RangeFor(key, rules, res));
        // truncated to whole nanoseconds, as every time key of the scenario
        text = std::to_string(static_cast<int64_t>(number * res.unit)) + "ns";
        break;
    }
    case AttributeKind::DATA_RATE: {
        number = ToReal(v, path, RangeFor(key, rules, res));
        // whole bits per second
        text = std::to_string(static_cast<uint64_t>(std::llround(number * res.unit))) + "bps";
        break;
    }
    case AttributeKind::ENUM:
    case AttributeKind::STRING:
        text = ToString(v, path);
        break;
    case AttributeKind::NONE:
        break;
    }
    const Ptr<AttributeValue> value = res.info.checker->Create();
    if (!value->DeserializeFromString(text, res.info.checker) || !res.info.checker->Check(*value))
    {
        const auto choices =
            res.kind == AttributeKind::ENUM ? EnumChoices(res.info) : std::vector<std::string>();
        Fail(path,
             (res.kind == AttributeKind::ENUM || res.kind == AttributeKind::STRING ? Quote(text)
                                                                                   : Got(v)) +
                 " is not accepted by " + res.owner.GetName() + "::" + res.info.name +
                 (choices.empty() ? "" : " (expected " + Join(choices, " | ") + ")"));
    }
    return text;
}

} // namespace scenario
} // namespace ns3
