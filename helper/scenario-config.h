/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

/*
 * Scenario file keys (JSON). "required" keys have no default. Units are in
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
 * stop_ms                number >= 1 ns, default 1000; simulated time at which
 *                        the run stops even if jobs have not finished
 * stall_ms               number in [0, stop_ms], default 10; the run stops
 *                        with stop_reason "stalled" when for this long no
 *                        data packet reached a host while the switches hold
 *                        packets and some port is paused (a PFC deadlock);
 *                        with pfc_watchdog on, detection_ms longer; 0: never
 * topology               object, required
 *   kind                 required: "leaf-spine", "fat-tree", "dumbbell" or
 *                        "ring"
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
 *   host_gbps            number 0.001..10000, default 100; host-to-switch links
 *   fabric_gbps          number 0.001..10000, default 100; switch-to-switch links
 *   link_delay_us        number >= 0, default 1; propagation delay per link
 *   buffer_mb            number in (0, 10^6], default 16; shared buffer per switch
 *   route_convergence_ms number >= 0, optional; this long after a cable of
 *                        faults goes down or comes back, every switch's
 *                        routes are recomputed over the cables then up
 *                        (absent: never; the switches at the cable's ends
 *                        fail over locally in any case)
 *   Keys of the other kinds are accepted and ignored. Host count:
 *   leaf-spine leaves * hosts_per_leaf, fat-tree k^3/4, dumbbell
 *   2 * hosts_per_side, ring switches * hosts_per_switch; at most 1048576.
 *   Hosts are numbered 0..H-1 in topology order (the hosts of leaf / edge
 *   switch / side / ring switch 0 first).
 * transport              object, optional
 *   mtu_bytes            256, 512, 1024, 2048 or 4096 (the InfiniBand path
 *                        MTUs), default 4096; RDMA payload bytes per packet
 *   cc                   "dcqcn", "hpcc" or "none", default "dcqcn";
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
 *   ecn                  object, optional; RED-like marking per egress queue
 *     kmin_kb            number 0..4x10^6, default the DCQCN profile's (400 at
 *                        100 Gb/s for "nvidia" and "hpcc-sim")
 *     kmax_kb            number in (0, 4x10^6], >= kmin_kb, default the profile's
 *                        (1600 at 100 Gb/s)
 *     pmax               number in (0, 1], default the profile's (0.2); the marking
 *                        probability rises linearly from 0 at kmin_kb to
 *                        pmax at kmax_kb; above kmax_kb every packet is marked
 * scheduler              object, optional
 *   policy               string, default "fifo"; one of
 *                        ScenarioConfig::AvailablePolicies(): "fifo",
 *                        "cassini", "crux", "flux"
 *   classes              integer 1..6, default 3; crux and flux: traffic
 *                        classes the jobs get, from the lowest background
 *                        priority down (so at most that priority + 1, or
 *                        that priority with background_first)
 *   background_first     true or false, default false; crux and flux: the
 *                        jobs' top class is the lowest background class,
 *                        shared flow by flow (false), or the class below it
 *                        so that background tenants go strictly first (true)
 *   granularity          "step" (default) or "chunk"; flux: what one gate
 *                        release lets go
 *   control_latency_us   number >= 0, default 5; flux: one-way latency of
 *                        controller <-> gate messages
 *   replan_us            number >= 0, default 1000; flux: re-plan period
 *                        while a job communicates (0: only at run starts
 *                        and ends)
 *   hysteresis_us        number >= 0, default 50; flux: lead in service time
 *                        a waiting allreduce needs to pass the one served
 *   max_hold_us          number >= 0, default 0; flux: longest time a gate
 *                        holds a ring step (0: no limit)
 *   min_share            number in [0, 0.5], default 0.05; flux: least share
 *                        of a switch port's bytes a waiting class gets
 *                        (FluxQueueDisc starvation guard)
 *   max_wait_us          number >= 0, default 0; flux: a class whose head
 *                        packet waited this long at a switch port is served
 *                        first (0: off)
 * jobs                   array, default []; training jobs. The scenario needs
 *                        at least one job or one background entry.
 *   name                 required; letters, digits, '-', '_', '.'; unique
 *                        among jobs and background entries
 *   ranks                required integer >= 2, at most the host count
 *   hosts                array of distinct host indices, one per rank (rank
 *                        i runs on hosts[i]); excludes "placement"
 *   placement            "packed", "spread" or "random", default "packed"
 *                        when "hosts" is absent; see ResolvePlacement
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
 *   pattern              "incast": all senders send to one receiver at once
 *   senders              required array of >= 1 distinct host indices, not
 *                        containing the receiver
 *   receiver             required host index
 *   bytes                required integer >= 1; bytes per sender per burst;
 *                        bytes x senders x repeat at most 2^63 - 1
 *   repeat               integer >= 1, default 1; number of bursts
 *   interval_ms          number >= 1 ns; time between burst starts; required
 *                        when repeat > 1
 * faults                 array, default []; link faults, each an object:
 *   link                 required: "a<->b" (the cable between nodes a and b,
 *                        both directions), "a->b" (one direction) or "all"
 *                        (every cable); nodes are named as in the results'
 *                        busiest_links ("host3", "leaf0", "spine1",
 *                        "pod0-edge1", "pod0-agg0", "core2", "left", "right",
 *                        "ring0")
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
 *                        "calendar" or "list"; the ns-3 event scheduler
 *                        (ns3::PriorityQueueScheduler, MapScheduler, ...).
 *                        All order simultaneous events alike (in the order
 *                        they were scheduled), so the results do not depend
 *                        on it, only the speed does
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

#include "ns3/dcqcn-profile.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/job-scheduler.h"
#include "ns3/scenario-error.h"

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
 * \brief A validated scenario: the scenario JSON of the runner as plain data.
 *
 * Every field holds its documented default until ParseScenario fills it.
 * After ParseScenario every job has its hosts resolved (JobConfig::hosts) and
 * every "cdf" background tenant has its distribution loaded.
 */
