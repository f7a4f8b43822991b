/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RUN_RESULTS_H
#define RUN_RESULTS_H

#include "ns3/sample-summary.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The measurements of one run, as plain data.
 *
 * The scenario runner fills it; ResultsWriter turns it into the results JSON
 * and CSV files. Times are simulated time unless said otherwise. Vectors are
 * written in the order they are given here, so filling them in a
 * deterministic order gives byte-identical results files.
 */
struct RunResults
{
    /// One phase (ring step) of a job: from the first rank starting the step
    /// to the last rank finishing it.
    struct PhaseTime
    {
        uint32_t iteration{0}; //!< iteration index, from 0
        uint32_t step{0};      //!< ring step within the iteration, from 0
                               //!< (steps 0..N-2 reduce-scatter, N-1..2N-3 all-gather)
        double startMs{0};     //!< when the first rank started the step, ms
        double durationMs{0};  //!< phase time, ms
    };

    /// Retransmissions and errors of the RDMA transport of a job, tenant or run.
    struct TransportCounters
    {
        uint64_t retransmissions{0};  //!< data packets sent again
        uint64_t repair{0};           //!< of them, copies that delivered data the receiver
                                      //!< did not have (lost, or discarded as out of order)
        uint64_t spurious{0};         //!< of them, the others: copies of data the receiver
                                      //!< already had or got from another copy (duplicates,
                                      //!< copies in flight at the end, copies lost themselves)
        uint64_t timeouts{0};         //!< retransmission timer expiries
        uint64_t errorCompletions{0}; //!< messages completed in error (retries exhausted)
    };

    /// Statistics of one-way packet latencies, us (NaN where there are none).
    struct LatencyStats
    {
        uint64_t count{0}; //!< data packets
        double mean{NAN};  //!< mean, us
        double p50{NAN};   //!< median, us
        double p99{NAN};   //!< 99th percentile, us
        double p999{NAN};  //!< 99.9th percentile, us
        double max{NAN};   //!< largest, us

        /**
         * \param s samples
         * \return their statistics
         */
        static LatencyStats Of(const SampleSummary& s)
        {
            LatencyStats l;
            l.count = s.Count();
            l.mean = s.CanonicalMean(); // (the same on any number of processes)
            l.p50 = s.P50();
            l.p99 = s.P99();
            l.p999 = s.P999();
            l.max = s.Max();
            return l;
        }
    };

    /// One training job.
    struct JobResult
    {
        std::string name;                 //!< the job's name in the scenario
        bool completed{false};            //!< whether every iteration finished
        std::string status{"unfinished"}; //!< "completed", "failed" (a queue pair
                                          //!< exhausted its retries) or "unfinished"
        std::string reason;               //!< why it failed (empty otherwise)
        TransportCounters transport;      //!< the job's queue pairs
        double jctMs{0};                  //!< first iteration start to last iteration end,
                                          //!< ms (meaningful when completed)
        std::vector<double> iterationMs;  //!< duration of each completed iteration, ms
        std::vector<PhaseTime> phases;    //!< every completed phase
        double gateWaitMs{0};             //!< time held by the scheduler, ms: ring steps
                                          //!< held at the gate (release - ready, summed
                                          //!< over steps, mean over ranks) plus iteration
                                          //!< starts held (cassini)
        uint32_t trafficClass{0};         //!< the class of the job's data at the end
        /// (time in ms, class) of each class the scheduler gave the job, the first at the start
        std::vector<std::pair<double, uint32_t>> classTimeline;
        std::vector<std::string> links; //!< the link directions its ring sends cross (ECMP
                                        //!< paths of its queue pairs' source ports at the
                                        //!< end), topology order

        /// The operations of one kind a replayed workload ran.
        struct Operations
        {
            std::string kind;  //!< a collective type ("all-reduce" ...) or "send-recv"
            uint64_t count{0}; //!< operations finished
            uint64_t bytes{0}; //!< their bytes (per rank buffer) summed
            double timeMs{0};  //!< their times (all members there to finished) summed, ms
        };

        bool replay{false};                 //!< the job replays a workload file
        std::vector<Operations> operations; //!< replay: per kind with operations
        double computeMs{0};                //!< replay: compute time per rank (mean over ranks), ms
        double commMs{0};                   //!< replay: communication in flight per rank (mean), ms
        double exposedCommMs{0};      //!< replay: of it, while the GPU did not compute (mean), ms
        LatencyStats packetLatencyUs; //!< one-way latency of the data packets it received
    };

    /// The seed each random source ran with (ScenarioConfig::seeds, else the seed).
    struct Seeds
    {
        uint32_t ecmp{1};       //!< switches' ECMP hash and the jobs' source ports
        uint32_t background{1}; //!< background tenants' arrivals, sizes and pairs
        uint32_t placement{1};  //!< "random" placement
    };

