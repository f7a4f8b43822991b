/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ResultsWriter: the results JSON of the runner (fields, order, statistics,
// rounding), the CSV companions, and atomic, reproducible writing.

#include "ns3/results-writer.h"

#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ns3;
using ojson = nlohmann::ordered_json;

namespace
{

RunResults
Sample()
{
    RunResults r;
    r.policy = "fifo";
    r.seed = 7;
    r.seeds = {7, 3, 7};
    r.ecmp = {2, 1};
    r.cc = "timely";
    RunResults::JobResult a;
    a.name = "a";
    a.links = {"h0->s0", "s0->h1"};
    a.completed = true;
    a.jctMs = 123.4000000001;
    a.iterationMs = {41.0, 40.9, 41.5};
    for (uint32_t i = 0; i < 3; ++i)
    {
        for (uint32_t step = 0; step < 14; ++step)
        {
            a.phases.push_back({i, step, i * 41.0 + step, 0.5 + 0.1 * step});
        }
    }
    RunResults::JobResult b;
    b.name = "b";
    b.completed = false;
    b.jctMs = 99;
    b.iterationMs = {10};
    r.jobs = {a, b};
    for (int i = 1; i <= 100; ++i)
    {
        r.flows.push_back({i % 2 ? "rpc" : "storage,x", 1, 2, 1000u * i, 0.5 * i, 10.0 * i, 10.0});
    }
    r.flows.push_back({"rpc", 3, 4, 10, 1, 5, 0}); // no ideal FCT: no slowdown
    for (int i = 1; i <= 1000; ++i)
    {
        r.packetLatencyUs.Add(i / 10.0);
    }
    r.network = {1, 12, 340, 80, 2};
    for (int i = 0; i < 15; ++i)
    {
        r.links.push_back({"l" + std::to_string(i), (i % 5) / 10.0});
    }
    r.sim = {130.0, 4.2346, 1234567, "completed"};
    return r;
}

std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

std::vector<std::string>
ListDir(const std::string& dir)
{
    std::vector<std::string> names;
    DIR* d = ::opendir(dir.c_str());
    while (d)
    {
        dirent* e = ::readdir(d);
        if (!e)
        {
            break;
        }
        const std::string name = e->d_name;
        if (name != "." && name != "..")
        {
            names.push_back(name);
        }
    }
    if (d)
    {
        ::closedir(d);
    }
    std::sort(names.begin(), names.end());
    return names;
}

class TempDir
{
  public:
    TempDir()
    {
        char name[] = "/tmp/flux-results-XXXXXX";
        m_path = ::mkdtemp(name);
    }

    ~TempDir()
    {
        for (const auto& n : ListDir(m_path))
        {
            const std::string p = m_path + "/" + n;
            if (::unlink(p.c_str()) != 0)
            {
                ::rmdir(p.c_str());
            }
        }
        ::rmdir(m_path.c_str());
    }

    const std::string& Path() const
    {
        return m_path;
    }

  private:
    std::string m_path;
};

} // namespace

// The contract's fields are present, in a stable order, with the values the
// measurements imply.
TEST(ResultsWriter, ContractFields)
{
    const ojson j = ResultsWriter::ToJson(Sample());
    std::vector<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it)
    {
        keys.push_back(it.key());
    }
    EXPECT_EQ(keys,
              (std::vector<std::string>{"policy",
                                        "seed",
                                        "seeds",
                                        "ecmp",
                                        "scheduler",
                                        "transport",
                                        "jobs",
                                        "flows",
                                        "packet_latency_us",
                                        "network",
                                        "sim",
                                        "backend",
                                        "backend_limits"}));
    EXPECT_EQ(j["policy"], "fifo");
    EXPECT_EQ(j["seed"], 7);
    EXPECT_EQ(j["seeds"], ojson::parse(R"({"ecmp": 7, "background": 3, "placement": 7})"));
    EXPECT_EQ(j["ecmp"], ojson::parse(R"({"shared_links": 2, "job_pairs": 1})"));
    EXPECT_EQ(j["transport"], ojson::parse(R"({"cc": "timely"})"));
    EXPECT_EQ(j["jobs"][0]["links"], ojson({"h0->s0", "s0->h1"}));
    EXPECT_EQ(j["jobs"][1]["links"], ojson::array());

    const auto& a = j["jobs"][0];
    EXPECT_EQ(a["name"], "a");
    EXPECT_EQ(a["completed"], true);
    EXPECT_EQ(a["iterations"], 3);
    EXPECT_EQ(a["jct_ms"].get<double>(), 123.4); // rounded to the nanosecond
    EXPECT_EQ(a["iteration_ms"], ojson({41.0, 40.9, 41.5}));
    EXPECT_EQ(a["phase_ms"]["count"], 42);
    EXPECT_DOUBLE_EQ(a["phase_ms"]["p50"].get<double>(), 1.1); // 21st of 42: step 6
    EXPECT_DOUBLE_EQ(a["phase_ms"]["p99"].get<double>(), 1.8);
    EXPECT_DOUBLE_EQ(a["phase_ms"]["max"].get<double>(), 1.8);
    const auto& b = j["jobs"][1];
    EXPECT_EQ(b["completed"], false);
    EXPECT_TRUE(b["jct_ms"].is_null()); // an unfinished job has no JCT
    EXPECT_EQ(b["phase_ms"]["count"], 0);
    EXPECT_TRUE(b["phase_ms"]["p50"].is_null());

    const auto& flows = j["flows"];
    EXPECT_EQ(flows["count"], 101);
    // Slowdowns 1..100 (the flow without an ideal FCT is left out).
    EXPECT_DOUBLE_EQ(flows["fct_slowdown"]["p50"].get<double>(), 50);
    EXPECT_DOUBLE_EQ(flows["fct_slowdown"]["p99"].get<double>(), 99);
    EXPECT_DOUBLE_EQ(flows["fct_slowdown"]["p999"].get<double>(), 100);
    EXPECT_EQ(flows["tenants"]["rpc"]["count"], 51);
    EXPECT_DOUBLE_EQ(flows["tenants"]["rpc"]["fct_slowdown"]["p50"].get<double>(), 49);
    EXPECT_EQ(flows["tenants"]["storage,x"]["count"], 50);
    EXPECT_DOUBLE_EQ(flows["tenants"]["storage,x"]["fct_slowdown"]["p999"].get<double>(), 100);
    EXPECT_EQ(flows["tenants"].begin().key(), "rpc");

    const auto& lat = j["packet_latency_us"];
    EXPECT_EQ(lat["count"], 1000);
    EXPECT_DOUBLE_EQ(lat["p50"].get<double>(), 50.0);
    EXPECT_DOUBLE_EQ(lat["p999"].get<double>(), 99.9);
    EXPECT_DOUBLE_EQ(lat["max"].get<double>(), 100.0);
    EXPECT_DOUBLE_EQ(lat["mean"].get<double>(), 50.05);

    const auto& net = j["network"];
    EXPECT_EQ(net["drops"], 1);
    EXPECT_EQ(net["pfc_pauses"], 12);
    EXPECT_EQ(net["ecn_marks"], 340);
    EXPECT_EQ(net["cnps"], 80);
    EXPECT_EQ(net["retransmissions"], 2);
    ASSERT_EQ(net["busiest_links"].size(), ResultsWriter::kBusiestLinks);
    EXPECT_EQ(net["busiest_links"][0]["link"], "l14"); // 0.4, ties by name: l14 < l4 < l9
    EXPECT_EQ(net["busiest_links"][1]["link"], "l4");
    EXPECT_EQ(net["busiest_links"][2]["link"], "l9");
    EXPECT_DOUBLE_EQ(net["busiest_links"][0]["utilization"].get<double>(), 0.4);
    EXPECT_DOUBLE_EQ(net["busiest_links"][9]["utilization"].get<double>(), 0.1);

    EXPECT_DOUBLE_EQ(j["sim"]["simulated_ms"].get<double>(), 130.0);
    EXPECT_DOUBLE_EQ(j["sim"]["wall_s"].get<double>(), 4.235); // ms resolution
    EXPECT_EQ(j["sim"]["events"], 1234567);
    EXPECT_EQ(j["sim"]["stop_reason"], "completed");
}

