/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-files.h"
#include "hpcc-import.h"
#include "time-units.h"

#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccText");

namespace hpcc
{

using namespace scenario;
namespace fs = std::filesystem;

/// Read a text file as lines of words.
TextFile
ReadText(const std::string& field, const std::string& path)
{
    TextFile f;
    f.field = field;
    f.name = path;
    std::error_code ec;
    if (!fs::exists(path, ec))
    {
        throw ScenarioError(field, path + ": no such file");
    }
    RequireRegularFile(path, "an HPCC text file", field);
    const auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxFileBytes)
    {
        throw ScenarioError(field,
                            path + ": " + std::to_string(size) + " bytes, more than " +
                                std::to_string(kMaxFileBytes));
    }
    std::ifstream in(path);
    if (!in)
    {
        throw ScenarioError(field, path + ": cannot be read");
    }
    std::string text;
    size_t number = 0;
    while (std::getline(in, text))
    {
        ++number;
        if (text.find('\0') != std::string::npos)
        {
            f.Fail(number, "a NUL character (not a text file)");
        }
        std::istringstream words(text);
        Line line{number, {}};
        std::string w;
        while (words >> w)
        {
            line.tokens.push_back(w);
        }
        if (!line.tokens.empty())
        {
            f.lines.push_back(std::move(line));
        }
    }
    return f;
}

/// A whole non-negative integer, or nothing.
std::optional<uint64_t>
ToUint(const std::string& s)
{
    if (s.empty() || s.size() > 19 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return std::nullopt;
    }
    return std::stoull(s);
}

/// A finite number (decimal or exponent form), or nothing.
std::optional<double>
ToReal(const std::string& s)
{
    if (s.empty() || s.size() > 64)
    {
        return std::nullopt;
    }
    const char* begin = s.c_str();
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (end != begin + s.size() || errno == ERANGE || !std::isfinite(v) ||
        s.find_first_of("xXnN") != std::string::npos) // no hex, nan or inf
    {
        return std::nullopt;
    }
    return v;
}

/// "12.5" -> 12.5 and "Gbps" (a number followed by a unit).
bool
SplitUnit(const std::string& text, double& number, std::string& unit)
{
    size_t i = 0;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == '-' ||
            text[i] == '+' ||
            ((text[i] == 'e' || text[i] == 'E') && i > 0 && i + 1 < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' ||
              text[i + 1] == '+'))))
    {
        ++i;
    }
    const auto v = ToReal(text.substr(0, i));
    if (!v)
    {
        return false;
    }
    number = *v;
    unit = text.substr(i);
    return true;
}

/// The nearest InfiniBand path MTU to a payload size.
uint32_t
NearestMtu(uint64_t payload)
{
    uint32_t best = 256;
    for (uint32_t m : {256u, 512u, 1024u, 2048u, 4096u})
    {
        const uint64_t d = payload > m ? payload - m : m - payload;
        const uint64_t bd = payload > best ? payload - best : best - payload;
        if (d < bd)
        {
            best = m;
        }
    }
    return best;
}

/// A number as JSON keeps it: integral values as integers.
json
Number(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 9e15)
    {
        return static_cast<int64_t>(v);
    }
    return v;
}

} // namespace hpcc

using namespace hpcc;

std::optional<double>
ParseHpccRate(const std::string& text)
{
    double number = 0;
    std::string unit;
    if (!SplitUnit(text, number, unit) || number < 0)
    {
        return std::nullopt;
    }
    if (unit.empty())
    {
        return number;
    }
    // prefix, then b (bit) or B (byte), then "ps" or "/s"
    static const std::map<std::string, double> kPrefixes = {{"", 1},
                                                            {"k", 1e3},
                                                            {"K", 1e3},
                                                            {"M", 1e6},
                                                            {"G", 1e9},
                                                            {"T", 1e12},
                                                            {"Ki", 1024.0},
                                                            {"Mi", 1048576.0},
                                                            {"Gi", 1073741824.0}};
    std::string rest;
    double perSecond = 0;
    if (unit.size() >= 3 && (unit.compare(unit.size() - 2, 2, "ps") == 0 ||
                             unit.compare(unit.size() - 2, 2, "/s") == 0))
    {
        rest = unit.substr(0, unit.size() - 2);
        perSecond = 1;
    }
    if (perSecond == 0 || rest.empty())
    {
        return std::nullopt;
    }
    const char kind = rest.back();
    if (kind != 'b' && kind != 'B')
    {
        return std::nullopt;
    }
    const auto prefix = kPrefixes.find(rest.substr(0, rest.size() - 1));
    if (prefix == kPrefixes.end())
    {
        return std::nullopt;
    }
    return number * prefix->second * (kind == 'B' ? 8 : 1);
}

std::optional<double>
ParseHpccTimeNs(const std::string& text)
{
    double number = 0;
    std::string unit;
    if (!SplitUnit(text, number, unit))
    {
        return std::nullopt;
    }
    const double scale = scenario::TimeUnitNs(unit);
    if (scale == 0)
    {
        return std::nullopt;
    }
    return number * scale;
}

uint32_t
HpccNodeAddress(uint32_t nodeId)
{
    return 0x0b000001u + (nodeId / 256) * 0x00010000u + (nodeId % 256) * 0x00000100u;
}

} // namespace ns3
