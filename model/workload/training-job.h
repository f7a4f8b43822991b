/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_JOB_H
#define TRAINING_JOB_H

#include "workload-replay.h"

#include "ns3/collective.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief A data-parallel training job: iterations of compute, then allreduce.
 *
 * Each iteration computes for ComputeTime and allreduces GradientBytes with
 * its collective. With Buckets = B > 1 the gradient is split into B buckets
 * that become ready one after another during the compute (after each 1/B of
 * it) and are allreduced in order, one at a time, while the compute goes on,
 * as PyTorch DDP overlaps communication with the backward pass. An
 * iteration ends when the last bucket's allreduce has finished; the next
 * iteration starts right away. JCT is from the first iteration's start to
 * the last iteration's end.
 */
class TrainingJob : public Object
{
  public:
    /// Called when the last iteration has ended.
    typedef Callback<void, Ptr<TrainingJob>> FinishedCallback;

    /**
     * Asked at the start of each iteration (job, iteration index): how long
     * the iteration's compute waits (a scheduler's time shift; zero: none).
     */
    typedef Callback<Time, Ptr<TrainingJob>, uint32_t> IterationGateCallback;

    /// Start and end of one iteration.
    struct Iteration
    {
        Time start;   //!< the iteration began (the iteration gate was asked)
        Time end;     //!< last allreduce finished
        Time compute; //!< its compute began: start plus the iteration gate's wait
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    TrainingJob();
    ~TrainingJob() override;

    /**
     * \brief Give the job its name and its collective (already set up on the
     * ranks' NICs).
     * \param name the job's name
     * \param collective the collective run each iteration
     */
    void Setup(const std::string& name, Ptr<Collective> collective);

    /**
     * \brief Make the job replay a workload each iteration (in place of
     * Setup()).
     * \param name the job's name
     * \param replay the workload, its collectives set up
     */
    void SetWorkload(const std::string& name, Ptr<WorkloadReplay> replay);

    /** \return the replayed workload, or nullptr */
    Ptr<WorkloadReplay> GetWorkload() const;

    /** \brief Schedule the first iteration at StartTime. */
    void Start();

    /** \param cb called when the job has finished */
    void SetFinishedCallback(FinishedCallback cb);

    /**
     * \param cb called when the job has failed: its collective lost a queue
     *        pair (retries exhausted), so the job stops, as a training job
     *        whose communicator aborts
     */
    void SetFailedCallback(FinishedCallback cb);

    /** \return true once the job has failed */
    bool HasFailed() const;

    /** \return why the job failed (empty while it has not) */
    const std::string& GetFailureReason() const;

    /**
     * \param cb asked at every iteration start how long the compute waits;
     *        the wait is part of the iteration
     */
    void SetIterationGate(IterationGateCallback cb);

    /** \return time iterations waited for the iteration gate, in total */
    Time GetIterationGateWait() const;

    /** \return compute time per iteration */
    Time GetComputeTime() const;
    /** \return gradient bytes per iteration */
    uint64_t GetGradientBytes() const;
    /** \return start of the first iteration */
    Time GetStartTime() const;

    /** \return the job's name */
    const std::string& GetName() const;
    /**
     * \return the collective: the job's one collective, or the principal of
     *         its workload (the collective a scheduler plans)
     */
    Ptr<Collective> GetCollective() const;
    /**
     * \return every collective the job runs: its one collective, or every
     *         collective of its workload (creation order)
     */
    std::vector<Ptr<Collective>> GetCollectives() const;
    /**
     * \return the RDMA connections of every collective, in GetCollectives()
     *         order (each collective's in its own order)
     */
    std::vector<Collective::Connection> GetConnections() const;
    /** \return the queue pairs of every collective (GetCollectives() order) */
    std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const;
    /** \return the completed iterations */
    const std::vector<Iteration>& GetIterations() const;
    /** \return true once every iteration has ended */
    bool IsFinished() const;
    /** \return the number of iterations to run */
    uint32_t GetNIterations() const;
    /** \return gradient buckets per iteration */
    uint32_t GetNBuckets() const;
    /** \return JCT: first iteration start to last iteration end (zero until finished) */
    Time GetJct() const;

    /**
     * TracedCallback signature for iteration ends.
     * \param [in] iteration index
     * \param [in] start when it began
     * \param [in] end when it ended
     */
    typedef void (*IterationTracedCallback)(uint32_t iteration, Time start, Time end);

  protected:
    void DoDispose() override;

  private:
    /// Key the next event scheduled for the OrderedScheduler (the job's timers).
    void KeyNextEvent() const;

    /// Begin an iteration's compute.
    void StartIteration();
    /// The iteration's compute begins (after the iteration gate).
    void BeginCompute();
    /// One more bucket's gradients are ready.
    void BucketReady();
    /// Start the next ready bucket's allreduce if none runs.
    void TryAllreduce();
    /// The running allreduce finished.
    void AllreduceDone();
    /// The iteration's communication finished.
    void IterationDone();
    /**
     * \brief The collective failed.
     * \param reason why
     */
    void CollectiveFailed(const std::string& reason);

    std::string m_name;           //!< name
    Ptr<Collective> m_collective; //!< the collective
    Ptr<WorkloadReplay> m_replay; //!< the replayed workload, or nullptr
    uint32_t m_iterations;        //!< iterations to run
    Time m_compute;               //!< compute time per iteration
    uint64_t m_bytes;             //!< gradient bytes per iteration
    uint32_t m_buckets;           //!< buckets per iteration
    Time m_startTime;             //!< start of the first iteration

    std::vector<Iteration> m_done;                         //!< completed iterations
    Time m_iterStart;                                      //!< start of the current iteration
    Time m_computeStart;                                   //!< its compute's start
    uint32_t m_ready;                                      //!< buckets ready in this iteration
    uint32_t m_reduced;                                    //!< buckets reduced in this iteration
    bool m_reducing;                                       //!< an allreduce runs
    std::vector<EventId> m_events;                         //!< pending compute events
    FinishedCallback m_finished;                           //!< job end
    FinishedCallback m_failedCb;                           //!< job failure
    bool m_failed;                                         //!< the job failed
    std::string m_failureReason;                           //!< why it failed
    IterationGateCallback m_iterationGate;                 //!< scheduler's iteration gate
    Time m_iterationWait;                                  //!< time held by it
    TracedCallback<uint32_t, Time, Time> m_iterationTrace; //!< iteration ends
};

} // namespace ns3

#endif /* TRAINING_JOB_H */
