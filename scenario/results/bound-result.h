/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BOUND_RESULT_H
#define BOUND_RESULT_H

#include "run-results.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The bound of a scenario as plain data: what each job takes alone,
 * a lower bound on the mean JCT and the worst iteration, and the best
 * schedule a search found (ComputeBound fills it, BoundWriter writes it).
 *
 * Times are simulated milliseconds; NaN stands for "unknown" (a run in
 * which some job did not complete) and is written as null.
 */
struct BoundResult
{
    /// One job, alone on the idle fabric.
    struct JobAlone
    {
        std::string name;           //!< the job's name in the scenario
        double startMs{0};          //!< its start time, ms
        double jctMs{0};            //!< its JCT alone, ms
        double bestIterationMs{0};  //!< its shortest iteration alone, ms
        double worstIterationMs{0}; //!< its longest iteration alone, ms
        /// Its lower bound, ms: its run with every flow at its path's
        /// rate (FluidNetwork::Shared false), or the time its bits take
        /// through its busiest cut, whichever is longer.
        double boundJctMs{0};
        /// Its shortest iteration with every flow at its path's rate, ms.
        double boundIterationMs{0};
    };

    /// Mean JCT and worst iteration of one run of the whole scenario.
    struct Outcome
    {
        double meanJctMs{std::numeric_limits<double>::quiet_NaN()}; //!< over the jobs, ms
        double worstIterationMs{
            std::numeric_limits<double>::quiet_NaN()}; //!< over every iteration of every job, ms
    };

    /// The best schedule found.
    struct Best : Outcome
    {
        std::string schedule; //!< "priority" (an order), "fair" (one class) or "scenario"
        /// The jobs by precedence: groups sharing a class, highest first.
        std::vector<std::vector<std::string>> order;
        /// The class of each job, scenario order.
        std::vector<std::pair<std::string, uint32_t>> classes;
        uint32_t schedulesTried{0}; //!< distinct schedules run by the search
        std::string search;         //!< "every order", "orders and swaps", ...
    };

    uint32_t seed{1};                 //!< the seed of every run
    RunResults::Seeds seeds;          //!< the seed of each random source of every run
    std::vector<JobAlone> jobs;       //!< scenario order
    double lowerMeanJctMs{0};         //!< lower bound on the mean JCT, ms
    double meanAloneJctMs{0};         //!< mean of the jobs' alone JCTs, ms
    double meanJobBoundMs{0};         //!< mean of the jobs' own lower bounds, ms
    double srptMeanJctMs{0};          //!< the largest per-link SRPT bound, ms
    std::string srptLink;             //!< the link direction that gives it
    double lowerWorstIterationMs{0};  //!< lower bound on the worst iteration, ms
    Best best;                        //!< the best schedule found
    Outcome fifo;                     //!< the scenario under fifo
    std::string policy;               //!< the scenario's policy
    Outcome policyOutcome;            //!< the scenario under its policy
    uint32_t runs{0};                 //!< flow-level runs made
    double wallS{0};                  //!< wall-clock time of the computation, s
    std::vector<std::string> plugins; //!< plugin libraries loaded in the process
    bool cancelled{false};            //!< stopped early (RunOptions::cancel)
};

} // namespace ns3

#endif /* BOUND_RESULT_H */
