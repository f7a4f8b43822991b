/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * The sections given element by element: a "links" topology's cables and a
 * "flows" pattern's flows (the form the HPCC simulator's files take, see
 * hpcc-import.h).
 */

#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/log.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioExplicitSections");

namespace scenario
{

using json = nlohmann::json;

void
ParseLinksTopology(const ObjectReader& r, ScenarioConfig& cfg)
{
    auto& t = cfg.topology;
    t.nodes = r.Required("nodes").get<uint32_t>();
    const json& sw = r.Required("switch_nodes");
    const std::string swPath = r.Path("switch_nodes");
    std::vector<int64_t> switchIndex(t.nodes, -1);
    for (size_t i = 0; i < sw.size(); ++i)
    {
        const auto id =
            static_cast<uint32_t>(ToInteger(sw[i], Index(swPath, i), Int(0, t.nodes - 1)));
        if (switchIndex[id] >= 0)
        {
            Fail(Index(swPath, i), "node " + std::to_string(id) + " is listed twice");
        }
        switchIndex[id] = static_cast<int64_t>(t.switchNodes.size());
        t.switchNodes.push_back(id);
    }
    if (t.switchNodes.size() >= t.nodes)
    {
        Fail(swPath, "every node is a switch: a fabric needs hosts");
    }
    std::vector<int64_t> hostIndex(t.nodes, -1);
    for (uint32_t id = 0; id < t.nodes; ++id)
    {
        if (switchIndex[id] < 0)
        {
            hostIndex[id] = static_cast<int64_t>(t.hostNodes.size());
            t.hostNodes.push_back(id);
        }
    }
    if (t.hostNodes.size() > kMaxHosts)
    {
        Fail(r.Path("nodes"),
             "the topology would have " + std::to_string(t.hostNodes.size()) +
                 " hosts, more than " + std::to_string(kMaxHosts));
    }

    const json& links = r.Required("links");
    const std::string linksPath = r.Path("links");
    std::vector<int64_t> hostLink(t.nodes, -1); // per host node: its cable
    std::map<std::pair<uint32_t, uint32_t>, size_t> seen;
    std::vector<uint32_t> parent(t.switchNodes.size());
    std::iota(parent.begin(), parent.end(), 0);
    double fabricGbps = 0;
    double delayUs = 0;
    std::vector<uint32_t> hostSwitch(t.hostNodes.size(), 0);
    for (size_t i = 0; i < links.size(); ++i)
    {
        const std::string path = Index(linksPath, i);
        ObjectReader l(links[i], path);
        ScenarioConfig::TopologyConfig::LinkConfig link;
        link.a = l["a"].get<uint32_t>();
        link.b = l["b"].get<uint32_t>();
        for (const auto& [key, id] : {std::make_pair("a", link.a), std::make_pair("b", link.b)})
        {
            if (id >= t.nodes)
            {
                Fail(l.Path(key),
                     "node " + std::to_string(id) + " is not a node (nodes 0.." +
                         std::to_string(t.nodes - 1) + ")");
            }
        }
        if (link.a == link.b)
        {
            Fail(l.Path("b"), "joins node " + std::to_string(link.a) + " to itself");
        }
        const bool aSwitch = switchIndex[link.a] >= 0;
        const bool bSwitch = switchIndex[link.b] >= 0;
        if (!aSwitch && !bSwitch)
        {
            Fail(l.Path("b"),
                 "joins two hosts (" + std::to_string(link.a) + " and " + std::to_string(link.b) +
                     "); a host's cable goes to a switch");
        }
        const auto key = std::minmax(link.a, link.b);
        const auto [it, fresh] = seen.emplace(key, i);
        if (!fresh)
        {
            Fail(path,
                 "a second cable between nodes " + std::to_string(key.first) + " and " +
                     std::to_string(key.second) + " (the first is " + Index(linksPath, it->second) +
                     ")");
        }
        const bool hostCable = !aSwitch || !bSwitch;
        link.gbps = hostCable ? t.hostGbps : t.fabricGbps;
        link.delayUs = t.linkDelayUs;
        l.Read("gbps", link.gbps);
        l.Read("delay_us", link.delayUs);
        delayUs = std::max(delayUs, link.delayUs);
        if (hostCable)
        {
            const uint32_t host = aSwitch ? link.b : link.a;
            if (hostLink[host] >= 0)
            {
                Fail(path,
                     "host node " + std::to_string(host) + " has a second cable (the first is " +
                         Index(linksPath, static_cast<size_t>(hostLink[host])) +
                         "); a host has one");
            }
            hostLink[host] = static_cast<int64_t>(i);
            hostSwitch[hostIndex[host]] =
                static_cast<uint32_t>(switchIndex[aSwitch ? link.a : link.b]);
        }
        else
        {
            fabricGbps = std::max(fabricGbps, link.gbps);
            const uint32_t ra = SetRoot(parent, static_cast<uint32_t>(switchIndex[link.a]));
            const uint32_t rb = SetRoot(parent, static_cast<uint32_t>(switchIndex[link.b]));
            parent[ra] = rb;
        }
        t.links.push_back(link);
    }
    for (uint32_t id : t.hostNodes)
    {
        if (hostLink[id] < 0)
        {
            Fail(linksPath, "host node " + std::to_string(id) + " has no cable");
        }
    }
    // The rates and delay the rest of the scenario speaks of: the first
    // host's cable (the NIC rate, as the HPCC simulator takes it), the
    // fastest switch cable, the longest delay.
    t.hostGbps = t.links[static_cast<size_t>(hostLink[t.hostNodes[0]])].gbps;
    t.fabricGbps = fabricGbps > 0 ? fabricGbps : t.hostGbps;
    t.linkDelayUs = delayUs;
    for (uint32_t h = 0; h < t.hostNodes.size(); ++h)
    {
        t.hostComponent.push_back(SetRoot(parent, hostSwitch[h]));
    }
}

std::vector<ScenarioConfig::BackgroundConfig::FlowConfig>
ParseFlowList(const ObjectReader& r, const ScenarioConfig& cfg)
{
    using Flow = ScenarioConfig::BackgroundConfig::FlowConfig;
    const json& flows = r.Required("flows");
    const std::string path = r.Path("flows");
    if (flows.empty())
    {
        Fail(path, "needs at least 1 flow");
    }
    const uint32_t hostCount = cfg.HostCount();
    const auto& component = cfg.topology.hostComponent;
    std::vector<Flow> out;
    out.reserve(flows.size());
    double total = 0;
    for (size_t i = 0; i < flows.size(); ++i)
    {
        ObjectReader f(flows[i], Index(path, i));
        Flow flow;
        flow.src = ToHost(f["src"], f.Path("src"), hostCount);
        flow.dst = ToHost(f["dst"], f.Path("dst"), hostCount);
        if (flow.src == flow.dst)
        {
            Fail(f.Path("dst"), "host " + std::to_string(flow.dst) + " is the sender");
        }
        if (!component.empty() && component[flow.src] != component[flow.dst])
        {
            Fail(f.Path("dst"),
                 "no path from host " + std::to_string(flow.src) + " to host " +
                     std::to_string(flow.dst) + " (their switches are not connected)");
        }
        flow.bytes = f["bytes"].get<uint64_t>();
        f.Read("start_ms", flow.startMs);
        if (flow.startMs >= cfg.stopMs)
        {
            Fail(f.Path("start_ms"),
                 Num(flow.startMs) + " is not before stop_ms " + Num(cfg.stopMs));
        }
        if (!out.empty() && flow.startMs < out.back().startMs)
        {
            Fail(f.Path("start_ms"),
                 Num(flow.startMs) + " is before the previous flow's " + Num(out.back().startMs) +
                     " (flows are listed by start time)");
        }
        f.Read("dport", flow.dport);
        total += static_cast<double>(flow.bytes);
        out.push_back(flow);
    }
    if (total > static_cast<double>(kMaxTotalBytes))
    {
        Fail(path, "the flows would send " + Num(total) + " bytes, more than 2^63 - 1");
    }
    return out;
}

void
ParseEcnPerRate(const ObjectReader& e, ScenarioConfig& cfg)
{
    const json& v = e["per_rate"];
    const std::string path = e.Path("per_rate");
    auto& perRate = cfg.transport.ecn.perRate;
    for (size_t i = 0; i < v.size(); ++i)
    {
        ObjectReader r(v[i], Index(path, i));
        ScenarioConfig::EcnConfig::RateThresholds t;
        t.gbps = r["gbps"].get<double>();
        t.kminKb = r["kmin_kb"].get<double>();
        t.kmaxKb = r["kmax_kb"].get<double>();
        t.pmax = r["pmax"].get<double>();
        if (t.kminKb > t.kmaxKb)
        {
            Fail(r.Path("kmax_kb"), Num(t.kmaxKb) + " is below kmin_kb " + Num(t.kminKb));
        }
        for (const auto& other : perRate)
        {
            if (static_cast<uint64_t>(other.gbps * 1e9) == static_cast<uint64_t>(t.gbps * 1e9))
            {
                Fail(r.Path("gbps"), Num(t.gbps) + " Gb/s is listed twice");
            }
        }
        perRate.push_back(t);
    }
}

} // namespace scenario
} // namespace ns3