struct ScenarioConfig
{
    /// The "topology" object.
    struct TopologyConfig
    {
        std::string kind{"leaf-spine"}; //!< "leaf-spine", "fat-tree", "dumbbell" or "ring"
        uint32_t leaves{4};             //!< leaf-spine: number of leaf switches
        uint32_t spines{2};             //!< leaf-spine: number of spine switches
        uint32_t hostsPerLeaf{4};       //!< leaf-spine: hosts under each leaf
        uint32_t k{4};                  //!< fat-tree: arity (even)
        uint32_t hostsPerSide{4};       //!< dumbbell: hosts on each side
        uint32_t switches{4};           //!< ring: number of switches
        uint32_t hostsPerSwitch{4};     //!< ring: hosts under each switch
        double hostGbps{100};           //!< host link rate, Gb/s
        double fabricGbps{100};         //!< switch-to-switch link rate, Gb/s
        double linkDelayUs{1};          //!< propagation delay per link, us
        double bufferMb{16};            //!< shared buffer per switch, MB (10^6 bytes)
        /// routes recomputed this long after a link change, ms (unset: never)
        std::optional<double> routeConvergenceMs;
    };

    /// The "transport.ecn" object: RED-like marking thresholds per egress queue.
    struct EcnConfig
    {
        double kminKb{400};  //!< queue length below which nothing is marked, KB
        double kmaxKb{1600}; //!< queue length at which pmax is reached, KB
        double pmax{0.2};    //!< marking probability at kmax
    };

    /// The "transport" object.
    struct TransportConfig
    {
        uint32_t mtuBytes{4096}; //!< RDMA payload bytes per packet
        std::string cc{"dcqcn"}; //!< congestion control: "dcqcn", "hpcc" or "none"
        bool pfc{true};          //!< whether PFC is enabled
        EcnConfig ecn;           //!< ECN marking
        DcqcnProfile dcqcn{
            *DcqcnProfile::Find(DcqcnProfile::DefaultName())}; //!< DCQCN
                                                               //!< parameters: the chosen profile
                                                               //!< with the scenario's overrides
        uint32_t ackTimeout{20}; //!< local ACK timeout exponent (0: no timer)
        uint32_t retryCnt{7};    //!< retries before the error state
    };

    /// One entry of "faults".
    struct FaultConfig
    {
        std::string link;             //!< "a<->b", "a->b" or "all"
        double lossRate{0};           //!< per-frame loss probability
        std::optional<double> downMs; //!< when the cable goes down, ms
        std::optional<double> upMs;   //!< when it comes back, ms (unset: never)
    };

    /// The "scheduler" object.
    struct SchedulerConfig
    {
        std::string policy{"fifo"};      //!< scheduling policy name
        uint32_t classes{3};             //!< classes of multi-class policies
        std::string granularity{"step"}; //!< flux gate: "step" or "chunk"
        double controlLatencyUs{5};      //!< flux: controller <-> gate latency, us
        double replanUs{1000};           //!< flux: periodic re-plan, us (0: events only)
        double hysteresisUs{50};         //!< flux: lead needed to pass the served task, us
        double maxHoldUs{0};             //!< flux: longest hold at a gate, us (0: none)
        double minShare{0.05};           //!< flux queue disc: least share of a waiting class
        double maxWaitUs{0};             //!< flux queue disc: ageing, us (0: off)
        bool backgroundFirst{false};     //!< jobs' classes strictly below the background's
    };

