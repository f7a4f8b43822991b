/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_TYPE_H
#define COLLECTIVE_TYPE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief The collective operations: what a collective does, and what a replayed
 * workload asks for.
 */
enum class CollectiveType : uint8_t
{
    ALL_REDUCE = 0,     //!< every rank ends with the sum of all buffers
    ALL_GATHER = 1,     //!< every rank ends with every rank's shard
    REDUCE_SCATTER = 2, //!< every rank ends with the sum of its shard
    ALL_TO_ALL = 3,     //!< every rank sends a distinct shard to every other rank
    BROADCAST = 4,      //!< the group's first rank sends its buffer to all
    BARRIER = 5,        //!< no data: every rank waits for all
};

/// Number of CollectiveType values.
constexpr uint32_t N_COLLECTIVE_TYPES = 6;

/**
 * \param type a collective type
 * \return its name as the scenario and the results write it ("all-reduce", ...)
 */
const char* CollectiveTypeName(CollectiveType type);

/**
 * \param name a collective type's name, as CollectiveTypeName() writes it
 * \param [out] type the type, when found
 * \return whether the name is a collective type's
 */
bool CollectiveTypeFromName(const std::string& name, CollectiveType& type);

} // namespace ns3

#endif /* COLLECTIVE_TYPE_H */
