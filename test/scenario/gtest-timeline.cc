/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The timeline: TimelineWriter writes valid trace-event JSON with exact
// microsecond times and a name for every process and track;
// TimelineBuilder keeps the spans of a track nested, moving a span that
// overlaps without nesting to a further track of its rank; the cap on
// events leaves the rest out and counts it.

#include "ns3/timeline-builder.h"
#include "ns3/timeline-data.h"
#include "ns3/timeline-writer.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// The trace-event document of a timeline.
json
Written(const TimelineData& data)
{
    std::ostringstream out;
    TimelineWriter::Write(data, out);
    return json::parse(out.str());
}

/// (pid, tid) -> thread name of a document.
std::map<std::pair<int, int>, std::string>
Threads(const json& doc)
{
    std::map<std::pair<int, int>, std::string> names;
    for (const auto& e : doc["traceEvents"])
    {
        if (e["ph"] == "M" && e["name"] == "thread_name")
        {
            names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
        }
    }
    return names;
}

} // namespace

TEST(Timeline, WriterGivesTraceEventJsonWithExactTimes)
{
    TimelineData data;
    data.SetMetadata("scenario", "s");
    data.SetMetadata("policy", "fifo");
    const uint32_t p = data.AddProcess("job \"a\"", 0);
    const uint32_t t = data.AddTrack(p, "rank 0", 1);
    const uint32_t step = data.Intern("step");
    data.AddSpan(t, data.Intern("reduce-scatter 0"), step, 1234567, 1235000, {{step, 3}});
    data.AddInstant(t, data.Intern("class 2"), data.Intern("class"), 7);
    const uint32_t c = data.AddCounter(p, "traffic class", {"class"});
    data.AddCounterSample(c, 2000, {2.0});
    const json doc = Written(data);
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    EXPECT_EQ(doc["otherData"]["scenario"], "s");
    EXPECT_EQ(doc["otherData"]["events"], 3);
    const auto threads = Threads(doc);
    int spans = 0;
    for (const auto& e : doc["traceEvents"])
    {
        if (e["ph"] == "X")
        {
            ++spans;
            EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 1234.567);
            EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 0.433);
            EXPECT_EQ(e["args"]["step"], 3);
            EXPECT_EQ(threads.at({e["pid"].get<int>(), e["tid"].get<int>()}), "rank 0");
        }
        if (e["ph"] == "M" && e["name"] == "process_name")
        {
            EXPECT_EQ(e["args"]["name"], "job \"a\"");
        }
        if (e["ph"] == "C")
        {
            EXPECT_EQ(e["name"], "traffic class");
            EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 2.0);
            EXPECT_EQ(e["args"]["class"], 2.0);
        }
    }
    EXPECT_EQ(spans, 1);
}

TEST(Timeline, BuilderKeepsTracksNested)
{
    TimelineData data;
    TimelineBuilder b(data);
    const uint32_t job = b.AddJob("a", 2);
    // rank 0: a run with two steps nested in it, a span overlapping the run
    // without nesting (a compute beside it), and one after everything
    b.AddRankSpan(job, 0, "step 1", "step", NanoSeconds(50), NanoSeconds(100));
    b.AddRankSpan(job, 0, "allreduce", "collective", NanoSeconds(0), NanoSeconds(100));
    b.AddRankSpan(job, 0, "step 0", "step", NanoSeconds(0), NanoSeconds(50));
    b.AddRankSpan(job, 0, "compute", "compute", NanoSeconds(80), NanoSeconds(150));
    b.AddRankSpan(job, 0, "later", "step", NanoSeconds(150), NanoSeconds(160));
    b.AddRankSpan(job, 1, "backwards", "step", NanoSeconds(10), NanoSeconds(5)); // left out
    b.Finish();
    const json doc = Written(data);
    const auto threads = Threads(doc);
    std::map<std::string, std::string> trackOf;
    for (const auto& e : doc["traceEvents"])
    {
        if (e["ph"] == "X")
        {
            trackOf[e["name"]] = threads.at({e["pid"].get<int>(), e["tid"].get<int>()});
        }
    }
    EXPECT_EQ(trackOf.size(), 5U);
    EXPECT_EQ(trackOf["allreduce"], "rank 0");
    EXPECT_EQ(trackOf["step 0"], "rank 0");
    EXPECT_EQ(trackOf["step 1"], "rank 0");
    EXPECT_EQ(trackOf["later"], "rank 0");
    EXPECT_EQ(trackOf["compute"], "rank 0 (2)");
    // every track of the job has its name: iterations, rank 0, rank 1, rank 0 (2)
    EXPECT_EQ(threads.size(), 4U);
}

TEST(Timeline, CapLeavesEventsOutAndCountsThem)
{
    TimelineData data(3);
    TimelineBuilder b(data);
    const uint32_t job = b.AddJob("a", 1);
    for (int i = 0; i < 5; ++i)
    {
        b.AddRankSpan(job, 0, "s", "step", NanoSeconds(10 * i), NanoSeconds(10 * i + 5));
    }
    b.Finish();
    EXPECT_EQ(data.GetEventCount(), 3U);
    EXPECT_EQ(data.GetDropped(), 2U);
    const uint32_t c = data.AddCounter(0, "c", {"v"});
    EXPECT_FALSE(data.AddCounterSample(c, 0, {1.0}));
    EXPECT_EQ(data.GetDropped(), 3U);
    EXPECT_EQ(Written(data)["otherData"]["dropped_events"], 3);
}
