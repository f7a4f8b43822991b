/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-doubling-all-gather.h"

#include "halving-doubling-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RecursiveDoublingAllGather");

NS_OBJECT_ENSURE_REGISTERED(RecursiveDoublingAllGather);

TypeId
RecursiveDoublingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RecursiveDoublingAllGather")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<RecursiveDoublingAllGather>();
    return tid;
}

RecursiveDoublingAllGather::RecursiveDoublingAllGather()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_GATHER, "halving-doubling");
}

RecursiveDoublingAllGather::~RecursiveDoublingAllGather() = default;

void
RecursiveDoublingAllGather::CheckRanks(uint32_t n) const
{
    NS_ABORT_MSG_IF(n < 2 || (n & (n - 1)) != 0,
                    "RecursiveDoublingAllGather: "
                        << n << " ranks is not a power of two (at least 2); use the ring");
}

uint32_t
RecursiveDoublingAllGather::GetNStepsFor(uint32_t n) const
{
    return HalvingDoublingAllreduce::Log2(n);
}

JobStepTag::Phase
RecursiveDoublingAllGather::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::ALL_GATHER;
}

uint64_t
RecursiveDoublingAllGather::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    return (n - 1) * bytes / n;
}

void
RecursiveDoublingAllGather::GetSends(uint32_t n,
                                     uint32_t rank,
                                     uint32_t step,
                                     uint64_t bytes,
                                     std::vector<Send>& sends) const
{
    sends.clear();
    uint32_t peer = 0;
    const uint64_t size = HalvingDoublingAllreduce::DoublingSend(n, rank, step, bytes, peer);
    sends.push_back(Send{peer, size});
}

uint32_t
RecursiveDoublingAllGather::GetNReceives(uint32_t /* n */,
                                         uint32_t /* rank */,
                                         uint32_t /* step */) const
{
    return 1;
}

} // namespace ns3
