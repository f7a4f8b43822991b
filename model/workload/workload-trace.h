/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_TRACE_H
#define WORKLOAD_TRACE_H

#include "ns3/collective-type.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief One node of one rank's part of a workload graph.
 *
 * Nodes come from a Chakra execution trace or an AICB/SimAI model file (the
 * readers translate both into this form). A node may run once every node it
 * depends on (data or control dependency) has finished on the same rank.
 */
struct WorkloadNode
{
    /// What a node does.
    enum class Kind : uint8_t
    {
        COMPUTE,    //!< busy the rank's GPU for durationNs (0: not the GPU)
        MEMORY,     //!< a memory operation: durationNs, no network
        COLLECTIVE, //!< a collective of collective type on group
        SEND,       //!< send bytes to rank peer (matched with its RECV by tag)
        RECV,       //!< receive bytes from rank peer (matched with its SEND by tag)
    };

    uint64_t id{0};           //!< the node's id in its source (unique per rank)
    std::string name;         //!< the node's name in its source (for messages and timelines)
    Kind kind{Kind::COMPUTE}; //!< what it does
    uint64_t durationNs{0};   //!< COMPUTE, MEMORY: how long it takes
    CollectiveType collective{CollectiveType::ALL_REDUCE}; //!< COLLECTIVE: which
    uint64_t bytes{0};          //!< COLLECTIVE: comm_size (the buffer per rank); SEND/RECV: bytes
    uint32_t group{0};          //!< COLLECTIVE: index into WorkloadTrace::groups
    uint32_t peer{0};           //!< SEND: destination rank; RECV: source rank
    uint32_t tag{0};            //!< SEND/RECV: the tag pairing a send with its receive
    std::vector<uint32_t> deps; //!< indices (into the rank's node vector) of nodes it waits for
};

/**
 * \ingroup flux-workload
 * \brief A whole workload: every rank's nodes, and the communication groups.
 *
 * Collectives are matched across ranks per group, in order: the k-th
 * COLLECTIVE node of a group on one rank (in node order) is the same
 * operation as the k-th on every other member, and must agree with it in
 * type and bytes (a reader checks it). Ranks are numbered 0 .. ranks-1 in
 * the job's rank order; a job's placement maps them to GPUs.
 */
struct WorkloadTrace
{
    std::string source;                           //!< file or prefix it was read from (messages)
    uint32_t ranks{0};                            //!< number of ranks
    std::vector<std::vector<uint32_t>> groups;    //!< communication groups: member ranks, ascending
    std::vector<std::vector<WorkloadNode>> nodes; //!< per rank: its nodes, deps before dependents
    std::vector<std::string> notes; //!< what the reader left out of its source, for a warning
};

} // namespace ns3

#endif /* WORKLOAD_TRACE_H */
