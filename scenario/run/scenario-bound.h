/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_BOUND_H
#define SCENARIO_BOUND_H

#include "ns3/bound-result.h"
#include "ns3/scenario-config.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief How ComputeBound searches and reports.
 */
struct BoundOptions
{
    /// Every order of the jobs is tried up to this many jobs; beyond, a few
    /// orders and pairwise swaps.
    uint32_t allOrdersUpTo{5};
    /// Beyond allOrdersUpTo: the most runs spent on pairwise swaps.
    uint32_t swapRuns{200};
    /**
     * Called after every run with the stage ("alone", "schedule" or
     * "policy"), the runs of the stage done, their number (for "schedule"
     * beyond allOrdersUpTo: at most that many) and the best mean JCT so far
     * (ms, NaN before the first schedule). May be empty.
     */
    std::function<void(const std::string& stage, uint32_t done, uint32_t total, double bestMs)>
        progress;
    /// When set and it becomes true, the computation stops after the
    /// current run and returns with BoundResult::cancelled.
    const std::atomic<bool>* cancel = nullptr;
};

/**
 * \ingroup flux-scenario
 * \brief The bound of a scenario and the best schedule, from flow-level
 * runs (RunScenario with the "flow" backend).
 * \param cfg a scenario validated by ParseScenario, with at least one job
 * \param opts search and reporting options
 * \return the bound
 *
 * The runs, all with cfg's seed:
 * - the scenario under "fifo" (each job in its scenario class): its mean
 *   JCT, and the jobs' ECMP source ports;
 * - each job alone: the scenario without the other jobs and without the
 *   background tenants, the job on the same hosts and the same ports (so
 *   the same paths). Its JCT and iterations, and the wire bits it puts on
 *   every link direction;
 * - the schedules of the search: the whole scenario under "fifo" with the
 *   jobs' classes set by a strict priority order, by fair sharing (one
 *   class for all) or as the scenario has them;
 * - the scenario under its own policy, when that is not "fifo".
 *
 * Lower bound on the mean JCT: the larger of the mean alone JCT and, over
 * the link directions, the mean flow time of preemptive SRPT on that link
 * alone (each job's bits on it at the link's rate, released at the job's
 * start). Lower bound on the worst iteration: the largest over the jobs of
 * the job's shortest iteration alone. doc/bound.rst says why both hold and
 * what they leave out.
 *
 * The search: the jobs' classes are the data classes strictly below the
 * lowest class of the background tenants (all of 0..6 without background),
 * highest first; an order gives its first job the highest class, and so
 * on; with more jobs than classes, consecutive jobs of the order share a
 * class (the groups as equal as possible, the larger ones last). Up to
 * allOrdersUpTo jobs every order is tried; beyond, shortest alone JCT
 * first, longest first and the scenario's order, then pairwise swaps of the
 * best order so far (first improvement, at most swapRuns runs). Schedules
 * that give the jobs the same classes (up to renumbering, without
 * background) run once.
 *
 * Throws ScenarioError for a bad scenario (as RunScenario does, or without
 * jobs) and std::runtime_error when a job does not complete alone before
 * stop_ms.
 */
BoundResult ComputeBound(const ScenarioConfig& cfg, const BoundOptions& opts);

} // namespace ns3

#endif /* SCENARIO_BOUND_H */
