/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ProgressEstimator: the wall-clock time left from the work done at its
// recent rate, the safety stop, unknown estimates.

#include "ns3/progress-estimator.h"

#include <gtest/gtest.h>

using ns3::ProgressEstimator;

// Work done at a steady rate after a slow start: the estimate is the work
// left at the steady rate once the slow start has left the window, where the
// cumulative average (and a share of the stop time) would be far off.
TEST(ProgressEstimator, RecentRateForgetsASlowStart)
{
    ProgressEstimator e;
    e.SetWorkTotal(1000);
    e.SetStopTime(1000); // ms: a safety stop far beyond the end of the work
    e.SetWindow(5, 60);
    // 20 s without work (a first compute phase, slow start), then 10 units/s.
    double work = 0;
    for (int t = 0; t <= 20; ++t)
    {
        e.AddSample(t, 0, t * 0.01);
    }
    for (int t = 21; t <= 60; ++t)
    {
        work += 10;
        e.AddSample(t, work, 0.2 + (t - 20) * 0.1);
    }
    // 400 units done, 600 left at 10 units/s: 60 s. The average since the
    // start (400 / 60 s) would give 90 s.
    EXPECT_NEAR(e.GetWorkRate(), 10, 1e-9);
    EXPECT_NEAR(e.GetEta(), 60, 1e-9);
}

// A run bounded by its stop time: the simulated time left at its recent
// rate, when that ends before the work.
TEST(ProgressEstimator, StopTimeBoundsTheEstimate)
{
    ProgressEstimator e;
    e.SetWorkTotal(1e9); // far more work than the run has time for
    e.SetStopTime(100);
    for (int t = 0; t <= 30; ++t)
    {
        e.AddSample(t, 1000.0 * t, 2.0 * t); // 2 ms of simulated time per s
    }
    // 40 ms left at 2 ms/s
    EXPECT_NEAR(e.GetEta(), 20, 1e-9);
}

// Without a work total only the simulated time counts; without a stop time
// either, the estimate is unknown.
TEST(ProgressEstimator, WithoutWorkTotalSimulatedTimeCounts)
{
    ProgressEstimator e;
    e.SetStopTime(50);
    e.AddSample(0, 0, 0);
    e.AddSample(10, 0, 10);
    EXPECT_NEAR(e.GetEta(), 40, 1e-9);

    ProgressEstimator none;
    none.AddSample(0, 0, 0);
    none.AddSample(10, 5, 10);
    EXPECT_LT(none.GetEta(), 0);
}

// A work total but no work done yet: unknown, not the stop time's estimate.
TEST(ProgressEstimator, NoWorkYetIsUnknown)
{
    ProgressEstimator e;
    EXPECT_LT(e.GetEta(), 0); // no sample
    e.SetWorkTotal(100);
    e.SetStopTime(1000);
    e.AddSample(0, 0, 0);
    EXPECT_LT(e.GetEta(), 0); // one sample
    e.AddSample(10, 0, 1);
    EXPECT_LT(e.GetEta(), 0);
    e.AddSample(20, 50, 2);
    EXPECT_NEAR(e.GetEta(), 10, 1e-9); // 50 left at 5/s over the last 10 s
}

// A window without work (a compute phase) falls back to the rate since the
// first sample; all the work done gives zero.
TEST(ProgressEstimator, IdleWindowAndWorkDone)
{
    ProgressEstimator e;
    e.SetWorkTotal(100);
    e.SetWindow(5, 10);
    e.AddSample(0, 0, 0);
    e.AddSample(10, 50, 1);
    for (int t = 11; t <= 30; ++t)
    {
        e.AddSample(t, 50, 1 + t);
    }
    EXPECT_NEAR(e.GetWorkRate(), 50.0 / 30, 1e-9);
    EXPECT_NEAR(e.GetEta(), 30, 1e-9);
    e.AddSample(31, 100, 40);
    EXPECT_EQ(e.GetEta(), 0);
    e.AddSample(32, 120, 41); // more than the mean: still zero, not negative
    EXPECT_EQ(e.GetEta(), 0);
}

// Only the longest window (and one sample before it) is kept.
TEST(ProgressEstimator, KeepsOnlyTheLongestWindow)
{
    ProgressEstimator e;
    e.SetWorkTotal(1e6);
    e.SetWindow(1, 10);
    for (int i = 0; i <= 1000; ++i)
    {
        e.AddSample(i * 0.5, i, i);
    }
    EXPECT_LE(e.GetNSamples(), 22u);
    EXPECT_NEAR(e.GetWorkRate(), 2, 1e-9);
}
