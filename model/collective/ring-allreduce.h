/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALLREDUCE_H
#define RING_ALLREDUCE_H

#include "ring-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Ring all-reduce: N-1 reduce-scatter then N-1 all-gather steps.
 *
 * S is each rank's buffer, cut into N chunks. In reduce-scatter step k rank
 * r sends chunk (r - k) mod N to rank r+1; in all-gather step k it sends
 * chunk (r + 1 - k) mod N. A rank sends step k+1 only with the data of step
 * k received (the reduction depends on it), so one slow link slows the
 * whole ring. With PipelineBytes set, each step's chunk travels as several
 * messages and a rank forwards piece j of step k+1 as soon as piece j of
 * step k arrived, as NCCL's pipelined ring does.
 *
 * Each rank sends 2(N-1)/N x S bytes per run to its successor; the queue
 * pairs persist across runs.
 */
class RingAllreduce : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllreduce();
    ~RingAllreduce() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    uint32_t ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_ALLREDUCE_H */
