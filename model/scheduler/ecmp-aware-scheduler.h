/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_AWARE_SCHEDULER_H
#define ECMP_AWARE_SCHEDULER_H

#include "job-scheduler.h"

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The `ecmp-aware` policy: path choice alone. Before the run it gives
 * each connection of the jobs' collectives the UDP source port whose ECMP
 * path leaves the most loaded link direction least loaded
 * (JobScheduler::PlacePaths), the jobs with most bytes per iteration
 * choosing first; then it does nothing: no gate, no classes, sharing as under
 * `fifo`. Its gain over `fifo` is what paths alone are worth.
 */
class EcmpAwareScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EcmpAwareScheduler();
    ~EcmpAwareScheduler() override;

    std::string GetPolicyName() const override;
    bool ChoosesPaths() const override;
    void Start() override;

    /**
     * \param scheduler a scheduler that knows its jobs
     * \return the job indices by decreasing gradient bytes per iteration
     *         times ranks (ties by index): the order in which they choose paths
     */
    static std::vector<uint32_t> ByBytes(const JobScheduler& scheduler);

    /**
     * \param scheduler a scheduler with its jobs added
     * \return its job indices by scenario class, the highest first, then
     *         as ByBytes() orders them
     */
    static std::vector<uint32_t> ByClass(const JobScheduler& scheduler);

  private:
    bool m_byClass; //!< choose paths in class order
};

} // namespace ns3

#endif /* ECMP_AWARE_SCHEDULER_H */
