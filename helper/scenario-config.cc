/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-config.h"

#include "ns3/attribute.h"
#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/global-value.h"
#include "ns3/int-header.h"
#include "ns3/job-scheduler.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/string.h"
#include "ns3/traffic-class.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioConfig");

namespace
{

using json = nlohmann::json;

// ---------------------------------------------------------------------------
// The names each key accepts. One place per list: adding a value is one line.
// ---------------------------------------------------------------------------

const std::vector<std::string> kTopologyKinds = {"leaf-spine", "fat-tree", "dumbbell", "ring"};
const std::vector<uint64_t> kMtus = {256, 512, 1024, 2048, 4096};
const std::vector<std::string> kPlacements = {"packed", "spread", "random"};
const std::vector<std::string> kCollectives = {"ring-allreduce"};
const std::vector<std::string> kPatterns = {"incast"};

constexpr uint64_t kMaxHosts = 1u << 20;                  //!< largest host count accepted
constexpr uint64_t kMaxDimension = 65535;                 //!< largest switch / host count per level
constexpr uint64_t kMaxPriority = TrafficClass::MAX_DATA; //!< highest data traffic class
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr size_t kMaxNesting = 64; //!< deepest nesting of objects and arrays in a file
constexpr uintmax_t kMaxCdfFileBytes = 16u << 20; //!< largest CDF file read

const std::vector<std::string> kRootKeys = {"description",
                                            "seed",
                                            "stop_ms",
                                            "stall_ms",
                                            "topology",
                                            "transport",
                                            "scheduler",
                                            "jobs",
                                            "background",
                                            "ns3_defaults",
                                            "faults",
                                            "traces",
                                            "pfc_watchdog",
                                            "event_scheduler"};
/// "event_scheduler" values and their ns-3 types, the default first.
const std::vector<std::pair<std::string, std::string>> kEventSchedulers = {
    {"priority-queue", "ns3::PriorityQueueScheduler"},
    {"map", "ns3::MapScheduler"},
    {"heap", "ns3::HeapScheduler"},
    {"calendar", "ns3::CalendarScheduler"},
    {"list", "ns3::ListScheduler"}};
const std::vector<std::string> kTopologyKeys = {"kind",
                                                "leaves",
                                                "spines",
                                                "hosts_per_leaf",
                                                "k",
                                                "hosts_per_side",
                                                "switches",
                                                "hosts_per_switch",
                                                "host_gbps",
                                                "fabric_gbps",
                                                "link_delay_us",
                                                "buffer_mb",
                                                "route_convergence_ms"};
const std::vector<std::string> kTransportKeys =
    {"mtu_bytes", "cc", "pfc", "dcqcn", "ecn", "ack_timeout", "retry_cnt"};
const std::vector<std::string> kDcqcnKeys = {"profile",
                                             "g",
                                             "alpha_interval_us",
                                             "rate_decrease_interval_us",
                                             "rate_increase_interval_us",
                                             "byte_counter_bytes",
                                             "fast_recovery_stages",
                                             "ai_mbps",
                                             "hai_mbps",
                                             "min_rate_mbps",
                                             "clamp_target_rate",
                                             "clamp_after_timer",
                                             "cnp_interval_us"};
const std::vector<std::string> kFaultKeys = {"link", "loss_rate", "down_ms", "up_ms"};
const std::vector<std::string> kTracesKeys = {"interval_us", "rates", "links"};
const std::vector<std::string> kPfcWatchdogKeys = {"enabled",
                                                   "detection_ms",
                                                   "restoration_ms",
                                                   "action"};
const std::vector<std::string> kPfcWatchdogActions = {"drop", "forward"};
const std::vector<std::string> kEcnKeys = {"kmin_kb", "kmax_kb", "pmax"};
const std::vector<std::string> kSchedulerKeys = {"policy",
                                                 "classes",
                                                 "granularity",
                                                 "control_latency_us",
                                                 "replan_us",
                                                 "hysteresis_us",
                                                 "max_hold_us",
                                                 "min_share",
                                                 "max_wait_us",
                                                 "background_first"};
const std::vector<std::string> kGranularities = {"step", "chunk"};
const std::vector<std::string> kJobKeys = {"name",
                                           "ranks",
                                           "hosts",
                                           "placement",
                                           "collective",
                                           "bytes",
                                           "compute_ms",
                                           "iterations",
                                           "start_ms",
                                           "chunk_bytes",
                                           "buckets",
                                           "priority"};
const std::vector<std::string> kBackgroundCommonKeys = {"name", "priority", "start_ms"};
const std::vector<std::string> kBackgroundCdfKeys = {"cdf", "load", "hosts", "stop_ms"};
const std::vector<std::string> kBackgroundPatternKeys =
    {"pattern", "senders", "receiver", "bytes", "repeat", "interval_ms"};

// ---------------------------------------------------------------------------
// What each numeric key accepts: the one place where the bounds live. The
// section parsers read numbers only through ObjectReader's Integer, Number
// and Read, which look the key up here ("<section>.<key>", array indices
// written "[]": "jobs[].bytes") and check type, finiteness and range.
// A new numeric key needs one line here.
// ---------------------------------------------------------------------------

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

/// Longest simulated time a time key may give: 10^15 ns (about 11.6 days),
/// so that sums and small multiples of times stay far inside ns-3's int64
/// nanoseconds (9.2 x 10^18).
constexpr double kMaxTimeNs = 1e15;
/// Highest seed: ns-3's MRG32k3a generator needs seeds below m1 = 4294967087.
constexpr uint64_t kMaxSeed = 4294967086;
/// Highest link rate, Gb/s (10 Tb/s).
constexpr double kMaxGbps = 1e4;
/// Lowest link rate, Gb/s (1 Mb/s).
constexpr double kMinGbps = 1e-3;
/// Largest byte count a workload may move in a run (2^63 - 1): counters and
/// the products of sizes, ranks and repetitions stay inside int64/uint64.
constexpr uint64_t kMaxTotalBytes = std::numeric_limits<int64_t>::max();
/// Most pieces a pipelined ring step is sent in (chunk_bytes): every piece
/// of a step is posted at once.
constexpr uint64_t kMaxPiecesPerStep = 65536;

/// An integer in [min, max].
NumberRange
Int(uint64_t min, uint64_t max)
{
    NumberRange r;
    r.kind = NumberRange::Kind::INTEGER;
    r.imin = min;
    r.imax = max;
    return r;
}

/// A number in [min, max]; messages name only the bound that is crossed.
NumberRange
Real(double min, double max)
{
    NumberRange r;
    r.min = min;
    r.max = max;
    return r;
}

/// A number in (0, max].
NumberRange
Positive(double max)
{
    NumberRange r = Real(0, max);
    r.minOpen = true;
    return r;
}

/// A number in [min, max], or (min, max] with minOpen; messages give both bounds.
NumberRange
Interval(double min, double max, bool minOpen = false)
{
    NumberRange r = Real(min, max);
    r.minOpen = minOpen;
    r.interval = true;
    return r;
}

/// A link rate in Gb/s.
NumberRange
Gbps()
{
    return Real(kMinGbps, kMaxGbps);
}

/// A time in ms (nsPerUnit 1e6) or us (1e3): [0, max] or, when positive, at
/// least 1 ns (shorter positive times would round to 0 ns).
NumberRange
TimeIn(double nsPerUnit, bool positive, double max = kMaxTimeNs)
{
    NumberRange r;
    r.kind = NumberRange::Kind::TIME;
    r.nsPerUnit = nsPerUnit;
    r.min = positive ? 1 / nsPerUnit : 0;
    r.max = std::min(max, kMaxTimeNs / nsPerUnit);
    return r;
}

/// A time in ms, >= 0 (or >= 1 ns when positive).
NumberRange
Ms(bool positive = false)
{
    return TimeIn(1e6, positive);
}

/// A time in us, >= 0 (or >= 1 ns when positive), at most max us.
NumberRange
Us(bool positive = false, double max = kMaxTimeNs)
{
    return TimeIn(1e3, positive, max);
}

constexpr bool kPositive = true; //!< Ms / Us: the time must be at least 1 ns

const std::map<std::string, NumberRange> kNumberRanges = {
    {"seed", Int(1, kMaxSeed)},
    {"stop_ms", Ms(kPositive)},
    {"stall_ms", Ms()},
    // The model's times have nanosecond resolution; a microsecond is the
    // least that means anything for a watchdog.
    {"pfc_watchdog.detection_ms", Interval(0.001, 1e12)},
    {"pfc_watchdog.restoration_ms", Interval(0.001, 1e12)},
    {"topology.leaves", Int(1, kMaxDimension)},
    {"topology.spines", Int(0, kMaxDimension)},
    {"topology.hosts_per_leaf", Int(1, kMaxDimension)},
    {"topology.hosts_per_side", Int(1, kMaxDimension)},
    {"topology.switches", Int(3, kMaxDimension)},
    {"topology.hosts_per_switch", Int(1, kMaxDimension)},
    {"topology.route_convergence_ms", Ms()},
    {"topology.k", Int(2, 254)},
    {"topology.host_gbps", Gbps()},
    {"topology.fabric_gbps", Gbps()},
    {"topology.link_delay_us", Us()},
    {"topology.buffer_mb", Positive(1e6)},
    {"transport.mtu_bytes", Int(0, kU64Max)},
    {"transport.ack_timeout", Int(0, 31)},
    {"transport.retry_cnt", Int(0, 7)},
    {"transport.dcqcn.g", Interval(1e-9, 1)},
    {"transport.dcqcn.alpha_interval_us", Interval(0.001, 1e6)},
    {"transport.dcqcn.rate_decrease_interval_us", Interval(0, 1e6)},
    {"transport.dcqcn.rate_increase_interval_us", Interval(0.001, 1e6)},
    {"transport.dcqcn.cnp_interval_us", Interval(0, 1e6)},
    {"transport.dcqcn.min_rate_mbps", Interval(1e-3, 1e7)},
    {"transport.dcqcn.ai_mbps", Interval(0, 1e7)},
    {"transport.dcqcn.hai_mbps", Interval(0, 1e7)},
    {"transport.dcqcn.byte_counter_bytes", Int(0, kMaxTotalBytes)},
    {"transport.dcqcn.fast_recovery_stages", Int(0, 1000)},
    {"transport.ecn.kmin_kb", Real(0, 4e6)},
    {"transport.ecn.kmax_kb", Positive(4e6)},
    {"transport.ecn.pmax", Interval(0, 1, true)},
    {"scheduler.classes", Int(1, TrafficClass::MAX_DATA)},
    {"scheduler.control_latency_us", Us(false, 1e6)},
    {"scheduler.replan_us", Us(false, 1e7)},
    {"scheduler.hysteresis_us", Us(false, 1e7)},
    {"scheduler.max_hold_us", Us(false, 1e7)},
    {"scheduler.max_wait_us", Us(false, 1e7)},
    {"scheduler.min_share", Interval(0, 0.5)},
    {"faults[].loss_rate", Interval(0, 1)},
    {"faults[].down_ms", Ms()},
    {"faults[].up_ms", Ms()},
    {"traces.interval_us", Us(kPositive)},
    {"jobs[].ranks", Int(2, kU32Max)},
    {"jobs[].bytes", Int(1, kMaxTotalBytes)},
    {"jobs[].compute_ms", Ms()},
    {"jobs[].iterations", Int(1, kU32Max)},
    {"jobs[].start_ms", Ms()},
    {"jobs[].chunk_bytes", Int(0, kMaxTotalBytes)},
    {"jobs[].buckets", Int(1, 8192)},
    {"jobs[].priority", Int(0, kMaxPriority)},
    {"background[].priority", Int(0, kMaxPriority)},
    {"background[].start_ms", Ms()},
    {"background[].load", Interval(0, 1, true)},
    {"background[].stop_ms", Ms()},
    {"background[].bytes", Int(1, kMaxTotalBytes)},
    {"background[].repeat", Int(1, kU32Max)},
    {"background[].interval_ms", Ms(kPositive)},
};

// ---------------------------------------------------------------------------
// Formatting helpers
// ---------------------------------------------------------------------------

[[noreturn]] void
Fail(const std::string& path, const std::string& problem)
{
    throw ScenarioError(path, problem);
}

std::string
Quote(const std::string& s)
{
    // replace: a string cut inside a UTF-8 sequence still prints
    return json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string
Num(double v)
{
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
    {
        return std::to_string(static_cast<long long>(v));
    }
    std::ostringstream os;
    os.precision(10);
    os << v;
    return os.str();
}

/// A short description of a JSON value for "got ..." in messages.
std::string
Describe(const json& v)
{
    switch (v.type())
    {
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::null:
        return "null";
    case json::value_t::string: {
        const auto& s = v.get_ref<const std::string&>();
        return s.size() > 40 ? Quote(s.substr(0, 40) + "...") : Quote(s);
    }
    default:
        return v.dump();
    }
}

template <typename T>
std::string
Join(const std::vector<T>& items, const std::string& sep = ", ")
{
    std::ostringstream os;
    for (size_t i = 0; i < items.size(); ++i)
    {
        os << (i ? sep : "") << items[i];
    }
    return os.str();
}

std::string
Child(const std::string& path, const std::string& key)
{
    // Keys that would make the path ambiguous or not one line are written
    // as JSON strings in brackets: jobs[0]["a.b"], topology[""].
    const bool plain = !key.empty() && std::none_of(key.begin(), key.end(), [](char c) {
        return std::strchr(".[]\": ", c) != nullptr || static_cast<unsigned char>(c) < 0x20 ||
               c == 0x7f;
    });
    if (!plain)
    {
        return path + "[" + Quote(key) + "]";
    }
    return path.empty() ? key : path + "." + key;
}

std::string
Index(const std::string& path, size_t i)
{
    return path + "[" + std::to_string(i) + "]";
}

size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

// ---------------------------------------------------------------------------
// Typed access to JSON values; every failure names the path.
// ---------------------------------------------------------------------------

[[noreturn]] void
TypeFail(const std::string& path, const std::string& expected, const json& v)
{
    Fail(path, "expected " + expected + ", got " + Describe(v));
}

/// The text of a number for messages ("got ...").
std::string
Got(const json& v)
{
    if (v.is_number_float())
    {
        return Num(v.get<double>());
    }
    return v.dump();
}

/// Check an integer against its range; integral floats are integers (5e7).
uint64_t
ToInteger(const json& v, const std::string& path, const NumberRange& range)
{
    if (!v.is_number())
    {
        TypeFail(path, "an integer", v);
    }
    const std::string got = Got(v);
    const std::string atLeast = "must be at least " + std::to_string(range.imin) + ", got " + got;
    const std::string atMost = "must be at most " + std::to_string(range.imax) + ", got " + got;
    if (v.is_number_float())
    {
        const double d = v.get<double>();
        if (!std::isfinite(d))
        {
            Fail(path, "expected an integer, got a number too large to represent");
        }
        if (d != std::floor(d))
        {
            TypeFail(path, "an integer", v);
        }
        if (d < static_cast<double>(range.imin))
        {
            Fail(path, atLeast);
        }
        // 2^64 and above do not convert; compare in double first.
        if (d >= 18446744073709551616.0 || static_cast<uint64_t>(d) > range.imax)
        {
            Fail(path, atMost);
        }
        return static_cast<uint64_t>(d);
    }
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0)
    {
        Fail(path, atLeast);
    }
    const uint64_t u = v.get<uint64_t>();
    if (u < range.imin)
    {
        Fail(path, atLeast);
    }
    if (u > range.imax)
    {
        Fail(path, atMost);
    }
    return u;
}

/// Check a real number or time against its range.
double
ToReal(const json& v, const std::string& path, const NumberRange& range)
{
    if (!v.is_number())
    {
        TypeFail(path, "a number", v);
    }
    const double d = v.get<double>();
    const std::string got = ", got " + Num(d);
    if (!std::isfinite(d))
    {
        Fail(path, "expected a finite number, got a number too large to represent");
    }
    const bool below = range.minOpen ? !(d > range.min) : !(d >= range.min);
    const bool above = d > range.max;
    if (range.interval && (below || above))
    {
        Fail(path,
             "must be in " + std::string(range.minOpen ? "(" : "[") + Num(range.min) + ", " +
                 Num(range.max) + "]" + got);
    }
    if (below)
    {
        if (range.min == 0)
        {
            Fail(path, (range.minOpen ? "must be positive" : "must not be negative") + got);
        }
        if (range.kind == NumberRange::Kind::TIME && range.min * range.nsPerUnit == 1 && d > 0)
        {
            std::ostringstream ns; // 0.000001 (ms), 0.001 (us)
            ns << std::fixed << std::setprecision(std::lround(std::log10(range.nsPerUnit)))
               << range.min;
            Fail(path, "must be positive and at least 1 ns (" + ns.str() + ")" + got);
        }
        if (d <= 0 && range.min > 0)
        {
            Fail(path, "must be positive" + got);
        }
        Fail(path, "must be at least " + Num(range.min) + got);
    }
    if (above)
    {
        Fail(path,
             "must be at most " + Num(range.max) +
                 (range.kind == NumberRange::Kind::TIME ? " (the longest simulated time, 10^15 ns)"
                                                        : std::string()) +
                 got);
    }
    return d;
}

/// The range of a numeric key of the object at path (see kNumberRanges).
const NumberRange&
RangeOf(const std::string& path, const std::string& key)
{
    // "jobs[3]" -> "jobs[]"
    std::string section;
    for (size_t i = 0; i < path.size(); ++i)
    {
        section += path[i];
        if (path[i] == '[')
        {
            i = path.find(']', i) - 1;
        }
    }
    const std::string name = section.empty() ? key : section + "." + key;
    const auto it = kNumberRanges.find(name);
    if (it == kNumberRanges.end())
    {
        throw std::logic_error("scenario key " + name + " has no entry in kNumberRanges");
    }
    return it->second;
}

bool
ToBool(const json& v, const std::string& path)
{
    if (!v.is_boolean())
    {
        TypeFail(path, "true or false", v);
    }
    return v.get<bool>();
}

std::string
ToString(const json& v, const std::string& path)
{
    if (!v.is_string())
    {
        TypeFail(path, "a string", v);
    }
    return v.get<std::string>();
}

std::string
ToOneOf(const json& v, const std::string& path, const std::vector<std::string>& known)
{
    const std::string s = ToString(v, path);
    if (std::find(known.begin(), known.end(), s) == known.end())
    {
        Fail(path, Quote(s) + " is not known (known: " + Join(known) + ")");
    }
    return s;
}

/// A host index in [0, hostCount).
uint32_t
ToHost(const json& v, const std::string& path, uint32_t hostCount)
{
    const uint64_t h = ToInteger(v, path, Int(0, kU64Max));
    if (h >= hostCount)
    {
        Fail(path,
             "host " + std::to_string(h) + " is out of range (the topology has " +
                 std::to_string(hostCount) + " hosts: 0.." + std::to_string(hostCount - 1) + ")");
    }
    return static_cast<uint32_t>(h);
}

/// An array of distinct host indices.
std::vector<uint32_t>
ToHostList(const json& v, const std::string& path, uint32_t hostCount)
{
    if (!v.is_array())
    {
        TypeFail(path, "an array of host indices", v);
    }
    std::vector<uint32_t> hosts;
    std::set<uint32_t> seen;
    for (size_t i = 0; i < v.size(); ++i)
    {
        const uint32_t h = ToHost(v[i], Index(path, i), hostCount);
        if (!seen.insert(h).second)
        {
            Fail(Index(path, i), "host " + std::to_string(h) + " is listed twice");
        }
        hosts.push_back(h);
    }
    return hosts;
}

/**
 * The keys of one JSON object: checks the object's type and that it holds
 * only known keys, then gives access to them by name.
 */
class ObjectReader
{
  public:
    /**
     * \param v the value that must be an object
     * \param path its path ("" for the root)
     * \param keys the keys it may have
     * \param otherKeys keys that belong to another variant of the object
     * \param otherNote why they are not accepted here
     */
    ObjectReader(const json& v,
                 std::string path,
                 const std::vector<std::string>& keys,
                 const std::vector<std::string>& otherKeys = {},
                 const std::string& otherNote = "")
        : m_v(v),
          m_path(std::move(path))
    {
        if (!v.is_object())
        {
            TypeFail(m_path.empty() ? "scenario" : m_path, "an object", v);
        }
        for (auto it = v.begin(); it != v.end(); ++it)
        {
            const std::string& key = it.key();
            if (std::find(keys.begin(), keys.end(), key) != keys.end())
            {
                continue;
            }
            if (std::find(otherKeys.begin(), otherKeys.end(), key) != otherKeys.end())
            {
                Fail(Path(key), "unknown key (" + otherNote + ")");
            }
            std::string best;
            size_t bestDistance = 3;
            for (const auto& k : keys)
            {
                const size_t d = EditDistance(key, k);
                if (d < bestDistance)
                {
                    best = k;
                    bestDistance = d;
                }
            }
            Fail(Path(key),
                 best.empty() ? "unknown key" : "unknown key (did you mean " + Quote(best) + "?)");
        }
    }

