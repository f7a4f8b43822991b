/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Scenario parsing: every kind of bad input gives a ScenarioError whose
// message starts with the offending field path; defaults are as documented;
// placement is deterministic and stays within the topology.

#include "ns3/rdma-congestion-control.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-scheduler.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <limits>
#include <set>
#include <string>
#include <unistd.h>

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// A small valid scenario: one 4-rank job on the default leaf-spine.
json
Minimal()
{
    return json::parse(R"({
      "topology": {"kind": "leaf-spine"},
      "jobs": [{"name": "a", "ranks": 4, "bytes": 1000000, "iterations": 2}]
    })");
}

/// Minimal() plus one background entry.
json
WithBackground(const json& entry)
{
    json s = Minimal();
    s["background"] = json::array({entry});
    return s;
}

json
CdfTenant()
{
    return json::parse(R"({"name": "rpc", "cdf": "websearch", "load": 0.3})");
}

json
Incast()
{
    return json::parse(
        R"({"name": "burst", "pattern": "incast", "senders": [1, 2, 3], "receiver": 0,
            "bytes": 100000})");
}

/// A temporary folder with files, removed at destruction.
class ScenarioDir
{
  public:
    ScenarioDir()
    {
        char name[] = "/tmp/flux-scenario-XXXXXX";
        m_path = ::mkdtemp(name);
    }

    ~ScenarioDir()
    {
        for (const auto& f : m_files)
        {
            ::unlink(f.c_str());
        }
        ::rmdir(m_path.c_str());
    }

    std::string Write(const std::string& name, const std::string& text)
    {
        const std::string path = m_path + "/" + name;
        std::ofstream(path) << text;
        m_files.push_back(path);
        return path;
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
    std::vector<std::string> m_files;
};

/// Passes when parsing throws ScenarioError whose message starts with prefix.
::testing::AssertionResult
FailsWith(const json& scenario, const std::string& prefix, const std::string& baseDir = ".")
{
    try
    {
        ParseScenario(scenario, baseDir);
    }
    catch (const ScenarioError& e)
    {
        const std::string what = e.what();
        if (what.rfind(prefix, 0) == 0 && what.find('\n') == std::string::npos)
        {
            return ::testing::AssertionSuccess() << what;
        }
        return ::testing::AssertionFailure()
               << "message \"" << what << "\" does not start with \"" << prefix << "\"";
    }
    catch (const std::exception& e)
    {
        return ::testing::AssertionFailure() << "not a ScenarioError: " << e.what();
    }
    return ::testing::AssertionFailure() << "no error for " << scenario.dump();
}

/// The message of the ScenarioError thrown by f, or "" when none is thrown.
template <typename F>
std::string
ErrorOf(F f)
{
    try
    {
        f();
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

// The example scenario of the design document, with its policy as written.
const char* const kDesignExample = R"({
  "seed": 1,
  "stop_ms": 1000,
  "topology": {
    "kind": "leaf-spine",
    "leaves": 4, "spines": 2, "hosts_per_leaf": 4,
    "k": 4,
    "host_gbps": 100, "fabric_gbps": 100, "link_delay_us": 1,
    "buffer_mb": 16
  },
  "transport": {
    "mtu_bytes": 4096, "cc": "dcqcn",
    "pfc": true,
    "ecn": {"kmin_kb": 400, "kmax_kb": 1600, "pmax": 0.2}
  },
  "scheduler": {"policy": "flux"},
  "jobs": [
    {"name": "a",
     "ranks": 8,
     "hosts": [0, 1, 2, 3, 4, 5, 6, 7],
     "collective": "ring-allreduce",
     "bytes": 50000000,
     "compute_ms": 5,
     "iterations": 3,
     "start_ms": 0}
  ],
  "background": [
    {"name": "rpc", "cdf": "websearch",
     "load": 0.2, "hosts": [8, 9, 10, 11],
     "start_ms": 0, "stop_ms": 20},
    {"name": "burst", "pattern": "incast",
     "senders": [1, 2, 3, 4], "receiver": 0,
     "bytes": 2000000, "start_ms": 1, "repeat": 3, "interval_ms": 5}
  ]
})";

} // namespace

// ---------------------------------------------------------------------------
// Valid scenarios and defaults
// ---------------------------------------------------------------------------

// The design document's example parses into the values it states, its
// "flux" policy included.
TEST(ScenarioConfig, DesignExampleParses)
{
    json s = json::parse(kDesignExample);
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }), "");
    EXPECT_EQ(ParseScenario(s, ".").scheduler.policy, "flux");

    s["scheduler"]["policy"] = "fifo";
    const ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.HostCount(), 16u);
    ASSERT_EQ(cfg.jobs.size(), 1u);
    const auto& a = cfg.jobs[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_EQ(a.ranks, 8u);
    EXPECT_EQ(a.hosts, (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(a.placement, "explicit");
    EXPECT_EQ(a.bytes, 50000000u);
    EXPECT_DOUBLE_EQ(a.computeMs, 5);
    EXPECT_EQ(a.iterations, 3u);
    ASSERT_EQ(cfg.background.size(), 2u);
    const auto& rpc = cfg.background[0];
    EXPECT_EQ(rpc.kind, ScenarioConfig::BackgroundConfig::Kind::CDF);
    EXPECT_EQ(rpc.cdf, "websearch");
    EXPECT_TRUE(rpc.cdfPath.empty());
    EXPECT_TRUE(rpc.flowSizes.IsValid());
    EXPECT_DOUBLE_EQ(rpc.load, 0.2);
    EXPECT_EQ(rpc.hosts, (std::vector<uint32_t>{8, 9, 10, 11}));
    ASSERT_TRUE(rpc.stopMs.has_value());
    EXPECT_DOUBLE_EQ(*rpc.stopMs, 20);
    const auto& burst = cfg.background[1];
    EXPECT_EQ(burst.kind, ScenarioConfig::BackgroundConfig::Kind::PATTERN);
    EXPECT_EQ(burst.pattern, "incast");
    EXPECT_EQ(burst.senders, (std::vector<uint32_t>{1, 2, 3, 4}));
    EXPECT_EQ(burst.receiver, 0u);
    EXPECT_EQ(burst.bytes, 2000000u);
    EXPECT_DOUBLE_EQ(burst.startMs, 1);
    EXPECT_EQ(burst.repeat, 3u);
    EXPECT_DOUBLE_EQ(burst.intervalMs, 5);
}

// Every optional key takes the default documented in scenario-config.h.
TEST(ScenarioConfig, Defaults)
{
    json s = Minimal();
    s["background"] = json::array({CdfTenant()});
    const ScenarioConfig cfg = ParseScenario(s, "/some/dir");
    EXPECT_EQ(cfg.description, "");
    EXPECT_EQ(cfg.seed, 1u);
    EXPECT_DOUBLE_EQ(cfg.stopMs, 1000);
    EXPECT_EQ(cfg.baseDir, "/some/dir");
    const auto& t = cfg.topology;
    EXPECT_EQ(t.kind, "leaf-spine");
    EXPECT_EQ(t.leaves, 4u);
    EXPECT_EQ(t.spines, 2u);
    EXPECT_EQ(t.hostsPerLeaf, 4u);
    EXPECT_EQ(t.k, 4u);
    EXPECT_EQ(t.hostsPerSide, 4u);
    EXPECT_DOUBLE_EQ(t.hostGbps, 100);
    EXPECT_DOUBLE_EQ(t.fabricGbps, 100);
    EXPECT_DOUBLE_EQ(t.linkDelayUs, 1);
    EXPECT_DOUBLE_EQ(t.bufferMb, 16);
    EXPECT_EQ(cfg.transport.mtuBytes, 4096u);
    EXPECT_EQ(cfg.transport.cc, "dcqcn");
    EXPECT_TRUE(cfg.transport.pfc);
    EXPECT_DOUBLE_EQ(cfg.transport.ecn.kminKb, 400);
    EXPECT_DOUBLE_EQ(cfg.transport.ecn.kmaxKb, 1600);
    EXPECT_DOUBLE_EQ(cfg.transport.ecn.pmax, 0.2);
    EXPECT_EQ(cfg.scheduler.policy, "fifo");
    EXPECT_TRUE(cfg.ns3Defaults.empty());
    const auto& job = cfg.jobs.at(0);
    EXPECT_EQ(job.placement, "packed");
    EXPECT_EQ(job.hosts, (std::vector<uint32_t>{0, 1, 2, 3}));
    EXPECT_EQ(job.collective, "ring-allreduce");
    EXPECT_DOUBLE_EQ(job.computeMs, 0);
    EXPECT_DOUBLE_EQ(job.startMs, 0);
    EXPECT_EQ(job.chunkBytes, 0u);
    EXPECT_EQ(job.buckets, 1u);
    EXPECT_EQ(job.priority, 3u);
    const auto& bg = cfg.background.at(0);
    EXPECT_EQ(bg.priority, 3u);
    EXPECT_DOUBLE_EQ(bg.startMs, 0);
    EXPECT_FALSE(bg.stopMs.has_value());
    EXPECT_EQ(bg.hosts.size(), 16u); // all hosts
    // the four first policies in their order, any other after them
    const auto policies = ScenarioConfig::AvailablePolicies();
    ASSERT_GE(policies.size(), 4u);
    EXPECT_EQ(std::vector<std::string>(policies.begin(), policies.begin() + 4),
              (std::vector<std::string>{"fifo", "cassini", "crux", "flux"}));
    const auto sc = ParseScenario(Minimal(), ".").scheduler;
    EXPECT_EQ(sc.policy, "fifo");
    EXPECT_TRUE(sc.settings.empty()); // the policies' attribute defaults

    const json inc = Incast();
    const auto p = ParseScenario(WithBackground(inc), ".").background.at(0);
    EXPECT_EQ(p.repeat, 1u);
    EXPECT_DOUBLE_EQ(p.startMs, 0);
}

// Host counts of the three topology kinds, from one function.
TEST(ScenarioConfig, HostCount)
{
    ScenarioConfig cfg;
    EXPECT_EQ(cfg.HostCount(), 16u); // 4 leaves x 4
    EXPECT_EQ(cfg.HostsPerLeaf(), 4u);
    cfg.topology.leaves = 3;
    cfg.topology.hostsPerLeaf = 5;
    EXPECT_EQ(cfg.HostCount(), 15u);
    cfg.topology.kind = "fat-tree";
    EXPECT_EQ(cfg.HostCount(), 16u); // k = 4: 64 / 4
    EXPECT_EQ(cfg.HostsPerLeaf(), 2u);
    cfg.topology.k = 8;
    EXPECT_EQ(cfg.HostCount(), 128u);
    cfg.topology.kind = "dumbbell";
    EXPECT_EQ(cfg.HostCount(), 8u);
    cfg.topology.hostsPerSide = 7;
    EXPECT_EQ(cfg.HostCount(), 14u);
    EXPECT_EQ(cfg.HostsPerLeaf(), 7u);

    json s = Minimal();
    s["topology"] = {{"kind", "fat-tree"}, {"k", 6}, {"leaves", 9}}; // leaves ignored
    EXPECT_EQ(ParseScenario(s, ".").HostCount(), 54u);
    s["topology"] = {{"kind", "dumbbell"}, {"hosts_per_side", 2}};
    EXPECT_EQ(ParseScenario(s, ".").HostCount(), 4u);
}

// Integral floats are accepted where integers are expected (5e7 bytes).
TEST(ScenarioConfig, IntegralFloatsAreIntegers)
{
    json s = Minimal();
    s["jobs"][0]["bytes"] = 5e7;
    EXPECT_EQ(ParseScenario(s, ".").jobs[0].bytes, 50000000u);
}

// ---------------------------------------------------------------------------
// Bad input: each kind names its field
// ---------------------------------------------------------------------------

TEST(ScenarioConfigErrors, UnknownKeys)
{
    json s = Minimal();
    s["topology"]["leafs"] = 4;
    EXPECT_TRUE(FailsWith(s, "topology.leafs: unknown key (did you mean \"leaves\"?)"));
    s = Minimal();
    s["jobz"] = 1;
    EXPECT_TRUE(FailsWith(s, "jobz: unknown key"));
    s = Minimal();
    s["jobs"][0]["rank"] = 4;
    EXPECT_TRUE(FailsWith(s, "jobs[0].rank: unknown key"));
    s = Minimal();
    s["transport"] = {{"ecn", {{"kmin", 1}}}};
    EXPECT_TRUE(FailsWith(s, "transport.ecn.kmin: unknown key"));
    s = Minimal();
    s["scheduler"] = {{"polcy", "fifo"}};
    EXPECT_TRUE(FailsWith(s, "scheduler.polcy: unknown key"));
    json inc = Incast();
    inc["load"] = 0.5;
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].load: unknown key"));
    json cdf = CdfTenant();
    cdf["senders"] = {1, 2};
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].senders: unknown key"));
}

