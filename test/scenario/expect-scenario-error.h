/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXPECT_SCENARIO_ERROR_H
#define EXPECT_SCENARIO_ERROR_H

#include "ns3/scenario-error.h"

#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Expect reading to fail with one ScenarioError whose message holds
 * every piece (the file, the node or line, what is wrong).
 * \param read what reads
 * \param pieces what the message must hold
 */
inline void
ExpectScenarioError(const std::function<void()>& read, const std::vector<std::string>& pieces)
{
    try
    {
        read();
        ADD_FAILURE() << "no error; expected one with " << pieces[0];
    }
    catch (const ScenarioError& e)
    {
        const std::string what = e.what();
        for (const auto& p : pieces)
        {
            EXPECT_NE(what.find(p), std::string::npos) << "'" << p << "' not in: " << what;
        }
    }
}

} // namespace ns3

#endif /* EXPECT_SCENARIO_ERROR_H */
