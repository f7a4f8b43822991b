/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TIMELINE_WRITER_H
#define TIMELINE_WRITER_H

#include "timeline-data.h"

#include <ostream>
#include <string>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Writes a TimelineData as a Chrome trace-event file (the JSON
 * Object Format), which Perfetto (ui.perfetto.dev) and chrome://tracing
 * open.
 *
 *     {"displayTimeUnit": "ns",
 *      "otherData": {metadata..., "events": N, "dropped_events": M},
 *      "traceEvents": [
 *        metadata events ("ph": "M": process_name, process_sort_index,
 *                         thread_name, thread_sort_index),
 *        spans ("ph": "X", ts, dur), instants ("ph": "i", "s": "t"),
 *        counter samples ("ph": "C", args: one value per series)]}
 *
 * Times (ts, dur) are microseconds with three decimals (the nanosecond).
 * Process i has pid i + 1; track i has tid i + 1 in its process. One event
 * a line, in the timeline's order: the same timeline always gives the same
 * bytes. The events are streamed, never held as one JSON document.
 */
class TimelineWriter
{
  public:
    /**
     * \brief Write the trace-event JSON to a stream.
     * \param data the timeline
     * \param out where to write
     */
    static void Write(const TimelineData& data, std::ostream& out);

    /**
     * \brief Write the trace-event file, whole or not at all.
     * \param data the timeline
     * \param path the file
     *
     * Written to a temporary file in the same folder first, then renamed
     * into place. On failure the temporary file is removed and
     * std::runtime_error is thrown with a one-line message `<path>: <reason>`.
     */
    static void Write(const TimelineData& data, const std::string& path);
};

} // namespace ns3

#endif /* TIMELINE_WRITER_H */