TEST(ScenarioConfigErrors, WrongTypes)
{
    json s = Minimal();
    s["jobs"][0]["ranks"] = "8";
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
              "jobs[0].ranks: expected an integer, got \"8\"");
    s["jobs"][0]["ranks"] = 8.5;
    EXPECT_TRUE(FailsWith(s, "jobs[0].ranks: expected an integer, got 8.5"));
    s = Minimal();
    s["transport"] = {{"pfc", "yes"}};
    EXPECT_TRUE(FailsWith(s, "transport.pfc: expected true or false"));
    s = Minimal();
    s["topology"]["host_gbps"] = "100";
    EXPECT_TRUE(FailsWith(s, "topology.host_gbps: expected a number"));
    s = Minimal();
    s["topology"] = json::array();
    EXPECT_TRUE(FailsWith(s, "topology: expected an object"));
    s = Minimal();
    s["jobs"] = json::object();
    EXPECT_TRUE(FailsWith(s, "jobs: expected an array"));
    s = Minimal();
    s["jobs"][0] = 3;
    EXPECT_TRUE(FailsWith(s, "jobs[0]: expected an object"));
    s = Minimal();
    s["jobs"][0]["name"] = 3;
    EXPECT_TRUE(FailsWith(s, "jobs[0].name: expected a string"));
    s = Minimal();
    s["jobs"][0]["hosts"] = "0-3";
    EXPECT_TRUE(FailsWith(s, "jobs[0].hosts: expected an array of host indices"));
    s = Minimal();
    s["jobs"][0]["hosts"] = {0, 1, "2", 3};
    EXPECT_TRUE(FailsWith(s, "jobs[0].hosts[2]: expected an integer"));
    s = Minimal();
    s["scheduler"] = {{"policy", 1}};
    EXPECT_TRUE(FailsWith(s, "scheduler.policy: expected a string"));
    EXPECT_TRUE(FailsWith(json::array(), "scenario: expected an object"));
}

