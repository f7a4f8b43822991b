/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// FlowSizeCdf: builtin tables, inverse-CDF sampling, mean, file validation.

#include "ns3/flow-size-cdf.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using ns3::FlowSizeCdf;

namespace
{

/// Kolmogorov-Smirnov distance between n samples of cdf and cdf itself.
double
KsDistance(const FlowSizeCdf& cdf, size_t n, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<double> samples;
    samples.reserve(n);
    for (size_t i = 0; i < n; ++i)
    {
        const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
        samples.push_back(static_cast<double>(cdf.Sample(u)));
    }
    std::sort(samples.begin(), samples.end());
    double d = 0;
    for (size_t i = 0; i < n;)
    {
        // Compare at the end of each run of equal values (steps of the ECDF).
        size_t j = i;
        while (j < n && samples[j] == samples[i])
        {
            ++j;
        }
        const double f = cdf.Cdf(samples[i]);
        d = std::max({d,
                      std::fabs(static_cast<double>(j) / n - f),
                      std::fabs(static_cast<double>(i) / n - f)});
        i = j;
    }
    return d;
}

/// A temporary file holding text, removed at destruction.
class TempFile
{
  public:
    explicit TempFile(const std::string& text)
    {
        char name[] = "/tmp/flux-cdf-XXXXXX";
        const int fd = ::mkstemp(name);
        EXPECT_GE(fd, 0);
        ::close(fd);
        m_path = name;
        std::ofstream(m_path) << text;
    }