    /// Where the jobs' ECMP paths meet.
    struct EcmpCollisions
    {
        uint32_t sharedLinks{0}; //!< link directions crossed by ring sends of two or more jobs
        uint32_t jobPairs{0};    //!< pairs of jobs whose ring sends share a link direction
    };

    /// What the scheduler did.
    struct SchedulerInfo
    {
        std::vector<uint32_t> classes; //!< classes the policy gave the jobs, precedence first
        std::string order;             //!< class precedence at switches and NICs ("" default)
        uint64_t decisions{0};         //!< requests decided (gate requests, iteration starts,
                                       //!< static assignments)
        uint64_t held{0};              //!< of them, held
        uint64_t replans{0};           //!< plans computed
        uint64_t messages{0};          //!< control messages
        uint64_t classChanges{0};      //!< class changes of jobs' queue pairs
        uint64_t pathsMoved{0};        //!< connections given another source port
        uint64_t overdue{0};           //!< runs a guard put first, late against fifo's pace
        std::map<std::string, uint64_t> counters; //!< the policy's own counts (CountPolicy)
        std::string settings{"{}"};       //!< the scheduler keys the policy took, as a JSON object
                                          //!< of the values as written
        std::vector<std::string> ignored; //!< the scheduler keys the policy did not take
    };

    /// One finished flow (a background flow, or any message the runner reports).
    struct FlowResult
    {
        std::string tenant;    //!< name of the job or background entry it belongs to
        uint32_t src{0};       //!< sending host
        uint32_t dst{0};       //!< receiving host
        uint64_t sizeBytes{0}; //!< flow size, bytes
        double startMs{0};     //!< arrival time, ms
        double fctUs{0};       //!< flow completion time, us
        double idealFctUs{0};  //!< FCT of the same flow alone on the idle fabric, us
    };

    /// One background tenant.
    struct TenantResult
    {
        std::string name;    //!< the tenant's name in the scenario
        uint64_t started{0}; //!< flows started
        uint64_t failed{0};  //!< flows whose queue pair exhausted its retries
        /// When its Poisson arrivals stopped (its stop_ms, or the last job's
        /// end for one without), ms; NaN when they had not by the run's end,
        /// and for an incast.
        double arrivalsEndMs{std::numeric_limits<double>::quiet_NaN()};
        TransportCounters transport;  //!< the tenant's queue pairs
        LatencyStats packetLatencyUs; //!< one-way latency of the data packets it received
    };

    /// Fabric-wide counters over the run.
    struct NetworkCounters
    {
        uint64_t drops{0}; //!< packets dropped anywhere
        uint64_t pfcPauses{
            0};               //!< PFC pause decisions (XOFF) of all switches, refreshes not counted
        uint64_t ecnMarks{0}; //!< packets marked CE
        uint64_t cnps{0};     //!< congestion notification packets sent
        uint64_t retransmissions{0};         //!< data packets sent again
        uint64_t retransmissionsRepair{0};   //!< of them, copies accepted in order
        uint64_t retransmissionsSpurious{0}; //!< of them, the others (see TransportCounters)
        uint64_t timeouts{0};                //!< retransmission timer expiries
        uint64_t qpErrors{0};                //!< queue pairs that exhausted their retries
        uint64_t linkLosses{0};              //!< frames lost to link faults (loss_rate, down links)
        bool pfcWatchdog{false};             //!< the switch ports ran PFC watchdogs
        uint64_t pfcWatchdogStorms{0};       //!< PFC storms (or deadlocks) the watchdogs detected
        uint64_t pfcWatchdogRestorations{0}; //!< stormed queues restored
        uint64_t pfcWatchdogDrops{0};        //!< packets the watchdogs discarded ("drop")
        uint64_t pfcWatchdogForwarded{0};    //!< packets sent ignoring pauses ("forward")
        uint64_t linkDownDrops{0};    //!< of drops, packets switches dropped for a dead link:
                                      //!< queued at a port whose link went down, or with no
                                      //!< live next hop
        uint64_t linkStateChanges{0}; //!< link changes switches acted on (a port leaving or
                                      //!< rejoining its ECMP groups)
        uint64_t routeUpdates{0};     //!< recomputations of all routes (route_convergence_ms)
        /// PFC pause decisions by kind of the paused link direction (tier of its sender ->
        /// tier of the switch that paused it, e.g. "host->edge", "agg->edge"), in the
        /// order the kinds first appear in the topology; every kind that can be paused is listed
        std::vector<std::pair<std::string, uint64_t>> pfcPausesByTier;
        /// PFC pause decisions per link direction whose sender was paused at least once
        /// (e.g. "pod0-agg0->pod0-edge0": the edge switch paused the aggregation switch), in
        /// topology order
        std::vector<std::pair<std::string, uint64_t>> pfcPausesByLink;
    };

