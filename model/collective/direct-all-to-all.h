/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_ALL_TO_ALL_H
#define DIRECT_ALL_TO_ALL_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Direct all-to-all: every rank sends a distinct share to every
 * other rank, all at once (the incast pattern of expert parallelism).
 *
 * S is each rank's buffer: chunk p of it (S/N bytes) goes to rank p. One
 * step; rank r posts its N-1 messages in the order r+1, r+2, ... (mod N), so
 * that the ranks do not all start with the same peer. Each rank sends
 * (N-1)/N x S bytes over N-1 links: N(N-1) links in all.
 */
class DirectAllToAll : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DirectAllToAll();
    ~DirectAllToAll() override;

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
};

} // namespace ns3

#endif /* DIRECT_ALL_TO_ALL_H */
