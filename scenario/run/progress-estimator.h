/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PROGRESS_ESTIMATOR_H
#define PROGRESS_ESTIMATOR_H

#include <cstddef>
#include <deque>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Estimates the wall-clock time a run has left from the work it has
 * done and the recent rate of that work.
 *
 * A run reports now and then its wall-clock time, the work done so far (in
 * any unit: the runner counts payload bytes delivered of the traffic known
 * up front) and its simulated time. The estimate is the work left divided
 * by the recent work rate, or, when the run ends at its safety stop before
 * that, the simulated time left divided by the recent simulated-time rate:
 * the smaller of the two.
 *
 * "Recent" is the window of the last half of the time since the first
 * sample, kept between the minimum and maximum window: early samples (a
 * first compute phase without traffic, slow starts) leave the window as the
 * run goes on, while the window still spans several communication and
 * compute phases. When no work was done inside the window, the rate since
 * the first sample is used; when no work was done at all, the estimate is
 * unknown (a work total is known but no rate to divide it by yet).
 *
 * With no work total (zero), only the simulated time counts; with no stop
 * time either, the estimate is unknown.
 */
class ProgressEstimator
{
  public:
    ProgressEstimator() = default;

    /**
     * \brief Set the work the run does in all, known up front.
     * \param work the total (0: none known)
     */
    void SetWorkTotal(double work);
    /** \return the work total */
    double GetWorkTotal() const;

    /**
     * \brief Set the simulated time at which the run stops at the latest.
     * \param simMs the stop time, ms (0: none)
     */
    void SetStopTime(double simMs);

    /**
     * \brief Set the bounds of the rate window.
     * \param minS shortest window, s
     * \param maxS longest window, s
     */
    void SetWindow(double minS, double maxS);

    /**
     * \brief Record a sample. Samples come in order of wall-clock time.
     * \param wallS wall-clock time, s
     * \param work work done so far
     * \param simMs simulated time, ms
     */
    void AddSample(double wallS, double work, double simMs);

    /** \return the estimated wall-clock time left, s; negative when unknown */
    double GetEta() const;

    /** \return the work rate over the window (work per s); 0 when unknown */
    double GetWorkRate() const;

    /** \return the number of samples kept */
    std::size_t GetNSamples() const;

  private:
    /// One sample of the run.
    struct Sample
    {
        double wallS; //!< wall-clock time, s
        double work;  //!< work done
        double simMs; //!< simulated time, ms
    };

    /** \return the oldest sample of the window (the newest when only one) */
    const Sample& WindowStart() const;

    /**
     * \brief The rate of one quantity over the window, else since the first
     * sample.
     * \param member the quantity
     * \return its rate per wall-clock second (0 when it did not grow)
     */
    double Rate(double Sample::*member) const;

    double m_workTotal{0};        //!< work known up front
    double m_stopMs{0};           //!< latest end of the run, simulated ms
    double m_minWindowS{5};       //!< shortest window, s
    double m_maxWindowS{60};      //!< longest window, s
    Sample m_first{0, 0, 0};      //!< the first sample
    std::deque<Sample> m_samples; //!< the samples of the longest window, and one before it
};

} // namespace ns3

#endif /* PROGRESS_ESTIMATOR_H */
