/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/aicb-workload-reader.h"
#include "ns3/chakra-trace-reader.h"
#include "ns3/collective-library.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

namespace ns3
{
namespace scenario
{

using json = nlohmann::json;

namespace
{

/// A file name as the scenario gives it: relative to the scenario's folder.
std::string
Resolve(const ScenarioConfig& cfg, const std::string& name)
{
    std::filesystem::path p(name);
    if (p.is_relative())
    {
        p = std::filesystem::path(cfg.baseDir) / p;
    }
    return p.lexically_normal().string();
}

} // namespace

void
CheckJobAlgorithms(const ObjectReader& r, const ScenarioConfig::JobConfig& job)
{
    std::set<std::pair<CollectiveType, uint32_t>> used; // (type, group size)
    if (job.workload.trace)
    {
        const WorkloadTrace& t = *job.workload.trace;
        for (const auto& nodes : t.nodes)
        {
            for (const auto& n : nodes)
            {
                // (a group of one rank moves nothing: no algorithm runs)
                if (n.kind == WorkloadNode::Kind::COLLECTIVE && t.groups[n.group].size() > 1)
                {
                    used.emplace(n.collective, static_cast<uint32_t>(t.groups[n.group].size()));
                }
            }
        }
    }
    else
    {
        CollectiveType type = CollectiveType::ALL_REDUCE;
        CollectiveTypeFromName(job.collective, type);
        used.emplace(type, job.ranks);
    }
    for (const auto& [type, ranks] : used)
    {
        const std::string algorithm = job.AlgorithmFor(type);
        const std::string err = CollectiveLibrary::CheckRanks(type, algorithm, ranks);
        if (!err.empty())
        {
            Fail(job.algorithm.count(CollectiveTypeName(type))
                     ? r.Path("algorithm") + "." + CollectiveTypeName(type)
                     : r.GetPath(),
                 std::string(CollectiveTypeName(type)) + " by " + Quote(algorithm) + " on " +
                     std::to_string(ranks) + " ranks: " + err);
        }
    }
}

void
ParseJobCollective(const ObjectReader& r, ScenarioConfig::JobConfig& job)
{
    r.Read("collective", job.collective);
    if (r.Has("algorithm"))
    {
        const std::string path = r.Path("algorithm");
        const json& v = r["algorithm"];
        for (const auto& [name, algo] : v.items())
        {
            const std::string field = path + "." + name;
            CollectiveType type;
            if (!CollectiveTypeFromName(name, type))
            {
                std::vector<std::string> types;
                for (uint32_t t = 0; t < N_COLLECTIVE_TYPES; ++t)
                {
                    types.emplace_back(CollectiveTypeName(static_cast<CollectiveType>(t)));
                }
                Fail(field, "unknown collective type; known: " + Join(types));
            }
            job.algorithm[name] = ToOneOf(algo, field, CollectiveLibrary::GetAlgorithms(type));
        }
        // (a replayed job's collectives are the workload's: any algorithm)
        if (!r.Has("workload") && job.collective == "ring-allreduce" &&
            job.algorithm.count("all-reduce") && job.algorithm["all-reduce"] != "ring")
        {
            Fail(path + ".all-reduce",
                 "the collective \"ring-allreduce\" is a ring; write \"collective\": "
                 "\"all-reduce\" to choose another algorithm");
        }
    }
    r.Read("channels", job.channels);
}

void
ParseJobWorkload(const ObjectReader& r, ScenarioConfig::JobConfig& job, const ScenarioConfig& cfg)
{
    for (const char* key : {"bytes", "compute_ms", "buckets", "collective", "chunk_bytes"})
    {
        if (r.Has(key))
        {
            Fail(r.Path(key),
                 "a job with \"workload\" takes its compute and communication from the "
                 "workload file");
        }
    }
    const std::string path = r.Path("workload");
    ObjectReader w(r["workload"], path);
    if (w.Has("chakra") == w.Has("aicb"))
    {
        Fail(path,
             "give one of \"chakra\" (DIR/PREFIX of <PREFIX>.<rank>.et files) or "
             "\"aicb\" (a model file)");
    }
    if (w.Has("aicb") && w.Has("comm_groups"))
    {
        Fail(w.Path("comm_groups"), "only a Chakra trace has comm groups");
    }
    auto& wc = job.workload;
    WorkloadTrace trace;
    try
    {
        if (w.Has("chakra"))
        {
            wc.kind = "chakra";
            wc.path = Resolve(cfg, w["chakra"].get<std::string>());
            if (w.Has("comm_groups"))
            {
                wc.commGroups = Resolve(cfg, w["comm_groups"].get<std::string>());
            }
            trace = ReadChakraTrace(wc.path, wc.commGroups);
        }
        else
        {
            wc.kind = "aicb";
            wc.path = Resolve(cfg, w["aicb"].get<std::string>());
            AicbOptions options;
            r.Read("ranks", options.ranks);
            // refused before all_gpus ranks are built
            options.checkRanks = [&cfg](uint64_t ranks) {
                if (const std::string beyond = RanksBeyondTopology(ranks, cfg); !beyond.empty())
                {
                    throw ScenarioError("ranks", beyond);
                }
            };
            trace = ReadAicbWorkload(wc.path, options);
        }
    }
    catch (const ScenarioError& e)
    {
        // the reader names the file and the node or line
        // (ReadChakraCommGroups names the file, or the file and a group)
        const std::string& field = e.GetField();
        if (field == "ranks")
        {
            Fail(r.Path("ranks"), e.GetProblem());
        }
        const bool groups = !wc.commGroups.empty() &&
                            (field == wc.commGroups || field.rfind(wc.commGroups + ": ", 0) == 0);
        Fail(w.Path(groups ? "comm_groups" : wc.kind), e.what());
    }
    if (r.Has("ranks") && r["ranks"].get<uint64_t>() != trace.ranks)
    {
        Fail(r.Path("ranks"),
             std::to_string(r["ranks"].get<uint64_t>()) + " but the workload has " +
                 std::to_string(trace.ranks) + " ranks");
    }
    // a workload whose transfers are all empty moves nothing, as one
    // without transfers (refused when the job is built): refuse it alike
    bool transfers = false;
    bool bytes = false;
    for (const auto& nodes : trace.nodes)
    {
        for (const auto& n : nodes)
        {
            const bool moves =
                n.kind == WorkloadNode::Kind::COLLECTIVE || n.kind == WorkloadNode::Kind::SEND;
            transfers = transfers || moves;
            bytes = bytes || (moves && n.bytes > 0);
        }
    }
    if (transfers && !bytes)
    {
        Fail(w.Path(wc.kind),
             "no communication between ranks (" + wc.path +
                 "): every collective and send carries 0 bytes");
    }
    double scale = 1;
    if (w.Read("bytes_scale", scale) && scale < 1)
    {
        // a quick look at a large workload: every transfer scaled, compute kept
        for (auto& nodes : trace.nodes)
        {
            for (auto& n : nodes)
            {
                if (n.bytes > 0)
                {
                    n.bytes = std::max<uint64_t>(
                        1,
                        static_cast<uint64_t>(std::llround(static_cast<double>(n.bytes) * scale)));
                }
            }
        }
    }
    job.ranks = trace.ranks;
    wc.trace = std::make_shared<const WorkloadTrace>(std::move(trace));
}

} // namespace scenario
} // namespace ns3
