/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_INTEGER_H
#define CHAKRA_INTEGER_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief A Chakra attribute's integer value, of any of the protobuf integer
 * kinds: compared as an int64, written as it was (a uint64 beyond int64
 * keeps its value for messages and group names).
 */
struct ChakraInteger
{
    int64_t value{0};   //!< for comparisons: a uint64 beyond int64 is its maximum
    uint64_t beyond{0}; //!< a uint64 beyond int64: its value (else 0)

    /**
     * \param v an unsigned 64-bit value
     * \return it as a ChakraInteger
     */
    static ChakraInteger Unsigned(uint64_t v);

    /// \return the value as written, for messages and names
    std::string Text() const;
};

} // namespace ns3

#endif /* CHAKRA_INTEGER_H */
