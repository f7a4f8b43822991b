/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aicb-workload-reader.h"

#include "aicb-workload-file.h"
#include "workload-graph.h"

#include "ns3/log.h"
#include "ns3/scenario-error.h"

#include <map>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AicbWorkloadReader");

namespace
{

using aicb::DP;
using aicb::DP_EP;
using aicb::EP;
using aicb::GroupKind;
using aicb::N_GROUP_KINDS;
using aicb::TP;

/// The shape of the job: sizes of its dimensions.
struct Shape
{
    uint32_t tp;    //!< tensor parallel
    uint32_t pp;    //!< pipeline stages
    uint32_t dp;    //!< data parallel
    uint32_t ep;    //!< expert parallel (within DP)
    uint32_t ranks; //!< tp * pp * dp

    /// The first member of rank r's group of kind k (the group's key).
    uint32_t First(uint32_t r, GroupKind k) const
    {
        return Members(r, k, true)[0];
    }

    /// The members of rank r's group of kind k, ascending (only the first if \p first).
    std::vector<uint32_t> Members(uint32_t r, GroupKind k, bool first = false) const
    {
        const uint32_t t = r % tp;
        const uint32_t s = (r / tp) % pp;
        const uint32_t d = r / (tp * pp);
        const uint32_t stride = tp * pp;
        std::vector<uint32_t> m;
        const uint32_t n = first ? 1 : k == TP ? tp : k == DP ? dp : k == EP ? ep : dp / ep;
        switch (k)
        {
        case TP:
            for (uint32_t i = 0; i < n; ++i)
            {
                m.push_back(r - t + i);
            }
            break;
        case DP:
            for (uint32_t i = 0; i < n; ++i)
            {
                m.push_back(i * stride + s * tp + t);
            }
            break;
        case EP:
            for (uint32_t i = 0; i < n; ++i)
            {
                m.push_back((d / ep * ep + i) * stride + s * tp + t);
            }
            break;
        default:
            for (uint32_t i = 0; i < n; ++i)
            {
                m.push_back((i * ep + d % ep) * stride + s * tp + t);
            }
            break;
        }
        return m;
    }
};

/// Appends one rank's nodes.
class RankBuilder
{
  public:
    RankBuilder(std::vector<WorkloadNode>& nodes, const uint32_t* groupOf)
        : m_nodes(nodes),
          m_groupOf(groupOf)
    {
    }

    /// Add a node depending on \p dep (none if negative); return its index.
    uint32_t Add(WorkloadNode::Kind kind, const std::string& name, int64_t dep)
    {
        WorkloadNode n;
        n.id = m_nodes.size();
        n.name = name;
        n.kind = kind;
        if (dep >= 0)
        {
            n.deps.push_back(dep);
        }
        m_nodes.push_back(std::move(n));
        return m_nodes.size() - 1;
    }

    uint32_t Compute(const std::string& name, uint64_t ns, int64_t dep)
    {
        const uint32_t i = Add(WorkloadNode::Kind::COMPUTE, name, dep);
        m_nodes[i].durationNs = ns;
        return i;
    }

    /// The collective after node \p dep, or nullopt when there is none to run.
    std::optional<uint32_t> Collective(const std::string& name, const aicb::Comm& c, uint32_t dep)
    {
        if (!c.present || m_groupOf[c.group] == kNoGroup)
        {
            return std::nullopt;
        }
        const uint32_t i = Add(WorkloadNode::Kind::COLLECTIVE, name, dep);
        m_nodes[i].collective = c.type;
        m_nodes[i].bytes = c.bytes;
        m_nodes[i].group = m_groupOf[c.group];
        return i;
    }

    uint32_t P2p(bool send,
                 const std::string& name,
                 uint32_t peer,
                 uint32_t tag,
                 uint64_t bytes,
                 int64_t dep)
    {
        const uint32_t i =
            Add(send ? WorkloadNode::Kind::SEND : WorkloadNode::Kind::RECV, name, dep);
        m_nodes[i].peer = peer;
        m_nodes[i].tag = tag;
        m_nodes[i].bytes = bytes;
        return i;
    }

    static constexpr uint32_t kNoGroup = UINT32_MAX; //!< a one-rank group

  private:
    std::vector<WorkloadNode>& m_nodes; //!< the rank's nodes
    const uint32_t* m_groupOf;          //!< per GroupKind: the rank's group or kNoGroup
};

/// Build rank r's iteration.
void
BuildRank(RankBuilder& b,
          const std::vector<aicb::Layer>& layers,
          const Shape& shape,
          uint64_t ppComm,
          uint32_t r)
{
    const uint32_t stage = (r / shape.tp) % shape.pp;
    const bool p2p = shape.pp > 1 && ppComm > 0;
    const bool first = stage == 0;
    const bool last = stage == shape.pp - 1;
    int64_t prev = -1;
    if (p2p && !first)
    {
        prev = b.P2p(false, "pp:recv-activations", r - shape.tp, 0, ppComm, prev);
    }
    for (const auto& l : layers)
    {
        prev = b.Compute(l.name + ":fwd", l.fwdNs, prev);
        prev = b.Collective(l.name + ":fwd-comm", l.fwd, prev).value_or(prev);
    }
    if (p2p && !last)
    {
        b.P2p(true, "pp:send-activations", r + shape.tp, 0, ppComm, prev);
        prev = b.P2p(false, "pp:recv-gradients", r + shape.tp, 1, ppComm, prev);
    }
    for (auto it = layers.rbegin(); it != layers.rend(); ++it)
    {
        const aicb::Layer& l = *it;
        prev = b.Compute(l.name + ":ig", l.igNs, prev);
        prev = b.Collective(l.name + ":ig-comm", l.ig, prev).value_or(prev);
        prev = b.Compute(l.name + ":wg", l.wgNs, prev);
        if (auto wg = b.Collective(l.name + ":wg-comm", l.wg, prev))
        {
            b.Compute(l.name + ":update", l.updateNs, *wg);
        }
    }
    if (p2p && !first)
    {
        b.P2p(true, "pp:send-gradients", r - shape.tp, 1, ppComm, prev);
    }
}

} // namespace

