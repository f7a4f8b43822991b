/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_ERROR_H
#define SCENARIO_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief A problem with a scenario: what() is one line `<field>: <problem>`.
 *
 * The field is the path of the offending value in the scenario JSON
 * (`topology.leaves`, `jobs[0].ranks`, `background[1].senders[2]`), or the
 * scenario file itself for problems that concern the whole file (unreadable
 * file, JSON syntax error). Field and problem are stored as one printable
 * line of valid UTF-8: line breaks and tabs become spaces, other control
 * characters and bytes outside valid UTF-8 sequences become '?'.
 */
class ScenarioError : public std::runtime_error
{
  public:
    /**
     * \brief Construct the error.
     * \param field the path of the offending field
     * \param problem what is wrong with it
     */
    ScenarioError(const std::string& field, const std::string& problem);

    /// \return the path of the offending field
    const std::string& GetField() const;

    /// \return what is wrong with the field
    const std::string& GetProblem() const;

  private:
    std::string m_field;   //!< the path of the offending field
    std::string m_problem; //!< what is wrong with it
};

} // namespace ns3

#endif /* SCENARIO_ERROR_H */
