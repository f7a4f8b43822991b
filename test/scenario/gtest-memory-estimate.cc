/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The memory estimate: its parts grow with what the scenario builds, it is
// close to the peak memory measured for a few sizes, and a scenario whose
// estimate exceeds the available memory (FLUX_MEMORY_LIMIT_MB) is refused
// with one message naming the field of the largest part.

#include "ns3/memory-estimate.h"
#include "ns3/scenario-config.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <string>

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// A scenario with one small job on a topology.
ScenarioConfig
Scenario(const json& topology)
{
    json s = {{"stop_ms", 0.01},
              {"topology", topology},
              {"jobs", json::parse(R"([{"name": "j", "ranks": 2, "bytes": 1000,
                                        "iterations": 1}])")}};
    return ParseScenario(s, ".");
}

/// Sets FLUX_MEMORY_LIMIT_MB for the lifetime of the object.
class MemoryLimit
{
  public:
    explicit MemoryLimit(const char* value)
    {
        ::setenv("FLUX_MEMORY_LIMIT_MB", value, 1);
    }

    ~MemoryLimit()
    {
        ::unsetenv("FLUX_MEMORY_LIMIT_MB");
    }
};

/// The message of the ScenarioError of MemoryEstimate::Check, or "".
std::string
CheckError(const ScenarioConfig& cfg)
{
    try
    {
        MemoryEstimate::Check(cfg);
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(MemoryEstimate, PartsGrowWithTheScenario)
{
    const json small = {{"kind", "leaf-spine"}};
    const json large = {{"kind", "leaf-spine"}, {"leaves", 64}, {"hosts_per_leaf", 256}};
    EXPECT_LT(MemoryEstimate::Bytes(Scenario(small)), 30e6); // the process and a little
    EXPECT_GT(MemoryEstimate::Bytes(Scenario(large)), 5 * MemoryEstimate::Bytes(Scenario(small)));

    json s = {{"stop_ms", 1000},
              {"topology", large},
              {"jobs", json::parse(R"([{"name": "j", "ranks": 1024, "bytes": 1048576,
                                        "iterations": 100}])")}};
    auto parts = MemoryEstimate::Parts(ParseScenario(s, "."));
    ASSERT_EQ(parts.size(), 3u); // fabric, job, switch buffers
    EXPECT_EQ(parts[1].field, "jobs[0]");
    // 1024 ranks x 2046 steps x 100 iterations, 80 bytes each
    EXPECT_NEAR(parts[1].bytes, 80.0 * 1024 * 2046 * 100 + 2e3 * 2048, 1);
    // only what can run before stop_ms: 1 ms leaves time for few iterations
    s["stop_ms"] = 1;
    parts = MemoryEstimate::Parts(ParseScenario(s, "."));
    EXPECT_LT(parts[1].bytes, 80.0 * 1024 * 2046 * 2);

    s["stop_ms"] = 1000;
    s["jobs"][0]["iterations"] = 1;
    s["traces"] = {{"interval_us", 0.001}};
    parts = MemoryEstimate::Parts(ParseScenario(s, "."));
    ASSERT_EQ(parts.size(), 4u);
    EXPECT_EQ(parts[2].field, "traces.interval_us");
    EXPECT_NEAR(parts[2].bytes, 128.0 * (1e9 + 1) * 1024, 1e6);
}

// Over the limit: one message with the estimate and the available memory,
// naming the field of the largest part; FLUX_MEMORY_LIMIT_MB=0 turns the
// check off and a malformed value is refused.
TEST(MemoryEstimate, RefusesWhatDoesNotFit)
{
    const ScenarioConfig big =
        Scenario({{"kind", "fat-tree"}, {"k", 16}, {"buffer_mb", 100000}}); // ~43 MB
    {
        MemoryLimit limit("30");
        const std::string err = CheckError(big);
        const std::string head = "topology: the scenario needs an estimated ";
        ASSERT_EQ(err.rfind(head, 0), 0u) << err;
        // the estimate, in whole MB, then the fabric that makes it
        EXPECT_NEAR(std::stod(err.substr(head.size())), MemoryEstimate::Bytes(big) / 1e6, 1) << err;
        EXPECT_NE(err.find(" MB for the fabric: 1024 hosts, 320 switches, 3072 cables), more "
                           "than the 30 MB available (FLUX_MEMORY_LIMIT_MB)"),
                  std::string::npos)
            << err;
    }
    {
        MemoryLimit limit("500");
        EXPECT_EQ(CheckError(big), "");
    }
    {
        MemoryLimit limit("0");
        EXPECT_EQ(CheckError(big), "");
    }
    {
        MemoryLimit limit("lots");
        EXPECT_EQ(CheckError(big),
                  "FLUX_MEMORY_LIMIT_MB: expected a number of MB (0: no check), got \"lots\"");
    }
    // Without the variable: MemAvailable. A million hosts under 16384 spines
    // (17 million cables) need far more than any test machine has.
    const ScenarioConfig huge = Scenario(
        {{"kind", "leaf-spine"}, {"leaves", 1024}, {"spines", 16384}, {"hosts_per_leaf", 1024}});
    const std::string err = CheckError(huge);
    EXPECT_EQ(err.rfind("topology: the scenario needs an estimated ", 0), 0u) << err;
    EXPECT_NE(err.find(" available ("), std::string::npos) << err;
}