TEST(ScenarioConfigErrors, OutOfRangeValues)
{
    auto with = [](const std::string& section, const std::string& key, json value) {
        json s = Minimal();
        s[section][key] = value;
        return s;
    };
    EXPECT_TRUE(
        FailsWith(with("topology", "host_gbps", 0), "topology.host_gbps: must be positive"));
    EXPECT_TRUE(FailsWith(with("topology", "fabric_gbps", -10), "topology.fabric_gbps: must be"));
    EXPECT_TRUE(
        FailsWith(with("topology", "buffer_mb", 0), "topology.buffer_mb: must be positive"));
    EXPECT_TRUE(FailsWith(with("topology", "link_delay_us", -1), "topology.link_delay_us: must"));
    EXPECT_TRUE(FailsWith(with("topology", "leaves", 0), "topology.leaves: must be at least 1"));
    EXPECT_TRUE(FailsWith(with("topology", "spines", -2), "topology.spines: must be at least 0"));
    EXPECT_TRUE(FailsWith(with("topology", "spines", 0),
                          "topology.spines: must be at least 1 when there are several leaves"));
    EXPECT_TRUE(FailsWith(with("topology", "hosts_per_leaf", 0), "topology.hosts_per_leaf: must"));
    EXPECT_TRUE(FailsWith(with("topology", "k", 3), "topology.k: must be even"));
    EXPECT_TRUE(FailsWith(with("topology", "k", 0), "topology.k: must be at least 2"));
    EXPECT_TRUE(
        FailsWith(with("topology", "kind", "torus"), "topology.kind: \"torus\" is not known"));
    json big = Minimal();
    big["topology"] = {{"kind", "leaf-spine"}, {"leaves", 60000}, {"hosts_per_leaf", 60000}};
    EXPECT_TRUE(FailsWith(big, "topology.hosts_per_leaf: the topology would have"));

    json s = Minimal();
    s["transport"] = {{"ecn", {{"pmax", 0}}}};
    EXPECT_TRUE(FailsWith(s, "transport.ecn.pmax: must be in (0, 1]"));
    s["transport"] = {{"ecn", {{"pmax", 1.5}}}};
    EXPECT_TRUE(FailsWith(s, "transport.ecn.pmax: must be in (0, 1]"));
    s["transport"] = {{"ecn", {{"pmax", 1}}}};
    EXPECT_NO_THROW(ParseScenario(s, "."));
    s["transport"] = {{"ecn", {{"kmin_kb", 2000}}}}; // above the default kmax
    EXPECT_TRUE(FailsWith(s, "transport.ecn.kmin_kb: 2000 is above kmax_kb 1600"));
    s["transport"] = {{"ecn", {{"kmin_kb", 500}, {"kmax_kb", 300}}}};
    EXPECT_TRUE(FailsWith(s, "transport.ecn.kmax_kb: 300 is below kmin_kb 500"));
    s["transport"] = {{"ecn", {{"kmin_kb", -1}}}};
    EXPECT_TRUE(FailsWith(s, "transport.ecn.kmin_kb: must not be negative"));
    s["transport"] = {{"mtu_bytes", 1500}};
    EXPECT_TRUE(FailsWith(s, "transport.mtu_bytes: 1500 is not an allowed MTU"));
    for (int mtu : {256, 512, 1024, 2048, 4096})
    {
        s["transport"] = {{"mtu_bytes", mtu}};
        EXPECT_EQ(ParseScenario(s, ".").transport.mtuBytes, static_cast<uint32_t>(mtu));
    }
    s["transport"] = {{"cc", "reno"}};
    // the registered algorithms, from the registry
    std::string known;
    for (const auto& entry : RdmaCongestionControl::GetAlgorithms())
    {
        known += (known.empty() ? "" : ", ") + entry.first;
    }
    EXPECT_EQ(known.rfind("dcqcn, hpcc, none", 0), 0u);
    EXPECT_TRUE(FailsWith(s, "transport.cc: \"reno\" is not known (known: " + known + ")"));

    s = Minimal();
    s["seed"] = 0;
    EXPECT_TRUE(FailsWith(s, "seed: must be at least 1"));
    s["seed"] = 4294967296.0;
    EXPECT_TRUE(FailsWith(s, "seed: must be at most 4294944442"));
    s = Minimal();
    s["stop_ms"] = 0;
    EXPECT_TRUE(FailsWith(s, "stop_ms: must be positive"));

    auto job = [](const std::string& key, json value) {
        json s = Minimal();
        s["jobs"][0][key] = value;
        return s;
    };
    EXPECT_TRUE(FailsWith(job("ranks", 1), "jobs[0].ranks: must be at least 2, got 1"));
    EXPECT_TRUE(FailsWith(job("ranks", -3), "jobs[0].ranks: must be at least 2, got -3"));
    EXPECT_TRUE(FailsWith(job("iterations", 0), "jobs[0].iterations: must be at least 1"));
    EXPECT_TRUE(FailsWith(job("bytes", 3), "jobs[0].bytes: 3 bytes cannot be split among 4 ranks"));
    EXPECT_TRUE(FailsWith(job("compute_ms", -1), "jobs[0].compute_ms: must not be negative"));
    EXPECT_TRUE(FailsWith(job("start_ms", -1), "jobs[0].start_ms: must not be negative"));
    EXPECT_TRUE(FailsWith(job("start_ms", 1000), "jobs[0].start_ms: 1000 is not before stop_ms"));
    EXPECT_TRUE(FailsWith(job("priority", 7), "jobs[0].priority: must be at most 6"));
    EXPECT_TRUE(FailsWith(job("buckets", 0), "jobs[0].buckets: must be at least 1"));
    EXPECT_TRUE(FailsWith(job("buckets", 300000), "jobs[0].buckets: must be at most 8192"));
    json few = job("bytes", 1000);
    few["jobs"][0]["buckets"] = 300;
    EXPECT_TRUE(FailsWith(few, "jobs[0].buckets: 300 buckets of 4 ranks"));
    EXPECT_TRUE(FailsWith(job("chunk_bytes", -1), "jobs[0].chunk_bytes: must be at least 0"));
    EXPECT_TRUE(FailsWith(job("placement", "best"), "jobs[0].placement: \"best\" is not known"));
    EXPECT_TRUE(FailsWith(job("collective", "tree"), "jobs[0].collective: \"tree\" is not known"));
    EXPECT_TRUE(FailsWith(job("name", ""), "jobs[0].name: must not be empty"));
    EXPECT_TRUE(FailsWith(job("name", "a b"), "jobs[0].name: \"a b\" may contain only"));

    json cdf = CdfTenant();
    cdf["load"] = 0;
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].load: must be in (0, 1]"));
    cdf["load"] = 1.5;
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].load: must be in (0, 1]"));
    cdf = CdfTenant();
    cdf["hosts"] = {3};
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].hosts: needs at least 2 hosts"));
    cdf = CdfTenant();
    cdf["start_ms"] = 5;
    cdf["stop_ms"] = 5;
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].stop_ms: 5 is not after start_ms 5"));
    cdf = CdfTenant();
    cdf["priority"] = 9;
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].priority: must be at most 6"));

    json inc = Incast();
    inc["senders"] = {1, 0, 2};
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].senders[1]: host 0 is the receiver"));
    inc = Incast();
    inc["senders"] = json::array();
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].senders: needs at least 1 host"));
    inc = Incast();
    inc["receiver"] = 16;
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].receiver: host 16 is out of range"));
    inc = Incast();
    inc["repeat"] = 2;
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].interval_ms: required when repeat"));
    inc["interval_ms"] = 0;
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].interval_ms: must be positive"));
    inc = Incast();
    inc["bytes"] = 0;
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].bytes: must be at least 1"));
    inc = Incast();
    inc["pattern"] = "alltoall";
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].pattern: \"alltoall\" is not known"));
}

TEST(ScenarioConfigErrors, HostsAndPlacement)
{
    json s = Minimal();
    s["jobs"][0]["ranks"] = 17;
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
              "jobs[0].ranks: 17 ranks but the topology has 16 hosts");

    s = Minimal();
    s["jobs"][0]["hosts"] = {0, 1, 2, 16};
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
              "jobs[0].hosts[3]: host 16 is out of range (the topology has 16 hosts: 0..15)");
    s["jobs"][0]["hosts"] = {0, 1, -1, 2};
    EXPECT_TRUE(FailsWith(s, "jobs[0].hosts[2]: must be at least 0"));
    s["jobs"][0]["hosts"] = {0, 1, 1, 2};
    EXPECT_TRUE(FailsWith(s, "jobs[0].hosts[2]: host 1 is listed twice"));
    s["jobs"][0]["hosts"] = {0, 1, 2};
    EXPECT_TRUE(FailsWith(s, "jobs[0].hosts: 3 hosts listed but ranks is 4"));
    s["jobs"][0]["hosts"] = {0, 1, 2, 3};
    s["jobs"][0]["placement"] = "packed";
    EXPECT_TRUE(FailsWith(s, "jobs[0].placement: give either \"hosts\" or \"placement\""));

    // Placed jobs cannot find enough free hosts.
    s = Minimal();
    s["jobs"][0]["ranks"] = 10;
    s["jobs"][1] = {{"name", "b"}, {"ranks", 8}, {"bytes", 1000}, {"iterations", 1}};
    EXPECT_TRUE(FailsWith(s, "jobs[1].ranks: 8 ranks but only 6 of 16 hosts are free"));

    json cdf = CdfTenant();
    cdf["hosts"] = {1, 2, 20};
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].hosts[2]: host 20 is out of range"));
    cdf["hosts"] = {1, 2, 1};
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].hosts[2]: host 1 is listed twice"));
}

TEST(ScenarioConfigErrors, DuplicateNames)
{
    json s = Minimal();
    s["jobs"][1] = s["jobs"][0];
    EXPECT_TRUE(FailsWith(s, "jobs[1].name: \"a\" is already used by jobs[0]"));
    json cdf = CdfTenant();
    cdf["name"] = "a";
    EXPECT_TRUE(
        FailsWith(WithBackground(cdf), "background[0].name: \"a\" is already used by jobs[0]"));
    s = Minimal();
    s["background"] = {CdfTenant(), CdfTenant()};
    EXPECT_TRUE(FailsWith(s, "background[1].name: \"rpc\" is already used by background[0]"));
}

TEST(ScenarioConfigErrors, MissingRequiredKeys)
{
    for (const char* key : {"name", "ranks", "bytes", "iterations"})
    {
        json s = Minimal();
        s["jobs"][0].erase(key);
        EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
                  std::string("jobs[0].") + key + ": required");
    }
    json s = Minimal();
    s.erase("topology");
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }), "topology: required");
    s = Minimal();
    s["topology"].erase("kind");
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }), "topology.kind: required");

    json cdf = CdfTenant();
    cdf.erase("load");
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].load: required"));
    cdf = CdfTenant();
    cdf.erase("name");
    EXPECT_TRUE(FailsWith(WithBackground(cdf), "background[0].name: required"));
    json inc = Incast();
    inc.erase("receiver");
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].receiver: required"));
    inc = Incast();
    inc.erase("senders");
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].senders: required"));
    inc = Incast();
    inc.erase("bytes");
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].bytes: required"));
    inc = Incast();
    inc.erase("pattern");
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0]: needs \"cdf\""));
    inc = Incast();
    inc["cdf"] = "websearch";
    EXPECT_TRUE(FailsWith(WithBackground(inc), "background[0].pattern: give either"));
}

