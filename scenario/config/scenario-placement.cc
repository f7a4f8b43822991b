/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-placement.h"

#include "scenario-keys.h"

#include "ns3/log.h"
#include "ns3/scenario-json.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioPlacement");

namespace
{

// ---------------------------------------------------------------------------
// Random placement: a small generator whose output is the same everywhere.
// ---------------------------------------------------------------------------

uint64_t
SplitMix64(uint64_t& state)
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Uniform integer in [0, n), n > 0, without modulo bias.
uint64_t
UniformBelow(uint64_t& state, uint64_t n)
{
    const uint64_t threshold = (0 - n) % n; // 2^64 mod n
    uint64_t r;
    do
    {
        r = SplitMix64(state);
    } while (r < threshold);
    return r % n;
}

uint64_t
Fnv1a(const std::string& s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s)
    {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

} // namespace

using scenario::Fail;
using scenario::Join;
using scenario::kPlacements;
using scenario::Quote;

std::vector<uint32_t>
ResolvePlacement(const ScenarioConfig::JobConfig& job,
                 uint32_t hostCount,
                 uint32_t seed,
                 uint32_t hostsPerLeaf,
                 const std::vector<bool>& taken)
{
    if (job.placement == "explicit")
    {
        return job.hosts;
    }
    std::vector<uint32_t> free;
    for (uint32_t h = 0; h < hostCount; ++h)
    {
        if (h >= taken.size() || !taken[h])
        {
            free.push_back(h);
        }
    }
    if (free.size() < job.ranks)
    {
        Fail("placement",
             "job " + Quote(job.name) + ": " + std::to_string(job.ranks) + " ranks but only " +
                 std::to_string(free.size()) + " of " + std::to_string(hostCount) +
                 " hosts are free");
    }

    std::vector<uint32_t> hosts;
    if (job.placement == "packed")
    {
        hosts.assign(free.begin(), free.begin() + job.ranks);
    }
    else if (job.placement == "spread")
    {
        const uint32_t perLeaf = hostsPerLeaf == 0 ? std::max(hostCount, 1u) : hostsPerLeaf;
        const uint32_t leaves = (hostCount + perLeaf - 1) / perLeaf;
        std::vector<std::vector<uint32_t>> byLeaf(leaves);
        for (uint32_t h : free)
        {
            byLeaf[h / perLeaf].push_back(h);
        }
        for (size_t round = 0; hosts.size() < job.ranks; ++round)
        {
            for (const auto& leafHosts : byLeaf)
            {
                if (round < leafHosts.size() && hosts.size() < job.ranks)
                {
                    hosts.push_back(leafHosts[round]);
                }
            }
        }
    }
    else if (job.placement == "random")
    {
        uint64_t state = Fnv1a(job.name) ^ (uint64_t{seed} * 0xd1342543de82ef95ULL);
        // Partial Fisher-Yates shuffle: the first ranks entries are a uniform
        // random ordered subset.
        for (uint32_t i = 0; i < job.ranks; ++i)
        {
            const uint64_t j = i + UniformBelow(state, free.size() - i);
            std::swap(free[i], free[j]);
        }
        hosts.assign(free.begin(), free.begin() + job.ranks);
    }
    else
    {
        Fail("placement",
             "job " + Quote(job.name) + ": " + scenario::NotKnown(job.placement, kPlacements));
    }
    return hosts;
}

namespace scenario
{

void
PlaceJobs(ScenarioConfig& cfg)
{
    // Ranks go on GPUs; without servers every host is one GPU.
    const bool servers = cfg.topology.hasServers;
    const uint32_t slots = servers ? cfg.GpuCount() : cfg.HostCount();
    const std::string noun = servers ? " GPUs" : " hosts";
    std::vector<bool> taken(slots, false);
    // GPUs that a "gpus" list holds, with the job that lists them: no other
    // job may have them.
    std::vector<int64_t> owner(slots, -1);
    for (size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        const auto& job = cfg.jobs[i];
        for (size_t k = 0; k < job.gpus.size(); ++k)
        {
            const uint32_t g = job.gpus[k];
            if (owner[g] >= 0)
            {
                Fail(Index(Index("jobs", i) + ".gpus", k),
                     "GPU " + std::to_string(g) + " is also listed by " +
                         Index("jobs", static_cast<size_t>(owner[g])) +
                         " (two jobs may not share a GPU)");
            }
            owner[g] = static_cast<int64_t>(i);
            taken[g] = true;
        }
    }
    for (size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        const auto& job = cfg.jobs[i];
        if (job.placement != "explicit" || !job.gpus.empty())
        {
            continue;
        }
        // "hosts" lists may share hosts with one another, not with "gpus" lists
        for (size_t k = 0; k < job.hosts.size(); ++k)
        {
            const uint32_t h = job.hosts[k];
            if (owner[h] >= 0)
            {
                Fail(Index(Index("jobs", i) + ".hosts", k),
                     "host " + std::to_string(h) + " is GPU " + std::to_string(h) + " of " +
                         Index("jobs", static_cast<size_t>(owner[h])) +
                         ".gpus (two jobs may not share a GPU)");
            }
            taken[h] = true;
        }
    }
    // "spread" goes round the servers; with a GPU per server (a GPU is a
    // host, its own server), round the edge switches.
    const uint32_t gpus = cfg.topology.servers.gpus;
    const uint32_t group = gpus > 1 ? gpus : cfg.HostsPerLeaf();
    for (size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        auto& job = cfg.jobs[i];
        if (job.placement == "explicit")
        {
            if (job.gpus.empty())
            {
                job.gpus = job.hosts; // a host is one GPU
            }
        }
        else
        {
            const auto free = static_cast<uint32_t>(std::count(taken.begin(), taken.end(), false));
            if (free < job.ranks)
            {
                Fail(Index("jobs", i) + ".ranks",
                     std::to_string(job.ranks) + " ranks but only " + std::to_string(free) +
                         " of " + std::to_string(slots) + noun + " are free (" + noun.substr(1) +
                         " listed by jobs or placed for earlier jobs are taken)");
            }
            job.gpus = ResolvePlacement(job, slots, cfg.PlacementSeed(), group, taken);
            for (uint32_t g : job.gpus)
            {
                taken[g] = true;
            }
        }
        job.hosts.clear();
        job.servers.clear();
        for (uint32_t g : job.gpus)
        {
            job.hosts.push_back(cfg.GpuHost(g));
            job.servers.push_back(cfg.GpuServer(g));
        }
    }
}

} // namespace scenario
} // namespace ns3
