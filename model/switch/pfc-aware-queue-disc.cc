/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-aware-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/traffic-class.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcAwareQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PfcAwareQueueDisc);

TypeId
PfcAwareQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcAwareQueueDisc").SetParent<QueueDisc>().SetGroupName("Flux");
    return tid;
}

PfcAwareQueueDisc::PfcAwareQueueDisc(QueueDiscSizePolicy policy)
    : QueueDisc(policy),
      m_pausedMask(0)
{
    NS_LOG_FUNCTION(this);
}

PfcAwareQueueDisc::~PfcAwareQueueDisc() = default;

void
PfcAwareQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_pollCallback = PollCallback();
    QueueDisc::DoDispose();
}

void
PfcAwareQueueDisc::SetPollCallback(PollCallback cb)
{
    m_pollCallback = cb;
}

void
PfcAwareQueueDisc::RequestPoll(Time delay)
{
    if (!m_pollCallback.IsNull())
    {
        m_pollCallback(delay);
    }
}

void
PfcAwareQueueDisc::SetPausedMask(uint8_t mask)
{
    m_pausedMask = mask;
}

uint8_t
PfcAwareQueueDisc::GetPausedMask() const
{
    return m_pausedMask;
}

bool
PfcAwareQueueDisc::ServesClassInOrder() const
{
    return true;
}

bool
PfcAwareQueueDisc::StartDirect()
{
    return false;
}

bool
PfcAwareQueueDisc::EnqueueDirect(Ptr<QueueDiscItem> item)
{
    NS_ABORT_MSG("PfcAwareQueueDisc: " << GetInstanceTypeId().GetName() << " has no direct path");
    return false;
}

Ptr<QueueDiscItem>
PfcAwareQueueDisc::DequeueDirect()
{
    NS_ABORT_MSG("PfcAwareQueueDisc: " << GetInstanceTypeId().GetName() << " has no direct path");
    return nullptr;
}

uint8_t
PfcAwareQueueDisc::GetItemPriority(Ptr<const QueueDiscItem> item)
{
    uint8_t ds = 0;
    item->GetUint8Value(QueueItem::IP_DSFIELD, ds);
    return TrafficClass::FromDsField(ds);
}

} // namespace ns3
