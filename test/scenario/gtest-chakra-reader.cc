/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The Chakra execution-trace reader: the public microbenchmark traces read
// as the files say, a hand-made trace of every node kind comes out in
// dependency order with its groups and peers, gzip is read like the plain
// file, and every kind of bad trace is one ScenarioError naming the file
// and the node.

#include "../chakra-test-writer.h"
#include "expect-scenario-error.h"

#include "ns3/chakra-trace-reader.h"
#include "ns3/scenario-error.h"

#include <filesystem>
#include <functional>
#include <gtest/gtest.h>

using namespace ns3;
using namespace flux_test;
namespace fs = std::filesystem;

namespace
{

const std::string kData = FLUX_TEST_DATA_DIR "/workloads/chakra-microbenchmarks";

/// A fresh folder, removed at the end of the test.
class TraceDir
{
  public:
    TraceDir()
    {
        m_path =
            fs::temp_directory_path() /
            ("flux-chakra-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }

    ~TraceDir()
    {
        fs::remove_all(m_path);
    }

    /// The prefix of trace "t" in the folder.
    std::string Prefix() const
    {
        return (m_path / "t").string();
    }

    /// Write rank r's file from nodes.
    void Rank(uint32_t r, const std::vector<EtNode>& nodes) const
    {
        WriteFile(Prefix() + "." + std::to_string(r) + ".et", EncodeRankFile(nodes));
    }

    /// Write a file in the folder.
    std::string File(const std::string& name, const std::string& text) const
    {
        const std::string path = (m_path / name).string();
        WriteFile(path, text);
        return path;
    }

  private:
    fs::path m_path; //!< the folder
};

EtNode
Coll(uint64_t id, int type, int64_t bytes, const std::string& pg = "")
{
    EtNode n;
    n.id = id;
    n.name = "coll" + std::to_string(id);
    n.type = ET_COLL;
    n.ints = {{"comm_type", type}, {"comm_size", bytes}};
    if (!pg.empty())
    {
        n.strings = {{"pg_name", pg}};
    }
    return n;
}

EtNode
Comp(uint64_t id, uint64_t micros, std::vector<uint64_t> deps = {})
{
    EtNode n;
    n.id = id;
    n.name = "comp" + std::to_string(id);
    n.type = ET_COMP;
    n.durationMicros = micros;
    n.dataDeps = std::move(deps);
    return n;
}

EtNode
P2p(uint64_t id, bool send, int64_t peer, int64_t bytes, int64_t tag)
{
    EtNode n;
    n.id = id;
    n.type = send ? ET_SEND : ET_RECV;
    n.ints = {{send ? "comm_dst" : "comm_src", peer}, {"comm_size", bytes}, {"comm_tag", tag}};
    return n;
}

} // namespace

// Each public microbenchmark rank holds exactly one collective of its
// folder's type and 1 MB, over all ranks (no communication-group file).
TEST(ChakraReader, MicrobenchmarksHoldOneCollectiveEach)
{
    const std::vector<std::pair<std::string, CollectiveType>> kinds{
        {"all_reduce", CollectiveType::ALL_REDUCE},
        {"all_gather", CollectiveType::ALL_GATHER},
        {"reduce_scatter", CollectiveType::REDUCE_SCATTER},
        {"all_to_all", CollectiveType::ALL_TO_ALL}};
    for (const auto& [name, type] : kinds)
    {
        for (uint32_t n : {4, 8, 16})
        {
            const std::string prefix =
                kData + "/" + name + "/" + std::to_string(n) + "npus_1MB/" + name;
            const WorkloadTrace t = ReadChakraTrace(prefix);
            EXPECT_EQ(t.source, prefix);
            ASSERT_EQ(t.ranks, n) << prefix;
            ASSERT_EQ(t.groups.size(), 1U);
            ASSERT_EQ(t.groups[0].size(), n);
            for (uint32_t r = 0; r < n; ++r)
            {
                EXPECT_EQ(t.groups[0][r], r);
                ASSERT_EQ(t.nodes[r].size(), 1U) << prefix << " rank " << r;
                const WorkloadNode& node = t.nodes[r][0];
                EXPECT_EQ(node.kind, WorkloadNode::Kind::COLLECTIVE);
                EXPECT_EQ(node.collective, type);
                EXPECT_EQ(node.bytes, 1048576U);
                EXPECT_EQ(node.group, 0U);
                EXPECT_TRUE(node.deps.empty());
                EXPECT_EQ(node.name, name + "_" + std::to_string(n) + "npus_1MB");
            }
        }
    }
}

// A gzip-compressed trace reads as the plain one, whether named .et.gz or
// recognised by content under the plain name.
TEST(ChakraReader, GzipReadsLikeThePlainFile)
{
    TraceDir dir;
    const std::string src = kData + "/all_gather/8npus_1MB/all_gather.";
    for (uint32_t r = 0; r < 8; ++r)
    {
        const std::string bytes = Gzip(ReadFile(src + std::to_string(r) + ".et"));
        ASSERT_EQ(bytes.substr(0, 2), "\x1f\x8b");
        WriteFile(dir.Prefix() + "." + std::to_string(r) + (r % 2 ? ".et.gz" : ".et"), bytes);
    }
    const WorkloadTrace plain = ReadChakraTrace(kData + "/all_gather/8npus_1MB/all_gather");
    const WorkloadTrace gz = ReadChakraTrace(dir.Prefix());
    ASSERT_EQ(gz.ranks, 8U);
    for (uint32_t r = 0; r < 8; ++r)
    {
        ASSERT_EQ(gz.nodes[r].size(), 1U);
        EXPECT_EQ(gz.nodes[r][0].collective, plain.nodes[r][0].collective);
        EXPECT_EQ(gz.nodes[r][0].bytes, plain.nodes[r][0].bytes);
        EXPECT_EQ(gz.nodes[r][0].id, plain.nodes[r][0].id);
    }
    // A gzip file cut short is corrupt, not a shorter trace.
    const std::string whole = Gzip(EncodeRankFile({Comp(1, 5), Comp(2, 5, {1})}));
    WriteFile(dir.Prefix() + ".1.et.gz", whole.substr(0, whole.size() - 12));
    ExpectScenarioError([&] { ReadChakraTrace(dir.Prefix()); }, {dir.Prefix() + ".1.et.gz"});
}

// Every node kind maps as documented, deps (data and control) become
// indices, a file listing a node before its dependency comes out in
// dependency order, groups come from the group file by pg_name (all ranks
// without one), and a receive without a size takes its send's.
TEST(ChakraReader, NodeKindsDependenciesGroupsAndPeers)
{
    TraceDir dir;
    EtNode meta;
    meta.id = 9;
    meta.type = ET_METADATA;
    meta.durationMicros = 77;
    EtNode load;
    load.id = 4;
    load.type = ET_MEM_LOAD;
    load.durationMicros = 3;
    load.ctrlDeps = {9};
    // rank 0: comp 1 <- coll 2 (group "tp") <- send 3; the file lists 2 first
    EtNode coll0 = Coll(2, ET_ALL_REDUCE, 4096, "tp");
    coll0.dataDeps = {1};
    EtNode send = P2p(3, true, 1, 500, 7);
    send.dataDeps = {2, 1, 2};
    dir.Rank(0, {coll0, Comp(1, 12), send, meta, load, Coll(5, ET_ALL_TO_ALL, 64)});
    EtNode recv = P2p(3, false, 0, 0, 7);
    recv.ints.erase(recv.ints.begin() + 1); // no comm_size
    EtNode coll1 = Coll(2, ET_ALL_REDUCE, 4096, "tp");
    EtNode a2a = Coll(5, ET_ALL_TO_ALL, 64);
    a2a.dataDeps = {3};
    dir.Rank(1, {coll1, recv, a2a});
    dir.Rank(2, {Coll(5, ET_ALL_TO_ALL, 64)});
    const std::string groups = dir.File("groups.json", R"({"tp": [1, 0], "other": [2]})");

    const WorkloadTrace t = ReadChakraTrace(dir.Prefix(), groups);
    ASSERT_EQ(t.ranks, 3U);
    ASSERT_EQ(t.groups.size(), 2U);
    ASSERT_EQ(t.nodes[0].size(), 6U);
    const auto& n0 = t.nodes[0];
    // comp 1 moved before the collective that depends on it
    EXPECT_EQ(n0[0].id, 1U);
    EXPECT_EQ(n0[0].kind, WorkloadNode::Kind::COMPUTE);
    EXPECT_EQ(n0[0].durationNs, 12000U);
    EXPECT_EQ(n0[1].id, 2U);
    EXPECT_EQ(n0[1].kind, WorkloadNode::Kind::COLLECTIVE);
    EXPECT_EQ(n0[1].deps, std::vector<uint32_t>({0}));
    EXPECT_EQ(t.groups[n0[1].group], std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(n0[2].id, 3U);
    EXPECT_EQ(n0[2].kind, WorkloadNode::Kind::SEND);
    EXPECT_EQ(n0[2].peer, 1U);
    EXPECT_EQ(n0[2].tag, 7U);
    EXPECT_EQ(n0[2].bytes, 500U);
    EXPECT_EQ(n0[2].deps, std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(n0[3].id, 9U); // metadata: no time, keeps the order
    EXPECT_EQ(n0[3].kind, WorkloadNode::Kind::COMPUTE);
    EXPECT_EQ(n0[3].durationNs, 0U);
    EXPECT_EQ(n0[4].kind, WorkloadNode::Kind::MEMORY);
    EXPECT_EQ(n0[4].durationNs, 3000U);
    EXPECT_EQ(n0[4].deps, std::vector<uint32_t>({3}));
    EXPECT_EQ(t.groups[n0[5].group], std::vector<uint32_t>({0, 1, 2}));
    EXPECT_EQ(n0[5].collective, CollectiveType::ALL_TO_ALL);
    const auto& n1 = t.nodes[1];
    EXPECT_EQ(n1[1].kind, WorkloadNode::Kind::RECV);
    EXPECT_EQ(n1[1].peer, 0U);
    EXPECT_EQ(n1[1].bytes, 500U); // from the send
    EXPECT_EQ(n1[2].deps, std::vector<uint32_t>({1}));
    // every rank's deps point backwards
    for (const auto& nodes : t.nodes)
    {
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            for (uint32_t d : nodes[i].deps)
            {
                EXPECT_LT(d, i);
            }
        }
    }
}

// Each bad trace gives one ScenarioError naming the file and, where a node
// is at fault, its id.
TEST(ChakraReader, BadTracesNameTheFileAndNode)
{
    TraceDir dir;
    const std::string p = dir.Prefix();
    const auto read = [&p] { ReadChakraTrace(p); };
    const std::string f0 = p + ".0.et";
    const std::string f1 = p + ".1.et";
    const auto two = [&](const std::vector<EtNode>& a, const std::vector<EtNode>& b) {
        dir.Rank(0, a);
        dir.Rank(1, b);
    };
    ExpectScenarioError(read, {p, "no trace files"});
    // a missing rank file
    dir.Rank(0, {Comp(1, 1)});
    dir.Rank(2, {Comp(1, 1)});
    ExpectScenarioError(read, {p + ".1.et", "missing"});
    fs::remove(p + ".2.et");
    // empty, truncated, bad length prefix, absurd length
    dir.Rank(1, {Comp(1, 1)});
    WriteFile(f1, "");
    ExpectScenarioError(read, {f1, "empty"});
    const std::string good = EncodeRankFile({Comp(1, 1), Comp(2, 1, {1})});
    WriteFile(f1, good.substr(0, good.size() - 1));
    ExpectScenarioError(read, {f1, "truncated", "message 3"});
    WriteFile(f1, good + std::string(6, '\xff'));
    ExpectScenarioError(read, {f1, "length prefix"});
    std::string huge = good;
    PutVarint(huge, 1U << 30);
    WriteFile(f1, huge);
    ExpectScenarioError(read, {f1, "more than"});
    // a length of 32 bits or more is refused as it is, not read modulo 2^32 (as 0)
    for (uint64_t length : {uint64_t(1) << 32, uint64_t(1) << 40, ~uint64_t(0)})
    {
        std::string wide = good;
        PutVarint(wide, length);
        WriteFile(f1, wide + good);
        ExpectScenarioError(
            read,
            {f1, "length prefix of message 4", std::to_string(length), "more than"});
    }
    std::string garbage = good;
    PutVarint(garbage, 3);
    garbage += "\x0f\x0f\x0f"; // wire type 7 does not exist
    WriteFile(f1, garbage);
    ExpectScenarioError(read, {f1, "malformed"});
    // a name that is not UTF-8 (proto3 strings must be): one error, and
    // nothing on stderr besides (Protobuf would log the reason)
    EtNode latin1 = Comp(1, 1);
    latin1.name = "caf\xe9";
    two({Comp(1, 1)}, {latin1});
    ::testing::internal::CaptureStderr();
    ExpectScenarioError(read, {f1, "malformed", "message 2"});
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    // unknown node type, INVALID_NODE, unknown and unsupported collectives
    EtNode odd = Comp(5, 1);
    odd.type = 99;
    two({Comp(1, 1)}, {odd});
    ExpectScenarioError(read, {f1 + " node 5", "unknown node type 99"});
    odd.type = 0;
    two({Comp(1, 1)}, {odd});
    ExpectScenarioError(read, {f1 + " node 5", "unknown node type 0"});
    two({Coll(3, 42, 8)}, {Coll(3, 42, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "comm_type 42"});
    two({Coll(3, ET_REDUCE, 8)}, {Coll(3, ET_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "REDUCE"});
    EtNode nosize = Coll(3, ET_ALL_REDUCE, 8);
    nosize.ints.pop_back();
    two({nosize}, {nosize});
    ExpectScenarioError(read, {f0 + " node 3", "no comm_size"});
    // an attribute flux reads, given twice: which value holds would be a guess
    EtNode twice = Coll(3, ET_ALL_REDUCE, 8);
    twice.ints.emplace_back("comm_size", 16);
    two({twice}, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "attribute comm_size is given twice"});
    twice = Coll(3, ET_ALL_REDUCE, 8);
    twice.strings = {{"pg_name", "0"}, {"pg_name", "1"}};
    two({twice}, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "attribute pg_name is given twice"});
    // sizes and durations out of range
    two({Coll(3, ET_ALL_REDUCE, -8)}, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "-8"});
    two({Coll(3, ET_ALL_REDUCE, int64_t(1) << 60)}, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 3", "out of range"});
    two({Comp(1, uint64_t(1) << 62)}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "duration_micros"});
    // duplicate id, missing dependency, cycle
    two({Comp(1, 1), Comp(1, 2)}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "second node"});
    two({Comp(1, 1), Comp(2, 1, {7})}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 2", "node 7"});
    two({Comp(1, 1), Comp(2, 1, {4}), Comp(3, 1, {2}), Comp(4, 1, {3})}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node ", "cycle", "3 nodes"});
    two({Comp(1, 1, {1})}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "cycle"});
    // collectives that disagree across ranks: type, bytes, count
    two({Coll(3, ET_ALL_REDUCE, 8)}, {Coll(3, ET_ALL_GATHER, 8)});
    ExpectScenarioError(read, {f1 + " node 3", "collective #1", "all-gather", "all-reduce"});
    two({Coll(3, ET_ALL_REDUCE, 8)}, {Coll(3, ET_ALL_REDUCE, 16)});
    ExpectScenarioError(read, {f1 + " node 3", "16 bytes", "8 bytes"});
    two({Coll(3, ET_ALL_REDUCE, 8), Coll(4, ET_ALL_GATHER, 8)}, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError(read, {f0 + " node 4", "collective #2", "no counterpart on rank 1"});
    // send and receive that do not match
    two({P2p(1, true, 1, 100, 0)}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "no matching receive"});
    two({Comp(1, 1)}, {P2p(1, false, 0, 100, 0)});
    ExpectScenarioError(read, {f1 + " node 1", "no matching send"});
    two({P2p(1, true, 1, 100, 0)}, {P2p(1, false, 0, 100, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "no matching receive"});
    two({P2p(1, true, 1, 100, 0)}, {P2p(1, false, 0, 99, 0)});
    ExpectScenarioError(read, {f1 + " node 1", "99 bytes"});
    two({P2p(1, true, 5, 100, 0)}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "comm_dst 5"});
    two({P2p(1, true, 0, 100, 0)}, {Comp(1, 1)});
    ExpectScenarioError(read, {f0 + " node 1", "comm_dst 0"});
}

// The communication-group file: bad groups name the file and group; a
// collective naming a group it is not in, or one the file lacks, names the
// node.
TEST(ChakraReader, BadCommunicationGroups)
{
    TraceDir dir;
    const std::string p = dir.Prefix();
    dir.Rank(0, {Coll(3, ET_ALL_REDUCE, 8, "a")});
    dir.Rank(1, {Coll(3, ET_ALL_REDUCE, 8, "a")});
    const auto readWith = [&](const std::string& json) {
        const std::string file = dir.File("g.json", json);
        return [&p, file] { ReadChakraTrace(p, file); };
    };
    ExpectScenarioError(readWith(R"({"a": [0, 2]})"), {"g.json", "group \"a\"", "names rank 2"});
    ExpectScenarioError(readWith(R"({"a": [0, 1, 1]})"), {"g.json", "group \"a\"", "has 3 ranks"});
    ExpectScenarioError(readWith(R"({"a": [0, 0]})"), {"g.json", "group \"a\"", "twice"});
    ExpectScenarioError(readWith(R"({"a": []})"), {"g.json", "non-empty"});
    ExpectScenarioError(readWith(R"({"a": [0, -1]})"), {"g.json", "-1"});
    ExpectScenarioError(readWith(R"([0, 1])"), {"g.json", "object"});
    ExpectScenarioError(readWith(R"({"a": [0, 1)"), {"g.json"});
    ExpectScenarioError([&] { ReadChakraTrace(p, dir.File("x", "") + ".missing"); }, {"x.missing"});
    ExpectScenarioError(readWith(R"({"b": [0, 1]})"), {p + ".0.et node 3", "pg_name \"a\""});
    ExpectScenarioError(readWith(R"({"a": [1]})"), {p + ".0.et node 3", "not a member"});
    // without a group file the same trace runs over all ranks
    const WorkloadTrace t = ReadChakraTrace(p);
    ASSERT_EQ(t.groups.size(), 1U);
    EXPECT_EQ(t.groups[0], std::vector<uint32_t>({0, 1}));
}

// A uint64 attribute beyond int64's range keeps its value: a message names
// it as written, a pg_name matches the group file's key for it.
TEST(ChakraReader, Uint64AttributesKeepTheirValue)
{
    TraceDir dir;
    const std::string p = dir.Prefix();
    const uint64_t max = ~uint64_t(0);
    EtNode huge = Coll(3, ET_ALL_REDUCE, 8);
    huge.ints.pop_back();
    huge.uints = {{"comm_size", max}};
    dir.Rank(0, {huge});
    dir.Rank(1, {Coll(3, ET_ALL_REDUCE, 8)});
    ExpectScenarioError([&] { ReadChakraTrace(p); },
                        {p + ".0.et node 3", "comm_size 18446744073709551615 is out of range"});
    EtNode named = Coll(3, ET_ALL_REDUCE, 8);
    named.uints = {{"pg_name", max}};
    dir.Rank(0, {named});
    dir.Rank(1, {named});
    const std::string groups = dir.File("g.json", R"({"18446744073709551615": [0, 1]})");
    const WorkloadTrace t = ReadChakraTrace(p, groups);
    ASSERT_EQ(t.groups.size(), 1U);
    EXPECT_EQ(t.groups[0], std::vector<uint32_t>({0, 1}));
}

// Only regular files are opened, rank files and the group file alike: a
// device (/dev/zero never ends, /dev/null is empty) or a folder is
// refused by name.
TEST(ChakraReader, OnlyRegularFilesAreRead)
{
    TraceDir dir;
    const std::string p = dir.Prefix();
    const std::string folder = fs::path(p).parent_path().string();
    dir.Rank(0, {Comp(1, 1)});
    dir.Rank(1, {Comp(1, 1)});
    ExpectScenarioError([&] { ReadChakraTrace(p, "/dev/null"); },
                        {"/dev/null: is a character device, not a regular file"});
    ExpectScenarioError([&] { ReadChakraTrace(p, folder); },
                        {folder + ": is a folder, not a communication-group file"});
    const std::string f1 = p + ".1.et";
    fs::remove(f1);
    fs::create_symlink("/dev/zero", f1);
    ExpectScenarioError([&] { ReadChakraTrace(p); },
                        {f1 + ": is a character device, not a regular file"});
    fs::remove(f1);
    fs::create_directory(f1);
    ExpectScenarioError([&] { ReadChakraTrace(p); },
                        {f1 + ": is a folder, not a Chakra trace file"});
}
