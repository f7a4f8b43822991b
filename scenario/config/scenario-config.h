/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_CONFIG_H
#define SCENARIO_CONFIG_H

#include "ns3/dcqcn-profile.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"
#include "ns3/workload-trace.h"

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

/*
 * The scenario file's keys, their types, ranges and defaults are listed in
 * scenario-keys.h.
 */

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief A validated scenario: the scenario JSON of the runner as plain data.
 *
 * Every field holds its documented default until ParseScenario fills it.
 * After ParseScenario every job has its ranks' GPUs, hosts and servers
 * resolved (JobConfig::gpus, hosts, servers) and every "cdf" background
 * tenant has its distribution loaded.
 */
struct ScenarioConfig
{
    /// The "topology" object.
    struct TopologyConfig
    {
        /// One cable of a "links" topology.
        struct LinkConfig
        {
            uint32_t a{0};     //!< one end, a node id
            uint32_t b{0};     //!< the other end, a node id
            double gbps{100};  //!< line rate, Gb/s
            double delayUs{1}; //!< propagation delay, us
        };

        /// The "servers" object: GPU servers, each of several GPUs (ranks)
        /// and NICs (hosts). Without it every host is one server of one GPU.
        struct ServersConfig
        {
            uint32_t gpus{1};             //!< GPUs per server
            uint32_t nics{1};             //!< NICs (hosts) per server, at most gpus
            double nvlinkGbps{3600};      //!< intra-server link rate per direction, Gb/s
            double nvlinkLatencyUs{0.05}; //!< intra-server link latency, us
        };

        std::string kind{"leaf-spine"}; //!< "leaf-spine", "rail-optimized", "fat-tree", ...
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

        uint32_t railGroups{1};          //!< rail-optimized: number of rail groups
        uint32_t serversPerRailGroup{4}; //!< rail-optimized: servers per rail group
        bool hasServers{false};          //!< the scenario gives "servers"
        ServersConfig servers;           //!< the servers (one GPU, one NIC each by default)

        /// routes recomputed this long after a link change, ms (unset: never)
        std::optional<double> routeConvergenceMs;
        uint32_t nodes{0};                 //!< links: number of nodes, ids 0 .. nodes - 1
        std::vector<uint32_t> switchNodes; //!< links: the switches' ids
        std::vector<LinkConfig> links;     //!< links: the cables
        std::vector<uint32_t> hostNodes;   //!< links: per host, its node id (resolved)
        /// links: per host, the connected part of the fabric it is in (resolved)
        std::vector<uint32_t> hostComponent;
    };

    /// The "transport.ecn" object: RED-like marking thresholds per egress queue.
    struct EcnConfig
    {
        double kminKb{400};  //!< queue length below which nothing is marked, KB
        double kmaxKb{1600}; //!< queue length at which pmax is reached, KB
        double pmax{0.2};    //!< marking probability at kmax

        /// Thresholds of the switch ports whose link has one rate ("per_rate").
        struct RateThresholds
        {
            double gbps{0};   //!< the link rate, Gb/s
            double kminKb{0}; //!< kmin at that rate, KB
            double kmaxKb{0}; //!< kmax at that rate, KB
            double pmax{0};   //!< pmax at that rate
        };

        std::vector<RateThresholds> perRate; //!< per link rate, in place of the above
    };

    /// One key of a "transport.<name>" object: a value for an attribute of
    /// the congestion control (scenario-cc-keys.h).
    struct CcSetting
    {
        std::string algorithm; //!< the algorithm ("timely")
        std::string key;       //!< the key ("t_low_us")
        std::string attribute; //!< the attribute's full name ("ns3::TimelyCongestionControl::TLow")
        std::string value;     //!< the value, as the attribute reads it ("50000ns")
        double number{0};      //!< the key's number (0 for non-numeric keys)
    };

    /// The "transport" object.
    struct TransportConfig
    {
        uint32_t mtuBytes{4096};           //!< RDMA payload bytes per packet
        std::string cc{"dcqcn"};           //!< congestion control: a registered name
                                           //!< (RdmaCongestionControl::GetAlgorithms())
        std::vector<CcSetting> ccSettings; //!< transport.<cc> keys, for the chosen cc
        bool ccGiven{false};               //!< the scenario gives transport.cc
        std::map<std::string, std::string>
            keyAttributes; //!< attribute -> the transport key that sets it (ns3_defaults may not)
        bool pfc{true};    //!< whether PFC is enabled
        EcnConfig ecn;     //!< ECN marking
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
        bool setsLoss{false};         //!< it gives loss_rate (0 clears an earlier rate)
        std::optional<double> downMs; //!< when the cable goes down, ms
        std::optional<double> upMs;   //!< when it comes back, ms (unset: never)
    };

