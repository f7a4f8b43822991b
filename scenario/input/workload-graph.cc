/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-graph.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/scenario-error.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadGraph");

std::string
WorkloadNodeField(const std::string& source, const WorkloadNode& node)
{
    std::string field = source + " node " + std::to_string(node.id);
    if (!node.name.empty())
    {
        field += " (" + node.name + ")";
    }
    return field;
}

void
SortWorkloadNodes(std::vector<WorkloadNode>& nodes, const std::string& source)
{
    NS_LOG_FUNCTION(nodes.size() << source);
    const uint32_t n = nodes.size();
    std::vector<uint32_t> missing(n, 0);      // unfinished dependencies per node
    std::vector<uint32_t> firstOut(n + 1, 0); // dependents, as a flat adjacency list
    for (auto& node : nodes)
    {
        std::sort(node.deps.begin(), node.deps.end());
        node.deps.erase(std::unique(node.deps.begin(), node.deps.end()), node.deps.end());
        for (uint32_t d : node.deps)
        {
            NS_ABORT_MSG_IF(d >= n, "dependency index out of range");
            ++firstOut[d + 1];
        }
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        firstOut[i + 1] += firstOut[i];
    }
    std::vector<uint32_t> dependents(firstOut[n]);
    std::vector<uint32_t> fill(firstOut.begin(), firstOut.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
    {
        missing[i] = nodes[i].deps.size();
        for (uint32_t d : nodes[i].deps)
        {
            dependents[fill[d]++] = i;
        }
    }
    // Kahn's algorithm, always taking the ready node that comes first in the
    // given order.
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (missing[i] == 0)
        {
            ready.push(i);
        }
    }
    std::vector<uint32_t> order;
    order.reserve(n);
    std::vector<uint32_t> position(n, n);
    while (!ready.empty())
    {
        const uint32_t i = ready.top();
        ready.pop();
        position[i] = order.size();
        order.push_back(i);
        for (uint32_t k = firstOut[i]; k < firstOut[i + 1]; ++k)
        {
            if (--missing[dependents[k]] == 0)
            {
                ready.push(dependents[k]);
            }
        }
    }
    if (order.size() != n)
    {
        // The first unplaced node in file order that is on a cycle: walk back
        // along unplaced dependencies until a node repeats.
        uint32_t i = 0;
        while (position[i] != n)
        {
            ++i;
        }
        std::vector<bool> seen(n, false);
        while (!seen[i])
        {
            seen[i] = true;
            for (uint32_t d : nodes[i].deps)
            {
                if (position[d] == n)
                {
                    i = d;
                    break;
                }
            }
        }
        throw ScenarioError(WorkloadNodeField(source, nodes[i]),
                            "is on a dependency cycle (" + std::to_string(n - order.size()) +
                                " nodes can never run)");
    }
    bool sorted = true;
    for (uint32_t k = 0; k < n && sorted; ++k)
    {
        sorted = order[k] == k;
    }
    if (sorted)
    {
        return;
    }
    std::vector<WorkloadNode> out;
    out.reserve(n);
    for (uint32_t i : order)
    {
        out.push_back(std::move(nodes[i]));
        for (auto& d : out.back().deps)
        {
            d = position[d];
        }
        std::sort(out.back().deps.begin(), out.back().deps.end());
    }
    nodes = std::move(out);
}

namespace
{

/// Where a node is: its rank and index.
struct NodeRef
{
    uint32_t rank;  //!< the rank
    uint32_t index; //!< the node's index in the rank's nodes
};

/// "all-reduce of 1048576 bytes"
std::string
Describe(const WorkloadNode& node)
{
    return std::string(CollectiveTypeName(node.collective)) + " of " + std::to_string(node.bytes) +
           " bytes";
}

/// "group 2 (ranks 0 1 2 3)"
std::string
GroupName(const WorkloadTrace& trace, uint32_t group)
{
    std::string s = "group " + std::to_string(group) + " (ranks";
    const auto& members = trace.groups[group];
    for (size_t i = 0; i < members.size() && i < 16; ++i)
    {
        s += " " + std::to_string(members[i]);
    }
    if (members.size() > 16)
    {
        s += " ...";
    }
    return s + ")";
}

void
CheckGroups(const WorkloadTrace& trace, const std::string& source)
{
    for (uint32_t g = 0; g < trace.groups.size(); ++g)
    {
        const auto& members = trace.groups[g];
        if (members.empty())
        {
            throw ScenarioError(source, "communication group " + std::to_string(g) + " is empty");
        }
        for (size_t i = 0; i < members.size(); ++i)
        {
            if (members[i] >= trace.ranks)
            {
                throw ScenarioError(source,
                                    GroupName(trace, g) + " names rank " +
                                        std::to_string(members[i]) + ", the trace has " +
                                        std::to_string(trace.ranks) + " ranks");
            }
            if (i > 0 && members[i] <= members[i - 1])
            {
                throw ScenarioError(source,
                                    GroupName(trace, g) +
                                        " does not list distinct ranks in ascending order");
            }
        }
    }
}

} // namespace

