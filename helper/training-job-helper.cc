/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-job-helper.h"

#include "ns3/abort.h"
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
    m_nextJobId = 0;
}

void
TrainingJobHelper::SetCollective(const std::string& type)
{
    // (Debian's optimised ns-3 does not check a TypeId name: a misspelt one
    // would fail later, inside ObjectFactory::Create)
    TypeId tid;
    NS_ABORT_MSG_UNLESS(TypeId::LookupByNameFailSafe(type, &tid) &&
                            tid.IsChildOf(Collective::GetTypeId()),
                        "TrainingJobHelper::SetCollective: \""
                            << type << "\" is not the TypeId name of a Collective (e.g. "
                            << "ns3::RingAllreduce)");
    m_collectiveFactory.SetTypeId(tid);
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
    collective->SetJobId(m_nextJobId++);
    Ptr<TrainingJob> job = m_jobFactory.Create<TrainingJob>();
    job->Setup(name, collective);
    return job;
}

} // namespace ns3
