/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_ROBIN_QP_ARBITER_H
#define ROUND_ROBIN_QP_ARBITER_H

#include "rdma-qp-arbiter.h"

#include <cstddef>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief The default queue-pair arbiter of an RdmaNic: one packet per
 * eligible queue pair in turn, whatever their classes.
 *
 * Active queue pairs are kept in one list; Next() scans it from the position
 * after the last queue pair served and returns the first eligible one,
 * dropping idle queue pairs from the list on the way (the last one takes the
 * place of a dropped one). Classes only matter through PFC: a queue pair
 * whose class is paused is skipped.
 */
class RoundRobinQpArbiter : public RdmaQpArbiter
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RoundRobinQpArbiter();
    ~RoundRobinQpArbiter() override;

    void Activate(RdmaQueuePair* qp) override;
    void Remove(RdmaQueuePair* qp) override;
    void ClassChanged(RdmaQueuePair* qp, uint8_t oldClass) override;
    RdmaQueuePair* Next(uint8_t pausedMask, Time now, Time& earliest) override;
    bool HasActive() const override;
    void Clear() override;

    /** \return the number of queue pairs on the active list */
    std::size_t GetNActive() const;

  protected:
    void DoDispose() override;

  private:
    std::vector<RdmaQueuePair*> m_active; //!< queue pairs that may have data to send
    std::size_t m_rr;                     //!< round-robin position
};

} // namespace ns3

#endif /* ROUND_ROBIN_QP_ARBITER_H */
