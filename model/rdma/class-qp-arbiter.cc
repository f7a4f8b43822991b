/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "class-qp-arbiter.h"

#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ClassQpArbiter");

NS_OBJECT_ENSURE_REGISTERED(ClassQpArbiter);

TypeId
ClassQpArbiter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ClassQpArbiter")
            .SetParent<RdmaQpArbiter>()
            .SetGroupName("Flux")
            .AddConstructor<ClassQpArbiter>()
            .AddAttribute("Order",
                          "Precedence of the traffic classes: class numbers separated by spaces "
                          "or commas, "
                          "highest precedence first (e.g. \"5 4 3 2 1 0\"); classes not "
                          "listed follow in descending class number. Empty: descending "
                          "class number (strict priority by class).",
                          StringValue(""),
                          MakeStringAccessor(&ClassQpArbiter::SetOrderString,
                                             &ClassQpArbiter::GetOrderString),
                          MakeStringChecker())
            .AddAttribute(
                "Quantum",
                "Deficit round robin among the queue pairs of one class: bytes of "
                "credit a queue pair gets per turn (default: about one 4096-byte "
                "payload frame).",
                UintegerValue(4200),
                MakeUintegerAccessor(&ClassQpArbiter::SetQuantum, &ClassQpArbiter::GetQuantum),
                MakeUintegerChecker<uint32_t>(1));
    return tid;
}

ClassQpArbiter::ClassQpArbiter()
    : m_nonEmpty(0),
      m_quantum(4200),
      m_lastClass(0),
      m_lastIndex(0)
{
    NS_LOG_FUNCTION(this);
    m_pos.fill(0);
    m_turnOpen.fill(false);
    SetClassOrder({});
}

ClassQpArbiter::~ClassQpArbiter() = default;

void
ClassQpArbiter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Clear();
    RdmaQpArbiter::DoDispose();
}

void
ClassQpArbiter::SetClassOrder(const std::vector<uint8_t>& order)
{
    NS_LOG_FUNCTION(this);
    uint8_t seen = 0;
    for (uint8_t c : order)
    {
        if (c >= TrafficClass::N_CLASSES)
        {
            throw std::invalid_argument("ClassQpArbiter: class " + std::to_string(c) +
                                        " out of range 0.." +
                                        std::to_string(TrafficClass::N_CLASSES - 1));
        }
        if (seen & TrafficClass::Bit(c))
        {
            throw std::invalid_argument("ClassQpArbiter: class " + std::to_string(c) +
                                        " listed twice");
        }
        seen |= TrafficClass::Bit(c);
    }
    std::size_t r = 0;
    for (uint8_t c : order)
    {
        m_order[r++] = c;
    }
    for (int c = TrafficClass::N_CLASSES - 1; c >= 0; --c)
    {
        if (!(seen & TrafficClass::Bit(static_cast<uint8_t>(c))))
        {
            m_order[r++] = static_cast<uint8_t>(c);
        }
    }
}

std::vector<uint8_t>
ClassQpArbiter::GetClassOrder() const
{
    return std::vector<uint8_t>(m_order.begin(), m_order.end());
}

void
ClassQpArbiter::SetOrderString(std::string order)
{
    std::vector<uint8_t> classes;
    if (!TrafficClass::ParseOrder(order, classes))
    {
        throw std::invalid_argument("ClassQpArbiter: Order \"" + order +
                                    "\" is not class numbers 0..7");
    }
    SetClassOrder(classes);
}

std::string
ClassQpArbiter::GetOrderString() const
{
    return TrafficClass::FormatOrder(GetClassOrder());
}

void
ClassQpArbiter::SetQuantum(uint32_t bytes)
{
    m_quantum = bytes > 0 ? bytes : 1;
}

uint32_t
ClassQpArbiter::GetQuantum() const
{
    return m_quantum;
}

std::size_t
ClassQpArbiter::GetNActive(uint8_t cls) const
{
    return cls < TrafficClass::N_CLASSES ? m_lists[cls].size() : 0;
}

void
ClassQpArbiter::Activate(RdmaQueuePair* qp)
{
    const uint8_t c = ClassOf(qp);
    m_lists[c].push_back(Entry{qp, 0, 0});
    m_nonEmpty |= TrafficClass::Bit(c);
}