    /// \return whether the object has the key
    bool Has(const std::string& key) const
    {
        return m_v.contains(key);
    }

    /// \return the value of a key that is present
    const json& operator[](const std::string& key) const
    {
        return m_v.at(key);
    }

    /// \return the value of a required key
    const json& Required(const std::string& key) const
    {
        if (!Has(key))
        {
            Fail(Path(key), "required");
        }
        return m_v.at(key);
    }

    /// \return the path of a key
    std::string Path(const std::string& key) const
    {
        return Child(m_path, key);
    }

    /**
     * \param key a numeric key with a kNumberRanges entry
     * \return its value, checked (required: a missing key is an error)
     */
    uint64_t Integer(const std::string& key) const
    {
        return ToInteger(Required(key), Path(key), RangeOf(m_path, key));
    }

    /**
     * \param key a numeric key with a kNumberRanges entry
     * \return its value, checked (required: a missing key is an error)
     */
    double Number(const std::string& key) const
    {
        return ToReal(Required(key), Path(key), RangeOf(m_path, key));
    }

    /**
     * \brief Read a numeric key, checked against its kNumberRanges entry,
     * when the object has it.
     * \param key the key
     * \param out receives the value; unchanged when the key is absent
     * \return whether the object has the key
     */
    bool Read(const std::string& key, uint64_t& out) const
    {
        if (!Has(key))
        {
            return false;
        }
        out = Integer(key);
        return true;
    }

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, uint32_t& out) const
    {
        if (!Has(key))
        {
            return false;
        }
        if (RangeOf(m_path, key).imax > kU32Max)
        {
            throw std::logic_error("scenario key " + Path(key) + " is read as a uint32_t");
        }
        out = static_cast<uint32_t>(Integer(key));
        return true;
    }

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, double& out) const
    {
        if (!Has(key))
        {
            return false;
        }
        out = Number(key);
        return true;
    }

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, std::optional<double>& out) const
    {
        if (!Has(key))
        {
            return false;
        }
        out = Number(key);
        return true;
    }

    /// \return the path of the object
    const std::string& GetPath() const
    {
        return m_path;
    }

  private:
    const json& m_v;    //!< the object
    std::string m_path; //!< its path
};

