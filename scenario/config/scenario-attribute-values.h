/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_ATTRIBUTE_VALUES_H
#define SCENARIO_ATTRIBUTE_VALUES_H

#include "scenario-keys.h"

#include "ns3/type-id.h"

#include <string>

namespace ns3
{
namespace scenario
{

/// The value types an attribute key can take.
enum class AttributeKind
{
    NONE,     //!< not a scenario key
    BOOLEAN,  //!< BooleanValue
    UINTEGER, //!< UintegerValue
    INTEGER,  //!< IntegerValue
    DOUBLE,   //!< DoubleValue
    TIME,     //!< TimeValue
    ENUM,     //!< EnumValue
    STRING,   //!< StringValue
    DATA_RATE //!< DataRateValue
};

/**
 * \param info an attribute
 * \return the kind of value a scenario key of it takes (NONE: it has no key:
 *         not settable at construction, or a value type without a JSON form)
 */
AttributeKind KindOf(const TypeId::AttributeInformation& info);

/// A numeric attribute's accepted interval.
struct AttributeBounds
{
    double min; //!< lowest (ns for times)
    double max; //!< highest (ns for times)
};

/**
 * \brief The interval a numeric attribute's checker accepts.
 *
 * ns-3's numeric checkers accept a closed interval but do not say which (in
 * 3.37); the bounds are found by bisection from the attribute's default
 * (accepted), over an order-preserving 64-bit key of the value. Times are
 * searched within +-10^15 ns (kMaxTimeNs).
 *
 * \param info a numeric attribute
 * \param kind its kind (UINTEGER, INTEGER, DOUBLE or TIME)
 * \return the interval (times in ns)
 */
AttributeBounds CheckerBounds(const TypeId::AttributeInformation& info, AttributeKind kind);

/**
 * \param camel an attribute name ("MinShare", "EcnKmin", "QPCount")
 * \return it in snake_case ("min_share", "ecn_kmin", "qp_count")
 */
std::string SnakeCase(const std::string& camel);

/**
 * \param r a range
 * \return it as text ("[0, 0.5]", ">= 0")
 */
std::string RangeText(const NumberRange& r);

/**
 * \param v a double
 * \return it as text that reads back to the same double
 */
std::string ExactText(double v);

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_ATTRIBUTE_VALUES_H */
