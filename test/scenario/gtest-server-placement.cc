/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Servers of several GPUs and NICs: the "servers" keys and the
// "rail-optimized" kind are checked field by field; jobs are placed on GPUs
// ("packed" fills a server before the next, "spread" takes one GPU per
// server in turn, "gpus" lists them), every rank gets its GPU, its GPU's NIC
// and its server, and no two jobs share a GPU. Without "servers" a host is
// one GPU and placement is as it always was.

#include "ns3/memory-estimate.h"
#include "ns3/scenario-config.h"

#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// 2 leaves x 4 hosts, servers of 4 GPUs and 2 NICs: 4 servers, 16 GPUs.
json
Servers()
{
    return json::parse(R"({
      "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 4,
                   "servers": {"gpus": 4, "nics": 2}},
      "jobs": [{"name": "a", "ranks": 4, "bytes": 1000000, "iterations": 1}]
    })");
}

/// 2 rail groups of 2 servers of 8 GPUs and 8 NICs: 16 leaves, 32 hosts, 32 GPUs.
json
Rails()
{
    return json::parse(R"({
      "topology": {"kind": "rail-optimized", "rail_groups": 2, "servers_per_rail_group": 2,
                   "spines": 2, "servers": {"gpus": 8, "nics": 8}},
      "jobs": [{"name": "a", "ranks": 8, "bytes": 1000000, "iterations": 1}]
    })");
}

/// The message of the ScenarioError of parsing s, or "" when it parses.
std::string
ErrorOf(const json& s)
{
    try
    {
        ParseScenario(s, ".");
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// True when the message starts with prefix.
bool
StartsWith(const std::string& message, const std::string& prefix)
{
    return message.rfind(prefix, 0) == 0;
}

} // namespace

// The keys' values and defaults, and the GPU -> NIC and GPU -> server maps
// of the documented formula (GPU g of a server uses NIC floor(g N / G)).
TEST(Servers, KeysAndNumbering)
{
    json s = Servers();
    s["topology"]["servers"]["nvlink_gbps"] = 2400;
    s["topology"]["servers"]["nvlink_latency_us"] = 0.7;
    const ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_TRUE(cfg.topology.hasServers);
    EXPECT_EQ(cfg.topology.servers.gpus, 4u);
    EXPECT_EQ(cfg.topology.servers.nics, 2u);
    EXPECT_EQ(cfg.topology.servers.nvlinkGbps, 2400);
    EXPECT_EQ(cfg.topology.servers.nvlinkLatencyUs, 0.7);
    EXPECT_EQ(cfg.HostCount(), 8u);
    EXPECT_EQ(cfg.ServerCount(), 4u);
    EXPECT_EQ(cfg.GpuCount(), 16u);
    const uint32_t hosts[] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7};
    for (uint32_t g = 0; g < 16; ++g)
    {
        EXPECT_EQ(cfg.GpuHost(g), hosts[g]) << "GPU " << g;
        EXPECT_EQ(cfg.GpuServer(g), g / 4) << "GPU " << g;
    }
    const ScenarioConfig defaults = ParseScenario(Rails(), ".");
    EXPECT_EQ(defaults.topology.servers.nvlinkGbps, 3600);
    EXPECT_EQ(defaults.topology.servers.nvlinkLatencyUs, 0.05);
    EXPECT_EQ(defaults.HostCount(), 32u);
    EXPECT_EQ(defaults.GpuCount(), 32u);
    EXPECT_EQ(defaults.HostsPerLeaf(), 0u); // a leaf's hosts are rails apart
}

// Without "servers" every host is a server of one GPU: the resolved GPUs,
// hosts and servers of a job are the same numbers.
TEST(Servers, WithoutServersAHostIsOneGpu)
{
    json s = json::parse(R"({
      "topology": {"kind": "leaf-spine", "leaves": 4, "hosts_per_leaf": 4},
      "jobs": [{"name": "a", "ranks": 4, "bytes": 1000000, "iterations": 1,
                "placement": "spread"},
               {"name": "b", "ranks": 3, "bytes": 1000000, "iterations": 1, "hosts": [1, 2, 3]},
               {"name": "c", "ranks": 3, "bytes": 1000000, "iterations": 1, "gpus": [9, 10, 11]}]
    })");
    const ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_FALSE(cfg.topology.hasServers);
    EXPECT_EQ(cfg.GpuCount(), cfg.HostCount());
    // spread over the leaves as before, around hosts 1-3 and 9-11 listed by the others
    EXPECT_EQ(cfg.jobs[0].hosts, (std::vector<uint32_t>{0, 4, 8, 12}));
    for (const auto& job : cfg.jobs)
    {
        EXPECT_EQ(job.gpus, job.hosts) << job.name;
        EXPECT_EQ(job.servers, job.hosts) << job.name;
    }
}

