/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_BARRIER_H
#define RING_BARRIER_H

#include "ring-all-gather.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Ring barrier: a ring all-gather of each rank's arrival flag.
 *
 * Every message is one FlagBytes flag (8 bytes: a 64-bit word), whatever
 * the buffer size given to Start(). After the N-1 steps every rank has
 * heard, through the ring, from every other rank, so none leaves before all
 * have arrived. Each rank sends (N-1) x FlagBytes bytes.
 */
class RingBarrier : public RingAllGather
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingBarrier();
    ~RingBarrier() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;

    /// The size of every message of the barrier.
    static constexpr uint64_t FLAG_BYTES = 8;

  protected:
    uint64_t GetStepBytes(uint32_t n, uint32_t rank, uint32_t step, uint64_t bytes) const override;
    uint32_t GetPieces(uint64_t bytes) const override;
};

} // namespace ns3

#endif /* RING_BARRIER_H */
