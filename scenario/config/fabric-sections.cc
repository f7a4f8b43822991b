/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-cc-keys.h"
#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/dcqcn-profile.h"
#include "ns3/log.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioFabricSections");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/**
 * The DCQCN profile with the scenario's overrides, and the ECN marking it
 * implies at the host link rate (the "ecn" object may then override it).
 */
void
ParseDcqcn(const json* v, const std::string& path, ScenarioConfig& cfg)
{
    auto& d = cfg.transport.dcqcn;
    if (v)
    {
        ObjectReader r(*v, path);
        if (r.Has("profile"))
        {
            d = *DcqcnProfile::Find(r["profile"].get<std::string>());
        }
        const DcqcnProfile profile = d;
        r.Read("g", d.g);
        r.Read("alpha_interval_us", d.alphaIntervalUs);
        r.Read("rate_decrease_interval_us", d.decreaseIntervalUs);
        r.Read("rate_increase_interval_us", d.increaseIntervalUs);
        r.Read("cnp_interval_us", d.cnpIntervalUs);
        r.Read("min_rate_mbps", d.minRateMbps);
        // Steps given in the scenario are at the host link rate: no scaling.
        if (r.Has("ai_mbps") || r.Has("hai_mbps"))
        {
            const double scale = d.scaleSteps ? cfg.topology.hostGbps / 25.0 : 1.0;
            d.aiMbps *= scale;
            d.haiMbps *= scale;
            d.scaleSteps = false;
        }
        r.Read("ai_mbps", d.aiMbps);
        r.Read("hai_mbps", d.haiMbps);
        r.Read("byte_counter_bytes", d.byteCounter);
        r.Read("fast_recovery_stages", d.fastRecoveryStages);
        r.Read("clamp_target_rate", d.clampTargetRate);
        r.Read("clamp_after_timer", d.clampAfterTimer);
        r.Read("window_bdp", d.windowBdp);
        r.Read("variable_window", d.variableWindow);
        // the attributes the overrides changed are the scenario's
        const auto before = profile.HostAttributes(cfg.topology.hostGbps);
        const auto after = d.HostAttributes(cfg.topology.hostGbps);
        for (std::size_t i = 0; i < after.size(); ++i)
        {
            if (after[i].second != before[i].second)
            {
                cfg.transport.keyAttributes[after[i].first] = path;
            }
        }
    }
    auto& ecn = cfg.transport.ecn;
    ecn.kminKb = d.KminKb(cfg.topology.hostGbps);
    ecn.kmaxKb = d.KmaxKb(cfg.topology.hostGbps);
    ecn.pmax = d.pmax;
}

/// True for a switch or host name of the topologies ("leaf0", "pod1-agg0", "host12").
bool
IsNodeName(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
}

/// The "servers" object: GPUs and NICs per server, the intra-server link.
void
ParseServers(const ObjectReader& topology, ScenarioConfig& cfg)
{
    auto& s = cfg.topology.servers;
    ObjectReader r(topology["servers"], topology.Path("servers"));
    cfg.topology.hasServers = true;
    r.Read("gpus", s.gpus);
    r.Read("nics", s.nics);
    if (s.nics > s.gpus)
    {
        Fail(r.Path("nics"),
             "a server has " + std::to_string(s.gpus) + " GPUs and " + std::to_string(s.nics) +
                 " NICs: nics must be at most gpus (every NIC serves a GPU)");
    }
    r.Read("nvlink_gbps", s.nvlinkGbps);
    r.Read("nvlink_latency_us", s.nvlinkLatencyUs);
}

/// The hosts must make whole servers, and the GPUs be countable.
void
CheckServers(const ScenarioConfig& cfg)
{
    const auto& s = cfg.topology.servers;
    const uint32_t hosts = cfg.HostCount();
    if (hosts % s.nics != 0)
    {
        Fail("topology.servers.nics",
             "the topology's " + std::to_string(hosts) + " hosts are not a multiple of " +
                 std::to_string(s.nics) + " (a server has nics hosts)");
    }
    const uint64_t gpus = uint64_t{hosts / s.nics} * s.gpus;
    if (gpus > kMaxGpus)
    {
        Fail("topology.servers.gpus",
             "the topology would have " + std::to_string(gpus) + " GPUs, more than " +
                 std::to_string(kMaxGpus));
    }
}

/**
 * \brief The keys that shape another kind of topology are ignored ("k" on a
 * leaf-spine): a warning says so (the design document's example gives all
 * of them); a "links" topology's are refused, as a fabric given cable by
 * cable cannot be meant by half.
 * \param r the topology object
 * \param cfg the scenario, its topology kind read
 */