// The memory estimate counts the rail-optimised fabric as built: hosts,
// rail groups x rails leaves and the spines, hosts + leaves x spines cables.
TEST(Servers, MemoryEstimateCountsTheRails)
{
    const ScenarioConfig cfg = ParseScenario(Rails(), ".");
    const auto parts = MemoryEstimate::Parts(cfg);
    ASSERT_FALSE(parts.empty());
    EXPECT_EQ(parts.front().field, "topology");
    EXPECT_EQ(parts.front().what, "the fabric: 32 hosts, 18 switches, 64 cables");
}

// "packed" puts a job's first G ranks on one server, the next G on the
// next; a second job starts on the first free GPU, on a server it may
// share with the first job (and so its NICs).
TEST(Servers, PackedFillsAServerFirst)
{
    json s = Rails();
    s["jobs"].push_back({{"name", "b"}, {"ranks", 12}, {"bytes", 1000000}, {"iterations", 1}});
    s["jobs"][0]["ranks"] = 12;
    const ScenarioConfig cfg = ParseScenario(s, ".");
    const auto& a = cfg.jobs[0];
    for (uint32_t r = 0; r < 12; ++r)
    {
        EXPECT_EQ(a.gpus[r], r);
        EXPECT_EQ(a.servers[r], r / 8) << "rank " << r;
        EXPECT_EQ(a.hosts[r], r) << "8 GPUs, 8 NICs: GPU g uses NIC g of its server";
    }
    const auto& b = cfg.jobs[1];
    EXPECT_EQ(b.gpus.front(), 12u);
    EXPECT_EQ(b.servers.front(), 1u) << "shares server 1 with a";
    EXPECT_EQ(b.servers.back(), 2u);
}

// "spread" takes one GPU of each server in turn; "random" gives distinct
// GPUs with the hosts and servers they imply.
TEST(Servers, SpreadAndRandom)
{
    json s = Servers();
    s["jobs"][0]["ranks"] = 6;
    s["jobs"][0]["placement"] = "spread";
    const ScenarioConfig spread = ParseScenario(s, ".");
    EXPECT_EQ(spread.jobs[0].gpus, (std::vector<uint32_t>{0, 4, 8, 12, 1, 5}));
    EXPECT_EQ(spread.jobs[0].servers, (std::vector<uint32_t>{0, 1, 2, 3, 0, 1}));
    EXPECT_EQ(spread.jobs[0].hosts, (std::vector<uint32_t>{0, 2, 4, 6, 0, 2}));

    s["jobs"][0]["placement"] = "random";
    s["jobs"][0]["ranks"] = 16;
    const ScenarioConfig random = ParseScenario(s, ".");
    const auto& job = random.jobs[0];
    EXPECT_EQ(std::set<uint32_t>(job.gpus.begin(), job.gpus.end()).size(), 16u);
    for (uint32_t r = 0; r < 16; ++r)
    {
        EXPECT_EQ(job.hosts[r], random.GpuHost(job.gpus[r]));
        EXPECT_EQ(job.servers[r], job.gpus[r] / 4);
    }
}

// Explicit "gpus": the ranks sit on the GPUs listed, in order; placed jobs
// go around them.
TEST(Servers, ExplicitGpus)
{
    json s = Servers();
    s["jobs"][0]["gpus"] = {15, 3, 7, 0};
    s["jobs"].push_back({{"name", "b"}, {"ranks", 2}, {"bytes", 1000000}, {"iterations", 1}});
    const ScenarioConfig cfg = ParseScenario(s, ".");
    EXPECT_EQ(cfg.jobs[0].placement, "explicit");
    EXPECT_EQ(cfg.jobs[0].gpus, (std::vector<uint32_t>{15, 3, 7, 0}));
    EXPECT_EQ(cfg.jobs[0].hosts, (std::vector<uint32_t>{7, 1, 3, 0}));
    EXPECT_EQ(cfg.jobs[0].servers, (std::vector<uint32_t>{3, 0, 1, 0}));
    EXPECT_EQ(cfg.jobs[1].gpus, (std::vector<uint32_t>{1, 2}));
}

