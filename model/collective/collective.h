/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_H
#define COLLECTIVE_H

#include "collective-gate.h"
#include "collective-type.h"
#include "rank-channels.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup flux-collective
 * \brief A collective operation among ranks, run over RDMA queue pairs and
 * the servers' GPU interconnect.
 *
 * A collective is made of steps; in each step every rank sends to and
 * receives from peers, and a rank may only begin step k+1 once its step-k
 * data has arrived. Subclasses define the communication pattern (ring,
 * halving-doubling, all-to-all ...); this class keeps the per-rank step
 * records and turns them into phases: a phase is one step, from the first
 * rank starting it to the last rank finishing it.
 *
 * A scheduler may put a CollectiveGate in front of the ranks' sends
 * (SetGate): subclasses hand every send to Submit(), which posts it at once
 * without a gate, and otherwise queues it per rank until the gate releases
 * it. The packets of every send carry a JobStepTag (SetJobId, SetIteration).
 *
 * A run is complete once every rank has received all its data; the ranks
 * learn it CompletionLatency later (0: at once). Under MPI (FabricRanks)
 * the ranks may belong to several processes: each process runs a copy of
 * the collective, posts only its own ranks' sends, and tells the others
 * when one of its ranks has finished a run or failed. The latency must then
 * cover that notice (FabricRanks::GetNoticeDelay plus a time step), so that
 * every copy completes the run at the same time.
 *
 * Ranks talk over RankChannels: two ranks of one server (SetServers) over
 * the GPU interconnect (IntraServerBandwidth, IntraServerLatency), every
 * other pair over Channels RDMA RC queue pairs between their NICs; only
 * these RDMA connections are listed by GetConnections() and GetQueuePairs().
 * A collective reports its CollectiveType and algorithm name
 * (CollectiveLibrary maps both to its TypeId).
 */
class Collective : public Object
{
  public:
    /// Called when the collective has finished on every rank.
    typedef Callback<void> DoneCallback;

    /// Called once, when a rank's queue pair fails: the reason.
    typedef Callback<void, const std::string&> FailedCallback;

    /// When one rank started and finished one step.
    struct StepRecord
    {
        // (the times first: 40 bytes rather than 48, one per rank and step)
        Time ready;       //!< the rank's first send of the step could go (its data was there)
        Time start;       //!< the rank posted its first send of the step (the gate released it)
        Time end;         //!< the rank received all its data of the step (only sent: posted it)
        uint32_t run;     //!< which Start() of this collective, from 0
        uint32_t step;    //!< step index
        uint32_t rank;    //!< rank
        bool idle{false}; //!< the rank has no part in the step (times are zero)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Collective();
    ~Collective() override;

    /**
     * \brief Connect the ranks (once, before the first Start()).
     * \param nics the NIC of each rank, in rank order (a NIC may serve
     *        several ranks of its server)
     * \param prio traffic class of the data
     * \param srcPorts UDP source port base; connection i uses srcPorts + i
     *        (GetNConnections() of them)
     */
    virtual void Setup(const std::vector<Ptr<RdmaNic>>& nics, uint8_t prio, uint16_t srcPorts) = 0;

    /**
     * \brief Run the collective once on a buffer of the given size.
     * \param bytes buffer bytes per rank
     * \param done called when every rank has finished
     */
    virtual void Start(uint64_t bytes, DoneCallback done) = 0;

    /** \return the number of steps of one run */
    virtual uint32_t GetNSteps() const = 0;

    /**
     * \param bytes buffer bytes per rank
     * \return bytes each rank sends in one run
     */
    virtual uint64_t GetBytesSentPerRank(uint64_t bytes) const = 0;

    /**
     * \param bytes buffer bytes per rank
     * \return payload bytes one run sends over RDMA connections, all ranks
     *         together (what their queue pairs receive; what ranks of one
     *         server exchange over the GPU interconnect is not counted);
     *         by default every rank's GetBytesSentPerRank()
     */
    virtual double GetNetworkBytes(uint64_t bytes) const;

    /** \return the number of ranks */
    uint32_t GetNRanks() const;

