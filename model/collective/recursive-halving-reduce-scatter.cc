/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-halving-reduce-scatter.h"

#include "halving-doubling-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RecursiveHalvingReduceScatter");

NS_OBJECT_ENSURE_REGISTERED(RecursiveHalvingReduceScatter);

TypeId
RecursiveHalvingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RecursiveHalvingReduceScatter")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RecursiveHalvingReduceScatter>();
    return tid;
}

RecursiveHalvingReduceScatter::RecursiveHalvingReduceScatter()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::REDUCE_SCATTER, "halving-doubling");
}

RecursiveHalvingReduceScatter::~RecursiveHalvingReduceScatter() = default;

void
RecursiveHalvingReduceScatter::CheckRanks(uint32_t n) const
{
    NS_ABORT_MSG_IF(n < 2 || (n & (n - 1)) != 0,
                    "RecursiveHalvingReduceScatter: "
                        << n << " ranks is not a power of two (at least 2); use the ring");
}

uint32_t
RecursiveHalvingReduceScatter::GetNStepsFor(uint32_t n) const
{
    return HalvingDoublingAllreduce::Log2(n);
}

JobStepTag::Phase
RecursiveHalvingReduceScatter::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::REDUCE_SCATTER;
}

uint64_t
RecursiveHalvingReduceScatter::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

void
RecursiveHalvingReduceScatter::GetSends(uint32_t n,
                                        uint32_t rank,
                                        uint32_t step,
                                        uint64_t bytes,
                                        std::vector<Send>& sends) const
{
    sends.clear();
    uint32_t peer = 0;
    const uint64_t size = HalvingDoublingAllreduce::HalvingSend(n, rank, step, bytes, peer);
    sends.push_back(Send{peer, size});
}

uint32_t
RecursiveHalvingReduceScatter::GetNReceives(uint32_t /* n */,
                                            uint32_t /* rank */,
                                            uint32_t /* step */) const
{
    return 1;
}

} // namespace ns3