void
CheckWorkloadTrace(WorkloadTrace& trace, const std::vector<std::string>& rankSources)
{
    NS_LOG_FUNCTION(trace.source << trace.ranks);
    NS_ABORT_MSG_IF(rankSources.size() != trace.ranks || trace.nodes.size() != trace.ranks,
                    "one source and one node list per rank");
    CheckGroups(trace, trace.source);
    const uint32_t nGroups = trace.groups.size();
    // Per group and member: its collectives in node order.
    std::vector<std::map<uint32_t, std::vector<uint32_t>>> collectives(nGroups);
    // Per (from, to, tag): the sends and the receives, in node order.
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>,
             std::pair<std::vector<NodeRef>, std::vector<NodeRef>>>
        p2p;
    for (uint32_t r = 0; r < trace.ranks; ++r)
    {
        const auto& nodes = trace.nodes[r];
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            const auto& node = nodes[i];
            switch (node.kind)
            {
            case WorkloadNode::Kind::COLLECTIVE: {
                if (node.group >= nGroups)
                {
                    throw ScenarioError(WorkloadNodeField(rankSources[r], node),
                                        "names communication group " + std::to_string(node.group) +
                                            ", there are " + std::to_string(nGroups));
                }
                const auto& members = trace.groups[node.group];
                if (!std::binary_search(members.begin(), members.end(), r))
                {
                    throw ScenarioError(WorkloadNodeField(rankSources[r], node),
                                        "rank " + std::to_string(r) + " is not a member of " +
                                            GroupName(trace, node.group));
                }
                collectives[node.group][r].push_back(i);
                break;
            }
            case WorkloadNode::Kind::SEND:
            case WorkloadNode::Kind::RECV: {
                const bool send = node.kind == WorkloadNode::Kind::SEND;
                if (node.peer >= trace.ranks || node.peer == r)
                {
                    throw ScenarioError(WorkloadNodeField(rankSources[r], node),
                                        std::string(send ? "sends to" : "receives from") +
                                            " rank " + std::to_string(node.peer) +
                                            ", not another rank of the " +
                                            std::to_string(trace.ranks));
                }
                auto& entry = send ? p2p[{r, node.peer, node.tag}] : p2p[{node.peer, r, node.tag}];
                (send ? entry.first : entry.second).push_back({r, i});
                break;
            }
            default:
                break;
            }
        }
    }
    for (uint32_t g = 0; g < nGroups; ++g)
    {
        const auto& members = trace.groups[g];
        const auto& perRank = collectives[g];
        if (perRank.empty())
        {
            continue;
        }
        // The member with the longest list is the reference: a member that
        // lacks one of its collectives is named.
        uint32_t ref = members[0];
        size_t longest = 0;
        for (const auto& [rank, list] : perRank)
        {
            if (list.size() > longest)
            {
                longest = list.size();
                ref = rank;
            }
        }
        const auto& refList = perRank.at(ref);
        for (uint32_t m : members)
        {
            auto it = perRank.find(m);
            const size_t have = it == perRank.end() ? 0 : it->second.size();
            for (size_t k = 0; k < have; ++k)
            {
                const auto& a = trace.nodes[ref][refList[k]];
                const auto& b = trace.nodes[m][it->second[k]];
                if (a.collective != b.collective || a.bytes != b.bytes)
                {
                    throw ScenarioError(WorkloadNodeField(rankSources[m], b),
                                        "collective #" + std::to_string(k + 1) + " of " +
                                            GroupName(trace, g) + " is " + Describe(b) +
                                            " on rank " + std::to_string(m) + " but " +
                                            Describe(a) + " on rank " + std::to_string(ref));
                }
            }
            if (have < refList.size())
            {
                const auto& a = trace.nodes[ref][refList[have]];
                throw ScenarioError(
                    WorkloadNodeField(rankSources[ref], a),
                    "collective #" + std::to_string(have + 1) + " of " + GroupName(trace, g) +
                        " (" + Describe(a) + ") has no counterpart on rank " + std::to_string(m) +
                        ", which has " + std::to_string(have) + " collectives in the group");
            }
        }
    }
    for (auto& [key, lists] : p2p)
    {
        const auto& [from, to, tag] = key;
        auto& sends = lists.first;
        auto& recvs = lists.second;
        const size_t n = std::min(sends.size(), recvs.size());
        for (size_t k = 0; k < n; ++k)
        {
            const auto& s = trace.nodes[sends[k].rank][sends[k].index];
            auto& rv = trace.nodes[recvs[k].rank][recvs[k].index];
            if (rv.bytes == 0)
            {
                rv.bytes = s.bytes;
            }
            else if (rv.bytes != s.bytes)
            {
                throw ScenarioError(WorkloadNodeField(rankSources[to], rv),
                                    "receives " + std::to_string(rv.bytes) + " bytes from rank " +
                                        std::to_string(from) + " (tag " + std::to_string(tag) +
                                        "), whose send is of " + std::to_string(s.bytes) +
                                        " bytes");
            }
        }
        if (sends.size() > n)
        {
            const auto& s = trace.nodes[from][sends[n].index];
            throw ScenarioError(WorkloadNodeField(rankSources[from], s),
                                "send to rank " + std::to_string(to) + " (tag " +
                                    std::to_string(tag) + ") has no matching receive on rank " +
                                    std::to_string(to));
        }
        if (recvs.size() > n)
        {
            const auto& rv = trace.nodes[to][recvs[n].index];
            throw ScenarioError(WorkloadNodeField(rankSources[to], rv),
                                "receive from rank " + std::to_string(from) + " (tag " +
                                    std::to_string(tag) + ") has no matching send on rank " +
                                    std::to_string(from));
        }
    }
}

} // namespace ns3