    /**
     * \brief Say which server each rank is on (before Setup()); ranks of one
     * server talk over the GPU interconnect, never through a NIC. Without
     * it, every rank is a server of its own.
     * \param serverOfRank the server of each rank, in rank order
     */
    void SetServers(const std::vector<uint32_t>& serverOfRank);

    /** \return the server of each rank (empty: every rank its own) */
    const std::vector<uint32_t>& GetServers() const;

    /**
     * \brief The RDMA connections (UDP source ports) Setup() will use on
     * nRanks ranks, with the servers and Channels set so far.
     * \param nRanks ranks
     * \return the number of connections: ports srcPorts .. srcPorts + it - 1
     */
    uint32_t GetNConnections(uint32_t nRanks) const;

    /**
     * \brief Why the collective cannot run on nRanks ranks with the servers
     * set so far (Setup() aborts with it; a scenario asks first).
     * \param nRanks ranks
     * \return the problem in one sentence, or empty when it can run
     */
    virtual std::string GetRanksProblem(uint32_t nRanks) const;

    /** \return which collective operation this is */
    CollectiveType GetCollectiveType() const;

    /** \return the algorithm's name ("ring", "direct", ...) */
    const std::string& GetAlgorithmName() const;

    /** \return bytes sent over the GPU interconnect so far */
    uint64_t GetIntraServerBytes() const;

    /**
     * \param step a step
     * \return the phase it belongs to
     */
    virtual JobStepTag::Phase GetPhase(uint32_t step) const;

    /**
     * \brief Put a gate in front of the ranks' sends (before the first Start()).
     * \param gate the gate; nullptr removes it
     */
    void SetGate(Ptr<CollectiveGate> gate);

    /** \return the gate, or nullptr */
    Ptr<CollectiveGate> GetGate() const;

    /**
     * \brief The gate lets the rank's pending request go.
     * \param rank the rank
     */
    void Release(uint32_t rank);

    /**
     * \param job the job index the packets' JobStepTag carries
     */
    void SetJobId(uint32_t job);

    /** \return the job index of the packets' JobStepTag */
    uint32_t GetJobId() const;

    /**
     * \param iteration the job's iteration the next runs belong to (JobStepTag)
     */
    void SetIteration(uint32_t iteration);

    /** \return the job's iteration of the current run */
    uint32_t GetIteration() const;

    /** \return the current run, from 0 (runs completed so far) */
    uint32_t GetRun() const;

    /**
     * \return time the ranks' steps were held at the gate (release minus
     *         ready), summed over steps and averaged over ranks
     */
    Time GetGateWait() const;

    /** \return every step record so far */
    const std::vector<StepRecord>& GetStepRecords() const;

    /**
     * \return the queue pairs the collective communicates over: every
     *         connection's sender, then every connection's receiver
     */
    virtual std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const;

    /// One connection of the collective: a sending rank's queue pair and its peer.
    struct Connection
    {
        uint32_t src;                //!< the sending rank
        uint32_t dst;                //!< the receiving rank
        Ptr<RdmaQueuePair> sender;   //!< the queue pair at src
        Ptr<RdmaQueuePair> receiver; //!< its peer at dst
    };

    /**
     * \return the connections data flows over, in the order of their source
     *         ports (connection i was given srcPorts + i at Setup())
     */
    virtual std::vector<Connection> GetConnections() const;

    /** \return transport counters over the collective's queue pairs */
    RdmaQueuePair::Counters GetCounters() const;

    /**
     * \param cb called once when a queue pair of the collective enters the
     *        error state: the collective cannot finish any more
     */
    void SetFailedCallback(FailedCallback cb);

    /** \return true once a queue pair of the collective has failed */
    bool HasFailed() const;

    /** \return why the collective failed (empty while it has not) */
    const std::string& GetFailureReason() const;

    /**
     * TracedCallback signature for finished phases.
     * \param [in] run which run of the collective
     * \param [in] step the step
     * \param [in] start when the first rank started it
     * \param [in] end when the last rank finished it
     */
    typedef void (*PhaseTracedCallback)(uint32_t run, uint32_t step, Time start, Time end);

