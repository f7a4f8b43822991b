/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALL_GATHER_H
#define RING_ALL_GATHER_H

#include "ring-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Ring all-gather: the all-reduce's last N-1 steps.
 *
 * S is the gathered output of each rank: every rank contributes one chunk of
 * S/N bytes (rank r chunk r). In step k rank r sends chunk (r - k) mod N to
 * rank r+1: its own first, then the one it received in step k-1. Each rank
 * sends (N-1)/N x S bytes in N-1 steps.
 */
class RingAllGather : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllGather();
    ~RingAllGather() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    uint32_t ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_ALL_GATHER_H */
