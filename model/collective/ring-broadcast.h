/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_BROADCAST_H
#define RING_BROADCAST_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Ring broadcast: a pipelined chain from rank 0 through rank N-1.
 *
 * Rank 0 (the group's first rank) has S bytes. In step k rank k sends them
 * to rank k+1, in P pieces; rank k+1 forwards piece j as soon as it has it,
 * so the chain is busy with P pieces at once, as NCCL's ring broadcast.
 * P is S / PipelineBytes (rounded up) with PipelineBytes set, and N without
 * it. N-1 steps (hops); every rank but the last sends S bytes.
 */
class RingBroadcast : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingBroadcast();
    ~RingBroadcast() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    void GetSends(uint32_t n,
                  uint32_t rank,
                  uint32_t step,
                  uint64_t bytes,
                  std::vector<Send>& sends) const override;
    uint32_t GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const override;
    uint32_t GetPieces(uint64_t bytes) const override;
};

} // namespace ns3

#endif /* RING_BROADCAST_H */
