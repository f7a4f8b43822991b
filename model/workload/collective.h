/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_H
#define COLLECTIVE_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup flux
 * \brief A collective operation among ranks, run over RDMA queue pairs.
 *
 * A collective is made of steps; in each step every rank sends to and
 * receives from peers, and a rank may only begin step k+1 once its step-k
 * data has arrived. Subclasses define the communication pattern (ring,
 * halving-doubling, all-to-all ...); this class keeps the per-rank step
 * records and turns them into phases: a phase is one step, from the first
 * rank starting it to the last rank finishing it.
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
        uint32_t run;  //!< which Start() of this collective, from 0
        uint32_t step; //!< step index
        uint32_t rank; //!< rank
        Time start;    //!< the rank posted its first send of the step
        Time end;      //!< the rank received all its data of the step
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
     * \param nics the NIC of each rank, in rank order
     * \param prio traffic class of the data
     * \param srcPorts UDP source port base; connection i uses srcPorts + i
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

    /** \return the number of ranks */
    uint32_t GetNRanks() const;

    /** \return every step record so far */
    const std::vector<StepRecord>& GetStepRecords() const;

    /** \return the queue pairs the collective communicates over */
    virtual std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const = 0;

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

    std::vector<Ptr<RdmaNic>> m_nics; //!< NIC of each rank
    uint32_t m_run;                   //!< current run, from 0

  private:
    std::vector<StepRecord> m_records;    //!< all step records
    std::size_t m_runBase;                //!< index of the current run's first record
    std::vector<uint32_t> m_stepFinished; //!< ranks done with each step of this run
    std::vector<Time> m_stepFirstStart;   //!< first start of each step of this run
    uint32_t m_nSteps;                    //!< steps per run
    bool m_failed;                        //!< a queue pair failed
    std::string m_failureReason;          //!< the first failure
    FailedCallback m_failedCb;            //!< failure report
    TracedCallback<uint32_t, uint32_t, Time, Time> m_phaseTrace; //!< finished phases
};

} // namespace ns3

#endif /* COLLECTIVE_H */
