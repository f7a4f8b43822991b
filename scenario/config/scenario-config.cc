/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-config.h"

#include "scenario-cc-keys.h"
#include "scenario-keys.h"
#include "scenario-placement.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/boolean.h"
#include "ns3/collective-library.h"
#include "ns3/double.h"
#include "ns3/hpcc-import.h"
#include "ns3/job-scheduler.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/scenario-json.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioConfig");

using namespace scenario;
using json = nlohmann::json;

std::string
ScenarioConfig::JobConfig::AlgorithmFor(CollectiveType type) const
{
    auto it = algorithm.find(CollectiveTypeName(type));
    return it != algorithm.end() ? it->second : CollectiveLibrary::GetDefault(type);
}

uint32_t
ScenarioConfig::HostCount() const
{
    const auto& t = topology;
    uint64_t hosts = 0;
    if (t.kind == "leaf-spine")
    {
        hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
    }
    else if (t.kind == "rail-optimized")
    {
        hosts = uint64_t{t.railGroups} * t.serversPerRailGroup * t.servers.nics;
    }
    else if (t.kind == "fat-tree")
    {
        hosts = uint64_t{t.k} * t.k * t.k / 4;
    }
    else if (t.kind == "dumbbell")
    {
        hosts = 2 * uint64_t{t.hostsPerSide};
    }
    else if (t.kind == "ring")
    {
        hosts = uint64_t{t.switches} * t.hostsPerSwitch;
    }
    else if (t.kind == "links")
    {
        hosts = t.nodes - std::min<uint64_t>(t.nodes, t.switchNodes.size());
    }
    return static_cast<uint32_t>(std::min<uint64_t>(hosts, kU32Max));
}

uint32_t
ScenarioConfig::ServerCount() const
{
    return HostCount() / std::max(topology.servers.nics, 1u);
}

uint32_t
ScenarioConfig::GpuCount() const
{
    const uint64_t gpus = uint64_t{ServerCount()} * topology.servers.gpus;
    return static_cast<uint32_t>(std::min<uint64_t>(gpus, kU32Max));
}

uint32_t
ScenarioConfig::GpuHost(uint32_t gpu) const
{
    const auto& s = topology.servers;
    const uint64_t local = gpu % s.gpus;
    return static_cast<uint32_t>(uint64_t{gpu / s.gpus} * s.nics + local * s.nics / s.gpus);
}

uint32_t
ScenarioConfig::GpuServer(uint32_t gpu) const
{
    return gpu / topology.servers.gpus;
}

uint32_t
ScenarioConfig::HostNodeId(uint32_t host) const
{
    return host < topology.hostNodes.size() ? topology.hostNodes[host] : host;
}

uint32_t
ScenarioConfig::HostsPerLeaf() const
{
    const auto& t = topology;
    if (t.kind == "leaf-spine")
    {
        return t.hostsPerLeaf;
    }
    if (t.kind == "fat-tree")
    {
        return t.k / 2;
    }
    if (t.kind == "dumbbell")
    {
        return t.hostsPerSide;
    }
    if (t.kind == "ring")
    {
        return t.hostsPerSwitch;
    }
    return 0;
}

