/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef AICB_WORKLOAD_READER_H
#define AICB_WORKLOAD_READER_H

#include "ns3/workload-trace.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief How to read an AICB workload file.
 */
struct AicbOptions
{
    /// The job's rank count (world size); 0: the file's all_gpus. When both
    /// are given they must agree.
    uint32_t ranks{0};
    /// The most nodes the workload may have, all ranks together (a bound on
    /// memory: a node takes about 100 bytes).
    uint64_t maxNodes{1ULL << 24};
    /// Called with the rank count once it is known, before any rank is
    /// built: it may throw to refuse a job too large at once (a
    /// ScenarioError for the field "ranks" names the job's ranks).
    std::function<void(uint64_t ranks)> checkRanks;
};

/**
 * \ingroup flux-workload
 * \brief Read an Alibaba AICB workload file in SimAI's text format.
 *
 * Line 1: the parallelism kind (DATA, MICRO, MODEL, HYBRID_TRANSFORMER,
 * HYBRID_TRANSFORMER_FWD_IN_BCKWD) and options (`model_parallel_NPU_group:`
 * TP, `ep:`, `pp:`, `vpp:`, `ga:`, `all_gpus:`, `pp_comm:` bytes,
 * `checkpoints:`, `checkpoint_initiates:`); line 2: the number of layers;
 * then one line per layer of 12 columns: name, dependency (unused), forward
 * compute time, forward collective and bytes, input-gradient compute time,
 * collective and bytes, weight-gradient compute time, collective and bytes,
 * update time. Times are in nanoseconds (SimAI's ticks).
 *
 * Rank r of TP*PP*DP has TP index r % TP, pipeline stage (r / TP) % PP and
 * data-parallel index r / (TP*PP). Forward and input-gradient collectives
 * run in the rank's TP group (consecutive ranks), weight-gradient ones in
 * its DP group (stride TP*PP); a `_EP` suffix puts any of them in the
 * expert-parallel group (EP consecutive DP indices), `_DP_EP` in the
 * expert-data-parallel group (DP indices equal modulo EP). A collective of
 * a one-rank group moves nothing and is left out.
 *
 * Every rank runs one iteration: the layers forward (compute, then its
 * collective, which the next layer waits for), then backward from the last
 * layer (input-gradient compute and its collective, which the next step
 * waits for; weight-gradient compute and its collective, which nothing
 * after it in the backward pass waits for; then that layer's update compute,
 * after the collective). With PP > 1 and pp_comm > 0, a stage receives
 * pp_comm bytes of activations from the previous stage before its forward
 * pass and sends them on after it, and receives gradients from the next
 * stage before its backward pass and sends them back after it. The file
 * lists every micro-batch (AICB writes the layers ga times), so ga only
 * documents the file.
 *
 * \param file the workload file
 * \param options how to read it
 * \return the workload
 * \throws ScenarioError naming the file: not a regular file; or the file and
 *         line: missing or extra columns,
 *         an unknown parallelism kind, option or collective, a negative or
 *         malformed number, group sizes that do not divide the rank count, a
 *         layer count that differs from the layers listed, more nodes than
 *         options.maxNodes; or naming "ranks" when neither the file
 *         (all_gpus) nor options.ranks gives the rank count
 */
WorkloadTrace ReadAicbWorkload(const std::string& file, const AicbOptions& options = AicbOptions());

} // namespace ns3

#endif /* AICB_WORKLOAD_READER_H */
