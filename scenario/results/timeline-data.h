/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELINE_DATA_H
#define TIMELINE_DATA_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The timeline of one run as plain data: what a trace viewer shows.
 *
 * Processes hold tracks; spans (a name and a category from a start to an
 * end) and instants lie on tracks; counters (named series of values over
 * time) belong to processes. Times are simulated nanoseconds. Names,
 * categories and argument keys are interned, so that a span costs a few
 * words whatever its name. TimelineWriter writes it as a Chrome trace-event
 * file, in the order things were added.
 *
 * A timeline holds at most GetMaxEvents() spans, instants and counter
 * samples together: the ones added past it are left out and counted
 * (GetDropped()), so that a long run cannot exhaust the memory.
 */
class TimelineData
{
  public:
    /// Spans, instants and counter samples a timeline holds by default.
    static constexpr std::size_t kDefaultMaxEvents = 2000000;

    /// A named number shown with a span or an instant.
    struct Arg
    {
        uint32_t key; //!< interned key (Intern)
        double value; //!< the value
    };

    /// A process: a group of tracks and counters (a job, the links).
    struct Process
    {
        std::string name;  //!< shown name
        int32_t sortIndex; //!< place among the processes
    };

    /// A track (a thread of the trace format): one row of spans.
    struct Track
    {
        uint32_t process;  //!< its process
        std::string name;  //!< shown name
        int32_t sortIndex; //!< place among the process's tracks
    };

    /// Something that lasted, on a track.
    struct Span
    {
        uint32_t track;    //!< its track
        uint32_t name;     //!< interned name
        uint32_t category; //!< interned category
        int64_t startNs;   //!< start
        int64_t endNs;     //!< end, not before the start
        uint32_t firstArg; //!< index of its first argument in GetArgs()
        uint32_t nArgs;    //!< its number of arguments
    };

    /// Something that happened at one time, on a track.
    struct Instant
    {
        uint32_t track;    //!< its track
        uint32_t name;     //!< interned name
        uint32_t category; //!< interned category
        int64_t atNs;      //!< when
        uint32_t firstArg; //!< index of its first argument in GetArgs()
        uint32_t nArgs;    //!< its number of arguments
    };

    /// Named series of a process, sampled together.
    struct Counter
    {
        uint32_t process;                //!< its process
        std::string name;                //!< shown name
        std::vector<std::string> series; //!< the names of its values
    };

    /// The values of a counter from one time on (until its next sample).
    struct CounterSample
    {
        uint32_t counter;    //!< its counter
        int64_t atNs;        //!< from when
        uint32_t firstValue; //!< index of its first value in GetValues(), one per series
    };

    /**
     * \param maxEvents spans, instants and counter samples kept at most
     */
    explicit TimelineData(std::size_t maxEvents = kDefaultMaxEvents);

    /**
     * \param text a name, category or argument key
     * \return its index in GetStrings(), the same for the same text
     */
    uint32_t Intern(const std::string& text);

    /**
     * \param name shown name
     * \param sortIndex place among the processes
     * \return the process's index
     */
    uint32_t AddProcess(const std::string& name, int32_t sortIndex);

    /**
     * \param process its process
     * \param name shown name
     * \param sortIndex place among the process's tracks
     * \return the track's index
     */
    uint32_t AddTrack(uint32_t process, const std::string& name, int32_t sortIndex);

    /**
     * \brief Add a span (left out past the cap).
     * \param track its track
     * \param name interned name
     * \param category interned category
     * \param startNs start
     * \param endNs end (a span that ends before it starts is left out)
     * \param args its arguments
     * \return whether it was kept
     */
    bool AddSpan(uint32_t track,
                 uint32_t name,
                 uint32_t category,
                 int64_t startNs,
                 int64_t endNs,
                 std::initializer_list<Arg> args = {});

    /**
     * \brief Add a span whose arguments are in a vector (left out past the cap).
     * \param track its track
     * \param name interned name
     * \param category interned category
     * \param startNs start
     * \param endNs end
     * \param args its arguments
     * \param nArgs their number
     * \return whether it was kept
     */
    bool AddSpan(uint32_t track,
                 uint32_t name,
                 uint32_t category,
                 int64_t startNs,
                 int64_t endNs,
                 const Arg* args,
                 std::size_t nArgs);

