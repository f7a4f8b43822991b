/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SAMPLE_SUMMARY_H
#define SAMPLE_SUMMARY_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-stats
 * \brief Exact order statistics of a set of samples (FCTs, phase times,
 * packet latencies).
 *
 * Every value added is kept, so the percentiles are exact. Percentiles use
 * the nearest-rank definition: with n samples sorted in ascending order
 * x[1] <= ... <= x[n], the p-th percentile (0 < p <= 100) is x[r] with
 * r = ceil(p / 100 * n), and r = 1 for p = 0. It is always one of the
 * samples (no interpolation), so p100 is the maximum and, for example, the
 * p99 of 100 samples is the 99th smallest.
 *
 * Statistics of an empty summary are NaN; Count() is then 0.
 */
class SampleSummary
{
  public:
    SampleSummary() = default;

    /**
     * \brief Add one sample.
     * \param value the sample; NaN values are ignored
     */
    void Add(double value);

    /**
     * \brief Add every sample of a vector.
     * \param values the samples
     */
    void AddAll(const std::vector<double>& values);

    /**
     * \brief Add every sample of another summary.
     * \param other the summary whose samples are added
     *
     * When both are sorted (after a percentile, Min(), Max() or Sorted()),
     * the samples stay sorted, merged in linear time.
     */
    void Merge(const SampleSummary& other);

    /**
     * \brief Make room for samples to come (Add, AddAll, Merge).
     * \param count the samples the summary will hold
     */
    void Reserve(std::size_t count);

    /// Remove every sample.
    void Clear();

    /**
     * \brief Recompute the sum from the sorted samples, so that the mean
     *        does not depend on the order they were added in (runs split
     *        over MPI processes merge them in another order).
     */
    void Canonicalize();

    /// \return the number of samples
    uint64_t Count() const;

    /// \return the arithmetic mean of the samples (NaN when empty)
    double Mean() const;

    /**
     * \return the mean with the samples summed in sorted order, the same
     *         whatever order they came in (NaN when empty): Mean() after
     *         Canonicalize(), without changing the summary
     */
    double CanonicalMean() const;

    /// \return the smallest sample (NaN when empty)
    double Min() const;

    /// \return the largest sample (NaN when empty)
    double Max() const;

    /**
     * \brief Nearest-rank percentile.
     * \param p the percentile, in [0, 100] (clamped)
     * \return the p-th percentile (NaN when empty)
     */
    double Percentile(double p) const;

    /// \return the median, Percentile (50)
    double P50() const;

    /// \return Percentile (99)
    double P99() const;

    /// \return Percentile (99.9)
    double P999() const;

    /// \return the samples in ascending order
    const std::vector<double>& Sorted() const;

  private:
    /// Sort m_values if samples were added since the last sort.
    void Sort() const;

    /// \return the sum of the samples in sorted order
    double SortedSum() const;

    mutable std::vector<double> m_values; //!< the samples, sorted when m_sorted
    mutable bool m_sorted{true};          //!< whether m_values is sorted
    double m_sum{0.0};                    //!< sum of the samples
};

} // namespace ns3

#endif /* SAMPLE_SUMMARY_H */
