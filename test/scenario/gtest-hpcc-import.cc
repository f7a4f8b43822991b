/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The HPCC simulator's formats: rates and times as its files write them,
// its node addresses, its ideal FCT, its FCT file lines, and the fabric
// given cable by cable that its topology files become.

#include "ns3/fabric-topology-helper.h"
#include "ns3/hpcc-fct-writer.h"
#include "ns3/hpcc-import.h"
#include "ns3/pfc-channel.h"
#include "ns3/scenario-error.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

/// A folder with an HPCC topology, flow and configuration file.
struct HpccFiles
{
    std::filesystem::path dir; //!< the folder

    /// \param name the test's name \param topology the topology file's text
    /// \param config the configuration's text
    HpccFiles(const std::string& name, const std::string& topology, const std::string& config)
        : dir(std::filesystem::temp_directory_path() / ("flux-gtest-hpcc-" + name))
    {
        std::filesystem::create_directories(dir);
        std::ofstream(dir / "topology.txt") << topology;
        std::ofstream(dir / "flow.txt") << "1\n0 1 3 100 1000 0.0001\n";
        std::ofstream(dir / "config.txt") << "TOPOLOGY_FILE topology.txt\nFLOW_FILE flow.txt\n"
                                          << config;
    }

    ~HpccFiles()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
};

/// Two hosts on one switch.
const std::string kStar = "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n";

} // namespace

// Rates: a number and an ns-3 unit, bit or byte, or plain bit/s; anything
// else is not a rate.
TEST(HpccImport, RatesAsItsFilesWriteThem)
{
    EXPECT_DOUBLE_EQ(*ParseHpccRate("100Gbps"), 100e9);
    EXPECT_DOUBLE_EQ(*ParseHpccRate("50Mb/s"), 50e6);
    EXPECT_DOUBLE_EQ(*ParseHpccRate("1.5Kbps"), 1500);
    EXPECT_DOUBLE_EQ(*ParseHpccRate("2MBps"), 16e6);
    EXPECT_DOUBLE_EQ(*ParseHpccRate("1KiBps"), 8192);
    EXPECT_DOUBLE_EQ(*ParseHpccRate("25000000000"), 25e9);
    for (const char* bad : {"",
                            "Gbps",
                            "100Gbs",
                            "100 Gbps",
                            "100Gxps",
                            "-5Mbps",
                            "1e400bps",
                            "nanbps",
                            "0x10bps",
                            "100Gb"})
    {
        EXPECT_FALSE(ParseHpccRate(bad).has_value()) << bad;
    }
}

// Times: a number and an ns-3 unit, or plain seconds.
TEST(HpccImport, TimesAsItsFilesWriteThem)
{
    EXPECT_DOUBLE_EQ(*ParseHpccTimeNs("0.001ms"), 1000);
    EXPECT_DOUBLE_EQ(*ParseHpccTimeNs("1000ns"), 1000);
    EXPECT_DOUBLE_EQ(*ParseHpccTimeNs("1us"), 1000);
    EXPECT_DOUBLE_EQ(*ParseHpccTimeNs("2"), 2e9);
    EXPECT_DOUBLE_EQ(*ParseHpccTimeNs("1e-6s"), 1000);
    for (const char* bad : {"", "ms", "1xs", "1 us", "1e400s", "inf"})
    {
        EXPECT_FALSE(ParseHpccTimeNs(bad).has_value()) << bad;
    }
}

// Node n is 0x0b000001 + (n / 256) << 16 + (n % 256) << 8.
TEST(HpccImport, NodeAddresses)
{
    EXPECT_EQ(HpccNodeAddress(0), 0x0b000001u);
    EXPECT_EQ(HpccNodeAddress(1), 0x0b000101u);
    EXPECT_EQ(HpccNodeAddress(255), 0x0b00ff01u);
    EXPECT_EQ(HpccNodeAddress(256), 0x0b010001u);
    EXPECT_EQ(HpccNodeAddress(320), 0x0b014001u);
}

