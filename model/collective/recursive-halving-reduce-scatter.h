/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECURSIVE_HALVING_REDUCE_SCATTER_H
#define RECURSIVE_HALVING_REDUCE_SCATTER_H

#include "recursive-exchange.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \\brief Recursive-halving reduce-scatter on a power-of-two number of
 * ranks: the first half of HalvingDoublingAllreduce.
 *
 * S is each rank's input, cut into N chunks; rank r ends with chunk r,
 * reduced. In step k (k = 0 .. log2 N - 1) rank r exchanges with
 * r XOR N/2^(k+1) the half of its current segment its partner keeps.
 * log2 N steps; each rank sends (N-1)/N x S bytes, as the ring does in
 * N-1 steps.
 */
class RecursiveHalvingReduceScatter : public RecursiveExchange
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RecursiveHalvingReduceScatter();
    ~RecursiveHalvingReduceScatter() override;
};

} // namespace ns3

#endif /* RECURSIVE_HALVING_REDUCE_SCATTER_H */
