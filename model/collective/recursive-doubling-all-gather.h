/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECURSIVE_DOUBLING_ALL_GATHER_H
#define RECURSIVE_DOUBLING_ALL_GATHER_H

#include "recursive-exchange.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \\brief Recursive-doubling all-gather on a power-of-two number of ranks:
 * the second half of HalvingDoublingAllreduce.
 *
 * S is the gathered output of each rank, of which each contributes chunk
 * r (S/N). In step k (k = 0 .. log2 N - 1) rank r sends the 2^k chunks it
 * has to r XOR 2^k. log2 N steps; each rank sends (N-1)/N x S bytes, as
 * the ring does in N-1 steps.
 */
class RecursiveDoublingAllGather : public RecursiveExchange
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RecursiveDoublingAllGather();
    ~RecursiveDoublingAllGather() override;
};

} // namespace ns3

#endif /* RECURSIVE_DOUBLING_ALL_GATHER_H */
