/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/log.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioWorkloadSections");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/// Record a job / tenant name (the schema checked its characters); names are
/// unique across both.
std::string
ParseName(const ObjectReader& r, std::map<std::string, std::string>& owners)
{
    const std::string path = r.Path("name");
    const std::string name = r["name"].get<std::string>();
    auto it = owners.find(name);
    if (it != owners.end())
    {
        Fail(path, Quote(name) + " is already used by " + it->second);
    }
    owners[name] = r.GetPath();
    return name;
}

double
ParseStart(const ObjectReader& r, const ScenarioConfig& cfg)
{
    if (!r.Has("start_ms"))
    {
        return 0;
    }
    const double start = r["start_ms"].get<double>();
    if (start >= cfg.stopMs)
    {
        Fail(r.Path("start_ms"), Num(start) + " is not before stop_ms " + Num(cfg.stopMs));
    }
    return start;
}

uint32_t
ParsePriority(const ObjectReader& r)
{
    uint32_t priority = 3;
    r.Read("priority", priority);
    return priority;
}

/**
 * \param cfg the scenario, its topology parsed
 * \return where ranks go: with servers on GPUs, without on hosts (one GPU each)
 */
uint32_t
RankSlots(const ScenarioConfig& cfg)
{
    return cfg.topology.hasServers ? cfg.GpuCount() : cfg.HostCount();
}

} // namespace

std::string
RanksBeyondTopology(uint64_t ranks, const ScenarioConfig& cfg)
{
    const bool servers = cfg.topology.hasServers;
    const uint32_t slots = RankSlots(cfg);
    if (ranks <= slots)
    {
        return "";
    }
    return std::to_string(ranks) + " ranks but the topology has " + std::to_string(slots) +
           (servers ? " GPUs" : " hosts");
}

ScenarioConfig::JobConfig
ParseJob(const json& v,
         const std::string& path,
         const ScenarioConfig& cfg,
         std::map<std::string, std::string>& owners)
{
    ObjectReader r(v, path);
    ScenarioConfig::JobConfig job;
    const uint32_t hostCount = cfg.HostCount();
    const bool servers = cfg.topology.hasServers;
    const uint32_t slots = RankSlots(cfg);
    job.name = ParseName(r, owners);

    const bool replay = r.Has("workload");
    if (replay)
    {
        ParseJobWorkload(r, job, cfg);
    }
    else
    {
        job.ranks = r["ranks"].get<uint32_t>();
    }
    if (const std::string beyond = RanksBeyondTopology(job.ranks, cfg); !beyond.empty())
    {
        Fail(r.Path("ranks"), beyond);
    }
    if (r.Has("hosts") && r.Has("gpus"))
    {
        Fail(r.Path("gpus"), "give either \"gpus\" or \"hosts\", not both");
    }
    for (const char* list : {"hosts", "gpus"})
    {
        if (r.Has(list) && r.Has("placement"))
        {
            Fail(r.Path("placement"),
                 std::string("give either \"") + list + "\" or \"placement\", not both");
        }
    }
    if (r.Has("hosts") && servers)
    {
        Fail(r.Path("hosts"),
             "with topology.servers a rank runs on a GPU: list the ranks' GPUs in \"gpus\" "
             "(hosts are NICs, shared by the GPUs of a server)");
    }
    if (r.Has("gpus"))
    {
        job.gpus = ToHostList(r["gpus"], r.Path("gpus"), slots, "GPU");
        if (job.gpus.size() != job.ranks)
        {
            Fail(r.Path("gpus"),
                 std::to_string(job.gpus.size()) + " GPUs listed but ranks is " +
                     std::to_string(job.ranks));
        }
        job.placement = "explicit";
    }
    else if (r.Has("hosts"))
    {
        job.hosts = ToHostList(r["hosts"], r.Path("hosts"), hostCount);
        if (job.hosts.size() != job.ranks)
        {
            Fail(r.Path("hosts"),
                 std::to_string(job.hosts.size()) + " hosts listed but ranks is " +
                     std::to_string(job.ranks));
        }
        job.placement = "explicit";
    }
    else
    {
        r.Read("placement", job.placement);
    }
    ParseJobCollective(r, job);
    job.iterations = r["iterations"].get<uint32_t>();
    job.startMs = ParseStart(r, cfg);
    job.priority = ParsePriority(r);
    if (replay)
    {
        CheckJobAlgorithms(r, job);
        return job;
    }
    job.bytes = r["bytes"].get<uint64_t>();
    if (job.bytes < job.ranks)
    {
        Fail(r.Path("bytes"),
             std::to_string(job.bytes) + " bytes cannot be split among " +
                 std::to_string(job.ranks) + " ranks");
    }
    r.Read("compute_ms", job.computeMs);
    r.Read("chunk_bytes", job.chunkBytes);
    if (r.Read("buckets", job.buckets))
    {
        if (uint64_t{job.buckets} * job.ranks > job.bytes)
        {
            Fail(r.Path("buckets"),
                 std::to_string(job.buckets) + " buckets of " + std::to_string(job.ranks) +
                     " ranks need at least " + std::to_string(uint64_t{job.buckets} * job.ranks) +
                     " bytes, bytes is " + std::to_string(job.bytes));
        }
    }
    // Each rank sends 2 (N - 1) / N of the gradient per iteration: what the
    // job moves must fit the byte counters.
    const double moved = 2.0 * static_cast<double>(job.bytes) * (job.ranks - 1) * job.iterations;
    if (moved > static_cast<double>(kMaxTotalBytes))
    {
        Fail(r.Path("bytes"),
             "the job would move 2 x bytes x (ranks - 1) x iterations = " + Num(moved) +
                 " bytes, more than 2^63 - 1");
    }
    if (job.chunkBytes > 0)
    {
        // Every piece of a ring step is posted at once (RingAllreduce); a
        // broadcast hop carries the whole buffer (RingBroadcast).
        const bool broadcast = job.collective == "broadcast";
        const uint64_t bucketBytes = job.bytes / job.buckets + job.bytes % job.buckets;
        const uint64_t chunk =
            broadcast ? bucketBytes : std::max<uint64_t>(1, bucketBytes / job.ranks);
        const uint64_t pieces = chunk / job.chunkBytes + (chunk % job.chunkBytes ? 1 : 0);
        if (pieces > kMaxPiecesPerStep)
        {
            const uint64_t least = chunk / kMaxPiecesPerStep + (chunk % kMaxPiecesPerStep ? 1 : 0);
            Fail(r.Path("chunk_bytes"),
                 std::to_string(job.chunkBytes) + " would split a " +
                     (broadcast ? "broadcast hop" : "ring step") + " of " + std::to_string(chunk) +
                     " bytes into " + std::to_string(pieces) + " pieces, more than " +
                     std::to_string(kMaxPiecesPerStep) + " (use at least " + std::to_string(least) +
                     ")");
        }
    }
    CheckJobAlgorithms(r, job);
    return job;
}