void
ClassQpArbiter::Erase(uint8_t cls, std::size_t i)
{
    std::vector<Entry>& list = m_lists[cls];
    const std::size_t n = list.size();
    const std::size_t holder = m_pos[cls] % n;
    if (i == holder)
    {
        m_turnOpen[cls] = false; // another queue pair takes its place
    }
    else if (holder == n - 1)
    {
        m_pos[cls] = i; // the last one, whose turn it is, fills the gap
    }
    list[i] = list.back();
    list.pop_back();
    if (list.empty())
    {
        m_nonEmpty &= ~TrafficClass::Bit(cls);
    }
}

void
ClassQpArbiter::Remove(RdmaQueuePair* qp)
{
    NS_LOG_FUNCTION(this << qp);
    const uint8_t c = ClassOf(qp);
    for (std::size_t i = 0; i < m_lists[c].size(); ++i)
    {
        if (m_lists[c][i].qp == qp)
        {
            Erase(c, i);
            return;
        }
    }
}

void
ClassQpArbiter::ClassChanged(RdmaQueuePair* qp, uint8_t oldClass)
{
    NS_LOG_FUNCTION(this << qp << +oldClass);
    std::vector<Entry>& list = m_lists[oldClass];
    for (std::size_t i = 0; i < list.size(); ++i)
    {
        if (list[i].qp == qp)
        {
            Erase(oldClass, i);
            Activate(qp);
            return;
        }
    }
}

RdmaQueuePair*
ClassQpArbiter::Next(uint8_t pausedMask, Time now, Time& earliest)
{
    uint8_t ready = m_nonEmpty & ~pausedMask;
    for (std::size_t r = 0; ready != 0 && r < TrafficClass::N_CLASSES; ++r)
    {
        const uint8_t c = m_order[r];
        if (!(ready & TrafficClass::Bit(c)))
        {
            continue;
        }
        ready &= ~TrafficClass::Bit(c);
        RdmaQueuePair* qp = NextInClass(c, pausedMask, now, earliest);
        if (qp)
        {
            return qp;
        }
    }
    return nullptr;
}

RdmaQueuePair*
ClassQpArbiter::NextInClass(uint8_t cls, uint8_t pausedMask, Time now, Time& earliest)
{
    std::vector<Entry>& list = m_lists[cls];
    bool anyEligible = true;
    // Each pass gives every eligible queue pair one quantum: with a quantum
    // smaller than a frame, several passes may be needed.
    while (anyEligible)
    {
        anyEligible = false;
        std::size_t n = list.size();
        for (std::size_t k = 0; k < n;)
        {
            const std::size_t i = (m_pos[cls] + k) % n;
            Entry& e = list[i];
            const Eligibility el = Check(e.qp, pausedMask, now, earliest);
            if (el == IDLE)
            {
                SetInactive(e.qp);
                Erase(cls, i);
                --n;
                continue;
            }
            ++k;
            const bool holder = m_turnOpen[cls] && i == m_pos[cls] % n;
            if (el != ELIGIBLE)
            {
                if (holder)
                {
                    m_turnOpen[cls] = false; // the turn passes on
                }
                continue;
            }
            anyEligible = true;
            if (!holder)
            {
                // its turn begins
                e.deficit += m_quantum;
                m_pos[cls] = i;
                m_turnOpen[cls] = true;
            }
            if (e.deficit < static_cast<int64_t>(e.last))
            {
                m_turnOpen[cls] = false; // not enough credit: keep it for later
                continue;
            }
            m_lastClass = cls;
            m_lastIndex = i;
            return e.qp;
        }
    }
    return nullptr;
}

void
ClassQpArbiter::NotifySent(RdmaQueuePair* qp, uint32_t bytes)
{
    std::vector<Entry>& list = m_lists[m_lastClass];
    if (m_lastIndex >= list.size() || list[m_lastIndex].qp != qp)
    {
        return;
    }
    Entry& e = list[m_lastIndex];
    e.deficit -= bytes;
    e.last = bytes;
    if (e.deficit < static_cast<int64_t>(bytes))
    {
        // its turn ends
        m_pos[m_lastClass] = m_lastIndex + 1;
        m_turnOpen[m_lastClass] = false;
    }
}

bool
ClassQpArbiter::HasActive() const
{
    return m_nonEmpty != 0;
}

void
ClassQpArbiter::Clear()
{
    for (auto& list : m_lists)
    {
        list.clear();
    }
    m_pos.fill(0);
    m_turnOpen.fill(false);
    m_nonEmpty = 0;
}

} // namespace ns3
