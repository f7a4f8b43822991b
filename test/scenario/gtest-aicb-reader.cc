/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The AICB/SimAI workload reader: the public model files become iterations
// whose compute adds up to the files' columns, whose collectives run in the
// TP, DP and EP groups of the rank layout, with pipeline stages exchanging
// activations; every kind of bad file is one ScenarioError naming the file
// and line.

#include "expect-scenario-error.h"

#include "ns3/aicb-workload-reader.h"
#include "ns3/scenario-error.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
namespace fs = std::filesystem;

namespace
{

const std::string kData = FLUX_TEST_DATA_DIR "/workloads/aicb";
const std::string kLlama7bTp2 =
    kData + "/model_workload/L7B-M1-C04_Llama7B_megatron_tp2_pp1_mbs1_A100.txt";

/// A file in a fresh temporary folder.
class AicbFile
{
  public:
    explicit AicbFile(const std::string& text)
    {
        m_path = (fs::temp_directory_path() /
                  ("flux-aicb-" +
                   std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                   "-" + std::to_string(s_count++) + ".txt"))
                     .string();
        std::ofstream(m_path) << text;
    }

    ~AicbFile()
    {
        fs::remove(m_path);
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;            //!< the file
    static inline int s_count = 0; //!< files made so far
};

/// The sum of the rank's COMPUTE nodes whose name ends with one of the suffixes.
uint64_t
ComputeNs(const std::vector<WorkloadNode>& nodes, const std::vector<std::string>& suffixes)
{
    uint64_t sum = 0;
    for (const auto& n : nodes)
    {
        for (const auto& s : suffixes)
        {
            if (n.kind == WorkloadNode::Kind::COMPUTE && n.name.size() >= s.size() &&
                n.name.compare(n.name.size() - s.size(), s.size(), s) == 0)
            {
                sum += n.durationNs;
            }
        }
    }
    return sum;
}

/// The file's layer lines as columns.
std::vector<std::vector<std::string>>
Rows(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::vector<std::vector<std::string>> rows;
    for (int k = 0; std::getline(in, line); ++k)
    {
        std::istringstream s(line);
        std::vector<std::string> w;
        std::string x;
        while (s >> x)
        {
            w.push_back(x);
        }
        if (k >= 2 && !w.empty())
        {
            rows.push_back(w);
        }
    }
    return rows;
}

} // namespace

// Llama-7B, Megatron TP 2, on 4 ranks (DP 2): every rank's compute is the
// file's three compute columns summed, exactly; its update time follows
// each weight-gradient collective; collectives run in the TP pairs {0,1},
// {2,3} and DP pairs {0,2}, {1,3}, with the bytes of their column.
TEST(AicbReader, Llama7bComputeAndGroupsAsTheFileSays)
{
    const auto rows = Rows(kLlama7bTp2);
    ASSERT_EQ(rows.size(), 76U);
    uint64_t fwd = 0;
    uint64_t ig = 0;
    uint64_t wg = 0;
    uint64_t update = 0;
    uint32_t tpColls = 0;
    uint32_t dpColls = 0;
    for (const auto& w : rows)
    {
        fwd += std::stoull(w[2]);
        ig += std::stoull(w[5]);
        wg += std::stoull(w[8]);
        tpColls += (w[3] != "NONE") + (w[6] != "NONE");
        if (w[9] != "NONE")
        {
            ++dpColls;
            update += std::stoull(w[11]);
        }
    }
    AicbOptions options;
    options.ranks = 4;
    const WorkloadTrace t = ReadAicbWorkload(kLlama7bTp2, options);
    ASSERT_EQ(t.ranks, 4U);
    ASSERT_EQ(t.groups.size(), 4U);
    for (uint32_t r = 0; r < 4; ++r)
    {
        const auto& nodes = t.nodes[r];
        EXPECT_EQ(ComputeNs(nodes, {":fwd"}), fwd);
        EXPECT_EQ(ComputeNs(nodes, {":ig"}), ig);
        EXPECT_EQ(ComputeNs(nodes, {":wg"}), wg);
        EXPECT_EQ(ComputeNs(nodes, {":fwd", ":ig", ":wg"}), 2 * 76 * 0 + fwd + ig + wg);
        EXPECT_EQ(ComputeNs(nodes, {":update"}), update);
        uint32_t tp = 0;
        uint32_t dp = 0;
        for (const auto& n : nodes)
        {
            if (n.kind != WorkloadNode::Kind::COLLECTIVE)
            {
                continue;
            }
            const auto& g = t.groups[n.group];
            ASSERT_EQ(g.size(), 2U);
            if (g[1] == g[0] + 1)
            {
                ++tp;
                EXPECT_EQ(g[0], r / 2 * 2);
            }
            else
            {
                ++dp;
                EXPECT_EQ(g, std::vector<uint32_t>({r % 2, r % 2 + 2}));
            }
        }
        EXPECT_EQ(tp, tpColls);
        EXPECT_EQ(dp, dpColls);
        EXPECT_EQ(nodes.size(), 3 * 76 + tpColls + 2 * dpColls);
    }
    // The first layer: norm's forward compute (0 ns), then its broadcast.
    const auto& n0 = t.nodes[0];
    EXPECT_EQ(n0[0].name, "norm:fwd");
    EXPECT_EQ(n0[0].durationNs, 0U);
    EXPECT_EQ(n0[1].kind, WorkloadNode::Kind::COLLECTIVE);
    EXPECT_EQ(n0[1].collective, CollectiveType::BROADCAST);
    EXPECT_EQ(n0[1].bytes, 16384U);
    EXPECT_EQ(n0[1].deps, std::vector<uint32_t>({0}));
    EXPECT_EQ(n0[2].deps, std::vector<uint32_t>({1}));
}

// The order of an iteration: the forward pass waits for each forward
// collective, the backward pass for each input-gradient collective but not
// for weight-gradient ones; the update waits for its collective.
TEST(AicbReader, BackwardDoesNotWaitForWeightGradients)
{
    AicbFile f("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus: 4\n2\n"
               "a -1 10 ALLREDUCE 100 20 ALLREDUCE 200 30 ALLREDUCE 300 5\n"
               "b -1 11 NONE 0 21 ALLGATHER 210 31 REDUCESCATTER 310 6\n");
    const WorkloadTrace t = ReadAicbWorkload(f.Path());
    const auto& n = t.nodes[3];
    std::vector<std::string> names;
    for (const auto& x : n)
    {
        names.push_back(x.name);
    }
    const std::vector<std::string> expected{"a:fwd",
                                            "a:fwd-comm",
                                            "b:fwd",
                                            "b:ig",
                                            "b:ig-comm",
                                            "b:wg",
                                            "b:wg-comm",
                                            "b:update",
                                            "a:ig",
                                            "a:ig-comm",
                                            "a:wg",
                                            "a:wg-comm",
                                            "a:update"};
    ASSERT_EQ(names, expected);
    EXPECT_EQ(n[2].deps, std::vector<uint32_t>({1})); // b:fwd after a's collective
    EXPECT_EQ(n[3].deps, std::vector<uint32_t>({2})); // b:ig after b:fwd (no collective)
    EXPECT_EQ(n[6].deps, std::vector<uint32_t>({5})); // b:wg-comm after b:wg
    EXPECT_EQ(n[7].deps, std::vector<uint32_t>({6})); // b:update after its collective
    EXPECT_EQ(n[8].deps, std::vector<uint32_t>({5})); // a:ig after b:wg, not its collective
    EXPECT_EQ(t.groups[n[6].group], std::vector<uint32_t>({1, 3}));
    EXPECT_EQ(n[6].collective, CollectiveType::REDUCE_SCATTER);
    EXPECT_EQ(n[6].bytes, 310U);
    EXPECT_EQ(n[7].durationNs, 6U);
}

// SimAI's micro tests: all-reduce sweep over all ranks (DP), and the TP 8
// variant whose weight-gradient collectives run across the TP groups.
TEST(AicbReader, MicroTests)
{
    AicbOptions options;
    options.ranks = 8;
    const WorkloadTrace t = ReadAicbWorkload(kData + "/micro_test/all_reduce.txt", options);
    ASSERT_EQ(t.groups.size(), 1U);
    EXPECT_EQ(t.groups[0].size(), 8U);
    uint64_t bytes = 4096;
    uint32_t colls = 0;
    for (const auto& n : t.nodes[5])
    {
        if (n.kind == WorkloadNode::Kind::COLLECTIVE)
        {
            // backward runs from the last layer: sizes halve
            EXPECT_EQ(n.collective, CollectiveType::ALL_REDUCE);
            EXPECT_EQ(n.bytes, bytes << (18 - colls));
            ++colls;
        }
    }
    EXPECT_EQ(colls, 19U);
    options.ranks = 16;
    const WorkloadTrace m = ReadAicbWorkload(kData + "/micro_test/muti_all_reduce.txt", options);
    // TP 8 (no collectives of their own) and DP 2: {r, r + 8}
    for (const auto& g : m.groups)
    {
        if (g.size() == 2)
        {
            EXPECT_EQ(g[1], g[0] + 8);
        }
    }
}

// DeepSpeed ZeRO-3 on 8 ranks, TP 1: the input-gradient all-gathers of a
// one-rank TP group move nothing and are left out; the weight-gradient
// reduce-scatter runs over all 8.
TEST(AicbReader, OneRankGroupsAreLeftOut)
{
    AicbOptions options;
    options.ranks = 8;
    const WorkloadTrace t =
        ReadAicbWorkload(kData + "/model_workload/L7B-D1-C02_Llama7B_deepspeed_zero3_A100.txt",
                         options);
    ASSERT_EQ(t.groups.size(), 1U);
    uint32_t colls = 0;
    for (const auto& n : t.nodes[0])
    {
        colls += n.kind == WorkloadNode::Kind::COLLECTIVE;
    }
    EXPECT_EQ(colls, 1U);
    EXPECT_EQ(t.nodes[0].size(), 12U * 3 + 1 + 1);
}

// Pipeline stages exchange pp_comm bytes: activations forward, gradients
// backward, matched send to receive; expert groups: EP consecutive DP
// indices, expert-data groups the rest.
TEST(AicbReader, PipelineAndExpertGroups)
{
    AicbFile f("HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 2 pp: 2 vpp: 1 "
               "ga: 1 all_gpus: 16 checkpoints: 0 checkpoint_initiates: 0 pp_comm: 4096.0\n1\n"
               "moe -1 10 ALLTOALL_EP 100 20 ALLTOALL_EP 100 30 ALLREDUCE_DP_EP 300 5\n");
    const WorkloadTrace t = ReadAicbWorkload(f.Path());
    ASSERT_EQ(t.ranks, 16U);
    // rank 5: tp 1, stage 0, dp 1; its peer stage is rank 7
    const auto& n = t.nodes[5];
    ASSERT_EQ(n[0].name, "moe:fwd");
    bool sent = false;
    bool received = false;
    for (const auto& x : n)
    {
        if (x.kind == WorkloadNode::Kind::SEND)
        {
            EXPECT_EQ(x.peer, 7U);
            EXPECT_EQ(x.bytes, 4096U);
            sent = true;
        }
        if (x.kind == WorkloadNode::Kind::RECV)
        {
            EXPECT_EQ(x.peer, 7U);
            received = true;
        }
        if (x.kind == WorkloadNode::Kind::COLLECTIVE)
        {
            const auto& g = t.groups[x.group];
            if (x.collective == CollectiveType::ALL_TO_ALL)
            {
                EXPECT_EQ(g, std::vector<uint32_t>({1, 5})); // dp 0, 1
            }
            else
            {
                EXPECT_EQ(g, std::vector<uint32_t>({5, 13})); // dp 1, 3
            }
        }
    }
    EXPECT_TRUE(sent && received);
    // stage 1 (rank 7) starts with the activations' receive
    EXPECT_EQ(t.nodes[7][0].kind, WorkloadNode::Kind::RECV);
    EXPECT_EQ(t.nodes[7][1].deps, std::vector<uint32_t>({0}));
}

// Each bad file gives one ScenarioError naming the file and the line.
TEST(AicbReader, BadFilesNameTheFileAndLine)
{
    const std::string row = "a -1 10 ALLREDUCE 100 20 NONE 0 30 ALLREDUCE 300 5\n";
    const auto bad =
        [](const std::string& text, const std::vector<std::string>& pieces, uint32_t ranks = 4) {
            AicbFile f(text);
            std::vector<std::string> all{f.Path()};
            all.insert(all.end(), pieces.begin(), pieces.end());
            AicbOptions o;
            o.ranks = ranks;
            ExpectScenarioError([&] { ReadAicbWorkload(f.Path(), o); }, all);
        };
    const std::string head = "HYBRID_TRANSFORMER model_parallel_NPU_group: 2\n";
    bad(head + "1\na -1 10 ALLREDUCE 100 20 NONE 0 30 ALLREDUCE 300\n", {"line 3", "11 columns"});
    bad("PIPELINE model_parallel_NPU_group: 2\n1\n" + row, {"line 1", "PIPELINE"});
    bad(head + "1\na -1 10 ALLREDUCEX 100 20 NONE 0 30 ALLREDUCE 300 5\n",
        {"line 3", "ALLREDUCEX"});
    bad(head + "1\na -1 10 ALLREDUCE -100 20 NONE 0 30 ALLREDUCE 300 5\n", {"line 3", "negative"});
    bad(head + "1\na -1 -10 ALLREDUCE 100 20 NONE 0 30 ALLREDUCE 300 5\n", {"line 3", "negative"});
    bad(head + "1\na -1 1.5 ALLREDUCE 100 20 NONE 0 30 ALLREDUCE 300 5\n", {"line 3", "whole"});
    bad(head + "2\n" + row, {"line 2", "declares 2 layers", "lists 1"});
    bad(head + "1\n" + row + row, {"line 4", "beyond"});
    bad(head + "1\n" + row, {"line 1", "does not divide"}, 3);
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 ep: 4\n1\n" + row, {"line 1", "ep 4"});
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus: 8\n1\n" + row,
        {"line 1", "all_gpus is 8"});
    // no rank count at all: the job's ranks are required (the field "ranks")
    bad(head + "1\n" + row, {"ranks: required: ", "has no all_gpus"}, 0);
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group:\n1\n" + row, {"line 1", "no value"});
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group: 0\n1\n" + row, {"line 1", "is 0"});
    bad("HYBRID_TRANSFORMER tp 2\n1\n" + row, {"line 1", "\"tp\""});
    // an option twice: which value holds would be a guess (pp_comm with or
    // without its colon is one option)
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 model_parallel_NPU_group: 4\n1\n" + row,
        {"line 1", "option model_parallel_NPU_group: is given twice"});
    bad("HYBRID_TRANSFORMER model_parallel_NPU_group: 2 pp_comm 8 pp_comm: 8\n1\n" + row,
        {"line 1", "option pp_comm: is given twice"});
    bad(head + "x\n" + row, {"line 2", "layer count"});
    bad(head, {"line 2", "no layer count"});
    bad(head + "0\n", {"line 2", "declares no layers"});
    bad(head + "1\na -1 10 ALLREDUCE 1e3 20 NONE 0 30 ALLREDUCE 300 5\n", {"line 3", "1e3"});
    bad(head + "1\na -1 10 ALLREDUCE 99999999999999999999 20 NONE 0 30 ALLREDUCE 300 5\n",
        {"line 3", "larger than"});
    bad(std::string("HYBRID_TRANSFORMER\0 x\n1\n", 24) + row, {"line 1", "NUL"});
    ExpectScenarioError([] { ReadAicbWorkload("/nonexistent/w.txt"); },
                        {"/nonexistent/w.txt", "cannot be read"});
    ExpectScenarioError([] { ReadAicbWorkload(kData); }, {"is a folder"});
    // A public file whose line 2 announces 839 layers but lists 32.
    ExpectScenarioError(
        [] {
            ReadAicbWorkload(kData +
                             "/model_workload/L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt");
        },
        {"L65B-M1-C05", "line 2", "declares 839 layers, the file lists 33"});
}

