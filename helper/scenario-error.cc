/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-error.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioError");

ScenarioError::ScenarioError(const std::string& field, const std::string& problem)
    : std::runtime_error(field + ": " + problem),
      m_field(field),
      m_problem(problem)
{
    NS_LOG_FUNCTION(this);
}

const std::string&
ScenarioError::GetField() const
{
    return m_field;
}

const std::string&
ScenarioError::GetProblem() const
{
    return m_problem;
}

} // namespace ns3
