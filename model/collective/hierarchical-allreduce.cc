/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hierarchical-allreduce.h"

#include "halving-doubling-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierarchicalAllreduce");

NS_OBJECT_ENSURE_REGISTERED(HierarchicalAllreduce);

namespace
{

/**
 * \brief One step of a reduce-scatter or all-gather within one dimension.
 * \param algorithm ring or halving-doubling
 * \param gather all-gather (else reduce-scatter)
 * \param size ranks of the dimension
 * \param pos the rank's position in it
 * \param k the step within the half
 * \param data the bytes the dimension reduces
 * \param peer set to the peer's position
 * \return the bytes sent
 */
uint64_t
DimensionStep(HierarchicalAllreduce::Algorithm algorithm,
              bool gather,
              uint32_t size,
              uint32_t pos,
              uint32_t k,
              uint64_t data,
              uint32_t& peer)
{
    if (algorithm == HierarchicalAllreduce::RING)
    {
        peer = (pos + 1) % size;
        return data / size;
    }
    const uint32_t d = gather ? 1u << k : size >> (k + 1);
    peer = pos ^ d;
    return data / size * d;
}

} // namespace

TypeId
HierarchicalAllreduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HierarchicalAllreduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<HierarchicalAllreduce>()
                            .AddAttribute("IntraAlgorithm",
                                          "The reduce-scatter and all-gather inside each server.",
                                          StringValue("ring"),
                                          MakeStringAccessor(&HierarchicalAllreduce::m_intraName),
                                          MakeStringChecker())
                            .AddAttribute("InterAlgorithm",
                                          "The all-reduce across servers.",
                                          StringValue("ring"),
                                          MakeStringAccessor(&HierarchicalAllreduce::m_interName),
                                          MakeStringChecker());
    return tid;
}

HierarchicalAllreduce::HierarchicalAllreduce()
    : m_intraName("ring"),
      m_interName("ring")
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_REDUCE, "hierarchical");
}

HierarchicalAllreduce::~HierarchicalAllreduce() = default;

HierarchicalAllreduce::Algorithm
HierarchicalAllreduce::ToAlgorithm(const std::string& name, const char* attribute)
{
    NS_ABORT_MSG_IF(name != "ring" && name != "halving-doubling",
                    "HierarchicalAllreduce: " << attribute << " is \"" << name
                                              << "\"; valid: \"ring\", \"halving-doubling\"");
    return name == "ring" ? RING : HALVING_DOUBLING;
}

HierarchicalAllreduce::Algorithm
HierarchicalAllreduce::Intra() const
{
    return ToAlgorithm(m_intraName, "IntraAlgorithm");
}

HierarchicalAllreduce::Algorithm
HierarchicalAllreduce::Inter() const
{
    return ToAlgorithm(m_interName, "InterAlgorithm");
}

uint32_t
HierarchicalAllreduce::HalfSteps(Algorithm algorithm, uint32_t size)
{
    if (size < 2)
    {
        return 0;
    }
    return algorithm == RING ? size - 1 : HalvingDoublingAllreduce::Log2(size);
}

