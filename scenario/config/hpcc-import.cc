/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-import.h"

#include "scenario-error.h"
#include "scenario-json.h"
#include "scenario-keys.h"

#include "ns3/log.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/type-id.h"

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

NS_LOG_COMPONENT_DEFINE("HpccImport");

using json = nlohmann::json;
using namespace scenario;

namespace
{

namespace fs = std::filesystem;

/// Largest file read (a flow file of a few million flows).
constexpr uintmax_t kMaxFileBytes = uintmax_t{1} << 30;

/// One non-blank line of a file, split at white space.
struct Line
{
    size_t number;                   //!< 1-based line number
    std::vector<std::string> tokens; //!< its words
};

/// A file being read: its name in messages, its field and its lines.
struct TextFile
{
    std::string field;       //!< scenario field it came from ("hpcc.flows")
    std::string name;        //!< its path, as messages give it
    std::vector<Line> lines; //!< its non-blank lines
    size_t next{0};          //!< the next line to read

    /// Throw a ScenarioError about one line.
    [[noreturn]] void Fail(size_t line, const std::string& message) const
    {
        throw ScenarioError(field, name + " line " + std::to_string(line) + ": " + message);
    }

    /// Throw a ScenarioError about the file as a whole.
    [[noreturn]] void FailFile(const std::string& message) const
    {
        throw ScenarioError(field, name + ": " + message);
    }

    /**
     * \param what what the line must hold, for the message
     * \param columns its number of words (0: any)
     * \return the next line
     */
    const Line& Take(const std::string& what, size_t columns)
    {
        if (next >= lines.size())
        {
            const size_t last = lines.empty() ? 0 : lines.back().number;
            Fail(last + 1, "the file ends where " + what + " should be");
        }
        const Line& l = lines[next++];
        if (columns > 0 && l.tokens.size() != columns)
        {
            Fail(l.number,
                 "expected " + std::to_string(columns) + " columns (" + what + "), got " +
                     std::to_string(l.tokens.size()));
        }
        return l;
    }

    /// \return the non-blank lines not read
    size_t Unread() const
    {
        return lines.size() - std::min(next, lines.size());
    }
};

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
    if (!fs::is_regular_file(path, ec))
    {
        throw ScenarioError(field, path + ": not a regular file");
    }
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

/// The topology file, checked.
struct Topology
{
    /// One cable.
    struct Cable
    {
        uint32_t a;     //!< one end
        uint32_t b;     //!< the other end
        double bps;     //!< rate
        double delayNs; //!< delay
        double error;   //!< packet error rate
        size_t line;    //!< its line
    };

