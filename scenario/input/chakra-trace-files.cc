/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace-files.h"

#include "ns3/log.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraTraceFiles");

namespace
{
constexpr uint32_t kMaxRanks = 1 << 20; //!< rank numbers beyond are absurd
namespace fs = std::filesystem;
} // namespace

std::vector<std::string>
ListChakraRankFiles(const std::string& prefix)
{
    const fs::path p(prefix);
    const std::string base = p.filename().string();
    fs::path dir = p.parent_path();
    if (dir.empty())
    {
        dir = ".";
    }
    if (base.empty())
    {
        throw ScenarioError(prefix, "a trace prefix names the files before '.<rank>.et'");
    }
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
    {
        throw ScenarioError(prefix, "cannot list folder " + dir.string() + ": " + ec.message());
    }
    std::map<uint32_t, std::string> found;
    for (const auto& entry : it)
    {
        const std::string name = entry.path().filename().string();
        if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 ||
            name[base.size()] != '.')
        {
            continue;
        }
        const std::string rest = name.substr(base.size() + 1);
        const size_t digits =
            std::find_if(rest.begin(), rest.end(), [](char c) { return c < '0' || c > '9'; }) -
            rest.begin();
        const std::string suffix = rest.substr(digits);
        if (digits == 0 || digits > 7 || (digits > 1 && rest[0] == '0') ||
            (suffix != ".et" && suffix != ".et.gz"))
        {
            continue;
        }
        const uint32_t rank = std::stoul(rest.substr(0, digits));
        if (rank >= kMaxRanks)
        {
            throw ScenarioError(entry.path().string(),
                                "rank " + std::to_string(rank) + " is beyond " +
                                    std::to_string(kMaxRanks - 1));
        }
        auto [where, added] = found.emplace(rank, entry.path().string());
        if (!added)
        {
            throw ScenarioError(entry.path().string(),
                                "rank " + std::to_string(rank) + " has two files (also " +
                                    where->second + ")");
        }
    }
    if (found.empty())
    {
        throw ScenarioError(prefix, "no trace files " + prefix + ".<rank>.et");
    }
    std::vector<std::string> files;
    for (const auto& [rank, path] : found)
    {
        if (rank != files.size())
        {
            throw ScenarioError(prefix + "." + std::to_string(files.size()) + ".et",
                                "missing: the trace has files up to rank " +
                                    std::to_string(found.rbegin()->first));
        }
        files.push_back(path);
    }
    return files;
}

std::map<std::string, std::vector<uint32_t>>
ReadChakraCommGroups(const std::string& file, uint32_t ranks)
{
    RequireRegularFile(file, "a communication-group file");
    const nlohmann::json doc = ReadScenarioJson(file); // (a syntax error: named)
    if (!doc.is_object())
    {
        throw ScenarioError(file, "must be an object {\"<pg_name>\": [ranks...], ...}");
    }
    std::map<std::string, std::vector<uint32_t>> groups;
    for (const auto& [name, members] : doc.items())
    {
        const std::string field = file + ": group \"" + name + "\"";
        if (!members.is_array() || members.empty())
        {
            throw ScenarioError(field, "must be a non-empty array of ranks");
        }
        if (members.size() > ranks)
        {
            throw ScenarioError(field,
                                "has " + std::to_string(members.size()) + " ranks, the trace has " +
                                    std::to_string(ranks));
        }
        std::vector<uint32_t> list;
        for (const auto& m : members)
        {
            if (!m.is_number_integer() || m.get<int64_t>() < 0 || m.get<int64_t>() >= ranks)
            {
                throw ScenarioError(field,
                                    "names rank " + m.dump() + ", the trace has ranks 0.." +
                                        std::to_string(ranks - 1));
            }
            list.push_back(m.get<uint32_t>());
        }
        std::sort(list.begin(), list.end());
        if (std::adjacent_find(list.begin(), list.end()) != list.end())
        {
            throw ScenarioError(field, "names a rank twice");
        }
        groups.emplace(name, std::move(list));
    }
    return groups;
}

} // namespace ns3