// A UTF-8 byte-order mark before the parallelism kind is skipped: the
// file reads as without it (it was an unknown kind, shown invisibly).
TEST(AicbReader, ALeadingByteOrderMarkIsSkipped)
{
    const std::string text = "DATA all_gpus: 4\n1\na -1 10 NONE 0 20 NONE 0 30 ALLREDUCE 300 5\n";
    AicbFile plain(text);
    AicbFile bom("\xEF\xBB\xBF" + text);
    const WorkloadTrace a = ReadAicbWorkload(plain.Path());
    const WorkloadTrace b = ReadAicbWorkload(bom.Path());
    ASSERT_EQ(b.ranks, 4U);
    ASSERT_EQ(b.nodes[0].size(), a.nodes[0].size());
    EXPECT_EQ(b.nodes[0][0].durationNs, 10U);
    // only at the start of the file
    AicbFile late(std::string("DATA all_gpus: 4\n\xEF\xBB\xBF") + "1\n");
    ExpectScenarioError([&] { ReadAicbWorkload(late.Path()); }, {"line 2", "layer count"});
}

// The rank count goes to AicbOptions::checkRanks as soon as it is known,
// before any rank is built: a job too large for the topology is refused at
// once, not after all_gpus ranks (here 2^20) were expanded.
TEST(AicbReader, TheRankCountIsCheckedBeforeAnyRankIsBuilt)
{
    AicbFile f("DATA all_gpus: 1048576\n1\na -1 10 NONE 0 20 NONE 0 30 ALLREDUCE 300 5\n");
    AicbOptions o;
    o.maxNodes = 1; // (a check after the expansion's node count would refuse it too)
    uint64_t seen = 0;
    o.checkRanks = [&seen](uint64_t ranks) {
        seen = ranks;
        throw ScenarioError("ranks", "too many");
    };
    ExpectScenarioError([&] { ReadAicbWorkload(f.Path(), o); }, {"ranks: too many"});
    EXPECT_EQ(seen, 1048576U);
    // without the hook the same file reads, all its ranks built
    AicbFile small("DATA all_gpus: 4\n1\na -1 10 NONE 0 20 NONE 0 30 ALLREDUCE 300 5\n");
    o.maxNodes = 1 << 10;
    o.checkRanks = nullptr;
    EXPECT_EQ(ReadAicbWorkload(small.Path(), o).ranks, 4U);
}

// Only a regular file is opened: a device (read forever, or empty) or a
// FIFO (the open blocks) is refused by name, as a folder is.
TEST(AicbReader, OnlyARegularFileIsRead)
{
    ExpectScenarioError([] { ReadAicbWorkload("/dev/null"); },
                        {"/dev/null: is a character device, not a regular file"});
    ExpectScenarioError([] { ReadAicbWorkload(kData); },
                        {kData + ": is a folder, not an AICB workload file"});
}
