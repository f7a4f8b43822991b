/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-files.h"
#include "hpcc-import.h"
#include "scenario-limits.h"

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

NS_LOG_COMPONENT_DEFINE("HpccTopologyFile");

namespace hpcc
{

using namespace scenario;

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
        double number = 0;
        std::string unit;
        if (SplitUnit(line.tokens[3], number, unit) && unit.empty() && number != 0)
        {
            // ns-3 would read seconds: a unit left out, never a cable (0: none)
            f.Fail(line.number,
                   "delay " + line.tokens[3] + " has no unit (ns-3 would read " + line.tokens[3] +
                       " s); write one, e.g. 0.001ms");
        }
        if (*delay < 0 || *delay > kMaxDelayNs)
        {
            f.Fail(line.number, "delay " + line.tokens[3] + " out of range (0 .. 1s)");
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
        parent[SetRoot(parent, cable.a)] = SetRoot(parent, cable.b);
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
        t.component.push_back(SetRoot(parent, id));
    }
    t.unread = f.Unread();
    return t;
}

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

/// "sw<id>" or "host<index>": the node's name in a "links" topology.
std::string
NodeName(const Topology& t, uint32_t id)
{
    return t.isSwitch[id] ? "sw" + std::to_string(id) : "host" + std::to_string(t.hostIndex[id]);
}

} // namespace hpcc
} // namespace ns3
