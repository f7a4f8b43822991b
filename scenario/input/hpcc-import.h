/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_IMPORT_H
#define HPCC_IMPORT_H

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Expand a scenario that names the HPCC simulator's files
 * (alibaba-edu/High-Precision-Congestion-Control, `simulation/mix/`) into
 * the scenario keys that say the same.
 *
 * The scenario's "hpcc" object names the files:
 *
 *     "hpcc": {"config": "config.txt",       KEY value lines (optional)
 *              "topology": "topology.txt",   default: the config's TOPOLOGY_FILE
 *              "flows": "flow.txt"}          default: the config's FLOW_FILE
 *
 * - the topology file (nodes switches links / the switch ids / one
 *   `a b rate delay error` line per cable) becomes a "links" topology
 *   whose hosts are the node ids that are not switches, in id order;
 *   error rates become "faults" loss rates;
 * - the flow file (its count / `src dst priority dport size start_s` per
 *   flow) becomes one "flows" background entry per priority, named
 *   "hpcc-flows" (or "hpcc-flows-pg<p>" when there are several), with
 *   "hpcc_fct": true so that `<stem>-fct.txt` is written in that
 *   simulator's FCT format;
 * - the configuration's keys that have a counterpart here become
 *   "transport", "topology", "faults", "stop_ms" and "ns3_defaults" keys
 *   (CC_MODE by its algorithm's name: 1 dcqcn, 3 hpcc, 7 timely, 8 dctcp;
 *   see doc/hpcc-import.rst for the full table); the others are listed in
 *   one warning.
 *
 * The scenario's own keys are applied on top of the expansion: objects key
 * by key, "jobs", "background" and "faults" appended, anything else
 * replaced. Relative file names are relative to baseDir; the config's
 * TOPOLOGY_FILE and FLOW_FILE are looked for relative to the config's
 * folder, then to its parent (the HPCC simulator runs from `simulation/`
 * with names such as `mix/topology.txt`), then to baseDir.
 *
 * A bad line in a file throws ScenarioError naming the field ("hpcc.flows")
 * with a message `<file> line <n>: <problem>`.
 *
 * \param scenario the scenario JSON, with an "hpcc" object
 * \param baseDir the folder relative names are relative to
 * \param warnings receives at most one line: what the files hold that is
 *        not carried over
 * \param origins if given, receives, per scenario key the files give and
 *        the scenario does not ("topology.buffer_mb"), the field and the
 *        place in its file that gave it ("hpcc.config", "<file> line 3:
 *        BUFFER_SIZE 1"): what a later problem with that key names
 * \return the scenario without "hpcc", with the files' content as keys
 */
nlohmann::json ExpandHpccImport(
    const nlohmann::json& scenario,
    const std::string& baseDir,
    std::vector<std::string>& warnings,
    std::map<std::string, std::pair<std::string, std::string>>* origins = nullptr);

/**
 * \ingroup flux-scenario
 * \brief Read a data rate as ns-3 and the HPCC simulator's files write it:
 * a number and a unit, bit/s ("bps", "b/s", with k/K, M, G, T prefixes,
 * "kbps", "Mb/s", "100Gbps") or byte/s ("Bps", "B/s", "MBps", ...), or a
 * plain number of bit/s.
 * \param text the rate
 * \return bit/s, or nothing when the text is not a rate
 */
std::optional<double> ParseHpccRate(const std::string& text);

/**
 * \ingroup flux-scenario
 * \brief Read a time as ns-3 writes it: a number and a unit ("s", "ms",
 * "us", "ns", "ps", "min", "h", "d"), or a plain number of seconds.
 * \param text the time
 * \return nanoseconds, or nothing when the text is not a time
 */
std::optional<double> ParseHpccTimeNs(const std::string& text);

/**
 * \ingroup flux-scenario
 * \brief The IPv4 address the HPCC simulator gives a node:
 * 0x0b000001 + (id / 256) x 0x10000 + (id % 256) x 0x100, so that node 1 is
 * 11.0.1.1 and node 256 is 11.1.0.1.
 * \param nodeId the node's id
 * \return the address as a 32-bit number
 */
uint32_t HpccNodeAddress(uint32_t nodeId);

} // namespace ns3

#endif /* HPCC_IMPORT_H */
