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
 * \brief The `flux` policy: a logically central controller that chooses the
 * jobs' paths, orders their communication on the links they share, and the
 * gates (FluxGate) in the jobs' ranks that carry the order out.
 *
 * What it knows: each job's placement, the fabric's ECMP paths for any
 * source port, the bytes of each run of its collective, and, from the gates'
 * messages, when runs start and end.
 *
 * Paths, before the run: the jobs' connections get the source ports whose
 * paths leave the most loaded link direction least loaded
 * (JobScheduler::PlacePaths, jobs with most bytes first), so that rings
 * which the hash would pile onto one uplink take disjoint paths where the
 * fabric has them; only the jobs that still share a link contend.
 *
 * Order (Replan(), once all the messages of an instant have arrived after a
 * run start or end, so that jobs starting together are planned together):
 * the Fair Sojourn Protocol (Friedman and Henderson, 2003) over the jobs
 * that contend. The controller
 * keeps a virtual fair-sharing system beside the real one: every run, when
 * it starts, adds its bytes per rank to its job's virtual backlog, and the
 * backlogs drain at the job's rate alone divided among the contending jobs
 * that have backlog on the paths the hash gives (what fifo's sharing would
 * give, whatever paths the controller chose). Jobs are served in the
 * order their backlogs would empty in that virtual system: the shortest
 * transfers first, as shortest-remaining-first does, but a job that waited
 * has drained virtually meanwhile and comes first in its turn, so no run
 * ends much later than under fair sharing (FSP never ends a job later than
 * processor sharing on one link). The job being served keeps its place
 * unless another's virtual end is earlier by more than Hysteresis; a job
 * that is not communicating is ordered by its predicted next run.
 *
 * Fifo guard (GuardSlack, 0.05 by default): that virtual system restarts
 * from each real run start, so it cannot see a job fall behind fair sharing
 * over several iterations. A second, shadow system runs each job's runs one
 * after the other at its measured compute gap, whatever the real runs do;
 * a run whose shadow ended more than the slack ago (as a fraction of the
 * shadow's time since the job's start) goes first.
 *
 * Enforcement, work-conserving: a job's run is held at its gate while a job
 * ahead of it that it contends with is sending (contending: a shared link
 * would be overloaded and taking turns beats sharing, TurnsPay()) (released on
 * completion: the controller's go follows that job's end message), and
 * never because of a prediction, but for one control round trip: a job
 * planned behind another that is due to start within a round trip of it
 * waits at its start for the answer to its start message (FluxGate), rather
 * than sending in a lower class under it; every job's class is one level
 * below the lowest class of the jobs ahead of it that it contends with, so that
 * what overlaps (a step already on the wire, a control latency) costs the
 * job ahead nothing (strict priority at NICs and switch ports). The ports'
 * FluxQueueDisc serves a class whose head packet waited MaxWait first, so
 * that what overlaps does not wait for the whole run ahead either.
 *
 * Cost per decision: a gate decides locally from its last plan in O(1); a
 * re-plan costs O(J^3) for J jobs (the virtual system), plus one control
 * message per job whose plan changed.
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
    bool UsesOwnClasses() const override;
    bool ChoosesPaths() const override;
    bool GetQueueDiscFactory(ObjectFactory& factory) const override;
    bool GetQpArbiterFactory(ObjectFactory& factory) const override;
    void Start() override;
    bool DecidesPerRank() const override;

    /**
     * \return the settings of the switch ports' FluxQueueDisc (MaxWait,
     *         MinShare, FlowsPerClass): a flow-level run has no queues, its
     *         classes are strict
     */
    std::vector<std::string> GetFlowLevelLimits() const override;

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
     * \brief A gate's message: the first rank of a job asked for a ring
     * step of the run (arrives after ControlLatency; sent only when the
     * controller orders by remaining work, see UsesProgress).
     * \param job the job
     * \param run the run
     * \param step the step
     */
    void SendRunProgress(uint32_t job, uint32_t run, uint32_t step);

    /** \return whether the gates must report their runs' steps (SendRunProgress) */
    bool UsesProgress() const;

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
     * \param [in] hold true when the run is held
     * \param [in] cls its class
     */
    typedef void (*PlanTracedCallback)(uint32_t job, uint32_t run, bool hold, uint8_t cls);

  protected:
    void DoDispose() override;

  private:
    /**
     * \return whether FluxQueueDisc's FlowsPerClass default was changed
     *         (Config::SetDefault, a scenario's ns3_defaults): FlowsPerClass
     *         0 then keeps it
     */
    static bool FlowsPerClassDefaultChanged();

    /// The controller's view of a job.
    struct View
    {
        bool communicating{false}; //!< a run is in progress
        bool done{false};          //!< the job finished or failed
        uint32_t run{0};           //!< the current run, or the next one when idle
        Time lastEnd;              //!< end of the last run (start time before any)
        double gap{0};             //!< measured compute gap between runs, s
        bool gapKnown{false};      //!< gap measured at least once
        double nextBytes{0};       //!< bytes each rank sends in its next run
        double backlog{0};         //!< bytes per rank left in the virtual fair-sharing system
        double virtualEnd{0};      //!< when its backlog last emptied there, s
        double runBytes{0};        //!< bytes each rank sends in the current run
        double runStart{0};        //!< when the current run started, s
        uint32_t latestStep{0};    //!< latest ring step of the current run a rank asked for
        double rate{0};            //!< measured throughput of a rank once let go, bytes/s
        bool alone{false};       //!< the current run was neither held nor below a job since let go
        double goAt{-1};         //!< when a plan first let the current run go, s (-1: not yet)
        bool planned{false};     //!< a plan was sent
        uint32_t plannedRun{0};  //!< run of the last plan sent
        bool plannedHold{false}; //!< hold of the last plan sent
        uint8_t plannedClass{0}; //!< class of the last plan sent
        bool plannedBehind{false};      //!< the last plan sent put it behind a job
        bool plannedStarted{false};     //!< the last plan sent knew of the run's start
        bool overdue{false};            //!< the current run went first, late against its shadow
        uint32_t runs{0};               //!< runs of the whole job (0: not known, no shadow)
        double shadowBacklog{0};        //!< bytes per rank left of its shadow run
        double shadowNext{0};           //!< when its next shadow run starts, s
        std::vector<double> shadowEnds; //!< when each of its shadow runs ended, s
    };

    /// A link direction the job shares with others on the hash's paths.
    struct SharedLink
    {
        double bps;                                        //!< its rate, bit/s
        uint32_t own;                                      //!< the job's sends on it
        std::vector<std::pair<uint32_t, uint32_t>> others; //!< (job, its sends on it)
    };

    /// What fifo's fair sharing would give a job: its paths under the hash.
    struct FairShare
    {
        double aloneBps{0};            //!< one rank's rate alone, bit/s
        std::vector<SharedLink> links; //!< the links it shares
    };

    /// Record every job's FairShare from the paths it has now (the hash's).
    void RecordFairShares();

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
     * \brief The message of SendRunProgress arrives.
     * \param job the job
     * \param run the run
     * \param step the step
     */
    void RunProgress(uint32_t job, uint32_t run, uint32_t step);

    /**
     * \brief A plan message arrives at a job's gate.
     * \param job the job
     * \param run the run it is for
     * \param hold whether the run is held
     * \param cls its class
     * \param behind a job it contends with is ahead of it and due to start
     *        within a control round trip of its next run
     * \param started the run had started when the plan was made
     */
    void DeliverPlan(uint32_t job, uint32_t run, bool hold, uint8_t cls, bool behind, bool started);

    /**
     * \param job a job
     * \return bytes per second a rank of it sends alone (its bottleneck rate)
     */
    double Rate(uint32_t job) const;

    /**
     * \param job a job
     * \param backlog the jobs' virtual backlogs, bytes per rank
     * \return its rate in the virtual fair-sharing system: Rate() scaled by
     *         the max-min share its sends get on the hash's paths among the
     *         jobs with backlog (what fifo would give it)
     */
    double VirtualRate(uint32_t job, const std::vector<double>& backlog) const;

    /**
     * \brief The rates of a fair-sharing system (virtual or shadow) now.
     * \param backlog the jobs' backlogs, bytes per rank
     * \param[out] rate per job: its VirtualRate(), 0 without backlog
     * \param[in,out] step shortened to when the first backlog empties
     * \return whether any job has backlog
     */
    bool FairRates(const std::vector<double>& backlog,
                   std::vector<double>& rate,
                   double& step) const;

    /**
     * \brief Run the virtual fair-sharing system for a time.
     * \param backlog the backlogs, drained in place
     * \param duration how long, s (infinite: until every backlog is empty)
     * \param[out] ends if not null: per job, the time from now its backlog
     *        empties (infinity when it does not within duration)
     */
    void Drain(std::vector<double>& backlog, double duration, std::vector<double>* ends) const;

    /// Bring the virtual system up to now.
    void AdvanceVirtual();

    /**
     * \brief Bring the shadow system up to a time.
     *
     * The shadow is fifo's fair sharing on the jobs' own timeline: each job's
     * runs follow one another at its measured compute gap, whenever the real
     * ones start, so its run ends are the deadlines fifo would meet.
     *
     * \param until the time, s
     */
    void AdvanceShadow(double until);

    /// Lead of an overdue run's key over every other: it goes first, s.
    static constexpr double OVERDUE_LEAD = 1e6;

    /// Key index of the controller's events that concern every job.
    static constexpr uint32_t ALL_JOBS = 0xffffff;

    /**
     * \param job a job index, or ALL_JOBS
     * \return the OrderedScheduler key of the controller's events for it
     */
    static uint32_t Key(uint32_t job);

    /// Periodic re-plan while a job communicates.
    void PeriodicReplan();

    /// Re-plan once every message of this instant has arrived.
    void RequestReplan();

    Time m_latency;                     //!< control message latency
    Time m_replanInterval;              //!< periodic re-plan (0: events only)
    Time m_hysteresis;                  //!< lead a task needs to pass the one served
    Time m_maxHold;                     //!< gates' MaxHold
    bool m_perChunk;                    //!< gates' granularity
    bool m_preemptRuns;                 //!< a run let go may be held again
    bool m_holds;                       //!< gates hold (false: classes alone)
    double m_minShare;                  //!< queue disc starvation guard
    Time m_maxWait;                     //!< queue disc ageing
    uint32_t m_flowsPerClass;           //!< queue disc flow queues per class (0: automatic)
    double m_ewma;                      //!< weight of a new measurement
    double m_lateFactor;                //!< a run this late stops holding others
    bool m_measuredRates;               //!< virtual system at measured throughputs
    bool m_placePaths;                  //!< choose the jobs' paths before the run
    double m_guardSlack;                //!< lead of the shadow that makes a job go first
    bool m_remainingWork;               //!< order runs under way by their remaining work
    double m_shadowNow{0};              //!< the shadow system is up to here, s
    std::vector<View> m_view;           //!< per job
    std::vector<FairShare> m_fair;      //!< per job: fifo's sharing
    Time m_virtualNow;                  //!< the virtual system is up to here
    std::vector<Ptr<FluxGate>> m_gates; //!< per job
    EventId m_periodic;                 //!< next periodic re-plan
    EventId m_replanEvent;              //!< re-plan requested by messages
    TracedCallback<uint32_t, uint32_t, bool, uint8_t> m_planTrace; //!< plans sent
};

} // namespace ns3

#endif /* FLUX_CONTROLLER_H */