// Two jobs may not share a GPU: listing one twice across jobs, or a GPU as
// a host of a job without servers, is refused naming the entry.
TEST(Servers, JobsSharingAGpuAreRefused)
{
    json s = Servers();
    s["jobs"][0]["gpus"] = {0, 1, 2, 3};
    s["jobs"].push_back(
        {{"name", "b"}, {"ranks", 2}, {"bytes", 1000000}, {"iterations", 1}, {"gpus", {4, 2}}});
    EXPECT_EQ(ErrorOf(s),
              "jobs[1].gpus[1]: GPU 2 is also listed by jobs[0] (two jobs may not share a GPU)");

    json plain = json::parse(R"({
      "topology": {"kind": "leaf-spine"},
      "jobs": [{"name": "a", "ranks": 2, "bytes": 1000, "iterations": 1, "gpus": [0, 1]},
               {"name": "b", "ranks": 2, "bytes": 1000, "iterations": 1, "hosts": [2, 1]}]
    })");
    EXPECT_TRUE(StartsWith(ErrorOf(plain), "jobs[1].hosts[1]: host 1 is GPU 1 of jobs[0].gpus"))
        << ErrorOf(plain);
    plain["jobs"][1]["hosts"] = {2, 3};
    EXPECT_EQ(ErrorOf(plain), "");
}

// Bad input names the field.
TEST(Servers, BadKeysNameTheField)
{
    const std::vector<std::pair<std::function<void(json&)>, std::string>> cases = {
        {[](json& s) { s["topology"]["servers"]["gpus"] = 0; }, "topology.servers.gpus: "},
        {[](json& s) { s["topology"]["servers"]["gpus"] = "8"; }, "topology.servers.gpus: "},
        {[](json& s) { s["topology"]["servers"]["nics"] = 5; },
         "topology.servers.nics: a server has 4 GPUs and 5 NICs"},
        {[](json& s) { s["topology"]["servers"]["nics"] = 3; },
         "topology.servers.nics: the topology's 8 hosts are not a multiple of 3"},
        {[](json& s) { s["topology"]["servers"]["nvlink_gbps"] = 0; },
         "topology.servers.nvlink_gbps: "},
        {[](json& s) { s["topology"]["servers"]["nvlink_latency_us"] = -1; },
         "topology.servers.nvlink_latency_us: "},
        {[](json& s) { s["topology"]["servers"]["nvlink"] = 1; }, "topology.servers.nvlink: "},
        {[](json& s) { s["topology"]["servers"] = 8; }, "topology.servers: "},
        {[](json& s) { s["jobs"][0]["ranks"] = 17; },
         "jobs[0].ranks: 17 ranks but the topology has 16 GPUs"},
        {[](json& s) {
             s["jobs"][0]["hosts"] = {0, 1, 2, 3};
         },
         "jobs[0].hosts: with topology.servers a rank runs on a GPU"},
        {[](json& s) {
             s["jobs"][0]["gpus"] = {0, 1, 2, 16};
         },
         "jobs[0].gpus[3]: GPU 16 is out of range (the topology has 16 GPUs: 0..15)"},
        {[](json& s) {
             s["jobs"][0]["gpus"] = {0, 1, 1, 2};
         },
         "jobs[0].gpus[2]: GPU 1 is listed twice"},
        {[](json& s) {
             s["jobs"][0]["gpus"] = {0, 1};
         },
         "jobs[0].gpus: 2 GPUs listed but ranks is 4"},
        {[](json& s) {
             s["jobs"][0]["gpus"] = {0, 1, 2, 3};
             s["jobs"][0]["placement"] = "packed";
         },
         "jobs[0].placement: give either \"gpus\" or \"placement\""},
        {[](json& s) { s["jobs"][0]["gpus"] = "0"; }, "jobs[0].gpus: "},
    };
    for (const auto& [edit, prefix] : cases)
    {
        json s = Servers();
        edit(s);
        const std::string error = ErrorOf(s);
        EXPECT_TRUE(StartsWith(error, prefix)) << "\"" << error << "\" for " << prefix;
    }
    json r = Rails();
    r["topology"].erase("servers");
    EXPECT_TRUE(StartsWith(ErrorOf(r), "topology.servers: required by a \"rail-optimized\""));
    r = Rails();
    r["topology"]["spines"] = 0;
    EXPECT_TRUE(StartsWith(ErrorOf(r), "topology.spines: must be at least 1"));
    r["topology"]["rail_groups"] = 1;
    r["topology"]["servers"]["nics"] = 1;
    EXPECT_EQ(ErrorOf(r), "") << "a single leaf needs no spine";
    r = Rails();
    r["topology"]["rail_groups"] = 0;
    EXPECT_TRUE(StartsWith(ErrorOf(r), "topology.rail_groups: "));
    r = Rails();
    r["topology"]["servers_per_rail_group"] = 65535;
    r["topology"]["rail_groups"] = 64;
    EXPECT_TRUE(StartsWith(ErrorOf(r), "topology.servers_per_rail_group: the topology would have"));
}
