/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "named-type-registry.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

NamedTypeRegistry::NamedTypeRegistry(std::string what)
    : m_what(std::move(what))
{
}

bool
NamedTypeRegistry::Register(const std::string& name, TypeId (*getTypeId)(), uint32_t rank)
{
    // No logging here: it runs during static initialisation.
    std::lock_guard<std::mutex> lock(m_mutex);
    for (const auto& entry : m_entries)
    {
        if (entry.name == name)
        {
            m_refused.push_back(name);
            return false;
        }
    }
    m_entries.push_back(Entry{name, getTypeId, rank});
    return true;
}

const std::vector<std::pair<std::string, std::string>>&
NamedTypeRegistry::List()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    NS_ABORT_MSG_IF(!m_refused.empty(),
                    m_what << " \"" << m_refused.front() << "\" is registered twice");
    if (m_listed != m_entries.size() || m_list.empty())
    {
        std::vector<Entry> sorted = m_entries;
        std::stable_sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
            return a.rank != b.rank ? a.rank < b.rank : a.name < b.name;
        });
        m_list.clear();
        for (const auto& entry : sorted)
        {
            m_list.emplace_back(entry.name, entry.getTypeId().GetName());
        }
        m_listed = m_entries.size();
    }
    return m_list;
}

std::vector<std::string>
NamedTypeRegistry::TakeRefused()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<std::string> refused;
    refused.swap(m_refused);
    return refused;
}

TypeId
NamedTypeRegistry::GetTypeIdOf(const std::string& name)
{
    TypeId (*getTypeId)() = nullptr;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (const auto& entry : m_entries)
        {
            if (entry.name == name)
            {
                getTypeId = entry.getTypeId;
                break;
            }
        }
    }
    NS_ABORT_MSG_IF(!getTypeId, m_what << " \"" << name << "\" is not registered");
    return getTypeId();
}

void
NamedTypeRegistry::Remove(const std::vector<std::string>& names)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_entries.erase(std::remove_if(m_entries.begin(),
                                   m_entries.end(),
                                   [&names](const Entry& entry) {
                                       return std::find(names.begin(), names.end(), entry.name) !=
                                              names.end();
                                   }),
                    m_entries.end());
    m_list.clear(); // (List() builds its answer again)
}

} // namespace ns3
