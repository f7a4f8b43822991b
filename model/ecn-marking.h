/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_ECN_MARKING_H
#define FLUX_ECN_MARKING_H

#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux
 * \brief DCQCN's ECN marking (Zhu et al., SIGCOMM 2015: RED on the
 * instantaneous queue): nothing while the queue holds at most Kmin bytes,
 * everything above Kmax, and in between with probability
 * Pmax (q - Kmin) / (Kmax - Kmin). The switches' MMU and FluxQueueDisc's
 * per-class marking both decide with it.
 *
 * \param bytes the queue's bytes
 * \param kmin Kmin, bytes
 * \param kmax Kmax, bytes (Kmin = Kmax: a step at Kmin)
 * \param pmax the probability just below Kmax
 * \param uniform the coin, drawn only between the thresholds
 * \return whether to mark
 */
inline bool
EcnShouldMark(uint64_t bytes,
              uint32_t kmin,
              uint32_t kmax,
              double pmax,
              UniformRandomVariable& uniform)
{
    if (bytes <= kmin)
    {
        return false;
    }
    if (bytes > kmax)
    {
        return true;
    }
    return uniform.GetValue() < pmax * static_cast<double>(bytes - kmin) / (kmax - kmin);
}

} // namespace ns3

#endif /* FLUX_ECN_MARKING_H */
