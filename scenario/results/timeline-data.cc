/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timeline-data.h"

#include <algorithm>

namespace ns3
{

TimelineData::TimelineData(std::size_t maxEvents)
    : m_maxEvents(maxEvents)
{
}

uint32_t
TimelineData::Intern(const std::string& text)
{
    const auto [it, added] = m_stringIndex.emplace(text, static_cast<uint32_t>(m_strings.size()));
    if (added)
    {
        m_strings.push_back(text);
    }
    return it->second;
}

uint32_t
TimelineData::AddProcess(const std::string& name, int32_t sortIndex)
{
    m_processes.push_back(Process{name, sortIndex});
    return static_cast<uint32_t>(m_processes.size() - 1);
}

uint32_t
TimelineData::AddTrack(uint32_t process, const std::string& name, int32_t sortIndex)
{
    m_tracks.push_back(Track{process, name, sortIndex});
    return static_cast<uint32_t>(m_tracks.size() - 1);
}

bool
TimelineData::Take()
{
    if (GetEventCount() >= m_maxEvents)
    {
        ++m_dropped;
        return false;
    }
    return true;
}

bool
TimelineData::AddSpan(uint32_t track,
                      uint32_t name,
                      uint32_t category,
                      int64_t startNs,
                      int64_t endNs,
                      std::initializer_list<Arg> args)
{
    return AddSpan(track, name, category, startNs, endNs, args.begin(), args.size());
}

bool
TimelineData::AddSpan(uint32_t track,
                      uint32_t name,
                      uint32_t category,
                      int64_t startNs,
                      int64_t endNs,
                      const Arg* args,
                      std::size_t nArgs)
{
    if (endNs < startNs || !Take())
    {
        return false;
    }
    const auto first = static_cast<uint32_t>(m_args.size());
    m_args.insert(m_args.end(), args, args + nArgs);
    m_spans.push_back(
        Span{track, name, category, startNs, endNs, first, static_cast<uint32_t>(nArgs)});
    return true;
}

bool
TimelineData::AddInstant(uint32_t track,
                         uint32_t name,
                         uint32_t category,
                         int64_t atNs,
                         std::initializer_list<Arg> args)
{
    return AddInstant(track, name, category, atNs, args.begin(), args.size());
}

bool
TimelineData::AddInstant(uint32_t track,
                         uint32_t name,
                         uint32_t category,
                         int64_t atNs,
                         const Arg* args,
                         std::size_t nArgs)
{
    if (!Take())
    {
        return false;
    }
    const auto first = static_cast<uint32_t>(m_args.size());
    m_args.insert(m_args.end(), args, args + nArgs);
    m_instants.push_back(Instant{track, name, category, atNs, first, static_cast<uint32_t>(nArgs)});
    return true;
}

uint32_t
TimelineData::AddCounter(uint32_t process,
                         const std::string& name,
                         const std::vector<std::string>& series)
{
    m_counters.push_back(Counter{process, name, series});
    return static_cast<uint32_t>(m_counters.size() - 1);
}

bool
TimelineData::AddCounterSample(uint32_t counter, int64_t atNs, std::initializer_list<double> values)
{
    if (!Take())
    {
        return false;
    }
    const auto first = static_cast<uint32_t>(m_values.size());
    // one value per series: missing ones are 0, extra ones are left out
    const std::size_t n = m_counters[counter].series.size();
    m_values.insert(m_values.end(), values.begin(), values.begin() + std::min(n, values.size()));
    m_values.resize(first + n, 0.0);
    m_samples.push_back(CounterSample{counter, atNs, first});
    return true;
}

void
TimelineData::SetMetadata(const std::string& key, const std::string& value)
{
    for (auto& [k, v] : m_metadata)
    {
        if (k == key)
        {
            v = value;
            return;
        }
    }
    m_metadata.emplace_back(key, value);
}

void
TimelineData::Reserve(std::size_t spans, std::size_t args)
{
    m_spans.reserve(m_spans.size() + spans);
    m_args.reserve(m_args.size() + args);
}

bool
TimelineData::HasRoomFor(std::size_t n) const
{
    return GetEventCount() + n <= m_maxEvents;
}

void
TimelineData::CountDropped(uint64_t n)
{
    m_dropped += n;
}

const std::vector<std::string>&
TimelineData::GetStrings() const
{
    return m_strings;
}

const std::vector<TimelineData::Process>&
TimelineData::GetProcesses() const
{
    return m_processes;
}

const std::vector<TimelineData::Track>&
TimelineData::GetTracks() const
{
    return m_tracks;
}

const std::vector<TimelineData::Span>&
TimelineData::GetSpans() const
{
    return m_spans;
}

const std::vector<TimelineData::Instant>&
TimelineData::GetInstants() const
{
    return m_instants;
}

const std::vector<TimelineData::Arg>&
TimelineData::GetArgs() const
{
    return m_args;
}

const std::vector<TimelineData::Counter>&
TimelineData::GetCounters() const
{
    return m_counters;
}

const std::vector<TimelineData::CounterSample>&
TimelineData::GetCounterSamples() const
{
    return m_samples;
}

const std::vector<double>&
TimelineData::GetValues() const
{
    return m_values;
}

const std::vector<std::pair<std::string, std::string>>&
TimelineData::GetMetadata() const
{
    return m_metadata;
}

std::size_t
TimelineData::GetEventCount() const
{
    return m_spans.size() + m_instants.size() + m_samples.size();
}

std::size_t
TimelineData::GetMaxEvents() const
{
    return m_maxEvents;
}

uint64_t
TimelineData::GetDropped() const
{
    return m_dropped;
}

} // namespace ns3
