/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-reader.h"

#include "ns3/log.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioReader");

namespace scenario
{

using json = nlohmann::json;

uint64_t
ToInteger(const json& v, const std::string& path, const NumberRange& range)
{
    if (!v.is_number())
    {
        TypeFail(path, "an integer", v);
    }
    const std::string got = Got(v);
    const std::string atLeast = "must be at least " + std::to_string(range.imin) + ", got " + got;
    const std::string atMost = "must be at most " + std::to_string(range.imax) + ", got " + got;
    if (v.is_number_float())
    {
        const double d = v.get<double>();
        if (!std::isfinite(d))
        {
            Fail(path, "expected an integer, got a number too large to represent");
        }
        if (d != std::floor(d))
        {
            TypeFail(path, "an integer", v);
        }
        if (d < static_cast<double>(range.imin))
        {
            Fail(path, atLeast);
        }
        // 2^64 and above do not convert; compare in double first.
        if (d >= 18446744073709551616.0 || static_cast<uint64_t>(d) > range.imax)
        {
            Fail(path, atMost);
        }
        return static_cast<uint64_t>(d);
    }
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    {
        Fail(path, atLeast);
    }
    const uint64_t u = v.get<uint64_t>();
    if (u < range.imin)
    {
        Fail(path, atLeast);
    }
    if (u > range.imax)
    {
        Fail(path, atMost);
    }
    return u;
}

double
ToReal(const json& v, const std::string& path, const NumberRange& range)
{
    if (!v.is_number())
    {
        TypeFail(path, "a number", v);
    }
    const double d = v.get<double>();
    const std::string got = ", got " + Num(d);
    if (!std::isfinite(d))
    {
        Fail(path, "expected a finite number, got a number too large to represent");
    }
    const bool below = range.minOpen ? !(d > range.min) : !(d >= range.min);
    const bool above = d > range.max;
    if (range.interval && (below || above))
    {
        Fail(path,
             "must be in " + std::string(range.minOpen ? "(" : "[") + Num(range.min) + ", " +
                 Num(range.max) + "]" + got);
    }
    if (below)
    {
        if (range.min == 0)
        {
            Fail(path, (range.minOpen ? "must be positive" : "must not be negative") + got);
        }
        if (range.kind == NumberRange::Kind::TIME && range.min * range.nsPerUnit == 1 && d > 0)
        {
            std::ostringstream ns; // 0.000001 (ms), 0.001 (us)
            ns << std::fixed << std::setprecision(std::lround(std::log10(range.nsPerUnit)))
               << range.min;
            Fail(path, "must be positive and at least 1 ns (" + ns.str() + ")" + got);
        }
        if (d <= 0 && range.min > 0)
        {
            Fail(path, "must be positive" + got);
        }
        Fail(path, "must be at least " + Num(range.min) + got);
    }
    if (range.kind == NumberRange::Kind::TIME && d > 0 && d * range.nsPerUnit < 1)
    {
        // (whole nanoseconds: it would be 0, which many keys read as "off")
        Fail(path, "must be 0 or at least 1 ns, the simulator's time step" + got);
    }
    if (above)
    {
        Fail(path,
             "must be at most " + Num(range.max) +
                 (range.kind == NumberRange::Kind::TIME &&
                          range.max * range.nsPerUnit >= kMaxTimeNs * (1 - 1e-9)
                      ? " (the longest simulated time, 10^15 ns)"
                      : std::string()) +
                 got);
    }
    return d;
}

bool
ToBool(const json& v, const std::string& path)
{
    if (!v.is_boolean())
    {
        TypeFail(path, "true or false", v);
    }
    return v.get<bool>();
}

std::string
ToString(const json& v, const std::string& path)
{
    if (!v.is_string())
    {
        TypeFail(path, "a string", v);
    }
    return v.get<std::string>();
}

std::string
ToOneOf(const json& v, const std::string& path, const std::vector<std::string>& known)
{
    const std::string s = ToString(v, path);
    if (std::find(known.begin(), known.end(), s) == known.end())
    {
        Fail(path, NotKnown(s, known));
    }
    return s;
}

uint32_t
ToHost(const json& v, const std::string& path, uint32_t count, const std::string& what)
{
    const uint64_t h = ToInteger(v, path, Int(0, kU64Max));
    if (h >= count)
    {
        Fail(path,
             what + " " + std::to_string(h) + " is out of range (the topology has " +
                 std::to_string(count) + " " + what + "s: 0.." + std::to_string(count - 1) + ")");
    }
    return static_cast<uint32_t>(h);
}

std::vector<uint32_t>
ToHostList(const json& v, const std::string& path, uint32_t count, const std::string& what)
{
    std::vector<uint32_t> hosts;
    std::set<uint32_t> seen;
    for (size_t i = 0; i < v.size(); ++i)
    {
        const uint32_t h = ToHost(v[i], Index(path, i), count, what);
        if (!seen.insert(h).second)
        {
            Fail(Index(path, i), what + " " + std::to_string(h) + " is listed twice");
        }
        hosts.push_back(h);
    }
    return hosts;
}

std::string
UnknownKeyProblem(const std::string& key, const std::vector<std::string>& keys)
{
    // a key without its unit: the first spelling listed, the usual unit
    // ("t_low" -> "t_low_us", not the nearer "t_low_s")
    for (const auto& k : keys)
    {
        if (k.size() > key.size() + 1 && k.size() <= key.size() + 5 && k.rfind(key + "_", 0) == 0)
        {
            return "unknown key (did you mean " + Quote(k) + "?)";
        }
    }
    const std::string best = NearestName(key, keys);
    return best.empty() ? "unknown key" : "unknown key (did you mean " + Quote(best) + "?)";
}

ObjectReader::ObjectReader(const json& v, std::string path)
    : m_v(v),
      m_path(std::move(path))
{
}

ObjectReader::ObjectReader(const json& v,
                           std::string path,
                           const std::vector<std::string>& keys,
                           const std::vector<std::string>& otherKeys,
                           const std::string& otherNote)
    : ObjectReader(v, std::move(path))
{
    if (!v.is_object())
    {
        TypeFail(m_path, "an object", v);
    }
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& key = it.key();
        if (std::find(keys.begin(), keys.end(), key) != keys.end())
        {
            continue;
        }
        const bool other = std::find(otherKeys.begin(), otherKeys.end(), key) != otherKeys.end();
        Fail(Path(key), other ? "unknown key (" + otherNote + ")" : UnknownKeyProblem(key, keys));
    }
}

bool
ObjectReader::Has(const std::string& key) const
{
    return m_v.contains(key);
}

const json&
ObjectReader::operator[](const std::string& key) const
{
    return m_v.at(key);
}

const json&
ObjectReader::Required(const std::string& key) const
{
    if (!Has(key))
    {
        Fail(Path(key), "required");
    }
    return m_v.at(key);
}

std::string
ObjectReader::Path(const std::string& key) const
{
    return Child(m_path, key);
}

bool
ObjectReader::Read(const std::string& key, std::optional<double>& out) const
{
    if (!Has(key))
    {
        return false;
    }
    out = m_v.at(key).get<double>();
    return true;
}

const std::string&
ObjectReader::GetPath() const
{
    return m_path;
}

} // namespace scenario
} // namespace ns3