    /// One sample of a sending queue pair's congestion control.
    struct RateSample
    {
        double timeUs{0};      //!< when, us
        std::string owner;     //!< the job or background tenant
        uint32_t src{0};       //!< sending host
        uint32_t dst{0};       //!< receiving host
        uint32_t qpn{0};       //!< the sender's QP number
        double rateGbps{0};    //!< current rate, Gb/s
        double targetGbps{0};  //!< target rate, Gb/s
        double alpha{0};       //!< DCQCN's alpha, HPCC's utilisation U (NaN when none)
        double windowBytes{0}; //!< the window, bytes (NaN when the algorithm has none)
    };

    /// One sample of a link direction's egress queue.
    struct QueueSample
    {
        double timeUs{0};       //!< when, us
        std::string link;       //!< the link direction
        uint64_t queueBytes{0}; //!< bytes in the egress queue
        double utilization{0};  //!< share of the capacity used since the previous sample
    };

    /// Utilisation of one link direction.
    struct LinkUtilization
    {
        std::string link;      //!< a name for the link direction, e.g. "leaf0->spine1"
        double utilization{0}; //!< bytes sent / (capacity * simulated time), in [0, 1]
    };

    /// About the simulation itself.
    struct SimInfo
    {
        double simulatedMs{0};               //!< simulated time at the end of the run, ms
        double wallS{0};                     //!< wall-clock time of the run, s
        uint64_t events{0};                  //!< simulator events executed
        std::string stopReason{"completed"}; //!< "completed" (all jobs and traffic done),
                                             //!< "job_failed" (all done, some jobs failed),
                                             //!< "stop_ms" (safety stop), "stalled" (no
                                             //!< progress, see ScenarioConfig::stallMs) or
                                             //!< "cancelled"
        uint64_t rateUpdates{0};             //!< flow backend: rate computations
        uint64_t flowsAllocated{0};          //!< flow backend: flows over all rate computations
        std::vector<std::string> plugins;    //!< plugin libraries loaded in the process
    };

    std::string backend{"packet"}; //!< the model that ran: "packet" or "flow"
    /// Results fields the backend cannot know, as dotted paths ("network.pfc_pauses",
    /// "jobs[].transport"): absent from the results, never written as zero.
    std::vector<std::string> backendLimits;
    std::string policy;      //!< the scheduling policy that ran
    SchedulerInfo scheduler; //!< what the scheduler did
    std::string cc;   //!< the congestion control that ran: transport.cc, or ns3_defaults' factory
    uint32_t seed{1}; //!< the seed that ran
    Seeds seeds;      //!< the seed of each random source
    EcmpCollisions ecmp;                //!< where the jobs' paths meet
    std::vector<JobResult> jobs;        //!< one per scenario job, in scenario order
    std::vector<FlowResult> flows;      //!< every finished flow
    std::vector<TenantResult> tenants;  //!< one per background entry, in scenario order
    SampleSummary packetLatencyUs;      //!< one-way latency of data packets, us
    NetworkCounters network;            //!< fabric counters
    std::vector<LinkUtilization> links; //!< utilisation of link directions (any subset)
    SimInfo sim;                        //!< simulation info
    bool traces{false};                 //!< the scenario asked for traces
    std::vector<RateSample> rates;      //!< sampled queue-pair rates, in time order
    std::vector<QueueSample> queues;    //!< sampled queues, in time order

    /// One flow as the HPCC simulator's FCT file gives it (HpccFctText).
    struct HpccFctRecord
    {
        uint32_t sip{0};        //!< source address, that simulator's numbering (HpccNodeAddress)
        uint32_t dip{0};        //!< destination address
        uint16_t sport{0};      //!< UDP source port (the flow's ECMP entropy)
        uint32_t dport{0};      //!< destination port as the flow file gives it
        uint64_t sizeBytes{0};  //!< size
        uint64_t startNs{0};    //!< start time, ns
        uint64_t fctNs{0};      //!< start to the sender's last ACK, ns
        uint64_t idealFctNs{0}; //!< that simulator's ideal FCT, ns
    };

    bool hpccFct{false}; //!< the scenario asked for <stem>-fct.txt
    /// the flows of the background tenants, in the order their senders
    /// had their last ACK (when hpccFct)
    std::vector<HpccFctRecord> hpccFctRecords;
    /// what the scenario's imported files hold that has no counterpart here
    /// (ScenarioConfig::warnings; not written to the results file)
    std::vector<std::string> warnings;

    /**
     * \brief Set the packet latency of a job or a tenant.
     * \param owner a job's index, or the number of jobs plus a tenant's
     *        index (others: nobody's, ignored)
     * \param samples the latencies of the data packets it received, us
     */
    void SetPacketLatency(std::size_t owner, const SampleSummary& samples)
    {
        if (owner < jobs.size())
        {
            jobs[owner].packetLatencyUs = LatencyStats::Of(samples);
        }
        else if (owner - jobs.size() < tenants.size())
        {
            tenants[owner - jobs.size()].packetLatencyUs = LatencyStats::Of(samples);
        }
    }
};

} // namespace ns3

#endif /* RUN_RESULTS_H */
