/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MEMORY_ESTIMATE_H
#define MEMORY_ESTIMATE_H

#include "scenario-config.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The memory a scenario will need, estimated from its configuration
 * before anything is built, and the memory the machine has for it.
 *
 * The estimate adds, with per-item costs measured as peak resident memory
 * of the runner (release build, ns-3 3.37, x86-64; see
 * test/python/test_memory_estimate.py):
 *  - the process itself (ns-3 and the module loaded, and the allocator's
 *    own arenas: tcmalloc's take about 5 MB more than the C library's):
 *    kBaseBytes;
 *  - the fabric: kCableBytes per cable (its two devices and channel, the
 *    switch port and, for a host cable, the host's node and NIC),
 *    kHostBytes per host (the runner's per-host packet accounting) and
 *    kRouteBytes per switch and host (ECMP routes);
 *  - the jobs: kStepRecordBytes per rank and ring step run (the per-step
 *    records behind the phases), for as many iterations as can run before
 *    stop_ms at line rate, and kQueuePairBytes per rank;
 *  - the background: kFlowBytes per flow (expected Poisson arrivals before
 *    the tenant's stop, incast senders times bursts);
 *  - the traces: kSampleBytes per sample (sampled queue pairs and links
 *    times samples before stop_ms);
 *  - the packets switch buffers can hold: kPacketBytes per frame of the
 *    smaller of the switches' buffers and what the workloads can have in
 *    flight at once (a ring step of every job, a burst of every incast, four
 *    mean-sized flows per host of every Poisson tenant).
 */
class MemoryEstimate
{
  public:
    /// One part of the estimate.
    struct Part
    {
        std::string field; //!< the scenario field it comes from ("topology", "jobs[0]")
        std::string what;  //!< what it is, for messages
        double bytes;      //!< estimated bytes
    };

    static constexpr double kBaseBytes = 27e6;     //!< the process, ns-3 loaded
    static constexpr double kCableBytes = 6e3;     //!< per cable (devices, channel, port, host)
    static constexpr double kHostBytes = 150;      //!< per host (latency callback, QP owners)
    static constexpr double kRouteBytes = 8;       //!< per switch and host (EcmpRouteTable slot)
    static constexpr double kStepRecordBytes = 80; //!< per rank and ring step run
    static constexpr double kQueuePairBytes = 2e3; //!< per queue pair of a job
    static constexpr double kFlowBytes = 1e3;      //!< per background flow
    static constexpr double kSampleBytes = 128;    //!< per trace sample
    static constexpr double kPacketBytes = 600;    //!< per frame held in a switch buffer

    /**
     * \param cfg a scenario validated by ParseScenario
     * \param fluid a run at flow level, which holds no frames in switch
     *        buffers and samples no traces
     * \return the parts of the estimate, the process first
     */
    static std::vector<Part> Parts(const ScenarioConfig& cfg, bool fluid = false);

    /**
     * \param cfg a scenario validated by ParseScenario
     * \param fluid a run at flow level
     * \return the estimated peak memory of its run, bytes
     */
    static double Bytes(const ScenarioConfig& cfg, bool fluid = false);

    /**
     * \brief The memory a run may use: FLUX_MEMORY_LIMIT_MB (MB, 10^6 bytes)
     * when set, else MemAvailable of /proc/meminfo, lowered to what the
     * process's cgroup (v2 memory.max - memory.current) leaves.
     * \param source receives where the figure comes from, for messages
     * \return bytes; negative when unknown or when the check is off
     *         (FLUX_MEMORY_LIMIT_MB=0)
     *
     * Throws ScenarioError (field FLUX_MEMORY_LIMIT_MB) for a value that is
     * not a non-negative number.
     */
    static double AvailableBytes(std::string& source);

    /**
     * \brief Refuse a scenario whose estimate exceeds the available memory.
     * \param cfg a scenario validated by ParseScenario
     * \param fluid a run at flow level
     *
     * Throws ScenarioError naming the field of the largest part, with the
     * estimate and the available memory, e.g. `topology: needs an estimated
     * 20.7 GB of memory (20.7 GB for the fabric: 1048576 hosts, ...), more than
     * the 8.2 GB available (MemAvailable; FLUX_MEMORY_LIMIT_MB overrides it)`.
     */
    static void Check(const ScenarioConfig& cfg, bool fluid = false);

    /**
     * \param bytes a size
     * \return the size written for people ("812 MB", "25.3 GB")
     */
    static std::string Format(double bytes);
};

} // namespace ns3

#endif /* MEMORY_ESTIMATE_H */
