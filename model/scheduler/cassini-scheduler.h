/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CASSINI_SCHEDULER_H
#define CASSINI_SCHEDULER_H

#include "job-scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The `cassini` baseline (Rajasekaran et al., NSDI 2024): one time
 * shift per job, chosen from the jobs' periods on shared links so that their
 * communication phases interleave, applied at iteration starts.
 *
 * Each job is a periodic pattern: an iteration of period P_j = compute +
 * communication alone (with B gradient buckets, the longer of compute plus
 * one bucket's allreduce and compute / B plus B allreduces), whose last d_j
 * (its allreduces alone at the bottleneck rate) uses the network. Jobs that share a link direction
 * are placed on one circle whose length is the least common multiple of their periods (on a grid of
 * Slots per longest period; at most MaxCircle longest periods, else the longest period). Jobs are
 * placed in decreasing d_j / P_j; each takes the shift on the grid that minimises the overlap of
 * its communication with that of the jobs already placed that it shares a link with (the first
 * takes 0). CASSINI's affinity graph serves the same purpose: shifts are only relative among jobs
 * that share links.
 *
 * Applied at iteration starts: the first iteration of job j waits until
 * anchor + shift_j, where the anchor is the start of the latest job it shares
 * a link with; later iterations that would begin before their slot
 * (anchor + shift_j + k P_j) wait for it, late ones start at once. Jobs
 * that share no link are not gated. No classes, no gate on ring steps.
 */
class CassiniScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CassiniScheduler();
    ~CassiniScheduler() override;

    std::string GetPolicyName() const override;
    void Start() override;

    /**
     * \brief Compute the time shifts of the jobs added so far.
     * \return per job: its shift
     */
    std::vector<Time> ComputeShifts() const;

    /**
     * \param job a job index
     * \return its period: compute plus communication alone
     */
    Time GetPeriod(uint32_t job) const;

  private:
    /**
     * \brief Iteration gate of the jobs.
     * \param self the scheduler
     * \param index the job's index
     * \param job the job
     * \param iteration the iteration starting
     * \return how long it waits
     */
    static Time IterationStart(CassiniScheduler* self,
                               uint32_t index,
                               Ptr<TrainingJob> job,
                               uint32_t iteration);

    uint32_t m_slots;           //!< grid points per longest period
    uint32_t m_maxCircle;       //!< circle length limit, in longest periods
    std::vector<Time> m_shift;  //!< per job: its shift
    std::vector<Time> m_anchor; //!< per job: its anchor
};

} // namespace ns3

#endif /* CASSINI_SCHEDULER_H */
