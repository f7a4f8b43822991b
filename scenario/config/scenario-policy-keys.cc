/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-policy-keys.h"

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

/// The value types a key can give.
enum class Kind
{
    NONE,     //!< not a scenario key
    BOOLEAN,  //!< BooleanValue
    UINTEGER, //!< UintegerValue
    INTEGER,  //!< IntegerValue
    DOUBLE,   //!< DoubleValue
    TIME,     //!< TimeValue
    ENUM,     //!< EnumValue
    STRING    //!< StringValue
};

/**
 * \param info an attribute
 * \return the kind of value its key takes (NONE: it has no key)
 */
Kind
KindOf(const TypeId::AttributeInformation& info)
{
    if (!(info.flags & TypeId::ATTR_CONSTRUCT) || !info.checker)
    {
        return Kind::NONE;
    }
    // "ns3::DoubleValue", but "BooleanValue" (ATTRIBUTE_CHECKER_IMPLEMENT)
    std::string type = info.checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type;
    }
    if (type == "ns3::BooleanValue")
    {
        return Kind::BOOLEAN;
    }
    if (type == "ns3::UintegerValue")
    {
        return Kind::UINTEGER;
    }
    if (type == "ns3::IntegerValue")
    {
        return Kind::INTEGER;
    }
    if (type == "ns3::DoubleValue")
    {
        return Kind::DOUBLE;
    }
    if (type == "ns3::TimeValue")
    {
        return Kind::TIME;
    }
    if (type == "ns3::EnumValue")
    {
        return Kind::ENUM;
    }
    if (type == "ns3::StringValue")
    {
        return Kind::STRING;
    }
    return Kind::NONE;
}

/**
 * \param camel an attribute name ("MinShare", "EcnKmin", "QPCount")
 * \return it in snake_case ("min_share", "ecn_kmin", "qp_count")
 */
