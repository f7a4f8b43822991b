/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-integer.h"

#include <limits>

namespace ns3
{

ChakraInteger
ChakraInteger::Unsigned(uint64_t v)
{
    constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    return v > kMax ? ChakraInteger{static_cast<int64_t>(kMax), v}
                    : ChakraInteger{static_cast<int64_t>(v), 0};
}

std::string
ChakraInteger::Text() const
{
    return beyond ? std::to_string(beyond) : std::to_string(value);
}

} // namespace ns3