ScenarioConfig::BackgroundConfig
ParseBackground(const json& v,
                const std::string& path,
                const ScenarioConfig& cfg,
                std::map<std::string, std::string>& owners)
{
    using Bg = ScenarioConfig::BackgroundConfig;
    const bool isCdf = v.contains("cdf");
    const bool isPattern = v.contains("pattern");
    if (isCdf && isPattern)
    {
        Fail(Child(path, "pattern"), "give either \"cdf\" or \"pattern\", not both");
    }
    if (!isCdf && !isPattern)
    {
        Fail(path, "needs \"cdf\" (Poisson flows with sizes from a CDF) or \"pattern\"");
    }
    std::vector<std::string> keys = kBackgroundCommonKeys;
    const auto& own = isCdf ? kBackgroundCdfKeys : kBackgroundPatternKeys;
    const auto& other = isCdf ? kBackgroundPatternKeys : kBackgroundCdfKeys;
    keys.insert(keys.end(), own.begin(), own.end());
    ObjectReader r(v,
                   path,
                   keys,
                   other,
                   isCdf ? "only \"pattern\" entries have it" : "only \"cdf\" entries have it");

    const uint32_t hostCount = cfg.HostCount();
    Bg bg;
    bg.kind = isCdf ? Bg::Kind::CDF : Bg::Kind::PATTERN;
    bg.name = ParseName(r, owners);
    bg.priority = ParsePriority(r);
    bg.startMs = ParseStart(r, cfg);

    if (isCdf)
    {
        const std::string cdfPath = r.Path("cdf");
        bg.cdf = r["cdf"].get<std::string>();
        if (bg.cdf.find('\0') != std::string::npos)
        {
            Fail(cdfPath, "a file name cannot hold a NUL character");
        }
        if (FlowSizeCdf::IsBuiltin(bg.cdf))
        {
            bg.flowSizes = FlowSizeCdf::Builtin(bg.cdf);
        }
        else
        {
            namespace fs = std::filesystem;
            fs::path file(bg.cdf);
            if (file.is_relative())
            {
                file = fs::path(cfg.baseDir) / file;
            }
            bg.cdfPath = file.lexically_normal().string();
            // Only regular files of a sane size, checked before opening: a
            // pipe would block the open, a device (/dev/zero) never end.
            if (!bg.cdf.empty())
            {
                RequireRegularFile(bg.cdfPath, "a flow-size CDF file", cdfPath);
            }
            std::error_code ec;
            std::ifstream probe(bg.cdfPath);
            if (bg.cdf.empty() || !probe)
            {
                Fail(cdfPath,
                     Quote(bg.cdf) + " is neither a builtin CDF (" +
                         Join(FlowSizeCdf::BuiltinNames()) + ") nor a readable file (" +
                         bg.cdfPath + ")");
            }
            const auto size = fs::file_size(bg.cdfPath, ec);
            if (!ec && size > kMaxCdfFileBytes)
            {
                Fail(cdfPath,
                     bg.cdfPath + " has " + std::to_string(size) + " bytes, more than " +
                         std::to_string(kMaxCdfFileBytes) + " (a CDF file is a short table)");
            }
            try
            {
                bg.flowSizes = FlowSizeCdf::LoadFile(bg.cdfPath);
            }
            catch (const std::runtime_error& e)
            {
                Fail(cdfPath, e.what());
            }
        }
        bg.load = r.Required("load").get<double>();
        if (r.Has("hosts"))
        {
            bg.hosts = ToHostList(r["hosts"], r.Path("hosts"), hostCount);
            if (bg.hosts.size() < 2)
            {
                Fail(r.Path("hosts"),
                     "needs at least 2 hosts, got " + std::to_string(bg.hosts.size()));
            }
        }
        else
        {
            if (hostCount < 2)
            {
                Fail(r.Path("hosts"),
                     "needs at least 2 hosts, the topology has " + std::to_string(hostCount));
            }
            for (uint32_t h = 0; h < hostCount; ++h)
            {
                bg.hosts.push_back(h);
            }
        }
        if (r.Has("stop_ms"))
        {
            const double stop = r["stop_ms"].get<double>();
            if (!(stop > bg.startMs))
            {
                Fail(r.Path("stop_ms"), Num(stop) + " is not after start_ms " + Num(bg.startMs));
            }
            bg.stopMs = stop;
        }
    }
    else
    {
        bg.pattern = r["pattern"].get<std::string>();
        if (bg.pattern == "flows")
        {
            for (const char* key :
                 {"senders", "receiver", "bytes", "repeat", "interval_ms", "start_ms"})
            {
                if (r.Has(key))
                {
                    Fail(r.Path(key), "a \"flows\" pattern lists its flows in \"flows\"");
                }
            }
            bg.flows = ParseFlowList(r, cfg);
            bg.startMs = bg.flows.front().startMs;
            return bg;
        }
        if (r.Has("flows"))
        {
            Fail(r.Path("flows"), "only a \"flows\" pattern has it");
        }
        bg.receiver = ToHost(r.Required("receiver"), r.Path("receiver"), hostCount);
        bg.senders = ToHostList(r.Required("senders"), r.Path("senders"), hostCount);
        if (bg.senders.empty())
        {
            Fail(r.Path("senders"), "needs at least 1 host");
        }
        for (size_t i = 0; i < bg.senders.size(); ++i)
        {
            if (bg.senders[i] == bg.receiver)
            {
                Fail(Index(r.Path("senders"), i),
                     "host " + std::to_string(bg.receiver) + " is the receiver");
            }
        }
        bg.bytes = r.Required("bytes").get<uint64_t>();
        r.Read("repeat", bg.repeat);
        const double moved = static_cast<double>(bg.bytes) * bg.senders.size() * bg.repeat;
        if (moved > static_cast<double>(kMaxTotalBytes))
        {
            Fail(r.Path("bytes"),
                 "the pattern would send bytes x senders x repeat = " + Num(moved) +
                     " bytes, more than 2^63 - 1");
        }
        if (!r.Read("interval_ms", bg.intervalMs) && bg.repeat > 1)
        {
            Fail(r.Path("interval_ms"), "required when repeat > 1");
        }
    }
    return bg;
}

} // namespace scenario
} // namespace ns3