// A scenario must have something to run.
TEST(ScenarioConfigErrors, NoJobAndNoBackground)
{
    json s = Minimal();
    s.erase("jobs");
    EXPECT_TRUE(FailsWith(s, "jobs: required"));
    s["jobs"] = json::array();
    s["background"] = json::array();
    EXPECT_TRUE(FailsWith(s, "jobs: the scenario needs at least one job or one background entry"));
    // Background alone is fine.
    s["background"] = {Incast()};
    EXPECT_NO_THROW(ParseScenario(s, "."));
}

// Only the available policies are accepted; planned ones say so.
TEST(ScenarioConfigErrors, Policies)
{
    json s = Minimal();
    s["scheduler"] = {{"policy", "fifo"}};
    EXPECT_EQ(ParseScenario(s, ".").scheduler.policy, "fifo");
    for (const char* policy : {"flux", "cassini", "crux"})
    {
        s["scheduler"]["policy"] = policy;
        EXPECT_EQ(ParseScenario(s, ".").scheduler.policy, policy);
    }
    s["scheduler"]["policy"] = "magic";
    EXPECT_EQ(
        ErrorOf([&] { ParseScenario(s, "."); })
            .rfind("scheduler.policy: \"magic\" is not a known policy (known: fifo, cassini, crux, "
                   "flux",
                   0),
        0u);
    s["scheduler"] = {{"policy", "flux"}, {"classes", 7}};
    EXPECT_EQ(
        ErrorOf([&] { CheckScenario(ParseScenario(s, ".")); }).rfind("scheduler.classes: ", 0),
        0u);
    s["scheduler"] = {{"policy", "flux"}, {"min_share", 0.6}};
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
              "scheduler.min_share: must be in [0, 0.5], got 0.6");
    s["scheduler"] = {{"policy", "flux"}, {"granularity", "packet"}};
    EXPECT_EQ(ErrorOf([&] { ParseScenario(s, "."); }),
              "scheduler.granularity: \"packet\" is not known (known: step, chunk)");
}

// CDF files: relative to the scenario folder, checked on load.
TEST(ScenarioConfigErrors, CdfFiles)
{
    ScenarioDir dir;
    dir.Write("good.txt", "0 0\n1000 40\n5000 100\n");
    dir.Write("decreasing.txt", "0 0\n5000 40\n1000 100\n");
    dir.Write("short.txt", "0 0\n1000 40\n5000 90\n");

    json cdf = CdfTenant();
    cdf["cdf"] = "good.txt";
    const auto cfg = ParseScenario(WithBackground(cdf), dir.Path());
    EXPECT_EQ(cfg.background[0].cdfPath, dir.Path() + "/good.txt");
    EXPECT_DOUBLE_EQ(cfg.background[0].flowSizes.Max(), 5000);

    cdf["cdf"] = "missing.txt";
    EXPECT_TRUE(FailsWith(WithBackground(cdf),
                          "background[0].cdf: \"missing.txt\" is neither a builtin CDF",
                          dir.Path()));
    cdf["cdf"] = "decreasing.txt";
    EXPECT_TRUE(FailsWith(WithBackground(cdf),
                          "background[0].cdf: " + dir.Path() + "/decreasing.txt: point 3",
                          dir.Path()));
    cdf["cdf"] = "short.txt";
    EXPECT_TRUE(FailsWith(WithBackground(cdf),
                          "background[0].cdf: " + dir.Path() +
                              "/short.txt: the last point must be at 100 percent",
                          dir.Path()));
    cdf["cdf"] = "."; // (a folder: refused before it is opened)
    EXPECT_TRUE(
        FailsWith(WithBackground(cdf),
                  "background[0].cdf: " + dir.Path() + "/: is a folder, not a flow-size CDF",
                  dir.Path()));
    cdf["cdf"] = "websearh"; // (neither a name nor a file)
    EXPECT_TRUE(
        FailsWith(WithBackground(cdf), "background[0].cdf: \"websearh\" is neither", dir.Path()));
}

// ns3_defaults: attribute names and values are checked against ns-3.
TEST(ScenarioConfigErrors, Ns3Defaults)
{
    json s = Minimal();
    s["ns3_defaults"] = {{"ns3::DropTailQueue<Packet>::MaxSize", "100p"},
                         {"ChecksumEnabled", true}};
    const auto cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.ns3Defaults.at("ns3::DropTailQueue<Packet>::MaxSize"), "100p");
    EXPECT_EQ(cfg.ns3Defaults.at("ChecksumEnabled"), "true");

    s["ns3_defaults"] = {{"ns3::NoSuchType::X", 1}};
    EXPECT_TRUE(FailsWith(s, "ns3_defaults[\"ns3::NoSuchType::X\"]: no ns-3 type"));
    s["ns3_defaults"] = {{"ns3::DropTailQueue<Packet>::NoSuch", 1}};
    EXPECT_TRUE(FailsWith(s,
                          "ns3_defaults[\"ns3::DropTailQueue<Packet>::NoSuch\"]: "
                          "ns3::DropTailQueue<Packet> has no attribute"));
    s["ns3_defaults"] = {{"ns3::UniformRandomVariable::Min", "lots"}};
    EXPECT_TRUE(FailsWith(
        s,
        "ns3_defaults[\"ns3::UniformRandomVariable::Min\"]: \"lots\" is not a valid value"));
    s["ns3_defaults"] = {{"ns3::UniformRandomVariable::Min", "0.5x"}};
    EXPECT_TRUE(FailsWith(
        s,
        "ns3_defaults[\"ns3::UniformRandomVariable::Min\"]: \"0.5x\" is not a valid value"));
    s["ns3_defaults"] = {{"ns3::DropTailQueue<Packet>::MaxSize", "lots"}};
    EXPECT_TRUE(FailsWith(
        s,
        "ns3_defaults[\"ns3::DropTailQueue<Packet>::MaxSize\"]: \"lots\" is not a valid value"));
    s["ns3_defaults"] = {{"ns3::Node::Id", "3"}};
    EXPECT_TRUE(
        FailsWith(s,
                  "ns3_defaults[\"ns3::Node::Id\"]: the attribute cannot be set at construction"));
    s["ns3_defaults"] = {{"ns3::Application::StartTime", "10xs"}};
    EXPECT_TRUE(
        FailsWith(s,
                  "ns3_defaults[\"ns3::Application::StartTime\"]: \"10xs\" is not a valid value"));
    s["ns3_defaults"] = {{"ns3::Application::StartTime", "10us"}};
    EXPECT_NO_THROW(ParseScenario(s, "."));
    s["ns3_defaults"] = {{"ns3::UniformRandomVariable::Min", 2.5}};
    EXPECT_EQ(ParseScenario(s, ".").ns3Defaults.at("ns3::UniformRandomVariable::Min"), "2.5");
    s["ns3_defaults"] = {{"RngSeed", 3}};
    EXPECT_TRUE(FailsWith(s, "ns3_defaults[\"RngSeed\"]: is set by the scenario's \"seed\""));
    s["ns3_defaults"] = {{"NoSuchGlobal", 3}};
    EXPECT_TRUE(FailsWith(s, "ns3_defaults[\"NoSuchGlobal\"]: no ns-3 global value"));
    s["ns3_defaults"] = {{"ChecksumEnabled", json::array()}};
    EXPECT_TRUE(
        FailsWith(s,
                  "ns3_defaults[\"ChecksumEnabled\"]: expected a string, a number or true/false"));
}

// JSON syntax errors and duplicate keys: one message with the position or path.
TEST(ScenarioConfigErrors, JsonText)
{
    const std::string syntax =
        ErrorOf([] { ParseScenarioText("{\n  \"seed\": 1,\n}\n", "s.json"); });
    EXPECT_EQ(syntax.rfind("s.json: line 3, column 1: syntax error", 0), 0u) << syntax;
    EXPECT_EQ(syntax.find('\n'), std::string::npos);

    const std::string dup = ErrorOf([] {
        ParseScenarioText(R"({"jobs": [{"name": "a"}, {"name": "b", "ranks": 2, "ranks": 3}]})",
                          "s.json");
    });
    EXPECT_EQ(dup, "jobs[1].ranks: duplicate key");
    const std::string dup2 = ErrorOf([] {
        ParseScenarioText(R"({"topology": {"kind": "x"}, "seed": 1, "topology": {}})", "s.json");
    });
    EXPECT_EQ(dup2, "topology: duplicate key");
    const std::string nested = ErrorOf([] {
        ParseScenarioText(R"({"a": [[1, {"x": 1}], {"y": [{"z": 1, "z": 2}]}]})", "s.json");
    });
    EXPECT_EQ(nested, "a[1].y[0].z: duplicate key");
    EXPECT_NO_THROW(ParseScenarioText(R"({"a": {"x": 1}, "b": {"x": 2}})", "s.json"));
}

