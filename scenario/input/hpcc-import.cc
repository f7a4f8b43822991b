/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-import.h"

#include "hpcc-files.h"
#include "scenario-json.h"

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

NS_LOG_COMPONENT_DEFINE("HpccImport");

using json = nlohmann::json;
using namespace scenario;
using namespace hpcc;

namespace
{

namespace fs = std::filesystem;

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

} // namespace

json
ExpandHpccImport(const json& scenario,
                 const std::string& baseDir,
                 std::vector<std::string>& warnings,
                 std::map<std::string, std::pair<std::string, std::string>>* origins)
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
            throw ScenarioError(Child("hpcc", it.key()),
                                "unknown key (expected \"config\", \"topology\", \"flows\")");
        }
        if (!it->is_string() || it->get<std::string>().empty() ||
            it->get<std::string>().find('\0') != std::string::npos)
        {
            throw ScenarioError(Child("hpcc", it.key()),
                                "expected a file name, got " + Describe(*it));
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
        // the config's folder, its parent and the scenario's, as written
        // ("." for the working folder)
        const std::string here = dir.empty() ? "." : dir.string();
        const std::string base = baseDir.empty() ? "." : baseDir;
        configFile.Fail(c.At(configKey).number,
                        configKey + " " + name + ": no such file (looked in " + here +
                            ", its parent" + (base == here ? "" : " and " + base) + ")");
    };
    const std::string topoPath = fileOf("topology", "TOPOLOGY_FILE");
    const std::string flowPath = fileOf("flows", "FLOW_FILE");
    // The topology file is the topology: the scenario may set its other keys
    // (buffer_mb, route_convergence_ms, ...), not give another.
    if (scenario.contains("topology") && scenario["topology"].is_object())
    {
        for (const char* key : {"kind", "nodes", "switch_nodes", "links"})
        {
            if (scenario["topology"].contains(key))
            {
                throw ScenarioError(Child("topology", key),
                                    "the HPCC import gives the topology (" + topoPath +
                                        ", a \"links\" topology); a scenario with \"hpcc\" "
                                        "may set only its other keys, such as buffer_mb");
            }
        }
    }

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
    else if (!scenario.contains("jobs") && !scenario.contains("background"))
    {
        flowFile.FailFile("no flow to run (none starts before the end of the run, " + Num(stopS) +
                          " s)");
    }
    out["hpcc_fct"] = true;

    ConfigImport x{c, configFile, topo, topoPath, stopS, report};
    ImportTransport(x);
    ImportFabric(x);
    const json& faults = x.faults;
    const json& topology = x.topology;
    const json& transport = x.transport;
    const json& defaults = x.defaults;
    const std::set<std::string>& handled = x.handled;
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
    if (origins)
    {
        // the keys the scenario gives itself are its own
        x.origins["topology"] = {"hpcc.topology", topoPath};
        const json* own = scenario.contains("topology") && scenario["topology"].is_object()
                              ? &scenario["topology"]
                              : nullptr;
        for (const auto& [key, origin] : x.origins)
        {
            const std::string sub = key.rfind("topology.", 0) == 0 ? key.substr(9) : "";
            if (!(own && !sub.empty() && own->contains(sub)))
            {
                (*origins)[key] = origin;
            }
        }
    }
    return out;
}

} // namespace ns3
