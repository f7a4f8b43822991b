/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_TRACE_READER_H
#define CHAKRA_TRACE_READER_H

#include "ns3/workload-trace.h"

#include <string>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Read an MLCommons Chakra execution trace.
 *
 * A trace is one file per rank, `<prefix>.<rank>.et` (or `.et.gz`, gzip
 * compressed; compression is also recognised by content) for ranks 0 ..
 * N-1, N found by listing the folder. Each file holds a length-delimited
 * GlobalMetadata message and then length-delimited Node messages up to its
 * end (protobuf varint32 length prefixes). Node types map as follows:
 * COMP_NODE: COMPUTE of duration_micros; MEM_LOAD_NODE, MEM_STORE_NODE:
 * MEMORY of duration_micros; COMM_COLL_NODE: COLLECTIVE (attributes
 * comm_type, comm_size in bytes, pg_name); COMM_SEND_NODE: SEND to
 * comm_dst, COMM_RECV_NODE: RECV from comm_src (comm_size bytes, tag
 * comm_tag, default 0); METADATA_NODE: a COMPUTE of no time that keeps the
 * dependencies through it; STORAGE_NODE, CHECKPOINT_NODE, BATCH_NODE: MEMORY
 * of duration_micros (local work without the network). Data and control
 * dependencies both order nodes.
 *
 * Communication groups come from \p commGroupsFile, ASTRA-sim's JSON
 * object `{"<pg_name>": [ranks...], ...}`; a collective without pg_name, or
 * any collective when \p commGroupsFile is empty, spans all ranks.
 *
 * \param prefix the files' common prefix (path and name before `.<rank>.et`)
 * \param commGroupsFile the communication-group file, or "" for none
 * \return the trace, every rank's nodes in dependency order
 * \throws ScenarioError naming the file (and node id) of the first problem:
 *         a missing rank file, one not a regular file, a truncated file or message, a bad length
 *         prefix, an unknown node type or collective, a missing or bad
 *         attribute, a size or duration out of range, a duplicate node id,
 *         a dependency on a node the rank does not have, a dependency
 *         cycle, a group naming ranks outside the trace, collectives that
 *         disagree across the members of their group, a send without its
 *         receive
 */
WorkloadTrace ReadChakraTrace(const std::string& prefix, const std::string& commGroupsFile = "");

} // namespace ns3

#endif /* CHAKRA_TRACE_READER_H */