void
WarnOtherShapes(const ObjectReader& r, ScenarioConfig& cfg)
{
    // each key that shapes a kind, and the kinds it shapes
    static const std::vector<std::pair<std::string, std::vector<std::string>>> shapeKeys{
        {"leaves", {"leaf-spine"}},
        {"spines", {"leaf-spine", "rail-optimized"}},
        {"hosts_per_leaf", {"leaf-spine"}},
        {"rail_groups", {"rail-optimized"}},
        {"servers_per_rail_group", {"rail-optimized"}},
        {"k", {"fat-tree"}},
        {"hosts_per_side", {"dumbbell"}},
        {"switches", {"ring"}},
        {"hosts_per_switch", {"ring"}},
        {"nodes", {"links"}},
        {"switch_nodes", {"links"}},
        {"links", {"links"}},
    };
    for (const auto& [key, kinds] : shapeKeys)
    {
        if (!r.Has(key) || std::find(kinds.begin(), kinds.end(), cfg.topology.kind) != kinds.end())
        {
            continue;
        }
        std::vector<std::string> quoted;
        for (const auto& k : kinds)
        {
            quoted.push_back(Quote(k));
        }
        const std::string problem = "only a " + Join(quoted, " or ") + " topology has it";
        if (kinds.front() == "links")
        {
            Fail(r.Path(key), problem);
        }
        cfg.warnings.push_back(r.Path(key) + ": " + problem + "; ignored");
    }
}

} // namespace

void
ParseTopology(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "topology");
    auto& t = cfg.topology;
    t.kind = r["kind"].get<std::string>();
    WarnOtherShapes(r, cfg);
    r.Read("leaves", t.leaves);
    r.Read("spines", t.spines); // one leaf and no spine is a single switch
    r.Read("hosts_per_leaf", t.hostsPerLeaf);
    r.Read("hosts_per_side", t.hostsPerSide);
    r.Read("hosts_per_switch", t.hostsPerSwitch);
    r.Read("switches", t.switches);
    r.Read("rail_groups", t.railGroups);
    r.Read("servers_per_rail_group", t.serversPerRailGroup);
    if (r.Has("servers"))
    {
        ParseServers(r, cfg);
    }
    else if (t.kind == "rail-optimized")
    {
        Fail(r.Path("servers"),
             "required by a \"rail-optimized\" topology (its nics are the rails)");
    }
    if (t.kind == "leaf-spine" && t.spines == 0 && t.leaves > 1)
    {
        Fail(r.Path("spines"), "must be at least 1 when there are several leaves");
    }
    if (t.kind == "rail-optimized" && t.spines == 0 && uint64_t{t.railGroups} * t.servers.nics > 1)
    {
        Fail(r.Path("spines"),
             "must be at least 1 when there are several leaves (rail_groups x servers.nics)");
    }
    r.Read("k", t.k);
    r.Read("host_gbps", t.hostGbps);
    r.Read("fabric_gbps", t.fabricGbps);
    r.Read("link_delay_us", t.linkDelayUs);
    r.Read("buffer_mb", t.bufferMb);
    r.Read("route_convergence_ms", t.routeConvergenceMs);
    if (t.kind == "links")
    {
        ParseLinksTopology(r, cfg);
        CheckServers(cfg);
        return;
    }

    uint64_t hosts = 0;
    std::string key;
    if (t.kind == "leaf-spine")
    {
        hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
        key = "hosts_per_leaf";
    }
    else if (t.kind == "rail-optimized")
    {
        hosts = uint64_t{t.railGroups} * t.serversPerRailGroup * t.servers.nics;
        key = "servers_per_rail_group";
    }
    else if (t.kind == "fat-tree")
    {
        hosts = uint64_t{t.k} * t.k * t.k / 4;
        key = "k";
    }
    else if (t.kind == "ring")
    {
        hosts = uint64_t{t.switches} * t.hostsPerSwitch;
        key = "hosts_per_switch";
    }
    else
    {
        hosts = 2 * uint64_t{t.hostsPerSide};
        key = "hosts_per_side";
    }
    if (hosts > kMaxHosts)
    {
        Fail(r.Path(key),
             "the topology would have " + std::to_string(hosts) + " hosts, more than " +
                 std::to_string(kMaxHosts));
    }
    CheckServers(cfg);
}

