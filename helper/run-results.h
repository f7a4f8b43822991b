/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_RUN_RESULTS_H
#define FLUX_RUN_RESULTS_H

#include "ns3/sample-summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
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

    /// One training job.
    struct JobResult
    {
        std::string name;                //!< the job's name in the scenario
        bool completed{false};           //!< whether every iteration finished
        double jctMs{0};                 //!< first iteration start to last iteration end,
                                         //!< ms (meaningful when completed)
        std::vector<double> iterationMs; //!< duration of each completed iteration, ms
        std::vector<PhaseTime> phases;   //!< every completed phase
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

    /// Fabric-wide counters over the run.
    struct NetworkCounters
    {
        uint64_t drops{0}; //!< packets dropped anywhere
        uint64_t pfcPauses{
            0};               //!< PFC pause decisions (XOFF) of all switches, refreshes not counted
        uint64_t ecnMarks{0}; //!< packets marked CE
        uint64_t cnps{0};     //!< congestion notification packets sent
        uint64_t retransmissions{0}; //!< data packets sent again
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
                                             //!< "stop_ms" (safety stop) or "cancelled"
    };

    std::string policy;                 //!< the scheduling policy that ran
    uint32_t seed{1};                   //!< the seed that ran
    std::vector<JobResult> jobs;        //!< one per scenario job, in scenario order
    std::vector<FlowResult> flows;      //!< every finished flow
    SampleSummary packetLatencyUs;      //!< one-way latency of data packets, us
    NetworkCounters network;            //!< fabric counters
    std::vector<LinkUtilization> links; //!< utilisation of link directions (any subset)
    SimInfo sim;                        //!< simulation info
};

} // namespace ns3

#endif /* FLUX_RUN_RESULTS_H */