std::string
SnakeCase(const std::string& camel)
{
    std::string out;
    for (size_t i = 0; i < camel.size(); ++i)
    {
        const char c = camel[i];
        const bool upper = std::isupper(static_cast<unsigned char>(c));
        if (upper && i > 0)
        {
            const char prev = camel[i - 1];
            const bool prevLower = std::islower(static_cast<unsigned char>(prev)) ||
                                   std::isdigit(static_cast<unsigned char>(prev));
            const bool nextLower =
                i + 1 < camel.size() && std::islower(static_cast<unsigned char>(camel[i + 1]));
            if (prevLower || (std::isupper(static_cast<unsigned char>(prev)) && nextLower))
            {
                out += '_';
            }
        }
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

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
    Kind kind;                         //!< its value kind
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
            const Kind kind = KindOf(info);
            if (kind != Kind::NONE)
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
    if (a.info.name == kGranularityAttribute && a.kind == Kind::BOOLEAN)
    {
        return {kGranularityKey};
    }
    const std::string stem = StemOf(a.info.name);
    if (a.kind != Kind::TIME)
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
                out.nsPerUnit = a.kind == Kind::TIME ? kTimeUnits[i].nsPerUnit : 1;
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

// --- ranges from checkers ---------------------------------------------------
//
// ns-3's numeric checkers accept a closed interval but do not say which in
// 3.37; the bounds are found by bisection from the attribute's default
// (accepted), over an order-preserving 64-bit key of the value.

/**
 * \param accepts whether the checker accepts the value of a key
 * \param lo lowest key
 * \param known a key that is accepted
 * \return the lowest accepted key
 */
template <typename F>
uint64_t
LowestKey(F accepts, uint64_t lo, uint64_t known)
{
    if (accepts(lo))
    {
        return lo;
    }
    uint64_t hi = known; // accepted; lo is not
    while (hi - lo > 1)
    {
        const uint64_t mid = lo + (hi - lo) / 2;
        (accepts(mid) ? hi : lo) = mid;
    }
    return hi;
}

/**
 * \param accepts whether the checker accepts the value of a key
 * \param known a key that is accepted
 * \param hi highest key
 * \return the highest accepted key
 */
template <typename F>
uint64_t
HighestKey(F accepts, uint64_t known, uint64_t hi)
{
    if (accepts(hi))
    {
        return hi;
    }
    uint64_t lo = known; // accepted; hi is not
    while (hi - lo > 1)
    {
        const uint64_t mid = lo + (hi - lo) / 2;
        (accepts(mid) ? lo : hi) = mid;
    }
    return lo;
}

constexpr uint64_t kSignBit = uint64_t{1} << 63; //!< sign bit of a 64-bit key

/// \return an int64 as an order-preserving key
uint64_t
KeyOf(int64_t v)
{
    return static_cast<uint64_t>(v) ^ kSignBit;
}

/// \return the int64 of a key
int64_t
IntOf(uint64_t k)
{
    return static_cast<int64_t>(k ^ kSignBit);
}

/// \return a double as an order-preserving key
uint64_t
KeyOf(double v)
{
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits & kSignBit ? ~bits : bits | kSignBit;
}

/// \return the double of a key
double
DoubleOf(uint64_t k)
{
    const uint64_t bits = k & kSignBit ? k & ~kSignBit : ~k;
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

/// A numeric attribute's accepted interval.
struct Bounds
{
    double min; //!< lowest (ns for times)
    double max; //!< highest (ns for times)
};

/**
 * \param a a numeric attribute (UINTEGER, INTEGER, DOUBLE or TIME)
 * \return the interval its checker accepts (times in ns)
 */
Bounds
CheckerBounds(const KeyedAttribute& a)
{
    const auto& checker = a.info.checker;
    const auto& initial = a.info.initialValue;
    switch (a.kind)
    {
    case Kind::UINTEGER: {
        auto accepts = [&](uint64_t v) { return checker->Check(UintegerValue(v)); };
        const auto d = DynamicCast<const UintegerValue>(initial);
        const uint64_t known = d ? d->Get() : 0;
        if (!accepts(known))
        {
            return {0, 18446744073709551615.0};
        }
        return {static_cast<double>(LowestKey(accepts, 0, known)),
                static_cast<double>(HighestKey(accepts, known, UINT64_MAX))};
    }
    case Kind::INTEGER: {
        auto accepts = [&](uint64_t k) { return checker->Check(IntegerValue(IntOf(k))); };
        const auto d = DynamicCast<const IntegerValue>(initial);
        const uint64_t known = KeyOf(static_cast<int64_t>(d ? d->Get() : 0));
        if (!accepts(known))
        {
            return {-9223372036854775808.0, 9223372036854775807.0};
        }
        return {static_cast<double>(IntOf(LowestKey(accepts, 0, known))),
                static_cast<double>(IntOf(HighestKey(accepts, known, UINT64_MAX)))};
    }
    case Kind::DOUBLE: {
        auto accepts = [&](uint64_t k) { return checker->Check(DoubleValue(DoubleOf(k))); };
        const auto d = DynamicCast<const DoubleValue>(initial);
        const uint64_t known = KeyOf(d ? d->Get() : 0.0);
        const uint64_t lo = KeyOf(-DBL_MAX);
        const uint64_t hi = KeyOf(DBL_MAX);
        if (!accepts(known))
        {
            return {-DBL_MAX, DBL_MAX};
        }
        return {DoubleOf(LowestKey(accepts, lo, known)), DoubleOf(HighestKey(accepts, known, hi))};
    }
    case Kind::TIME: {
        auto accepts = [&](uint64_t k) { return checker->Check(TimeValue(NanoSeconds(IntOf(k)))); };
        const auto d = DynamicCast<const TimeValue>(initial);
        const uint64_t known = KeyOf(static_cast<int64_t>(d ? d->Get().GetNanoSeconds() : 0));
        const uint64_t lo = KeyOf(static_cast<int64_t>(-kMaxTimeNs));
        const uint64_t hi = KeyOf(static_cast<int64_t>(kMaxTimeNs));
        if (!accepts(known))
        {
            return {0, kMaxTimeNs};
        }
        return {static_cast<double>(IntOf(LowestKey(accepts, lo, known))),
                static_cast<double>(IntOf(HighestKey(accepts, known, hi)))};
    }
    default:
        return {0, 0};
    }
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
    if (a.kind == Kind::TIME)
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
    const Bounds b = CheckerBounds(a);
    NumberRange r;
    switch (a.kind)
    {
    case Kind::UINTEGER:
        return Int(static_cast<uint64_t>(b.min), static_cast<uint64_t>(b.max));
    case Kind::TIME:
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
 * \param r a range
 * \return it as text ("[0, 0.5]", ">= 0")
 */
std::string
RangeText(const NumberRange& r)
{
    if (r.kind == NumberRange::Kind::INTEGER)
    {
        return "[" + std::to_string(r.imin) + ", " + std::to_string(r.imax) + "]";
    }
    const bool noMax =
        r.kind == NumberRange::Kind::TIME ? r.max * r.nsPerUnit >= kMaxTimeNs : r.max >= DBL_MAX;
    if (noMax)
    {
        return (r.minOpen ? "> " : ">= ") + Num(r.min);
    }
    return std::string(r.minOpen ? "(" : "[") + Num(r.min) + ", " + Num(r.max) + "]";
}

/**
 * \param v a double
 * \return it as text that reads back to the same double
 */
std::string
ExactText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
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
    case Kind::BOOLEAN:
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
    case Kind::UINTEGER: {
        const uint64_t u = ToInteger(v, path, RangeFor(key, res));
        number = static_cast<double>(u);
        text = std::to_string(u);
        break;
    }
    case Kind::INTEGER: {
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
    case Kind::DOUBLE:
        number = ToReal(v, path, RangeFor(key, res));
        text = ExactText(number);
        break;
    case Kind::TIME: {
        number = ToReal(v, path, RangeFor(key, res));
        // truncated to whole nanoseconds, as every time key of the scenario
        text = std::to_string(static_cast<int64_t>(number * res.nsPerUnit)) + "ns";
        break;
    }
    case Kind::ENUM:
    case Kind::STRING:
        text = ToString(v, path);
        break;
    case Kind::NONE:
        break;
    }
    const Ptr<AttributeValue> value = a.info.checker->Create();
    if (!value->DeserializeFromString(text, a.info.checker) || !a.info.checker->Check(*value))
    {
        Fail(path,
             (a.kind == Kind::ENUM || a.kind == Kind::STRING ? Quote(text) : Got(v)) +
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
    case Kind::BOOLEAN: {
        const bool b = DynamicCast<const BooleanValue>(initial)->Get();
        if (key == kGranularityKey)
        {
            return b ? "\"chunk\"" : "\"step\"";
        }
        return b ? "true" : "false";
    }
    case Kind::UINTEGER:
        return std::to_string(DynamicCast<const UintegerValue>(initial)->Get());
    case Kind::INTEGER:
        return std::to_string(DynamicCast<const IntegerValue>(initial)->Get());
    case Kind::DOUBLE:
        return Num(DynamicCast<const DoubleValue>(initial)->Get());
    case Kind::TIME:
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
        case Kind::BOOLEAN:
            k.type = key == kGranularityKey ? "string" : "boolean";
            k.range = key == kGranularityKey ? "\"step\" | \"chunk\"" : "true | false";
            break;
        case Kind::UINTEGER:
        case Kind::INTEGER:
            k.type = "integer";
            k.range = RangeText(RangeFor(key, res));
            break;
        case Kind::DOUBLE:
            k.type = "number";
            k.range = RangeText(RangeFor(key, res));
            break;
        case Kind::TIME:
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
