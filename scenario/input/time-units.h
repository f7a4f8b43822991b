/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_TIME_UNITS_H
#define SCENARIO_TIME_UNITS_H

#include <string>

namespace ns3
{
namespace scenario
{

/**
 * \ingroup flux-scenario
 * \brief The units of ns-3's time strings ("5us", "1.5ms"), read both in a
 * scenario's ns3_defaults and in the HPCC simulator's files.
 * \param unit the unit ("" is seconds, as for ns-3)
 * \return nanoseconds per unit; 0 if ns-3 knows no such unit
 */
double TimeUnitNs(const std::string& unit);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_TIME_UNITS_H */