// Files: unreadable files are named; relative CDF paths follow the scenario.
TEST(ScenarioConfigErrors, Files)
{
    const std::string missing = ErrorOf([] { LoadScenarioFile("/nonexistent/flux/s.json"); });
    EXPECT_EQ(missing.rfind("/nonexistent/flux/s.json: cannot read the file", 0), 0u) << missing;

    ScenarioDir dir;
    dir.Write("c.txt", "0 0\n100 100\n");
    json s = Minimal();
    json cdf = CdfTenant();
    cdf["cdf"] = "c.txt";
    s["background"] = {cdf};
    const std::string path = dir.Write("s.json", s.dump(2));
    const auto cfg = LoadScenarioFile(path);
    EXPECT_EQ(cfg.baseDir, dir.Path());
    EXPECT_EQ(cfg.background[0].cdfPath, dir.Path() + "/c.txt");
    const std::string bad = dir.Write("bad.json", "{\"seed\": }");
    EXPECT_EQ(ErrorOf([&] { LoadScenarioFile(bad); }).rfind(bad + ": line 1, column 10: ", 0), 0u);
}

// ---------------------------------------------------------------------------
// Placement
// ---------------------------------------------------------------------------

namespace
{

ScenarioConfig::JobConfig
Job(const std::string& name, uint32_t ranks, const std::string& placement)
{
    ScenarioConfig::JobConfig job;
    job.name = name;
    job.ranks = ranks;
    job.placement = placement;
    return job;
}

} // namespace

// Packed takes the lowest free hosts; spread goes round robin over leaves.
TEST(Placement, PackedAndSpread)
{
    EXPECT_EQ(ResolvePlacement(Job("a", 4, "packed"), 16, 1, 4),
              (std::vector<uint32_t>{0, 1, 2, 3}));
    std::vector<bool> taken(16, false);
    taken[1] = taken[4] = true;
    EXPECT_EQ(ResolvePlacement(Job("a", 4, "packed"), 16, 1, 4, taken),
              (std::vector<uint32_t>{0, 2, 3, 5}));
    EXPECT_EQ(ResolvePlacement(Job("a", 4, "spread"), 16, 1, 4),
              (std::vector<uint32_t>{0, 4, 8, 12}));
    EXPECT_EQ(ResolvePlacement(Job("a", 6, "spread"), 16, 1, 4),
              (std::vector<uint32_t>{0, 4, 8, 12, 1, 5}));
    EXPECT_EQ(ResolvePlacement(Job("a", 6, "spread"), 16, 1, 4, taken),
              (std::vector<uint32_t>{0, 5, 8, 12, 2, 6}));
    EXPECT_EQ(ResolvePlacement(Job("a", 3, "spread"), 16, 1, 0), // one switch
              (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_THROW(ResolvePlacement(Job("a", 17, "packed"), 16, 1, 4), ScenarioError);
    EXPECT_THROW(ResolvePlacement(Job("a", 15, "random"), 16, 1, 4, taken), ScenarioError);
}

// Random placement depends only on seed and job name, gives distinct hosts
// within range, avoids taken hosts, and differs between seeds.
TEST(Placement, RandomIsDeterministicAndInRange)
{
    const auto a1 = ResolvePlacement(Job("a", 8, "random"), 16, 1, 4);
    EXPECT_EQ(a1, ResolvePlacement(Job("a", 8, "random"), 16, 1, 4));
    EXPECT_NE(a1, ResolvePlacement(Job("a", 8, "random"), 16, 2, 4));
    EXPECT_NE(a1, ResolvePlacement(Job("b", 8, "random"), 16, 1, 4));

    std::set<std::vector<uint32_t>> distinct;
    for (uint32_t seed = 1; seed <= 200; ++seed)
    {
        for (uint32_t hostCount : {2u, 5u, 16u, 128u})
        {
            std::vector<bool> taken(hostCount, false);
            taken[hostCount / 2] = true;
            for (uint32_t ranks = 2; ranks < hostCount; ranks += 3)
            {
                const auto hosts =
                    ResolvePlacement(Job("j", ranks, "random"), hostCount, seed, 4, taken);
                ASSERT_EQ(hosts.size(), ranks);
                std::set<uint32_t> unique(hosts.begin(), hosts.end());
                EXPECT_EQ(unique.size(), ranks);
                EXPECT_LT(*unique.rbegin(), hostCount);
                EXPECT_EQ(unique.count(hostCount / 2), 0u);
                if (hostCount == 16 && ranks == 8)
                {
                    distinct.insert(hosts);
                }
            }
        }
    }
    EXPECT_GT(distinct.size(), 190u); // 200 seeds give (nearly) 200 different placements
}

// ParseScenario reserves explicit lists first, then places jobs in order
// without sharing hosts; explicit lists may overlap; the seed drives random.
TEST(Placement, SharingAmongJobs)
{
    json s = Minimal();
    s["jobs"] = json::array();
    s["jobs"].push_back({{"name", "p"}, {"ranks", 4}, {"bytes", 1000}, {"iterations", 1}});
    s["jobs"].push_back(
        {{"name", "e"}, {"ranks", 3}, {"hosts", {0, 1, 5}}, {"bytes", 1000}, {"iterations", 1}});
    s["jobs"].push_back(
        {{"name", "f"}, {"ranks", 2}, {"hosts", {5, 0}}, {"bytes", 1000}, {"iterations", 1}});
    s["jobs"].push_back(
        {{"name", "s"}, {"ranks", 4}, {"placement", "spread"}, {"bytes", 1000}, {"iterations", 1}});
    s["jobs"].push_back(
        {{"name", "r"}, {"ranks", 3}, {"placement", "random"}, {"bytes", 1000}, {"iterations", 1}});
    const auto cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.jobs[0].hosts, (std::vector<uint32_t>{2, 3, 4, 6}));
    EXPECT_EQ(cfg.jobs[1].hosts, (std::vector<uint32_t>{0, 1, 5}));
    EXPECT_EQ(cfg.jobs[2].hosts, (std::vector<uint32_t>{5, 0}));
    EXPECT_EQ(cfg.jobs[3].hosts, (std::vector<uint32_t>{7, 8, 12, 9}));
    std::set<uint32_t> used = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12};
    for (uint32_t h : cfg.jobs[4].hosts)
    {
        EXPECT_EQ(used.count(h), 0u) << "random job got taken host " << h;
    }
    EXPECT_EQ(cfg.jobs[4].hosts, ResolvePlacement(cfg.jobs[4], 16, 1, 4, [&] {
                  std::vector<bool> t(16, false);
                  for (uint32_t h : used)
                  {
                      t[h] = true;
                  }
                  return t;
              }()));

    // Another seed moves the random job only.
    json s2 = s;
    s2["seed"] = 99;
    const auto cfg2 = ParseScenario(s2, ".");
    EXPECT_EQ(cfg2.jobs[3].hosts, cfg.jobs[3].hosts);
    EXPECT_EQ(cfg2.jobs[4].hosts.size(), 3u);
    EXPECT_EQ(ParseScenario(s2, ".").jobs[4].hosts, cfg2.jobs[4].hosts);
}

