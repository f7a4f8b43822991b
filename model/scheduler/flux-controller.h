/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_CONTROLLER_H
#define FLUX_CONTROLLER_H

#include "flux-gate.h"
#include "job-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The `flux` policy: a logically central controller that plans, per
 * ring step, which job's communication crosses each contended link when, and
 * the gates (FluxGate) in the jobs' ranks that carry the plan out.
 *
 * What it knows: each job's placement and the link directions its ring sends
 * cross under the fabric's ECMP hashing (JobInfo), the bytes of each run of
 * its collective, and, from the gates' messages, when runs start and end,
 * from which it measures each job's compute gap and its throughput.
 *
 * The plan (Replan()): every job contributes one task, its current run if it
 * is communicating, else its next run, predicted to become ready at its last
 * end plus its measured compute gap. A task's service time is its remaining
 * bytes at the job's measured throughput. Tasks are ordered by
 * shortest-remaining-service first with ageing — key = service - time waited
 * since ready (a future task: service + time until ready) — and the task
 * being served keeps its place unless another key is lower by more than
 * Hysteresis. They are then list-scheduled: a task starts at its ready time,
 * or when the last task before it that shares a link direction with it is
 * planned to end. Each gate gets its task's start (releaseAt) and a class: the
 * number of earlier tasks that share a link with it, so the first holder is in
 * the top class, capped at the last class.
 *
 * Why this rule: a ring waits for its slowest step, so sharing a link evenly
 * (what DCQCN and FIFO queues do) makes every sharing job as slow as the
 * sum of their transfers; serving one job's allreduce after the other lets
 * the first resume its compute while the second sends, which is the
 * interleaving CASSINI gets from time shifts, but decided per step from
 * measurements, so it follows jobs whose periods differ or drift and jobs
 * that come and go. Shortest-first minimises the mean completion of the
 * transfers waiting on a link; ageing by the waited time bounds how long any
 * job can be passed over (a waiting key falls one second per second, a new
 * task's key is at least zero), so no tenant starves; the hysteresis keeps
 * equal jobs from swapping at every step.
 *
 * Cost per decision: a gate decides locally from its last plan in O(1); a
 * re-plan (at every run start and end message, and every ReplanInterval
 * while a job communicates) costs O(J log J + J^2) for J jobs, plus one
 * control message per job whose plan changed.
 */
class FluxController : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FluxController();
    ~FluxController() override;

    std::string GetPolicyName() const override;
    bool GetQueueDiscFactory(ObjectFactory& factory) const override;
    bool GetQpArbiterFactory(ObjectFactory& factory) const override;
    void Start() override;
    bool DecidesPerRank() const override;

    /**
     * \brief A gate's message: a run started (arrives after ControlLatency).
     * \param job the job
     * \param run the run
     * \param bytes buffer bytes per rank
     */
    void SendRunStarted(uint32_t job, uint32_t run, uint64_t bytes);

    /**
     * \brief A gate's message: a run finished (arrives after ControlLatency).
     * \param job the job
     * \param run the run
     */
    void SendRunFinished(uint32_t job, uint32_t run);

    /**
     * \brief A gate decided a request.
     * \param held whether it held it
     */
    void CountDecision(bool held);

    /// Compute a new plan and send what changed to the gates.
    void Replan();

    /**
     * \param job a job index
     * \return its gate
     */
    Ptr<FluxGate> GetGate(uint32_t job) const;

    /**
     * TracedCallback signature for plans.
     * \param [in] job the job
     * \param [in] run the run the plan is for
     * \param [in] releaseAt its planned start
     * \param [in] cls its class
     */
    typedef void (*PlanTracedCallback)(uint32_t job, uint32_t run, Time releaseAt, uint8_t cls);

  protected:
    void DoDispose() override;
    bool UsesOwnClasses() const override;

  private:
    /// The controller's view of a job.
    struct View
    {
        bool communicating{false};      //!< a run is in progress
        bool done{false};               //!< the job finished or failed
        uint32_t run{0};                //!< the current run, or the next one when idle
        Time ready;                     //!< start of the current run
        double bytes{0};                //!< bytes each rank sends in the current run
        double served{0};               //!< of those, sent as far as the plan knows
        Time servedUntil;               //!< served is counted up to here
        Time lastEnd;                   //!< end of the last run (start time before any)
        double gap{0};                  //!< measured compute gap between runs, s
        bool gapKnown{false};           //!< gap measured at least once
        double rate{0};                 //!< measured throughput per rank, bytes/s
        double nextBytes{0};            //!< bytes each rank sends in its next run
        uint32_t plannedRun{0};         //!< run of the last plan sent
        Time plannedStart{Time::Max()}; //!< start of the last plan sent
        uint8_t plannedClass{0};        //!< class of the last plan sent
        bool planned{false};            //!< a plan was sent
    };

    /**
     * \brief The message of SendRunStarted arrives.
     * \param job the job
     * \param run the run
     * \param bytes buffer bytes per rank
     * \param sent when the gate sent it
     */
    void RunStarted(uint32_t job, uint32_t run, uint64_t bytes, Time sent);

    /**
     * \brief The message of SendRunFinished arrives.
     * \param job the job
     * \param run the run
     * \param sent when the gate sent it
     */
    void RunFinished(uint32_t job, uint32_t run, Time sent);

    /**
     * \brief A plan message arrives at a job's gate.
     * \param job the job
     * \param run the run it is for
     * \param releaseAt its start
     * \param cls its class
     */
    void DeliverPlan(uint32_t job, uint32_t run, Time releaseAt, uint8_t cls);

    /// Key index of the controller's events that concern every job.
    static constexpr uint32_t ALL_JOBS = 0xffffff;

    /**
     * \param job a job index, or ALL_JOBS
     * \return the OrderedScheduler key of the controller's events for it
     */
    static uint32_t Key(uint32_t job);

    /// Periodic re-plan while a job communicates.
    void PeriodicReplan();

    /**
     * \param job a job
     * \return bytes per second a rank of it sends, measured or at its bottleneck rate
     */
    double Rate(uint32_t job) const;

    Time m_latency;                     //!< control message latency
    Time m_replanInterval;              //!< periodic re-plan (0: events only)
    Time m_hysteresis;                  //!< lead a task needs to pass the one served
    Time m_maxHold;                     //!< gates' MaxHold
    bool m_perChunk;                    //!< gates' granularity
    double m_minShare;                  //!< queue disc starvation guard
    Time m_maxWait;                     //!< queue disc ageing
    double m_ewma;                      //!< weight of a new measurement
    std::vector<View> m_view;           //!< per job
    std::vector<Ptr<FluxGate>> m_gates; //!< per job
    EventId m_periodic;                 //!< next periodic re-plan
    TracedCallback<uint32_t, uint32_t, Time, uint8_t> m_planTrace; //!< plans sent
};

} // namespace ns3

#endif /* FLUX_CONTROLLER_H */