    /// One key of the "scheduler" object: a value for an attribute of a policy.
    struct SchedulerSetting
    {
        std::string key;       //!< the scenario key ("hysteresis_us")
        std::string attribute; //!< the attribute it sets ("Hysteresis")
        std::string value;     //!< the value, checked, as the attribute reads it ("50000ns")
        double number{0};      //!< the key's number as written (0 for other keys)
        std::string written;   //!< the value as the scenario wrote it (JSON text)
    };

    /// The "scheduler" object.
    struct SchedulerConfig
    {
        std::string policy{"fifo"}; //!< scheduling policy name
        /// the other keys, each mapped to an attribute (scenario-policy-keys.h);
        /// a policy without the attribute ignores the key
        std::vector<SchedulerSetting> settings;

        /**
         * \param attribute an attribute name ("MaxHold")
         * \return the number its key gave (in the key's unit), or 0 when the
         *         scenario does not set it
         */
        double Number(const std::string& attribute) const
        {
            for (const auto& s : settings)
            {
                if (s.attribute == attribute)
                {
                    return s.number;
                }
            }
            return 0;
        }
    };

    /// One entry of "jobs".
    struct JobConfig
    {
        std::string name;                         //!< unique name
        uint32_t ranks{0};                        //!< number of ranks
        std::vector<uint32_t> gpus;               //!< GPU of rank i (resolved by ParseScenario)
        std::vector<uint32_t> hosts;              //!< host (its GPU's NIC) of rank i (resolved)
        std::vector<uint32_t> servers;            //!< server of rank i (resolved)
        std::string placement{"packed"};          //!< "packed", "spread", "random", or "explicit"
                                                  //!< when the scenario lists the GPUs or hosts
        std::string collective{"ring-allreduce"}; //!< collective per iteration
        uint64_t bytes{0};                        //!< gradient bytes allreduced per iteration
        double computeMs{0};                      //!< compute time per iteration, ms
        uint32_t iterations{0};                   //!< number of iterations
        double startMs{0};                        //!< start time, ms
        uint64_t chunkBytes{0};                   //!< pipelining chunk size (0: whole step)
        uint32_t buckets{1};                      //!< gradient buckets (1: no overlap)
        uint32_t priority{3};                     //!< traffic class 0..6

        /// A workload file the job replays ("workload").
        struct WorkloadConfig
        {
            std::string kind;       //!< "chakra" or "aicb"; empty: compute_ms and bytes
            std::string path;       //!< chakra: DIR/PREFIX; aicb: the file (resolved)
            std::string commGroups; //!< chakra: the comm-group file (resolved; empty: none)
            std::shared_ptr<const WorkloadTrace> trace; //!< the workload, as read
        };

        WorkloadConfig workload; //!< the replayed workload, if any
        /// algorithm per collective type ("all-reduce" -> "ring" ...); types
        /// not named take the library's default
        std::map<std::string, std::string> algorithm;
        uint32_t channels{1}; //!< queue pairs per connection of the job's collectives

        /**
         * \param type a collective type
         * \return the algorithm the job runs it with: its "algorithm" entry,
         *         else the library's default (CollectiveLibrary::GetDefault)
         */
        std::string AlgorithmFor(CollectiveType type) const;
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

        /// One flow of a "flows" pattern.
        struct FlowConfig
        {
            uint32_t src{0};     //!< sending host
            uint32_t dst{0};     //!< receiving host
            uint64_t bytes{0};   //!< size
            double startMs{0};   //!< start time, ms
            uint32_t dport{100}; //!< its destination port in the HPCC FCT file
        };

        // Kind::PATTERN
        std::string pattern;           //!< "incast" or "flows"
        std::vector<FlowConfig> flows; //!< "flows": the flows, by start time
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

    /// The "seeds" object: one random source's seed in place of "seed" (0: "seed").
    struct SeedsConfig
    {
        uint32_t ecmp{0};       //!< switches' ECMP hash and the jobs' source ports
        uint32_t background{0}; //!< background tenants' arrivals, sizes and pairs
        uint32_t placement{0};  //!< "random" placement of jobs
    };