// ---------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------

void
ParseTopology(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "topology", kTopologyKeys);
    auto& t = cfg.topology;
    t.kind = ToOneOf(r.Required("kind"), r.Path("kind"), kTopologyKinds);
    r.Read("leaves", t.leaves);
    r.Read("spines", t.spines); // one leaf and no spine is a single switch
    r.Read("hosts_per_leaf", t.hostsPerLeaf);
    r.Read("hosts_per_side", t.hostsPerSide);
    r.Read("hosts_per_switch", t.hostsPerSwitch);
    r.Read("switches", t.switches);
    if (t.kind == "leaf-spine" && t.spines == 0 && t.leaves > 1)
    {
        Fail(r.Path("spines"), "must be at least 1 when there are several leaves");
    }
    if (r.Read("k", t.k) && t.k % 2 != 0)
    {
        Fail(r.Path("k"), "must be even, got " + std::to_string(t.k));
    }
    r.Read("host_gbps", t.hostGbps);
    r.Read("fabric_gbps", t.fabricGbps);
    r.Read("link_delay_us", t.linkDelayUs);
    r.Read("buffer_mb", t.bufferMb);
    r.Read("route_convergence_ms", t.routeConvergenceMs);

    uint64_t hosts = 0;
    std::string key;
    if (t.kind == "leaf-spine")
    {
        hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
        key = "hosts_per_leaf";
    }
    else if (t.kind == "fat-tree")
    {
        hosts = uint64_t{t.k} * t.k * t.k / 4;
        key = "k";
    }
    else if (t.kind == "ring")
    {
        hosts = uint64_t{t.switches} * t.hostsPerSwitch;
        key = "hosts_per_switch";
    }
    else
    {
        hosts = 2 * uint64_t{t.hostsPerSide};
        key = "hosts_per_side";
    }
    if (hosts > kMaxHosts)
    {
        Fail(r.Path(key),
             "the topology would have " + std::to_string(hosts) + " hosts, more than " +
                 std::to_string(kMaxHosts));
    }
}

/**
 * The DCQCN profile with the scenario's overrides, and the ECN marking it
 * implies at the host link rate (the "ecn" object may then override it).
 */
void
ParseDcqcn(const json* v, const std::string& path, ScenarioConfig& cfg)
{
    auto& d = cfg.transport.dcqcn;
    if (v)
    {
        ObjectReader r(*v, path, kDcqcnKeys);
        if (r.Has("profile"))
        {
            std::vector<std::string> names;
            for (const auto& p : DcqcnProfile::All())
            {
                names.push_back(p.name);
            }
            d = *DcqcnProfile::Find(ToOneOf(r["profile"], r.Path("profile"), names));
        }
        r.Read("g", d.g);
        r.Read("alpha_interval_us", d.alphaIntervalUs);
        r.Read("rate_decrease_interval_us", d.decreaseIntervalUs);
        r.Read("rate_increase_interval_us", d.increaseIntervalUs);
        r.Read("cnp_interval_us", d.cnpIntervalUs);
        r.Read("min_rate_mbps", d.minRateMbps);
        // Steps given in the scenario are at the host link rate: no scaling.
        if (r.Has("ai_mbps") || r.Has("hai_mbps"))
        {
            const double scale = d.scaleSteps ? cfg.topology.hostGbps / 25.0 : 1.0;
            d.aiMbps *= scale;
            d.haiMbps *= scale;
            d.scaleSteps = false;
        }
        r.Read("ai_mbps", d.aiMbps);
        r.Read("hai_mbps", d.haiMbps);
        r.Read("byte_counter_bytes", d.byteCounter);
        r.Read("fast_recovery_stages", d.fastRecoveryStages);
        if (r.Has("clamp_target_rate"))
        {
            d.clampTargetRate = ToBool(r["clamp_target_rate"], r.Path("clamp_target_rate"));
        }
        if (r.Has("clamp_after_timer"))
        {
            d.clampAfterTimer = ToBool(r["clamp_after_timer"], r.Path("clamp_after_timer"));
        }
    }
    auto& ecn = cfg.transport.ecn;
    ecn.kminKb = d.KminKb(cfg.topology.hostGbps);
    ecn.kmaxKb = d.KmaxKb(cfg.topology.hostGbps);
    ecn.pmax = d.pmax;
}

