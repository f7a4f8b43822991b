/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// SampleSummary: nearest-rank percentiles, mean, count, empty behaviour.

#include "ns3/sample-summary.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using ns3::SampleSummary;

// The p-th percentile of 1..100 added in any order is ceil(p) (nearest rank).
TEST(SampleSummary, NearestRankOnOneToHundred)
{
    SampleSummary s;
    for (int i = 100; i >= 1; --i) // reverse order: the summary must sort
    {
        s.Add(i);
    }
    EXPECT_EQ(s.Count(), 100u);
    EXPECT_DOUBLE_EQ(s.Mean(), 50.5);
    EXPECT_DOUBLE_EQ(s.Min(), 1);
    EXPECT_DOUBLE_EQ(s.P50(), 50);
    EXPECT_DOUBLE_EQ(s.P99(), 99);
    EXPECT_DOUBLE_EQ(s.P999(), 100);
    EXPECT_DOUBLE_EQ(s.Max(), 100);
    EXPECT_DOUBLE_EQ(s.Percentile(0), 1);
    EXPECT_DOUBLE_EQ(s.Percentile(0.5), 1);
    EXPECT_DOUBLE_EQ(s.Percentile(1.5), 2);
}

// With 1000 samples the p99.9 is the 999th smallest, not the maximum.
TEST(SampleSummary, P999OfThousandIsRank999)
{
    SampleSummary s;
    for (int i = 1; i <= 1000; ++i)
    {
        s.Add(i * 2.0);
    }
    EXPECT_DOUBLE_EQ(s.P999(), 999 * 2.0);
    EXPECT_DOUBLE_EQ(s.P99(), 990 * 2.0);
    EXPECT_DOUBLE_EQ(s.Max(), 2000.0);
}

// Percentiles are always samples: the median of an even count is the lower middle.
TEST(SampleSummary, NoInterpolation)
{
    SampleSummary s;
    s.AddAll({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.P50(), 2);
    EXPECT_DOUBLE_EQ(s.Percentile(75), 3);
    EXPECT_DOUBLE_EQ(s.Percentile(76), 4);
}

// An empty summary has count 0 and NaN statistics; NaN samples are ignored.
TEST(SampleSummary, EmptyAndNan)
{
    SampleSummary s;
    EXPECT_EQ(s.Count(), 0u);
    EXPECT_TRUE(std::isnan(s.Mean()));
    EXPECT_TRUE(std::isnan(s.CanonicalMean()));
    EXPECT_TRUE(std::isnan(s.P50()));
    EXPECT_TRUE(std::isnan(s.Max()));
    s.Add(std::nan(""));
    EXPECT_EQ(s.Count(), 0u);
    s.Add(7);
    EXPECT_EQ(s.Count(), 1u);
    EXPECT_DOUBLE_EQ(s.P50(), 7);
    EXPECT_DOUBLE_EQ(s.P999(), 7);
    s.Clear();
    EXPECT_EQ(s.Count(), 0u);
}

// Adding after a query keeps results right (the sort cache is invalidated).
TEST(SampleSummary, AddAfterQueryAndMerge)
{
    SampleSummary a;
    a.AddAll({5, 6, 7});
    EXPECT_DOUBLE_EQ(a.Max(), 7);
    a.Add(1);
    EXPECT_DOUBLE_EQ(a.Min(), 1);
    SampleSummary b;
    b.AddAll({100, 0});
    a.Merge(b);
    EXPECT_EQ(a.Count(), 6u);
    EXPECT_DOUBLE_EQ(a.Max(), 100);
    EXPECT_DOUBLE_EQ(a.Min(), 0);
    EXPECT_DOUBLE_EQ(a.Mean(), (5 + 6 + 7 + 1 + 100 + 0) / 6.0);
    const auto& sorted = a.Sorted();
    EXPECT_TRUE(std::is_sorted(sorted.begin(), sorted.end()));

    // The canonical mean does not depend on the order of the samples (which
    // the plain sum does in floating point), and is Mean() after
    // Canonicalize().
    const std::vector<double> values = {1e16, 1.0, -1e16, 3.0, 0.5, 2.5};
    SampleSummary forward;
    SampleSummary backward;
    forward.AddAll(values);
    backward.AddAll({values.rbegin(), values.rend()});
    EXPECT_EQ(forward.CanonicalMean(), backward.CanonicalMean());
    const double canonical = forward.CanonicalMean();
    forward.Canonicalize();
    EXPECT_EQ(forward.Mean(), canonical);
}

TEST(SampleSummary, MergingSortedSummariesEqualsAddingTheirSamples)
{
    // Merging summaries whose samples are sorted (the runner merges every
    // job's and tenant's after their percentiles) keeps them sorted and
    // gives what adding their samples one by one gives: the same samples in
    // the same order once sorted, the same sum to the last bit.
    const std::vector<double> a = {3.5, 0.1, 7.25, 1e-3, 42.0, 0.1};
    const std::vector<double> b = {0.3, 1e6, 2.0, 0.1};
    SampleSummary left;
    SampleSummary right;
    left.AddAll(a);
    right.AddAll(b);
    EXPECT_DOUBLE_EQ(left.Max(), 42.0); // (sorts left)
    EXPECT_DOUBLE_EQ(right.Min(), 0.1); // (sorts right)
    SampleSummary merged;
    merged.Merge(left);
    merged.Merge(right);
    SampleSummary added;
    added.AddAll(left.Sorted());
    added.AddAll(right.Sorted());
    EXPECT_EQ(merged.Count(), a.size() + b.size());
    EXPECT_EQ(merged.Sorted(), added.Sorted());
    EXPECT_EQ(merged.Mean(), added.Mean());
    EXPECT_EQ(merged.CanonicalMean(), added.CanonicalMean());
    EXPECT_DOUBLE_EQ(merged.P50(), 0.3);

    // One side unsorted: its samples are added as they come.
    SampleSummary unsorted;
    unsorted.AddAll(b);
    SampleSummary mixed;
    mixed.AddAll(left.Sorted());
    mixed.Merge(unsorted);
    SampleSummary reference;
    reference.AddAll(left.Sorted());
    reference.AddAll(b);
    EXPECT_EQ(mixed.Sorted(), reference.Sorted());
    EXPECT_EQ(mixed.Mean(), reference.Mean());
}