// The DCQCN profile: hpcc-sim by default; it sets the ECN marking scaled to
// the host link rate unless transport.ecn sets it; overrides of single
// parameters keep the rest of the profile; steps given in the scenario are
// taken at the host rate as written.
TEST(ScenarioConfig, DcqcnProfiles)
{
    const ScenarioConfig d = ParseScenario(Minimal(), ".");
    EXPECT_EQ(d.transport.dcqcn.name, "hpcc-sim");
    EXPECT_EQ(DcqcnProfile::DefaultName(), "hpcc-sim");

    json s = Minimal();
    s["topology"]["host_gbps"] = 25;
    const ScenarioConfig slow = ParseScenario(s, ".");
    EXPECT_DOUBLE_EQ(slow.transport.ecn.kminKb, 100); // 100 KB x 25/25
    EXPECT_DOUBLE_EQ(slow.transport.ecn.kmaxKb, 400);

    s = Minimal();
    s["transport"]["dcqcn"] = {{"profile", "paper"}, {"g", 0.0625}};
    const ScenarioConfig paper = ParseScenario(s, ".");
    EXPECT_EQ(paper.transport.dcqcn.name, "paper");
    EXPECT_DOUBLE_EQ(paper.transport.dcqcn.g, 0.0625);
    EXPECT_DOUBLE_EQ(paper.transport.dcqcn.increaseIntervalUs, 55);
    EXPECT_DOUBLE_EQ(paper.transport.ecn.kminKb, 5);
    EXPECT_DOUBLE_EQ(paper.transport.ecn.kmaxKb, 200);
    EXPECT_DOUBLE_EQ(paper.transport.ecn.pmax, 0.01);

    s = Minimal();
    s["transport"]["dcqcn"] = {{"ai_mbps", 7}};
    s["transport"]["ecn"] = {{"kmin_kb", 50}};
    const ScenarioConfig over = ParseScenario(s, ".");
    EXPECT_DOUBLE_EQ(over.transport.dcqcn.aiMbps, 7);
    EXPECT_DOUBLE_EQ(over.transport.dcqcn.haiMbps, 200); // 50 x 100/25, now as written
    EXPECT_FALSE(over.transport.dcqcn.scaleSteps);
    EXPECT_DOUBLE_EQ(over.transport.ecn.kminKb, 50);
    EXPECT_DOUBLE_EQ(over.transport.ecn.kmaxKb, 1600);
    bool sawAi = false;
    for (const auto& [name, value] : over.transport.dcqcn.HostAttributes(100))
    {
        if (name == "ns3::DcqcnCongestionControl::AdditiveIncrease")
        {
            EXPECT_EQ(value, "7000000bps");
            sawAi = true;
        }
    }
    EXPECT_TRUE(sawAi);

    s = Minimal();
    s["transport"]["dcqcn"] = {{"profile", "cx9"}};
    EXPECT_TRUE(FailsWith(s, "transport.dcqcn.profile:"));
    s["transport"]["dcqcn"] = {{"rate_increase_interval_us", 0}};
    EXPECT_TRUE(FailsWith(s, "transport.dcqcn.rate_increase_interval_us:"));
}

// Timer keys, faults and traces: values and their checks.
TEST(ScenarioConfig, TransportTimerFaultsTraces)
{
    json s = Minimal();
    s["transport"]["ack_timeout"] = 14;
    s["transport"]["retry_cnt"] = 3;
    s["faults"] = json::parse(R"([{"link": "all", "loss_rate": 0.001},
                                  {"link": "host1<->leaf0", "down_ms": 2, "up_ms": 5}])");
    s["traces"] = json::parse(R"({"interval_us": 5, "links": ["leaf0->host0"]})");
    const ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.transport.ackTimeout, 14u);
    EXPECT_EQ(cfg.transport.retryCnt, 3u);
    ASSERT_EQ(cfg.faults.size(), 2u);
    EXPECT_DOUBLE_EQ(cfg.faults[0].lossRate, 0.001);
    EXPECT_FALSE(cfg.faults[0].downMs.has_value());
    EXPECT_DOUBLE_EQ(*cfg.faults[1].downMs, 2);
    EXPECT_DOUBLE_EQ(*cfg.faults[1].upMs, 5);
    EXPECT_TRUE(cfg.traces.enabled);
    EXPECT_DOUBLE_EQ(cfg.traces.intervalUs, 5);
    EXPECT_TRUE(cfg.traces.rates);
    EXPECT_EQ(cfg.traces.links, std::vector<std::string>{"leaf0->host0"});
    EXPECT_FALSE(ParseScenario(Minimal(), ".").traces.enabled);

    s = Minimal();
    s["traces"] = json::parse(R"({"links": ["leaf0<->host0"]})");
    EXPECT_TRUE(FailsWith(s, "traces.links[0]:"));
    s["traces"] = json::parse(R"({"interval_us": 0})");
    EXPECT_TRUE(FailsWith(s, "traces.interval_us:"));
    s = Minimal();
    s["faults"] = json::parse(R"([{"link": "a->b", "down_ms": 1}])");
    EXPECT_TRUE(FailsWith(s, "faults[0].down_ms:"));
    s["faults"] = json::parse(R"([{"link": "a<->b", "down_ms": 5000}])");
    EXPECT_TRUE(FailsWith(s, "faults[0].down_ms:"));
    s["faults"] = json::parse(R"([{"link": "a<->b", "up_ms": 1}])");
    EXPECT_TRUE(FailsWith(s, "faults[0].up_ms:"));
}

// The ring topology, the PFC watchdog and the stall detector: defaults,
// values, and bad values naming their field.
TEST(ScenarioConfig, RingWatchdogStall)
{
    const ScenarioConfig defaults = ParseScenario(Minimal(), ".");
    EXPECT_FALSE(defaults.pfcWatchdog.enabled);
    EXPECT_DOUBLE_EQ(defaults.pfcWatchdog.detectionMs, 200);
    EXPECT_DOUBLE_EQ(defaults.pfcWatchdog.restorationMs, 200);
    EXPECT_EQ(defaults.pfcWatchdog.action, "drop");
    EXPECT_DOUBLE_EQ(defaults.stallMs, 10);

    json s = Minimal();
    s["topology"] = {{"kind", "ring"}, {"switches", 5}, {"hosts_per_switch", 2}};
    s["stall_ms"] = 0;
    s["pfc_watchdog"] = json::object();
    ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.HostCount(), 10u);
    EXPECT_EQ(cfg.HostsPerLeaf(), 2u);
    EXPECT_DOUBLE_EQ(cfg.stallMs, 0);
    EXPECT_TRUE(cfg.pfcWatchdog.enabled); // the object's presence turns it on
    s["pfc_watchdog"] = json::parse(
        R"({"enabled": false, "detection_ms": 0.5, "restoration_ms": 2, "action": "forward"})");
    cfg = ParseScenario(s, ".");
    EXPECT_FALSE(cfg.pfcWatchdog.enabled);
    EXPECT_DOUBLE_EQ(cfg.pfcWatchdog.detectionMs, 0.5);
    EXPECT_DOUBLE_EQ(cfg.pfcWatchdog.restorationMs, 2);
    EXPECT_EQ(cfg.pfcWatchdog.action, "forward");
    s["topology"] = {{"kind", "ring"}};
    EXPECT_EQ(ParseScenario(s, ".").HostCount(), 16u); // 4 switches x 4 hosts

    s = Minimal();
    s["topology"] = {{"kind", "ring"}, {"switches", 2}};
    EXPECT_TRUE(FailsWith(s, "topology.switches:"));
    s["topology"] = {{"kind", "ring"}, {"hosts_per_switch", 0}};
    EXPECT_TRUE(FailsWith(s, "topology.hosts_per_switch:"));
    s["topology"] = {{"kind", "ring"}, {"switches", 65535}, {"hosts_per_switch", 65535}};
    EXPECT_TRUE(FailsWith(s, "topology.hosts_per_switch:"));
    s = Minimal();
    s["stall_ms"] = -1;
    EXPECT_TRUE(FailsWith(s, "stall_ms:"));
    s["stall_ms"] = 5000; // beyond stop_ms 1000
    EXPECT_TRUE(FailsWith(s, "stall_ms:"));
    s["stall_ms"] = "10";
    EXPECT_TRUE(FailsWith(s, "stall_ms:"));
    s = Minimal();
    s["pfc_watchdog"] = json::parse(R"({"action": "shutdown"})");
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog.action:"));
    s["pfc_watchdog"] = json::parse(R"({"detection_ms": 0})");
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog.detection_ms:"));
    s["pfc_watchdog"] = json::parse(R"({"restoration_ms": 2000})");
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog.restoration_ms:"));
    s["pfc_watchdog"] = json::parse(R"({"enabled": 1})");
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog.enabled:"));
    s["pfc_watchdog"] = json::parse(R"({"detection": 1})");
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog.detection:"));
    s["pfc_watchdog"] = true;
    EXPECT_TRUE(FailsWith(s, "pfc_watchdog:"));
    s = Minimal();
    s["ns3_defaults"] = {{"ns3::PfcWatchdog::Action", "shutdown"}};
    EXPECT_TRUE(FailsWith(s, "ns3_defaults[\"ns3::PfcWatchdog::Action\"]:"));
    s["ns3_defaults"] = {{"ns3::PfcWatchdog::Action", "forward"}};
    EXPECT_EQ(ParseScenario(s, ".").ns3Defaults.at("ns3::PfcWatchdog::Action"), "forward");
}

