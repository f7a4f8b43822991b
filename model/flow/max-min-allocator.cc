/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "max-min-allocator.h"

#include "ns3/traffic-class.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace ns3
{

MaxMinAllocator::MaxMinAllocator()
    : m_rank(TrafficClass::N_CLASSES),
      m_classCount(TrafficClass::N_CLASSES + 1)
{
    SetClassOrder({});
}

void
MaxMinAllocator::SetCapacities(const std::vector<double>& capacity)
{
    m_links.assign(capacity.size(), LinkState());
    for (std::size_t l = 0; l < capacity.size(); ++l)
    {
        m_links[l].capacity = capacity[l];
    }
}

uint32_t
MaxMinAllocator::AddLink(double capacity)
{
    m_links.emplace_back();
    m_links.back().capacity = std::max(0.0, capacity);
    return static_cast<uint32_t>(m_links.size() - 1);
}

void
MaxMinAllocator::SetResidual(uint32_t link, double capacity)
{
    m_links[link].leftCall = m_call + 1;
    m_links[link].left = capacity;
}

void
MaxMinAllocator::SetCapacity(uint32_t link, double capacity)
{
    m_links.at(link).capacity = std::max(0.0, capacity);
}

uint32_t
MaxMinAllocator::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

double
MaxMinAllocator::GetCapacity(uint32_t link) const
{
    return m_links.at(link).capacity;
}

void
MaxMinAllocator::SetClassOrder(const std::vector<uint8_t>& order)
{
    std::vector<bool> listed(TrafficClass::N_CLASSES, false);
    uint8_t next = 0;
    for (uint8_t c : order)
    {
        if (c < TrafficClass::N_CLASSES && !listed[c])
        {
            listed[c] = true;
            m_rank[c] = next++;
        }
    }
    for (int c = TrafficClass::N_CLASSES - 1; c >= 0; --c)
    {
        if (!listed[c])
        {
            m_rank[c] = next++;
        }
    }
}

void
MaxMinAllocator::Allocate(std::vector<Demand>& demands)
{
    const std::size_t n = demands.size();
    ++m_call;
    if (n == 1)
    {
        FillAlone(demands[0]); // (a class of one flow, however ranked)
        return;
    }
    // The flows sorted by the precedence of their class (a counting sort).
    std::fill(m_classCount.begin(), m_classCount.end(), 0);
    for (const Demand& d : demands)
    {
        ++m_classCount[m_rank[d.cls & 7u] + 1u];
    }
    for (std::size_t r = 1; r < m_classCount.size(); ++r)
    {
        m_classCount[r] += m_classCount[r - 1];
    }
    m_order.resize(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        m_order[m_classCount[m_rank[demands[i].cls & 7u]]++] = static_cast<uint32_t>(i);
    }
    // m_classCount[r] is now the end of rank r (the start of rank r + 1).
    m_frozen.assign(n, 0);
    std::size_t begin = 0;
    for (std::size_t r = 0; r < TrafficClass::N_CLASSES; ++r)
    {
        const std::size_t end = m_classCount[r];
        if (end > begin)
        {
            FillClass(demands, begin, end);
        }
        begin = end;
    }
}

void
MaxMinAllocator::Freeze(std::vector<Demand>& demands, uint32_t l, double level)
{
    // The link is full: every flow still rising on it stops here.
    const uint32_t start = m_links[l].start;
    const uint32_t count = m_linkFlows[start - 1];
    for (uint32_t k = 0; k < count; ++k)
    {
        const uint32_t f = m_linkFlows[start + k];
        if (!m_frozen[f])
        {
            FreezeFlow(demands, f, level);
        }
    }
    m_links[l].weight = 0;
}

void
MaxMinAllocator::FreezeFlow(std::vector<Demand>& demands, uint32_t f, double level)
{
    m_frozen[f] = 1;
    Demand& d = demands[f];
    d.rate = level * d.weight;
    for (uint32_t h = 0; h < d.hops; ++h)
    {
        const uint32_t m = d.links[h];
        Left(m) -= d.rate;
        m_links[m].weight -= d.weight;
        if (m_links[m].weight <= 1e-12)
        {
            m_links[m].weight = 0;
        }
    }
}

double
MaxMinAllocator::Room(uint32_t l)
{
    // What rounding leaves of a full link is nothing: a rate of a
    // billionth of the link would end its message in centuries.
    const double left = Left(l);
    return left > m_links[l].capacity * 1e-9 ? left : 0.0;
}

double&
MaxMinAllocator::Left(uint32_t l)
{
    if (m_links[l].leftCall != m_call)
    {
        m_links[l].leftCall = m_call;
        m_links[l].left = m_links[l].capacity;
    }
    return m_links[l].left;
}

void
MaxMinAllocator::FillAlone(Demand& d)
{
    // Its rate rises until the first of its links is full: the least room
    // per weight among them, as the water-filling below would find it.
    d.rate = 0;
    if (d.hops == 0)
    {
        return;
    }
    double level = std::numeric_limits<double>::infinity();
    for (uint32_t h = 0; h < d.hops; ++h)
    {
        level = std::min(level, Room(d.links[h]) / d.weight);
    }
    d.rate = level * d.weight;
    for (uint32_t h = 0; h < d.hops; ++h)
    {
        double& left = Left(d.links[h]);
        left -= d.rate;
        left = Room(d.links[h]);
    }
}

void
MaxMinAllocator::FillFew(std::vector<Demand>& demands, std::size_t begin, std::size_t end)
{
    // The links and their rising weights (start marks a link listed).
    m_touched.clear();
    for (std::size_t i = begin; i < end; ++i)
    {
        Demand& d = demands[m_order[i]];
        d.rate = 0;
        m_frozen[m_order[i]] = d.hops == 0 ? 1 : 0;
        for (uint32_t h = 0; h < d.hops; ++h)
        {
            LinkState& link = m_links[d.links[h]];
            if (link.start == 0)
            {
                link.start = 1;
                m_touched.push_back(d.links[h]);
            }
            link.weight += d.weight;
        }
    }
    while (true)
    {
        double lowest = std::numeric_limits<double>::infinity();
        for (uint32_t l : m_touched)
        {
            if (m_links[l].weight > 0)
            {
                lowest = std::min(lowest, Room(l) / m_links[l].weight);
            }
        }
        if (lowest == std::numeric_limits<double>::infinity())
        {
            break;
        }
        // every flow on a link at the lowest level stops there (freezing
        // one leaves the level of its links as it was)
        const double at = lowest * (1 + 1e-12) + 1e-300;
        for (std::size_t i = begin; i < end; ++i)
        {
            const uint32_t f = m_order[i];
            if (m_frozen[f])
            {
                continue;
            }
            const Demand& d = demands[f];
            for (uint32_t h = 0; h < d.hops; ++h)
            {
                const uint32_t l = d.links[h];
                if (m_links[l].weight > 0 && Room(l) / m_links[l].weight <= at)
                {
                    FreezeFlow(demands, f, lowest);
                    break;
                }
            }
        }
    }
    for (uint32_t l : m_touched)
    {
        m_links[l].start = 0;
        m_links[l].weight = 0;
        Left(l) = Room(l);
    }
}

void
MaxMinAllocator::FillClass(std::vector<Demand>& demands, std::size_t begin, std::size_t end)
{
    if (end - begin == 1)
    {
        FillAlone(demands[m_order[begin]]);
        return;
    }
    if (end - begin <= FEW_FLOWS)
    {
        FillFew(demands, begin, end);
        return;
    }
    // The links the class crosses, each one's rising weight and flow count
    // (counted in the links' start, which is zero for every untouched link).
    m_touched.clear();
    std::size_t entries = 0;
    for (std::size_t i = begin; i < end; ++i)
    {
        Demand& d = demands[m_order[i]];
        d.rate = 0;
        if (d.hops == 0)
        {
            m_frozen[m_order[i]] = 1;
            continue;
        }
        for (uint32_t h = 0; h < d.hops; ++h)
        {
            const uint32_t l = d.links[h];
            if (m_links[l].start == 0)
            {
                m_touched.push_back(l);
            }
            ++m_links[l].start;
            m_links[l].weight += d.weight;
        }
        entries += d.hops;
    }
    // Each touched link's flows in m_linkFlows: a slot for how many are
    // filled in so far, then the flows (a link's start points past the slot).
    m_linkFlows.resize(entries + m_touched.size());
    std::size_t offset = 0;
    for (uint32_t l : m_touched)
    {
        const uint32_t count = m_links[l].start;
        m_linkFlows[offset] = 0;
        m_links[l].start = static_cast<uint32_t>(offset + 1);
        offset += count + 1;
    }
    for (std::size_t i = begin; i < end; ++i)
    {
        const uint32_t f = m_order[i];
        const Demand& d = demands[f];
        for (uint32_t h = 0; h < d.hops; ++h)
        {
            const uint32_t l = d.links[h];
            uint32_t& filled = m_linkFlows[m_links[l].start - 1];
            m_linkFlows[m_links[l].start + filled] = f;
            ++filled;
        }
    }

    // A link that only one flow of the class crosses is a cap on that flow
    // alone, fixed until the flow freezes: the caps, sorted, stand for
    // those links. The links shared by several flows are searched for the
    // smallest share. Water-filling freezes flows in rising order of rate,
    // taking the lower of the next cap and the smallest share each time.
    m_caps.clear();
    m_shared.clear();
    for (std::size_t i = begin; i < end; ++i)
    {
        const uint32_t f = m_order[i];
        const Demand& d = demands[f];
        double cap = std::numeric_limits<double>::infinity();
        for (uint32_t h = 0; h < d.hops; ++h)
        {
            const uint32_t l = d.links[h];
            if (m_linkFlows[m_links[l].start - 1] == 1)
            {
                cap = std::min(cap, Room(l) / d.weight);
            }
        }
        if (cap < std::numeric_limits<double>::infinity())
        {
            m_caps.emplace_back(cap, f);
        }
    }
    std::sort(m_caps.begin(), m_caps.end());
    for (uint32_t l : m_touched)
    {
        if (m_linkFlows[m_links[l].start - 1] > 1)
        {
            m_shared.push_back(l);
        }
    }
    std::size_t nextCap = 0;
    // The next cap of a flow still rising (infinity when none is left).
    auto lowestCap = [&]() {
        while (nextCap < m_caps.size() && m_frozen[m_caps[nextCap].second])
        {
            ++nextCap;
        }
        return nextCap < m_caps.size() ? m_caps[nextCap].first
                                       : std::numeric_limits<double>::infinity();
    };
    // A link's share per weight only grows as flows freeze (each freezes at
    // the smallest share, no more than the link's own). Few shared links:
    // scan them for the smallest share, and freeze every link at it (a
    // round per distinct rate). Many: a heap that keeps each link once at
    // a share that may have grown since (a link found with a larger share
    // than its key goes back in at its share).
    if (m_shared.size() <= SCAN_LINKS)
    {
        while (true)
        {
            double lowest = std::numeric_limits<double>::infinity();
            for (uint32_t l : m_shared)
            {
                if (m_links[l].weight > 0)
                {
                    lowest = std::min(lowest, Room(l) / m_links[l].weight);
                }
            }
            const double cap = lowestCap();
            if (cap <= lowest && cap < std::numeric_limits<double>::infinity())
            {
                FreezeFlow(demands, m_caps[nextCap].second, cap);
                continue;
            }
            if (lowest == std::numeric_limits<double>::infinity())
            {
                break;
            }
            for (uint32_t l : m_shared)
            {
                if (m_links[l].weight > 0)
                {
                    const double level = Room(l) / m_links[l].weight;
                    if (level <= lowest * (1 + 1e-12) + 1e-300)
                    {
                        Freeze(demands, l, level);
                    }
                }
            }
        }
    }
    else
    {
        using Entry = std::pair<double, uint32_t>;
        const auto later = std::greater<Entry>();
        m_heap.clear();
        for (uint32_t l : m_shared)
        {
            m_heap.emplace_back(Room(l) / m_links[l].weight, l);
        }
        std::make_heap(m_heap.begin(), m_heap.end(), later);
        while (true)
        {
            const double cap = lowestCap();
            if (cap < std::numeric_limits<double>::infinity() &&
                (m_heap.empty() || cap <= m_heap.front().first))
            {
                FreezeFlow(demands, m_caps[nextCap].second, cap);
                continue;
            }
            if (m_heap.empty())
            {
                break;
            }
            std::pop_heap(m_heap.begin(), m_heap.end(), later);
            const Entry top = m_heap.back();
            m_heap.pop_back();
            const uint32_t l = top.second;
            if (m_links[l].weight <= 0)
            {
                continue; // every flow on it is frozen
            }
            const double level = Room(l) / m_links[l].weight;
            if (level > top.first * (1 + 1e-12) + 1e-300 || level > cap)
            {
                m_heap.emplace_back(level, l);
                std::push_heap(m_heap.begin(), m_heap.end(), later);
                continue;
            }
            Freeze(demands, l, level);
        }
    }
    for (uint32_t l : m_touched)
    {
        m_links[l].start = 0;
        m_links[l].weight = 0;
        Left(l) = Room(l);
    }
}

} // namespace ns3
