/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_FILES_H
#define HPCC_FILES_H

#include "hpcc-import.h"
#include "scenario-error.h"
#include "scenario-json.h"
#include "scenario-limits.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

/*
 * The pieces of the HPCC import (hpcc-import.h) that its files share: the
 * files read as lines of words (hpcc-text.cc), the topology and flow files
 * (hpcc-topology-file.cc) and the configuration's keys as scenario keys
 * (hpcc-config-import.cc). Not part of the public API.
 */

namespace ns3
{
namespace hpcc
{

using json = nlohmann::json;
using scenario::kMaxGbps;
using scenario::Num;

/// Largest file read (a flow file of a few million flows).
constexpr uintmax_t kMaxFileBytes = uintmax_t{1} << 30;
/// Longest link delay of a topology file, ns (1 s: far beyond any cable,
/// and a switch buffer holds 3 x rate x delay of PFC headroom per port).
constexpr double kMaxDelayNs = 1e9;

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

/**
 * \brief Read a text file as lines of words.
 * \param field the scenario field that names it ("hpcc.flows")
 * \param path its path
 * \return the file; a missing, irregular or oversized file throws ScenarioError
 */
TextFile ReadText(const std::string& field, const std::string& path);

/// \return a whole non-negative number, or nothing
std::optional<uint64_t> ToUint(const std::string& s);

/// \return a finite number (decimal or exponent form), or nothing
std::optional<double> ToReal(const std::string& s);

/**
 * \brief Split "12.5Gbps" into 12.5 and "Gbps".
 * \param text the text \param number receives the number \param unit receives the rest
 * \return whether the text starts with a number
 */
bool SplitUnit(const std::string& text, double& number, std::string& unit);

/// \return the nearest InfiniBand path MTU to a payload size
uint32_t NearestMtu(uint64_t payload);

/// \return a number as JSON keeps it: integral values as integers
json Number(double v);

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

/// \return the topology file, checked (a bad line throws ScenarioError)
Topology ReadTopology(TextFile& f);

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

/**
 * \param f the flow file \param t its topology \param stopS the end of the run, s
 * \param unread receives the non-blank lines after the flows its count announces
 * \param late receives the flows that start at or after stopS (left out)
 * \return the flows, checked
 */
std::vector<Flow> ReadFlows(TextFile& f,
                            const Topology& t,
                            double stopS,
                            size_t& unread,
                            size_t& late);

/// \return "sw<id>" or "host<index>": a node's name in a "links" topology
std::string NodeName(const Topology& t, uint32_t id);

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

/// The configuration's keys on their way to scenario keys.
struct ConfigImport
{
    const ConfigReader& c;           //!< the configuration
    TextFile& configFile;            //!< its file, for messages
    const Topology& topo;            //!< the topology
    std::string topoPath;            //!< the topology file's path
    double stopS;                    //!< the end of the run, s
    Report& report;                  //!< what is not carried over
    std::set<std::string> handled;   //!< keys dealt with
    json transport = json::object(); //!< "transport"
    json dcqcn = json::object();     //!< "transport.dcqcn"
    json defaults = json::object();  //!< "ns3_defaults"
    json faults = json::array();     //!< "faults"
    json topology = json::object();  //!< "topology" keys
    /// scenario key -> the field and place that gave it (ExpandHpccImport)
    std::map<std::string, std::pair<std::string, std::string>> origins;
};

/// CC_MODE, the payload, the congestion controls' parameters and the ACKs.
void ImportTransport(ConfigImport& x);

/// The switch buffer, ECN maps, link losses and LINK_DOWN.
void ImportFabric(ConfigImport& x);

} // namespace hpcc
} // namespace ns3

#endif /* HPCC_FILES_H */