TEST(ScenarioConfig, RouteConvergence)
{
    EXPECT_FALSE(ParseScenario(Minimal(), ".").topology.routeConvergenceMs.has_value());
    json s = Minimal();
    s["topology"]["route_convergence_ms"] = 0.5;
    EXPECT_DOUBLE_EQ(*ParseScenario(s, ".").topology.routeConvergenceMs, 0.5);
    s["topology"]["route_convergence_ms"] = 0;
    EXPECT_DOUBLE_EQ(*ParseScenario(s, ".").topology.routeConvergenceMs, 0);
    s["topology"]["route_convergence_ms"] = -1;
    EXPECT_TRUE(FailsWith(s, "topology.route_convergence_ms:"));
    s["topology"]["route_convergence_ms"] = "1";
    EXPECT_TRUE(FailsWith(s, "topology.route_convergence_ms:"));
}

// ---------------------------------------------------------------------------
// Ranges: what the simulation can represent
// ---------------------------------------------------------------------------

/// A scenario with every numeric key, each at a valid value.
json
EveryNumericKey()
{
    return json::parse(R"({
      "seed": 7, "stop_ms": 50,
      "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4,
                   "k": 4, "hosts_per_side": 3, "host_gbps": 100, "fabric_gbps": 100,
                   "link_delay_us": 1, "buffer_mb": 16},
      "transport": {"mtu_bytes": 4096, "ack_timeout": 20, "retry_cnt": 7,
                    "dcqcn": {"g": 0.5, "alpha_interval_us": 55,
                              "rate_decrease_interval_us": 4,
                              "rate_increase_interval_us": 300, "cnp_interval_us": 50,
                              "min_rate_mbps": 100, "ai_mbps": 40, "hai_mbps": 200,
                              "byte_counter_bytes": 10000000, "fast_recovery_stages": 5},
                    "ecn": {"kmin_kb": 100, "kmax_kb": 400, "pmax": 0.2}},
      "scheduler": {"policy": "flux", "classes": 3, "control_latency_us": 5, "replan_us": 1000,
                    "hysteresis_us": 50, "max_hold_us": 10, "min_share": 0.05,
                    "max_wait_us": 10},
      "faults": [{"link": "leaf0<->spine0", "loss_rate": 0.01, "down_ms": 1, "up_ms": 2}],
      "traces": {"interval_us": 10},
      "jobs": [{"name": "a", "ranks": 2, "bytes": 1000000, "compute_ms": 1, "iterations": 2,
                "start_ms": 1, "chunk_bytes": 65536, "buckets": 2, "priority": 2}],
      "background": [
        {"name": "r", "cdf": "websearch", "load": 0.1, "priority": 5, "start_ms": 1,
         "stop_ms": 5},
        {"name": "i", "pattern": "incast", "senders": [5, 6], "receiver": 4, "bytes": 1000,
         "repeat": 2, "interval_ms": 1, "priority": 5, "start_ms": 2}]
    })");
}

/// The scenario with one value replaced; path is "section.key" or "jobs.key"
/// (first entry of an array).
json
With(const std::string& section, const std::string& key, const json& value)
{
    json s = EveryNumericKey();
    if (section.empty())
    {
        s[key] = value;
    }
    else if (s[section].is_array())
    {
        s[section][0][key] = value;
    }
    else
    {
        s[section][key] = value;
    }
    return s;
}

// Every numeric key has an entry in the range table (a key read without one
// would be a programming error, reported as std::logic_error), and valid
// values at the ends of the ranges pass.
TEST(ScenarioConfigRanges, EveryNumericKeyHasARange)
{
    EXPECT_EQ(ErrorOf([] { ParseScenario(EveryNumericKey(), "."); }), "");
    EXPECT_NO_THROW(ParseScenario(EveryNumericKey(), "."));
    EXPECT_NO_THROW(ParseScenario(With("", "stop_ms", 1e9), "."));
    EXPECT_NO_THROW(ParseScenario(With("jobs", "compute_ms", 1e9), "."));
    EXPECT_NO_THROW(ParseScenario(With("topology", "host_gbps", 10000), "."));
    EXPECT_NO_THROW(ParseScenario(With("topology", "host_gbps", 0.001), "."));
    EXPECT_NO_THROW(ParseScenario(With("", "seed", 4294944442.0), "."));
    EXPECT_NO_THROW(ParseScenario(With("topology", "link_delay_us", 1e12), "."));
}

// The failure that motivated the table: a compute time of 2^64 ms (nlohmann
// reads it as a double) used to reach ns-3's Time attribute as a negative
// number and abort the process; now it names the field.
TEST(ScenarioConfigRanges, TimesFitNs3Time)
{
    json s = Minimal();
    s["jobs"][0]["compute_ms"] = json::parse("18446744073709551616");
    EXPECT_TRUE(FailsWith(s,
                          "jobs[0].compute_ms: must be at most 1000000000 (the longest simulated "
                          "time, 10^15 ns), got 1.844674407e+19"));
    EXPECT_TRUE(FailsWith(With("", "stop_ms", 1.000001e9), "stop_ms: must be at most 1000000000"));
    EXPECT_TRUE(FailsWith(With("topology", "link_delay_us", 1e13),
                          "topology.link_delay_us: must be at most 1000000000000"));
    EXPECT_TRUE(FailsWith(With("jobs", "start_ms", -1e-300), "jobs[0].start_ms: must not be "));
    // Positive times must be at least 1 ns (shorter ones would be 0 ns).
    json inc = EveryNumericKey();
    inc["background"][1]["interval_ms"] = 1e-7;
    EXPECT_TRUE(
        FailsWith(inc, "background[1].interval_ms: must be positive and at least 1 ns (0.000001)"));
    EXPECT_TRUE(
        FailsWith(With("", "stop_ms", 1e-7), "stop_ms: must be positive and at least 1 ns"));
    EXPECT_TRUE(FailsWith(With("", "stop_ms", -1), "stop_ms: must be positive, got -1"));
}

// NaN and infinities (which JSON text cannot hold, but a json value can)
// are refused like any value out of range.
TEST(ScenarioConfigRanges, NanAndInfinity)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(
        FailsWith(With("jobs", "compute_ms", nan), "jobs[0].compute_ms: expected a finite number"));
    EXPECT_TRUE(FailsWith(With("", "stop_ms", inf), "stop_ms: expected a finite number"));
    EXPECT_TRUE(FailsWith(With("topology", "host_gbps", -inf),
                          "topology.host_gbps: expected a finite number"));
    EXPECT_TRUE(
        FailsWith(With("faults", "loss_rate", nan), "faults[0].loss_rate: expected a finite"));
    EXPECT_TRUE(FailsWith(With("topology", "leaves", inf), "topology.leaves: expected an integer"));
    EXPECT_TRUE(FailsWith(With("jobs", "bytes", nan), "jobs[0].bytes: expected an integer"));
    // From text: 1e400 is beyond double; the parser names the key.
    EXPECT_EQ(ErrorOf([] { ParseScenarioText(R"({"topology": {"host_gbps": 1e400}})", "s.json"); }),
              "topology.host_gbps: the number 1e400 is too large to represent");
}

// Integers: fractions, booleans, strings and numbers beyond uint64 are
// refused; so are negative values and values beyond the key's range.
TEST(ScenarioConfigRanges, Integers)
{
    EXPECT_TRUE(FailsWith(With("topology", "leaves", 1.5),
                          "topology.leaves: expected an integer, got 1.5"));
    EXPECT_TRUE(FailsWith(With("topology", "leaves", true),
                          "topology.leaves: expected an integer, got true"));
    EXPECT_TRUE(FailsWith(With("topology", "leaves", "2"),
                          "topology.leaves: expected an integer, got \"2\""));
    EXPECT_TRUE(
        FailsWith(With("topology", "leaves", 1e30), "topology.leaves: must be at most 65535"));
    EXPECT_TRUE(FailsWith(With("jobs", "bytes", json::parse("18446744073709551616")),
                          "jobs[0].bytes: must be at most 9223372036854775807"));
    EXPECT_TRUE(FailsWith(With("jobs", "bytes", json::parse("18446744073709551615")),
                          "jobs[0].bytes: must be at most 9223372036854775807"));
    EXPECT_TRUE(FailsWith(With("jobs", "iterations", json::parse("-9223372036854775809")),
                          "jobs[0].iterations: must be at least 1"));
    EXPECT_TRUE(FailsWith(With("jobs", "buckets", 8193), "jobs[0].buckets: must be at most 8192"));
    EXPECT_TRUE(FailsWith(With("", "seed", 4294944443.0), "seed: must be at most 4294944442"));
    EXPECT_TRUE(FailsWith(With("topology", "k", 256), "topology.k: must be at most 254"));
    EXPECT_TRUE(
        FailsWith(With("transport", "pfc", 1), "transport.pfc: expected true or false, got 1"));
}

