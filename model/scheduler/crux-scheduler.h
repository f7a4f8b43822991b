/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CRUX_SCHEDULER_H
#define CRUX_SCHEDULER_H

#include "job-scheduler.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The `crux` baseline (Cao et al., SIGCOMM 2024): path selection and
 * a static priority per job by GPU intensity, compressed to the available
 * classes; no gate.
 *
 * Path selection: before the run, the jobs choose the source ports (so the
 * ECMP paths) of their connections in decreasing GPU intensity, each against
 * the sends already placed (JobScheduler::PlacePaths), as Crux's
 * GPU-intensity-aware path selection does.
 *
 * GPU intensity I_j = W_j / t_j: the job's compute per iteration (ranks x
 * compute time, GPU-seconds) over its communication time per iteration on
 * its slowest link alone (2 (N-1) / N x gradient bytes at the bottleneck
 * rate). Priority P_j = I_j (Crux's correction factor k_j taken as 1).
 * Compression: only jobs that share a link need distinct classes, so the
 * jobs are layered on the graph of contending jobs in decreasing P_j: a job
 * takes the level one below the lowest level of the higher-priority jobs it
 * contends with (level 0 when none), and levels beyond the last class share
 * the last class. Jobs whose intensities differ by less than
 * IntensityTolerance are one group and share their level (Crux's
 * compression puts equal priorities in one class; the file's order never
 * decides). This is the longest-path layering of Crux's DAG; Crux's
 * max K-cut chooses among layerings when there are more levels than classes,
 * which this folds into the lowest class.
 */
class CruxScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CruxScheduler();
    ~CruxScheduler() override;

    std::string GetPolicyName() const override;
    bool UsesOwnClasses() const override;
    bool ChoosesPaths() const override;
    bool GetQpArbiterFactory(ObjectFactory& factory) const override;
    void Start() override;

    /**
     * \param job a job index
     * \return its GPU intensity W_j / t_j (0 without compute)
     */
    double GetIntensity(uint32_t job) const;

    /**
     * \return per job: its priority level after compression (0 = highest),
     *         computed from the jobs added so far
     */
    std::vector<uint32_t> ComputeLevels() const;

    /** \return the job indices by decreasing GPU intensity (ties by index) */
    std::vector<uint32_t> ByIntensity() const;

  private:
    /**
     * \param a a job index
     * \param b another
     * \return true when their intensities are equal within IntensityTolerance
     */
    bool SameIntensity(uint32_t a, uint32_t b) const;

    bool m_paths;       //!< choose paths before the run
    double m_tolerance; //!< relative tolerance of equal intensities
};

} // namespace ns3

#endif /* CRUX_SCHEDULER_H */