void
ParseTransport(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "transport", kTransportKeys);
    auto& tr = cfg.transport;
    if (r.Has("mtu_bytes"))
    {
        const uint64_t mtu = r.Integer("mtu_bytes");
        if (std::find(kMtus.begin(), kMtus.end(), mtu) == kMtus.end())
        {
            Fail(r.Path("mtu_bytes"),
                 std::to_string(mtu) + " is not an allowed MTU (allowed: " + Join(kMtus) + ")");
        }
        tr.mtuBytes = static_cast<uint32_t>(mtu);
    }
    if (r.Has("cc"))
    {
        std::vector<std::string> algorithms;
        for (const auto& algorithm : RdmaCongestionControl::GetAlgorithms())
        {
            algorithms.push_back(algorithm.first);
        }
        tr.cc = ToOneOf(r["cc"], r.Path("cc"), algorithms);
        const auto& t = cfg.topology;
        if (tr.cc == "hpcc" &&
            !(IntHop::IsCodedLineRate(static_cast<uint64_t>(t.hostGbps * 1e9)) &&
              IntHop::IsCodedLineRate(static_cast<uint64_t>(t.fabricGbps * 1e9))))
        {
            Fail(r.Path("cc"),
                 "\"hpcc\" needs link rates its telemetry can code (10, 25, 40, 50, 100, 200, "
                 "400 or 800 Gb/s)");
        }
    }
    if (r.Has("pfc"))
    {
        tr.pfc = ToBool(r["pfc"], r.Path("pfc"));
    }
    ParseDcqcn(r.Has("dcqcn") ? &r["dcqcn"] : nullptr, r.Path("dcqcn"), cfg);
    r.Read("ack_timeout", tr.ackTimeout);
    r.Read("retry_cnt", tr.retryCnt);
    if (r.Has("ecn"))
    {
        ObjectReader e(r["ecn"], r.Path("ecn"), kEcnKeys);
        e.Read("kmin_kb", tr.ecn.kminKb);
        e.Read("kmax_kb", tr.ecn.kmaxKb);
        e.Read("pmax", tr.ecn.pmax);
        if (tr.ecn.kminKb > tr.ecn.kmaxKb)
        {
            // Blame the key the user wrote (kmax_kb if both were given).
            if (e.Has("kmax_kb"))
            {
                Fail(e.Path("kmax_kb"),
                     Num(tr.ecn.kmaxKb) + " is below kmin_kb " + Num(tr.ecn.kminKb));
            }
            Fail(e.Path("kmin_kb"), Num(tr.ecn.kminKb) + " is above kmax_kb " + Num(tr.ecn.kmaxKb));
        }
    }
}

/// True for a switch or host name of the topologies ("leaf0", "pod1-agg0", "host12").
bool
IsNodeName(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
}

ScenarioConfig::FaultConfig
ParseFault(const json& v, const std::string& path, const ScenarioConfig& cfg)
{
    ObjectReader r(v, path, kFaultKeys);
    ScenarioConfig::FaultConfig f;
    f.link = ToString(r.Required("link"), r.Path("link"));
    // "a<->b" (the cable, both directions), "a->b" (one direction) or "all"
    const auto cable = f.link.find("<->");
    const auto arrow = cable == std::string::npos ? f.link.find("->") : std::string::npos;
    if (f.link != "all")
    {
        const auto sep = cable != std::string::npos ? cable : arrow;
        const std::size_t len = cable != std::string::npos ? 3 : 2;
        if (sep == std::string::npos || !IsNodeName(f.link.substr(0, sep)) ||
            !IsNodeName(f.link.substr(sep + len)))
        {
            Fail(r.Path("link"),
                 Quote(f.link) + " is not a link (write \"a<->b\" for the cable between a and "
                                 "b, \"a->b\" for one direction, or \"all\")");
        }
    }
    r.Read("loss_rate", f.lossRate);
    if (r.Has("down_ms"))
    {
        if (f.link == "all" || arrow != std::string::npos)
        {
            Fail(r.Path("down_ms"), "a cable goes down as a whole: name it as \"a<->b\"");
        }
        r.Read("down_ms", f.downMs);
        if (*f.downMs >= cfg.stopMs)
        {
            Fail(r.Path("down_ms"),
                 Num(*f.downMs) + " is not before the scenario's stop_ms " + Num(cfg.stopMs));
        }
    }
    if (r.Has("up_ms"))
    {
        if (!f.downMs)
        {
            Fail(r.Path("up_ms"), "needs down_ms");
        }
        r.Read("up_ms", f.upMs);
        if (!(*f.upMs > *f.downMs))
        {
            Fail(r.Path("up_ms"),
                 "must be after down_ms " + Num(*f.downMs) + ", got " + Num(*f.upMs));
        }
    }
    if (!r.Has("loss_rate") && !r.Has("down_ms"))
    {
        Fail(path, "needs loss_rate or down_ms");
    }
    return f;
}

void
ParseTraces(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "traces", kTracesKeys);
    auto& t = cfg.traces;
    t.enabled = true;
    if (r.Read("interval_us", t.intervalUs))
    {
        if (t.intervalUs < 0.001 || t.intervalUs > cfg.stopMs * 1000)
        {
            Fail(r.Path("interval_us"),
                 "must be at least 0.001 and at most stop_ms x 1000, got " + Num(t.intervalUs));
        }
    }
    if (r.Has("rates"))
    {
        t.rates = ToBool(r["rates"], r.Path("rates"));
    }
    if (r.Has("links"))
    {
        const json& links = r["links"];
        if (!links.is_array())
        {
            TypeFail(r.Path("links"), "an array", links);
        }
        for (size_t i = 0; i < links.size(); ++i)
        {
            const std::string path = Index(r.Path("links"), i);
            const std::string link = ToString(links[i], path);
            const auto arrow = link.find("->");
            if (arrow == std::string::npos || !IsNodeName(link.substr(0, arrow)) ||
                !IsNodeName(link.substr(arrow + 2)))
            {
                Fail(path, Quote(link) + " is not a link direction (write \"a->b\")");
            }
            t.links.push_back(link);
        }
    }
}

void
ParsePfcWatchdog(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "pfc_watchdog", kPfcWatchdogKeys);
    auto& w = cfg.pfcWatchdog;
    w.enabled = r.Has("enabled") ? ToBool(r["enabled"], r.Path("enabled")) : true;
    // The model's times have nanosecond resolution; a microsecond is the
    // least that means anything.
    for (const char* key : {"detection_ms", "restoration_ms"})
    {
        double& out = std::string(key) == "detection_ms" ? w.detectionMs : w.restorationMs;
        if (r.Read(key, out) && out > cfg.stopMs)
        {
            Fail(r.Path(key), "must be at most stop_ms " + Num(cfg.stopMs) + ", got " + Num(out));
        }
    }
    if (r.Has("action"))
    {
        w.action = ToOneOf(r["action"], r.Path("action"), kPfcWatchdogActions);
    }
}

void
ParsePolicy(const json& v, ScenarioConfig& cfg)
{
    ObjectReader r(v, "scheduler", kSchedulerKeys);
    auto& sc = cfg.scheduler;
    if (r.Has("policy"))
    {
        const std::string path = r.Path("policy");
        const std::string policy = ToString(r["policy"], path);
        if (JobScheduler::GetPolicyTypeName(policy).empty())
        {
            Fail(path,
                 Quote(policy) + " is not a known policy (known: " +
                     Join(ScenarioConfig::AvailablePolicies()) + ")");
        }
        sc.policy = policy;
    }
    r.Read("classes", sc.classes);
    if (r.Has("granularity"))
    {
        sc.granularity = ToString(r["granularity"], r.Path("granularity"));
        if (std::find(kGranularities.begin(), kGranularities.end(), sc.granularity) ==
            kGranularities.end())
        {
            Fail(r.Path("granularity"),
                 Quote(sc.granularity) + " is not one of " + Join(kGranularities));
        }
    }
    r.Read("control_latency_us", sc.controlLatencyUs);
    r.Read("replan_us", sc.replanUs);
    r.Read("hysteresis_us", sc.hysteresisUs);
    r.Read("max_hold_us", sc.maxHoldUs);
    r.Read("max_wait_us", sc.maxWaitUs);
    if (r.Has("background_first"))
    {
        sc.backgroundFirst = ToBool(r["background_first"], r.Path("background_first"));
    }
    r.Read("min_share", sc.minShare);
}

/// The policy must find its classes where the background tenants leave room.
void
CheckSchedulerClasses(const ScenarioConfig& cfg)
{
    const std::string err = cfg.CreateScheduler()->AssignClasses(cfg.BackgroundClasses());
    if (!err.empty())
    {
        Fail("scheduler.classes", "policy " + Quote(cfg.scheduler.policy) + ": " + err);
    }
}

/// Attribute value types that ns3_defaults accepts (their parsing is safe).
const std::vector<std::string> kSettableTypes = {"StringValue",
                                                 "BooleanValue",
                                                 "EnumValue",
                                                 "DoubleValue",
                                                 "IntegerValue",
                                                 "UintegerValue",
                                                 "TimeValue",
                                                 "DataRateValue",
                                                 "QueueSizeValue"};

bool
IsSettableType(const std::string& type)
{
    return std::find(kSettableTypes.begin(), kSettableTypes.end(), type) != kSettableTypes.end();
}

/**
 * \param text an Order attribute of a class-ordered queue disc or arbiter
 * \return true for distinct classes 0..7 (TrafficClass::ParseOrder)
 */
bool
IsClassOrder(const std::string& text)
{
    std::vector<uint8_t> order;
    uint8_t seen = 0;
    if (!TrafficClass::ParseOrder(text, order))
    {
        return false;
    }
    for (uint8_t c : order)
    {
        if (seen & TrafficClass::Bit(c))
        {
            return false;
        }
        seen |= TrafficClass::Bit(c);
    }
    return true;
}

