/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELINE_BUILDER_H
#define TIMELINE_BUILDER_H

#include "ns3/nstime.h"
#include "ns3/timeline-data.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Lays jobs out on a TimelineData as a trace viewer shows them: one
 * process per job, with a job-level track and one track per rank.
 *
 * Spans are given per rank (AddRankSpan) or per job (AddJobSpan), in any
 * order; Finish() sorts each row by start and puts every span on the first
 * track of its row where it either follows the spans there or nests inside
 * one: a span that overlaps another without nesting in it (a compute that
 * runs beside a collective, a step that begins before the previous one
 * ended) goes to a further track of the same rank ("rank 3 (2)"). Viewers
 * need spans on one track to nest; this keeps them so whatever the
 * workload.
 *
 * Spans past the timeline's cap are left out and counted there.
 */
class TimelineBuilder
{
  public:
    /// Named numbers shown with a span.
    using Args = std::vector<std::pair<std::string, double>>;

    /**
     * \param data the timeline to fill
     * \param firstSortIndex sort index of the first job's process
     */
    explicit TimelineBuilder(TimelineData& data, int32_t firstSortIndex = 0);

    /**
     * \brief Add a job: its process and its job-level track ("iterations").
     * \param name the job's name
     * \param nRanks its number of ranks
     * \return the job's index in this builder, from 0
     */
    uint32_t AddJob(const std::string& name, uint32_t nRanks);

    /**
     * \brief Add a span on one rank's tracks (what a rank did from start to end).
     * \param job the job (AddJob)
     * \param rank the rank
     * \param name shown name ("compute", "reduce-scatter 2")
     * \param category its kind ("compute", "step", "gate", "collective")
     * \param start start
     * \param end end (a span that ends before it starts is left out)
     * \param args named numbers shown with it
     */
    void AddRankSpan(uint32_t job,
                     uint32_t rank,
                     const std::string& name,
                     const std::string& category,
                     Time start,
                     Time end,
                     const Args& args = {});

    /**
     * \brief Add a span on the job-level tracks (an iteration, a hold of the whole job).
     * \param job the job
     * \param name shown name
     * \param category its kind
     * \param start start
     * \param end end
     * \param args named numbers shown with it
     */
    void AddJobSpan(uint32_t job,
                    const std::string& name,
                    const std::string& category,
                    Time start,
                    Time end,
                    const Args& args = {});

    /**
     * \brief Add an instant on the job-level track.
     * \param job the job
     * \param name shown name
     * \param category its kind
     * \param at when
     * \param args named numbers shown with it
     */
    void AddJobInstant(uint32_t job,
                       const std::string& name,
                       const std::string& category,
                       Time at,
                       const Args& args = {});

    /**
     * \param job the job
     * \return its process in the timeline
     */
    uint32_t GetProcess(uint32_t job) const;

    /// Lay the spans given so far on tracks and add them to the timeline.
    void Finish();

  private:
    /// A span waiting for its track.
    struct Pending
    {
        uint32_t name;     //!< interned name
        uint32_t category; //!< interned category
        int64_t startNs;   //!< start
        int64_t endNs;     //!< end
        uint32_t firstArg; //!< its first argument in m_args
        uint32_t nArgs;    //!< its number of arguments
    };

    /// A rank, or a job's own row: its tracks and the spans laid on them.
    struct Row
    {
        std::string name;           //!< name of its first track
        uint32_t track;             //!< its first track
        int32_t sortIndex;          //!< sort index of its first track
        std::vector<Pending> spans; //!< spans not laid out yet
    };

    /// One job.
    struct Job
    {
        uint32_t process;      //!< its process
        std::vector<Row> rows; //!< its own row (first), then its ranks
    };

    /**
     * \brief Keep a span for Finish().
     * \param row its row
     * \param name shown name
     * \param category its kind
     * \param start start
     * \param end end
     * \param args named numbers
     */
    void Add(Row& row,
             const std::string& name,
             const std::string& category,
             Time start,
             Time end,
             const Args& args);

    /**
     * \brief Lay one row out on tracks.
     * \param process the row's job's process
     * \param row the row
     */
    void LayOut(uint32_t process, Row& row);

    TimelineData& m_data;                  //!< the timeline
    int32_t m_nextSort;                    //!< sort index of the next job's process
    std::vector<Job> m_jobs;               //!< the jobs
    std::vector<TimelineData::Arg> m_args; //!< arguments of pending spans
    std::size_t m_pending{0};              //!< spans kept for Finish()
};

} // namespace ns3

#endif /* TIMELINE_BUILDER_H */
