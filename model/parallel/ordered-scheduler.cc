/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ordered-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OrderedScheduler");

NS_OBJECT_ENSURE_REGISTERED(OrderedScheduler);

uint32_t OrderedScheduler::s_nextKey = OrderedScheduler::DEFAULT_KEY;

namespace
{

/// The registered kinds of keyed events by order (a function's static, so
/// that registrations from other files' static initialisers find it built).
std::map<uint32_t, std::string>&
Kinds()
{
    static std::map<uint32_t, std::string> kinds;
    return kinds;
}

} // namespace

uint32_t
OrderedScheduler::RegisterKind(const std::string& name, uint32_t order)
{
    NS_ABORT_MSG_IF(order < 1 || order > 127,
                    "OrderedScheduler: kind '" << name << "' has order " << order
                                               << ", outside 1 to 127");
    auto [it, added] = Kinds().emplace(order, name);
    NS_ABORT_MSG_IF(!added && it->second != name,
                    "OrderedScheduler: kinds '" << it->second << "' and '" << name
                                                << "' both have order " << order);
    return order;
}

std::vector<std::pair<uint32_t, std::string>>
OrderedScheduler::GetKinds()
{
    return {Kinds().begin(), Kinds().end()};
}

TypeId
OrderedScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::OrderedScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("Flux")
                            .AddConstructor<OrderedScheduler>();
    return tid;
}

OrderedScheduler::OrderedScheduler()
{
    NS_LOG_FUNCTION(this);
    s_nextKey = DEFAULT_KEY; // a key set while another scheduler ran is stale
}

OrderedScheduler::~OrderedScheduler() = default;

void
OrderedScheduler::Insert(const Scheduler::Event& ev)
{
    m_heap.push_back(Entry{ev, s_nextKey});
    s_nextKey = DEFAULT_KEY;
    std::push_heap(m_heap.begin(), m_heap.end(), std::greater<Entry>());
}

bool
OrderedScheduler::IsEmpty() const
{
    return m_heap.empty();
}

Scheduler::Event
OrderedScheduler::PeekNext() const
{
    NS_ASSERT(!m_heap.empty());
    return m_heap.front().ev;
}

Scheduler::Event
OrderedScheduler::RemoveNext()
{
    NS_ASSERT(!m_heap.empty());
    std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<Entry>());
    const Scheduler::Event ev = m_heap.back().ev;
    m_heap.pop_back();
    return ev;
}

void
OrderedScheduler::Remove(const Scheduler::Event& ev)
{
    NS_LOG_FUNCTION(this);
    // Simulator::Remove is rare (Cancel only marks the event): a linear
    // search and a rebuilt heap are enough.
    for (std::size_t i = 0; i < m_heap.size(); ++i)
    {
        if (m_heap[i].ev.key.m_uid == ev.key.m_uid)
        {
            NS_ASSERT(m_heap[i].ev.impl == ev.impl);
            m_heap[i] = m_heap.back();
            m_heap.pop_back();
            std::make_heap(m_heap.begin(), m_heap.end(), std::greater<Entry>());
            return;
        }
    }
    NS_ASSERT_MSG(false, "OrderedScheduler: event to remove not found");
}

} // namespace ns3