/// Nanoseconds per unit of an ns-3 time string ("" is seconds); 0 if unknown.
double
TimeUnitNs(const std::string& unit)
{
    static const std::map<std::string, double> units = {{"", 1e9},
                                                        {"s", 1e9},
                                                        {"ms", 1e6},
                                                        {"us", 1e3},
                                                        {"ns", 1},
                                                        {"ps", 1e-3},
                                                        {"fs", 1e-6},
                                                        {"min", 60e9},
                                                        {"h", 3600e9},
                                                        {"d", 86400e9},
                                                        {"y", 365 * 86400e9}};
    const auto it = units.find(unit);
    return it == units.end() ? 0 : it->second;
}

/**
 * \brief The leading number of a DataRate or QueueSize string, as ns-3
 * reads it (the characters "0123456789." up to the unit), and the power of
 * 1024 its unit's prefix may stand for (k/K 1, M 2, G 3).
 * \param text the value
 * \param number receives the number
 * \param scale receives 1024^prefix, times 8 when the unit counts bytes
 *        and bytesTimes8
 * \param bytesTimes8 whether a unit with "B" counts 8 per unit (rates)
 * \return false when there is no number
 */
bool
LeadingNumber(const std::string& text, double& number, double& scale, bool bytesTimes8)
{
    const auto n = text.find_first_not_of("0123456789.");
    const std::string digits = text.substr(0, n);
    if (digits.empty() || digits == ".")
    {
        return false;
    }
    number = std::strtod(digits.c_str(), nullptr);
    scale = 1;
    const std::string unit = n == std::string::npos ? "" : text.substr(n);
    if (!unit.empty())
    {
        const char prefix = unit[0];
        scale = prefix == 'k' || prefix == 'K' ? 1024.0
                : prefix == 'M'                ? 1048576.0
                : prefix == 'G'                ? 1073741824.0
                                               : 1.0;
        if (bytesTimes8 && unit.find('B') != std::string::npos)
        {
            scale *= 8;
        }
    }
    return std::isfinite(number);
}

/**
 * \brief Whether an attribute value text is one that ns-3 parses without
 * aborting or overflowing, before its checker sees it: the syntax of the
 * type, finite numbers, times within 10^15 ns (as the scenario's own
 * times), rates up to 10 Tb/s, queue sizes that fit 32 bits.
 * \param type the value type ("TimeValue", ...)
 * \param text the value
 * \return true when it is safe to hand to the checker
 */
bool
IsSafeAttributeText(const std::string& type, const std::string& text)
{
    static const std::regex integer("[+-]?[0-9]{1,18}");
    static const std::regex real("[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?");
    static const std::regex time("([+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?)"
                                 "(s|ms|us|ns|ps|fs|min|h|d|y)?");
    std::smatch m;
    if (type == "IntegerValue" || type == "UintegerValue")
    {
        return std::regex_match(text, integer);
    }
    if (type == "DoubleValue")
    {
        return std::regex_match(text, real) && std::isfinite(std::strtod(text.c_str(), nullptr));
    }
    if (type == "TimeValue")
    {
        if (!std::regex_match(text, m, time))
        {
            return false;
        }
        const double ns = std::strtod(m[1].str().c_str(), nullptr) * TimeUnitNs(m[4].str());
        return std::isfinite(ns) && std::fabs(ns) <= kMaxTimeNs;
    }
    double number = 0;
    double scale = 1;
    if (type == "DataRateValue")
    {
        return LeadingNumber(text, number, scale, true) && number * scale <= kMaxGbps * 1.1e9;
    }
    if (type == "QueueSizeValue")
    {
        return LeadingNumber(text, number, scale, false) && number * scale <= kU32Max;
    }
    return true;
}

/// String attributes whose text is parsed when an object is created: how
/// to check it first ("order": a class order, "time": an ns-3 time).
const std::map<std::string, std::string> kParsedStringAttributes = {
    {"ns3::ClassQpArbiter::Order", "order"},
    {"ns3::FluxQueueDisc::Order", "order"},
    {"ns3::FqCoDelQueueDisc::Interval", "time"},
    {"ns3::FqCoDelQueueDisc::Target", "time"},
    {"ns3::FqCobaltQueueDisc::Interval", "time"},
    {"ns3::FqCobaltQueueDisc::Target", "time"},
};

/// Global values a scenario may not set, and why.
const std::map<std::string, std::string> kFixedGlobals = {
    {"RngSeed", "is set by the scenario's \"seed\""},
    {"RngRun", "is set by the scenario's \"seed\""},
    {"SimulatorImplementationType", "is fixed by the runner (the default simulator)"},
};

/**
 * \brief Whether a value is valid for an attribute, checked without letting
 * ns-3 abort: safe text (IsSafeAttributeText), the module's parsed strings
 * (kParsedStringAttributes), then the attribute's checker.
 * \param name the attribute's full name "ns3::Type::Attribute" (or a global)
 * \param type its value type without "ns3::"
 * \param checker its checker
 * \param text the value
 * \return true when the value can be set
 */
bool
IsValidAttributeValue(const std::string& name,
                      const std::string& type,
                      const Ptr<const AttributeChecker>& checker,
                      const std::string& text)
{
    const auto parsed = kParsedStringAttributes.find(name);
    if (parsed != kParsedStringAttributes.end() &&
        !(parsed->second == "order" ? IsClassOrder(text) : IsSafeAttributeText("TimeValue", text)))
    {
        return false;
    }
    try
    {
        if (!IsSettableType(type) || !IsSafeAttributeText(type, text))
        {
            return false;
        }
        Ptr<AttributeValue> value = checker->CreateValidValue(StringValue(text));
        if (!value)
        {
            return false;
        }
        // What ns-3 made of the text must be in range too (its own parsers
        // wrap out-of-range numbers instead of refusing them).
        if (type == "DataRateValue")
        {
            const auto* rate = dynamic_cast<const DataRateValue*>(PeekPointer(value));
            return rate && rate->Get().GetBitRate() <= kMaxGbps * 1e9;
        }
        return true;
    }
    catch (const std::exception&)
    {
        return false;
    }
}

/// Factory attributes a scenario may set, with the base type they make.
const std::map<std::string, std::string> kFactoryAttributes = {
    {"ns3::FabricSwitch::QueueDiscFactory", "ns3::QueueDisc"},
    {"ns3::RdmaNic::QpArbiter", "ns3::RdmaQpArbiter"},
    {"ns3::RdmaNic::CongestionControl", "ns3::RdmaCongestionControl"},
};

/**
 * \brief Check an ObjectFactory value, "ns3::Type" or "ns3::Type[a=v|b=w]",
 * before ns-3 sees it (ns-3 aborts on an unknown type or attribute).
 * \param name the attribute's full name
 * \param text the value
 * \param path the field, for messages
 */
void
CheckFactory(const std::string& name, const std::string& text, const std::string& path)
{
    const auto base = kFactoryAttributes.find(name);
    if (base == kFactoryAttributes.end())
    {
        std::vector<std::string> names;
        for (const auto& [n, b] : kFactoryAttributes)
        {
            names.push_back(n);
        }
        Fail(path, "object factories can be set only for " + Join(names));
    }
    if (text.find_first_of(" \t\n") != std::string::npos)
    {
        Fail(path, "an object factory takes no spaces (separate list items with commas)");
    }
    const auto open = text.find('[');
    const std::string typeName = text.substr(0, open);
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeName, &tid))
    {
        Fail(path, "no ns-3 type is named " + Quote(typeName));
    }
    if (!tid.IsChildOf(TypeId::LookupByName(base->second)) || !tid.HasConstructor())
    {
        Fail(path, Quote(typeName) + " is not a " + base->second + " that can be created");
    }
    if (open == std::string::npos)
    {
        return;
    }
    if (text.back() != ']')
    {
        Fail(path, Quote(text) + " is not \"Type\" or \"Type[attribute=value|...]\"");
    }
    const std::string list = text.substr(open + 1, text.size() - open - 2);
    std::size_t start = 0;
    while (start <= list.size() && !list.empty())
    {
        const auto bar = list.find('|', start);
        const std::string item = list.substr(start, bar == std::string::npos ? bar : bar - start);
        const auto eq = item.find('=');
        if (eq == std::string::npos)
        {
            Fail(path, Quote(item) + " is not attribute=value");
        }
        const std::string attr = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(attr, &info))
        {
            Fail(path, typeName + " has no attribute " + Quote(attr));
        }
        std::string type = info.checker->GetValueTypeName();
        if (type.rfind("ns3::", 0) == 0)
        {
            type = type.substr(5);
        }
        if (attr == "Order" && !IsClassOrder(value))
        {
            Fail(path,
                 Quote(value) + " is not a class order (distinct classes 0..7 separated by "
                                "commas, e.g. 3,2,1)");
        }
        if (!IsValidAttributeValue(typeName + "::" + attr, type, info.checker, value))
        {
            Fail(path, Quote(value) + " is not a valid value of " + typeName + "::" + attr);
        }
        if (bar == std::string::npos)
        {
            break;
        }
        start = bar + 1;
    }
}