    /**
     * \brief Add an instant (left out past the cap).
     * \param track its track
     * \param name interned name
     * \param category interned category
     * \param atNs when
     * \param args its arguments
     * \return whether it was kept
     */
    bool AddInstant(uint32_t track,
                    uint32_t name,
                    uint32_t category,
                    int64_t atNs,
                    std::initializer_list<Arg> args = {});

    /**
     * \brief Add an instant whose arguments are in a vector (left out past the cap).
     * \param track its track
     * \param name interned name
     * \param category interned category
     * \param atNs when
     * \param args its arguments
     * \param nArgs their number
     * \return whether it was kept
     */
    bool AddInstant(uint32_t track,
                    uint32_t name,
                    uint32_t category,
                    int64_t atNs,
                    const Arg* args,
                    std::size_t nArgs);

    /**
     * \param process its process
     * \param name shown name
     * \param series the names of its values
     * \return the counter's index
     */
    uint32_t AddCounter(uint32_t process,
                        const std::string& name,
                        const std::vector<std::string>& series);

    /**
     * \brief Add a counter's values from a time on (left out past the cap).
     * \param counter the counter
     * \param atNs from when
     * \param values one per series of the counter
     * \return whether it was kept
     */
    bool AddCounterSample(uint32_t counter, int64_t atNs, std::initializer_list<double> values);

    /**
     * \brief Set a metadata entry of the whole timeline (scenario, policy, seed).
     * \param key the key; set again, its value is replaced in place
     * \param value the value
     */
    void SetMetadata(const std::string& key, const std::string& value);

    /**
     * \brief Make room for spans about to be added, so that the spans'
     * storage does not grow by doubling past what it needs.
     * \param spans more spans
     * \param args more arguments
     */
    void Reserve(std::size_t spans, std::size_t args);

    /**
     * \param n events about to be added elsewhere, or left out
     * \return whether n more events fit under the cap
     */
    bool HasRoomFor(std::size_t n) const;

    /**
     * \brief Count events left out by a caller for want of room.
     * \param n their number
     */
    void CountDropped(uint64_t n);

    /** \return the interned strings */
    const std::vector<std::string>& GetStrings() const;
    /** \return the processes, in order */
    const std::vector<Process>& GetProcesses() const;
    /** \return the tracks, in order */
    const std::vector<Track>& GetTracks() const;
    /** \return the spans, in the order added */
    const std::vector<Span>& GetSpans() const;
    /** \return the instants, in the order added */
    const std::vector<Instant>& GetInstants() const;
    /** \return the arguments of spans and instants */
    const std::vector<Arg>& GetArgs() const;
    /** \return the counters */
    const std::vector<Counter>& GetCounters() const;
    /** \return the counter samples, in the order added */
    const std::vector<CounterSample>& GetCounterSamples() const;
    /** \return the values of counter samples */
    const std::vector<double>& GetValues() const;
    /** \return the metadata entries, in the order first set */
    const std::vector<std::pair<std::string, std::string>>& GetMetadata() const;
    /** \return spans, instants and counter samples kept */
    std::size_t GetEventCount() const;
    /** \return the cap on GetEventCount() */
    std::size_t GetMaxEvents() const;
    /** \return the events left out past the cap */
    uint64_t GetDropped() const;

  private:
    /**
     * \brief Take room for one event.
     * \return false (and the event counted as dropped) past the cap
     */
    bool Take();

    std::size_t m_maxEvents;                                     //!< the cap
    uint64_t m_dropped{0};                                       //!< events left out
    std::vector<std::string> m_strings;                          //!< interned strings
    std::unordered_map<std::string, uint32_t> m_stringIndex;     //!< their indices
    std::vector<Process> m_processes;                            //!< processes
    std::vector<Track> m_tracks;                                 //!< tracks
    std::vector<Span> m_spans;                                   //!< spans
    std::vector<Instant> m_instants;                             //!< instants
    std::vector<Arg> m_args;                                     //!< arguments
    std::vector<Counter> m_counters;                             //!< counters
    std::vector<CounterSample> m_samples;                        //!< counter samples
    std::vector<double> m_values;                                //!< their values
    std::vector<std::pair<std::string, std::string>> m_metadata; //!< metadata
};

} // namespace ns3

#endif /* TIMELINE_DATA_H */
