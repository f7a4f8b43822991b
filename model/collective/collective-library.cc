/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-library.h"

#include "direct-all-to-all.h"
#include "double-binary-tree-allreduce.h"
#include "halving-doubling-allreduce.h"
#include "hierarchical-allreduce.h"
#include "recursive-doubling-all-gather.h"
#include "recursive-halving-reduce-scatter.h"
#include "ring-all-gather.h"
#include "ring-allreduce.h"
#include "ring-barrier.h"
#include "ring-broadcast.h"
#include "ring-reduce-scatter.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"

#include <sstream>

namespace ns3
{

namespace
{

/// One algorithm of one operation.
struct Entry
{
    CollectiveType type;   //!< the operation
    const char* algorithm; //!< its name
    TypeId (*tid)();       //!< the Collective that runs it
};

/// Every algorithm; the first of each operation is its default.
const Entry ENTRIES[] = {
    {CollectiveType::ALL_REDUCE, "ring", &RingAllreduce::GetTypeId},
    {CollectiveType::ALL_REDUCE, "halving-doubling", &HalvingDoublingAllreduce::GetTypeId},
    {CollectiveType::ALL_REDUCE, "double-binary-tree", &DoubleBinaryTreeAllreduce::GetTypeId},
    {CollectiveType::ALL_REDUCE, "hierarchical", &HierarchicalAllreduce::GetTypeId},
    {CollectiveType::ALL_GATHER, "ring", &RingAllGather::GetTypeId},
    {CollectiveType::ALL_GATHER, "halving-doubling", &RecursiveDoublingAllGather::GetTypeId},
    {CollectiveType::REDUCE_SCATTER, "ring", &RingReduceScatter::GetTypeId},
    {CollectiveType::REDUCE_SCATTER, "halving-doubling", &RecursiveHalvingReduceScatter::GetTypeId},
    {CollectiveType::ALL_TO_ALL, "direct", &DirectAllToAll::GetTypeId},
    {CollectiveType::BROADCAST, "ring", &RingBroadcast::GetTypeId},
    {CollectiveType::BARRIER, "ring", &RingBarrier::GetTypeId},
};

} // namespace

bool
CollectiveLibrary::Find(CollectiveType type, const std::string& algorithm, TypeId& tid)
{
    for (const auto& e : ENTRIES)
    {
        if (e.type == type && algorithm == e.algorithm)
        {
            tid = e.tid();
            return true;
        }
    }
    return false;
}

TypeId
CollectiveLibrary::GetTypeId(CollectiveType type, const std::string& algorithm)
{
    TypeId tid;
    if (!Find(type, algorithm, tid))
    {
        std::ostringstream names;
        for (const auto& a : GetAlgorithms(type))
        {
            names << (names.tellp() > 0 ? ", " : "") << '"' << a << '"';
        }
        NS_FATAL_ERROR("CollectiveLibrary: no algorithm \"" << algorithm << "\" for "
                                                            << CollectiveTypeName(type)
                                                            << "; valid: " << names.str());
    }
    return tid;
}

std::vector<std::string>
CollectiveLibrary::GetAlgorithms(CollectiveType type)
{
    std::vector<std::string> names;
    for (const auto& e : ENTRIES)
    {
        if (e.type == type)
        {
            names.emplace_back(e.algorithm);
        }
    }
    return names;
}

std::string
CollectiveLibrary::GetDefault(CollectiveType type)
{
    const auto names = GetAlgorithms(type);
    return names.empty() ? std::string() : names.front();
}

std::string
CollectiveLibrary::CheckRanks(CollectiveType type, const std::string& algorithm, uint32_t nRanks)
{
    ObjectFactory factory(GetTypeId(type, algorithm).GetName());
    return factory.Create<Collective>()->GetRanksProblem(nRanks);
}

} // namespace ns3
