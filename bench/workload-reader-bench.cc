/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// How long the workload readers take to load a large trace. Writes a
// Chakra trace of --ranks ranks with --nodes nodes per rank (compute
// chains with a collective every tenth node and a second dependency on
// the node five back), and an AICB file of --layers layers for
// --aicbRanks ranks (TP 8), into a temporary folder, then loads each
// --runs times and prints the median load time in one `key=value` line
// per reader. --keep PREFIX writes the trace as PREFIX.<rank>.et and
// keeps it (bench/run-replay-overhead.sh replays it).

#include "../test/chakra-test-writer.h"

#include "ns3/aicb-workload-reader.h"
#include "ns3/chakra-trace-reader.h"
#include "ns3/command-line.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

using namespace ns3;
using namespace flux_test;
namespace fs = std::filesystem;

namespace
{

/// Median wall-clock seconds of \p runs calls of \p load; \p count gets the nodes read.
template <typename F>
double
MedianSeconds(uint32_t runs, F load, uint64_t& count)
{
    std::vector<double> s;
    for (uint32_t i = 0; i < runs; ++i)
    {
        const auto t0 = std::chrono::steady_clock::now();
        const WorkloadTrace t = load();
        s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        count = 0;
        for (const auto& n : t.nodes)
        {
            count += n.size();
        }
    }
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
}

} // namespace

int
main(int argc, char** argv)
{
    uint32_t ranks = 16;
    uint32_t nodes = 10000;
    uint32_t layers = 1000;
    uint32_t aicbRanks = 64;
    uint32_t runs = 5;
    uint32_t collBytes = 1 << 20;
    uint32_t computeMicros = 0;
    std::string keep;
    CommandLine cmd(__FILE__);
    cmd.AddValue("ranks", "Chakra trace: ranks", ranks);
    cmd.AddValue("nodes", "Chakra trace: nodes per rank", nodes);
    cmd.AddValue("layers", "AICB file: layers", layers);
    cmd.AddValue("aicbRanks", "AICB file: ranks (multiple of 8)", aicbRanks);
    cmd.AddValue("runs", "loads of each, the median is printed", runs);
    cmd.AddValue("collBytes", "Chakra trace: bytes of each all-reduce", collBytes);
    cmd.AddValue("computeMicros",
                 "Chakra trace: every compute node's duration (0: 10-16 us by turns)",
                 computeMicros);
    cmd.AddValue("keep", "write the Chakra trace as KEEP.<rank>.et and keep it", keep);
    cmd.Parse(argc, argv);
    // the sizes a run can have (a negative --nodes wraps to 4 billion)
    const auto bad = [](const std::string& option, const std::string& what) {
        std::cerr << "workload-reader-bench: --" << option << ": " << what << std::endl;
        return 2;
    };
    if (runs == 0 || runs > 1000)
    {
        return bad("runs", "from 1 to 1000");
    }
    if (ranks == 0 || ranks > 4096 || nodes < 1 || nodes > 1000000)
    {
        return bad(ranks == 0 || ranks > 4096 ? "ranks" : "nodes",
                   "ranks from 1 to 4096, nodes from 1 to 1000000");
    }
    if (aicbRanks == 0 || aicbRanks % 8 != 0 || aicbRanks > 65536 || layers > 1000000)
    {
        return bad(layers > 1000000 ? "layers" : "aicbRanks",
                   "aicbRanks a multiple of 8 up to 65536, layers at most 1000000");
    }

    const fs::path dir =
        fs::temp_directory_path() / ("flux-reader-bench-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string prefix = keep.empty() ? (dir / "trace").string() : keep;
    uint64_t bytes = 0;
    for (uint32_t r = 0; r < ranks; ++r)
    {
        std::vector<EtNode> list(nodes);
        for (uint32_t i = 0; i < nodes; ++i)
        {
            EtNode& n = list[i];
            n.id = i + 1;
            n.name = "op" + std::to_string(i);
            if (i % 10 == 9)
            {
                n.type = ET_COLL;
                n.ints = {{"comm_type", ET_ALL_REDUCE}, {"comm_size", collBytes}};
            }
            else
            {
                n.type = ET_COMP;
                n.durationMicros = computeMicros > 0 ? computeMicros : 10 + i % 7;
            }
            if (i > 0)
            {
                n.dataDeps.push_back(i);
            }
            if (i > 5)
            {
                n.ctrlDeps.push_back(i - 5);
            }
        }
        const std::string file = EncodeRankFile(list);
        bytes += file.size();
        WriteFile(prefix + "." + std::to_string(r) + ".et", file);
    }
    const std::string aicb = (dir / "model.txt").string();
    {
        std::ofstream out(aicb);
        out << "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 8 all_gpus: " << aicbRanks
            << "\n"
            << layers << "\n";
        for (uint32_t i = 0; i < layers; ++i)
        {
            out << "layer" << i
                << "\t-1\t539986\tALLREDUCE\t16777216\t592000\tALLREDUCE\t16777216\t"
                << "592000\tREDUCESCATTER\t4096\t100\n";
        }
    }
    uint64_t count = 0;
    try
    {
        const double chakra = MedianSeconds(
            runs,
            [&] { return ReadChakraTrace(prefix); },
            count);
        std::cout << "reader=chakra ranks=" << ranks << " nodes_per_rank=" << nodes
                  << " nodes=" << count << " file_bytes=" << bytes << " median_s=" << chakra
                  << " nodes_per_s=" << count / chakra << std::endl;
        const double aicbSeconds = MedianSeconds(
            runs,
            [&] { return ReadAicbWorkload(aicb); },
            count);
        std::cout << "reader=aicb ranks=" << aicbRanks << " layers=" << layers << " nodes=" << count
                  << " median_s=" << aicbSeconds << " nodes_per_s=" << count / aicbSeconds
                  << std::endl;
    }
    catch (const std::exception& e)
    {
        std::cerr << "workload-reader-bench: " << e.what() << std::endl;
        fs::remove_all(dir);
        return 1;
    }
    fs::remove_all(dir);
    return 0;
}
