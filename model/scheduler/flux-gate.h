/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_GATE_H
#define FLUX_GATE_H

#include "ns3/collective-gate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <limits>
#include <utility>
#include <vector>

namespace ns3
{

class FluxController;
class FluxFollowerGate;

/**
 * \ingroup flux-scheduler
 * \brief The Flux gate in a job's ranks: releases a ring step (or chunk) to
 * the NIC when the controller's plan allows.
 *
 * The gate keeps the latest plan the controller sent it: for one run of the
 * job's collective, hold or go. The controller says hold only while a job
 * ahead of this one in its order, sharing a link with it, is sending; it
 * says go when that job's run has ended (release on completion: the gate
 * never waits on a clock or a prediction). A request of the planned run is
 * held while the plan says hold, and released when a plan says go, or MaxHold
 * after the request, whichever is first. A request of a run the plan does
 * not name goes at once: without a plan the gate does not hold, with one
 * exception: when the last plan put the job behind another that it
 * contends with (the other may be starting too), a new run waits for the
 * controller's answer to its start, one control round trip, rather than
 * going on the wire in a lower class than a job that takes the link whole
 * (its packets would wait in the switch queues and be marked). The gate
 * tells the controller when a run starts and ends; both directions are
 * messages with the controller's ControlLatency, never shared state.
 */
class FluxGate : public CollectiveGate
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FluxGate();
    ~FluxGate() override;

    /**
     * \brief Bind the gate to its controller and job.
     * \param controller the controller (outlives the gate's use)
     * \param job the job's index
     */
    void Setup(FluxController* controller, uint32_t job);

    void Ask(Ptr<Collective> collective, const Request& req) override;
    void RunStarted(Ptr<Collective> collective, uint64_t bytes) override;
    void RunFinished(Ptr<Collective> collective) override;

    /**
     * \brief A plan arrived from the controller.
     * \param run the run it is for
     * \param hold true: that run's requests wait for a newer plan
     * \param behind true: a job this one contends with is ahead of it in
     *        the controller's order and due to start within a control round
     *        trip of this one's next run
     * \param started true: the controller knew that the run had started
     *        (it answers the gate's RunStarted message)
     */
    void ReceivePlan(uint32_t run, bool hold, bool behind, bool started);

    /**
     * \brief Hold the start of another collective of the job while this
     * gate holds requests (the job's collectives other than its principal,
     * which this gate plans per step): the other gate asks this one; a
     * start (step 0) waits while IsHolding(), and goes when this gate
     * releases.
     * \param gate the other collective's gate
     */
    void AddFollower(Ptr<FluxFollowerGate> gate);

    /** \return true while requests of the planned collective are held */
    bool IsHolding() const;

    /** \return requests held so far */
    uint64_t GetHeld() const;
    /** \return requests decided so far */
    uint64_t GetDecisions() const;

    /**
     * TracedCallback signature for gate decisions.
     * \param [in] job the job
     * \param [in] run the run
     * \param [in] rank the rank
     * \param [in] step the step
     * \param [in] held true when the request was held, false when it went at once
     */
    typedef void (*DecisionTracedCallback)(uint32_t job,
                                           uint32_t run,
                                           uint32_t rank,
                                           uint32_t step,
                                           bool held);

  protected:
    void DoDispose() override;

  private:
    /**
     * \param run a run
     * \return true when the plan lets it send now
     */
    bool Allowed(uint32_t run) const;

    /// Release every held request.
    void ReleaseAll();

    /// Arm the MaxHold timer of the oldest held request.
    void Arm();

    /// No run (m_progressRun before the first report).
    static constexpr uint32_t NO_RUN = std::numeric_limits<uint32_t>::max();

    FluxController* m_controller;   //!< the controller
    uint32_t m_job;                 //!< the job's index
    uint32_t m_progressRun{NO_RUN}; //!< run of m_progressStep (none yet)
    uint32_t m_progressStep{0};     //!< ring steps of that run asked for so far
    Time m_maxHold;                 //!< longest hold of a request (0: no limit)
    bool m_hasPlan;                 //!< a plan arrived
    uint32_t m_planRun;             //!< the run the plan is for
    bool m_hold;                    //!< the plan holds that run
    bool m_behind;                  //!< the plan puts the job behind another
    bool m_awaiting;                //!< m_awaitRun waits for the answer to its start
    uint32_t m_awaitRun;            //!< the run that waits
    Ptr<Collective> m_collective;   //!< the collective of the held requests
    std::vector<uint32_t> m_held;   //!< ranks held, in request order
    std::vector<Time> m_heldSince;  //!< when each was held
    EventId m_timer;                //!< the next release
    std::vector<Ptr<FluxFollowerGate>> m_followers; //!< gates of the job's other collectives
    uint64_t m_decisions;                           //!< requests decided
    uint64_t m_heldCount;                           //!< requests held
    TracedCallback<uint32_t, uint32_t, uint32_t, uint32_t, bool> m_decisionTrace; //!< decisions
};

/**
 * \ingroup flux-scheduler
 * \brief The gate of a job's collective that flux does not plan (a
 * replayed job's collectives other than its principal): such a collective
 * is treated per whole collective. Its start (the requests of step 0) waits
 * while the job's FluxGate holds requests, and goes when that gate
 * releases them; its later steps are never held.
 */
class FluxFollowerGate : public CollectiveGate
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FluxFollowerGate();
    ~FluxFollowerGate() override;

    /**
     * \param leader the job's gate (it outlives this one's use)
     */
    void Setup(FluxGate* leader);

    void Ask(Ptr<Collective> collective, const Request& req) override;

    /// The leader released its held requests: let the waiting starts go.
    void LeaderReleased();

    /** \return starts held so far */
    uint64_t GetHeld() const;

  protected:
    void DoDispose() override;

  private:
    FluxGate* m_leader;                                          //!< the job's gate
    std::vector<std::pair<Ptr<Collective>, uint32_t>> m_waiting; //!< held (collective, rank)
    uint64_t m_heldCount;                                        //!< starts held
};

} // namespace ns3

#endif /* FLUX_GATE_H */
