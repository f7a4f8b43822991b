/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-prio-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/log.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPrioQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(PfcPrioQueueDisc);

TypeId
PfcPrioQueueDisc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcPrioQueueDisc")
                            .SetParent<PfcAwareQueueDisc>()
                            .SetGroupName("Flux")
                            .AddConstructor<PfcPrioQueueDisc>();
    return tid;
}

PfcPrioQueueDisc::PfcPrioQueueDisc()
    : PfcAwareQueueDisc(QueueDiscSizePolicy::NO_LIMITS),
      m_bandQueue(nullptr),
      m_nonEmpty(0)
{
    NS_LOG_FUNCTION(this);
    m_bands.fill(nullptr);
}

PfcPrioQueueDisc::~PfcPrioQueueDisc() = default;

void
PfcPrioQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_bandQueue = nullptr;
    m_bands.fill(nullptr);
    m_nonEmpty = 0;
    PfcAwareQueueDisc::DoDispose();
}

uint32_t
PfcPrioQueueDisc::GetBandPackets(uint8_t band) const
{
    if (m_bandQueue)
    {
        return m_bandQueue->GetBandPackets(band);
    }
    return (band < N_BANDS && m_bands[band]) ? m_bands[band]->GetNPackets() : 0;
}

uint32_t
PfcPrioQueueDisc::GetBandBytes(uint8_t band) const
{
    if (m_bandQueue)
    {
        return m_bandQueue->GetBandBytes(band);
    }
    return (band < N_BANDS && m_bands[band]) ? m_bands[band]->GetNBytes() : 0;
}

bool
PfcPrioQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    const uint8_t band = GetItemPriority(item);
    if (m_bandQueue)
    {
        return m_bandQueue->EnqueueBand(band, item);
    }
    // A failed enqueue is reported as a drop by the internal queue itself.
    if (!m_bands[band]->Enqueue(item))
    {
        return false;
    }
    m_nonEmpty |= (1u << band);
    return true;
}

int
PfcPrioQueueDisc::SelectBand() const
{
    const uint8_t nonEmpty = m_bandQueue ? m_bandQueue->GetNonEmptyMask() : m_nonEmpty;
    return TrafficClass::HighestReady(static_cast<uint8_t>(nonEmpty & ~m_pausedMask));
}

Ptr<QueueDiscItem>
PfcPrioQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    const int band = SelectBand();
    if (band < 0)
    {
        return nullptr;
    }
    if (m_bandQueue)
    {
        return m_bandQueue->DequeueBand(static_cast<uint8_t>(band));
    }
    Ptr<QueueDiscItem> item = m_bands[band]->Dequeue();
    if (m_bands[band]->IsEmpty())
    {
        m_nonEmpty &= ~(1u << band);
    }
    return item;
}

Ptr<const QueueDiscItem>
PfcPrioQueueDisc::DoPeek()
{
    const int band = SelectBand();
    if (band < 0)
    {
        return nullptr;
    }
    return m_bandQueue ? m_bandQueue->PeekBand(static_cast<uint8_t>(band)) : m_bands[band]->Peek();
}

bool
PfcPrioQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNQueueDiscClasses() > 0)
    {
        NS_LOG_ERROR("PfcPrioQueueDisc cannot have classes");
        return false;
    }
    if (GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("PfcPrioQueueDisc classifies by DS field and uses no packet filter");
        return false;
    }
    if (GetNInternalQueues() == 0)
    {
        Ptr<InternalQueue> q = CreateObject<PfcBandQueue>();
        q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
        AddInternalQueue(q);
    }
    const bool oneBandQueue =
        GetNInternalQueues() == 1 && DynamicCast<PfcBandQueue>(GetInternalQueue(0));
    if (!oneBandQueue && GetNInternalQueues() != N_BANDS)
    {
        NS_LOG_ERROR("PfcPrioQueueDisc needs one PfcBandQueue or 8 internal queues");
        return false;
    }
    return true;
}

void
PfcPrioQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // QueueDisc only asserts CheckConfig(), which release builds compile out.
    m_bandQueue = GetNInternalQueues() == 1
                      ? PeekPointer(DynamicCast<PfcBandQueue>(GetInternalQueue(0)))
                      : nullptr;
    NS_ABORT_MSG_IF(!m_bandQueue && GetNInternalQueues() != N_BANDS,
                    "PfcPrioQueueDisc needs one PfcBandQueue or 8 internal queues, has "
                        << GetNInternalQueues());
    m_nonEmpty = 0;
    m_bands.fill(nullptr);
    for (uint8_t b = 0; !m_bandQueue && b < N_BANDS; ++b)
    {
        m_bands[b] = PeekPointer(GetInternalQueue(b));
        if (!m_bands[b]->IsEmpty())
        {
            m_nonEmpty |= (1u << b);
        }
    }
}

} // namespace ns3
