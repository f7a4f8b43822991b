/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"
#include "scenario-sections.h"

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/scenario-json.h"
#include "ns3/string.h"
#include "ns3/time-units.h"
#include "ns3/traffic-class.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioNs3Defaults");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/// Attribute value types that ns3_defaults accepts (their parsing is safe).
const std::vector<std::string> kSettableTypes = {"StringValue",
                                                 "BooleanValue",
                                                 "EnumValue",
                                                 "DoubleValue",
                                                 "IntegerValue",
                                                 "UintegerValue",
                                                 "TimeValue",
                                                 "DataRateValue",
                                                 "QueueSizeValue"};

bool
IsSettableType(const std::string& type)
{
    return std::find(kSettableTypes.begin(), kSettableTypes.end(), type) != kSettableTypes.end();
}

/**
 * \param text an Order attribute of a class-ordered queue disc or arbiter
 * \return true for distinct classes 0..7 (TrafficClass::ParseOrder)
 */
bool
IsClassOrder(const std::string& text)
{
    std::vector<uint8_t> order;
    uint8_t seen = 0;
    if (!TrafficClass::ParseOrder(text, order))
    {
        return false;
    }
    for (uint8_t c : order)
    {
        if (seen & TrafficClass::Bit(c))
        {
            return false;
        }
        seen |= TrafficClass::Bit(c);
    }
    return true;
}

/**
 * \brief The leading number of a DataRate or QueueSize string, as ns-3
 * reads it (the characters "0123456789." up to the unit), and the power of
 * 1024 its unit's prefix may stand for (k/K 1, M 2, G 3).
 * \param text the value
 * \param number receives the number
 * \param scale receives 1024^prefix, times 8 when the unit counts bytes
 *        and bytesTimes8
 * \param bytesTimes8 whether a unit with "B" counts 8 per unit (rates)
 * \return false when there is no number
 */
bool
LeadingNumber(const std::string& text, double& number, double& scale, bool bytesTimes8)
{
    const auto n = text.find_first_not_of("0123456789.");
    const std::string digits = text.substr(0, n);
    if (digits.empty() || digits == ".")
    {
        return false;
    }
    number = std::strtod(digits.c_str(), nullptr);
    scale = 1;
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    if (!unit.empty())
    {
        const char prefix = unit[0];
        scale = prefix == 'k' || prefix == 'K' ? 1024.0
                : prefix == 'M'                ? 1048576.0
                : prefix == 'G'                ? 1073741824.0
                                               : 1.0;
        if (bytesTimes8 && unit.find('B') != std::string::npos)
        {
            scale *= 8;
        }
    }
    return std::isfinite(number);
}

/**
 * \brief Whether an attribute value text is one that ns-3 parses without
 * aborting or overflowing, before its checker sees it: the syntax of the
 * type, finite numbers, times within 10^15 ns (as the scenario's own
 * times), rates up to 10 Tb/s, queue sizes that fit 32 bits.
 * \param type the value type ("TimeValue", ...)
 * \param text the value
 * \return true when it is safe to hand to the checker
 */
bool
IsSafeAttributeText(const std::string& type, const std::string& text)
{
    static const std::regex integer("[+-]?[0-9]{1,18}");
    static const std::regex real("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?");
    static const std::regex time("([+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?)"
                                 "(s|ms|us|ns|ps|fs|min|h|d|y)?");
    std::smatch m;
    if (type == "IntegerValue" || type == "UintegerValue")
    {
        return std::regex_match(text, integer);
    }
    if (type == "DoubleValue")
    {
        return std::regex_match(text, real) && std::isfinite(std::strtod(text.c_str(), nullptr));
    }
    if (type == "TimeValue")
    {
        if (!std::regex_match(text, m, time))
        {
            return false;
        }
        const double ns = std::strtod(m[1].str().c_str(), nullptr) * TimeUnitNs(m[4].str());
        return std::isfinite(ns) && std::fabs(ns) <= kMaxTimeNs;
    }
    double number = 0;
    double scale = 1;
    // (ns-3 reads a rate or a size as one word and aborts on anything after it)
    if ((type == "DataRateValue" || type == "QueueSizeValue") &&
        text.find_first_of(" \t\n\v\f\r") != std::string::npos)
    {
        return false;
    }
    if (type == "DataRateValue")
    {
        return LeadingNumber(text, number, scale, true) && number * scale <= kMaxGbps * 1.1e9;
    }
    if (type == "QueueSizeValue")
    {
        return LeadingNumber(text, number, scale, false) && number * scale <= kU32Max;
    }
    return true;
}

