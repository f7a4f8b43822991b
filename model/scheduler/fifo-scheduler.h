/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FIFO_SCHEDULER_H
#define FIFO_SCHEDULER_H

#include "job-scheduler.h"

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The `fifo` policy: no scheduling. Every job keeps its scenario
 * class, nothing is held, and jobs share links as the transport (DCQCN,
 * HPCC) and the switches' FIFO per class make them.
 */
class FifoScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FifoScheduler();
    ~FifoScheduler() override;

    std::string GetPolicyName() const override;
};

} // namespace ns3

#endif /* FIFO_SCHEDULER_H */
