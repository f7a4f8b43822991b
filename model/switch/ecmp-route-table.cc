/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-route-table.h"

#include "ns3/abort.h"

#include <limits>

namespace ns3
{

EcmpRouteTable::EcmpRouteTable()
    : m_base(0),
      m_size(0)
{
}

EcmpRouteTable::ConstIterator
EcmpRouteTable::FindSparse(uint32_t dst) const
{
    auto it = m_sparse.find(dst);
    return it == m_sparse.end() ? end() : ConstIterator(dst, m_groups[it->second - 1]);
}

uint16_t
EcmpRouteTable::Intern(const std::vector<uint32_t>& group)
{
    auto it = m_groupNumber.find(group);
    if (it != m_groupNumber.end())
    {
        return it->second;
    }
    NS_ABORT_MSG_IF(m_groups.size() >= std::numeric_limits<uint16_t>::max(),
                    "EcmpRouteTable: more than 65535 distinct ECMP groups in one switch");
    m_groups.push_back(group);
    const auto number = static_cast<uint16_t>(m_groups.size());
    m_groupNumber.emplace(group, number);
    return number;
}

void
EcmpRouteTable::Set(uint32_t dst, const std::vector<uint32_t>& group)
{
    NS_ABORT_MSG_IF(group.empty(), "EcmpRouteTable::Set: empty group (use erase)");
    const uint16_t number = Intern(group);
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
    m_groups.clear();
    m_groupNumber.clear();
    m_size = 0;
}

std::size_t
EcmpRouteTable::size() const
{
    return m_size;
}

std::size_t
EcmpRouteTable::GetNGroups() const
{
    return m_groups.size();
}

} // namespace ns3
