/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_REDUCE_SCATTER_H
#define RING_REDUCE_SCATTER_H

#include "ring-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Ring reduce-scatter: the all-reduce's first N-1 steps.
 *
 * S is each rank's input, cut into N chunks; every rank ends with the sum
 * of one chunk (S/N bytes): rank r with chunk (r + 1) mod N. In step k rank
 * r sends the partial sum of chunk (r - k) mod N to rank r+1, which adds its
 * own. Each rank sends (N-1)/N x S bytes in N-1 steps.
 */
class RingReduceScatter : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingReduceScatter();
    ~RingReduceScatter() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    uint32_t ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_REDUCE_SCATTER_H */