namespace
{
/// "event_scheduler" values and their ns-3 types, the default first.
const std::vector<std::pair<std::string, std::string>> kEventSchedulers = {
    {"priority-queue", "ns3::PriorityQueueScheduler"},
    {"map", "ns3::MapScheduler"},
    {"heap", "ns3::HeapScheduler"},
    {"calendar", "ns3::CalendarScheduler"},
    {"list", "ns3::ListScheduler"},
    {"ordered", "ns3::OrderedScheduler"}};

/**
 * \brief On a fabric of several parts (a "links" topology), refuse traffic
 * between parts: a job's ranks, a tenant's hosts, an incast's senders and
 * receiver (a "flows" list checks each of its flows).
 * \param cfg the scenario
 */
void
CheckConnected(const ScenarioConfig& cfg)
{
    const auto& part = cfg.topology.hostComponent;
    if (part.empty())
    {
        return;
    }
    auto check =
        [&part](const std::string& field, const std::vector<uint32_t>& hosts, uint32_t from) {
            for (uint32_t h : hosts)
            {
                if (part[h] != part[from])
                {
                    Fail(field,
                         "no path between host " + std::to_string(from) + " and host " +
                             std::to_string(h) + " (their switches are not connected)");
                }
            }
        };
    for (std::size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        const auto& j = cfg.jobs[i];
        if (!j.hosts.empty())
        {
            check(Index("jobs", i) + (j.placement == "explicit" ? ".hosts" : ".placement"),
                  j.hosts,
                  j.hosts.front());
        }
    }
    for (std::size_t i = 0; i < cfg.background.size(); ++i)
    {
        const auto& b = cfg.background[i];
        if (b.kind == ScenarioConfig::BackgroundConfig::Kind::CDF && !b.hosts.empty())
        {
            check(Index("background", i) + ".hosts", b.hosts, b.hosts.front());
        }
        else if (b.pattern == "incast")
        {
            check(Index("background", i) + ".senders", b.senders, b.receiver);
        }
    }
}

} // namespace

std::string
ScenarioConfig::EventSchedulerTypeName(const std::string& name)
{
    for (const auto& [value, type] : kEventSchedulers)
    {
        if (value == name)
        {
            return type;
        }
    }
    return "";
}

std::vector<std::string>
ScenarioConfig::AvailableEventSchedulers()
{
    std::vector<std::string> names;
    for (const auto& entry : kEventSchedulers)
    {
        names.push_back(entry.first);
    }
    return names;
}

uint8_t
ScenarioConfig::BackgroundClasses() const
{
    uint8_t mask = 0;
    for (const auto& b : background)
    {
        mask |= TrafficClass::Bit(static_cast<uint8_t>(b.priority));
    }
    return mask;
}

std::vector<std::string>
ScenarioConfig::AvailablePolicies()
{
    std::vector<std::string> names;
    for (const auto& entry : JobScheduler::GetPolicies())
    {
        names.push_back(entry.first);
    }
    return names;
}

std::vector<std::pair<std::string, std::string>>
RegisteredKeyProblems(const json& scenario)
{
    std::vector<std::pair<std::string, std::string>> out;
    // one key at a time: the section's reader words its first problem (the
    // schema checks types before the reader runs; here it may not have)
    const auto check = [&out](const std::string& path, const auto& parse) {
        try
        {
            ScenarioConfig cfg;
            parse(cfg);
            return true;
        }
        catch (const ScenarioError& e)
        {
            out.emplace_back(e.GetField(), e.GetProblem());
        }
        catch (const json::exception&)
        {
            out.emplace_back(path, "not of the key's type (the schema's message names it)");
        }
        return false;
    };
    const auto section = [&scenario](const char* name) {
        const auto it = scenario.is_object() ? scenario.find(name) : scenario.end();
        return it != scenario.end() && it->is_object() ? &*it : nullptr;
    };
    if (const json* sc = section("scheduler"))
    {
        const json policy{{"policy", sc->value("policy", json("fifo"))}};
        if (check("scheduler.policy", [&policy](ScenarioConfig& cfg) { ParsePolicy(policy, cfg); }))
        {
            for (auto it = sc->begin(); it != sc->end(); ++it)
            {
                json one = policy;
                one[it.key()] = it.value();
                check("scheduler." + it.key(),
                      [&one](ScenarioConfig& cfg) { ParsePolicy(one, cfg); });
            }
        }
    }
    if (const json* tr = section("transport"))
    {
        for (const auto& name : GetCcSections())
        {
            const auto cc = tr->find(name);
            if (cc == tr->end() || !cc->is_object())
            {
                continue;
            }
            for (auto it = cc->begin(); it != cc->end(); ++it)
            {
                const json one{{name, {{it.key(), it.value()}}}};
                check("transport." + name + "." + it.key(), [&one](ScenarioConfig& cfg) {
                    ParseCcSections(ObjectReader(one, "transport"), cfg);
                });
            }
        }
    }
    if (const json* defaults = section("ns3_defaults"))
    {
        for (auto it = defaults->begin(); it != defaults->end(); ++it)
        {
            const json one{{it.key(), it.value()}};
            check("ns3_defaults[" + Quote(it.key()) + "]",
                  [&one](ScenarioConfig& cfg) { ParseNs3Defaults(one, cfg); });
        }
    }
    return out;
}

