/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_REPLAY_H
#define WORKLOAD_REPLAY_H

#include "workload-trace.h"

#include "ns3/callback.h"
#include "ns3/collective.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Runs one iteration of a workload graph (WorkloadTrace) at a time:
 * compute nodes as timers, collectives and point-to-point transfers over
 * the collectives it is given.
 *
 * A node runs once every node it depends on has finished on its rank. A
 * rank's GPU runs one compute node at a time (ready compute nodes queue in
 * node order); memory nodes only take their time. Communication runs beside
 * the compute, as on NCCL's own streams:
 *
 * - a group's collectives run on one communicator, one at a time and in
 *   order (as NCCL serialises the operations of a communicator): the k-th
 *   collective of a group starts once every member has reached it and the
 *   (k-1)-th has finished; it finishes for all members at once (at once
 *   when it moves nothing: no bytes, or a group of one rank);
 * - a SEND and its RECV (same ranks and tag, in order) form one transfer
 *   that starts once both sides have reached it, one transfer at a time per
 *   ordered rank pair.
 *
 * One Collective object serves each (group, collective type) and each
 * ordered rank pair with transfers, created at Setup() by the factories the
 * caller gives (which choose the algorithm, connect the ranks' NICs and
 * reserve source ports), so their queue pairs exist before the run starts.
 *
 * The replay accounts, per rank, compute time, communication time (a
 * communication node from ready to finished) and exposed communication
 * time (communication in flight while the GPU does not compute), and per
 * collective type the operations run and their time.
 */
class WorkloadReplay : public Object
{
  public:
    /**
     * Makes the collective of one (type, group): the group's member ranks,
     * ascending; the collective's rank i is ranks[i].
     */
    using CollectiveFactory =
        std::function<Ptr<Collective>(CollectiveType, const std::vector<uint32_t>&)>;

    /**
     * Makes the two-rank collective of one ordered rank pair (src, dst): its
     * Start(bytes) moves bytes from its rank 0 (src) to its rank 1 (dst).
     */
    using PeerFactory = std::function<Ptr<Collective>(uint32_t, uint32_t)>;

    /**
     * Told of every finished node, for timelines: rank, node, start, end
     * (communication nodes start when the rank reached them).
     */
    typedef Callback<void, uint32_t, const WorkloadNode&, Time, Time> NodeCallback;

    /// Operations of one collective type, over the replay so far.
    struct TypeStats
    {
        uint64_t count{0}; //!< operations finished
        uint64_t bytes{0}; //!< their bytes (comm_size) summed
        Time time;         //!< their times (start to finish) summed
    };

    /// When one node of one rank ran (RecordNodes).
    struct NodeRecord
    {
        uint32_t iteration; //!< the run's iteration
        uint32_t rank;      //!< the rank
        uint32_t node;      //!< the node's index in the rank's nodes
        Time start;         //!< it started (communication: the rank reached it)
        Time end;           //!< it finished
    };

    /// Time of one rank, over the replay so far.
    struct RankStats
    {
        Time compute;     //!< compute nodes (the GPU busy)
        Time comm;        //!< communication in flight (any node)
        Time exposedComm; //!< communication in flight while not computing
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Key the next scheduled event as a job's timer.
     *
     * Training jobs' timers (iterations, compute, buckets), replayed or
     * not, are one kind of keyed event for the OrderedScheduler.
     *
     * \param job the job's index
     */
    static void KeyJobTimer(uint32_t job);

    WorkloadReplay();
    ~WorkloadReplay() override;

    /**
     * \brief Create the collectives the workload needs.
     * \param trace the workload (checked by its reader)
     * \param collectives makes one collective per (type, group) in use
     * \param peers makes one transfer per ordered rank pair in use
     */
    void Setup(std::shared_ptr<const WorkloadTrace> trace,
               CollectiveFactory collectives,
               PeerFactory peers);

    /**
     * \brief Play the workload set up without time, as Run() plays it: a
     * node goes once the nodes it depends on are done, an operation of a
     * group or rank pair once every member reached it and the operation
     * before it there is over.
     * \return empty if every node ends; else one sentence naming a node
     *         that waits forever and the rank it waits for
     */
    std::string FindDeadlock() const;

    /**
     * \brief Run the workload once.
     * \param iteration the job's iteration (packets' JobStepTag)
     * \param done called once every node of every rank has finished
     */
    void Run(uint32_t iteration, Callback<void> done);

    /** \brief Stop: cancel pending compute and forget the run (a failed job). */
    void Stop();

    /** \param job the job index the collectives' packets carry */
    void SetJobId(uint32_t job);

    /** \param cb told of every finished node (nullptr-like callback: none) */
    void SetNodeCallback(NodeCallback cb);

    /**
     * \return every node run so far, in the order they finished (empty
     *         unless the RecordNodes attribute is true)
     */
    const std::vector<NodeRecord>& GetNodeRecords() const;

    /** \return every collective the replay runs, in creation order */
    const std::vector<Ptr<Collective>>& GetCollectives() const;

    /**
     * \return the collective that moves the most bytes per iteration (ties:
     *         the first created): what a scheduler that plans one
     *         collective per job plans
     */
    Ptr<Collective> GetPrincipal() const;

    /** \return bytes (comm_size) the principal collective runs on per iteration */
    uint64_t GetPrincipalBytes() const;

    /** \return runs of the principal collective per iteration */
    uint32_t GetPrincipalRuns() const;

    /**
     * \return payload bytes the ranks send over RDMA in one iteration, over
     *         every collective and transfer (what their queue pairs
     *         receive); known once the collectives are set up
     */
    double GetNetworkBytesPerIteration() const;

