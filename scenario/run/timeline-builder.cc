/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "timeline-builder.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

namespace
{

/// Sort indices of a rank's tracks: further tracks of a rank right after its first.
constexpr int32_t kTracksPerRank = 1024;

} // namespace

TimelineBuilder::TimelineBuilder(TimelineData& data, int32_t firstSortIndex)
    : m_data(data),
      m_nextSort(firstSortIndex)
{
}

uint32_t
TimelineBuilder::AddJob(const std::string& name, uint32_t nRanks)
{
    Job job;
    job.process = m_data.AddProcess("job " + name, m_nextSort++);
    job.rows.push_back(Row{"iterations", m_data.AddTrack(job.process, "iterations", 0), 0, {}});
    for (uint32_t r = 0; r < nRanks; ++r)
    {
        const std::string rank = "rank " + std::to_string(r);
        const int32_t sort = static_cast<int32_t>(r + 1) * kTracksPerRank;
        job.rows.push_back(Row{rank, m_data.AddTrack(job.process, rank, sort), sort, {}});
    }
    m_jobs.push_back(std::move(job));
    return static_cast<uint32_t>(m_jobs.size() - 1);
}

uint32_t
TimelineBuilder::GetProcess(uint32_t job) const
{
    return m_jobs.at(job).process;
}

void
TimelineBuilder::AddRankSpan(uint32_t job,
                             uint32_t rank,
                             const std::string& name,
                             const std::string& category,
                             Time start,
                             Time end,
                             const Args& args)
{
    Add(m_jobs.at(job).rows.at(rank + 1), name, category, start, end, args);
}

void
TimelineBuilder::AddJobSpan(uint32_t job,
                            const std::string& name,
                            const std::string& category,
                            Time start,
                            Time end,
                            const Args& args)
{
    Add(m_jobs.at(job).rows.front(), name, category, start, end, args);
}

void
TimelineBuilder::AddJobInstant(uint32_t job,
                               const std::string& name,
                               const std::string& category,
                               Time at,
                               const Args& args)
{
    // (an instant nests anywhere: it goes straight to the job's first track)
    std::vector<TimelineData::Arg> a;
    for (const auto& [key, value] : args)
    {
        a.push_back(TimelineData::Arg{m_data.Intern(key), value});
    }
    const uint32_t track = m_jobs.at(job).rows.front().track;
    m_data.AddInstant(track,
                      m_data.Intern(name),
                      m_data.Intern(category),
                      at.GetNanoSeconds(),
                      a.data(),
                      a.size());
}

void
TimelineBuilder::Add(Row& row,
                     const std::string& name,
                     const std::string& category,
                     Time start,
                     Time end,
                     const Args& args)
{
    if (end < start)
    {
        return;
    }
    if (!m_data.HasRoomFor(m_pending + 1))
    {
        m_data.CountDropped(1);
        return;
    }
    Pending p{m_data.Intern(name),
              m_data.Intern(category),
              start.GetNanoSeconds(),
              end.GetNanoSeconds(),
              static_cast<uint32_t>(m_args.size()),
              static_cast<uint32_t>(args.size())};
    for (const auto& [key, value] : args)
    {
        m_args.push_back(TimelineData::Arg{m_data.Intern(key), value});
    }
    row.spans.push_back(p);
    ++m_pending;
}

void
TimelineBuilder::LayOut(uint32_t process, Row& row)
{
    auto& spans = row.spans;
    // By start; of spans that start together the longer first, so that the
    // shorter nests in it.
    std::stable_sort(spans.begin(), spans.end(), [](const Pending& a, const Pending& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    });
    // Per track of the row, the ends of the spans still open, innermost last.
    std::vector<std::vector<int64_t>> open;
    std::vector<uint32_t> tracks;
    for (const auto& s : spans)
    {
        std::size_t lane = 0;
        for (; lane < open.size(); ++lane)
        {
            auto& stack = open[lane];
            // (spans come by start: one that ended by now is over for the later ones too)
            while (!stack.empty() && stack.back() <= s.startNs)
            {
                stack.pop_back();
            }
            if (stack.empty() || s.endNs <= stack.back())
            {
                break;
            }
        }
        if (lane == open.size())
        {
            open.emplace_back();
            tracks.push_back(
                lane == 0
                    ? row.track
                    : m_data.AddTrack(process,
                                      row.name + " (" + std::to_string(lane + 1) + ")",
                                      row.sortIndex +
                                          static_cast<int32_t>(
                                              std::min<std::size_t>(lane, kTracksPerRank - 1))));
        }
        open[lane].push_back(s.endNs);
        m_data.AddSpan(tracks[lane],
                       s.name,
                       s.category,
                       s.startNs,
                       s.endNs,
                       m_args.data() + s.firstArg,
                       s.nArgs);
    }
    m_pending -= spans.size();
    spans.clear();
    spans.shrink_to_fit();
}

void
TimelineBuilder::Finish()
{
    m_data.Reserve(m_pending, m_args.size());
    for (auto& job : m_jobs)
    {
        for (auto& row : job.rows)
        {
            LayOut(job.process, row);
        }
    }
    m_args.clear();
}

} // namespace ns3