// Empty results still carry every field, with null statistics.

// A backend's limits leave their fields out (never a zero), at any depth:
// an object's key, every element of an array, every value of an object.
TEST(ResultsWriter, BackendLimitsLeaveFieldsOut)
{
    RunResults r = Sample();
    r.backend = "flow";
    r.backendLimits = {"packet_latency_us", "network.pfc_pauses", "jobs[].retransmissions"};
    const ojson j = ResultsWriter::ToJson(r);
    EXPECT_EQ(j["backend"], "flow");
    EXPECT_EQ(j["backend_limits"].size(), 3u);
    EXPECT_FALSE(j.contains("packet_latency_us"));
    EXPECT_FALSE(j["network"].contains("pfc_pauses"));
    EXPECT_TRUE(j["network"].contains("ecn_marks"));
    ASSERT_FALSE(j["jobs"].empty());
    for (const auto& job : j["jobs"])
    {
        EXPECT_FALSE(job.contains("retransmissions"));
        EXPECT_TRUE(job.contains("jct_ms"));
    }
    const ojson packet = ResultsWriter::ToJson(Sample());
    EXPECT_EQ(packet["backend"], "packet");
    EXPECT_TRUE(packet["backend_limits"].empty());
    EXPECT_TRUE(packet["network"].contains("pfc_pauses"));
    // no congestion control ran where transport.cc is among the limits
    EXPECT_EQ(j["transport"], ojson::parse(R"({"cc": "timely"})"));
    r.backendLimits.push_back("transport.cc");
    EXPECT_EQ(ResultsWriter::ToJson(r)["transport"], ojson::object());
}