void
ParseNs3Defaults(const json& v, ScenarioConfig& cfg)
{
    const std::string base = "ns3_defaults";
    if (!v.is_object())
    {
        TypeFail(base, "an object", v);
    }
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& name = it.key();
        const std::string path = base + "[" + Quote(name) + "]";
        const json& value = it.value();
        std::string text;
        if (value.is_string())
        {
            text = value.get<std::string>();
        }
        else if (value.is_boolean())
        {
            text = value.get<bool>() ? "true" : "false";
        }
        else if (value.is_number())
        {
            text = value.dump();
        }
        else
        {
            TypeFail(path, "a string, a number or true/false", value);
        }

        Ptr<const AttributeChecker> checker;
        const auto sep = name.rfind("::");
        if (sep == std::string::npos)
        {
            const auto fixed = kFixedGlobals.find(name);
            if (fixed != kFixedGlobals.end())
            {
                Fail(path, fixed->second);
            }
            for (auto g = GlobalValue::Begin(); g != GlobalValue::End(); ++g)
            {
                if ((*g)->GetName() == name)
                {
                    checker = (*g)->GetChecker();
                }
            }
            if (!checker)
            {
                Fail(path,
                     "no ns-3 global value has this name (attributes are "
                     "written \"ns3::TypeName::Attribute\")");
            }
        }
        else
        {
            const std::string typeName = name.substr(0, sep);
            const std::string attrName = name.substr(sep + 2);
            TypeId tid;
            if (!TypeId::LookupByNameFailSafe(typeName, &tid))
            {
                Fail(path, "no ns-3 type is named " + Quote(typeName));
            }
            TypeId::AttributeInformation info;
            if (!tid.LookupAttributeByName(attrName, &info))
            {
                Fail(path, typeName + " has no attribute " + Quote(attrName));
            }
            if (!(info.flags & TypeId::ATTR_CONSTRUCT))
            {
                Fail(path, "the attribute cannot be set at construction");
            }
            checker = info.checker;
        }
        std::string type = checker->GetValueTypeName();
        if (type.rfind("ns3::", 0) == 0)
        {
            type = type.substr(5);
        }
        if (type == "ObjectFactoryValue")
        {
            CheckFactory(name, text, path);
            cfg.ns3Defaults[name] = text;
            continue;
        }
        if (!IsSettableType(type))
        {
            Fail(path, "attributes of type " + type + " cannot be set from a scenario");
        }
        if (name == "ns3::PfcWatchdog::Action" && !PfcWatchdog::IsActionName(text))
        {
            Fail(path, Quote(text) + " is not known (known: " + Join(kPfcWatchdogActions) + ")");
        }
        // ns-3 aborts the process on some malformed numbers and times:
        // IsValidAttributeValue checks them before ns-3 parses them.
        if (!IsValidAttributeValue(name, type, checker, text))
        {
            Fail(path,
                 Quote(text) + " is not a valid value (expected " + type +
                     (checker->HasUnderlyingTypeInformation()
                          ? ": " + checker->GetUnderlyingTypeInformation()
                          : std::string()) +
                     ")");
        }
        cfg.ns3Defaults[name] = text;
    }
}

/// Check a job / tenant name and record it; names are unique across both.
std::string
ParseName(const ObjectReader& r, std::map<std::string, std::string>& owners)
{
    const std::string path = r.Path("name");
    const std::string name = ToString(r.Required("name"), path);
    if (name.empty())
    {
        Fail(path, "must not be empty");
    }
    for (char c : name)
    {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'))
        {
            Fail(path, Quote(name) + " may contain only letters, digits, '-', '_' and '.'");
        }
    }
    auto it = owners.find(name);
    if (it != owners.end())
    {
        Fail(path, Quote(name) + " is already used by " + it->second);
    }
    owners[name] = r.GetPath();
    return name;
}

double
ParseStart(const ObjectReader& r, const ScenarioConfig& cfg)
{
    if (!r.Has("start_ms"))
    {
        return 0;
    }
    const double start = r.Number("start_ms");
    if (start >= cfg.stopMs)
    {
        Fail(r.Path("start_ms"), Num(start) + " is not before stop_ms " + Num(cfg.stopMs));
    }
    return start;
}

uint32_t
ParsePriority(const ObjectReader& r)
{
    uint32_t priority = 3;
    r.Read("priority", priority);
    return priority;
}

ScenarioConfig::JobConfig
ParseJob(const json& v,
         const std::string& path,
         const ScenarioConfig& cfg,
         std::map<std::string, std::string>& owners)
{
    ObjectReader r(v, path, kJobKeys);
    ScenarioConfig::JobConfig job;
    const uint32_t hostCount = cfg.HostCount();
    job.name = ParseName(r, owners);

    job.ranks = static_cast<uint32_t>(r.Integer("ranks"));
    if (job.ranks > hostCount)
    {
        Fail(r.Path("ranks"),
             std::to_string(job.ranks) + " ranks but the topology has " +
                 std::to_string(hostCount) + " hosts");
    }
    if (r.Has("hosts") && r.Has("placement"))
    {
        Fail(r.Path("placement"), "give either \"hosts\" or \"placement\", not both");
    }
    if (r.Has("hosts"))
    {
        job.hosts = ToHostList(r["hosts"], r.Path("hosts"), hostCount);
        if (job.hosts.size() != job.ranks)
        {
            Fail(r.Path("hosts"),
                 std::to_string(job.hosts.size()) + " hosts listed but ranks is " +
                     std::to_string(job.ranks));
        }
        job.placement = "explicit";
    }
    else if (r.Has("placement"))
    {
        job.placement = ToOneOf(r["placement"], r.Path("placement"), kPlacements);
    }
    if (r.Has("collective"))
    {
        job.collective = ToOneOf(r["collective"], r.Path("collective"), kCollectives);
    }
    job.bytes = r.Integer("bytes");
    if (job.bytes < job.ranks)
    {
        Fail(r.Path("bytes"),
             std::to_string(job.bytes) + " bytes cannot be split among " +
                 std::to_string(job.ranks) + " ranks");
    }
    r.Read("compute_ms", job.computeMs);
    job.iterations = static_cast<uint32_t>(r.Integer("iterations"));
    job.startMs = ParseStart(r, cfg);
    r.Read("chunk_bytes", job.chunkBytes);
    if (r.Read("buckets", job.buckets))
    {
        if (uint64_t{job.buckets} * job.ranks > job.bytes)
        {
            Fail(r.Path("buckets"),
                 std::to_string(job.buckets) + " buckets of " + std::to_string(job.ranks) +
                     " ranks need at least " + std::to_string(uint64_t{job.buckets} * job.ranks) +
                     " bytes, bytes is " + std::to_string(job.bytes));
        }
    }
    // Each rank sends 2 (N - 1) / N of the gradient per iteration: what the
    // job moves must fit the byte counters.
    const double moved = 2.0 * static_cast<double>(job.bytes) * (job.ranks - 1) * job.iterations;
    if (moved > static_cast<double>(kMaxTotalBytes))
    {
        Fail(r.Path("bytes"),
             "the job would move 2 x bytes x (ranks - 1) x iterations = " + Num(moved) +
                 " bytes, more than 2^63 - 1");
    }
    if (job.chunkBytes > 0)
    {
        // Every piece of a ring step is posted at once (RingAllreduce).
        const uint64_t bucketBytes = job.bytes / job.buckets + job.bytes % job.buckets;
        const uint64_t chunk = std::max<uint64_t>(1, bucketBytes / job.ranks);
        const uint64_t pieces = chunk / job.chunkBytes + (chunk % job.chunkBytes ? 1 : 0);
        if (pieces > kMaxPiecesPerStep)
        {
            const uint64_t least = chunk / kMaxPiecesPerStep + (chunk % kMaxPiecesPerStep ? 1 : 0);
            Fail(r.Path("chunk_bytes"),
                 std::to_string(job.chunkBytes) + " would split a ring step of " +
                     std::to_string(chunk) + " bytes into " + std::to_string(pieces) +
                     " pieces, more than " + std::to_string(kMaxPiecesPerStep) + " (use at least " +
                     std::to_string(least) + ")");
        }
    }
    job.priority = ParsePriority(r);
    return job;
}

/// Give every job with a placement strategy its hosts (see ResolvePlacement).
void
PlaceJobs(ScenarioConfig& cfg)
{
    const uint32_t hostCount = cfg.HostCount();
    std::vector<bool> taken(hostCount, false);
    for (const auto& job : cfg.jobs)
    {
        if (job.placement == "explicit")
        {
            for (uint32_t h : job.hosts)
            {
                taken[h] = true;
            }
        }
    }
    for (size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        auto& job = cfg.jobs[i];
        if (job.placement == "explicit")
        {
            continue;
        }
        const auto free = static_cast<uint32_t>(std::count(taken.begin(), taken.end(), false));
        if (free < job.ranks)
        {
            Fail(Index("jobs", i) + ".ranks",
                 std::to_string(job.ranks) + " ranks but only " + std::to_string(free) + " of " +
                     std::to_string(hostCount) +
                     " hosts are free (hosts listed by jobs or placed for earlier jobs are taken)");
        }
        job.hosts = ResolvePlacement(job, hostCount, cfg.seed, cfg.HostsPerLeaf(), taken);
        for (uint32_t h : job.hosts)
        {
            taken[h] = true;
        }
    }
}

