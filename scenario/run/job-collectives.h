/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_COLLECTIVES_H
#define JOB_COLLECTIVES_H

#include "ns3/nstime.h"
#include "ns3/scenario-config.h"
#include "ns3/training-job.h"

#include <vector>

namespace ns3
{

class RdmaNic;

namespace scenario
{

/**
 * \ingroup flux-scenario
 * \brief Builds one scenario job: its collectives, each by the algorithm
 * the job chooses for its type (CollectiveLibrary), on its ranks' NICs and
 * servers, with source ports taken in turn from the job's base port.
 */
class JobCollectives
{
  public:
    /**
     * \param nics the NIC of each host
     * \param cfg the scenario
     * \param job the job
     * \param completionLatency the collectives' CompletionLatency
     * \param basePort the job's first UDP source port
     */
    JobCollectives(const std::vector<Ptr<RdmaNic>>& nics,
                   const ScenarioConfig& cfg,
                   const ScenarioConfig::JobConfig& job,
                   Time completionLatency,
                   uint16_t basePort);

    /** \return a job of iterations of compute and one collective */
    Ptr<TrainingJob> Build();

    /** \return a job replaying its workload each iteration */
    Ptr<TrainingJob> BuildReplay();

  private:
    /// \return the job's path in the scenario ("jobs[2]")
    std::string JobPath() const;

    /**
     * \brief Make, connect and return one collective.
     * \param type its operation
     * \param algorithm its algorithm
     * \param ranks the job's ranks it runs on (its rank i is ranks[i])
     * \return the collective, set up
     */
    Ptr<Collective> Make(CollectiveType type,
                         const std::string& algorithm,
                         const std::vector<uint32_t>& ranks);

    /**
     * \brief Make, connect and return one collective.
     * \param tid its class
     * \param ranks the job's ranks it runs on (its rank i is ranks[i])
     * \return the collective, set up
     */
    Ptr<Collective> Make(TypeId tid, const std::vector<uint32_t>& ranks);

    const std::vector<Ptr<RdmaNic>>& m_nics; //!< NIC of each host
    const ScenarioConfig& m_cfg;             //!< the scenario
    const ScenarioConfig::JobConfig& m_job;  //!< the job
    Time m_completionLatency;                //!< collectives' completion latency
    uint32_t m_nextPort;                     //!< next free source port
};

} // namespace scenario
} // namespace ns3

#endif /* JOB_COLLECTIVES_H */