TEST(ResultsWriter, EmptyResults)
{
    RunResults r;
    const ojson j = ResultsWriter::ToJson(r);
    EXPECT_EQ(j["flows"]["count"], 0);
    EXPECT_TRUE(j["flows"]["fct_slowdown"]["p99"].is_null());
    EXPECT_TRUE(j["flows"]["tenants"].is_object());
    EXPECT_EQ(j["packet_latency_us"]["count"], 0);
    EXPECT_TRUE(j["packet_latency_us"]["mean"].is_null());
    EXPECT_TRUE(j["network"]["busiest_links"].is_array());
    EXPECT_TRUE(j["jobs"].is_array());
    EXPECT_EQ(ResultsWriter::IterationsCsv(r), "job,iteration,iteration_ms\n");
}

// The PFC watchdog's counters are written when the switches ran watchdogs,
// and only then (results of runs without them keep their fields).
TEST(ResultsWriter, PfcWatchdogCounters)
{
    RunResults r;
    const ojson without = ResultsWriter::ToJson(r);
    EXPECT_FALSE(without["network"].contains("pfc_watchdog_storms"));
    r.network.pfcWatchdog = true;
    r.network.pfcWatchdogStorms = 5;
    r.network.pfcWatchdogRestorations = 4;
    r.network.pfcWatchdogDrops = 1200;
    r.network.pfcWatchdogForwarded = 7;
    r.sim.stopReason = "stalled";
    const ojson j = ResultsWriter::ToJson(r);
    const auto& net = j["network"];
    EXPECT_EQ(net["pfc_watchdog_storms"], 5);
    EXPECT_EQ(net["pfc_watchdog_restorations"], 4);
    EXPECT_EQ(net["pfc_watchdog_drops"], 1200);
    EXPECT_EQ(net["pfc_watchdog_forwarded"], 7);
    EXPECT_EQ(j["sim"]["stop_reason"], "stalled");
}

// Link-fault counters and the PFC breakdowns: written as given, the
// breakdowns as objects in the order given (empty objects when none).
TEST(ResultsWriter, LinkFaultsAndPfcBreakdowns)
{
    RunResults r;
    ojson j = ResultsWriter::ToJson(r);
    EXPECT_EQ(j["network"]["link_down_drops"], 0);
    EXPECT_EQ(j["network"]["route_updates"], 0);
    EXPECT_TRUE(j["network"]["pfc_pauses_by_tier"].is_object());
    EXPECT_TRUE(j["network"]["pfc_pauses_by_tier"].empty());
    EXPECT_TRUE(j["network"]["pfc_pauses_by_link"].is_object());

    r.network.linkDownDrops = 5;
    r.network.linkStateChanges = 4;
    r.network.routeUpdates = 2;
    r.network.pfcPausesByTier = {{"host->edge", 3}, {"edge->agg", 0}, {"agg->edge", 9}};
    r.network.pfcPausesByLink = {{"pod0-agg1->pod0-edge0", 9}, {"host5->pod0-edge2", 3}};
    j = ResultsWriter::ToJson(r);
    const auto& net = j["network"];
    EXPECT_EQ(net["link_down_drops"], 5);
    EXPECT_EQ(net["link_state_changes"], 4);
    EXPECT_EQ(net["route_updates"], 2);
    std::vector<std::string> kinds;
    for (auto it = net["pfc_pauses_by_tier"].begin(); it != net["pfc_pauses_by_tier"].end(); ++it)
    {
        kinds.push_back(it.key());
    }
    EXPECT_EQ(kinds, (std::vector<std::string>{"host->edge", "edge->agg", "agg->edge"}));
    EXPECT_EQ(net["pfc_pauses_by_tier"]["agg->edge"], 9);
    EXPECT_EQ(net["pfc_pauses_by_link"].begin().key(), "pod0-agg1->pod0-edge0");
    EXPECT_EQ(net["pfc_pauses_by_link"]["host5->pod0-edge2"], 3);
}