// Rates: positive, finite, 1 Mb/s ... 10 Tb/s; probabilities in their interval.
TEST(ScenarioConfigRanges, RatesAndProbabilities)
{
    EXPECT_TRUE(FailsWith(With("topology", "host_gbps", 10001),
                          "topology.host_gbps: must be at most 10000"));
    EXPECT_TRUE(FailsWith(With("topology", "fabric_gbps", 1e-4),
                          "topology.fabric_gbps: must be at least 0.001"));
    EXPECT_TRUE(
        FailsWith(With("topology", "fabric_gbps", 0), "topology.fabric_gbps: must be positive"));
    EXPECT_TRUE(FailsWith(With("faults", "loss_rate", 1.0000001),
                          "faults[0].loss_rate: must be in [0, 1]"));
    EXPECT_TRUE(FailsWith(With("background", "load", 0), "background[0].load: must be in (0, 1]"));
    EXPECT_TRUE(FailsWith(With("topology", "buffer_mb", 1e7),
                          "topology.buffer_mb: must be at most 1000000"));
}

// Products of sizes, ranks and repetitions stay inside the byte counters;
// a pipelined ring step is not split into more pieces than are posted at once.
TEST(ScenarioConfigRanges, OverflowingProducts)
{
    json s = With("jobs", "bytes", 4e18);
    s["jobs"][0]["buckets"] = 1;
    s["jobs"][0]["chunk_bytes"] = 0;
    EXPECT_TRUE(FailsWith(s,
                          "jobs[0].bytes: the job would move 2 x bytes x (ranks - 1) x "
                          "iterations = 1.6e+19 bytes, more than 2^63 - 1"));
    s["jobs"][0]["bytes"] = 1e18;
    s["jobs"][0]["iterations"] = 4;
    EXPECT_NO_THROW(ParseScenario(s, "."));
    s["jobs"][0]["iterations"] = 5;
    EXPECT_TRUE(FailsWith(s, "jobs[0].bytes: the job would move"));

    json i = EveryNumericKey();
    i["background"][1]["bytes"] = 3e18;
    EXPECT_TRUE(
        FailsWith(i, "background[1].bytes: the pattern would send bytes x senders x repeat"));

    json c = With("jobs", "chunk_bytes", 1);
    c["jobs"][0]["bytes"] = 1e9;
    EXPECT_TRUE(FailsWith(c,
                          "jobs[0].chunk_bytes: 1 would split a ring step of 250000000 bytes "
                          "into 250000000 pieces, more than 65536 (use at least 3815)"));
    c["jobs"][0]["chunk_bytes"] = 3815;
    EXPECT_NO_THROW(ParseScenario(c, "."));
    // a broadcast hop carries the whole bucket (of two), not a ring step's share
    c["jobs"][0]["collective"] = "broadcast";
    EXPECT_TRUE(FailsWith(c,
                          "jobs[0].chunk_bytes: 3815 would split a broadcast hop of 500000000 "
                          "bytes into 131062 pieces, more than 65536 (use at least 7630)"));
    c["jobs"][0]["chunk_bytes"] = 7630;
    EXPECT_NO_THROW(ParseScenario(c, "."));
}

// ns3_defaults values that ns-3 would abort on, or overflow with, are
// refused before ns-3 parses them.
TEST(ScenarioConfigRanges, Ns3DefaultsValues)
{
    auto with = [](const std::string& name, const json& value) {
        json s = Minimal();
        s["ns3_defaults"] = {{name, value}};
        return s;
    };
    for (const char* bad : {"1e400s", "1e20s", "-1e400ms", "9300000000000000000ns", "1e10y"})
    {
        EXPECT_TRUE(FailsWith(with("ns3::RdmaNic::RetransmitTimeout", bad),
                              "ns3_defaults[\"ns3::RdmaNic::RetransmitTimeout\"]: \"" +
                                  std::string(bad) + "\" is not a valid value"))
            << bad;
    }
    EXPECT_NO_THROW(ParseScenario(with("ns3::RdmaNic::RetransmitTimeout", "100ms"), "."));
    EXPECT_TRUE(FailsWith(with("ns3::FluxQueueDisc::MinShare", "1e400"),
                          "ns3_defaults[\"ns3::FluxQueueDisc::MinShare\"]: \"1e400\" is not"));
    for (const char* bad :
         {"99999999999999999999Gbps", "10001Gbps", "2000GBps", "1e400Gbps", "3 2 1", "1Gbps 2"})
    {
        EXPECT_TRUE(FailsWith(with("ns3::Collective::IntraServerBandwidth", bad),
                              "ns3_defaults[\"ns3::Collective::IntraServerBandwidth\"]: \"" +
                                  std::string(bad) + "\" is not a valid value"))
            << bad;
    }
    EXPECT_NO_THROW(ParseScenario(with("ns3::Collective::IntraServerBandwidth", "400Gbps"), "."));
    for (const char* bad : {"99999999999999999999p", "3 2 1", "100p 1"})
    {
        EXPECT_TRUE(FailsWith(with("ns3::FluxQueueDisc::MaxSize", bad),
                              "ns3_defaults[\"ns3::FluxQueueDisc::MaxSize\"]: \"" +
                                  std::string(bad) + "\" is not a valid value"))
            << bad;
    }
    EXPECT_TRUE(FailsWith(with("SimulatorImplementationType", "ns3::RealtimeSimulatorImpl"),
                          "ns3_defaults[\"SimulatorImplementationType\"]: is fixed by the runner"));
    EXPECT_TRUE(FailsWith(with("ns3::ClassQpArbiter::Order", "9"),
                          "ns3_defaults[\"ns3::ClassQpArbiter::Order\"]: \"9\" is not"));
    EXPECT_TRUE(FailsWith(with("ns3::FqCoDelQueueDisc::Interval", "1e400s"),
                          "ns3_defaults[\"ns3::FqCoDelQueueDisc::Interval\"]: \"1e400s\" is not"));
    EXPECT_TRUE(
        FailsWith(with("ns3::FabricSwitch::QueueDiscFactory", "ns3::FluxQueueDisc[MaxWait=1e400s]"),
                  "ns3_defaults[\"ns3::FabricSwitch::QueueDiscFactory\"]: "
                  "\"1e400s\" is not a valid value"));
    EXPECT_TRUE(FailsWith(with("ns3::FluxQueueDisc::Quantum", 4294967295u),
                          "ns3_defaults[\"ns3::FluxQueueDisc::Quantum\"]: \"4294967295\" is not"));
}

// JSON text: nesting beyond 64 levels, NUL bytes; keys that would make a
// path ambiguous are written in brackets.
TEST(ScenarioConfigRanges, JsonTextLimits)
{
    const std::string deep = std::string(65, '[') + std::string(65, ']');
    std::string path;
    for (int i = 0; i < 64; ++i)
    {
        path += "[0]";
    }
    EXPECT_EQ(ErrorOf([&] { ParseScenarioText(deep, "s.json"); }),
              path + ": nested too deeply (more than 64 levels of objects and arrays)");
    const std::string ok = std::string(64, '[') + std::string(64, ']');
    EXPECT_EQ(ErrorOf([&] { ParseScenarioText(ok, "s.json"); }), "");
    EXPECT_EQ(ErrorOf([&] { ParseScenarioText(std::string("{\"seed\": 1}\0", 12), "s.json"); }),
              "s.json: a NUL byte at byte 11: the file is not JSON text");

    json s = Minimal();
    s["topology"]["a.b"] = 1;
    EXPECT_TRUE(FailsWith(s, "topology[\"a.b\"]: unknown key"));
    s = Minimal();
    s["jobs"][0][""] = 1;
    EXPECT_TRUE(FailsWith(s, "jobs[0][\"\"]: unknown key"));
    s = Minimal();
    s["jobs"][0]["x\ny"] = 1;
    EXPECT_TRUE(FailsWith(s, "jobs[0][\"x\\ny\"]: unknown key"));
}

// Messages are one printable line of valid UTF-8, whatever the parser quotes.
TEST(ScenarioConfigRanges, MessagesAreOneLineOfUtf8)
{
    const ScenarioError e("f", "a\nb\tc\x01 \xff\xc3 \xc3\xa9 \xed\xa0\x80");
    EXPECT_STREQ(e.what(), "f: a b c? ?? \xc3\xa9 ???");
    EXPECT_EQ(e.GetProblem(), "a b c? ?? \xc3\xa9 ???");
}