// The ideal FCT in that simulator's integer arithmetic: 2 x delays + one
// payload per hop, plus the bytes with 48 per packet at the slowest hop.
TEST(HpccImport, IdealFctFormula)
{
    using Hop = HpccFctWriter::Hop;
    const std::vector<Hop> star = {{100000000000ULL, 1000}, {100000000000ULL, 1000}};
    // 2 x 2000 + 2 x floor(1000 x 8 / 100) + floor((1000 + 48) x 8 / 100)
    EXPECT_EQ(HpccFctWriter::IdealFctNs(star, 1000, 1000), 4000u + 2 * 80 + 83);
    // 3001 bytes at 1000 per packet: 4 packets
    EXPECT_EQ(HpccFctWriter::IdealFctNs(star, 3001, 1000), 4160u + (3001 + 4 * 48) * 8 / 100);
    // the slowest hop sets the rate, every hop adds its payload time
    const std::vector<Hop> tree = {{100000000000ULL, 1000},
                                   {400000000000ULL, 1000},
                                   {400000000000ULL, 1000},
                                   {25000000000ULL, 1000}};
    EXPECT_EQ(HpccFctWriter::IdealFctNs(tree, 1000000, 1000),
              8000u + 80 + 20 + 20 + 320 + (1000000 + 1000 * 48) * 8 / 25);
    EXPECT_EQ(HpccFctWriter::IdealFctNs({}, 1000, 1000), 0u);
}

// One line per record: hex addresses, decimal numbers.
TEST(HpccImport, FctFileLines)
{
    RunResults r;
    r.hpccFct = true;
    r.hpccFctRecords.push_back({0x0b000101, 0x0b014001, 10000, 100, 2000, 2000000000, 5000, 4245});
    EXPECT_EQ(HpccFctWriter::Text(r), "0b000101 0b014001 10000 100 2000 2000000000 5000 4245\n");
}

// A fabric given cable by cable: hosts are the nodes that are not switches,
// in id order, each cable keeps its rate and delay, and a bad cable is
// refused before anything is built.
TEST(HpccImport, GraphFabric)
{
    FabricTopologyHelper helper;
    const DataRate r100("100Gbps");
    const DataRate r400("400Gbps");
    // switches 0 and 3; hosts 1, 2 (on 0) and 4 (on 3)
    const std::vector<FabricTopologyHelper::Cable> cables = {{1, 0, r100, NanoSeconds(1000)},
                                                             {0, 2, r100, NanoSeconds(1000)},
                                                             {3, 4, r100, NanoSeconds(500)},
                                                             {0, 3, r400, NanoSeconds(2000)}};
    FabricTopology topo = helper.BuildGraph(5, {0, 3}, cables);
    ASSERT_EQ(topo.GetNHosts(), 3u);
    EXPECT_EQ(topo.kind, "links");
    EXPECT_GE(topo.FindLink("host2->sw3"), 0); // node 4 is host 2
    EXPECT_GE(topo.FindLink("sw0->sw3"), 0);
    const std::vector<uint32_t> path = topo.GetPath(0, 2, 50000);
    ASSERT_EQ(path.size(), 3u);
    EXPECT_EQ(topo.links[path[1]].tx->GetDataRate(), r400);
    EXPECT_EQ(DynamicCast<PfcChannel>(topo.links[path[1]].tx->GetChannel())->GetDelay(),
              NanoSeconds(2000));
    EXPECT_EQ(DynamicCast<PfcChannel>(topo.links[path[2]].tx->GetChannel())->GetDelay(),
              NanoSeconds(500));
    EXPECT_EQ(topo.switches[1].tier, 0u);
    Simulator::Destroy();

    EXPECT_NE(helper.CheckGraph(5, {0, 3}, {{1, 1, r100, Time(0)}}), "");
    EXPECT_NE(helper.CheckGraph(5, {0, 3}, {{1, 2, r100, Time(0)}}), "");
    auto twice = cables;
    twice.push_back({3, 0, r100, Time(0)});
    EXPECT_NE(helper.CheckGraph(5, {0, 3}, twice).find("second cable"), std::string::npos);
    auto lonely = cables;
    lonely.pop_back();
    lonely[2] = {4, 3, r100, Time(0)};
    lonely.erase(lonely.begin());
    EXPECT_NE(helper.CheckGraph(5, {0, 3}, lonely).find("host 1 has no cable"), std::string::npos);
    EXPECT_THROW(helper.BuildGraph(5, {0, 9}, cables), std::invalid_argument);
}

