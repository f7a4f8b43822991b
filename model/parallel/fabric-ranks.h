/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_RANKS_H
#define FABRIC_RANKS_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-parallel
 * \brief The fabric split across MPI processes (ranks): which nodes this
 *        process simulates, frames to the others, results to rank 0.
 *
 * Every process builds the whole topology; a node belongs to the process
 * whose rank is its system id (NodeContainer::Create(n, systemId), which
 * FabricTopologyHelper::SetRanks() assigns by pod or leaf group). A link
 * whose ends belong to two processes carries its frames as MPI messages
 * (PfcChannel); its propagation delay is the lookahead of ns-3's
 * distributed simulator.
 *
 * Without MPI (ns-3 configured without --enable-mpi, or MpiInterface not
 * enabled) there is one process, rank 0, and every node is local.
 */
class FabricRanks
{
  public:
    /** \return whether this build of the module has MPI */
    static bool IsAvailable();

    /** \return whether MPI is enabled (MpiInterface::Enable was called) */
    static bool IsEnabled();

    /** \return this process's rank (0 without MPI) */
    static uint32_t GetRank();

    /** \return the number of processes (1 without MPI) */
    static uint32_t GetNRanks();

    /**
     * \param node a node
     * \return whether this process simulates it
     */
    static bool IsLocal(const Node& node);

    /**
     * \brief Start MPI and ns-3's distributed simulator.
     *
     * Call first thing in main(): it selects the simulator implementation
     * (DistributedSimulatorImpl, or NullMessageSimulatorImpl when
     * nullMessage is true or the environment has
     * FLUX_MPI_SYNC=null-message) and sets the OrderedScheduler.
     *
     * \param argc main's argc
     * \param argv main's argv
     * \param nullMessage use the null-message synchroniser
     * \return an empty string, or why MPI cannot be used
     */
    static std::string Enable(int* argc, char*** argv, bool nullMessage = false);

    /**
     * \brief Select the distributed simulator and the OrderedScheduler again
     *        (after Config::Reset, which resets the simulator type); does
     *        nothing unless MPI is enabled.
     */
    static void SelectSimulator();

    /**
     * \return whether this process was started by mpirun (Open MPI, MPICH
     *         or PMIx set their variables in its environment)
     */
    static bool LaunchedByMpirun();

    /// End MPI (after Simulator::Destroy); does nothing without MPI.
    static void Disable();

    /**
     * \brief Send a frame to a device simulated by another process.
     * \param frame the frame
     * \param rxTime when the other process delivers it to the device's
     *        receive callback (InstallReceiver)
     * \param node the receiving node's id
     * \param ifIndex the receiving device's index on its node
     */
    static void SendFrame(Ptr<Packet> frame, Time rxTime, uint32_t node, uint32_t ifIndex);

    /**
     * \brief Take frames for a local device from other processes.
     * \param device the device (local)
     * \param cb what to call with each frame, at its rxTime
     */
    static void InstallReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> cb);

    /// What a process is told of another's state: 64-bit words.
    typedef Callback<void, const std::vector<uint64_t>&> NoticeCallback;

    /**
     * \brief Listen to a kind of notice from the other processes.
     *
     * Replicated objects (a collective's completion, a job's failure) call
     * this in the same order on every process, so the returned topic names
     * the same listener everywhere.
     *
     * \param cb what to call, at the notice's delivery time
     * \return the topic to Publish() under
     */
    static uint32_t Subscribe(NoticeCallback cb);

    /**
     * \brief Tell every other process something that happened here now.
     *
     * The notice is delivered GetNoticeDelay() from now, as early as ns-3's
     * distributed simulator allows. Does nothing on one process.
     *
     * \param topic from Subscribe()
     * \param words what to tell (at most 200 words)
     */
    static void Publish(uint32_t topic, const std::vector<uint64_t>& words);

    /**
     * \return how long after Publish() a notice is delivered: the lookahead
     *         (the least delay of a link between two processes) plus one time
     *         step; zero on one process
     */
    static Time GetNoticeDelay();

    /**
     * \brief Get ready to run: find the lookahead, and give every process a
     *        mailbox for notices (a node of its own with a device that takes
     *        MPI messages). Call once the fabric is built, before
     *        Simulator::Run; does nothing on one process.
     * \return an empty string, or why the fabric cannot run split so
     *         (the null-message synchroniser needs a link between every two
     *         processes: notices travel along them)
     */
    static std::string Prepare();

    /**
     * \brief Add up counters over all processes.
     * \param values this process's values (the same length everywhere)
     * \return on rank 0 the sums, elsewhere this process's values
     */
    static std::vector<uint64_t> SumToRoot(const std::vector<uint64_t>& values);

    /**
     * \brief Collect values from all processes.
     * \param values this process's values (any length)
     * \return on rank 0 all values, rank 0's first, then rank 1's...;
     *         elsewhere this process's values
     */
    static std::vector<double> GatherToRoot(const std::vector<double>& values);
};

} // namespace ns3

#endif /* FABRIC_RANKS_H */