    /// One entry of "jobs".
    struct JobConfig
    {
        std::string name;                         //!< unique name
        uint32_t ranks{0};                        //!< number of ranks
        std::vector<uint32_t> hosts;              //!< host of rank i (resolved by ParseScenario)
        std::string placement{"packed"};          //!< "packed", "spread", "random", or "explicit"
                                                  //!< when the scenario lists the hosts
        std::string collective{"ring-allreduce"}; //!< collective per iteration
        uint64_t bytes{0};                        //!< gradient bytes allreduced per iteration
        double computeMs{0};                      //!< compute time per iteration, ms
        uint32_t iterations{0};                   //!< number of iterations
        double startMs{0};                        //!< start time, ms
        uint64_t chunkBytes{0};                   //!< pipelining chunk size (0: whole step)
        uint32_t buckets{1};                      //!< gradient buckets (1: no overlap)
        uint32_t priority{3};                     //!< traffic class 0..6
    };

    /// One entry of "background".
    struct BackgroundConfig
    {
        /// The two kinds of background entries.
        enum class Kind
        {
            CDF,    //!< Poisson flows with sizes from a CDF ("cdf" key)
            PATTERN //!< a traffic pattern ("pattern" key)
        };

        Kind kind{Kind::CDF}; //!< which kind of entry this is
        std::string name;     //!< unique name
        uint32_t priority{3}; //!< traffic class 0..6
        double startMs{0};    //!< first arrival / first burst, ms

        // Kind::CDF
        std::string cdf;              //!< the "cdf" value as written
        std::string cdfPath;          //!< resolved CDF file path (empty for a builtin)
        FlowSizeCdf flowSizes;        //!< the loaded distribution
        double load{0};               //!< offered load per host, fraction of host_gbps
        std::vector<uint32_t> hosts;  //!< hosts exchanging flows
        std::optional<double> stopMs; //!< end of arrivals, ms; unset: when the
                                      //!< last job ends, or the scenario's stop_ms

        // Kind::PATTERN
        std::string pattern;           //!< "incast"
        std::vector<uint32_t> senders; //!< sending hosts
        uint32_t receiver{0};          //!< receiving host
        uint64_t bytes{0};             //!< bytes per sender per burst
        uint32_t repeat{1};            //!< number of bursts
        double intervalMs{0};          //!< time between burst starts, ms
    };

    /// The "pfc_watchdog" object: a PFC watchdog on every switch port.
    struct PfcWatchdogConfig
    {
        bool enabled{false};        //!< install the watchdogs
        double detectionMs{200};    //!< PfcWatchdog::DetectionTime, ms
        double restorationMs{200};  //!< PfcWatchdog::RestorationTime, ms
        std::string action{"drop"}; //!< PfcWatchdog::Action
    };

    std::string description;                  //!< free text
    uint32_t seed{1};                         //!< random seed (>= 1)
    double stopMs{1000};                      //!< safety stop on simulated time, ms
    double stallMs{10};                       //!< stall detection window, ms (0: off)
    PfcWatchdogConfig pfcWatchdog;            //!< PFC watchdog of the switch ports
    TopologyConfig topology;                  //!< the topology
    TransportConfig transport;                //!< the transport
    SchedulerConfig scheduler;                //!< the scheduler
    std::vector<JobConfig> jobs;              //!< the training jobs
    std::vector<BackgroundConfig> background; //!< the background tenants

    /// The "traces" object: time series sampled during the run.
    struct TracesConfig
    {
        bool enabled{false};            //!< the scenario asks for traces
        double intervalUs{10};          //!< sampling period, us
        bool rates{true};               //!< sample every sending queue pair's rate
        std::vector<std::string> links; //!< link directions whose queue is sampled
    };

    std::vector<FaultConfig> faults;                //!< link faults
    TracesConfig traces;                            //!< sampled time series
    std::map<std::string, std::string> ns3Defaults; //!< ns-3 attribute defaults
    std::string baseDir{"."};                       //!< folder for relative paths
    std::string eventScheduler{"priority-queue"};   //!< the ns-3 event scheduler

    /**
     * \brief The ns-3 type of the event scheduler.
     * \param name an "event_scheduler" value (AvailableEventSchedulers())
     * \return its TypeId name, e.g. "ns3::PriorityQueueScheduler"; empty when unknown
     */
    static std::string EventSchedulerTypeName(const std::string& name);

    /** \return the values "event_scheduler" accepts, the default first */
    static std::vector<std::string> AvailableEventSchedulers();

