/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "double-binary-tree-allreduce.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DoubleBinaryTreeAllreduce");

NS_OBJECT_ENSURE_REGISTERED(DoubleBinaryTreeAllreduce);

TypeId
DoubleBinaryTreeAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::DoubleBinaryTreeAllreduce")
            .SetParent<ScheduledCollective>()
            .SetGroupName("Flux")
            .AddConstructor<DoubleBinaryTreeAllreduce>()
            .AddAttribute("ChunkBytes",
                          "Chunk of each tree's half of the buffer: the unit that goes up and "
                          "down the trees in a pipeline.",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&DoubleBinaryTreeAllreduce::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>(1));
    return tid;
}

DoubleBinaryTreeAllreduce::DoubleBinaryTreeAllreduce()
    : m_chunkBytes(131072)
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_REDUCE, "double-binary-tree");
}

DoubleBinaryTreeAllreduce::~DoubleBinaryTreeAllreduce() = default;

std::vector<DoubleBinaryTreeAllreduce::Node>
DoubleBinaryTreeAllreduce::BuildTree(uint32_t n, uint32_t shift)
{
    // In-order positions 1 .. n: position i sits at the level of its lowest
    // set bit; its children are i -+ half that bit (the right one the
    // farthest that exists), so the odd positions, half the ranks, are the
    // leaves. Position i is rank (i - 1 + shift) mod n.
    std::vector<Node> nodes(n);
    const auto rankAt = [n, shift](uint32_t i) { return (i - 1 + shift) % n; };
    std::function<uint32_t(uint32_t, uint32_t)> build = [&](uint32_t i, uint32_t parent) {
        const uint32_t rank = rankAt(i);
        nodes[rank].parent = parent;
        const uint32_t bit = i & (~i + 1);
        uint32_t height = 0;
        uint32_t d = bit / 2;
        if (d > 0)
        {
            const uint32_t left = build(i - d, rank);
            nodes[rank].children.push_back(left);
            height = nodes[left].height + 1;
        }
        while (d > 0 && i + d > n)
        {
            d /= 2;
        }
        if (d > 0)
        {
            const uint32_t right = build(i + d, rank);
            nodes[rank].children.push_back(right);
            height = std::max(height, nodes[right].height + 1);
        }
        nodes[rank].height = height;
        return rank;
    };
    uint32_t root = 1;
    while (2 * root <= n)
    {
        root *= 2;
    }
    build(root, UINT32_MAX);
    return nodes;
}

void
DoubleBinaryTreeAllreduce::Build(uint32_t n) const
{
    if (m_builtFor == n)
    {
        return;
    }
    m_depth = 0;
    for (uint32_t t = 0; t < 2; ++t)
    {
        m_trees[t] = BuildTree(n, t);
        for (const auto& node : m_trees[t])
        {
            m_depth = std::max(m_depth, node.height);
        }
    }
    m_builtFor = n;
}

uint32_t
DoubleBinaryTreeAllreduce::GetNStepsFor(uint32_t n) const
{
    Build(n);
    return 2 * m_depth;
}

JobStepTag::Phase
DoubleBinaryTreeAllreduce::GetPhase(uint32_t step) const
{
    Build(GetNRanks());
    return step < m_depth ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

uint32_t
DoubleBinaryTreeAllreduce::GetPieces(uint64_t bytes) const
{
    const uint64_t half = std::max<uint64_t>(1, bytes / 2);
    return static_cast<uint32_t>(std::max<uint64_t>(1, (half + m_chunkBytes - 1) / m_chunkBytes));
}

uint64_t
DoubleBinaryTreeAllreduce::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    Build(n);
    const uint64_t half[2] = {bytes / 2, bytes - bytes / 2};
    uint64_t most = 0;
    for (uint32_t r = 0; r < n; ++r)
    {
        uint64_t sent = 0;
        for (uint32_t t = 0; t < 2; ++t)
        {
            const Node& node = m_trees[t][r];
            sent += half[t] * (node.children.size() + (node.parent != UINT32_MAX ? 1 : 0));
        }
        most = std::max(most, sent);
    }
    return most;
}

void
DoubleBinaryTreeAllreduce::GetSends(uint32_t n,
                                    uint32_t rank,
                                    uint32_t step,
                                    uint64_t bytes,
                                    std::vector<Send>& sends) const
{
    Build(n);
    sends.clear();
    const uint64_t half[2] = {bytes / 2, bytes - bytes / 2};
    const auto add = [&sends](uint32_t peer, uint64_t size) {
        // the two trees may send to the same peer in one step: one message
        for (auto& s : sends)
        {
            if (s.peer == peer)
            {
                s.bytes += size;
                return;
            }
        }
        sends.push_back(Send{peer, size});
    };
    for (uint32_t t = 0; t < 2; ++t)
    {
        const Node& node = m_trees[t][rank];
        if (step < m_depth)
        {
            if (node.parent != UINT32_MAX && node.height == step)
            {
                add(node.parent, half[t]);
            }
        }
        else if (step == 2 * m_depth - 1 - node.height)
        {
            for (uint32_t child : node.children)
            {
                add(child, half[t]);
            }
        }
    }
}

uint32_t
DoubleBinaryTreeAllreduce::GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const
{
    Build(n);
    // distinct senders: the two trees' messages from one peer are one
    uint32_t from[4];
    uint32_t count = 0;
    const auto add = [&from, &count](uint32_t peer) {
        if (std::find(from, from + count, peer) == from + count)
        {
            from[count++] = peer;
        }
    };
    for (uint32_t t = 0; t < 2; ++t)
    {
        const Node& node = m_trees[t][rank];
        if (step < m_depth)
        {
            for (uint32_t child : node.children)
            {
                if (m_trees[t][child].height == step)
                {
                    add(child);
                }
            }
        }
        else if (node.parent != UINT32_MAX &&
                 step == 2 * m_depth - 1 - m_trees[t][node.parent].height)
        {
            add(node.parent);
        }
    }
    return count;
}

} // namespace ns3
