/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_JOB_HELPER_H
#define TRAINING_JOB_HELPER_H

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/training-job.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup flux-helper
 * \brief Builds training jobs: a collective over the ranks' NICs and the
 * TrainingJob that runs it, each from an ObjectFactory.
 *
 * Like ns-3's application helpers: set the attributes once, then Install()
 * one job per set of ranks.
 *
 * \code
 *   TrainingJobHelper jobs;
 *   jobs.SetJobAttribute("Iterations", UintegerValue(5));
 *   jobs.SetJobAttribute("GradientBytes", UintegerValue(64 << 20));
 *   Ptr<TrainingJob> job = jobs.Install("resnet", rankNics, 3, 50000);
 *   job->Start();
 * \endcode
 */
class TrainingJobHelper
{
  public:
    TrainingJobHelper();

    /**
     * \brief Choose the collective the jobs run (default ns3::RingAllreduce).
     * \param type an ns-3 TypeId name of a Collective subclass (anything
     *        else is a fatal error)
     */
    void SetCollective(const std::string& type);

    /**
     * \brief Set an attribute of the collectives this helper creates.
     * \param name attribute name
     * \param value attribute value
     */
    void SetCollectiveAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the TrainingJob objects this helper creates.
     * \param name attribute name
     * \param value attribute value
     */
    void SetJobAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Create a job whose rank i runs on nics[i].
     * \param name the job's name (traces, results)
     * \param nics the ranks' NICs, in ring order
     * \param prio the traffic class of the job's data
     * \param srcPorts UDP source port of rank 0's sends; rank i uses srcPorts + i
     * \return the job, set up but not started; its collective's job id
     *         (Collective::SetJobId: packet tags, ordering of distributed
     *         runs) is the number of jobs this helper installed before it
     */
    Ptr<TrainingJob> Install(const std::string& name,
                             const std::vector<Ptr<RdmaNic>>& nics,
                             uint8_t prio,
                             uint16_t srcPorts) const;

  private:
    ObjectFactory m_collectiveFactory; //!< collective factory
    ObjectFactory m_jobFactory;        //!< TrainingJob factory
    mutable uint32_t m_nextJobId;      //!< id of the next job installed
};

} // namespace ns3

#endif /* TRAINING_JOB_HELPER_H */
