/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-watchdog.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcWatchdog");

NS_OBJECT_ENSURE_REGISTERED(PfcWatchdog);

namespace
{
/// Names of the actions, indexed by PfcWatchdog::Action.
const char* const ACTION_NAMES[] = {"drop", "forward"};
} // namespace

PfcWatchdog::Counters&
PfcWatchdog::Counters::operator+=(const Counters& o)
{
    storms += o.storms;
    restorations += o.restorations;
    drops += o.drops;
    forwarded += o.forwarded;
    ignoredPauses += o.ignoredPauses;
    return *this;
}

TypeId
PfcWatchdog::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcWatchdog")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddConstructor<PfcWatchdog>()
            .AddAttribute("DetectionTime",
                          "How long a priority must stay paused by the peer, without a break, "
                          "while packets of it wait, to be declared stormed (SONiC's "
                          "detection_time; its default is 200 ms).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_detectionTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RestorationTime",
                          "How long a stormed priority must receive no pause frame to honour "
                          "pauses again (SONiC's restoration_time; its default is 200 ms).",
                          TimeValue(MilliSeconds(200)),
                          MakeTimeAccessor(&PfcWatchdog::m_restorationTime),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "Action",
                "What a stormed queue does with its packets: \"drop\" (discard "
                "them) or \"forward\" (send them, ignoring the peer's pauses).",
                StringValue("drop"),
                MakeStringAccessor(&PfcWatchdog::SetActionName, &PfcWatchdog::GetActionName),
                MakeStringChecker())
            .AddTraceSource("StormDetected",
                            "A priority was declared stormed: its pauses are ignored from now.",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormDetectedTrace),
                            "ns3::PfcWatchdog::StormTracedCallback")
            .AddTraceSource("StormRestored",
                            "A stormed priority honours pauses again.",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_stormRestoredTrace),
                            "ns3::PfcWatchdog::StormTracedCallback")
            .AddTraceSource("Drop",
                            "A packet of a stormed queue was discarded (Action \"drop\").",
                            MakeTraceSourceAccessor(&PfcWatchdog::m_dropTrace),
                            "ns3::PfcWatchdog::DropTracedCallback");
    return tid;
}

PfcWatchdog::PfcWatchdog()
    : m_device(nullptr),
      m_detectionTime(MilliSeconds(200)),
      m_restorationTime(MilliSeconds(200)),
      m_action(DROP),
      m_stormed(0)
{
    NS_LOG_FUNCTION(this);
}

PfcWatchdog::~PfcWatchdog() = default;

void
PfcWatchdog::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (uint8_t p = 0; p < N_PRIORITIES; ++p)
    {
        m_checkStorm[p].Cancel();
        m_checkRestore[p].Cancel();
    }
    m_device = nullptr;
    Object::DoDispose();
}

bool
PfcWatchdog::IsActionName(const std::string& name)
{
    return name == ACTION_NAMES[DROP] || name == ACTION_NAMES[FORWARD];
}

void
PfcWatchdog::SetActionName(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    NS_ABORT_MSG_UNLESS(IsActionName(name),
                        "PfcWatchdog: Action \"" << name << "\" is not \"drop\" or \"forward\"");
    m_action = name == ACTION_NAMES[DROP] ? DROP : FORWARD;
}

std::string
PfcWatchdog::GetActionName() const
{
    return ACTION_NAMES[m_action];
}

PfcWatchdog::Action
PfcWatchdog::GetAction() const
{
    return m_action;
}

Time
PfcWatchdog::GetDetectionTime() const
{
    return m_detectionTime;
}

Time
PfcWatchdog::GetRestorationTime() const
{
    return m_restorationTime;
}

void
PfcWatchdog::SetDevice(PfcNetDevice* dev)
{
    m_device = dev;
}

uint8_t
PfcWatchdog::GetStormedMask() const
{
    return m_stormed;
}

const PfcWatchdog::Counters&
PfcWatchdog::GetCounters() const
{
    return m_counters;
}

void
PfcWatchdog::PauseStarted(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    m_pausedSince[prio] = Simulator::Now();
    // One pending check per priority: pauses that come and go often cost
    // one event per DetectionTime, not one per pause.
    if (m_checkStorm[prio].IsExpired())
    {
        m_checkStorm[prio] =
            Simulator::Schedule(m_detectionTime, &PfcWatchdog::CheckStorm, this, prio);
    }
}

void
PfcWatchdog::CheckStorm(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    const uint8_t bit = 1u << prio;
    if (!m_device || (m_stormed & bit) || !(m_device->GetPausedMask() & bit))
    {
        return; // the next pause schedules the next check
    }
    const Time due = m_pausedSince[prio] + m_detectionTime;
    if (due > Simulator::Now())
    {
        // paused again since the check was scheduled
        m_checkStorm[prio] =
            Simulator::Schedule(due - Simulator::Now(), &PfcWatchdog::CheckStorm, this, prio);
        return;
    }
    Ptr<PfcEgress> egress = m_device->GetEgress();
    if (!egress || !egress->HasQueued(prio))
    {
        // paused but nothing held back: no storm (yet); look again later
        m_checkStorm[prio] =
            Simulator::Schedule(m_detectionTime, &PfcWatchdog::CheckStorm, this, prio);
        return;
    }
    NS_LOG_INFO("PFC storm on priority " << +prio << ", paused since "
                                         << m_pausedSince[prio].As(Time::US));
    m_stormed |= bit;
    m_lastPause[prio] = Simulator::Now();
    ++m_counters.storms;
    m_stormDetectedTrace(prio);
    m_checkRestore[prio] =
        Simulator::Schedule(m_restorationTime, &PfcWatchdog::CheckRestore, this, prio);
    m_device->IgnorePause(prio, m_action == DROP);
}

void
PfcWatchdog::PauseIgnored(uint8_t prio)
{
    m_lastPause[prio] = Simulator::Now();
    ++m_counters.ignoredPauses;
}

void
PfcWatchdog::CheckRestore(uint8_t prio)
{
    NS_LOG_FUNCTION(this << +prio);
    const Time due = m_lastPause[prio] + m_restorationTime;
    if (due > Simulator::Now())
    {
        m_checkRestore[prio] =
            Simulator::Schedule(due - Simulator::Now(), &PfcWatchdog::CheckRestore, this, prio);
        return;
    }
    NS_LOG_INFO("PFC storm on priority " << +prio << " over");
    m_stormed &= ~(1u << prio);
    ++m_counters.restorations;
    m_stormRestoredTrace(prio);
    if (m_device)
    {
        m_device->HonourPause(prio);
    }
}

void
PfcWatchdog::Discarded(Ptr<const QueueDiscItem> item)
{
    ++m_counters.drops;
    m_dropTrace(item);
}

void
PfcWatchdog::Forwarded(uint8_t /* prio */)
{
    ++m_counters.forwarded;
}

} // namespace ns3
