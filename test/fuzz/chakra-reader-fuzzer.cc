/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libFuzzer target of the Chakra trace reader (built and run by
// scripts/fuzz-readers.sh). An input is a whole trace:
//   byte 0: rank count - 1 (mod 4); byte 1: bit r set = rank r's file is
//   named .et.gz, bit 7 set = a communication-group file follows the ranks;
//   then per file: a 2-byte little-endian length and that many bytes (the
//   last file takes what is left).
// Reading must return a trace or throw ScenarioError; anything else (a
// crash, a sanitizer report, another exception) is a finding.

#include "ns3/chakra-trace-reader.h"
#include "ns3/scenario-error.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("flux-fuzz-chakra-" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    if (size < 2)
    {
        return 0;
    }
    const uint32_t ranks = data[0] % 4 + 1;
    const uint8_t flags = data[1];
    const bool groups = flags & 0x80;
    const uint32_t files = ranks + (groups ? 1 : 0);
    size_t pos = 2;
    for (const auto& entry : fs::directory_iterator(dir))
    {
        fs::remove(entry.path());
    }
    const std::string prefix = (dir / "t").string();
    const std::string groupFile = (dir / "groups.json").string();
    for (uint32_t f = 0; f < files; ++f)
    {
        size_t len = size - pos;
        if (f + 1 < files && pos + 2 <= size)
        {
            len = std::min<size_t>(data[pos] | (data[pos + 1] << 8), size - pos - 2);
            pos += 2;
        }
        else if (f + 1 < files)
        {
            len = 0;
            pos = size;
        }
        const std::string path =
            f < ranks ? prefix + "." + std::to_string(f) + (flags & (1 << f) ? ".et.gz" : ".et")
                      : groupFile;
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(data + pos), static_cast<std::streamsize>(len));
        pos += len;
    }
    try
    {
        const ns3::WorkloadTrace t = ns3::ReadChakraTrace(prefix, groups ? groupFile : "");
        // what a replay relies on
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
                if (nodes[i].kind == ns3::WorkloadNode::Kind::COLLECTIVE &&
                    nodes[i].group >= t.groups.size())
                {
                    __builtin_trap();
                }
            }
        }
    }
    catch (const ns3::ScenarioError&)
    {
    }
    return 0;
}
