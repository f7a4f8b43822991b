/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-type.h"

namespace ns3
{

const char*
CollectiveTypeName(CollectiveType type)
{
    switch (type)
    {
    case CollectiveType::ALL_REDUCE:
        return "all-reduce";
    case CollectiveType::ALL_GATHER:
        return "all-gather";
    case CollectiveType::REDUCE_SCATTER:
        return "reduce-scatter";
    case CollectiveType::ALL_TO_ALL:
        return "all-to-all";
    case CollectiveType::BROADCAST:
        return "broadcast";
    case CollectiveType::BARRIER:
        return "barrier";
    }
    return "?";
}

bool
CollectiveTypeFromName(const std::string& name, CollectiveType& type)
{
    for (uint32_t t = 0; t < N_COLLECTIVE_TYPES; ++t)
    {
        if (name == CollectiveTypeName(static_cast<CollectiveType>(t)))
        {
            type = static_cast<CollectiveType>(t);
            return true;
        }
    }
    return false;
}

} // namespace ns3
