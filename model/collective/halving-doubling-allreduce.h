/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HALVING_DOUBLING_ALLREDUCE_H
#define HALVING_DOUBLING_ALLREDUCE_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Halving-doubling all-reduce (Rabenseifner): a recursive-halving
 * reduce-scatter, then a recursive-doubling all-gather.
 *
 * N must be a power of two (Setup() aborts otherwise: use the ring). S is
 * each rank's buffer, cut into N chunks. In reduce-scatter step k
 * (k = 0 .. log2 N - 1) rank r exchanges with r XOR N/2^(k+1): of its
 * current segment of N/2^k chunks it sends the half its partner keeps and
 * reduces the half it keeps, so it ends with chunk r. The all-gather
 * retraces the steps: in step k (k = 0 .. log2 N - 1) rank r sends its
 * 2^k gathered chunks to r XOR 2^k. 2 log2 N steps; each rank sends
 * 2(N-1)/N x S bytes, half the steps' messages over distant partners.
 *
 * Other numbers of ranks are refused rather than folded (Rabenseifner's
 * reduction of N = p + q to p): with messages posted as soon as their data
 * is there, the p - q ranks outside the fold would send their first
 * exchange into partners still receiving the fold, and the collective would
 * take about twice its alpha-beta time.
 */
class HalvingDoublingAllreduce : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HalvingDoublingAllreduce();
    ~HalvingDoublingAllreduce() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;
    std::string GetRanksProblem(uint32_t nRanks) const override;

    /**
     * \param n ranks
     * \return log2 of the largest power of two not above n
     */
    static uint32_t Log2(uint32_t n);

    /**
     * \brief Recursive halving: what a rank sends in one reduce-scatter step
     * among p ranks (a power of two).
     * \param p ranks
     * \param rank the rank (0 .. p-1)
     * \param step the step (0 .. log2 p - 1)
     * \param bytes the buffer, cut into p chunks
     * \param peer set to the partner
     * \return the bytes sent: the half of the rank's segment its partner keeps
     */
    static uint64_t HalvingSend(uint32_t p,
                                uint32_t rank,
                                uint32_t step,
                                uint64_t bytes,
                                uint32_t& peer);

    /**
     * \brief Recursive doubling: what a rank sends in one all-gather step
     * among p ranks (a power of two).
     * \param p ranks
     * \param rank the rank (0 .. p-1)
     * \param step the step (0 .. log2 p - 1)
     * \param bytes the buffer, cut into p chunks
     * \param peer set to the partner
     * \return the bytes sent: the 2^step chunks gathered so far
     */
    static uint64_t DoublingSend(uint32_t p,
                                 uint32_t rank,
                                 uint32_t step,
                                 uint64_t bytes,
                                 uint32_t& peer);

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

#endif /* HALVING_DOUBLING_ALLREDUCE_H */
