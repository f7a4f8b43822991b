/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-job-helper.h"

#include "ns3/collective.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJobHelper");

TrainingJobHelper::TrainingJobHelper()
{
    NS_LOG_FUNCTION(this);
    m_collectiveFactory.SetTypeId("ns3::RingAllreduce");
    m_jobFactory.SetTypeId("ns3::TrainingJob");
}

void
TrainingJobHelper::SetCollective(const std::string& type)
{
    m_collectiveFactory.SetTypeId(type);
}

void
TrainingJobHelper::SetCollectiveAttribute(const std::string& name, const AttributeValue& value)
{
    m_collectiveFactory.Set(name, value);
}

void
TrainingJobHelper::SetJobAttribute(const std::string& name, const AttributeValue& value)
{
    m_jobFactory.Set(name, value);
}

Ptr<TrainingJob>
TrainingJobHelper::Install(const std::string& name,
                           const std::vector<Ptr<RdmaNic>>& nics,
                           uint8_t prio,
                           uint16_t srcPorts) const
{
    NS_LOG_FUNCTION(this << name << nics.size() << +prio << srcPorts);
    Ptr<Collective> collective = m_collectiveFactory.Create<Collective>();
    NS_ABORT_MSG_UNLESS(collective, "TrainingJobHelper: the collective type is not a Collective");
    collective->Setup(nics, prio, srcPorts);
    Ptr<TrainingJob> job = m_jobFactory.Create<TrainingJob>();
    job->Setup(name, collective);
    return job;
}

} // namespace ns3
