/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef POINT_TO_POINT_SEND_H
#define POINT_TO_POINT_SEND_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief A point-to-point send between two ranks (pipeline parallelism's
 * activations and gradients): rank 0 sends S bytes to rank 1.
 *
 * One step; rank 0 only sends, rank 1 only receives. It is a broadcast on
 * two ranks, and reports itself as BROADCAST with the algorithm name "send".
 */
class PointToPointSend : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PointToPointSend();
    ~PointToPointSend() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;
    std::string GetRanksProblem(uint32_t nRanks) const override;

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

#endif /* POINT_TO_POINT_SEND_H */
