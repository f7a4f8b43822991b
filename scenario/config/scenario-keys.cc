/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"

#include "ns3/log.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioKeys");

namespace scenario
{

// ---------------------------------------------------------------------------
// The names each key accepts. One place per list: adding a value is one line.
// ---------------------------------------------------------------------------

const std::vector<std::string> kTopologyKinds =
    {"leaf-spine", "rail-optimized", "fat-tree", "dumbbell", "ring", "links"};
const std::vector<uint64_t> kMtus = {256, 512, 1024, 2048, 4096};
const std::vector<std::string> kPlacements = {"packed", "spread", "random"};
const std::vector<std::string> kCollectives =
    {"ring-allreduce", "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast"};
const std::vector<std::string> kPatterns = {"incast", "flows"};

const std::vector<std::string> kRootKeys = {"description",
                                            "seed",
                                            "seeds",
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
                                            "event_scheduler",
                                            "completion_latency_us",
                                            "hpcc_fct",
                                            "hpcc"};
const std::vector<std::string> kTopologyKeys = {"kind",
                                                "leaves",
                                                "spines",
                                                "hosts_per_leaf",
                                                "k",
                                                "hosts_per_side",
                                                "switches",
                                                "hosts_per_switch",
                                                "rail_groups",
                                                "servers_per_rail_group",
                                                "servers",
                                                "host_gbps",
                                                "fabric_gbps",
                                                "link_delay_us",
                                                "buffer_mb",
                                                "route_convergence_ms",
                                                "nodes",
                                                "switch_nodes",
                                                "links"};
const std::vector<std::string> kLinkKeys = {"a", "b", "gbps", "delay_us"};
const std::vector<std::string> kServersKeys = {"gpus", "nics", "nvlink_gbps", "nvlink_latency_us"};
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
                                             "cnp_interval_us",
                                             "window_bdp",
                                             "variable_window"};
const std::vector<std::string> kFaultKeys = {"link", "loss_rate", "down_ms", "up_ms"};
const std::vector<std::string> kTracesKeys = {"interval_us", "rates", "links"};
const std::vector<std::string> kPfcWatchdogKeys = {"enabled",
                                                   "detection_ms",
                                                   "restoration_ms",
                                                   "action"};
const std::vector<std::string> kSeedsKeys = {"ecmp", "background", "placement"};
const std::vector<std::string> kPfcWatchdogActions = {"drop", "forward"};
const std::vector<std::string> kEcnKeys = {"kmin_kb", "kmax_kb", "pmax", "per_rate"};
const std::vector<std::string> kEcnRateKeys = {"gbps", "kmin_kb", "kmax_kb", "pmax"};
const std::vector<std::string> kGranularities = {"step", "chunk"};
const std::vector<std::string> kJobKeys = {"name",
                                           "ranks",
                                           "hosts",
                                           "gpus",
                                           "placement",
                                           "collective",
                                           "bytes",
                                           "compute_ms",
                                           "iterations",
                                           "start_ms",
                                           "chunk_bytes",
                                           "buckets",
                                           "priority",
                                           "workload",
                                           "algorithm",
                                           "channels"};
const std::vector<std::string> kJobWorkloadKeys = {"chakra", "aicb", "comm_groups", "bytes_scale"};
const std::vector<std::string> kBackgroundCommonKeys = {"name", "priority", "start_ms"};
const std::vector<std::string> kBackgroundCdfKeys = {"cdf", "load", "hosts", "stop_ms"};
const std::vector<std::string> kBackgroundPatternKeys =
    {"pattern", "senders", "receiver", "bytes", "repeat", "interval_ms", "flows"};
const std::vector<std::string> kFlowKeys = {"src", "dst", "bytes", "start_ms", "dport"};

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

namespace
{

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

// ---------------------------------------------------------------------------
// What each numeric key accepts: the one place where the bounds live. The
// section parsers read numbers only through ObjectReader's Integer, Number
// and Read, which look the key up here ("<section>.<key>", array indices
// written "[]": "jobs[].bytes") and check type, finiteness and range.
// A new numeric key needs one line here.
// ---------------------------------------------------------------------------

const std::map<std::string, NumberRange> kNumberRanges = {
    {"seed", Int(1, kMaxSeed)},
    {"seeds.ecmp", Int(1, kMaxSeed)},
    {"seeds.background", Int(1, kMaxSeed)},
    {"seeds.placement", Int(1, kMaxSeed)},
    {"stop_ms", Ms(kPositive)},
    {"stall_ms", Ms()},
    {"completion_latency_us", Us(false, 1e6)},
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
    {"topology.rail_groups", Int(1, kMaxDimension)},
    {"topology.servers_per_rail_group", Int(1, kMaxDimension)},
    {"topology.servers.gpus", Int(1, kMaxDimension)},
    {"topology.servers.nics", Int(1, kMaxDimension)},
    {"topology.servers.nvlink_gbps", Gbps()},
    {"topology.servers.nvlink_latency_us", Us()},
    {"topology.route_convergence_ms", Ms()},
    {"topology.k", Int(2, 254)},
    {"topology.host_gbps", Gbps()},
    {"topology.fabric_gbps", Gbps()},
    {"topology.link_delay_us", Us()},
    {"topology.buffer_mb", Positive(1e6)},
    {"topology.nodes", Int(2, kMaxHosts + kMaxDimension)},
    {"topology.links[].a", Int(0, kU32Max)},
    {"topology.links[].b", Int(0, kU32Max)},
    {"topology.links[].gbps", Gbps()},
    {"topology.links[].delay_us", Us()},
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
    {"transport.dcqcn.window_bdp", Real(0, 1000)},
    {"transport.ecn.kmin_kb", Real(0, 4e6)},
    {"transport.ecn.kmax_kb", Positive(4e6)},
    {"transport.ecn.pmax", Interval(0, 1, true)},
    {"transport.ecn.per_rate[].gbps", Gbps()},
    {"transport.ecn.per_rate[].kmin_kb", Real(0, 4e6)},
    {"transport.ecn.per_rate[].kmax_kb", Positive(4e6)},
    {"transport.ecn.per_rate[].pmax", Interval(0, 1, true)},
    // Scheduler keys take their ranges from their attributes' checkers; an
    // entry here narrows one (the documented bounds of these keys).
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
    {"jobs[].channels", Int(1, 64)},
    {"jobs[].workload.bytes_scale", Interval(1e-9, 1)},
    {"background[].priority", Int(0, kMaxPriority)},
    {"background[].start_ms", Ms()},
    {"background[].load", Interval(0, 1, true)},
    {"background[].stop_ms", Ms()},
    {"background[].bytes", Int(1, kMaxTotalBytes)},
    {"background[].repeat", Int(1, kU32Max)},
    {"background[].interval_ms", Ms(kPositive)},
    {"background[].flows[].bytes", Int(1, kMaxTotalBytes)},
    {"background[].flows[].start_ms", Ms()},
    {"background[].flows[].dport", Int(0, 65535)},
};

} // namespace

const NumberRange*
FindRange(const std::string& name)
{
    const auto it = kNumberRanges.find(name);
    return it == kNumberRanges.end() ? nullptr : &it->second;
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

} // namespace scenario
} // namespace ns3