WorkloadTrace
ReadAicbWorkload(const std::string& file, const AicbOptions& options)
{
    NS_LOG_FUNCTION(file << options.ranks);
    aicb::File parsed = aicb::ParseFile(file);
    aicb::Header& header = parsed.header;
    const std::vector<aicb::Layer>& layers = parsed.layers;
    const auto fail = [&file](const std::string& problem) {
        throw ScenarioError(file + " line 1", problem);
    };
    // The job's shape.
    const uint64_t ranks = options.ranks ? options.ranks : header.allGpus;
    if (ranks == 0)
    {
        throw ScenarioError("ranks",
                            "required: " + file + " has no all_gpus to give the job's rank count");
    }
    if (options.ranks && header.allGpus && options.ranks != header.allGpus)
    {
        fail("all_gpus is " + std::to_string(header.allGpus) + ", the job has " +
             std::to_string(options.ranks) + " ranks");
    }
    if (options.checkRanks)
    {
        options.checkRanks(ranks);
    }
    if (header.kind == "DATA" || header.kind == "MICRO")
    {
        header.tp = 1;
        header.pp = 1;
    }
    else if (header.kind == "MODEL")
    {
        header.tp = ranks;
        header.pp = 1;
    }
    if (ranks % (header.tp * header.pp) != 0)
    {
        fail("TP " + std::to_string(header.tp) + " x PP " + std::to_string(header.pp) +
             " does not divide the " + std::to_string(ranks) + " ranks");
    }
    Shape shape{static_cast<uint32_t>(header.tp),
                static_cast<uint32_t>(header.pp),
                static_cast<uint32_t>(ranks / (header.tp * header.pp)),
                static_cast<uint32_t>(header.ep),
                static_cast<uint32_t>(ranks)};
    if (shape.dp % shape.ep != 0)
    {
        fail("ep " + std::to_string(shape.ep) + " does not divide the data-parallel size " +
             std::to_string(shape.dp));
    }
    const uint64_t perRank = layers.size() * 7 + 4;
    if (perRank * shape.ranks > options.maxNodes)
    {
        fail("up to " + std::to_string(perRank) + " nodes on each of " +
             std::to_string(shape.ranks) + " ranks, more than the " +
             std::to_string(options.maxNodes) + " a workload may have");
    }
    WorkloadTrace trace;
    trace.source = file;
    trace.ranks = shape.ranks;
    trace.nodes.resize(shape.ranks);
    // Groups are made on first use; a group of a kind is known by its first member.
    std::map<std::pair<GroupKind, uint32_t>, uint32_t> groupIndex;
    // Only the kinds of group some collective runs in are made.
    bool used[N_GROUP_KINDS] = {false, false, false, false};
    for (const auto& l : layers)
    {
        for (const aicb::Comm* c : {&l.fwd, &l.ig, &l.wg})
        {
            used[c->group] = used[c->group] || c->present;
        }
    }
    // Collectives of one-rank groups are left out: say how many, and the first.
    const char* kindName[N_GROUP_KINDS] = {"TP", "DP", "EP", "DP_EP"};
    uint64_t leftOut = 0;
    for (const auto& l : layers)
    {
        const char* column[] = {"forward", "input-gradient", "weight-gradient"};
        const aicb::Comm* comms[] = {&l.fwd, &l.ig, &l.wg};
        for (uint32_t c = 0; c < 3; ++c)
        {
            if (comms[c]->present && shape.Members(0, comms[c]->group).size() == 1 &&
                leftOut++ == 0)
            {
                trace.notes.push_back(std::string("layer ") + l.name + "'s " + column[c] + " " +
                                      CollectiveTypeName(comms[c]->type) + " (" +
                                      kindName[comms[c]->group] + " group of 1)");
            }
        }
    }
    if (leftOut > 0)
    {
        trace.notes.back() = std::to_string(leftOut) +
                             " collectives of one-rank groups move no data and are left out, "
                             "the first " +
                             trace.notes.back();
    }
    for (uint32_t r = 0; r < shape.ranks; ++r)
    {
        uint32_t groupOf[N_GROUP_KINDS];
        for (uint8_t k = 0; k < N_GROUP_KINDS; ++k)
        {
            const auto kind = static_cast<GroupKind>(k);
            const uint32_t size = kind == TP   ? shape.tp
                                  : kind == DP ? shape.dp
                                  : kind == EP ? shape.ep
                                               : shape.dp / shape.ep;
            groupOf[k] = RankBuilder::kNoGroup;
            if (size > 1 && used[k])
            {
                auto [it, added] = groupIndex.emplace(std::make_pair(kind, shape.First(r, kind)),
                                                      trace.groups.size());
                if (added)
                {
                    trace.groups.push_back(shape.Members(r, kind));
                }
                groupOf[k] = it->second;
            }
        }
        trace.nodes[r].reserve(perRank);
        RankBuilder builder(trace.nodes[r], groupOf);
        BuildRank(builder, layers, shape, header.ppComm, r);
    }
    CheckWorkloadTrace(trace, std::vector<std::string>(shape.ranks, file));
    return trace;
}

} // namespace ns3
