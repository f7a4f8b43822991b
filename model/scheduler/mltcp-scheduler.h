/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MLTCP_SCHEDULER_H
#define MLTCP_SCHEDULER_H

#include "job-scheduler.h"

#include "ns3/collective-gate.h"
#include "ns3/rdma-congestion-control.h"

#include <vector>

namespace ns3
{

class MltcpScheduler;

/**
 * \ingroup flux-scheduler
 * \brief The gate of the `mltcp` policy in front of one job's collective: it
 * never holds a send; at each send a rank asks for, it sets the
 * aggressiveness of the rank's sending queue pairs from the bytes the rank
 * has sent in the iteration so far (the steps released before this one).
 */
class MltcpGate : public CollectiveGate
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MltcpGate();
    ~MltcpGate() override;

    /**
     * \brief Attach the gate to its job.
     * \param scheduler the policy (for its factor function and counters)
     * \param job the job's index
     * \param iterationBytes bytes one rank sends per iteration (every bucket)
     * \param senders per rank: the congestion controls of its sending queue pairs
     */
    void Setup(MltcpScheduler* scheduler,
               uint32_t job,
               uint64_t iterationBytes,
               std::vector<std::vector<Ptr<RdmaCongestionControl>>> senders);

    void Ask(Ptr<Collective> collective, const Request& req) override;

    /**
     * \brief A rank is about to post a send: set its queue pairs'
     * aggressiveness from the bytes it sent before in the iteration, then
     * count the send's bytes (Ask() does this, then releases the send).
     * \param rank the rank
     * \param iteration the job's iteration (a new one starts the count at 0)
     * \param bytes bytes of the send
     * \return the factor set
     */
    double OnSend(uint32_t rank, uint32_t iteration, uint64_t bytes);

    /**
     * \param rank a rank
     * \return the bytes it has sent in its current iteration (the steps
     *         released before its last request)
     */
    uint64_t GetBytesSent(uint32_t rank) const;

  protected:
    void DoDispose() override;

  private:
    /// What the gate knows of one rank.
    struct Rank
    {
        std::vector<Ptr<RdmaCongestionControl>> senders; //!< of its sending queue pairs
        uint32_t iteration{0};                           //!< the iteration it sends in
        uint64_t sent{0};                                //!< bytes released in that iteration
        bool started{false};                             //!< it asked once already
    };

    MltcpScheduler* m_scheduler; //!< the policy
    uint32_t m_job;              //!< the job's index
    uint64_t m_iterationBytes;   //!< bytes per rank per iteration
    std::vector<Rank> m_ranks;   //!< per rank
};

/**
 * \ingroup flux-scheduler
 * \brief The `mltcp` baseline (Rajasekaran et al., HotNets 2024): no central
 * scheduling; each job's congestion control grows faster the more of its
 * iteration's bytes it has sent, so that the job closest to finishing its
 * communication takes the link and contending jobs fall into turns by
 * themselves.
 *
 * Every job keeps its scenario class and nothing is held. A gate
 * (MltcpGate) in front of each job's collective sets, at every send a rank
 * posts, the aggressiveness of the rank's queue pairs
 * (RdmaCongestionControl::SetAggressiveness: DCQCN multiplies its additive
 * and hyper increase steps by it, HPCC its additive increase) to
 *
 *     F = Slope x bytes_ratio + Intercept,
 *
 * bytes_ratio being the bytes the rank has sent in the iteration over the
 * bytes it sends per iteration (every bucket). The factor changes once per
 * posted message (ring step), never per packet. With Slope 0 and Intercept
 * 1 the policy is fifo.
 *
 * At flow level (--backend flow) queue pairs have no congestion control to
 * scale: jobs share links max-min fairly, as under fifo, and the results
 * say so in backend_limits.
 */
class MltcpScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MltcpScheduler();
    ~MltcpScheduler() override;

    std::string GetPolicyName() const override;
    void Start() override;
    bool DecidesPerRank() const override;

    /**
     * \return "scheduler.slope" and "scheduler.intercept", the keys of the
     *         aggressiveness: at flow level there is no congestion control
     *         to scale, the jobs share max-min fairly
     */
    std::vector<std::string> GetFlowLevelLimits() const override;

    /**
     * \param bytesRatio bytes sent in the iteration over bytes per iteration
     *        (clamped to [0, 1])
     * \return the aggressiveness factor F = Slope x ratio + Intercept
     */
    double GetFactor(double bytesRatio) const;

    /**
     * \param job a job index
     * \return its gate (nullptr before Start())
     */
    Ptr<MltcpGate> GetGate(uint32_t job) const;

    /// A gate decided a request (counted per rank).
    void CountDecision();

  protected:
    void DoDispose() override;

  private:
    double m_slope;                      //!< S
    double m_intercept;                  //!< I
    std::vector<Ptr<MltcpGate>> m_gates; //!< per job
};

} // namespace ns3

#endif /* MLTCP_SCHEDULER_H */
