/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-gate.h"

#include "ns3/boolean.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveGate");

NS_OBJECT_ENSURE_REGISTERED(CollectiveGate);

TypeId
CollectiveGate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveGate")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddAttribute("PerChunk",
                          "Ask for each chunk (pipelined piece) of a ring step rather than "
                          "once per step.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&CollectiveGate::m_perChunk),
                          MakeBooleanChecker());
    return tid;
}

CollectiveGate::CollectiveGate()
    : m_perChunk(false)
{
    NS_LOG_FUNCTION(this);
}

CollectiveGate::~CollectiveGate() = default;

CollectiveGate::Granularity
CollectiveGate::GetGranularity() const
{
    return m_perChunk ? CHUNK : STEP;
}

void
CollectiveGate::RunStarted(Ptr<Collective> /* collective */, uint64_t /* bytes */)
{
}

void
CollectiveGate::RunFinished(Ptr<Collective> /* collective */)
{
}

} // namespace ns3
