/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-band-queue.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcBandQueue");

NS_OBJECT_ENSURE_REGISTERED(PfcBandQueue);

TypeId
PfcBandQueue::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcBandQueue")
                            .SetParent<QueueDisc::InternalQueue>()
                            .SetGroupName("Flux")
                            .AddConstructor<PfcBandQueue>();
    return tid;
}

// No NS_LOG_FUNCTION in the members: inside a Queue subclass the log macros would name the
// base class's private log component (builds with logging enabled).

PfcBandQueue::PfcBandQueue()
    : m_nonEmpty(0)
{
    m_bandPackets.fill(0);
    m_bandBytes.fill(0);
}

PfcBandQueue::~PfcBandQueue() = default;

int
PfcBandQueue::HighestBand() const
{
    return m_nonEmpty == 0 ? -1 : 31 - __builtin_clz(static_cast<unsigned>(m_nonEmpty));
}

bool
PfcBandQueue::Enqueue(Ptr<QueueDiscItem> item)
{
    uint8_t ds = 0;
    item->GetUint8Value(QueueItem::IP_DSFIELD, ds);
    return EnqueueBand(TrafficClass::FromDsField(ds), item);
}

bool
PfcBandQueue::EnqueueBand(uint8_t band, Ptr<QueueDiscItem> item)
{
    NS_ABORT_MSG_IF(band >= N_BANDS, "PfcBandQueue: no band " << +band);
    // The item goes before the first item of the next lower non-empty band,
    // or at the end of the list.
    const unsigned lower = m_nonEmpty & ((1u << band) - 1);
    const ListIterator pos = lower == 0 ? ListEnd(0) : m_head[31 - __builtin_clz(lower)];
    const uint32_t size = item->GetSize();
    if (!DoEnqueue(pos, item))
    {
        return false;
    }
    if (m_bandPackets[band]++ == 0)
    {
        m_head[band] = std::prev(pos);
        m_nonEmpty |= static_cast<uint8_t>(1u << band);
    }
    m_bandBytes[band] += size;
    return true;
}

Ptr<QueueDiscItem>
PfcBandQueue::TakeHead(uint8_t band, bool drop)
{
    const ListIterator head = m_head[band];
    if (--m_bandPackets[band] == 0)
    {
        m_nonEmpty &= static_cast<uint8_t>(~(1u << band));
    }
    else
    {
        m_head[band] = std::next(head);
    }
    Ptr<QueueDiscItem> item = drop ? DoRemove(head) : DoDequeue(head);
    m_bandBytes[band] -= item->GetSize();
    return item;
}

Ptr<QueueDiscItem>
PfcBandQueue::DequeueBand(uint8_t band)
{
    if (band >= N_BANDS || m_bandPackets[band] == 0)
    {
        return nullptr;
    }
    return TakeHead(band, false);
}

Ptr<const QueueDiscItem>
PfcBandQueue::PeekBand(uint8_t band) const
{
    if (band >= N_BANDS || m_bandPackets[band] == 0)
    {
        return nullptr;
    }
    return DoPeek(m_head[band]);
}

Ptr<QueueDiscItem>
PfcBandQueue::Dequeue()
{
    const int band = HighestBand();
    return band < 0 ? nullptr : TakeHead(static_cast<uint8_t>(band), false);
}

Ptr<QueueDiscItem>
PfcBandQueue::Remove()
{
    const int band = HighestBand();
    return band < 0 ? nullptr : TakeHead(static_cast<uint8_t>(band), true);
}

Ptr<const QueueDiscItem>
PfcBandQueue::Peek() const
{
    const int band = HighestBand();
    return band < 0 ? nullptr : DoPeek(m_head[band]);
}

uint32_t
PfcBandQueue::GetBandPackets(uint8_t band) const
{
    return band < N_BANDS ? m_bandPackets[band] : 0;
}

uint32_t
PfcBandQueue::GetBandBytes(uint8_t band) const
{
    return band < N_BANDS ? m_bandBytes[band] : 0;
}

} // namespace ns3
