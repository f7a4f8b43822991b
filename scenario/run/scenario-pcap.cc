/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The pcap options: which hosts, how much of each frame, when.

#include "scenario-run.h"

#include "ns3/scenario-error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{

/// A whole number of at most 9 digits, or false.
bool
ReadHost(const std::string& text, uint32_t& value)
{
    if (text.empty() || text.size() > 9 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    {
        return false;
    }
    value = static_cast<uint32_t>(std::stoul(text));
    return true;
}

/// A finite number of ms >= 0, or false.
bool
ReadMs(const std::string& text, double& value)
{
    std::istringstream in(text);
    in >> value;
    return !text.empty() && in && in.peek() == EOF && std::isfinite(value) && value >= 0;
}

} // namespace

std::vector<uint32_t>
ParsePcapHosts(const std::string& text)
{
    std::vector<uint32_t> hosts;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        const auto dash = item.find('-');
        uint32_t first = 0;
        uint32_t last = 0;
        const bool ok = dash == std::string::npos
                            ? ReadHost(item, first) && ReadHost(item, last)
                            : ReadHost(item.substr(0, dash), first) &&
                                  ReadHost(item.substr(dash + 1), last) && first <= last;
        if (!ok || last - first >= 1000000)
        {
            throw ScenarioError("--pcap-hosts",
                                "expected host numbers and ranges such as \"0,3,8-11\", got \"" +
                                    text + "\"");
        }
        for (uint32_t h = first; h <= last; ++h)
        {
            hosts.push_back(h);
        }
    }
    if (hosts.empty())
    {
        throw ScenarioError("--pcap-hosts", "expected at least one host");
    }
    std::sort(hosts.begin(), hosts.end());
    hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
    return hosts;
}

void
ParsePcapWindow(const std::string& text, RunOptions& opts)
{
    const auto colon = text.find(':');
    double start = 0;
    double stop = 0;
    const std::string stopText = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (colon == std::string::npos || !ReadMs(text.substr(0, colon), start) ||
        (!stopText.empty() && (!ReadMs(stopText, stop) || stop <= start)))
    {
        throw ScenarioError("--pcap-window",
                            "expected START:STOP in ms, 0 <= START < STOP (or START: for no end), "
                            "got \"" +
                                text + "\"");
    }
    opts.pcapStartMs = start;
    opts.pcapStopMs = stop;
}

namespace scenario
{

void
ScenarioRun::EnablePcap()
{
    if (m_opts.pcapDir.empty())
    {
        return;
    }
    for (uint32_t h : m_opts.pcapHosts)
    {
        if (h >= m_nics.size())
        {
            throw ScenarioError("--pcap-hosts",
                                "host " + std::to_string(h) + " is not in the topology (hosts 0-" +
                                    std::to_string(m_nics.size() - 1) + ")");
        }
    }
    std::error_code ec;
    std::filesystem::create_directories(m_opts.pcapDir, ec);
    if (ec)
    {
        throw ScenarioError("--pcap", "cannot create " + m_opts.pcapDir + ": " + ec.message());
    }
    // Each file this process writes, opened now: a run that cannot write
    // one ends with one line before it starts, not in an abort.
    for (const auto& hostFile : m_topo.GetPcapHostFiles(m_opts.pcapDir, m_opts.pcapHosts))
    {
        if (!std::ofstream(hostFile.second, std::ios::binary))
        {
            throw ScenarioError("--pcap",
                                "cannot write " + hostFile.second + ": " + std::strerror(errno));
        }
    }
    m_topo.EnablePcapHosts(m_opts.pcapDir,
                           m_opts.pcapHosts,
                           m_opts.pcapSnapLen,
                           NanoSeconds(static_cast<int64_t>(m_opts.pcapStartMs * 1e6)),
                           NanoSeconds(static_cast<int64_t>(m_opts.pcapStopMs * 1e6)));
}

} // namespace scenario

} // namespace ns3
