/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingAllreduce);

namespace
{

/**
 * \param bytes buffer bytes
 * \param n chunks
 * \param first first chunk of a segment
 * \param count chunks in it
 * \return bytes of the segment (the first bytes mod n chunks are one byte longer)
 */
uint64_t
SegmentBytes(uint64_t bytes, uint32_t n, uint32_t first, uint32_t count)
{
    const uint64_t rem = bytes % n;
    const uint64_t longer = std::min<uint64_t>(first + count, rem) - std::min<uint64_t>(first, rem);
    return count * (bytes / n) + longer;
}

} // namespace

TypeId
HalvingDoublingAllreduce::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HalvingDoublingAllreduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<HalvingDoublingAllreduce>();
    return tid;
}

HalvingDoublingAllreduce::HalvingDoublingAllreduce()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::ALL_REDUCE, "halving-doubling");
}

HalvingDoublingAllreduce::~HalvingDoublingAllreduce() = default;

uint32_t
HalvingDoublingAllreduce::Log2(uint32_t n)
{
    uint32_t l = 0;
    while ((1u << (l + 1)) <= n)
    {
        ++l;
    }
    return l;
}

uint64_t
HalvingDoublingAllreduce::HalvingSend(uint32_t p,
                                      uint32_t rank,
                                      uint32_t step,
                                      uint64_t bytes,
                                      uint32_t& peer)
{
    // the segment of 2d chunks holding chunk rank; send the half without it
    const uint32_t d = p >> (step + 1);
    const uint32_t base = rank & ~(2 * d - 1);
    const uint32_t first = (rank & d) != 0 ? base : base + d;
    peer = rank ^ d;
    return SegmentBytes(bytes, p, first, d);
}

uint64_t
HalvingDoublingAllreduce::DoublingSend(uint32_t p,
                                       uint32_t rank,
                                       uint32_t step,
                                       uint64_t bytes,
                                       uint32_t& peer)
{
    // the 2^step chunks gathered so far: the aligned segment holding chunk rank
    const uint32_t d = 1u << step;
    peer = rank ^ d;
    return SegmentBytes(bytes, p, rank & ~(d - 1), d);
}

std::string
HalvingDoublingAllreduce::GetRanksProblem(uint32_t nRanks) const
{
    if (nRanks < 2 || (nRanks & (nRanks - 1)) != 0)
    {
        return std::to_string(nRanks) +
               " ranks is not a power of two (at least 2); use the ring all-reduce";
    }
    return "";
}

uint32_t
HalvingDoublingAllreduce::GetNStepsFor(uint32_t n) const
{
    return 2 * Log2(n);
}

JobStepTag::Phase
HalvingDoublingAllreduce::GetPhase(uint32_t step) const
{
    return step < Log2(GetNRanks()) ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

uint64_t
HalvingDoublingAllreduce::GetBytesSentPerRank(uint64_t bytes) const
{
    const uint32_t n = GetNRanks();
    return 2 * (n - 1) * bytes / n;
}

void
HalvingDoublingAllreduce::GetSends(uint32_t n,
                                   uint32_t rank,
                                   uint32_t step,
                                   uint64_t bytes,
                                   std::vector<Send>& sends) const
{
    sends.clear();
    const uint32_t l = Log2(n);
    uint32_t peer = 0;
    const uint64_t size = step < l ? HalvingSend(n, rank, step, bytes, peer)
                                   : DoublingSend(n, rank, step - l, bytes, peer);
    sends.push_back(Send{peer, size});
}

uint32_t
HalvingDoublingAllreduce::GetNReceives(uint32_t /* n */,
                                       uint32_t /* rank */,
                                       uint32_t /* step */) const
{
    return 1;
}

} // namespace ns3
