/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-exchange.h"

#include "halving-doubling-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RecursiveExchange");

NS_OBJECT_ENSURE_REGISTERED(RecursiveExchange);

TypeId
RecursiveExchange::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RecursiveExchange").SetParent<ScheduledCollective>().SetGroupName("Flux");
    return tid;
}

RecursiveExchange::RecursiveExchange(bool halving)
    : m_halving(halving)
{
    NS_LOG_FUNCTION(this << halving);
    SetKind(halving ? CollectiveType::REDUCE_SCATTER : CollectiveType::ALL_GATHER,
            "halving-doubling");
}

RecursiveExchange::~RecursiveExchange() = default;

std::string
RecursiveExchange::GetRanksProblem(uint32_t nRanks) const
{
    if (nRanks < 2 || (nRanks & (nRanks - 1)) != 0)
    {
        return std::to_string(nRanks) + " ranks is not a power of two (at least 2); use the ring";
    }
    return "";
}

uint32_t
RecursiveExchange::GetNStepsFor(uint32_t n) const
{
    return HalvingDoublingAllreduce::Log2(n);
}

JobStepTag::Phase
RecursiveExchange::GetPhase(uint32_t /* step */) const
{
    return m_halving ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

uint64_t
RecursiveExchange::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

void
RecursiveExchange::GetSends(uint32_t n,
                            uint32_t rank,
                            uint32_t step,
                            uint64_t bytes,
                            std::vector<Send>& sends) const
{
    sends.clear();
    uint32_t peer = 0;
    const uint64_t size = m_halving
                              ? HalvingDoublingAllreduce::HalvingSend(n, rank, step, bytes, peer)
                              : HalvingDoublingAllreduce::DoublingSend(n, rank, step, bytes, peer);
    sends.push_back(Send{peer, size});
}

uint32_t
RecursiveExchange::GetNReceives(uint32_t /* n */, uint32_t /* rank */, uint32_t /* step */) const
{
    return 1;
}

} // namespace ns3