void
ParseTransport(const json& v, ScenarioConfig& cfg)
{
    // and a section per registered congestion control (transport.<name>)
    std::vector<std::string> transportKeys = SchemaKeys("transport");
    for (const auto& name : GetCcSections())
    {
        transportKeys.push_back(name);
    }
    ObjectReader r(v, "transport", transportKeys);
    auto& tr = cfg.transport;
    r.Read("mtu_bytes", tr.mtuBytes);
    tr.ccGiven = r.Has("cc");
    if (tr.ccGiven)
    {
        std::vector<std::string> algorithms;
        for (const auto& algorithm : RdmaCongestionControl::GetAlgorithms())
        {
            algorithms.push_back(algorithm.first);
        }
        tr.cc = ToOneOf(r["cc"], r.Path("cc"), algorithms);
    }
    r.Read("pfc", tr.pfc);
    ParseDcqcn(r.Has("dcqcn") ? &r["dcqcn"] : nullptr, r.Path("dcqcn"), cfg);
    ParseCcSections(r, cfg);
    r.Read("ack_timeout", tr.ackTimeout);
    r.Read("retry_cnt", tr.retryCnt);
    if (r.Has("ecn"))
    {
        ObjectReader e(r["ecn"], r.Path("ecn"));
        e.Read("kmin_kb", tr.ecn.kminKb);
        e.Read("kmax_kb", tr.ecn.kmaxKb);
        e.Read("pmax", tr.ecn.pmax);
        if (e.Has("per_rate"))
        {
            ParseEcnPerRate(e, cfg);
        }
        if (tr.ecn.kminKb > tr.ecn.kmaxKb)
        {
            // Blame the key the user wrote (kmax_kb if both were given).
            if (e.Has("kmax_kb"))
            {
                Fail(e.Path("kmax_kb"),
                     Num(tr.ecn.kmaxKb) + " is below kmin_kb " + Num(tr.ecn.kminKb));
            }
            Fail(e.Path("kmin_kb"), Num(tr.ecn.kminKb) + " is above kmax_kb " + Num(tr.ecn.kmaxKb));
        }
    }
}

ScenarioConfig::FaultConfig
ParseFault(const json& v, const std::string& path, const ScenarioConfig& cfg)
{
    ObjectReader r(v, path);
    ScenarioConfig::FaultConfig f;
    f.link = r["link"].get<std::string>();
    // "a<->b" (the cable, both directions), "a->b" (one direction) or "all"
    const auto cable = f.link.find("<->");
    const auto arrow = cable == std::string::npos ? f.link.find("->") : std::string::npos;
    if (f.link != "all")
    {
        const auto sep = cable != std::string::npos ? cable : arrow;
        const std::size_t len = cable != std::string::npos ? 3 : 2;
        if (sep == std::string::npos || !IsNodeName(f.link.substr(0, sep)) ||
            !IsNodeName(f.link.substr(sep + len)))
        {
            Fail(r.Path("link"),
                 Quote(f.link) + " is not a link (write \"a<->b\" for the cable between a and "
                                 "b, \"a->b\" for one direction, or \"all\")");
        }
    }
    f.setsLoss = r.Read("loss_rate", f.lossRate);
    if (r.Has("down_ms"))
    {
        if (f.link == "all" || arrow != std::string::npos)
        {
            Fail(r.Path("down_ms"), "a cable goes down as a whole: name it as \"a<->b\"");
        }
        r.Read("down_ms", f.downMs);
        if (*f.downMs >= cfg.stopMs)
        {
            Fail(r.Path("down_ms"),
                 Num(*f.downMs) + " is not before the scenario's stop_ms " + Num(cfg.stopMs));
        }
    }
    if (r.Has("up_ms"))
    {
        if (!f.downMs)
        {
            Fail(r.Path("up_ms"), "needs down_ms");
        }
        r.Read("up_ms", f.upMs);
        if (!(*f.upMs > *f.downMs))
        {
            Fail(r.Path("up_ms"),
                 "must be after down_ms " + Num(*f.downMs) + ", got " + Num(*f.upMs));
        }
    }
    if (!r.Has("loss_rate") && !r.Has("down_ms"))
    {
        Fail(path, "needs loss_rate or down_ms");
    }
    return f;
}

void
ParseTraces(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "traces");
    auto& t = cfg.traces;
    t.enabled = true;
    if (r.Read("interval_us", t.intervalUs))
    {
        if (t.intervalUs < 0.001 || t.intervalUs > cfg.stopMs * 1000)
        {
            Fail(r.Path("interval_us"),
                 "must be at least 0.001 and at most stop_ms x 1000, got " + Num(t.intervalUs));
        }
    }
    r.Read("rates", t.rates);
    if (r.Has("links"))
    {
        const json& links = r["links"];
        for (size_t i = 0; i < links.size(); ++i)
        {
            const std::string path = Index(r.Path("links"), i);
            const std::string link = links[i].get<std::string>();
            const auto arrow = link.find("->");
            if (arrow == std::string::npos || !IsNodeName(link.substr(0, arrow)) ||
                !IsNodeName(link.substr(arrow + 2)))
            {
                Fail(path, Quote(link) + " is not a link direction (write \"a->b\")");
            }
            t.links.push_back(link);
        }
    }
}

void
ParsePfcWatchdog(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "pfc_watchdog");
    auto& w = cfg.pfcWatchdog;
    w.enabled = true; // the section turns the watchdogs on unless it says otherwise
    r.Read("enabled", w.enabled);
    // The model's times have nanosecond resolution; a microsecond is the
    // least that means anything.
    for (const char* key : {"detection_ms", "restoration_ms"})
    {
        double& out = std::string(key) == "detection_ms" ? w.detectionMs : w.restorationMs;
        if (r.Read(key, out) && out > cfg.stopMs)
        {
            Fail(r.Path(key), "must be at most stop_ms " + Num(cfg.stopMs) + ", got " + Num(out));
        }
    }
    r.Read("action", w.action);
}

} // namespace scenario
} // namespace ns3
