/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_GRAPH_H
#define WORKLOAD_GRAPH_H

#include "ns3/workload-trace.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Put one rank's nodes in dependency order.
 *
 * On entry each node's deps are indices into \p nodes in their given (file)
 * order. On return the nodes are in a topological order, deps remapped, each
 * node's deps ascending and without repeats. Of the valid orders, it is the
 * one that keeps the given order wherever the dependencies allow: a file
 * already in dependency order comes back unchanged, so that collectives keep
 * the order in which the trace lists them.
 *
 * \param nodes the rank's nodes
 * \param source the rank's file, to name in messages
 * \throws ScenarioError naming \p source and a node of the cycle when the
 *         dependencies have a cycle
 */
void SortWorkloadNodes(std::vector<WorkloadNode>& nodes, const std::string& source);

/**
 * \ingroup flux-workload
 * \brief Check that the ranks of a trace agree with one another.
 *
 * Checks: every group lists distinct ranks of the trace in ascending order;
 * a COLLECTIVE names an existing group of which its rank is a member; the
 * k-th COLLECTIVE of a group is the same collective (type and bytes) on
 * every member and every member has it; the k-th SEND from rank a to rank b
 * with tag t meets the k-th RECV on b from a with tag t, with the same
 * bytes. A RECV of 0 bytes takes the bytes of its SEND (traces may leave
 * the receive's size out).
 *
 * \param trace the trace (RECV bytes may be filled in)
 * \param rankSources per rank, the file to name in messages
 * \throws ScenarioError naming the file and node of the first disagreement
 */
void CheckWorkloadTrace(WorkloadTrace& trace, const std::vector<std::string>& rankSources);

/**
 * \param source a rank's file
 * \param node one of its nodes
 * \return the field a message about \p node names: "<file> node <id>"
 */
std::string WorkloadNodeField(const std::string& source, const WorkloadNode& node);

} // namespace ns3

#endif /* WORKLOAD_GRAPH_H */
