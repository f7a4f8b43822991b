/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESULTS_WRITER_H
#define RESULTS_WRITER_H

#include "run-results.h"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Turns RunResults into the results JSON of the runner and its CSV
 * companions, and writes them atomically.
 *
 * Results JSON, keys in this order (times rounded to the nanosecond,
 * ratios to 6 decimals, wall_s to the millisecond; a statistic of an empty
 * set is null):
 *
 *     policy, seed,
 *     jobs: [{name, completed, iterations (completed), jct_ms (null unless
 *             completed), iteration_ms: [...],
 *             phase_ms: {count, p50, p99, max}}],
 *     flows: {count, fct_slowdown: {p50, p99, p999},
 *             tenants: {NAME: {count, fct_slowdown: {p50, p99, p999}}}},
 *     packet_latency_us: {count, mean, p50, p99, p999, max},
 *     network: {drops, pfc_pauses, ecn_marks, cnps, retransmissions,
 *               busiest_links: [{link, utilization}]},
 *     sim: {simulated_ms, wall_s, events, stop_reason}
 *
 * Percentiles are nearest-rank (SampleSummary). FCT slowdown is fctUs /
 * idealFctUs over the flows whose idealFctUs is positive; flows.count counts
 * every flow. Tenants are listed by name in byte order; busiest_links holds
 * the kBusiestLinks most utilised link directions, most utilised first (ties
 * by name).
 *
 * CSV files (header line, comma-separated, RFC 4180 quoting), next to the
 * results file, named after its path without the ".json" extension (the
 * stem): `<stem>-iterations.csv` (job, iteration, iteration_ms),
 * `<stem>-phases.csv` (job, iteration, step, start_ms, duration_ms) and
 * `<stem>-flows.csv` (tenant, src, dst, size_bytes, start_ms, fct_us,
 * ideal_fct_us, slowdown); when the scenario asked for traces also
 * `<stem>-rates.csv` (time_us, owner, src, dst, qpn, rate_gbps, target_gbps,
 * alpha, window_bytes) and `<stem>-queues.csv` (time_us, link, queue_bytes, utilization);
 * when the scenario has "hpcc_fct" also `<stem>-fct.txt`, the HPCC
 * simulator's FCT file (HpccFctWriter).
 *
 * The same RunResults always give byte-identical files.
 */
class ResultsWriter
{
  public:
    /// Number of links listed in network.busiest_links.
    static constexpr size_t kBusiestLinks = 10;

    /**
     * \brief Build the results JSON.
     * \param results the measurements
     * \return the JSON, keys in the documented order
     */
    static nlohmann::ordered_json ToJson(const RunResults& results);

    /**
     * \brief The text of the results file.
     * \param results the measurements
     * \return ToJson (results) indented by 2 spaces, with a final newline
     */
    static std::string ToJsonText(const RunResults& results);

    /**
     * \param results the measurements
     * \return the content of `<stem>-iterations.csv`
     */
    static std::string IterationsCsv(const RunResults& results);

    /**
     * \param results the measurements
     * \return the content of `<stem>-phases.csv`
     */
    static std::string PhasesCsv(const RunResults& results);

    /**
     * \param results the measurements
     * \return the content of `<stem>-flows.csv`
     */
    static std::string FlowsCsv(const RunResults& results);

    /**
     * \param results the measurements
     * \return the content of `<stem>-rates.csv` (written when results.traces)
     */
    static std::string RatesCsv(const RunResults& results);

    /**
     * \param results the measurements
     * \return the content of `<stem>-queues.csv` (written when results.traces)
     */
    static std::string QueuesCsv(const RunResults& results);

    /**
     * \brief The stem of the CSV file names.
     * \param jsonPath the results file path
     * \return jsonPath without a final ".json" (unchanged when it has none)
     */
    static std::string Stem(const std::string& jsonPath);

    /**
     * \param jsonPath the results file path
     * \return every file a run may write beside it (the CSV files, the
     *         HPCC FCT file), whether or not this run writes it
     */
    static std::vector<std::string> CompanionPaths(const std::string& jsonPath);

    /**
     * \brief Write the results file and its three CSV files.
     * \param results the measurements
     * \param jsonPath the results file path
     *
     * Every file is first written in full to a temporary file in the same
     * folder, then the CSV files and last the results file are renamed into
     * place. On failure the temporary files are removed, no file is left
     * half-written, and std::runtime_error is thrown with a one-line
     * message `<path>: <reason>`.
     */
    static void Write(const RunResults& results, const std::string& jsonPath);

    /**
     * \brief Write files so that none is ever seen half-written.
     * \param files (path, content) pairs
     *
     * As WriteOutputFiles: each in full under a temporary name, then
     * renamed into place in the order given; std::runtime_error on failure.
     */
    static void WriteFiles(const std::vector<std::pair<std::string, std::string>>& files);
};

} // namespace ns3

#endif /* RESULTS_WRITER_H */