/// String attributes whose text is parsed when an object is created: how
/// to check it first ("order": a class order, "time": an ns-3 time).
const std::map<std::string, std::string> kParsedStringAttributes = {
    {"ns3::ClassQpArbiter::Order", "order"},
    {"ns3::FluxQueueDisc::Order", "order"},
    {"ns3::FqCoDelQueueDisc::Interval", "time"},
    {"ns3::FqCoDelQueueDisc::Target", "time"},
    {"ns3::FqCobaltQueueDisc::Interval", "time"},
    {"ns3::FqCobaltQueueDisc::Target", "time"},
};

/// Global values a scenario may not set, and why.
const std::map<std::string, std::string> kFixedGlobals = {
    {"RngSeed", "is set by the scenario's \"seed\""},
    {"RngRun", "is set by the scenario's \"seed\""},
    {"SimulatorImplementationType", "is fixed by the runner (the default simulator)"},
};

/**
 * \brief Whether a value is valid for an attribute, checked without letting
 * ns-3 abort: safe text (IsSafeAttributeText), the module's parsed strings
 * (kParsedStringAttributes), then the attribute's checker.
 * \param name the attribute's full name "ns3::Type::Attribute" (or a global)
 * \param type its value type without "ns3::"
 * \param checker its checker
 * \param text the value
 * \return true when the value can be set
 */
bool
IsValidAttributeValue(const std::string& name,
                      const std::string& type,
                      const Ptr<const AttributeChecker>& checker,
                      const std::string& text)
{
    const auto parsed = kParsedStringAttributes.find(name);
    if (parsed != kParsedStringAttributes.end() &&
        !(parsed->second == "order" ? IsClassOrder(text) : IsSafeAttributeText("TimeValue", text)))
    {
        return false;
    }
    try
    {
        if (!IsSettableType(type) || !IsSafeAttributeText(type, text))
        {
            return false;
        }
        Ptr<AttributeValue> value = checker->CreateValidValue(StringValue(text));
        if (!value)
        {
            return false;
        }
        // What ns-3 made of the text must be in range too (its own parsers
        // wrap out-of-range numbers instead of refusing them).
        if (type == "DataRateValue")
        {
            const auto* rate = dynamic_cast<const DataRateValue*>(PeekPointer(value));
            return rate && rate->Get().GetBitRate() <= kMaxGbps * 1e9;
        }
        return true;
    }
    catch (const std::exception&)
    {
        return false;
    }
}

/// Factory attributes a scenario may set, with the base type they make.
const std::map<std::string, std::string> kFactoryAttributes = {
    {"ns3::FabricSwitch::QueueDiscFactory", "ns3::QueueDisc"},
    {"ns3::RdmaNic::QpArbiter", "ns3::RdmaQpArbiter"},
    {"ns3::RdmaNic::CongestionControl", "ns3::RdmaCongestionControl"},
};

/**
 * \brief Check an ObjectFactory value, "ns3::Type" or "ns3::Type[a=v|b=w]",
 * before ns-3 sees it (ns-3 aborts on an unknown type or attribute).
 * \param name the attribute's full name
 * \param text the value
 * \param path the field, for messages
 */
void
CheckFactory(const std::string& name, const std::string& text, const std::string& path)
{
    const auto base = kFactoryAttributes.find(name);
    if (base == kFactoryAttributes.end())
    {
        std::vector<std::string> names;
        for (const auto& [n, b] : kFactoryAttributes)
        {
            names.push_back(n);
        }
        Fail(path, "object factories can be set only for " + Join(names));
    }
    if (text.find_first_of(" \t\n") != std::string::npos)
    {
        Fail(path, "an object factory takes no spaces (separate list items with commas)");
    }
    const auto open = text.find('[');
    const std::string typeName = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        Fail(path, "no ns-3 type is named " + Quote(typeName));
    }
    if (!tid.IsChildOf(TypeId::LookupByName(base->second)) || !tid.HasConstructor())
    {
        Fail(path, Quote(typeName) + " is not a " + base->second + " that can be created");
    }
    if (open == std::string::npos)
    {
        return;
    }
    if (text.back() != ']')
    {
        Fail(path, Quote(text) + " is not \"Type\" or \"Type[attribute=value|...]\"");
    }
    const std::string list = text.substr(open + 1, text.size() - open - 2);
    std::size_t start = 0;
    while (start <= list.size() && !list.empty())
    {
        const auto bar = list.find('|', start);
        const std::string item = list.substr(start, bar == std::string::npos ? bar : bar - start);
        const auto eq = item.find('=');
        if (eq == std::string::npos)
        {
            Fail(path, Quote(item) + " is not attribute=value");
        }
        const std::string attr = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(attr, &info))
        {
            Fail(path, typeName + " has no attribute " + Quote(attr));
        }
        std::string type = info.checker->GetValueTypeName();
        if (type.rfind("ns3::", 0) == 0)
        {
            type = type.substr(5);
        }
        if (attr == "Order" && !IsClassOrder(value))
        {
            Fail(path,
                 Quote(value) + " is not a class order (distinct classes 0..7 separated by "
                                "commas, e.g. 3,2,1)");
        }
        if (!IsValidAttributeValue(typeName + "::" + attr, type, info.checker, value))
        {
            Fail(path, Quote(value) + " is not a valid value of " + typeName + "::" + attr);
        }
        if (bar == std::string::npos)
        {
            break;
        }
        start = bar + 1;
    }
}

} // namespace