    std::string description;                  //!< free text
    uint32_t seed{1};                         //!< random seed (>= 1)
    SeedsConfig seeds;                        //!< per-source seeds overriding seed
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
    double completionLatencyUs{0}; //!< from a collective's last rank to every rank knowing, us
    bool hpccFct{false};           //!< write <results stem>-fct.txt in the HPCC simulator's format
    /// what the scenario's imported files hold that has no counterpart here
    /// (HpccImport), for the runner to print
    std::vector<std::string> warnings;
    /// per key an import gave ("topology.buffer_mb"): its field and place ("hpcc.config",
    /// "<file> line 3: BUFFER_SIZE 1"), for a problem the fabric's build finds
    std::map<std::string, std::pair<std::string, std::string>> importOrigins;
    /// warnings that hold at packet level only (a lossy fabric's long
    /// timer: the flow level loses nothing), for packet-level runs
    std::vector<std::string> packetWarnings;

    /// \param backend "packet" or "flow" \return the warnings of a run at that level
    std::vector<std::string> WarningsFor(const std::string& backend) const;

    /** \return the seed of the switches' ECMP hash and the jobs' source ports */
    uint32_t EcmpSeed() const
    {
        return seeds.ecmp != 0 ? seeds.ecmp : seed;
    }

    /** \return the seed of the background tenants' random streams */
    uint32_t BackgroundSeed() const
    {
        return seeds.background != 0 ? seeds.background : seed;
    }

    /** \return the seed of "random" placement */
    uint32_t PlacementSeed() const
    {
        return seeds.placement != 0 ? seeds.placement : seed;
    }

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
     *         links: nodes that are not switches; 0 for an unknown kind
     */
    uint32_t HostCount() const;

    /**
     * \return the number of servers: HostCount() / topology.servers.nics
     *         (every host is a server without "servers")
     */
    uint32_t ServerCount() const;

    /**
     * \return the number of GPUs: ServerCount() x topology.servers.gpus
     *         (HostCount() without "servers")
     */
    uint32_t GpuCount() const;

    /**
     * \brief Server s has GPUs s x G .. s x G + G - 1 and hosts (NICs)
     * s x N .. s x N + N - 1; GPU g of a server uses its NIC floor(g x N / G).
     * \param gpu a GPU id
     * \return the host of its NIC
     */
    uint32_t GpuHost(uint32_t gpu) const;

    /**
     * \param gpu a GPU id
     * \return its server
     */
    uint32_t GpuServer(uint32_t gpu) const;

    /**
     * \brief Number of hosts under one edge switch (leaf, fat-tree edge
     * switch, dumbbell side); hosts h and h' share an edge switch iff
     * h / HostsPerLeaf () == h' / HostsPerLeaf ().
     * \return hostsPerLeaf, k/2, hostsPerSide or hostsPerSwitch; 0 for
     *         "links", "rail-optimized" (a leaf's hosts are not consecutive)
     *         and an unknown kind
     */
    uint32_t HostsPerLeaf() const;

    /**
     * \param host a host index
     * \return its node id: the topology file's for "links", else the index
     */
    uint32_t HostNodeId(uint32_t host) const;

    /**
     * \return the classes of the background tenants, a bit per class
     */
    uint8_t BackgroundClasses() const;

    /**
     * \brief The policies that can be run, in the order the docs list them.
     * \return the policy names accepted by scheduler.policy
     */
    static std::vector<std::string> AvailablePolicies();
};

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
 * \brief The problems of the keys that the schema cannot name, each key
 * checked alone in the runner's words: those of "scheduler" (the attributes
 * of the scenario's policy), of "transport.<cc>" sections and of
 * "ns3_defaults" entries. Checks that relate them to other keys stay
 * ParseScenario's.
 * \param scenario the scenario JSON
 * \return (field, problem) of every key refused, in the scenario's order
 */
std::vector<std::pair<std::string, std::string>> RegisteredKeyProblems(
    const nlohmann::json& scenario);

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
 * \brief Choose the hosts (or, with servers, the GPUs) of a job's ranks.
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
 * With "servers", ParseScenario places jobs on GPUs with this function:
 * hostCount is then the GPU count and hostsPerLeaf the GPUs per server
 * (when a server has several), so that "packed" fills a server's GPUs
 * before the next server and "spread" goes round the servers, one rank each.
 *
 * ParseScenario shares hosts among jobs as follows: hosts listed explicitly
 * by any job are reserved first (explicit lists may overlap one another,
 * which makes those jobs share the hosts' NICs); then the jobs with a
 * placement strategy, in file order, each take hosts that neither an
 * explicit list nor an earlier job holds, so placed jobs never share hosts.
 * GPUs listed by "gpus" are never shared: two jobs listing the same GPU (or
 * a GPU another job lists as a host) are refused.
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
