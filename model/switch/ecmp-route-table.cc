/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-route-table.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpRouteTable");

EcmpRouteTable::EcmpRouteTable()
    : m_base(0),
      m_size(0)
{
    NS_LOG_FUNCTION(this);
}

EcmpRouteTable::ConstIterator
EcmpRouteTable::FindSparse(uint32_t dst) const
{
    auto it = m_sparse.find(dst);
    return it == m_sparse.end() ? end() : ConstIterator(dst, it->second - 1u);
}

void
EcmpRouteTable::Set(uint32_t dst, uint32_t group)
{
    NS_ABORT_MSG_IF(group > MAX_GROUP,
                    "EcmpRouteTable: more than " << MAX_GROUP + 1
                                                 << " distinct ECMP groups in one switch");
    const auto number = static_cast<uint16_t>(group + 1);
    if (m_slots.empty() && m_sparse.empty())
    {
        m_base = dst;
    }
    if (dst < m_base && !m_slots.empty() && m_base - dst + m_slots.size() <= MAX_SPAN)
    {
        // grow the array downwards
        m_slots.insert(m_slots.begin(), m_base - dst, 0);
        m_base = dst;
    }
    const uint32_t offset = dst - m_base;
    if (dst >= m_base && offset < MAX_SPAN)
    {
        if (offset >= m_slots.size())
        {
            m_slots.resize(offset + 1, 0);
        }
        m_size += m_slots[offset] == 0 ? 1 : 0;
        m_slots[offset] = number;
        return;
    }
    auto [it, added] = m_sparse.emplace(dst, number);
    it->second = number;
    m_size += added ? 1 : 0;
}

void
EcmpRouteTable::erase(uint32_t dst)
{
    const uint32_t offset = dst - m_base;
    if (offset < m_slots.size())
    {
        m_size -= m_slots[offset] != 0 ? 1 : 0;
        m_slots[offset] = 0;
        return;
    }
    m_size -= m_sparse.erase(dst);
}

void
EcmpRouteTable::clear()
{
    m_base = 0;
    m_slots.clear();
    m_slots.shrink_to_fit();
    m_sparse.clear();
    m_size = 0;
}

std::size_t
EcmpRouteTable::size() const
{
    return m_size;
}

} // namespace ns3
