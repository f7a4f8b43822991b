/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "time-units.h"

#include <map>

namespace ns3
{
namespace scenario
{

double
TimeUnitNs(const std::string& unit)
{
    static const std::map<std::string, double> units = {{"", 1e9},
                                                        {"s", 1e9},
                                                        {"ms", 1e6},
                                                        {"us", 1e3},
                                                        {"ns", 1},
                                                        {"ps", 1e-3},
                                                        {"fs", 1e-6},
                                                        {"min", 60e9},
                                                        {"h", 3600e9},
                                                        {"d", 86400e9},
                                                        {"y", 365 * 86400e9}};
    const auto it = units.find(unit);
    return it == units.end() ? 0 : it->second;
}

} // namespace scenario
} // namespace ns3