const HierarchicalAllreduce::Grid&
HierarchicalAllreduce::GetGrid(uint32_t n) const
{
    std::vector<uint32_t> servers = GetServers();
    if (servers.size() != n)
    {
        servers.resize(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            servers[r] = r;
        }
    }
    if (servers == m_gridServers && !servers.empty())
    {
        return m_grid;
    }
    m_gridServers = servers;
    m_grid = Grid();
    std::map<uint32_t, uint32_t> index; // server id -> index, in order of first rank
    std::vector<std::vector<uint32_t>> members;
    for (uint32_t r = 0; r < n; ++r)
    {
        auto it = index.emplace(servers[r], static_cast<uint32_t>(members.size())).first;
        if (it->second == members.size())
        {
            members.emplace_back();
        }
        m_grid.server.push_back(it->second);
        m_grid.local.push_back(static_cast<uint32_t>(members[it->second].size()));
        members[it->second].push_back(r);
    }
    m_grid.m = static_cast<uint32_t>(members.size());
    m_grid.g = members.empty() ? 1 : static_cast<uint32_t>(members[0].size());
    for (uint32_t s = 0; s < m_grid.m; ++s)
    {
        if (members[s].size() != m_grid.g)
        {
            std::ostringstream why;
            why << "the server of rank " << members[s][0] << " has " << members[s].size()
                << " ranks but the server of rank 0 has " << m_grid.g
                << " (every server needs the same number)";
            m_grid.error = why.str();
            return m_grid;
        }
        m_grid.rankAt.insert(m_grid.rankAt.end(), members[s].begin(), members[s].end());
    }
    const auto pow2 = [](uint32_t x) { return (x & (x - 1)) == 0; };
    if (Intra() == HALVING_DOUBLING && !pow2(m_grid.g))
    {
        m_grid.error = std::to_string(m_grid.g) + " ranks per server is not a power of two "
                                                  "(IntraAlgorithm halving-doubling)";
    }
    if (Inter() == HALVING_DOUBLING && !pow2(m_grid.m))
    {
        m_grid.error = std::to_string(m_grid.m) +
                       " servers is not a power of two (InterAlgorithm halving-doubling)";
    }
    return m_grid;
}

std::string
HierarchicalAllreduce::GetRanksProblem(uint32_t nRanks) const
{
    const std::string problem = ScheduledCollective::GetRanksProblem(nRanks);
    return problem.empty() ? GetGrid(nRanks).error : problem;
}

uint32_t
HierarchicalAllreduce::GetNStepsFor(uint32_t n) const
{
    const Grid& grid = GetGrid(n);
    return 2 * HalfSteps(Intra(), grid.g) + 2 * HalfSteps(Inter(), grid.m);
}

JobStepTag::Phase
HierarchicalAllreduce::GetPhase(uint32_t step) const
{
    const Grid& grid = GetGrid(GetNRanks());
    const uint32_t half = HalfSteps(Intra(), grid.g) + HalfSteps(Inter(), grid.m);
    return step < half ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

uint64_t
HierarchicalAllreduce::GetBytesSentPerRank(uint64_t bytes) const
{
    const Grid& grid = GetGrid(GetNRanks());
    const uint64_t share = bytes / grid.g;
    return 2 * (grid.g - 1) * share + 2 * (grid.m - 1) * (share / grid.m);
}

void
HierarchicalAllreduce::GetSends(uint32_t n,
                                uint32_t rank,
                                uint32_t step,
                                uint64_t bytes,
                                std::vector<Send>& sends) const
{
    sends.clear();
    const Grid& grid = GetGrid(n);
    const uint32_t a = HalfSteps(Intra(), grid.g);
    const uint32_t b = HalfSteps(Inter(), grid.m);
    const uint32_t server = grid.server[rank];
    const uint32_t local = grid.local[rank];
    uint32_t peer = 0;
    uint64_t size = 0;
    if (step < a || step >= a + 2 * b) // inside the server
    {
        const bool gather = step >= a;
        const uint32_t k = gather ? step - a - 2 * b : step;
        size = DimensionStep(Intra(), gather, grid.g, local, k, bytes, peer);
        sends.push_back(Send{grid.rankAt[server * grid.g + peer], size});
        return;
    }
    const uint32_t k = step - a; // across servers, on the rank's 1/G share
    const bool gather = k >= b;
    size = DimensionStep(Inter(), gather, grid.m, server, gather ? k - b : k, bytes / grid.g, peer);
    sends.push_back(Send{grid.rankAt[peer * grid.g + local], size});
}

uint32_t
HierarchicalAllreduce::GetNReceives(uint32_t /* n */,
                                    uint32_t /* rank */,
                                    uint32_t /* step */) const
{
    return 1; // ring: from the predecessor; halving-doubling: from the partner
}

} // namespace ns3
