/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timeline-writer.h"

#include "output-file.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace ns3
{

namespace
{

/// A string as a JSON string literal (bytes that are not UTF-8 replaced).
std::string
Quote(const std::string& text)
{
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

/// Write a number as JSON: a whole number as an integer, a value that is
/// not finite as 0 (JSON has no NaN).
void
Number(std::ostream& out, double value)
{
    if (!std::isfinite(value))
    {
        out << 0;
    }
    else if (value == std::trunc(value) && std::fabs(value) < 9.0e15)
    {
        out << static_cast<int64_t>(value);
    }
    else
    {
        out << nlohmann::json(value).dump();
    }
}

/// A counter's sample (a utilisation, a queue's bytes) to nine significant
/// digits: a ratio of two sums comes out as 0.9407280000000001 otherwise.
void
Sample(std::ostream& out, double value)
{
    if (!std::isfinite(value))
    {
        out << 0;
        return;
    }
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", value);
    out << text;
}

/// Nanoseconds as microseconds with three decimals, exactly.
void
Micros(std::ostream& out, int64_t ns)
{
    if (ns < 0)
    {
        out << '-';
        ns = -ns;
    }
    char frac[4];
    std::snprintf(frac, sizeof(frac), "%03d", static_cast<int>(ns % 1000));
    out << ns / 1000 << '.' << frac;
}

/// The ", "args": {...}" of a span or an instant.
void
Args(std::ostream& out,
     const TimelineData& data,
     const std::vector<std::string>& quoted,
     uint32_t first,
     uint32_t n)
{
    if (n == 0)
    {
        return;
    }
    out << ",\"args\":{";
    for (uint32_t i = 0; i < n; ++i)
    {
        const auto& a = data.GetArgs()[first + i];
        out << (i ? "," : "") << quoted[a.key] << ':';
        Number(out, a.value);
    }
    out << '}';
}

/// Events one a line, separated by commas.
class EventList
{
  public:
    /// \param out where to write
    explicit EventList(std::ostream& out)
        : m_out(out)
    {
    }

    /// \return the stream, after the separator of a new event
    std::ostream& Next()
    {
        m_out << (m_first ? "" : ",\n");
        m_first = false;
        return m_out;
    }

  private:
    std::ostream& m_out; //!< where to write
    bool m_first{true};  //!< no event written yet
};

/// One metadata event.
void
Meta(EventList& events,
     const char* name,
     uint32_t pid,
     uint32_t tid,
     const std::string& key,
     const std::string& value)
{
    events.Next() << "{\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << tid << ",\"name\":\"" << name
                  << "\",\"args\":{\"" << key << "\":" << value << "}}";
}

} // namespace

void
TimelineWriter::Write(const TimelineData& data, std::ostream& out)
{
    // the interned strings quoted once, not once per event
    std::vector<std::string> quoted;
    quoted.reserve(data.GetStrings().size());
    for (const auto& text : data.GetStrings())
    {
        quoted.push_back(Quote(text));
    }
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{";
    for (const auto& [key, value] : data.GetMetadata())
    {
        out << Quote(key) << ':' << Quote(value) << ',';
    }
    out << "\"events\":" << data.GetEventCount() << ",\"dropped_events\":" << data.GetDropped()
        << "},\"traceEvents\":[\n";
    EventList events(out);
    for (uint32_t p = 0; p < data.GetProcesses().size(); ++p)
    {
        const auto& proc = data.GetProcesses()[p];
        Meta(events, "process_name", p + 1, 0, "name", Quote(proc.name));
        Meta(events, "process_sort_index", p + 1, 0, "sort_index", std::to_string(proc.sortIndex));
    }
    for (uint32_t t = 0; t < data.GetTracks().size(); ++t)
    {
        const auto& track = data.GetTracks()[t];
        Meta(events, "thread_name", track.process + 1, t + 1, "name", Quote(track.name));
        Meta(events,
             "thread_sort_index",
             track.process + 1,
             t + 1,
             "sort_index",
             std::to_string(track.sortIndex));
    }
    for (const auto& s : data.GetSpans())
    {
        events.Next() << "{\"ph\":\"X\",\"pid\":" << data.GetTracks()[s.track].process + 1
                      << ",\"tid\":" << s.track + 1 << ",\"ts\":";
        Micros(out, s.startNs);
        out << ",\"dur\":";
        Micros(out, s.endNs - s.startNs);
        out << ",\"name\":" << quoted[s.name] << ",\"cat\":" << quoted[s.category];
        Args(out, data, quoted, s.firstArg, s.nArgs);
        out << '}';
    }
    for (const auto& i : data.GetInstants())
    {
        events.Next() << "{\"ph\":\"i\",\"s\":\"t\",\"pid\":"
                      << data.GetTracks()[i.track].process + 1 << ",\"tid\":" << i.track + 1
                      << ",\"ts\":";
        Micros(out, i.atNs);
        out << ",\"name\":" << quoted[i.name] << ",\"cat\":" << quoted[i.category];
        Args(out, data, quoted, i.firstArg, i.nArgs);
        out << '}';
    }
    std::vector<std::string> counterNames;
    std::vector<std::vector<std::string>> seriesNames;
    for (const auto& counter : data.GetCounters())
    {
        counterNames.push_back(Quote(counter.name));
        seriesNames.emplace_back();
        for (const auto& series : counter.series)
        {
            seriesNames.back().push_back(Quote(series));
        }
    }
    for (const auto& c : data.GetCounterSamples())
    {
        const auto& counter = data.GetCounters()[c.counter];
        events.Next() << "{\"ph\":\"C\",\"pid\":" << counter.process + 1 << ",\"ts\":";
        Micros(out, c.atNs);
        out << ",\"name\":" << counterNames[c.counter] << ",\"args\":{";
        for (std::size_t v = 0; v < counter.series.size(); ++v)
        {
            out << (v ? "," : "") << seriesNames[c.counter][v] << ':';
            Sample(out, data.GetValues()[c.firstValue + v]);
        }
        out << "}}";
    }
    out << "\n]}\n";
}

void
TimelineWriter::Write(const TimelineData& data, const std::string& path)
{
    const std::string temp = TemporaryOutputPath(path);
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out)
        {
            throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
        }
        Write(data, out);
        out.flush();
        if (!out)
        {
            const int err = errno;
            out.close();
            std::remove(temp.c_str());
            throw std::runtime_error(path + ": cannot write (" + std::strerror(err) + ")");
        }
    }
    if (std::rename(temp.c_str(), path.c_str()) != 0)
    {
        const int err = errno;
        std::remove(temp.c_str());
        throw std::runtime_error(path + ": cannot write (" + std::strerror(err) + ")");
    }
}

} // namespace ns3