ScenarioConfig
ParseScenario(const nlohmann::json& input, const std::string& baseDir)
{
    ScenarioConfig cfg;
    cfg.baseDir = baseDir.empty() ? "." : baseDir;
    // A scenario that names the HPCC simulator's files: their content as
    // scenario keys, the scenario's own keys on top (hpcc-import.h).
    json expanded;
    const bool imports = input.is_object() && input.contains("hpcc");
    if (imports)
    {
        expanded = ExpandHpccImport(input, cfg.baseDir, cfg.warnings, &cfg.importOrigins);
    }
    const json& scenario = imports ? expanded : input;
    ValidateScenario(scenario);
    ObjectReader r(scenario, "");
    r.Read("description", cfg.description);
    r.Read("seed", cfg.seed);
    if (r.Has("seeds"))
    {
        ObjectReader seeds(r["seeds"], r.Path("seeds"));
        seeds.Read("ecmp", cfg.seeds.ecmp);
        seeds.Read("background", cfg.seeds.background);
        seeds.Read("placement", cfg.seeds.placement);
    }
    r.Read("stop_ms", cfg.stopMs);
    if (r.Read("stall_ms", cfg.stallMs) && cfg.stallMs > cfg.stopMs)
    {
        Fail("stall_ms",
             "must be at most stop_ms " + Num(cfg.stopMs) + ", got " + Num(cfg.stallMs));
    }
    ParseTopology(r["topology"], cfg);
    // Parsed also when absent: the DCQCN profile sets the marking defaults.
    ParseTransport(r.Has("transport") ? r["transport"] : json::object(), cfg);
    if (r.Has("scheduler"))
    {
        ParsePolicy(r["scheduler"], cfg);
    }
    if (r.Has("ns3_defaults"))
    {
        ParseNs3Defaults(r["ns3_defaults"], cfg);
    }
    CheckCcSettings(cfg);
    if (r.Has("traces"))
    {
        ParseTraces(r["traces"], cfg);
    }
    if (r.Has("pfc_watchdog"))
    {
        ParsePfcWatchdog(r["pfc_watchdog"], cfg);
    }
    r.Read("completion_latency_us", cfg.completionLatencyUs);
    r.Read("hpcc_fct", cfg.hpccFct);
    r.Read("event_scheduler", cfg.eventScheduler);
    if (r.Has("faults"))
    {
        const json& faults = r["faults"];
        for (size_t i = 0; i < faults.size(); ++i)
        {
            cfg.faults.push_back(ParseFault(faults[i], Index("faults", i), cfg));
        }
    }

    std::map<std::string, std::string> owners; // name -> "jobs[i]" / "background[i]"
    if (r.Has("jobs"))
    {
        const json& jobs = r["jobs"];
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            cfg.jobs.push_back(ParseJob(jobs[i], Index("jobs", i), cfg, owners));
        }
        PlaceJobs(cfg);
    }
    if (r.Has("background"))
    {
        const json& background = r["background"];
        for (size_t i = 0; i < background.size(); ++i)
        {
            cfg.background.push_back(
                ParseBackground(background[i], Index("background", i), cfg, owners));
        }
    }
    CheckConnected(cfg);
    AddWarnings(cfg);
    if (cfg.jobs.empty() && cfg.background.empty())
    {
        Fail("jobs",
             r.Has("jobs") || r.Has("background")
                 ? "the scenario needs at least one job or one background entry"
                 : "required (the scenario needs at least one job or one background "
                   "entry)");
    }
    return cfg;
}

ScenarioConfig
LoadScenarioFile(const std::string& path)
{
    const json scenario = ReadScenarioJson(path);
    std::string dir = std::filesystem::path(path).parent_path().string();
    return ParseScenario(scenario, dir.empty() ? "." : dir);
}

} // namespace ns3