  protected:
    void DoDispose() override;

    /**
     * \brief Name what the collective is (subclasses, in their constructor).
     * \param type the collective operation
     * \param algorithm the algorithm's name
     */
    void SetKind(CollectiveType type, const std::string& algorithm);

    /**
     * \param nRanks ranks
     * \return the rank pairs the collective sends over (none by default)
     */
    virtual std::vector<RankChannels::Link> GetLinks(uint32_t nRanks) const;

    /**
     * \brief Create the links (RankChannels) and learn the local ranks
     *        (SetupRanks); subclasses call it from Setup().
     * \param nics the NIC of each rank
     * \param links GetLinks(nics.size())
     * \param prio traffic class
     * \param srcPorts UDP source port of connection 0
     */
    void ConnectRanks(const std::vector<Ptr<RdmaNic>>& nics,
                      const std::vector<RankChannels::Link>& links,
                      uint8_t prio,
                      uint16_t srcPorts);

    /** \return the links, or nullptr before ConnectRanks() */
    Ptr<RankChannels> GetChannels() const;

    /**
     * \brief Send one message over a link (from DoPost()).
     * \param link the link
     * \param bytes message bytes
     * \param step the step (JobStepTag)
     * \param chunk the chunk (JobStepTag)
     */
    void SendMessage(uint32_t link, uint64_t bytes, uint32_t step, uint32_t chunk);

    /**
     * \brief A whole message of a link arrived at its receiving rank.
     * \param link the link
     */
    virtual void MessageReceived(uint32_t link);

    /**
     * \brief A rank has no part in a step: it counts as finished.
     * \param rank the rank
     * \param step the step
     */
    void RecordIdle(uint32_t rank, uint32_t step);

    /**
     * \brief Prepare the records of a new run.
     * \param nRanks ranks
     * \param nSteps steps per run
     */
    void BeginRun(uint32_t nRanks, uint32_t nSteps);

    /**
     * \brief A rank started a step.
     * \param rank the rank
     * \param step the step
     */
    void RecordStart(uint32_t rank, uint32_t step);

    /**
     * \brief Hand a rank's send to the gate (or post it at once without one).
     * \param rank the rank
     * \param step the step
     * \param chunk the chunk of the step
     * \param bytes bytes of the chunk
     * \param stepBytes bytes of the whole step (what a STEP gate is told)
     */
    void Submit(uint32_t rank, uint32_t step, uint32_t chunk, uint64_t bytes, uint64_t stepBytes);

    /**
     * \brief Post a send released by the gate.
     * \param rank the rank
     * \param step the step
     * \param chunk the chunk of the step
     */
    virtual void DoPost(uint32_t rank, uint32_t step, uint32_t chunk) = 0;

    /**
     * \param step the step
     * \param chunk the chunk
     * \return the tag of the packets of that send
     */
    JobStepTag MakeTag(uint32_t step, uint32_t chunk) const;

    /**
     * \brief A run begins: tell the gate.
     * \param bytes buffer bytes per rank
     */
    void NotifyRunStarted(uint64_t bytes);

    /// The run finished on every rank: tell the gate.
    void NotifyRunFinished();

    /**
     * \brief A rank finished a step; fires the Phase trace when it was the last.
     * \param rank the rank
     * \param step the step
     */
    void RecordEnd(uint32_t rank, uint32_t step);

    /**
     * \brief A queue pair of the collective failed; the first failure ends
     * the collective (as a communicator aborts) and is reported.
     * \param reason what failed, for the results
     */
    void NotifyFailed(const std::string& reason);

    /**
     * \brief Learn which ranks this process simulates, and listen to the
     *        other processes; subclasses call it at the end of Setup().
     */
    void SetupRanks();

    /**
     * \param rank a rank
     * \return whether this process simulates it (always, without MPI)
     */
    bool IsLocalRank(uint32_t rank) const;

    /**
     * \brief The run is complete and every rank knows it: tell the gate and
     *        count the run. Subclasses add their own ending (the callback).
     */
    virtual void RunComplete();