    /** \return compute and memory time of rank 0 per iteration */
    Time GetComputePerIteration() const;

    /** \return per collective type (index: CollectiveType) */
    const std::array<TypeStats, N_COLLECTIVE_TYPES>& GetTypeStats() const;

    /** \return the point-to-point transfers (SEND/RECV pairs) */
    const TypeStats& GetPeerStats() const;

    /** \return per rank */
    const std::vector<RankStats>& GetRankStats() const;

    /** \return the workload */
    const WorkloadTrace& GetTrace() const;

  protected:
    void DoDispose() override;

  private:
    /// One communicator (a group, or an ordered rank pair) and its operations.
    struct Comm
    {
        std::vector<uint32_t> ranks;                            //!< member ranks (pair: src, dst)
        std::array<Ptr<Collective>, N_COLLECTIVE_TYPES> byType; //!< group: per type
        Ptr<Collective> peer;                                   //!< pair: the transfer
        std::vector<std::vector<uint32_t>> members; //!< per operation: (rank, node) pairs flat
        std::vector<uint32_t> arrived;              //!< per operation: members arrived
        uint32_t next{0};                           //!< next operation to start
        bool busy{false};                           //!< an operation runs
        Time started;                               //!< when the running one started
    };

    /// Where a communication node runs.
    struct NodeComm
    {
        uint32_t comm{0}; //!< communicator
        uint32_t op{0};   //!< operation index in it
    };

    /// Build the communicators from the trace.
    void BuildComms();

    /** \return per rank and node: how many nodes it waits for */
    std::vector<std::vector<uint32_t>> DependencyCounts() const;

    /**
     * \brief A node's dependencies are met.
     * \param rank the rank
     * \param node the node
     */
    void NodeReady(uint32_t rank, uint32_t node);

    /**
     * \brief A node finished: release its dependents.
     * \param rank the rank
     * \param node the node
     * \param start when it started
     */
    void NodeDone(uint32_t rank, uint32_t node, Time start);

    /**
     * \brief Run the rank's next queued compute node if its GPU is idle.
     * \param rank the rank
     */
    void NextCompute(uint32_t rank);

    /**
     * \brief Start the communicator's next operation if everyone is there.
     * \param comm the communicator
     */
    void TryStart(uint32_t comm);

    /**
     * \brief The communicator's running operation finished.
     * \param self the replay
     * \param comm the communicator
     */
    static void OperationDone(WorkloadReplay* self, uint32_t comm);

    /**
     * \brief A compute or memory node's time is over.
     * \param self the replay
     * \param rank the rank
     * \param node the node
     */
    static void TimerDone(WorkloadReplay* self, uint32_t rank, uint32_t node);

    /**
     * \brief Add the time since the last change to the rank's counters.
     * \param rank the rank
     */
    void Account(uint32_t rank);

    /**
     * \brief The run is over: call its callback.
     * \param self the replay
     */
    static void Finish(WorkloadReplay* self);

    /// Key the next scheduled event for the OrderedScheduler.
    void KeyNextEvent() const;

    /**
     * \brief Keep a timer to cancel at Stop(), dropping the expired ones
     *        now and then so that the list stays as long as the timers
     *        pending, not as the nodes run.
     * \param timer the timer
     */
    void Track(EventId timer);

    std::shared_ptr<const WorkloadTrace> m_trace;  //!< the workload
    std::vector<Comm> m_comms;                     //!< communicators
    std::vector<std::vector<NodeComm>> m_nodeComm; //!< per rank, per node: its communicator
    std::vector<std::vector<std::vector<uint32_t>>> m_dependents; //!< per rank, per node
    std::vector<Ptr<Collective>> m_collectives; //!< every collective, creation order
    Ptr<Collective> m_principal;                //!< the one moving most bytes
    uint64_t m_principalBytes;                  //!< its bytes per iteration
    uint32_t m_principalRuns;                   //!< its runs per iteration
    /// Every operation of an iteration: its collective and buffer bytes.
    std::vector<std::pair<Ptr<Collective>, uint64_t>> m_networkBytes;
    uint32_t m_jobId; //!< job index (event keys)

    // state of the current run
    std::vector<std::vector<uint32_t>> m_waiting;  //!< per rank, per node: unfinished deps
    std::vector<std::vector<Time>> m_readyAt;      //!< per rank, per node: when it was ready
    std::vector<std::vector<uint32_t>> m_gpuQueue; //!< per rank: ready compute nodes
    std::vector<std::size_t> m_gpuHead;            //!< per rank: next of m_gpuQueue
    std::vector<bool> m_gpuBusy;                   //!< per rank: a compute node runs
    std::vector<uint32_t> m_inFlight;              //!< per rank: communication nodes in flight
    std::vector<Time> m_lastChange;                //!< per rank: last accounting time
    uint64_t m_left;                               //!< nodes not finished in this run
    bool m_running;                                //!< a run is in progress
    Callback<void> m_done;                         //!< end of the run
    std::vector<EventId> m_events;                 //!< pending compute timers
    std::size_t m_eventsPrune{64};                 //!< m_events' length to drop expired at
    NodeCallback m_nodeCb;                         //!< timeline hook
    bool m_recordNodes;                            //!< keep NodeRecords
    std::vector<NodeRecord> m_nodeRecords;         //!< nodes run (RecordNodes)
    uint32_t m_iteration;                          //!< iteration of the current run

    std::array<TypeStats, N_COLLECTIVE_TYPES> m_typeStats; //!< per collective type
    TypeStats m_peerStats;                                 //!< point-to-point transfers
    std::vector<RankStats> m_rankStats;                    //!< per rank
};

} // namespace ns3

#endif /* WORKLOAD_REPLAY_H */
