/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target of the AICB/SimAI workload reader (built and run by
// scripts/fuzz-readers.sh). An input is byte 0, the job's rank count given
// to the reader (0: the file's all_gpus), then the file's text. Reading must
// return a workload or throw ScenarioError; anything else is a finding.

#include "ns3/aicb-workload-reader.h"
#include "ns3/scenario-error.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string file =
        (fs::temp_directory_path() / ("flux-fuzz-aicb-" + std::to_string(getpid()) + ".txt"))
            .string();
    if (size < 1)
    {
        return 0;
    }
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
    ns3::AicbOptions options;
    options.ranks = data[0];
    options.maxNodes = 1 << 14; // small traces: many inputs a second
    try
    {
        const ns3::WorkloadTrace t = ns3::ReadAicbWorkload(file, options);
        for (const auto& nodes : t.nodes)
        {
            for (uint32_t i = 0; i < nodes.size(); ++i)
            {
                for (uint32_t d : nodes[i].deps)
                {
                    if (d >= i)
                    {
                        __builtin_trap();
                    }
                }
            }
        }
    }
    catch (const ns3::ScenarioError&)
    {
    }
    return 0;
}
