/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-json.h"

#include "scenario-error.h"
#include "scenario-limits.h"

#include "ns3/log.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioJson");

namespace scenario
{

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// Messages: every failure names the path of its field.
// ---------------------------------------------------------------------------

[[noreturn]] void
Fail(const std::string& path, const std::string& problem)
{
    throw ScenarioError(path, problem);
}

std::string
Quote(const std::string& s)
{
    // replace: a string cut inside a UTF-8 sequence still prints; DEL,
    // which JSON leaves as it is, is escaped so that the line shows it
    std::string q = json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    for (auto at = q.find('\x7f'); at != std::string::npos; at = q.find('\x7f', at))
    {
        q.replace(at, 1, "\\u007f");
    }
    return q;
}

std::string
Num(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    {
        return std::to_string(static_cast<long long>(v));
    }
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

/// A short description of a JSON value for "got ..." in messages.
std::string
Describe(const json& v)
{
    switch (v.type())
    {
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::null:
        return "null";
    case json::value_t::string: {
        const auto& s = v.get_ref<const std::string&>();
        return s.size() > 40 ? Quote(s.substr(0, 40) + "...") : Quote(s);
    }
    default:
        return v.dump();
    }
}

std::string
Child(const std::string& path, const std::string& key)
{
    // Keys that would make the path ambiguous or not one line are written
    // as JSON strings in brackets: jobs[0]["a.b"], topology[""].
    const bool plain = !key.empty() && std::none_of(key.begin(), key.end(), [](char c) {
        return std::strchr(".[]\": ", c) != nullptr || static_cast<unsigned char>(c) < 0x20 ||
               c == 0x7f;
    });
    if (!plain)
    {
        return path + "[" + Quote(key) + "]";
    }
    return path.empty() ? key : path + "." + key;
}

std::string
Index(const std::string& path, size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

uint32_t
SetRoot(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string
NearestName(const std::string& word, const std::vector<std::string>& names)
{
    std::string best;
    size_t bestDistance = 3;
    for (const auto& name : names)
    {
        const size_t d = EditDistance(word, name);
        if (d < bestDistance)
        {
            best = name;
            bestDistance = d;
        }
    }
    return best;
}

std::string
NotKnown(const std::string& word,
         const std::vector<std::string>& names,
         const std::string& what,
         const std::string& note)
{
    const std::string nearest = NearestName(word, names);
    return Quote(word) + " is not " + (what.empty() ? "known" : "a known " + what) + " (" +
           (nearest.empty() ? "" : "did you mean " + Quote(nearest) + "?; ") +
           "known: " + Join(names) + (note.empty() ? "" : "; " + note) + ")";
}

[[noreturn]] void
TypeFail(const std::string& path, const std::string& expected, const json& v)
{
    Fail(path, "expected " + expected + ", got " + Describe(v));
}

/// The text of a number for messages ("got ...").
std::string
Got(const json& v)
{
    if (v.is_number_float())
    {
        return Num(v.get<double>());
    }
    return v.dump();
}
} // namespace scenario

using scenario::Child;
using scenario::Fail;
using scenario::kMaxNesting;
using json = nlohmann::json;

nlohmann::json
ParseScenarioText(const std::string& text, const std::string& source)
{
    // Objects and arrays being parsed, to name the path of a duplicate key.
    struct Frame
    {
        bool array;                 //!< array (else object)
        size_t index;               //!< array: index of the current element
        std::string key;            //!< object: the current key
        std::set<std::string> keys; //!< object: keys seen so far
    };

    std::vector<Frame> stack;
    auto pathOf = [&stack]() {
        std::string p;
        for (const auto& f : stack)
        {
            if (f.array)
            {
                p += "[" + std::to_string(f.index) + "]";
            }
            else
            {
                p = Child(p, f.key);
            }
        }
        return p;
    };
    auto valueDone = [&stack]() {
        if (!stack.empty() && stack.back().array)
        {
            ++stack.back().index;
        }
    };
    json::parser_callback_t callback =
        [&](int /* depth */, json::parse_event_t event, json& parsed) -> bool {
        switch (event)
        {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (stack.size() >= kMaxNesting)
            {
                const std::string path = pathOf();
                Fail(path.empty() ? source : path,
                     "nested too deeply (more than " + std::to_string(kMaxNesting) +
                         " levels of objects and arrays)");
            }
            stack.push_back(Frame{event == json::parse_event_t::array_start, 0, "", {}});
            break;
        case json::parse_event_t::key: {
            auto& top = stack.back();
            top.key = parsed.get<std::string>();
            if (!top.keys.insert(top.key).second)
            {
                Fail(pathOf(), "duplicate key");
            }
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            stack.pop_back();
            valueDone();
            break;
        case json::parse_event_t::value:
            valueDone();
            break;
        }
        return true;
    };

    const auto nul = text.find('\0');
    if (nul != std::string::npos)
    {
        Fail(source, "a NUL byte at byte " + std::to_string(nul) + ": the file is not JSON text");
    }
    try
    {
        return json::parse(text, callback, true, false);
    }
    catch (const json::parse_error& e)
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: <detail>"
        static const std::regex pattern("parse error at line ([0-9]+), column ([0-9]+): (.*)");
        std::smatch m;
        const std::string what = e.what();
        if (std::regex_search(what, m, pattern))
        {
            Fail(source, "line " + m[1].str() + ", column " + m[2].str() + ": " + m[3].str());
        }
        Fail(source, "invalid JSON at byte " + std::to_string(e.byte) + ": " + what);
    }
    catch (const json::out_of_range& e)
    {
        // A number beyond the range of double (1e400): name the key it is for.
        const std::string path = pathOf();
        static const std::regex pattern("number overflow parsing '(.*)'");
        std::smatch m;
        const std::string what = e.what();
        Fail(path.empty() ? source : path,
             std::regex_search(what, m, pattern)
                 ? "the number " + m[1].str().substr(0, 40) + " is too large to represent"
                 : what);
    }
    catch (const json::exception& e)
    {
        Fail(source, e.what());
    }
}

void
RequireRegularFile(const std::string& path, const std::string& what, const std::string& field)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string problem;
    switch (fs::status(path, ec).type())
    {
    case fs::file_type::regular:
    case fs::file_type::not_found:
    case fs::file_type::none: // (cannot be examined: opening it says why)
        return;
    case fs::file_type::directory:
        problem = "is a folder, not " + what;
        break;
    case fs::file_type::fifo:
        problem = "is a FIFO, not a regular file";
        break;
    case fs::file_type::character:
        problem = "is a character device, not a regular file";
        break;
    case fs::file_type::block:
        problem = "is a block device, not a regular file";
        break;
    case fs::file_type::socket:
        problem = "is a socket, not a regular file";
        break;
    default:
        problem = "is not a regular file";
        break;
    }
    if (field.empty())
    {
        Fail(path, problem);
    }
    Fail(field, path + ": " + problem);
}

nlohmann::json
ReadScenarioJson(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        Fail(path, "cannot read the file (it is a folder)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path, std::string("cannot read the file (") + std::strerror(errno) + ")");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        Fail(path, "cannot read the file");
    }
    return ParseScenarioText(text.str(), path);
}

} // namespace ns3
