/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_SECTIONS_H
#define SCENARIO_SECTIONS_H

#include "scenario-config.h"
#include "scenario-reader.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace ns3
{
namespace scenario
{

/**
 * \name The parsers of the scenario's sections
 * Each checks its section's keys, types and ranges, and fills its part of
 * the ScenarioConfig; the first problem throws ScenarioError naming the
 * field. Fabric sections in fabric-sections.cc, workload sections in
 * workload-sections.cc, ns3_defaults in scenario-ns3-defaults.cc.
 * @{
 */

/**
 * \param v the "topology" object
 * \param cfg receives cfg.topology
 */
void ParseTopology(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \brief The cables of a "links" topology (explicit-sections.cc): nodes,
 * switch_nodes and links, checked (ids, self-links, hosts with one cable
 * to a switch, no second cable between two nodes); fills the topology's
 * node lists and host components, and sets host_gbps (the first host's
 * cable), fabric_gbps (the fastest switch cable) and link_delay_us (the
 * longest delay).
 * \param r the "topology" object, its other keys read
 * \param cfg receives cfg.topology
 */
void ParseLinksTopology(const ObjectReader& r, ScenarioConfig& cfg);

/**
 * \brief The flows of a "flows" pattern (explicit-sections.cc): distinct
 * hosts joined by the fabric, sizes >= 1, start times before stop_ms and in
 * order.
 * \param r the background entry
 * \param cfg the scenario, its topology parsed
 * \return the flows
 */
std::vector<ScenarioConfig::BackgroundConfig::FlowConfig> ParseFlowList(const ObjectReader& r,
                                                                        const ScenarioConfig& cfg);

/**
 * \brief The "per_rate" array of "transport.ecn" (explicit-sections.cc).
 * \param e the "ecn" object
 * \param cfg receives cfg.transport.ecn.perRate
 */
void ParseEcnPerRate(const ObjectReader& e, ScenarioConfig& cfg);

/**
 * \param v the "transport" object (an empty object when absent: the DCQCN
 * profile sets the marking defaults)
 * \param cfg receives cfg.transport
 */
void ParseTransport(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \param v one entry of "faults"
 * \param path its path ("faults[2]")
 * \param cfg the scenario, its topology parsed
 * \return the fault
 */
ScenarioConfig::FaultConfig ParseFault(const nlohmann::json& v,
                                       const std::string& path,
                                       const ScenarioConfig& cfg);

/**
 * \param v the "traces" object
 * \param cfg receives cfg.traces
 */
void ParseTraces(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \param v the "pfc_watchdog" object
 * \param cfg receives cfg.pfcWatchdog
 */
void ParsePfcWatchdog(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \brief Parse the "scheduler" object (scenario-policy-keys.cc): "policy"
 * first, then every other key mapped to an attribute of the chosen policy
 * (PolicyKey). A key that is not an attribute of the chosen policy but is
 * one of another registered policy is checked against that policy's
 * attribute and kept (a scenario tuned for one policy runs under every
 * --policy); the chosen policy ignores it. A key of no policy is unknown.
 * \param v the "scheduler" object
 * \param cfg receives cfg.scheduler
 */
void ParsePolicy(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \brief Read a job's "collective", "algorithm" and "channels".
 * \param r the job
 * \param job receives them
 */
void ParseJobCollective(const ObjectReader& r, ScenarioConfig::JobConfig& job);

/**
 * \brief Read the workload file a job replays ("workload"); the job's
 * ranks are the workload's.
 * \param r the job
 * \param job receives the workload and its ranks
 * \param cfg the scenario (its folder)
 */
void ParseJobWorkload(const ObjectReader& r,
                      ScenarioConfig::JobConfig& job,
                      const ScenarioConfig& cfg);

/**
 * \brief Check that each collective's algorithm runs on the ranks it has
 * (e.g. halving-doubling on a power of two).
 * \param r the job
 * \param job the job, parsed
 */
void CheckJobAlgorithms(const ObjectReader& r, const ScenarioConfig::JobConfig& job);

/**
 * \param ranks a job's rank count
 * \param cfg the scenario, topology parsed
 * \return why the topology cannot hold the job ("N ranks but the topology
 * has M hosts"; GPUs with servers), or "" when it can
 */
std::string RanksBeyondTopology(uint64_t ranks, const ScenarioConfig& cfg);

/**
 * \param v one entry of "jobs"
 * \param path its path ("jobs[0]")
 * \param cfg the scenario, topology and transport parsed
 * \param owners job and tenant names so far, with the path of their entry
 * \return the job, its hosts not yet placed unless listed
 */
ScenarioConfig::JobConfig ParseJob(const nlohmann::json& v,
                                   const std::string& path,
                                   const ScenarioConfig& cfg,
                                   std::map<std::string, std::string>& owners);

/**
 * \param v one entry of "background"
 * \param path its path ("background[1]")
 * \param cfg the scenario, topology and jobs parsed
 * \param owners job and tenant names so far, with the path of their entry
 * \return the tenant
 */
ScenarioConfig::BackgroundConfig ParseBackground(const nlohmann::json& v,
                                                 const std::string& path,
                                                 const ScenarioConfig& cfg,
                                                 std::map<std::string, std::string>& owners);

/**
 * \brief Check the values of "ns3_defaults" before ns-3 parses them (ns-3
 * aborts on some bad values).
 * \param v the "ns3_defaults" object
 * \param cfg receives cfg.ns3Defaults
 */
void ParseNs3Defaults(const nlohmann::json& v, ScenarioConfig& cfg);

/**
 * \brief Add the scenario's warnings to cfg.warnings: a fabric that can
 * lose frames with a long ACK timer, tenants that offer a host more than
 * its link.
 * \param cfg a parsed scenario
 */
void AddWarnings(ScenarioConfig& cfg);

/** @} */

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_SECTIONS_H */