    /**
     * \brief Number of hosts of the topology.
     * \return leaf-spine: leaves * hostsPerLeaf; fat-tree: k^3/4;
     *         dumbbell: 2 * hostsPerSide; ring: switches * hostsPerSwitch;
     *         0 for an unknown kind
     */
    uint32_t HostCount() const;

    /**
     * \brief Number of hosts under one edge switch (leaf, fat-tree edge
     * switch, dumbbell side); hosts h and h' share an edge switch iff
     * h / HostsPerLeaf () == h' / HostsPerLeaf ().
     * \return hostsPerLeaf, k/2, hostsPerSide or hostsPerSwitch; 0 for an
     *         unknown kind
     */
    uint32_t HostsPerLeaf() const;

    /**
     * \return the classes of the background tenants, a bit per class
     */
    uint8_t BackgroundClasses() const;

    /**
     * \brief The scheduler of scheduler.policy, with the scenario's
     * scheduler keys as attributes (each set when the policy has it).
     * \return the scheduler, classes not yet assigned
     */
    Ptr<JobScheduler> CreateScheduler() const;

    /**
     * \brief The policies that can be run, in the order the docs list them.
     * \return the policy names accepted by scheduler.policy
     */
    static std::vector<std::string> AvailablePolicies();
};

/**
 * \ingroup flux-scenario
 * \brief Parse JSON text, reporting syntax errors and duplicate keys.
 * \param text the JSON text
 * \param source the name used as field in errors (usually the file path)
 * \return the JSON value
 *
 * Throws ScenarioError `<source>: line L, column C: <problem>` on a syntax
 * error and `<path>: duplicate key` when an object repeats a key.
 */
nlohmann::json ParseScenarioText(const std::string& text, const std::string& source);

/**
 * \ingroup flux-scenario
 * \brief Read a scenario file as JSON, without validating it.
 * \param path the file
 * \return the JSON value
 *
 * Throws ScenarioError `<path>: cannot read the file (...)` or the errors of
 * ParseScenarioText.
 */
nlohmann::json ReadScenarioJson(const std::string& path);

/**
 * \ingroup flux-scenario
 * \brief Validate a scenario and fill a ScenarioConfig.
 * \param scenario the scenario JSON
 * \param baseDir the folder that relative paths (CDF files) are relative to
 * \return the configuration, with job placements resolved
 *
 * Throws ScenarioError naming the first offending field.
 */
ScenarioConfig ParseScenario(const nlohmann::json& scenario, const std::string& baseDir);

/**
 * \ingroup flux-scenario
 * \brief Read, parse and validate a scenario file.
 * \param path the file; relative paths inside it are relative to its folder
 * \return the configuration
 *
 * Throws ScenarioError.
 */
ScenarioConfig LoadScenarioFile(const std::string& path);

/**
 * \ingroup flux-scenario
 * \brief Choose the hosts of a job's ranks.
 * \param job the job; when job.placement is "explicit", job.hosts is returned
 * \param hostCount number of hosts of the topology
 * \param seed the scenario seed (used by "random")
 * \param hostsPerLeaf hosts per edge switch (used by "spread"); 0 means
 *        all hosts are under one switch
 * \param taken hosts that must not be chosen (taken[h] true); may be shorter
 *        than hostCount
 * \return the host of each rank, job.ranks distinct hosts
 *
 * Strategies, over the hosts not taken, in topology order:
 *  - "packed": the lowest-numbered free hosts, rank i on the i-th of them;
 *  - "spread": round robin over the edge switches (first free host of each
 *    switch in turn, then the second, ...), so consecutive ranks sit under
 *    different switches when possible;
 *  - "random": a uniformly random subset in random rank order, from a
 *    generator seeded with seed and the job name only (the same seed and
 *    name give the same hosts on every platform).
 *
 * ParseScenario shares hosts among jobs as follows: hosts listed explicitly
 * by any job are reserved first (explicit lists may overlap one another,
 * which makes those jobs share the hosts' NICs); then the jobs with a
 * placement strategy, in file order, each take hosts that neither an
 * explicit list nor an earlier job holds, so placed jobs never share hosts.
 *
 * Throws ScenarioError (field "placement") when fewer than job.ranks hosts
 * are free or the strategy is unknown.
 */
std::vector<uint32_t> ResolvePlacement(const ScenarioConfig::JobConfig& job,
                                       uint32_t hostCount,
                                       uint32_t seed,
                                       uint32_t hostsPerLeaf = 0,
                                       const std::vector<bool>& taken = {});

} // namespace ns3

#endif /* SCENARIO_CONFIG_H */
