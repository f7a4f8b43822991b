/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-files.h"
#include "hpcc-import.h"

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

NS_LOG_COMPONENT_DEFINE("HpccConfigImport");

namespace hpcc
{

using namespace scenario;

namespace
{

/// The algorithm of each CC_MODE.
const std::map<uint64_t, std::string> kCcModes = {{1, "dcqcn"},
                                                  {3, "hpcc"},
                                                  {7, "timely"},
                                                  {8, "dctcp"},
                                                  {10, "hpcc-pint"}};

} // namespace

void
ImportTransport(ConfigImport& x)
{
    // Configuration.
    const ConfigReader& c = x.c;
    TextFile& configFile = x.configFile;
    Report& report = x.report;
    json& transport = x.transport;
    json& dcqcn = x.dcqcn;
    json& defaults = x.defaults;
    std::set<std::string>& handled = x.handled;
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

    handled.insert(
        {"CC_MODE", "PACKET_PAYLOAD_SIZE", "SIMULATOR_STOP_TIME", "TOPOLOGY_FILE", "FLOW_FILE"});
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
    else if (cc == "dcqcn")
    {
        // that simulator's DCQCN+w: a window of one largest BDP
        handled.insert({"HAS_WIN", "VAR_WIN"});
        if (c.Has("HAS_WIN") && c.Whole("HAS_WIN", 1) == 1)
        {
            dcqcn["window_bdp"] = 1;
            dcqcn["variable_window"] = !c.Has("VAR_WIN") || c.Whole("VAR_WIN", 1) == 1;
        }
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
            // (a floor above a NIC's line rate: DCQCN would never slow down)
            for (const auto& cable : x.topo.cables)
            {
                if ((x.topo.hostIndex[cable.a] >= 0 || x.topo.hostIndex[cable.b] >= 0) &&
                    minRate > cable.bps)
                {
                    configFile.Fail(c.At("MIN_RATE").number,
                                    "MIN_RATE " + Num(minRate / 1e9) +
                                        " Gb/s is above a host's line rate, " +
                                        Num(cable.bps / 1e9) + " Gb/s (topology line " +
                                        std::to_string(cable.line) + ")");
                }
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
}

void
ImportFabric(ConfigImport& x)
{
    const ConfigReader& c = x.c;
    TextFile& configFile = x.configFile;
    const Topology& topo = x.topo;
    const std::string& topoPath = x.topoPath;
    const double stopS = x.stopS;
    Report& report = x.report;
    json& transport = x.transport;
    json& faults = x.faults;
    json& topology = x.topology;
    std::set<std::string>& handled = x.handled;
    // Switches. A buffer too small is as often a link too long (its PFC
    // headroom is rate x delay): the message names the longest link too.
    const auto slowest = std::max_element(
        topo.cables.begin(),
        topo.cables.end(),
        [](const Topology::Cable& a, const Topology::Cable& b) { return a.delayNs < b.delayNs; });
    const std::string longest = slowest == topo.cables.end()
                                    ? ""
                                    : ", whose longest link is " + topoPath + " line " +
                                          std::to_string(slowest->line) + " (" +
                                          Number(slowest->delayNs / 1e3).dump() + " us)";
    handled.insert("BUFFER_SIZE");
    if (c.Has("BUFFER_SIZE"))
    {
        const double mib = c.Real("BUFFER_SIZE", 1e-6, 9e5);
        topology["buffer_mb"] = Number(mib * 1.048576); // MiB -> MB
        x.origins["topology.buffer_mb"] = {
            "hpcc.config",
            configFile.name + " line " + std::to_string(c.At("BUFFER_SIZE").number) +
                ": BUFFER_SIZE " + c.Value("BUFFER_SIZE") + " (MiB) on the topology" + longest};
    }
    else
    {
        // the default buffer, which the topology's links may not fit
        x.origins["topology.buffer_mb"] = {"hpcc.topology",
                                           topoPath +
                                               " (with the default switch buffer: no "
                                               "BUFFER_SIZE in hpcc.config)" +
                                               longest};
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
            const double downMs = 2000 + static_cast<double>(*t) / 1e3;
            if (downMs >= stopS * 1e3)
            {
                report.unread.push_back("LINK_DOWN at " + Num(downMs / 1e3) +
                                        " s, at or after the end of the run");
            }
            else
            {
                faults.push_back({{"link",
                                   NodeName(topo, static_cast<uint32_t>(*a)) + "<->" +
                                       NodeName(topo, static_cast<uint32_t>(*b))},
                                  {"down_ms", Number(downMs)}});
                topology["route_convergence_ms"] = 0;
            }
        }
    }
}

} // namespace hpcc
} // namespace ns3
