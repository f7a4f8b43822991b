/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECURSIVE_EXCHANGE_H
#define RECURSIVE_EXCHANGE_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief One half of the halving-doubling all-reduce on its own, on a
 * power-of-two number of ranks: recursive halving (a reduce-scatter) or
 * recursive doubling (an all-gather). log2 N steps of one exchange each;
 * each rank sends (N-1)/N x S bytes. RecursiveHalvingReduceScatter and
 * RecursiveDoublingAllGather choose the half.
 */
class RecursiveExchange : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param halving true: recursive halving (reduce-scatter); false:
     *        recursive doubling (all-gather)
     */
    explicit RecursiveExchange(bool halving);
    ~RecursiveExchange() override;

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

  private:
    bool m_halving; //!< recursive halving, else doubling
};

} // namespace ns3

#endif /* RECURSIVE_EXCHANGE_H */
