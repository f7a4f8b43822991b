/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-step-tag.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobStepTag");

NS_OBJECT_ENSURE_REGISTERED(JobStepTag);

TypeId
JobStepTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::JobStepTag")
                            .SetParent<Tag>()
                            .SetGroupName("Flux")
                            .AddConstructor<JobStepTag>();
    return tid;
}

TypeId
JobStepTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

JobStepTag::JobStepTag()
    : m_job(0),
      m_iteration(0),
      m_chunk(0),
      m_step(0),
      m_phase(REDUCE_SCATTER)
{
    NS_LOG_FUNCTION(this);
}

JobStepTag::JobStepTag(uint32_t job, uint32_t iteration, Phase phase, uint16_t step, uint32_t chunk)
    : m_job(job),
      m_iteration(iteration),
      m_chunk(chunk),
      m_step(step),
      m_phase(phase)
{
    NS_LOG_FUNCTION(this);
}

uint32_t
JobStepTag::GetJob() const
{
    return m_job;
}

uint32_t
JobStepTag::GetIteration() const
{
    return m_iteration;
}

JobStepTag::Phase
JobStepTag::GetPhase() const
{
    return static_cast<Phase>(m_phase);
}

uint16_t
JobStepTag::GetStep() const
{
    return m_step;
}

uint32_t
JobStepTag::GetChunk() const
{
    return m_chunk;
}

uint32_t
JobStepTag::GetSerializedSize() const
{
    return 4 + 4 + 4 + 2 + 1;
}

void
JobStepTag::Serialize(TagBuffer i) const
{
    i.WriteU32(m_job);
    i.WriteU32(m_iteration);
    i.WriteU32(m_chunk);
    i.WriteU16(m_step);
    i.WriteU8(m_phase);
}

void
JobStepTag::Deserialize(TagBuffer i)
{
    m_job = i.ReadU32();
    m_iteration = i.ReadU32();
    m_chunk = i.ReadU32();
    m_step = i.ReadU16();
    m_phase = i.ReadU8();
}

void
JobStepTag::Print(std::ostream& os) const
{
    os << "job=" << m_job << " iteration=" << m_iteration
       << " phase=" << (m_phase == REDUCE_SCATTER ? "reduce-scatter" : "all-gather")
       << " step=" << m_step << " chunk=" << m_chunk;
}

} // namespace ns3