    std::vector<Ptr<RdmaNic>> m_nics; //!< NIC of each rank
    uint32_t m_run;                   //!< current run, from 0

  private:
    /// A send waiting at the gate.
    struct Pending
    {
        uint32_t step;      //!< the step
        uint32_t chunk;     //!< the chunk
        uint64_t bytes;     //!< chunk bytes
        uint64_t stepBytes; //!< step bytes
    };

    /// Gate state of one rank.
    struct RankGate
    {
        std::deque<Pending> queue; //!< sends in posting order
        uint32_t releasedStep{0};  //!< step released (STEP granularity), valid if stepOpen
        bool stepOpen{false};      //!< releasedStep lets its chunks go
        bool asking{false};        //!< a request is with the gate
        bool granted{false};       //!< the gate released the head
        bool pumping{false};       //!< Pump() is running for this rank
    };

    /**
     * \brief Post what the gate allows of a rank's queue, ask for the rest.
     * \param rank the rank
     */
    void Pump(uint32_t rank);

    /**
     * \brief A rank finished the current run.
     * \param end when
     */
    void CountRankDone(Time end);

    /// Complete the run (scheduled CompletionLatency after its last rank).
    void CompleteRun();

    /**
     * \brief Fail the collective (scheduled CompletionLatency after the failure).
     * \param reason why
     */
    void ApplyFailure(std::string reason);

    /**
     * \brief A notice from another process (FabricRanks).
     * \param words kind, then what it says
     */
    void NoticeReceived(const std::vector<uint64_t>& words);

    /**
     * \brief A queue pair of a link exhausted its retries.
     * \param link the link
     * \param qp the queue pair
     */
    void LinkFailed(uint32_t link, Ptr<RdmaQueuePair> qp);

    /**
     * \brief A rank finished or skipped a step.
     * \param rank the rank
     * \param step the step
     * \param now when (a finish), or a zero time (skipped)
     */
    void FinishStep(uint32_t rank, uint32_t step, Time now);

    /**
     * \brief A rank's step could go.
     * \param rank the rank
     * \param step the step
     */
    void RecordReady(uint32_t rank, uint32_t step);

    Ptr<CollectiveGate> m_gate;           //!< the gate, or nullptr
    std::vector<RankGate> m_rankGates;    //!< per rank gate state
    uint32_t m_jobId;                     //!< job index in the tags
    uint32_t m_iteration;                 //!< iteration in the tags
    std::vector<StepRecord> m_records;    //!< all step records
    std::size_t m_runBase;                //!< index of the current run's first record
    std::vector<uint32_t> m_stepFinished; //!< ranks done with each step of this run
    std::vector<Time> m_stepFirstStart;   //!< first start of each step of this run
    uint32_t m_nSteps;                    //!< steps per run
    bool m_failed;                        //!< a queue pair failed
    std::string m_failureReason;          //!< the first failure
    FailedCallback m_failedCb;            //!< failure report
    TracedCallback<uint32_t, uint32_t, Time, Time> m_phaseTrace; //!< finished phases
    Time m_completionLatency;          //!< from the last rank's end to every rank knowing
    std::vector<bool> m_localRank;     //!< per rank: simulated by this process
    uint32_t m_ranksDone;              //!< ranks that finished the current run
    Time m_lastEnd;                    //!< latest end of a rank in the current run
    uint32_t m_topic;                  //!< FabricRanks notice topic
    bool m_distributed;                //!< the ranks span several processes
    std::vector<uint32_t> m_stepsLeft; //!< per rank: steps of this run not yet finished
    std::vector<Time> m_rankEnd;       //!< per rank: latest end in this run
    std::vector<uint32_t> m_servers;   //!< server of each rank (empty: its own)
    Ptr<RankChannels> m_channels;      //!< the links
    uint32_t m_nChannels;              //!< RDMA queue pairs per inter-server link
    DataRate m_intraRate;              //!< GPU interconnect rate per GPU
    Time m_intraLatency;               //!< GPU interconnect latency
    CollectiveType m_type;             //!< the operation
    std::string m_algorithm;           //!< the algorithm's name
};

} // namespace ns3

#endif /* COLLECTIVE_H */