    ~TempFile()
    {
        ::unlink(m_path.c_str());
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

std::string
LoadError(const std::string& text)
{
    TempFile f(text);
    try
    {
        FlowSizeCdf::LoadFile(f.Path());
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

// The four published distributions are compiled in, with their end points.
TEST(FlowSizeCdf, BuiltinTables)
{
    const std::vector<std::string> names = {"websearch", "hadoop", "alistorage", "googlerpc"};
    EXPECT_EQ(FlowSizeCdf::BuiltinNames(), names);
    for (const auto& name : names)
    {
        EXPECT_TRUE(FlowSizeCdf::IsBuiltin(name));
        const auto cdf = FlowSizeCdf::Builtin(name);
        EXPECT_TRUE(cdf.IsValid());
        EXPECT_EQ(cdf.GetPoints().back().second, 100.0) << name;
    }
    EXPECT_EQ(FlowSizeCdf::Builtin("websearch").GetPoints().size(), 12u);
    EXPECT_EQ(FlowSizeCdf::Builtin("websearch").Max(), 30e6);
    EXPECT_EQ(FlowSizeCdf::Builtin("hadoop").GetPoints().size(), 20u);
    EXPECT_EQ(FlowSizeCdf::Builtin("hadoop").Max(), 10e6);
    EXPECT_EQ(FlowSizeCdf::Builtin("alistorage").GetPoints().size(), 9u);
    EXPECT_EQ(FlowSizeCdf::Builtin("googlerpc").GetPoints().size(), 843u);
    EXPECT_FALSE(FlowSizeCdf::IsBuiltin("WebSearch"));
    EXPECT_THROW(FlowSizeCdf::Builtin("nope"), std::runtime_error);
}

// The mean of the piecewise-linear web search distribution is the exact
// segment sum (1.711 MB for the 12 published points), within 10% of the
// ~1.6 MB average usually quoted for this workload (which comes from the
// finer-grained original distribution).
TEST(FlowSizeCdf, WebSearchMean)
{
    const auto cdf = FlowSizeCdf::Builtin("websearch");
    EXPECT_NEAR(cdf.Mean(), 1711250.0, 1.0);
    EXPECT_NEAR(cdf.Mean(), 1.6e6, 0.1 * 1.6e6);
    EXPECT_NEAR(FlowSizeCdf::Builtin("hadoop").Mean(), 120420.75, 0.01);
}

// The average of many samples converges to Mean().
TEST(FlowSizeCdf, SampleMeanMatchesMean)
{
    for (const auto& name : FlowSizeCdf::BuiltinNames())
    {
        const auto cdf = FlowSizeCdf::Builtin(name);
        std::mt19937_64 rng(7);
        const int n = 400000;
        double sum = 0;
        for (int i = 0; i < n; ++i)
        {
            sum += static_cast<double>(cdf.Sample(static_cast<double>(rng() >> 11) * 0x1.0p-53));
        }
        EXPECT_NEAR(sum / n / cdf.Mean(), 1.0, 0.03) << name;
    }
}

// 1e5 samples reproduce the CDF: Kolmogorov-Smirnov distance below 0.01.
TEST(FlowSizeCdf, SamplingReproducesCdf)
{
    for (const char* name : {"websearch", "hadoop", "alistorage"})
    {
        const double d = KsDistance(FlowSizeCdf::Builtin(name), 100000, 42);
        EXPECT_LT(d, 0.01) << name;
    }
}

// Quantile interpolates linearly and inverts Cdf.
TEST(FlowSizeCdf, QuantileInterpolation)
{
    const auto cdf = FlowSizeCdf::Builtin("websearch");
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.0), 0.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.15), 10000.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(0.175), 15000.0);
    EXPECT_DOUBLE_EQ(cdf.Quantile(1.0), 30e6);
    EXPECT_EQ(cdf.Sample(0.0), 1u); // at least one byte
    for (double u = 0.01; u < 1.0; u += 0.01)
    {
        EXPECT_NEAR(cdf.Cdf(cdf.Quantile(u)), u, 1e-9);
    }
}

// A first point above 0 percent is a point mass; flat segments are skipped.
TEST(FlowSizeCdf, PointMassAndFlatSegment)
{
    const auto mass = FlowSizeCdf::FromPoints({{100, 50}, {200, 100}});
    EXPECT_DOUBLE_EQ(mass.Quantile(0.3), 100);
    EXPECT_DOUBLE_EQ(mass.Quantile(0.75), 150);
    EXPECT_DOUBLE_EQ(mass.Mean(), 125);
    EXPECT_DOUBLE_EQ(mass.Cdf(99), 0.0);
    EXPECT_DOUBLE_EQ(mass.Cdf(100), 0.5);

    const auto flat = FlowSizeCdf::FromPoints({{0, 0}, {10, 50}, {20, 50}, {30, 100}});
    EXPECT_DOUBLE_EQ(flat.Quantile(0.5), 10);
    EXPECT_NEAR(flat.Quantile(0.5000001), 20, 1e-4);
    EXPECT_DOUBLE_EQ(flat.Mean(), 5 * 0.5 + 25 * 0.5);
}

// Files in the published format load; comments and blank lines are skipped.
TEST(FlowSizeCdf, LoadsFile)
{
    TempFile f("# size percent\n0 0\n\n1000 50\n3000 100\n");
    const auto cdf = FlowSizeCdf::LoadFile(f.Path());
    EXPECT_EQ(cdf.GetPoints().size(), 3u);
    EXPECT_DOUBLE_EQ(cdf.Mean(), 500 * 0.5 + 2000 * 0.5);
    EXPECT_EQ(cdf.GetSource(), f.Path());
}

// Malformed files are rejected with a message naming the problem.
TEST(FlowSizeCdf, RejectsMalformedFiles)
{
    EXPECT_NE(LoadError("0 0\n2000 50\n1000 100\n").find("sizes must increase"), std::string::npos);
    EXPECT_NE(LoadError("0 0\n1000 60\n2000 50\n3000 100\n").find("percent decreases"),
              std::string::npos);
    EXPECT_NE(LoadError("0 0\n1000 50\n2000 99\n").find("must be at 100 percent"),
              std::string::npos);
    EXPECT_NE(LoadError("0 0\n1000 150\n").find("percent must be in [0, 100]"), std::string::npos);
    EXPECT_NE(LoadError("0 0\nabc 100\n").find(":2: expected two numbers"), std::string::npos);
    EXPECT_NE(LoadError("0 0 7\n10 100\n").find(":1: expected two numbers"), std::string::npos);
    EXPECT_NE(LoadError("-5 0\n10 100\n").find("non-negative"), std::string::npos);
    EXPECT_NE(LoadError("").find("no CDF points"), std::string::npos);
    EXPECT_NE(LoadError("# only a comment\n").find("no CDF points"), std::string::npos);
    EXPECT_THROW(FlowSizeCdf::LoadFile("/nonexistent/flux/cdf.txt"), std::runtime_error);
}
