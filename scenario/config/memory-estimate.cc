/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "memory-estimate.h"

#include "ns3/log.h"
#include "ns3/traffic-class.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MemoryEstimate");

namespace
{

/// Cables and switches of the scenario's topology.
void
CountFabric(const ScenarioConfig& cfg, double& cables, double& switches)
{
    const auto& t = cfg.topology;
    const double hosts = cfg.HostCount();
    if (t.kind == "leaf-spine")
    {
        switches = static_cast<double>(t.leaves) + t.spines;
        cables = hosts + static_cast<double>(t.leaves) * t.spines;
    }
    else if (t.kind == "rail-optimized")
    {
        const double leaves = static_cast<double>(t.railGroups) * t.servers.nics;
        switches = leaves + t.spines;
        cables = hosts + leaves * t.spines;
    }
    else if (t.kind == "fat-tree")
    {
        const double k = t.k;
        switches = 5 * k * k / 4;
        cables = 3 * k * k * k / 4;
    }
    else
    {
        switches = 2;
        cables = hosts + 1;
    }
}

/// The first number of the line of /proc/meminfo-like text that starts with key.
double
ReadKb(const std::string& path, const std::string& key)
{
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
    {
        if (line.rfind(key, 0) == 0)
        {
            return std::strtod(line.c_str() + key.size(), nullptr);
        }
    }
    return -1;
}

/// A whole-file number (cgroup files); negative when absent or "max".
double
ReadNumber(const std::string& path)
{
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max")
    {
        return -1;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    return end && *end == '\0' ? v : -1;
}

} // namespace

std::vector<MemoryEstimate::Part>
MemoryEstimate::Parts(const ScenarioConfig& cfg, bool fluid)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<Part> parts;
    const auto& t = cfg.topology;
    const double hosts = cfg.HostCount();
    double cables = 0;
    double switches = 0;
    CountFabric(cfg, cables, switches);
    {
        std::ostringstream what;
        what << std::fixed << std::setprecision(0);
        what << "the fabric: " << hosts << " hosts, " << switches << " switches, " << cables
             << " cables";
        parts.push_back(Part{"topology",
                             what.str(),
                             kBaseBytes + kCableBytes * cables + kHostBytes * hosts +
                                 kRouteBytes * switches * hosts});
    }

    const double hostBps = t.hostGbps * 1e9;
    const double delayS = t.linkDelayUs * 1e-6;
    const double stopS = cfg.stopMs * 1e-3;
    double inFlight = 0; // what the workloads may have in flight at once, for the buffers
    for (size_t i = 0; i < cfg.jobs.size(); ++i)
    {
        const auto& j = cfg.jobs[i];
        const double n = j.ranks;
        const double steps = 2 * (n - 1);
        // The iterations that can run before stop_ms: a ring step sends a
        // chunk over at least two links.
        const double chunk = static_cast<double>(j.bytes) / j.buckets / n;
        const double stepS = std::max(1e-9, chunk * 8 / hostBps + 2 * delayS);
        const double iterationS = std::max(j.computeMs * 1e-3, steps * j.buckets * stepS);
        const double possible =
            std::floor(std::max(0.0, stopS - j.startMs * 1e-3) / iterationS) + 1;
        const double iterations = std::min<double>(j.iterations, possible);
        const double records = n * steps * j.buckets * iterations;
        std::ostringstream what;
        what << std::fixed << std::setprecision(0);
        what << "job " << j.name << ": " << records << " ring step records";
        parts.push_back(Part{"jobs[" + std::to_string(i) + "]",
                             what.str(),
                             kStepRecordBytes * records + kQueuePairBytes * 2 * n});
        inFlight += static_cast<double>(j.bytes) / j.buckets; // one ring step of every rank
    }
    for (size_t i = 0; i < cfg.background.size(); ++i)
    {
        const auto& b = cfg.background[i];
        double flows = 0;
        const double startS = b.startMs * 1e-3;
        if (b.kind == ScenarioConfig::BackgroundConfig::Kind::CDF)
        {
            const double endS = std::min(stopS, b.stopMs ? *b.stopMs * 1e-3 : stopS);
            const double mean = std::max(1.0, b.flowSizes.Mean());
            const double bytes =
                b.hosts.size() * b.load * hostBps / 8 * std::max(0.0, endS - startS);
            flows = std::ceil(bytes / mean);
            inFlight += 4 * mean * b.hosts.size(); // a few flows per host at once
        }
        else
        {
            double bursts = b.repeat;
            if (b.intervalMs > 0)
            {
                bursts =
                    std::min(bursts,
                             std::floor(std::max(0.0, stopS - startS) / (b.intervalMs * 1e-3)) + 1);
            }
            flows = bursts * b.senders.size();
            inFlight += static_cast<double>(b.bytes) * b.senders.size(); // one burst
        }
        std::ostringstream what;
        what << std::fixed << std::setprecision(0);
        what << "tenant " << b.name << ": " << flows << " flows";
        parts.push_back(
            Part{"background[" + std::to_string(i) + "]", what.str(), kFlowBytes * flows});
    }
    if (fluid)
    {
        return parts; // (no frames held, no traces sampled)
    }
    if (cfg.traces.enabled)
    {
        double sampled = cfg.traces.links.size();
        if (cfg.traces.rates)
        {
            for (const auto& j : cfg.jobs)
            {
                sampled += j.ranks;
            }
        }
        const double samples = std::floor(cfg.stopMs * 1e3 / cfg.traces.intervalUs) + 1;
        std::ostringstream what;
        what << std::fixed << std::setprecision(0);
        what << "traces: " << samples * sampled << " samples";
        parts.push_back(Part{"traces.interval_us", what.str(), kSampleBytes * samples * sampled});
    }
    {
        const double frame = WireBytes::DataFrame(cfg.transport.mtuBytes, true);
        const double held = std::min(switches * t.bufferMb * 1e6, inFlight);
        std::ostringstream what;
        what << std::fixed << std::setprecision(0);
        what << "switch buffers: " << std::floor(held / frame) << " frames";
        parts.push_back(Part{"topology.buffer_mb", what.str(), kPacketBytes * held / frame});
    }
    return parts;
}

