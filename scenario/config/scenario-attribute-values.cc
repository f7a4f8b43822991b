/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-attribute-values.h"

#include "scenario-keys.h"

#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/scenario-json.h"
#include "ns3/uinteger.h"

#include <cctype>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioAttributeValues");

namespace scenario
{

/**
 * \param info an attribute
 * \return the kind of value its key takes (NONE: it has no key)
 */
AttributeKind
KindOf(const TypeId::AttributeInformation& info)
{
    if (!(info.flags & TypeId::ATTR_CONSTRUCT) || !info.checker)
    {
        return AttributeKind::NONE;
    }
    // "ns3::DoubleValue", but "BooleanValue" (ATTRIBUTE_CHECKER_IMPLEMENT)
    std::string type = info.checker->GetValueTypeName();
    if (type.rfind("ns3::", 0) != 0)
    {
        type = "ns3::" + type;
    }
    if (type == "ns3::BooleanValue")
    {
        return AttributeKind::BOOLEAN;
    }
    if (type == "ns3::UintegerValue")
    {
        return AttributeKind::UINTEGER;
    }
    if (type == "ns3::IntegerValue")
    {
        return AttributeKind::INTEGER;
    }
    if (type == "ns3::DoubleValue")
    {
        return AttributeKind::DOUBLE;
    }
    if (type == "ns3::TimeValue")
    {
        return AttributeKind::TIME;
    }
    // (ns-3 3.41 and later name it after its type: "ns3::EnumValue<T>")
    if (type == "ns3::EnumValue" || type.rfind("ns3::EnumValue<", 0) == 0)
    {
        return AttributeKind::ENUM;
    }
    if (type == "ns3::StringValue")
    {
        return AttributeKind::STRING;
    }
    if (type == "ns3::DataRateValue")
    {
        return AttributeKind::DATA_RATE;
    }
    return AttributeKind::NONE;
}

namespace
{

// The bounds are found over 64-bit keys that keep the values' order.

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

} // namespace

AttributeBounds
CheckerBounds(const TypeId::AttributeInformation& info, AttributeKind kind)
{
    const auto& checker = info.checker;
    const auto& initial = info.initialValue;
    switch (kind)
    {
    case AttributeKind::UINTEGER: {
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
    case AttributeKind::INTEGER: {
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
    case AttributeKind::DOUBLE: {
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
    case AttributeKind::TIME: {
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

} // namespace scenario
} // namespace ns3
