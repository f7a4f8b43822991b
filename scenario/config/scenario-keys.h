/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_KEYS_H
#define SCENARIO_KEYS_H

#include "ns3/scenario-limits.h"

#include <cstdint>
#include <limits>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

/*
 * The scenario schema: every key, its type, range, default, unit and
 * meaning, is scenario.schema.json (JSON Schema, draft 07) beside this file,
 * compiled into the library; editors and ns3flux read the same file.
 * ValidateScenario checks every scenario against it with valijson (types,
 * ranges, names, required and unknown keys) before the section parsers read
 * it; the checks that relate keys to each other (hosts within the topology,
 * ranks within the GPUs, times before stop_ms) are the section parsers'.
 * Extensions of the schema's vocabulary: "x-unit" (the unit, also in the
 * key's name), "x-time" (a simulated time: positive ones must be at least
 * 1 ns), "x-interval" (messages give both bounds), "x-name" (what a value or
 * an array's elements are called in messages), "x-limits" (the cross-key
 * limits, in words), "x-default" (a default that is not a value),
 * "x-required" (when a key is required, in words), "x-variants" (keys of
 * the kinds of an entry).
 */

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The pieces of the scenario parser that its files share: the
 * schema (keys, names, numeric ranges), messages, typed JSON access and the
 * section parsers. Not part of the public API.
 */
namespace scenario
{

/**
 * \brief Check a scenario against the schema (valijson): types, ranges,
 * names, required keys and unknown keys. The first failure in document
 * order throws ScenarioError naming the field, phrased as the readers
 * phrase it (ToInteger, ToReal, ToOneOf); the checks that relate keys to
 * each other are the section parsers'.
 * \param scenario the scenario document
 */
void ValidateScenario(const nlohmann::json& scenario);

/// \return the schema, parsed (once)
const nlohmann::ordered_json& ScenarioSchema();

/**
 * \param section a section's path in the schema: "" the root, "topology",
 *        "jobs[]", "background[].flows[]" (an array's items are "[]")
 * \return the keys the section may have, in the schema's order
 */
std::vector<std::string> SchemaKeys(const std::string& section);

/// \name The names and keys the section parsers use (the schema's)
/// @{
extern const std::vector<std::string> kPlacements;
extern const std::vector<std::string> kPfcWatchdogActions;
extern const std::vector<std::string> kGranularities;
extern const std::vector<std::string> kBackgroundCommonKeys;
extern const std::vector<std::string> kBackgroundCdfKeys;
extern const std::vector<std::string> kBackgroundPatternKeys;
/// @}

// (the limits the readers of scenario/input/ share: scenario-limits.h)
constexpr uint64_t kMaxGpus = 1u << 24; //!< largest GPU count accepted
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uintmax_t kMaxCdfFileBytes = 16u << 20; //!< largest CDF file read

/// Longest simulated time a time key may give: 10^15 ns (about 11.6 days),
/// so that sums and small multiples of times stay far inside ns-3's int64
/// nanoseconds (9.2 x 10^18).
constexpr double kMaxTimeNs = 1e15;
/// Most pieces a pipelined ring step is sent in (chunk_bytes): every piece
/// of a step is posted at once.
constexpr uint64_t kMaxPiecesPerStep = 65536;

/// The bounds of one numeric key.
struct NumberRange
{
    /// What the number is.
    enum class Kind
    {
        INTEGER, //!< an integer in [imin, imax] (integral floats accepted)
        REAL,    //!< a finite number in [min, max] ((min, max] when minOpen)
        TIME     //!< a finite time in units of nsPerUnit ns, in [min, max]
    };

    Kind kind{Kind::REAL}; //!< what the number is
    uint64_t imin{0};      //!< INTEGER: smallest value
    uint64_t imax{0};      //!< INTEGER: largest value
    double min{0};         //!< REAL, TIME: smallest value
    double max{0};         //!< REAL, TIME: largest value
    bool minOpen{false};   //!< REAL, TIME: the value must be above min
    bool interval{false};  //!< messages give both bounds ("must be in [a, b]")
    double nsPerUnit{1};   //!< TIME: nanoseconds per unit (1e6: ms, 1e3: us)
};

/**
 * \brief An integer range.
 * \param min smallest value
 * \param max largest value
 * \return the range [min, max]
 */
NumberRange Int(uint64_t min, uint64_t max);

/**
 * \param node a numeric key's schema node
 * \param name the key's name or path (its unit: "_ms" or "_us")
 * \return its range
 */
NumberRange RangeOfNode(const nlohmann::ordered_json& node, const std::string& name);

/**
 * \param name a key's full name ("scheduler.hysteresis_us", "jobs[].bytes")
 * \return its range in the schema, or nullptr when it has none (scheduler
 *         keys need none: their attributes' checkers give their ranges)
 */
const NumberRange* FindRange(const std::string& name);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_KEYS_H */
