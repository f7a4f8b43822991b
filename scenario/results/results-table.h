/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RESULTS_TABLE_H
#define RESULTS_TABLE_H

#include "run-results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief One table of per-record results (iterations, phases, flows, rate
 * and queue samples): the single definition of its columns, their order
 * and the rounding of their values.
 *
 * ResultsWriter writes a table as a CSV file; the Python bindings hand the
 * same table to Python column by column, so that both show the same values.
 */
class ResultsTable
{
  public:
    /// Decimals of ms values (nanosecond resolution).
    static constexpr int kTimeDigits = 6;
    /// Decimals of us values (nanosecond resolution).
    static constexpr int kUsDigits = 3;
    /// Decimals of ratios (slowdowns, utilisations, rates in Gb/s).
    static constexpr int kRatioDigits = 6;

    /// One value of a table.
    struct Cell
    {
        /// What the cell holds.
        enum class Kind
        {
            TEXT,    //!< a string
            INTEGER, //!< an unsigned integer
            NUMBER,  //!< a rounded finite number
            EMPTY,   //!< no value (a number that was not finite)
        };

        Kind kind{Kind::EMPTY}; //!< what the cell holds
        std::string text;       //!< the string, for TEXT
        uint64_t integer{0};    //!< the value, for INTEGER
        double number{0};       //!< the rounded value, for NUMBER

        /**
         * \param s a string
         * \return a TEXT cell
         */
        static Cell Text(const std::string& s);
        /**
         * \param v an unsigned integer
         * \return an INTEGER cell
         */
        static Cell Integer(uint64_t v);
        /**
         * \param x a number
         * \param digits decimals to keep
         * \return a NUMBER cell holding x rounded, or EMPTY when x is not finite
         */
        static Cell Number(double x, int digits);
    };

    std::vector<std::string> columns;    //!< column names, in order
    std::vector<std::vector<Cell>> rows; //!< rows, each one cell per column

    /**
     * \brief The table as CSV text: a header line, comma-separated, RFC 4180
     * quoting, numbers as JSON writes them, empty cells empty.
     * \return the text
     */
    std::string ToCsv() const;

    /**
     * \param x a number
     * \param digits decimals to keep
     * \return x rounded (never -0.0); NaN and infinities as they are
     */
    static double Round(double x, int digits);

    /**
     * \param f a flow
     * \return its FCT slowdown, NaN when its ideal FCT is not positive
     */
    static double Slowdown(const RunResults::FlowResult& f);

    /// \return job, iteration, iteration_ms
    static ResultsTable Iterations(const RunResults& results);
    /// \return job, iteration, step, start_ms, duration_ms
    static ResultsTable Phases(const RunResults& results);
    /// \return tenant, src, dst, size_bytes, start_ms, fct_us, ideal_fct_us, slowdown
    static ResultsTable Flows(const RunResults& results);
    /// \return time_us, owner, src, dst, qpn, rate_gbps, target_gbps, alpha, window_bytes
    static ResultsTable Rates(const RunResults& results);
    /// \return time_us, link, queue_bytes, utilization
    static ResultsTable Queues(const RunResults& results);
};

} // namespace ns3

#endif /* RESULTS_TABLE_H */
