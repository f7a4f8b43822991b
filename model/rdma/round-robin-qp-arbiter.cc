/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "round-robin-qp-arbiter.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundRobinQpArbiter");

NS_OBJECT_ENSURE_REGISTERED(RoundRobinQpArbiter);

TypeId
RoundRobinQpArbiter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoundRobinQpArbiter")
                            .SetParent<RdmaQpArbiter>()
                            .SetGroupName("Flux")
                            .AddConstructor<RoundRobinQpArbiter>();
    return tid;
}

RoundRobinQpArbiter::RoundRobinQpArbiter()
    : m_rr(0)
{
    NS_LOG_FUNCTION(this);
}

RoundRobinQpArbiter::~RoundRobinQpArbiter() = default;

void
RoundRobinQpArbiter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Clear();
    RdmaQpArbiter::DoDispose();
}

void
RoundRobinQpArbiter::Activate(RdmaQueuePair* qp)
{
    m_active.push_back(qp);
}

void
RoundRobinQpArbiter::Remove(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp);
    for (std::size_t i = 0; i < m_active.size(); ++i)
    {
        if (m_active[i] == qp)
        {
            m_active[i] = m_active.back();
            m_active.pop_back();
            return;
        }
    }
}

void
RoundRobinQpArbiter::ClassChanged(RdmaQueuePair* /* qp */, uint8_t /* oldClass */)
{
    // one list for all classes
}

RdmaQueuePair*
RoundRobinQpArbiter::Next(uint8_t pausedMask, Time now, Time& earliest)
{
    std::size_t n = m_active.size();
    for (std::size_t k = 0; k < n;)
    {
        const std::size_t i = (m_rr + k) % n;
        RdmaQueuePair* qp = m_active[i];
        const Eligibility e = Check(qp, pausedMask, now, earliest);
        if (e == IDLE)
        {
            // idle: leave the list until it has data again
            SetInactive(qp);
            m_active[i] = m_active.back();
            m_active.pop_back();
            --n;
            continue;
        }
        ++k;
        if (e != ELIGIBLE)
        {
            continue;
        }
        m_rr = i + 1;
        return qp;
    }
    return nullptr;
}

bool
RoundRobinQpArbiter::HasActive() const
{
    return !m_active.empty();
}

void
RoundRobinQpArbiter::Clear()
{
    m_active.clear();
    m_rr = 0;
}

std::size_t
RoundRobinQpArbiter::GetNActive() const
{
    return m_active.size();
}

} // namespace ns3
