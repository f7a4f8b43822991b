/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_LIMITS_H
#define SCENARIO_LIMITS_H

#include "ns3/traffic-class.h"

#include <cstddef>
#include <cstdint>
#include <limits>

/*
 * The limits that the scenario file's reader (scenario-json.h) and the
 * readers of other tools' files share with the scenario schema
 * (scenario-keys.h): one definition, here, below both.
 */

namespace ns3
{
namespace scenario
{

constexpr uint64_t kMaxHosts = 1u << 20;                  //!< largest host count accepted
constexpr uint64_t kMaxDimension = 65535;                 //!< largest switch / host count per level
constexpr uint64_t kMaxPriority = TrafficClass::MAX_DATA; //!< highest data traffic class
constexpr size_t kMaxNesting = 64; //!< deepest nesting of objects and arrays in a file

/// Highest link rate, Gb/s (10 Tb/s).
constexpr double kMaxGbps = 1e4;
/// Lowest link rate, Gb/s (1 Mb/s).
constexpr double kMinGbps = 1e-3;
/// Largest byte count a workload may move in a run (2^63 - 1): counters and
/// the products of sizes, ranks and repetitions stay inside int64/uint64.
constexpr uint64_t kMaxTotalBytes = std::numeric_limits<int64_t>::max();

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_LIMITS_H */
