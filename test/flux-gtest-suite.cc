/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The GoogleTest unit tests (test/gtest-*.cc) as one ns-3 TestSuite, so that
// ./test.py in an ns-3 tree runs them as well. The standalone build runs them
// through build/flux-gtest and CTest instead and does not compile this file.
//
// Every failed GoogleTest assertion becomes one failure of the TestCase,
// with the test's name, file and line; a run in which no test ran fails too
// (the tests were not linked in).

#include "ns3/test.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \ingroup flux-tests
 * Collects the failed assertions of a GoogleTest run.
 */
class FailureCollector : public testing::EmptyTestEventListener
{
  public:
    /**
     * \param result one assertion's result
     */
    void OnTestPartResult(const testing::TestPartResult& result) override
    {
        if (result.failed())
        {
            const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
            std::string where = info ? std::string(info->test_suite_name()) + "." + info->name()
                                     : std::string("(environment)");
            m_failures.push_back(where + " at " + (result.file_name() ? result.file_name() : "?") +
                                 ":" + std::to_string(result.line_number()) + ": " +
                                 result.summary());
        }
    }

    /**
     * \return the failures, one line each
     */
    const std::vector<std::string>& GetFailures() const
    {
        return m_failures;
    }

  private:
    std::vector<std::string> m_failures; //!< one line per failed assertion
};

} // namespace

/**
 * \ingroup flux-tests
 * Runs every linked GoogleTest test once and reports each failed assertion.
 */
class FluxGoogleTestCase : public TestCase
{
  public:
    FluxGoogleTestCase()
        : TestCase("every GoogleTest unit test of the module passes")
    {
    }

  private:
    void DoRun() override
    {
        int argc = 1;
        char name[] = "flux-gtest";
        char* argv[] = {name, nullptr};
        testing::InitGoogleTest(&argc, argv);
        testing::UnitTest* unit = testing::UnitTest::GetInstance();
        // The listener list owns what it is given; it is released with the
        // UnitTest singleton at exit.
        auto collector = new FailureCollector;
        unit->listeners().Append(collector);
        const int rc = RUN_ALL_TESTS();
        unit->listeners().Release(collector);
        const std::vector<std::string> failures = collector->GetFailures();
        delete collector;

        NS_TEST_EXPECT_MSG_GT(unit->test_to_run_count(), 0, "no GoogleTest test was linked in");
        for (const std::string& failure : failures)
        {
            NS_TEST_EXPECT_MSG_EQ(true, false, failure);
        }
        NS_TEST_EXPECT_MSG_EQ(rc, 0, "RUN_ALL_TESTS failed (" << failures.size() << " assertions)");
    }
};

/**
 * \ingroup flux-tests
 * The GoogleTest unit tests, run under ns-3's test runner.
 */
class FluxGoogleTestSuite : public TestSuite
{
  public:
    FluxGoogleTestSuite()
        : TestSuite("flux-gtest", TestSuite::Type::UNIT)
    {
        AddTestCase(new FluxGoogleTestCase);
    }
};

static FluxGoogleTestSuite g_fluxGoogleTestSuite; //!< Static variable for test initialization