    uint32_t nodes{0};                                       //!< node count
    std::vector<uint32_t> switches;                          //!< switch ids, as listed
    std::vector<bool> isSwitch;                              //!< per node
    std::vector<int64_t> hostIndex;                          //!< per node: host index, or -1
    std::vector<Cable> cables;                               //!< the cables
    std::vector<uint32_t> component;                         //!< per node: its connected part
    std::map<std::pair<uint32_t, uint32_t>, size_t> cableOf; //!< node pair -> cable
    size_t unread{0};                                        //!< non-blank lines after the cables
};

uint32_t
Find(std::vector<uint32_t>& parent, uint32_t x)
{
    while (parent[x] != x)
    {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

Topology
ReadTopology(TextFile& f)
{
    Topology t;
    const Line& head = f.Take("node count, switch count, link count", 3);
    const auto n = ToUint(head.tokens[0]);
    const auto s = ToUint(head.tokens[1]);
    const auto l = ToUint(head.tokens[2]);
    if (!n || !s || !l)
    {
        f.Fail(head.number, "node, switch and link counts must be whole numbers");
    }
    if (*n < 2 || *n > kMaxHosts + kMaxDimension)
    {
        f.Fail(head.number,
               "node count " + head.tokens[0] + " out of range (2.." +
                   std::to_string(kMaxHosts + kMaxDimension) + ")");
    }
    if (*s == 0 || *s >= *n)
    {
        f.Fail(head.number,
               "switch count " + head.tokens[1] + " must be at least 1 and below the node count " +
                   head.tokens[0]);
    }
    if (*l == 0 || *l > 64 * *n)
    {
        f.Fail(head.number, "link count " + head.tokens[2] + " out of range");
    }
    t.nodes = static_cast<uint32_t>(*n);
    t.isSwitch.assign(t.nodes, false);
    const Line& ids = f.Take("the switch ids", static_cast<size_t>(*s));
    for (const auto& tok : ids.tokens)
    {
        const auto id = ToUint(tok);
        if (!id || *id >= t.nodes)
        {
            f.Fail(ids.number,
                   "switch id " + tok + " is not a node id (0.." + std::to_string(t.nodes - 1) +
                       ")");
        }
        if (t.isSwitch[*id])
        {
            f.Fail(ids.number, "switch id " + tok + " listed twice");
        }
        t.isSwitch[*id] = true;
        t.switches.push_back(static_cast<uint32_t>(*id));
    }
    t.hostIndex.assign(t.nodes, -1);
    int64_t hosts = 0;
    for (uint32_t id = 0; id < t.nodes; ++id)
    {
        if (!t.isSwitch[id])
        {
            t.hostIndex[id] = hosts++;
        }
    }
    std::vector<int64_t> hostCable(t.nodes, -1);
    std::vector<uint32_t> parent(t.nodes);
    std::iota(parent.begin(), parent.end(), 0);
    for (uint64_t c = 0; c < *l; ++c)
    {
        const Line& line = f.Take("a b rate delay error", 5);
        Topology::Cable cable{};
        cable.line = line.number;
        const auto a = ToUint(line.tokens[0]);
        const auto b = ToUint(line.tokens[1]);
        for (size_t k = 0; k < 2; ++k)
        {
            const auto& id = k == 0 ? a : b;
            if (!id || *id >= t.nodes)
            {
                f.Fail(line.number,
                       "node " + line.tokens[k] + " is not a node id (0.." +
                           std::to_string(t.nodes - 1) + ")");
            }
        }
        cable.a = static_cast<uint32_t>(*a);
        cable.b = static_cast<uint32_t>(*b);
        if (cable.a == cable.b)
        {
            f.Fail(line.number, "a link from node " + line.tokens[0] + " to itself");
        }
        if (!t.isSwitch[cable.a] && !t.isSwitch[cable.b])
        {
            f.Fail(line.number,
                   "a link between two hosts (" + line.tokens[0] + " and " + line.tokens[1] +
                       "); a host's link goes to a switch");
        }
        const auto key = std::minmax(cable.a, cable.b);
        if (t.cableOf.count(key))
        {
            f.Fail(line.number,
                   "a second link between nodes " + line.tokens[0] + " and " + line.tokens[1] +
                       " (the first is on line " + std::to_string(t.cables[t.cableOf[key]].line) +
                       ")");
        }
        const auto bps = ParseHpccRate(line.tokens[2]);
        if (!bps)
        {
            f.Fail(line.number,
                   "rate \"" + line.tokens[2] + "\" is not a data rate (e.g. 100Gbps)");
        }
        if (*bps < kMinGbps * 1e9 || *bps > kMaxGbps * 1e9)
        {
            f.Fail(line.number, "rate " + line.tokens[2] + " out of range (1Mbps .. 10Tbps)");
        }
        const auto delay = ParseHpccTimeNs(line.tokens[3]);
        if (!delay)
        {
            f.Fail(line.number, "delay \"" + line.tokens[3] + "\" is not a time (e.g. 0.001ms)");
        }
        if (*delay < 0 || *delay > 1e12)
        {
            f.Fail(line.number, "delay " + line.tokens[3] + " out of range (0 .. 1000s)");
        }
        const auto error = ToReal(line.tokens[4]);
        if (!error || *error < 0 || *error > 1)
        {
            f.Fail(line.number, "error rate \"" + line.tokens[4] + "\" is not a number in [0, 1]");
        }
        cable.bps = *bps;
        cable.delayNs = *delay;
        cable.error = *error;
        for (uint32_t end : {cable.a, cable.b})
        {
            if (!t.isSwitch[end])
            {
                if (hostCable[end] >= 0)
                {
                    f.Fail(line.number,
                           "host " + std::to_string(end) +
                               " has a second link (the first is on line " +
                               std::to_string(t.cables[hostCable[end]].line) + "); a host has one");
                }
                hostCable[end] = static_cast<int64_t>(t.cables.size());
            }
        }
        parent[Find(parent, cable.a)] = Find(parent, cable.b);
        t.cableOf[key] = t.cables.size();
        t.cables.push_back(cable);
    }
    for (uint32_t id = 0; id < t.nodes; ++id)
    {
        if (!t.isSwitch[id] && hostCable[id] < 0)
        {
            f.Fail(ids.number,
                   "node " + std::to_string(id) +
                       " is a host (not in this switch list) without a link");
        }
    }
    for (uint32_t id = 0; id < t.nodes; ++id)
    {
        t.component.push_back(Find(parent, id));
    }
    t.unread = f.Unread();
    return t;
}

/// One flow of the flow file.
struct Flow
{
    uint32_t src;   //!< source node
    uint32_t dst;   //!< destination node
    uint32_t pg;    //!< priority group
    uint32_t dport; //!< destination port
    uint64_t size;  //!< bytes
    double startS;  //!< start, seconds
};

std::vector<Flow>
ReadFlows(TextFile& f, const Topology& t, double stopS, size_t& unread, size_t& late)
{
    const Line& head = f.Take("the number of flows", 1);
    const auto count = ToUint(head.tokens[0]);
    if (!count)
    {
        f.Fail(head.number, "the number of flows \"" + head.tokens[0] + "\" is not a whole number");
    }
    if (*count > f.lines.size())
    {
        f.Fail(head.number,
               "announces " + head.tokens[0] + " flows, the file has " +
                   std::to_string(f.lines.size() - 1) + " more lines");
    }
    std::vector<Flow> flows;
    flows.reserve(*count);
    double lastStart = 0;
    for (uint64_t i = 0; i < *count; ++i)
    {
        const Line& line = f.Take("src dst priority dport size start_s", 6);
        const auto& tok = line.tokens;
        Flow flow{};
        for (size_t k = 0; k < 2; ++k)
        {
            const auto id = ToUint(tok[k]);
            if (!id || *id >= t.nodes)
            {
                f.Fail(line.number,
                       std::string(k == 0 ? "source" : "destination") + " " + tok[k] +
                           " is not a node id (0.." + std::to_string(t.nodes - 1) + ")");
            }
            if (t.isSwitch[*id])
            {
                f.Fail(line.number,
                       std::string(k == 0 ? "source" : "destination") + " " + tok[k] +
                           " is a switch, not a host");
            }
            (k == 0 ? flow.src : flow.dst) = static_cast<uint32_t>(*id);
        }
        if (flow.src == flow.dst)
        {
            f.Fail(line.number, "a flow from host " + tok[0] + " to itself");
        }
        if (t.component[flow.src] != t.component[flow.dst])
        {
            f.Fail(line.number,
                   "no path from node " + tok[0] + " to node " + tok[1] +
                       " (the topology does not join them)");
        }
        const auto pg = ToUint(tok[2]);
        if (!pg || *pg > kMaxPriority)
        {
            f.Fail(line.number,
                   "priority " + tok[2] + " out of range (0.." + std::to_string(kMaxPriority) +
                       ": the data classes; 7 is the control class)");
        }
        flow.pg = static_cast<uint32_t>(*pg);
        const auto dport = ToUint(tok[3]);
        if (!dport || *dport > 65535)
        {
            f.Fail(line.number, "dport " + tok[3] + " is not a port (0..65535)");
        }
        flow.dport = static_cast<uint32_t>(*dport);
        if (!tok[4].empty() && tok[4][0] == '-')
        {
            f.Fail(line.number, "negative size " + tok[4]);
        }
        const auto size = ToUint(tok[4]);
        if (!size || *size == 0 || *size > kMaxTotalBytes)
        {
            f.Fail(line.number, "size " + tok[4] + " is not a number of bytes >= 1");
        }
        flow.size = *size;
        const auto start = ToReal(tok[5]);
        if (!start)
        {
            f.Fail(line.number, "start time \"" + tok[5] + "\" is not a number of seconds");
        }
        if (*start < 0)
        {
            f.Fail(line.number, "start time " + tok[5] + " s is in the past (before 0)");
        }
        if (*start < lastStart)
        {
            f.Fail(line.number,
                   "start time " + tok[5] + " s is before the previous flow's (flows are " +
                       "listed by start time)");
        }
        flow.startS = *start;
        lastStart = *start;
        if (*start * 1e3 >= stopS * 1e3)
        {
            // that simulator never starts it: the run is over by then
            ++late;
            continue;
        }
        flows.push_back(flow);
    }
    unread = f.Unread();
    return flows;
}

/// The configuration file: per key, its last line.
using Config = std::map<std::string, Line>;

/// What the import did with the configuration's keys, for the warning.
struct Report
{
    std::vector<std::string> ignored;  //!< keys (and values) with no counterpart
    std::vector<std::string> adjusted; //!< keys carried over with a change
    std::vector<std::string> outputs;  //!< that simulator's output keys
    std::vector<std::string> unknown;  //!< keys that simulator does not read
    std::vector<std::string> unread;   //!< lines of data files not read
};

/// Reads typed values off configuration lines, failing with the line.
struct ConfigReader
{
    const TextFile& file; //!< the file, for messages
    const Config& config; //!< its keys

    bool Has(const std::string& key) const
    {
        return config.count(key) > 0;
    }

    const Line& At(const std::string& key) const
    {
        return config.at(key);
    }

    /// The key's single value (a line with one value after the key).
    const std::string& Value(const std::string& key) const
    {
        const Line& l = At(key);
        if (l.tokens.size() != 2)
        {
            file.Fail(l.number,
                      key + " takes one value, got " + std::to_string(l.tokens.size() - 1));
        }
        return l.tokens[1];
    }

    double Real(const std::string& key, double min, double max) const
    {
        const auto v = ToReal(Value(key));
        if (!v || *v < min || *v > max)
        {
            file.Fail(At(key).number,
                      key + " \"" + Value(key) + "\" is not a number in [" + Num(min) + ", " +
                          Num(max) + "]");
        }
        return *v;
    }

    uint64_t Whole(const std::string& key, uint64_t max) const
    {
        const auto v = ToUint(Value(key));
        if (!v || *v > max)
        {
            file.Fail(At(key).number,
                      key + " \"" + Value(key) + "\" is not a whole number in [0, " +
                          std::to_string(max) + "]");
        }
        return *v;
    }

    double Rate(const std::string& key) const
    {
        const auto v = ParseHpccRate(Value(key));
        if (!v || *v < 0 || *v > kMaxGbps * 1e9)
        {
            file.Fail(At(key).number,
                      key + " \"" + Value(key) + "\" is not a data rate (e.g. 50Mb/s)");
        }
        return *v;
    }

    /// A map line "KEY n rate1 v1 ... raten vn": rate (bit/s) -> value.
    std::map<uint64_t, double> Map(const std::string& key) const
    {
        const Line& l = At(key);
        const auto n = l.tokens.size() >= 2 ? ToUint(l.tokens[1]) : std::nullopt;
        if (!n || l.tokens.size() != 2 + 2 * *n)
        {
            file.Fail(l.number,
                      key + " must be a count n, then n pairs of a rate in bit/s and a value");
        }
        std::map<uint64_t, double> m;
        for (uint64_t i = 0; i < *n; ++i)
        {
            const auto rate = ToUint(l.tokens[2 + 2 * i]);
            const auto value = ToReal(l.tokens[3 + 2 * i]);
            if (!rate || !value || *value < 0)
            {
                file.Fail(l.number,
                          key + ": pair " + std::to_string(i + 1) + " (\"" + l.tokens[2 + 2 * i] +
                              " " + l.tokens[3 + 2 * i] +
                              "\") is not a rate in bit/s and a non-negative value");
            }
            m[*rate] = *value;
        }
        return m;
    }
};

/// The keys the HPCC simulator reads, by what the import does with them.
const std::set<std::string> kOutputKeys = {"TRACE_FILE",
                                           "TRACE_OUTPUT_FILE",
                                           "FCT_OUTPUT_FILE",
                                           "PFC_OUTPUT_FILE",
                                           "QLEN_MON_FILE",
                                           "QLEN_MON_START",
                                           "QLEN_MON_END",
                                           "ENABLE_TRACE"};
/// Keys that simulator reads but does not use.
const std::set<std::string> kUnusedKeys = {"DATA_RATE", "LINK_DELAY"};
/// Keys of one congestion control: without effect under the others.
const std::map<std::string, std::set<std::string>> kKeysOf = {
    {"ALPHA_RESUME_INTERVAL", {"dcqcn"}},
    {"RATE_DECREASE_INTERVAL", {"dcqcn"}},
    {"RP_TIMER", {"dcqcn"}},
    {"FAST_RECOVERY_TIMES", {"dcqcn"}},
    {"CLAMP_TARGET_RATE", {"dcqcn"}},
    {"EWMA_GAIN", {"dcqcn", "dctcp"}},
    {"RATE_HAI", {"dcqcn", "timely"}},
    {"DCTCP_RATE_AI", {"dctcp"}},
    {"U_TARGET", {"hpcc", "hpcc-pint"}},
    {"MI_THRESH", {"hpcc", "hpcc-pint"}},
    {"FAST_REACT", {"hpcc", "hpcc-pint"}},
    {"MULTI_RATE", {"hpcc", "hpcc-pint"}},
    {"SAMPLE_FEEDBACK", {"hpcc", "hpcc-pint"}},
    {"INT_MULTI", {"hpcc", "hpcc-pint"}},
    {"PINT_LOG_BASE", {"hpcc-pint"}},
    {"PINT_PROB", {"hpcc-pint"}},
};
/// Every key that simulator reads (others are unknown to it).
const std::set<std::string> kKnownKeys = {"ENABLE_QCN",
                                          "USE_DYNAMIC_PFC_THRESHOLD",
                                          "CLAMP_TARGET_RATE",
                                          "PAUSE_TIME",
                                          "DATA_RATE",
                                          "LINK_DELAY",
                                          "PACKET_PAYLOAD_SIZE",
                                          "L2_CHUNK_SIZE",
                                          "L2_ACK_INTERVAL",
                                          "L2_BACK_TO_ZERO",
                                          "TOPOLOGY_FILE",
                                          "FLOW_FILE",
                                          "TRACE_FILE",
                                          "TRACE_OUTPUT_FILE",
                                          "SIMULATOR_STOP_TIME",
                                          "ALPHA_RESUME_INTERVAL",
                                          "RP_TIMER",
                                          "EWMA_GAIN",
                                          "FAST_RECOVERY_TIMES",
                                          "RATE_AI",
                                          "RATE_HAI",
                                          "ERROR_RATE_PER_LINK",
                                          "CC_MODE",
                                          "RATE_DECREASE_INTERVAL",
                                          "MIN_RATE",
                                          "FCT_OUTPUT_FILE",
                                          "HAS_WIN",
                                          "GLOBAL_T",
                                          "MI_THRESH",
                                          "VAR_WIN",
                                          "FAST_REACT",
                                          "U_TARGET",
                                          "INT_MULTI",
                                          "RATE_BOUND",
                                          "ACK_HIGH_PRIO",
                                          "DCTCP_RATE_AI",
                                          "PFC_OUTPUT_FILE",
                                          "LINK_DOWN",
                                          "ENABLE_TRACE",
                                          "KMAX_MAP",
                                          "KMIN_MAP",
                                          "PMAX_MAP",
                                          "BUFFER_SIZE",
                                          "QLEN_MON_FILE",
                                          "QLEN_MON_START",
                                          "QLEN_MON_END",
                                          "MULTI_RATE",
                                          "SAMPLE_FEEDBACK",
                                          "PINT_LOG_BASE",
                                          "PINT_PROB"};

/// The algorithm of each CC_MODE.
const std::map<uint64_t, std::string> kCcModes = {{1, "dcqcn"},
                                                  {3, "hpcc"},
                                                  {7, "timely"},
                                                  {8, "dctcp"},
                                                  {10, "hpcc-pint"}};

/// A path as the scenario gives it: relative to baseDir.
std::string
Resolve(const std::string& baseDir, const std::string& name)
{
    fs::path p(name);
    if (p.is_relative())
    {
        p = fs::path(baseDir) / p;
    }
    return p.lexically_normal().string();
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

/// Apply the scenario's own keys on top of the expansion.
void
Merge(json& base, const json& top)
{
    for (auto it = top.begin(); it != top.end(); ++it)
    {
        const std::string& key = it.key();
        if (key == "hpcc")
        {
            continue;
        }
        if (base.contains(key) && base[key].is_object() && it->is_object())
        {
            json& b = base[key];
            for (auto jt = it->begin(); jt != it->end(); ++jt)
            {
                if (b.contains(jt.key()) && b[jt.key()].is_object() && jt->is_object())
                {
                    b[jt.key()].merge_patch(*jt);
                }
                else
                {
                    b[jt.key()] = *jt;
                }
            }
        }
        else if (base.contains(key) && base[key].is_array() && it->is_array() &&
                 (key == "jobs" || key == "background" || key == "faults"))
        {
            for (const auto& e : *it)
            {
                base[key].push_back(e);
            }
        }
        else
        {
            base[key] = *it;
        }
    }
}

/// "sw<id>" or "host<index>": the node's name in a "links" topology.
std::string
NodeName(const Topology& t, uint32_t id)
{
    return t.isSwitch[id] ? "sw" + std::to_string(id) : "host" + std::to_string(t.hostIndex[id]);
}

} // namespace

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
    static const std::map<std::string, double> kUnits = {{"", 1e9},
                                                         {"s", 1e9},
                                                         {"ms", 1e6},
                                                         {"us", 1e3},
                                                         {"ns", 1},
                                                         {"ps", 1e-3},
                                                         {"fs", 1e-6},
                                                         {"min", 60e9},
                                                         {"h", 3600e9},
                                                         {"d", 86400e9}};
    const auto it = kUnits.find(unit);
    if (it == kUnits.end())
    {
        return std::nullopt;
    }
    return number * it->second;
}

uint32_t
HpccNodeAddress(uint32_t nodeId)
{
    return 0x0b000001u + (nodeId / 256) * 0x00010000u + (nodeId % 256) * 0x00000100u;
}

json
ExpandHpccImport(const json& scenario,
                 const std::string& baseDir,
                 std::vector<std::string>& warnings)
{
    const json& h = scenario.at("hpcc");
    if (!h.is_object())
    {
        throw ScenarioError("hpcc",
                            "expected an object {\"config\", \"topology\", \"flows\"}, got " +
                                Describe(h));
    }
    for (auto it = h.begin(); it != h.end(); ++it)
    {
        if (it.key() != "config" && it.key() != "topology" && it.key() != "flows")
        {
            throw ScenarioError("hpcc." + it.key(),
                                "unknown key (expected \"config\", \"topology\", \"flows\")");
        }
        if (!it->is_string() || it->get<std::string>().empty() ||
            it->get<std::string>().find('\0') != std::string::npos)
        {
            throw ScenarioError("hpcc." + it.key(), "expected a file name, got " + Describe(*it));
        }
    }
    Report report;

    // The configuration, if any.
    TextFile configFile;
    Config config;
    std::string configPath;
    if (h.contains("config"))
    {
        configPath = Resolve(baseDir, h["config"].get<std::string>());
        configFile = ReadText("hpcc.config", configPath);
        for (const Line& l : configFile.lines)
        {
            config[l.tokens[0]] = l;
        }
    }
    ConfigReader c{configFile, config};

    // The files: named in "hpcc", else by the configuration.
    auto fileOf = [&](const std::string& key, const std::string& configKey) {
        if (h.contains(key))
        {
            return Resolve(baseDir, h[key].get<std::string>());
        }
        if (!c.Has(configKey))
        {
            throw ScenarioError("hpcc." + key,
                                "required (or a " + configKey + " line in hpcc.config)");
        }
        const std::string& name = c.Value(configKey);
        if (fs::path(name).is_absolute())
        {
            return name;
        }
        const fs::path dir = fs::path(configPath).parent_path();
        std::error_code ec;
        std::vector<fs::path> tries = {dir / name, dir / ".." / name, fs::path(baseDir) / name};
        for (const auto& p : tries)
        {
            if (fs::is_regular_file(p, ec))
            {
                return p.lexically_normal().string();
            }
        }
        configFile.Fail(c.At(configKey).number,
                        configKey + " " + name + ": no such file (looked in " + dir.string() +
                            ", its parent and " + baseDir + ")");
    };
    const std::string topoPath = fileOf("topology", "TOPOLOGY_FILE");
    const std::string flowPath = fileOf("flows", "FLOW_FILE");

    json out = json::object();

    // The end of the run: the scenario's, else SIMULATOR_STOP_TIME, else
    // that simulator's default, 3.01 s.
    double stopS = 3.01;
    if (c.Has("SIMULATOR_STOP_TIME"))
    {
        stopS = c.Real("SIMULATOR_STOP_TIME", 1e-9, 1e6);
        out["stop_ms"] = Number(stopS * 1e3);
    }
    else
    {
        out["stop_ms"] = Number(stopS * 1e3);
    }
    if (scenario.contains("stop_ms") && scenario["stop_ms"].is_number())
    {
        stopS = scenario["stop_ms"].get<double>() / 1e3;
    }

    // Topology.
    TextFile topoFile = ReadText("hpcc.topology", topoPath);
    const Topology topo = ReadTopology(topoFile);
    json links = json::array();
    for (const auto& cable : topo.cables)
    {
        links.push_back({{"a", cable.a},
                         {"b", cable.b},
                         {"gbps", Number(cable.bps / 1e9)},
                         {"delay_us", Number(cable.delayNs / 1e3)}});
    }
    out["topology"] = {{"kind", "links"},
                       {"nodes", topo.nodes},
                       {"switch_nodes", topo.switches},
                       {"links", links}};
    if (topo.unread > 0)
    {
        report.unread.push_back(std::to_string(topo.unread) + " lines of " + topoPath +
                                " after its links");
    }

    // Flows.
    TextFile flowFile = ReadText("hpcc.flows", flowPath);
    size_t unreadFlows = 0;
    size_t lateFlows = 0;
    const std::vector<Flow> flows = ReadFlows(flowFile, topo, stopS, unreadFlows, lateFlows);
    if (lateFlows > 0)
    {
        report.unread.push_back(std::to_string(lateFlows) + " flows of " + flowPath +
                                " that start at or after the end of the run (" + Num(stopS) +
                                " s)");
    }
    if (unreadFlows > 0)
    {
        report.unread.push_back(std::to_string(unreadFlows) + " lines of " + flowPath +
                                " after the flows its first line announces");
    }
    std::vector<uint32_t> pgs;
    for (const auto& f : flows)
    {
        if (std::find(pgs.begin(), pgs.end(), f.pg) == pgs.end())
        {
            pgs.push_back(f.pg);
        }
    }
    json background = json::array();
    for (uint32_t pg : pgs)
    {
        json list = json::array();
        for (const auto& f : flows)
        {
            if (f.pg == pg)
            {
                list.push_back({{"src", topo.hostIndex[f.src]},
                                {"dst", topo.hostIndex[f.dst]},
                                {"bytes", f.size},
                                {"start_ms", Number(f.startS * 1e3)},
                                {"dport", f.dport}});
            }
        }
        background.push_back(
            {{"name",
              pgs.size() == 1 ? std::string("hpcc-flows") : "hpcc-flows-pg" + std::to_string(pg)},
             {"pattern", "flows"},
             {"priority", pg},
             {"flows", list}});
    }
    if (!background.empty())
    {
        out["background"] = background;
    }
    out["hpcc_fct"] = true;

    // Configuration.
    json transport = json::object();
    json dcqcn = json::object();
    json defaults = json::object();
    json faults = json::array();
    std::string cc = "dcqcn";
    if (c.Has("CC_MODE"))
    {
        const uint64_t mode = c.Whole("CC_MODE", 1000);
        const auto it = kCcModes.find(mode);
        if (it == kCcModes.end())
        {
            configFile.Fail(c.At("CC_MODE").number,
                            "CC_MODE " + std::to_string(mode) +
                                " is not a mode of the HPCC simulator (1 DCQCN, 3 HPCC, 7 "
                                "TIMELY, 8 DCTCP, 10 HPCC-PINT)");
        }
        cc = it->second;
        if (RdmaCongestionControl::GetAlgorithmTypeName(cc).empty())
        {
            std::vector<std::string> names;
            for (const auto& a : RdmaCongestionControl::GetAlgorithms())
            {
                names.push_back(a.first);
            }
            configFile.Fail(
                c.At("CC_MODE").number,
                "CC_MODE " + std::to_string(mode) + " selects " + Quote(cc) +
                    ", which is not a congestion control here (there are: " + Join(names) + ")");
        }
    }
    transport["cc"] = cc;
    const std::string ccType = RdmaCongestionControl::GetAlgorithmTypeName(cc);
    // An attribute of the chosen algorithm, set when it has one of the names.
    auto setAttribute = [&](const std::string& key,
                            const std::vector<std::string>& names,
                            const std::string& value) {
        TypeId tid;
        if (!ccType.empty() && TypeId::LookupByNameFailSafe(ccType, &tid))
        {
            for (const auto& n : names)
            {
                TypeId::AttributeInformation info;
                if (tid.LookupAttributeByName(n, &info))
                {
                    defaults[ccType + "::" + n] = value;
                    return;
                }
            }
        }
        report.ignored.push_back(key + " (" + cc + " has no such parameter here)");
    };
    auto rateValue = [](double bps) { return std::to_string(static_cast<uint64_t>(bps)) + "bps"; };

    uint32_t payload = 1000; // that simulator's default
    if (c.Has("PACKET_PAYLOAD_SIZE"))
    {
        payload = static_cast<uint32_t>(c.Whole("PACKET_PAYLOAD_SIZE", 65535));
        if (payload == 0)
        {
            configFile.Fail(c.At("PACKET_PAYLOAD_SIZE").number, "PACKET_PAYLOAD_SIZE must be >= 1");
        }
    }
    const uint32_t mtu = NearestMtu(payload);
    transport["mtu_bytes"] = mtu;
    if (mtu != payload)
    {
        report.adjusted.push_back("PACKET_PAYLOAD_SIZE " + std::to_string(payload) +
                                  " -> mtu_bytes " + std::to_string(mtu) +
                                  " (the nearest InfiniBand path MTU)");
    }

    std::set<std::string> handled = {"CC_MODE",
                                     "PACKET_PAYLOAD_SIZE",
                                     "SIMULATOR_STOP_TIME",
                                     "TOPOLOGY_FILE",
                                     "FLOW_FILE"};
    // Keys whose value is what flux does anyway.
    auto expect = [&](const std::string& key, double value, const std::string& reason) {
        handled.insert(key);
        if (!c.Has(key))
        {
            return;
        }
        const double v = c.Real(key, -1e18, 1e18);
        if (v != value)
        {
            report.ignored.push_back(key + " " + c.Value(key) + " (" + reason + ")");
        }
    };
    expect("ENABLE_QCN", 1, "switches here always mark ECN");
    expect("USE_DYNAMIC_PFC_THRESHOLD", 1, "the switch buffer here has dynamic thresholds");
    expect("RATE_BOUND", 1, "queue pairs here are always paced");
    expect("L2_BACK_TO_ZERO", 0, "recovery here is go-back-N");
    expect("GLOBAL_T", 1, "HPCC here takes the largest base RTT as T");
    // the algorithms here that keep a window (HAS_WIN 1 in that simulator)
    const bool windowed = cc == "hpcc" || cc == "dctcp";
    if (cc == "hpcc")
    {
        expect("FAST_REACT", 1, "HPCC here reacts to every ACK");
        expect("MULTI_RATE", 0, "HPCC here has one rate for all hops");
        expect("SAMPLE_FEEDBACK", 0, "HPCC here takes INT from every ACK");
    }
    if (windowed)
    {
        expect("HAS_WIN", 1, cc + " here always has its window");
        expect("VAR_WIN", 1, cc + " here always varies its window");
    }
    else
    {
        expect("HAS_WIN", 0, cc + " here has no window");
        handled.insert("VAR_WIN");
        if (c.Has("HAS_WIN") && c.Has("VAR_WIN") && c.Real("HAS_WIN", -1e18, 1e18) != 0)
        {
            report.ignored.push_back("VAR_WIN " + c.Value("VAR_WIN") + " (with HAS_WIN)");
        }
    }

    // DCQCN.
    if (cc == "dcqcn")
    {
        const std::vector<std::pair<std::string, std::string>> us = {
            {"ALPHA_RESUME_INTERVAL", "alpha_interval_us"},
            {"RATE_DECREASE_INTERVAL", "rate_decrease_interval_us"},
            {"RP_TIMER", "rate_increase_interval_us"}};
        for (const auto& [key, name] : us)
        {
            if (c.Has(key))
            {
                dcqcn[name] = Number(c.Real(key, key == "RATE_DECREASE_INTERVAL" ? 0 : 0.001, 1e6));
            }
        }
        if (c.Has("EWMA_GAIN"))
        {
            dcqcn["g"] = Number(c.Real("EWMA_GAIN", 1e-9, 1));
        }
        if (c.Has("FAST_RECOVERY_TIMES"))
        {
            dcqcn["fast_recovery_stages"] = c.Whole("FAST_RECOVERY_TIMES", 1000);
        }
        if (c.Has("CLAMP_TARGET_RATE"))
        {
            dcqcn["clamp_target_rate"] = c.Whole("CLAMP_TARGET_RATE", 1) == 1;
        }
        if (c.Has("RATE_AI"))
        {
            dcqcn["ai_mbps"] = Number(c.Rate("RATE_AI") / 1e6);
        }
        if (c.Has("RATE_HAI"))
        {
            dcqcn["hai_mbps"] = Number(c.Rate("RATE_HAI") / 1e6);
        }
        if (c.Has("MIN_RATE"))
        {
            const double minRate = c.Rate("MIN_RATE");
            if (minRate < 1e3)
            {
                configFile.Fail(c.At("MIN_RATE").number, "MIN_RATE must be at least 1kbps");
            }
            dcqcn["min_rate_mbps"] = Number(minRate / 1e6);
        }
        // That simulator's DCQCN: no byte counter, a CNP per marked packet.
        dcqcn["byte_counter_bytes"] = 0;
        dcqcn["cnp_interval_us"] = 0;
        transport["dcqcn"] = dcqcn;
    }
    else if (cc == "hpcc")
    {
        if (c.Has("U_TARGET"))
        {
            defaults[ccType + "::TargetUtilization"] = Number(c.Real("U_TARGET", 1e-3, 1));
        }
        if (c.Has("MI_THRESH"))
        {
            defaults[ccType + "::MaxStage"] = c.Whole("MI_THRESH", 1u << 31);
        }
        if (c.Has("RATE_AI"))
        {
            defaults[ccType + "::AdditiveIncrease"] = rateValue(c.Rate("RATE_AI"));
        }
        if (c.Has("MIN_RATE"))
        {
            defaults[ccType + "::MinRate"] = rateValue(c.Rate("MIN_RATE"));
        }
        if (c.Has("INT_MULTI"))
        {
            report.ignored.push_back("INT_MULTI (INT records here are exact)");
        }
    }
    else
    {
        // timely, dctcp: the parameters their classes have.
        if (c.Has("RATE_AI") && cc == "timely")
        {
            setAttribute("RATE_AI",
                         {"AdditiveIncrease", "RateAi", "Delta"},
                         rateValue(c.Rate("RATE_AI")));
        }
        if (c.Has("RATE_HAI") && cc == "timely")
        {
            setAttribute("RATE_HAI", {"HyperIncrease", "RateHai"}, rateValue(c.Rate("RATE_HAI")));
        }
        if (c.Has("MIN_RATE"))
        {
            setAttribute("MIN_RATE", {"MinRate"}, rateValue(c.Rate("MIN_RATE")));
        }
        if (c.Has("EWMA_GAIN") && cc == "dctcp")
        {
            setAttribute("EWMA_GAIN",
                         {"G", "Gain", "EwmaGain"},
                         std::to_string(c.Real("EWMA_GAIN", 1e-9, 1)));
        }
        if (c.Has("DCTCP_RATE_AI") && cc == "dctcp")
        {
            setAttribute("DCTCP_RATE_AI",
                         {"AdditiveIncrease", "RateAi"},
                         rateValue(c.Rate("DCTCP_RATE_AI")));
        }
        if (c.Has("RATE_AI") && cc == "dctcp")
        {
            handled.insert("RATE_AI"); // that simulator's DCTCP steps by DCTCP_RATE_AI
        }
    }
    for (const char* key : {"ALPHA_RESUME_INTERVAL",
                            "RATE_DECREASE_INTERVAL",
                            "RP_TIMER",
                            "EWMA_GAIN",
                            "FAST_RECOVERY_TIMES",
                            "CLAMP_TARGET_RATE",
                            "RATE_AI",
                            "RATE_HAI",
                            "MIN_RATE",
                            "U_TARGET",
                            "MI_THRESH",
                            "INT_MULTI",
                            "DCTCP_RATE_AI",
                            "FAST_REACT",
                            "MULTI_RATE",
                            "SAMPLE_FEEDBACK",
                            "PINT_LOG_BASE",
                            "PINT_PROB"})
    {
        handled.insert(key);
    }

    // Acknowledgements.
    handled.insert("ACK_HIGH_PRIO");
    if (c.Has("ACK_HIGH_PRIO") && c.Whole("ACK_HIGH_PRIO", 1) == 0)
    {
        // that simulator's hosts then queue ACKs with the data, in queue 3
        defaults["ns3::RdmaNic::ControlPriority"] = 3;
    }
    handled.insert("L2_ACK_INTERVAL");
    if (c.Has("L2_ACK_INTERVAL"))
    {
        const uint64_t bytes = c.Whole("L2_ACK_INTERVAL", uint64_t{1} << 32);
        if (bytes == 0)
        {
            report.ignored.push_back("L2_ACK_INTERVAL 0 (ACKs only at chunk ends)");
        }
        else
        {
            defaults["ns3::RdmaNic::AckInterval"] = (bytes + payload - 1) / payload;
        }
    }
    handled.insert("L2_CHUNK_SIZE");
    if (c.Has("L2_CHUNK_SIZE") && c.Has("L2_ACK_INTERVAL") &&
        c.Whole("L2_ACK_INTERVAL", uint64_t{1} << 32) > payload)
    {
        report.ignored.push_back("L2_CHUNK_SIZE (no ACK at chunk ends here)");
    }

    // Switches.
    handled.insert("BUFFER_SIZE");
    json topology = json::object();
    if (c.Has("BUFFER_SIZE"))
    {
        const double mib = c.Real("BUFFER_SIZE", 1e-6, 9e5);
        topology["buffer_mb"] = Number(mib * 1.048576); // MiB -> MB
    }
    std::set<uint64_t> rates;
    for (const auto& cable : topo.cables)
    {
        rates.insert(static_cast<uint64_t>(cable.bps));
    }
    const bool anyMap = c.Has("KMIN_MAP") || c.Has("KMAX_MAP") || c.Has("PMAX_MAP");
    for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
    {
        handled.insert(key);
    }
    if (anyMap)
    {
        std::map<std::string, std::map<uint64_t, double>> maps;
        for (const char* key : {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"})
        {
            if (!c.Has(key))
            {
                configFile.FailFile(std::string(key) +
                                    " is missing (the other ECN maps are given)");
            }
            maps[key] = c.Map(key);
            for (uint64_t r : rates)
            {
                if (!maps[key].count(r))
                {
                    configFile.Fail(c.At(key).number,
                                    std::string(key) + " has no entry for the " + Num(r / 1e9) +
                                        " Gb/s links of the topology (" + std::to_string(r) + ")");
                }
            }
        }
        json perRate = json::array();
        for (uint64_t r : rates)
        {
            const double kmin = maps["KMIN_MAP"][r];
            const double kmax = maps["KMAX_MAP"][r];
            const double pmax = maps["PMAX_MAP"][r];
            if (kmin > kmax || kmax <= 0 || kmax > 4e6 || !(pmax > 0 && pmax <= 1))
            {
                configFile.Fail(c.At("KMAX_MAP").number,
                                "at " + Num(r / 1e9) + " Gb/s: kmin " + Num(kmin) + ", kmax " +
                                    Num(kmax) + " KB, pmax " + Num(pmax) +
                                    " (need kmin <= kmax <= 4e6, 0 < pmax <= 1)");
            }
            perRate.push_back({{"gbps", Number(r / 1e9)},
                               {"kmin_kb", Number(kmin)},
                               {"kmax_kb", Number(kmax)},
                               {"pmax", Number(pmax)}});
        }
        transport["ecn"] = {{"per_rate", perRate}};
    }

    // Losses and a link going down.
    handled.insert("ERROR_RATE_PER_LINK");
    double allError = 0;
    if (c.Has("ERROR_RATE_PER_LINK"))
    {
        allError = c.Real("ERROR_RATE_PER_LINK", 0, 1);
    }
    for (const auto& cable : topo.cables)
    {
        const double loss = cable.error > 0 ? cable.error : allError;
        if (loss > 0)
        {
            faults.push_back({{"link", NodeName(topo, cable.a) + "<->" + NodeName(topo, cable.b)},
                              {"loss_rate", Number(loss)}});
        }
    }
    handled.insert("LINK_DOWN");
    if (c.Has("LINK_DOWN"))
    {
        const Line& l = c.At("LINK_DOWN");
        if (l.tokens.size() != 4)
        {
            configFile.Fail(l.number, "LINK_DOWN takes three values: time_us node node");
        }
        const auto t = ToUint(l.tokens[1]);
        const auto a = ToUint(l.tokens[2]);
        const auto b = ToUint(l.tokens[3]);
        if (!t || !a || !b)
        {
            configFile.Fail(l.number, "LINK_DOWN values must be whole numbers");
        }
        if (*t > 0)
        {
            if (*a >= topo.nodes || *b >= topo.nodes ||
                !topo.cableOf.count(
                    std::minmax(static_cast<uint32_t>(*a), static_cast<uint32_t>(*b))))
            {
                configFile.Fail(l.number,
                                "LINK_DOWN: no link between nodes " + l.tokens[2] + " and " +
                                    l.tokens[3] + " in " + topoPath);
            }
            // that simulator takes it down 2 s + t us into the run
            faults.push_back({{"link",
                               NodeName(topo, static_cast<uint32_t>(*a)) + "<->" +
                                   NodeName(topo, static_cast<uint32_t>(*b))},
                              {"down_ms", Number(2000 + static_cast<double>(*t) / 1e3)}});
            topology["route_convergence_ms"] = 0;
        }
    }
    if (!faults.empty())
    {
        out["faults"] = faults;
    }
    for (auto it = topology.begin(); it != topology.end(); ++it)
    {
        out["topology"][it.key()] = *it;
    }
    out["transport"] = transport;
    if (!defaults.empty())
    {
        out["ns3_defaults"] = defaults;
    }

    // Everything else.
    for (const auto& [key, line] : config)
    {
        if (handled.count(key) || kUnusedKeys.count(key))
        {
            continue;
        }
        if (kOutputKeys.count(key))
        {
            report.outputs.push_back(key);
        }
        else if (!kKnownKeys.count(key))
        {
            report.unknown.push_back(key);
        }
        else
        {
            report.ignored.push_back(key);
        }
    }
    std::vector<std::string> parts;
    if (!report.ignored.empty())
    {
        parts.push_back("ignored (no counterpart here): " + Join(report.ignored));
    }
    if (!report.adjusted.empty())
    {
        parts.push_back("adjusted: " + Join(report.adjusted));
    }
    if (!report.unknown.empty())
    {
        parts.push_back("unknown to the HPCC simulator, ignored: " + Join(report.unknown));
    }
    if (!report.outputs.empty())
    {
        parts.push_back("its output files are not written (flux writes <results stem>-fct.txt): " +
                        Join(report.outputs));
    }
    if (!report.unread.empty())
    {
        parts.push_back("not run, as that simulator does not run them either: " +
                        Join(report.unread));
    }
    if (!parts.empty())
    {
        warnings.push_back("hpcc: " + Join(parts, "; "));
    }

    Merge(out, scenario);
    return out;
}

} // namespace ns3