ScenarioConfig::BackgroundConfig
ParseBackground(const json& v,
                const std::string& path,
                const ScenarioConfig& cfg,
                std::map<std::string, std::string>& owners)
{
    using Bg = ScenarioConfig::BackgroundConfig;
    if (!v.is_object())
    {
        TypeFail(path, "an object", v);
    }
    const bool isCdf = v.contains("cdf");
    const bool isPattern = v.contains("pattern");
    if (isCdf && isPattern)
    {
        Fail(Child(path, "pattern"), "give either \"cdf\" or \"pattern\", not both");
    }
    if (!isCdf && !isPattern)
    {
        Fail(path, "needs \"cdf\" (Poisson flows with sizes from a CDF) or \"pattern\"");
    }
    std::vector<std::string> keys = kBackgroundCommonKeys;
    const auto& own = isCdf ? kBackgroundCdfKeys : kBackgroundPatternKeys;
    const auto& other = isCdf ? kBackgroundPatternKeys : kBackgroundCdfKeys;
    keys.insert(keys.end(), own.begin(), own.end());
    ObjectReader r(v,
                   path,
                   keys,
                   other,
                   isCdf ? "only \"pattern\" entries have it" : "only \"cdf\" entries have it");

    const uint32_t hostCount = cfg.HostCount();
    Bg bg;
    bg.kind = isCdf ? Bg::Kind::CDF : Bg::Kind::PATTERN;
    bg.name = ParseName(r, owners);
    bg.priority = ParsePriority(r);
    bg.startMs = ParseStart(r, cfg);

    if (isCdf)
    {
        const std::string cdfPath = r.Path("cdf");
        bg.cdf = ToString(r["cdf"], cdfPath);
        if (bg.cdf.find('\0') != std::string::npos)
        {
            Fail(cdfPath, "a file name cannot hold a NUL character");
        }
        if (FlowSizeCdf::IsBuiltin(bg.cdf))
        {
            bg.flowSizes = FlowSizeCdf::Builtin(bg.cdf);
        }
        else
        {
            namespace fs = std::filesystem;
            fs::path file(bg.cdf);
            if (file.is_relative())
            {
                file = fs::path(cfg.baseDir) / file;
            }
            bg.cdfPath = file.lexically_normal().string();
            std::error_code ec;
            std::ifstream probe(bg.cdfPath);
            if (bg.cdf.empty() || !probe || fs::is_directory(bg.cdfPath, ec))
            {
                Fail(cdfPath,
                     Quote(bg.cdf) + " is neither a builtin CDF (" +
                         Join(FlowSizeCdf::BuiltinNames()) + ") nor a readable file (" +
                         bg.cdfPath + ")");
            }
            // Only regular files of a sane size: a device (/dev/zero) or a
            // pipe would be read forever.
            if (!fs::is_regular_file(bg.cdfPath, ec))
            {
                Fail(cdfPath, bg.cdfPath + " is not a regular file");
            }
            const auto size = fs::file_size(bg.cdfPath, ec);
            if (!ec && size > kMaxCdfFileBytes)
            {
                Fail(cdfPath,
                     bg.cdfPath + " has " + std::to_string(size) + " bytes, more than " +
                         std::to_string(kMaxCdfFileBytes) + " (a CDF file is a short table)");
            }
            try
            {
                bg.flowSizes = FlowSizeCdf::LoadFile(bg.cdfPath);
            }
            catch (const std::runtime_error& e)
            {
                Fail(cdfPath, e.what());
            }
        }
        bg.load = r.Number("load");
        if (r.Has("hosts"))
        {
            bg.hosts = ToHostList(r["hosts"], r.Path("hosts"), hostCount);
            if (bg.hosts.size() < 2)
            {
                Fail(r.Path("hosts"),
                     "needs at least 2 hosts, got " + std::to_string(bg.hosts.size()));
            }
        }
        else
        {
            if (hostCount < 2)
            {
                Fail(r.Path("hosts"),
                     "needs at least 2 hosts, the topology has " + std::to_string(hostCount));
            }
            for (uint32_t h = 0; h < hostCount; ++h)
            {
                bg.hosts.push_back(h);
            }
        }
        if (r.Has("stop_ms"))
        {
            const double stop = r.Number("stop_ms");
            if (!(stop > bg.startMs))
            {
                Fail(r.Path("stop_ms"), Num(stop) + " is not after start_ms " + Num(bg.startMs));
            }
            bg.stopMs = stop;
        }
    }
    else
    {
        bg.pattern = ToOneOf(r["pattern"], r.Path("pattern"), kPatterns);
        bg.receiver = ToHost(r.Required("receiver"), r.Path("receiver"), hostCount);
        bg.senders = ToHostList(r.Required("senders"), r.Path("senders"), hostCount);
        if (bg.senders.empty())
        {
            Fail(r.Path("senders"), "needs at least 1 host");
        }
        for (size_t i = 0; i < bg.senders.size(); ++i)
        {
            if (bg.senders[i] == bg.receiver)
            {
                Fail(Index(r.Path("senders"), i),
                     "host " + std::to_string(bg.receiver) + " is the receiver");
            }
        }
        bg.bytes = r.Integer("bytes");
        r.Read("repeat", bg.repeat);
        const double moved = static_cast<double>(bg.bytes) * bg.senders.size() * bg.repeat;
        if (moved > static_cast<double>(kMaxTotalBytes))
        {
            Fail(r.Path("bytes"),
                 "the pattern would send bytes x senders x repeat = " + Num(moved) +
                     " bytes, more than 2^63 - 1");
        }
        if (!r.Read("interval_ms", bg.intervalMs) && bg.repeat > 1)
        {
            Fail(r.Path("interval_ms"), "required when repeat > 1");
        }
    }
    return bg;
}

// ---------------------------------------------------------------------------
// Random placement: a small generator whose output is the same everywhere.
// ---------------------------------------------------------------------------

