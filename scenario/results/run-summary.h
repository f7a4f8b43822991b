/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_SUMMARY_H
#define RUN_SUMMARY_H

#include "bound-result.h"
#include "run-results.h"

#include <string>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The results of a run on one screen, for a person at a terminal:
 * the run (policy, seed, backend, simulated and wall time, why it
 * stopped), one line per job (status, iterations, JCT, iteration mean and
 * p99, gate wait; for replayed jobs compute and exposed communication),
 * one line per background tenant (flows started and finished, FCT
 * slowdown p50 and p99) and the fabric's counters. Fields the backend
 * cannot know (RunResults::backendLimits) are left out. The results JSON
 * stays the record; flux-run prints this after writing it.
 *
 * \param results the results of a run
 * \return the summary, lines ending in '\n'
 */
std::string FormatRunSummary(const RunResults& results);

/**
 * \ingroup flux-scenario
 * \brief A bound on one screen (flux-run --bound prints it after writing the
 * bound JSON): the flow-level runs made, one line per job alone (start,
 * JCT, shortest and longest iteration), then the mean JCT and the worst
 * iteration of the lower bound, the best schedule found, fifo and the
 * scenario's policy, each with its share of the fifo -> best gap in mean
 * JCT, and the best schedule's order.
 *
 * \param bound a computed bound
 * \return the summary, lines ending in '\n'
 */
std::string FormatBoundSummary(const BoundResult& bound);

} // namespace ns3

#endif /* RUN_SUMMARY_H */