// The CSV companions hold one row per iteration, phase and flow, quoted as needed.
TEST(ResultsWriter, Csv)
{
    const RunResults r = Sample();
    const std::string it = ResultsWriter::IterationsCsv(r);
    EXPECT_EQ(it, "job,iteration,iteration_ms\na,0,41.0\na,1,40.9\na,2,41.5\nb,0,10.0\n");
    const std::string ph = ResultsWriter::PhasesCsv(r);
    EXPECT_EQ(
        ph.rfind("job,iteration,step,start_ms,duration_ms\na,0,0,0.0,0.5\na,0,1,1.0,0.6\n", 0),
        0u);
    EXPECT_EQ(std::count(ph.begin(), ph.end(), '\n'), 43);
    const std::string fl = ResultsWriter::FlowsCsv(r);
    EXPECT_EQ(fl.rfind("tenant,src,dst,size_bytes,start_ms,fct_us,ideal_fct_us,slowdown\n"
                       "rpc,1,2,1000,0.5,10.0,10.0,1.0\n"
                       "\"storage,x\",1,2,2000,1.0,20.0,10.0,2.0\n",
                       0),
              0u)
        << fl;
    EXPECT_NE(fl.find("\nrpc,3,4,10,1.0,5.0,0.0,\n"), std::string::npos); // no slowdown
    EXPECT_EQ(ResultsWriter::Stem("out/run-results.json"), "out/run-results");
    EXPECT_EQ(ResultsWriter::Stem("out/run"), "out/run");
}

// Writing creates the results file and its three CSV files, leaves no
// temporary file, and the same results give byte-identical files.
TEST(ResultsWriter, WritesReproducibleFiles)
{
    TempDir d1;
    TempDir d2;
    const RunResults r = Sample();
    ResultsWriter::Write(r, d1.Path() + "/x-results.json");
    ResultsWriter::Write(Sample(), d2.Path() + "/x-results.json");
    const std::vector<std::string> expected = {"x-results-flows.csv",
                                               "x-results-iterations.csv",
                                               "x-results-phases.csv",
                                               "x-results.json"};
    EXPECT_EQ(ListDir(d1.Path()), expected);
    for (const auto& name : expected)
    {
        EXPECT_EQ(ReadFile(d1.Path() + "/" + name), ReadFile(d2.Path() + "/" + name)) << name;
    }
    const std::string text = ReadFile(d1.Path() + "/x-results.json");
    EXPECT_EQ(text, ResultsWriter::ToJsonText(r));
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(nlohmann::json::parse(text)["jobs"][0]["name"], "a");
    // Overwriting replaces the files in full.
    RunResults r2 = r;
    r2.seed = 8;
    ResultsWriter::Write(r2, d1.Path() + "/x-results.json");
    EXPECT_EQ(ReadFile(d1.Path() + "/x-results.json"), ResultsWriter::ToJsonText(r2));
    EXPECT_EQ(ListDir(d1.Path()), expected);
}

// A failed write throws a one-line error and leaves neither a results file
// nor a temporary file behind.
TEST(ResultsWriter, FailureLeavesNoPartialFile)
{
    TempDir d;
    EXPECT_THROW(ResultsWriter::Write(Sample(), d.Path() + "/missing/r.json"), std::runtime_error);
    EXPECT_TRUE(ListDir(d.Path()).empty());

    // The results path is a folder: the rename fails at the last step.
    const std::string target = d.Path() + "/r.json";
    ASSERT_EQ(::mkdir(target.c_str(), 0755), 0);
    ASSERT_EQ(::mkdir((target + "/keep").c_str(), 0755), 0);
    try
    {
        ResultsWriter::Write(Sample(), target);
        FAIL() << "no error";
    }
    catch (const std::runtime_error& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(target + ": cannot write", 0), 0u) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos);
    }
    for (const auto& name : ListDir(d.Path()))
    {
        EXPECT_EQ(name.find(".tmp-"), std::string::npos) << name;
    }
    ::rmdir((target + "/keep").c_str());
}