double
MemoryEstimate::Bytes(const ScenarioConfig& cfg, bool fluid)
{
    double total = 0;
    for (const auto& p : Parts(cfg, fluid))
    {
        total += p.bytes;
    }
    return total;
}

double
MemoryEstimate::AvailableBytes(std::string& source)
{
    const char* env = std::getenv("FLUX_MEMORY_LIMIT_MB");
    if (env && *env)
    {
        char* end = nullptr;
        const double mb = std::strtod(env, &end);
        if (!end || *end != '\0' || !std::isfinite(mb) || mb < 0)
        {
            throw ScenarioError("FLUX_MEMORY_LIMIT_MB",
                                "expected a number of MB (0: no check), got \"" + std::string(env) +
                                    "\"");
        }
        source = "FLUX_MEMORY_LIMIT_MB";
        return mb > 0 ? mb * 1e6 : -1;
    }
    double available = ReadKb("/proc/meminfo", "MemAvailable:");
    if (available < 0)
    {
        return -1;
    }
    available *= 1024;
    source = "MemAvailable; FLUX_MEMORY_LIMIT_MB overrides it";
    // A cgroup v2 limit (containers, systemd slices) may leave less.
    const double max = ReadNumber("/sys/fs/cgroup/memory.max");
    const double current = ReadNumber("/sys/fs/cgroup/memory.current");
    if (max > 0 && current >= 0 && max - current < available)
    {
        available = std::max(0.0, max - current);
        source = "the cgroup's memory.max; FLUX_MEMORY_LIMIT_MB overrides it";
    }
    return available;
}

void
MemoryEstimate::Check(const ScenarioConfig& cfg, bool fluid)
{
    std::string source;
    const double available = AvailableBytes(source);
    if (available < 0)
    {
        return;
    }
    const auto parts = Parts(cfg, fluid);
    double total = 0;
    const Part* largest = &parts.front();
    for (const auto& p : parts)
    {
        total += p.bytes;
        if (p.bytes > largest->bytes)
        {
            largest = &p;
        }
    }
    NS_LOG_INFO("estimated " << total << " bytes, available " << available);
    if (total > available)
    {
        throw ScenarioError(largest->field,
                            "the scenario needs an estimated " + Format(total) + " of memory (" +
                                Format(largest->bytes) + " for " + largest->what +
                                "), more than the " + Format(available) + " available (" + source +
                                ")");
    }
}

std::string
MemoryEstimate::Format(double bytes)
{
    char text[64];
    if (bytes >= 1e9)
    {
        std::snprintf(text, sizeof(text), "%.1f GB", bytes / 1e9);
    }
    else
    {
        std::snprintf(text, sizeof(text), "%.0f MB", std::ceil(bytes / 1e6));
    }
    return text;
}

} // namespace ns3
