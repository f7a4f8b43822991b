/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_KEYS_H
#define SCENARIO_KEYS_H

#include "ns3/traffic-class.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

/*
 * The scenario schema: every key, its type, range and default. Scenario file
 * keys (JSON). "required" keys have no default. Units are in
 * the key names: ms and us are milliseconds and microseconds of simulated
 * time, gbps is 10^9 bit/s, KB is 1000 bytes, MB is 10^6 bytes.
 *
 * Every numeric key's range is in the parser's kNumberRanges table (the
 * ranges below). Times are at most 10^9 ms (10^15 ns) and, where they must
 * be positive, at least 1 ns; integers may be written as integral numbers
 * (5e7), not as fractions, strings or booleans; NaN, infinities and
 * numbers beyond double are refused. Objects and arrays nest at most 64
 * levels deep.
 *
 * description            string, default ""; free text, not interpreted
 * seed                   integer 1..4294967086, default 1; seeds the ns-3
 *                        random streams and random placement (ns-3's
 *                        MRG32k3a needs seeds below 4294967087)
 * seeds                  object, optional; a seed per random source in place
 *                        of seed for that source alone (each default: seed)
 *   ecmp                 integer 1..4294967086: the switches' ECMP hash and
 *                        the jobs' UDP source ports (the jobs' paths)
 *   background           integer 1..4294967086: the background tenants'
 *                        arrivals, flow sizes and host pairs
 *   placement            integer 1..4294967086: "random" placement
 * stop_ms                number >= 1 ns, default 1000; simulated time at which
 *                        the run stops even if jobs have not finished
 * stall_ms               number in [0, stop_ms], default 10; the run stops
 *                        with stop_reason "stalled" when for this long no
 *                        data packet reached a host while the switches hold
 *                        packets and some port is paused (a PFC deadlock);
 *                        with pfc_watchdog on, detection_ms longer; 0: never
 * topology               object, required
 *   kind                 required: "leaf-spine", "rail-optimized",
 *                        "fat-tree", "dumbbell", "ring" or "links"
 *   leaves               integer >= 1, default 4 (leaf-spine)
 *   spines               integer >= 0, default 2 (leaf-spine; 0 only with one
 *                        leaf: a single switch)
 *   hosts_per_leaf       integer >= 1, default 4 (leaf-spine)
 *   k                    even integer >= 2, default 4 (fat-tree arity:
 *                        k pods, k^3/4 hosts, k/2 hosts per edge switch)
 *   hosts_per_side       integer >= 1, default 4 (dumbbell: two switches
 *                        joined by one fabric link, this many hosts each)
 *   switches             integer >= 3, default 4 (ring: switch i joined to
 *                        switch i+1 and the last to the first)
 *   hosts_per_switch     integer >= 1, default 4 (ring)
 *   rail_groups          integer >= 1, default 1 (rail-optimized: groups of
 *                        servers, each with one leaf per rail, that is per
 *                        NIC of a server: NIC i of every server of a group
 *                        sits on the group's leaf i; every leaf joins every
 *                        spine; spines >= 1 unless there is a single leaf)
 *   servers_per_rail_group integer >= 1, default 4 (rail-optimized: servers
 *                        per rail group, so hosts per leaf)
 *   servers              object, optional (required by rail-optimized, whose
 *                        rails are its nics): the hosts grouped into GPU
 *                        servers of nics consecutive hosts; server s has
 *                        hosts s*nics .. s*nics+nics-1 and GPUs
 *                        s*gpus .. s*gpus+gpus-1; GPU g of a server uses its
 *                        NIC floor(g*nics/gpus). Without it every host is
 *                        a server of one GPU (GPU id = host index)
 *     gpus               integer >= 1, default 1; GPUs (ranks) per server
 *     nics               integer 1..gpus, default 1; NICs (hosts) per
 *                        server; the host count must be a multiple of it
 *     nvlink_gbps        number 0.001..10000, default 3600; the intra-server
 *                        (NVLink-like) link's rate per direction (H100 SXM,
 *                        NVLink 4: 900 GB/s both ways per GPU)
 *     nvlink_latency_us  number >= 0, default 0.05; its latency (SimAI's
 *                        topologies: 25 ns per GPU-NVSwitch link, two links
 *                        from GPU to GPU)
 *   host_gbps            number 0.001..10000, default 100; host-to-switch links
 *   fabric_gbps          number 0.001..10000, default 100; switch-to-switch links
 *   link_delay_us        number >= 0, default 1; propagation delay per link
 *   buffer_mb            number in (0, 10^6], default 16; shared buffer per switch
 *   nodes                links: integer 2..1114111, required; node ids
 *                        0..nodes-1, the hosts are those that are not
 *                        switches, numbered 0, 1, ... in id order
 *   switch_nodes         links: array of distinct node ids, required
 *   links                links: array, required, one object per cable:
 *     a, b               node ids; no cable joins a node to itself or two
 *                        hosts, none repeats a pair; every host has one
 *     gbps               number 0.001..10000, default host_gbps for a
 *                        host's cable, else fabric_gbps
 *     delay_us           number >= 0, default link_delay_us
 *                        (host_gbps then becomes the first host's cable
 *                        rate, fabric_gbps the fastest switch cable,
 *                        link_delay_us the longest delay)
 *   route_convergence_ms number >= 0, optional; this long after a cable of
 *                        faults goes down or comes back, every switch's
 *                        routes are recomputed over the cables then up
 *                        (absent: never; the switches at the cable's ends
 *                        fail over locally in any case)
 *   Keys of the other kinds are accepted and ignored. Host count:
 *   leaf-spine leaves * hosts_per_leaf, rail-optimized rail_groups *
 *   servers_per_rail_group * servers.nics, fat-tree k^3/4, dumbbell
 *   2 * hosts_per_side, ring switches * hosts_per_switch; at most 1048576;
 *   GPUs at most 16777216. Hosts are numbered 0..H-1 in topology order (the
 *   hosts of leaf / edge switch / side / ring switch 0 first; rail-optimized
 *   by server: host = server * nics + NIC, server = rail group *
 *   servers_per_rail_group + its place in the group).
 * transport              object, optional
 *   mtu_bytes            256, 512, 1024, 2048 or 4096 (the InfiniBand path
 *                        MTUs), default 4096; RDMA payload bytes per packet
 *   cc                   a registered algorithm (flux-run --list-cc), default "dcqcn";
 *                        "hpcc" needs link rates of 10, 25, 40, 50, 100,
 *                        200, 400 or 800 Gb/s (its INT codes them)
 *   pfc                  true or false, default true
 *   ack_timeout          integer 0..31, default 20; the local ACK timeout of
 *                        the queue pairs as InfiniBand's exponent t: a queue
 *                        pair without acknowledged progress for
 *                        4.096 us x 2^t goes back to its oldest
 *                        unacknowledged packet (0: no timer); 20 (4.3 s)
 *                        is NCCL's NCCL_IB_TIMEOUT default
 *   retry_cnt            integer 0..7, default 7 (NCCL_IB_RETRY_CNT);
 *                        timeouts in a row without progress that a queue
 *                        pair retries; one more moves it to the error state
 *                        and fails its job
 *   dcqcn                object, optional; DCQCN's parameters
 *     profile            "hpcc-sim" (default), "nvidia" or "paper": a
 *                        published parameter set (DcqcnProfile), which also
 *                        gives the ECN marking unless "ecn" sets it
 *     g                  number in (0, 1]; alpha gain
 *     alpha_interval_us  number > 0; alpha update period
 *     rate_decrease_interval_us  number >= 0; minimum time between cuts
 *     rate_increase_interval_us  number > 0; recovery timer
 *     byte_counter_bytes integer 0..2^63-1; recovery byte counter (0: none)
 *     fast_recovery_stages integer 0..1000; F
 *     ai_mbps, hai_mbps  number >= 0; increase steps at the host link rate
 *     min_rate_mbps      number > 0; floor of the rate
 *     clamp_target_rate  true or false; target = rate at every cut
 *     clamp_after_timer  true or false; ... at a cut after a timer step
 *     cnp_interval_us    number >= 0; notification point's CNP spacing per
 *                        queue pair (0: a CNP per marked packet)
 *     window_bdp         number 0..1000; a window of this many largest BDPs
 *                        of the topology (host rate x largest base RTT) on
 *                        the bytes in flight (0: none, the default)
 *     variable_window    true (default) or false; the window follows the
 *                        rate (window x rate / line rate)
 *   ecn                  object, optional; RED-like marking per egress queue
 *     kmin_kb            number 0..4x10^6, default the DCQCN profile's (400 at
 *                        100 Gb/s for "nvidia" and "hpcc-sim")
 *     kmax_kb            number in (0, 4x10^6], >= kmin_kb, default the profile's
 *                        (1600 at 100 Gb/s)
 *     pmax               number in (0, 1], default the profile's (0.2); the marking
 *                        probability rises linearly from 0 at kmin_kb to
 *                        pmax at kmax_kb; above kmax_kb every packet is marked
 *     per_rate           array of {gbps, kmin_kb, kmax_kb, pmax} (each
 *                        required), one per rate: the thresholds of the
 *                        switch ports whose link has that rate
 * scheduler              object, optional
 *   policy               string, default "fifo"; one of
 *                        ScenarioConfig::AvailablePolicies(): "fifo",
 *                        "cassini", "crux", "flux", then the other
 *                        registered policies ("ecmp-aware", "mltcp", ...)
 *   <key>                every attribute of a policy's TypeId (Boolean,
 *                        Double, Uinteger, Integer, Time, Enum, String) is
 *                        a key: its name in snake_case, a Time with a unit
 *                        suffix _ns, _us, _ms or _s; checked by the
 *                        attribute's checker, narrowed by a kNumberRanges
 *                        entry where there is one (scenario-policy-keys.h;
 *                        flux-run --describe-policy NAME lists them). A key
 *                        of another policy than the chosen one is checked,
 *                        then ignored. Their types, defaults and meanings
 *                        are the TypeId's attributes', stated there only.
 * jobs                   array, default []; training jobs. The scenario needs
 *                        at least one job or one background entry.
 *   name                 required; letters, digits, '-', '_', '.'; unique
 *                        among jobs and background entries
 *   ranks                required integer >= 2, at most the GPU count
 *                        (the host count without servers)
 *   gpus                 array of distinct GPU ids, one per rank (rank i
 *                        runs on GPU gpus[i], its host is the GPU's NIC);
 *                        excludes "placement" and "hosts"; two jobs may not
 *                        list the same GPU (without servers GPU g is host g)
 *   hosts                array of distinct host indices, one per rank (rank
 *                        i runs on hosts[i]); excludes "placement"; refused
 *                        with topology.servers (list GPUs instead); jobs may
 *                        list the same hosts (they share the NICs)
 *   placement            "packed", "spread" or "random", default "packed"
 *                        when "gpus" and "hosts" are absent; see
 *                        ResolvePlacement. With servers, over the GPUs:
 *                        "packed" fills a server's GPUs before the next,
 *                        "spread" takes one GPU of each server in turn,
 *                        "random" a random set of free GPUs
 *   collective           "ring-allreduce", default "ring-allreduce"
 *   bytes                required integer >= ranks * buckets; gradient bytes
 *                        allreduced per iteration; 2 x bytes x (ranks - 1)
 *                        x iterations at most 2^63 - 1
 *   compute_ms           number >= 0, default 0; compute per iteration,
 *                        before its allreduce
 *   iterations           required integer >= 1
 *   start_ms             number >= 0 and < stop_ms, default 0
 *   chunk_bytes          integer >= 0, default 0; a ring step is sent as
 *                        chunks of at most this size, pipelined (0: one
 *                        message per step); at most 65536 chunks per step
 *   buckets              integer 1..8192, default 1; gradient buckets: the
 *                        allreduce of bucket b starts when its share of the
 *                        compute is done, so communication overlaps compute
 *                        (1: no overlap)
 *   priority             integer 0..6, default 3; traffic class of the
 *                        job's data (7 is the control class)
 * background             array, default []; background tenants, each either
 *                        a Poisson "cdf" tenant or a traffic "pattern"
 *   name                 required; as for jobs, unique
 *   priority             integer 0..6, default 3; traffic class
 *   start_ms             number >= 0 and < stop_ms, default 0
 *   with "cdf":
 *   cdf                  required: "websearch", "hadoop", "alistorage",
 *                        "googlerpc", or the path of a CDF file ("size
 *                        percent" lines; relative to the scenario's folder)
 *   load                 required number in (0, 1]; offered load of each
 *                        host, as a fraction of host_gbps
 *   hosts                array of >= 2 distinct host indices, default all
 *                        hosts; flows go between random pairs of them,
 *                        arriving as a Poisson process
 *   stop_ms              number > start_ms; no arrivals from then on;
 *                        default: when the last job ends (the scenario's
 *                        stop_ms when there is no job)
 *   with "pattern":
 *   pattern              "incast": all senders send to one receiver at
 *                        once; "flows": the flows of "flows", one by one
 *   senders              required array of >= 1 distinct host indices, not
 *                        containing the receiver
 *   receiver             required host index
 *   bytes                required integer >= 1; bytes per sender per burst;
 *                        bytes x senders x repeat at most 2^63 - 1
 *   repeat               integer >= 1, default 1; number of bursts
 *   interval_ms          number >= 1 ns; time between burst starts; required
 *                        when repeat > 1
 *   flows                "flows" pattern: required array (the entry has no
 *                        start_ms, senders, receiver, bytes, repeat or
 *                        interval_ms), one object per flow:
 *     src, dst           required distinct host indices the fabric joins
 *     bytes              required integer >= 1
 *     start_ms           number >= 0 and < stop_ms, default 0, not before
 *                        the previous flow's
 *     dport              integer 0..65535, default 100; written to the
 *                        HPCC FCT file only
 * faults                 array, default []; link faults, each an object:
 *   link                 required: "a<->b" (the cable between nodes a and b,
 *                        both directions), "a->b" (one direction) or "all"
 *                        (every cable); nodes are named as in the results'
 *                        busiest_links ("host3", "leaf0", "spine1",
 *                        "pod0-edge1", "pod0-agg0", "core2", "left", "right",
 *                        "ring0", "sw4")
 *   loss_rate            number in [0, 1]; each frame crossing the link is
 *                        lost with this probability
 *   down_ms              number >= 0 and < stop_ms; the cable goes down
 *                        (cables only): every frame sent on it from then on
 *                        is lost
 *   up_ms                number > down_ms; the cable comes back (default:
 *                        never)
 *   An entry needs loss_rate or down_ms.
 * pfc_watchdog           object, optional; a PFC watchdog on every switch
 *                        port (PfcWatchdog)
 *   enabled              true or false, default true
 *   detection_ms         number in [0.001, stop_ms], default 200; a queue
 *                        paused without a break this long while holding
 *                        packets is stormed
 *   restoration_ms       number in [0.001, stop_ms], default 200; a stormed
 *                        queue without pause frames this long is restored
 *   action               "drop" (default) or "forward"; what a stormed
 *                        queue does with its packets (pauses are ignored)
 * traces                 object, optional; time series sampled during the
 *                        run, written as <stem>-rates.csv and
 *                        <stem>-queues.csv
 *   interval_us          number > 0, default 10; sampling period
 *   rates                true or false, default true; the rate, target rate
 *                        and alpha of every queue pair that sends (jobs'
 *                        rings and background flows in flight)
 *   links                array of link directions ("a->b"), default [];
 *                        their egress queue length and utilisation
 * event_scheduler        "priority-queue" (default), "map", "heap",
 *                        "calendar", "list" or "ordered"; the ns-3 event
 *                        scheduler (ns3::PriorityQueueScheduler, MapScheduler,
 *                        ...). The first five order simultaneous events
 *                        alike (in the order they were scheduled), so the
 *                        results do not depend on them, only the speed does;
 *                        "ordered" (OrderedScheduler) takes simultaneous frame
 *                        arrivals first, port by port, as runs under MPI do
 *                        (always, whatever this key says)
 * hpcc                   object, optional: the HPCC simulator's files,
 *                        {"config", "topology", "flows"} (file names), run
 *                        as they are: they become the keys of this schema
 *                        (hpcc-import.h), the scenario's keys on top
 * hpcc_fct               true or false, default false (true with "hpcc");
 *                        write <results stem>-fct.txt in the HPCC
 *                        simulator's FCT format; the run ends when the
 *                        last flow's sender has its last ACK
 * completion_latency_us  number in [0, 1e6], default 0; time from the last
 *                        rank of a collective receiving its data to every
 *                        rank knowing the run is complete, and from the
 *                        end of the last job or flow to the end of the run.
 *                        Under MPI at least link_delay_us + 0.002 (the
 *                        notice between processes); flux-run raises it to
 *                        that. With that value and "ordered" a run on one
 *                        process gives the results of a run under mpirun
 * ns3_defaults           object, default {}; ns-3 attribute defaults set
 *                        before the run, "ns3::TypeName::Attribute": value
 *                        (string, number or true/false), or a global value
 *                        name. Names and values are checked against the
 *                        registered TypeIds; the object factories
 *                        ns3::FabricSwitch::QueueDiscFactory,
 *                        ns3::RdmaNic::QpArbiter and
 *                        ns3::RdmaNic::CongestionControl are accepted as
 *                        "ns3::Type[attr=value|...]" (checked; no spaces;
 *                        class orders as 3,2,1). Values are checked before
 *                        ns-3 reads them (times within 10^15 ns, finite
 *                        doubles, rates up to 10 Tb/s, 32-bit queue
 *                        sizes, class orders). RngSeed and RngRun are not
 *                        accepted (use seed), nor SimulatorImplementationType.
 *
 * Any other key is an error.
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

/// \name The names each key accepts, and the keys of each section
/// @{
extern const std::vector<std::string> kTopologyKinds;
extern const std::vector<uint64_t> kMtus;
extern const std::vector<std::string> kPlacements;
extern const std::vector<std::string> kCollectives;
extern const std::vector<std::string> kPatterns;
extern const std::vector<std::string> kRootKeys;
extern const std::vector<std::string> kTopologyKeys;
extern const std::vector<std::string> kLinkKeys;
extern const std::vector<std::string> kServersKeys;
extern const std::vector<std::string> kTransportKeys;
extern const std::vector<std::string> kDcqcnKeys;
extern const std::vector<std::string> kFaultKeys;
extern const std::vector<std::string> kTracesKeys;
extern const std::vector<std::string> kPfcWatchdogKeys;
extern const std::vector<std::string> kSeedsKeys;
extern const std::vector<std::string> kPfcWatchdogActions;
extern const std::vector<std::string> kEcnKeys;
extern const std::vector<std::string> kEcnRateKeys;
extern const std::vector<std::string> kGranularities;
extern const std::vector<std::string> kJobKeys;
/// Keys of a job's "workload".
extern const std::vector<std::string> kJobWorkloadKeys;
extern const std::vector<std::string> kBackgroundCommonKeys;
extern const std::vector<std::string> kBackgroundCdfKeys;
extern const std::vector<std::string> kBackgroundPatternKeys;
extern const std::vector<std::string> kFlowKeys;
/// @}

constexpr uint64_t kMaxHosts = 1u << 20;                  //!< largest host count accepted
constexpr uint64_t kMaxGpus = 1u << 24;                   //!< largest GPU count accepted
constexpr uint64_t kMaxDimension = 65535;                 //!< largest switch / host count per level
constexpr uint64_t kMaxPriority = TrafficClass::MAX_DATA; //!< highest data traffic class
constexpr uint64_t kU32Max = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr size_t kMaxNesting = 64; //!< deepest nesting of objects and arrays in a file
constexpr uintmax_t kMaxCdfFileBytes = 16u << 20; //!< largest CDF file read

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

/**
 * \brief An integer range.
 * \param min smallest value
 * \param max largest value
 * \return the range [min, max]
 */
NumberRange Int(uint64_t min, uint64_t max);

/**
 * \brief The range of a numeric key of the object at path (see kNumberRanges
 * in scenario-keys.cc); a key without an entry is a programming error
 * (std::logic_error).
 * \param path the object's path ("jobs[3]")
 * \param key the key
 * \return its range
 */
const NumberRange& RangeOf(const std::string& path, const std::string& key);

/**
 * \param name a key's full name ("scheduler.hysteresis_us", "jobs[].bytes")
 * \return its kNumberRanges entry, or nullptr when it has none (scheduler
 *         keys need none: their attributes' checkers give their ranges)
 */
const NumberRange* FindRange(const std::string& name);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_KEYS_H */