void
ParseNs3Defaults(const json& v, ScenarioConfig& cfg)
{
    const std::string base = "ns3_defaults";
    if (!v.is_object())
    {
        TypeFail(base, "an object", v);
    }
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& name = it.key();
        const std::string path = base + "[" + Quote(name) + "]";
        const json& value = it.value();
        std::string text;
        if (value.is_string())
        {
            text = value.get<std::string>();
        }
        else if (value.is_boolean())
        {
            text = value.get<bool>() ? "true" : "false";
        }
        else if (value.is_number())
        {
            text = value.dump();
        }
        else
        {
            TypeFail(path, "a string, a number or true/false", value);
        }

        const auto key = cfg.transport.keyAttributes.find(name);
        if (key != cfg.transport.keyAttributes.end())
        {
            Fail(path, key->second + " sets this attribute too: give one of them");
        }
        if (name == "ns3::RdmaNic::CongestionControl" && cfg.transport.ccGiven)
        {
            Fail(path, "transport.cc chooses the congestion control too: give one of them");
        }
        Ptr<const AttributeChecker> checker;
        const auto sep = name.rfind("::");
        if (sep == std::string::npos)
        {
            const auto fixed = kFixedGlobals.find(name);
            if (fixed != kFixedGlobals.end())
            {
                Fail(path, fixed->second);
            }
            for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
            {
                if ((*g)->GetName() == name)
                {
                    checker = (*g)->GetChecker();
                }
            }
            if (!checker)
            {
                Fail(path,
                     "no ns-3 global value has this name (attributes are "
                     "written \"ns3::TypeName::Attribute\")");
            }
        }
        else
        {
            const std::string typeName = name.substr(0, sep);
            const std::string attrName = name.substr(sep + 2);
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(typeName, &tid))
            {
                Fail(path, "no ns-3 type is named " + Quote(typeName));
            }
            TypeId::AttributeInformation info;
            if (!tid.LookupAttributeByName(attrName, &info))
            {
                Fail(path, typeName + " has no attribute " + Quote(attrName));
            }
            if (!(info.flags & TypeId::ATTR_CONSTRUCT))
            {
                Fail(path, "the attribute cannot be set at construction");
            }
            checker = info.checker;
        }
        std::string type = checker->GetValueTypeName();
        if (type.rfind("ns3::", 0) == 0)
        {
            type = type.substr(5);
        }
        if (type == "ObjectFactoryValue")
        {
            CheckFactory(name, text, path);
            cfg.ns3Defaults[name] = text;
            continue;
        }
        if (!IsSettableType(type))
        {
            Fail(path, "attributes of type " + type + " cannot be set from a scenario");
        }
        if (name == "ns3::PfcWatchdog::Action" && !PfcWatchdog::IsActionName(text))
        {
            Fail(path, NotKnown(text, kPfcWatchdogActions));
        }
        // ns-3 aborts the process on some malformed numbers and times:
        // IsValidAttributeValue checks them before ns-3 parses them.
        if (!IsValidAttributeValue(name, type, checker, text))
        {
            Fail(path,
                 Quote(text) + " is not a valid value (expected " + type +
                     (checker->HasUnderlyingTypeInformation()
                          ? ": " + checker->GetUnderlyingTypeInformation()
                          : std::string()) +
                     ")");
        }
        cfg.ns3Defaults[name] = text;
    }
}

} // namespace scenario
} // namespace ns3
