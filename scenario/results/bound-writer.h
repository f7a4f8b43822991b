/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BOUND_WRITER_H
#define BOUND_WRITER_H

#include "bound-result.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Turns a BoundResult into the bound JSON of `flux-run --bound` and
 * `ns3flux.bound()`, and writes it atomically.
 *
 * Keys in this order (times in ms rounded to the nanosecond, ratios to 6
 * decimals, wall_s to the millisecond; unknown values are null):
 *
 *     seed, backend ("flow"),
 *     jobs: [{name, start_ms, alone_jct_ms, alone_best_iteration_ms,
 *             alone_worst_iteration_ms}],
 *     lower_bound: {mean_jct_ms, mean_alone_jct_ms, srpt_mean_jct_ms,
 *                   srpt_link, worst_iteration_ms},
 *     best: {mean_jct_ms, worst_iteration_ms, schedule, order: [[names]],
 *            classes: {name: class}, schedules_tried, search},
 *     fifo: {mean_jct_ms, worst_iteration_ms},
 *     policy: {name, mean_jct_ms, worst_iteration_ms, gap_share},
 *     sim: {runs, wall_s}
 *
 * gap_share is (fifo - policy) / (fifo - best) of the mean JCTs, null when
 * one is unknown or the gap is below a millionth of fifo's mean JCT. The
 * same BoundResult always gives the same text.
 */
class BoundWriter
{
  public:
    /**
     * \param bound the bound
     * \return the bound JSON, keys in the documented order
     */
    static nlohmann::ordered_json ToJson(const BoundResult& bound);

    /**
     * \param fifo fifo's mean JCT
     * \param policy a policy's mean JCT
     * \param best the best schedule's mean JCT
     * \return (fifo - policy) / (fifo - best); NaN when a value is not
     *         finite or fifo - best is below a millionth of fifo
     */
    static double GapShare(double fifo, double policy, double best);

    /**
     * \brief Write the bound file: in full to a temporary file in the same
     * folder, then renamed into place (ResultsWriter::WriteFiles).
     * \param bound the bound
     * \param path the file
     *
     * Throws std::runtime_error with a one-line message `<path>: <reason>`.
     */
    static void Write(const BoundResult& bound, const std::string& path);
};

} // namespace ns3

#endif /* BOUND_WRITER_H */