uint64_t
SplitMix64(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Uniform integer in [0, n), n > 0, without modulo bias.
uint64_t
UniformBelow(uint64_t& state, uint64_t n)
{
    const uint64_t threshold = (0 - n) % n; // 2^64 mod n
    uint64_t r;
    do
    {
        r = SplitMix64(state);
    } while (r < threshold);
    return r % n;
}

uint64_t
Fnv1a(const std::string& s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s)
    {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

} // namespace

// ---------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------

uint32_t
ScenarioConfig::HostCount() const
{
    const auto& t = topology;
    uint64_t hosts = 0;
    if (t.kind == "leaf-spine")
    {
        hosts = uint64_t{t.leaves} * t.hostsPerLeaf;
    }
    else if (t.kind == "fat-tree")
    {
        hosts = uint64_t{t.k} * t.k * t.k / 4;
    }
    else if (t.kind == "dumbbell")
    {
        hosts = 2 * uint64_t{t.hostsPerSide};
    }
    else if (t.kind == "ring")
    {
        hosts = uint64_t{t.switches} * t.hostsPerSwitch;
    }
    return static_cast<uint32_t>(std::min<uint64_t>(hosts, kU32Max));
}

uint32_t
ScenarioConfig::HostsPerLeaf() const
{
    const auto& t = topology;
    if (t.kind == "leaf-spine")
    {
        return t.hostsPerLeaf;
    }
    if (t.kind == "fat-tree")
    {
        return t.k / 2;
    }
    if (t.kind == "dumbbell")
    {
        return t.hostsPerSide;
    }
    if (t.kind == "ring")
    {
        return t.hostsPerSwitch;
    }
    return 0;
}

uint8_t
ScenarioConfig::BackgroundClasses() const
{
    uint8_t mask = 0;
    for (const auto& b : background)
    {
        mask |= TrafficClass::Bit(static_cast<uint8_t>(b.priority));
    }
    return mask;
}

std::string
ScenarioConfig::EventSchedulerTypeName(const std::string& name)
{
    for (const auto& [value, type] : kEventSchedulers)
    {
        if (value == name)
        {
            return type;
        }
    }
    return "";
}

std::vector<std::string>
ScenarioConfig::AvailableEventSchedulers()
{
    std::vector<std::string> names;
    for (const auto& entry : kEventSchedulers)
    {
        names.push_back(entry.first);
    }
    return names;
}

Ptr<JobScheduler>
ScenarioConfig::CreateScheduler() const
{
    const auto& sc = scheduler;
    ObjectFactory factory;
    factory.SetTypeId(JobScheduler::GetPolicyTypeName(sc.policy));
    auto us = [](double v) { return TimeValue(NanoSeconds(static_cast<int64_t>(v * 1e3))); };
    const std::vector<std::pair<std::string, Ptr<AttributeValue>>> values = {
        {"Classes", Create<UintegerValue>(sc.classes)},
        {"BackgroundFirst", Create<BooleanValue>(sc.backgroundFirst)},
        {"ControlLatency", us(sc.controlLatencyUs).Copy()},
        {"ReplanInterval", us(sc.replanUs).Copy()},
        {"Hysteresis", us(sc.hysteresisUs).Copy()},
        {"MaxHold", us(sc.maxHoldUs).Copy()},
        {"PerChunk", Create<BooleanValue>(sc.granularity == "chunk")},
        {"MinShare", Create<DoubleValue>(sc.minShare)},
        {"MaxWait", us(sc.maxWaitUs).Copy()},
    };
    // each policy takes the keys it has attributes for
    const TypeId tid = factory.GetTypeId();
    TypeId::AttributeInformation info;
    for (const auto& [name, value] : values)
    {
        if (tid.LookupAttributeByName(name, &info))
        {
            factory.Set(name, *value);
        }
    }
    return factory.Create<JobScheduler>();
}

std::vector<std::string>
ScenarioConfig::AvailablePolicies()
{
    std::vector<std::string> names;
    for (const auto& entry : JobScheduler::GetPolicies())
    {
        names.push_back(entry.first);
    }
    return names;
}

nlohmann::json
ParseScenarioText(const std::string& text, const std::string& source)
{
    // Objects and arrays being parsed, to name the path of a duplicate key.
    struct Frame
    {
        bool array;                 //!< array (else object)
        size_t index;               //!< array: index of the current element
        std::string key;            //!< object: the current key
        std::set<std::string> keys; //!< object: keys seen so far
    };

    std::vector<Frame> stack;
    auto pathOf = [&stack]() {
        std::string p;
        for (const auto& f : stack)
        {
            if (f.array)
            {
                p += "[" + std::to_string(f.index) + "]";
            }
            else
            {
                p = Child(p, f.key);
            }
        }
        return p;
    };
    auto valueDone = [&stack]() {
        if (!stack.empty() && stack.back().array)
        {
            ++stack.back().index;
        }
    };
    json::parser_callback_t callback =
        [&](int /* depth */, json::parse_event_t event, json& parsed) -> bool {
        switch (event)
        {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (stack.size() >= kMaxNesting)
            {
                const std::string path = pathOf();
                Fail(path.empty() ? source : path,
                     "nested too deeply (more than " + std::to_string(kMaxNesting) +
                         " levels of objects and arrays)");
            }
            stack.push_back(Frame{event == json::parse_event_t::array_start, 0, "", {}});
            break;
        case json::parse_event_t::key: {
            auto& top = stack.back();
            top.key = parsed.get<std::string>();
            if (!top.keys.insert(top.key).second)
            {
                Fail(pathOf(), "duplicate key");
            }
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            stack.pop_back();
            valueDone();
            break;
        case json::parse_event_t::value:
            valueDone();
            break;
        }
        return true;
    };

    const auto nul = text.find('\0');
    if (nul != std::string::npos)
    {
        Fail(source, "a NUL byte at byte " + std::to_string(nul) + ": the file is not JSON text");
    }
    try
    {
        return json::parse(text, callback, true, false);
    }
    catch (const json::parse_error& e)
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: <detail>"
        static const std::regex pattern("parse error at line ([0-9]+), column ([0-9]+): (.*)");
        std::smatch m;
        const std::string what = e.what();
        if (std::regex_search(what, m, pattern))
        {
            Fail(source, "line " + m[1].str() + ", column " + m[2].str() + ": " + m[3].str());
        }
        Fail(source, "invalid JSON at byte " + std::to_string(e.byte) + ": " + what);
    }
    catch (const json::out_of_range& e)
    {
        // A number beyond the range of double (1e400): name the key it is for.
        const std::string path = pathOf();
        static const std::regex pattern("number overflow parsing '(.*)'");
        std::smatch m;
        const std::string what = e.what();
        Fail(path.empty() ? source : path,
             std::regex_search(what, m, pattern)
                 ? "the number " + m[1].str().substr(0, 40) + " is too large to represent"
                 : what);
    }
    catch (const json::exception& e)
    {
        Fail(source, e.what());
    }
}

nlohmann::json
ReadScenarioJson(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        Fail(path, "cannot read the file (it is a folder)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path, std::string("cannot read the file (") + std::strerror(errno) + ")");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        Fail(path, "cannot read the file");
    }
    return ParseScenarioText(text.str(), path);
}

ScenarioConfig
ParseScenario(const nlohmann::json& scenario, const std::string& baseDir)
{
    ScenarioConfig cfg;
    cfg.baseDir = baseDir.empty() ? "." : baseDir;
    ObjectReader r(scenario, "", kRootKeys);

    if (r.Has("description"))
    {
        cfg.description = ToString(r["description"], "description");
    }
    r.Read("seed", cfg.seed);
    r.Read("stop_ms", cfg.stopMs);
    if (r.Read("stall_ms", cfg.stallMs) && cfg.stallMs > cfg.stopMs)
    {
        Fail("stall_ms",
             "must be at most stop_ms " + Num(cfg.stopMs) + ", got " + Num(cfg.stallMs));
    }
    ParseTopology(r.Required("topology"), cfg);
    // Parsed also when absent: the DCQCN profile sets the marking defaults.
    ParseTransport(r.Has("transport") ? r["transport"] : json::object(), cfg);
    if (r.Has("scheduler"))
    {
        ParsePolicy(r["scheduler"], cfg);
    }
    if (r.Has("ns3_defaults"))
    {
        ParseNs3Defaults(r["ns3_defaults"], cfg);
    }
    if (r.Has("traces"))
    {
        ParseTraces(r["traces"], cfg);
    }
    if (r.Has("pfc_watchdog"))
    {
        ParsePfcWatchdog(r["pfc_watchdog"], cfg);
    }
    if (r.Has("event_scheduler"))
    {
        cfg.eventScheduler = ToOneOf(r["event_scheduler"],
                                     "event_scheduler",
                                     ScenarioConfig::AvailableEventSchedulers());
    }
    if (r.Has("faults"))
    {
        const json& faults = r["faults"];
        if (!faults.is_array())
        {
            TypeFail("faults", "an array", faults);
        }
        for (size_t i = 0; i < faults.size(); ++i)
        {
            cfg.faults.push_back(ParseFault(faults[i], Index("faults", i), cfg));
        }
    }

    std::map<std::string, std::string> owners; // name -> "jobs[i]" / "background[i]"
    if (r.Has("jobs"))
    {
        const json& jobs = r["jobs"];
        if (!jobs.is_array())
        {
            TypeFail("jobs", "an array", jobs);
        }
        for (size_t i = 0; i < jobs.size(); ++i)
        {
            cfg.jobs.push_back(ParseJob(jobs[i], Index("jobs", i), cfg, owners));
        }
        PlaceJobs(cfg);
    }
    if (r.Has("background"))
    {
        const json& background = r["background"];
        if (!background.is_array())
        {
            TypeFail("background", "an array", background);
        }
        for (size_t i = 0; i < background.size(); ++i)
        {
            cfg.background.push_back(
                ParseBackground(background[i], Index("background", i), cfg, owners));
        }
    }
    CheckSchedulerClasses(cfg);
    if (cfg.jobs.empty() && cfg.background.empty())
    {
        Fail("jobs",
             r.Has("jobs") || r.Has("background")
                 ? "the scenario needs at least one job or one background entry"
                 : "required (the scenario needs at least one job or one background "
                   "entry)");
    }
    return cfg;
}

ScenarioConfig
LoadScenarioFile(const std::string& path)
{
    const json scenario = ReadScenarioJson(path);
    std::string dir = std::filesystem::path(path).parent_path().string();
    return ParseScenario(scenario, dir.empty() ? "." : dir);
}

std::vector<uint32_t>
ResolvePlacement(const ScenarioConfig::JobConfig& job,
                 uint32_t hostCount,
                 uint32_t seed,
                 uint32_t hostsPerLeaf,
                 const std::vector<bool>& taken)
{
    if (job.placement == "explicit")
    {
        return job.hosts;
    }
    std::vector<uint32_t> free;
    for (uint32_t h = 0; h < hostCount; ++h)
    {
        if (h >= taken.size() || !taken[h])
        {
            free.push_back(h);
        }
    }
    if (free.size() < job.ranks)
    {
        Fail("placement",
             "job " + Quote(job.name) + ": " + std::to_string(job.ranks) + " ranks but only " +
                 std::to_string(free.size()) + " of " + std::to_string(hostCount) +
                 " hosts are free");
    }

    std::vector<uint32_t> hosts;
    if (job.placement == "packed")
    {
        hosts.assign(free.begin(), free.begin() + job.ranks);
    }
    else if (job.placement == "spread")
    {
        const uint32_t perLeaf = hostsPerLeaf == 0 ? std::max(hostCount, 1u) : hostsPerLeaf;
        const uint32_t leaves = (hostCount + perLeaf - 1) / perLeaf;
        std::vector<std::vector<uint32_t>> byLeaf(leaves);
        for (uint32_t h : free)
        {
            byLeaf[h / perLeaf].push_back(h);
        }
        for (size_t round = 0; hosts.size() < job.ranks; ++round)
        {
            for (const auto& leafHosts : byLeaf)
            {
                if (round < leafHosts.size() && hosts.size() < job.ranks)
                {
                    hosts.push_back(leafHosts[round]);
                }
            }
        }
    }
    else if (job.placement == "random")
    {
        uint64_t state = Fnv1a(job.name) ^ (uint64_t{seed} * 0xd1342543de82ef95ULL);
        // Partial Fisher-Yates shuffle: the first ranks entries are a uniform
        // random ordered subset.
        for (uint32_t i = 0; i < job.ranks; ++i)
        {
            const uint64_t j = i + UniformBelow(state, free.size() - i);
            std::swap(free[i], free[j]);
        }
        hosts.assign(free.begin(), free.begin() + job.ranks);
    }
    else
    {
        Fail("placement",
             "job " + Quote(job.name) + ": " + Quote(job.placement) +
                 " is not known (known: " + Join(kPlacements) + ")");
    }
    return hosts;
}

} // namespace ns3