// Where the files' keys came from, for a problem found when the fabric is
// built: BUFFER_SIZE by its line, else the topology file (the default
// buffer); a key the scenario gives itself has no origin in the files.
TEST(HpccImport, KeysRememberTheirLine)
{
    HpccFiles files("origins", kStar, "CC_MODE 1\nBUFFER_SIZE 2\n");
    std::vector<std::string> warnings;
    std::map<std::string, std::pair<std::string, std::string>> origins;
    const auto scenario = nlohmann::json{{"hpcc", {{"config", "config.txt"}}}};
    ExpandHpccImport(scenario, files.dir.string(), warnings, &origins);
    ASSERT_EQ(origins.count("topology.buffer_mb"), 1u);
    EXPECT_EQ(origins["topology.buffer_mb"].first, "hpcc.config");
    EXPECT_EQ(origins["topology.buffer_mb"].second,
              (files.dir / "config.txt").string() +
                  " line 4: BUFFER_SIZE 2 (MiB) on the topology, whose longest link is " +
                  (files.dir / "topology.txt").string() + " line 3 (1 us)");
    EXPECT_EQ(origins["topology"].first, "hpcc.topology");

    std::ofstream(files.dir / "config.txt") << "TOPOLOGY_FILE topology.txt\nFLOW_FILE flow.txt\n";
    origins.clear();
    ExpandHpccImport(scenario, files.dir.string(), warnings, &origins);
    EXPECT_EQ(origins["topology.buffer_mb"].first, "hpcc.topology");

    auto own = scenario;
    own["topology"] = {{"buffer_mb", 4}};
    origins.clear();
    ExpandHpccImport(own, files.dir.string(), warnings, &origins);
    EXPECT_EQ(origins.count("topology.buffer_mb"), 0u);
}

// A link delay needs its unit (ns-3 would read a bare number as seconds;
// 0 alone is 0) and at most 1 s: the topology file's line is named.
TEST(HpccImport, DelaysNeedAUnitAndAtMostOneSecond)
{
    std::vector<std::string> warnings;
    const auto scenario = nlohmann::json{{"hpcc", {{"config", "config.txt"}}}};
    for (const auto& [delay, problem] : std::vector<std::pair<std::string, std::string>>{
             {"5", "line 4: delay 5 has no unit (ns-3 would read 5 s); write one, e.g. 0.001ms"},
             {"1000s", "line 4: delay 1000s out of range (0 .. 1s)"},
             {"1.5s", "line 4: delay 1.5s out of range (0 .. 1s)"}})
    {
        std::string topology = kStar;
        topology.replace(topology.rfind("1us"), 3, delay);
        HpccFiles files("delay", topology, "");
        try
        {
            ExpandHpccImport(scenario, files.dir.string(), warnings);
            ADD_FAILURE() << delay << " accepted";
        }
        catch (const ScenarioError& e)
        {
            EXPECT_EQ(e.GetField(), "hpcc.topology");
            EXPECT_EQ(e.GetProblem(), (files.dir / "topology.txt").string() + " " + problem);
        }
    }
    for (const std::string delay : {"0", "1s", "0.001ms"})
    {
        std::string topology = kStar;
        topology.replace(topology.rfind("1us"), 3, delay);
        HpccFiles files("delay-ok", topology, "");
        EXPECT_NO_THROW(ExpandHpccImport(scenario, files.dir.string(), warnings)) << delay;
    }
}

// The topology file is the topology: a scenario with "hpcc" that gives a
// topology kind or a "links" topology's own keys is refused naming that
// key; its other topology keys apply on top.
TEST(HpccImport, TheImportGivesTheTopology)
{
    HpccFiles files("topology", kStar, "");
    std::vector<std::string> warnings;
    for (const char* key : {"kind", "nodes", "switch_nodes", "links"})
    {
        nlohmann::json scenario{{"hpcc", {{"config", "config.txt"}}}};
        scenario["topology"][key] =
            key == std::string("kind") ? nlohmann::json("leaf-spine") : nlohmann::json(2);
        try
        {
            ExpandHpccImport(scenario, files.dir.string(), warnings);
            ADD_FAILURE() << key << " accepted";
        }
        catch (const ScenarioError& e)
        {
            EXPECT_EQ(e.GetField(), std::string("topology.") + key);
            EXPECT_EQ(e.GetProblem().rfind("the HPCC import gives the topology (" +
                                               (files.dir / "topology.txt").string() +
                                               ", a \"links\" topology)",
                                           0),
                      0u)
                << e.GetProblem();
        }
    }
    const nlohmann::json scenario{{"hpcc", {{"config", "config.txt"}}},
                                  {"topology", {{"buffer_mb", 4}}}};
    const auto out = ExpandHpccImport(scenario, files.dir.string(), warnings);
    EXPECT_EQ(out["topology"]["kind"], "links");
    EXPECT_EQ(out["topology"]["buffer_mb"], 4);
}
