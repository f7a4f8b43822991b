/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * flux-run: run one scenario file and write its results.
 *
 *     flux-run SCENARIO.json [--out RESULTS.json] [--policy NAME] [--seed N]
 *              [--seed-ecmp N] [--seed-background N] [--seed-placement N]
 *              [--set KEY=VALUE]... [--pcap DIR] [--quiet] [--backend packet|flow]
 *              [--timeline FILE.json]
 *     flux-run SCENARIO.json --bound [--out BOUND.json] [--policy NAME] [--seed N]
 *              [--seed-ecmp N] [--seed-background N] [--seed-placement N]
 *              [--set KEY=VALUE]... [--quiet]
 *     flux-run --list-policies
 *
 * - The results go to RESULTS.json, by default `<stem>-results.json` in the
 *   scenario's folder (`runs/a.json` -> `runs/a-results.json`), with the CSV
 *   files `<results stem>-iterations.csv`, `-phases.csv` and `-flows.csv`
 *   beside it (see ResultsWriter).
 * - --policy and --seed replace scheduler.policy and seed in the scenario
 *   before it is validated; --seed-ecmp, --seed-background and
 *   --seed-placement set seeds.ecmp, seeds.background and seeds.placement
 *   (one random source's seed in place of seed).
 * - --set KEY=VALUE sets any key by its dotted path (ApplySet), after
 *   --policy and --seed, before the checks; a bad key or value is reported
 *   as the scenario's would be.
 * - --pcap DIR writes one Ethernet pcap per host NIC into DIR (created if
 *   needed).
 * - A scenario that names the HPCC simulator's files ("hpcc", see
 *   hpcc-import.h) prints one line `flux-run: warning: hpcc: ...` listing
 *   what they hold that has no counterpart here, and writes
 *   `<results stem>-fct.txt` in that simulator's FCT format.
 * - --backend flow runs the same scenario at flow level (FluidNetwork): the
 *   same results schema, without the fields a fluid model cannot know
 *   (listed in the results' backend_limits). The default is packet.
 * - --timeline FILE.json also writes the run's timeline as a Chrome
 *   trace-event file (TimelineWriter; Perfetto and chrome://tracing open
 *   it): one process per job with a track per rank (compute, collective
 *   runs, their steps, the time held at the scheduler's gate) and a track
 *   of iterations and class changes, the traced links' utilisation and
 *   queue, the background tenants' flows. Its path is checked like --out's
 *   before the run; not with --bound, nor under MPI on several processes.
 * - --bound computes the scenario's bound and best schedule instead of
 *   running it (ComputeBound, doc/bound.rst): each job alone, a lower bound
 *   on the mean JCT and on the worst iteration, the best strict-priority
 *   or fair-sharing schedule of a search, and the scenario under fifo and
 *   under its policy, all from flow-level runs. The bound JSON (see
 *   BoundWriter) goes to BOUND.json, by default `<stem>-bound.json` in the
 *   scenario's folder, written whole or not at all; no CSV files. --policy
 *   and --seed act as for a run; --pcap and --backend packet do not apply.
 *   Progress lines (`flux-run: bound: schedule 12 of at most 120, best mean JCT ...`)
 *   go to stderr once it has lasted 2 s; once the bound is written, its
 *   summary goes to stdout (FormatBoundSummary; --quiet silences both).
 * - --list-cc prints the registered congestion controls (transport.cc), one
 *   per line; with --verbose, each with its transport.<name> keys;
 *   --describe-cc NAME prints one's keys.
 * - --schema prints the scenario schema (scenario/config/scenario.schema.json).
 * - --plugin LIB.so (repeatable), and before it the libraries of
 *   FLUX_PLUGINS (A.so:B.so), load one's own policies and congestion
 *   controls first (LoadFluxPlugin), for every other option to see.
 * - --version prints `flux-run <flux's release> (ns-3 <release>)`: the
 *   VERSION file and the ns-3 the runner was built against, which the
 *   results also record (sim.flux_version, sim.ns3_version).
 * - --list-policies prints the policies that --policy and scheduler.policy
 *   accept (ScenarioConfig::AvailablePolicies), one name per line, and exits
 *   with status 0; scripts that compare policies take the list from here.
 * - Progress (simulated time, wall-clock time, estimated time left) goes to
 *   stderr once the run has lasted 2 s: refreshed in place at most twice a
 *   second on a terminal, one line every 10 s otherwise. Once the results
 *   are written, a summary of one screen goes to stdout (FormatRunSummary:
 *   each job, each background tenant, the fabric's counters). --quiet
 *   silences both.
 * - With the environment variable FLUX_TIMING=1, a last stderr line
 *   `flux-run: timing parse_s=... build_s=... run_s=... collect_s=...
 *   teardown_s=... write_s=... total_s=... outside_run_pct=... frames=...
 *   data_frames=... run_cpu_s=...` gives the wall-clock time of each phase
 *   (run_s: Simulator::Run() alone; total_s: from the start of main to the
 *   results written), the share of the runner's own work in total_s, the
 *   run's packet-hops (frames sent by all devices, and the data frames among
 *   them: IPv4 frames outside the control class, so no ACK, CNP or PFC) and
 *   the CPU time of the process during Simulator::Run().
 *
 * - Under mpirun (ns-3 built with --enable-mpi and flux in contrib/), the
 *   fabric is split over the processes by pod or leaf; rank 0 prints the
 *   progress and writes the results, the same for any number of processes:
 *       mpirun -np 4 flux-run SCENARIO.json --out RESULTS.json
 *   A build without MPI started by mpirun exits with status 2. A run whose
 *   estimated time left passes ten minutes suggests it, once.
 *
 * Exit status: 0 results (or bound) written; 2 bad scenario or bad command
 * line (one line `flux-run: <field>: <problem>` on stderr, nothing written);
 * 1 the run, the bound (a job that does not complete alone) or the writing
 * failed, nothing written; 130 interrupted (SIGINT/SIGTERM; a second signal
 * kills at once), nothing written.
 */

#include "ns3/bound-writer.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/flux-plugin.h"
#include "ns3/flux-version.h"
#include "ns3/ib-bth-header.h"
#include "ns3/memory-estimate.h"
#include "ns3/output-file.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/results-writer.h"
#include "ns3/run-summary.h"
#include "ns3/scenario-bound.h"
#include "ns3/scenario-cc-keys.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-json.h"
#include "ns3/scenario-keys.h"
#include "ns3/scenario-policy-keys.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario-scheduler.h"
#include "ns3/timeline-writer.h"
#include "ns3/traffic-class.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>

#ifdef FLUX_TCMALLOC
#include <sys/mman.h>

/// gperftools' C interface (malloc_extension_c.h) of the allocator linked in.
extern "C" int MallocExtension_SetNumericProperty(const char* property, size_t value);
#endif

using namespace ns3;

namespace
{

std::atomic<bool> g_cancel{false}; //!< set by SIGINT / SIGTERM

#ifdef FLUX_TCMALLOC
/**
 * \brief Back the heap a run grows into with transparent huge pages.
 * \param bytes the run's estimated peak memory beyond the process's own
 *
 * One block of that size is taken from tcmalloc, marked MADV_HUGEPAGE and
 * given back at once, untouched: tcmalloc keeps it and carves the run's
 * objects out of it, so that the kernel fills it 2 MB at a time. A run
 * takes a fraction of the page faults and TLB misses it would take with
 * 4 KB pages (bench/README.md, "Huge pages"). Where transparent huge
 * pages are off ("never"), the mark does nothing; FLUX_HUGE_PAGES=0 skips
 * it. Huge pages are filled whole, so the peak memory grows a little
 * (2 MB of 65 on the 1024-host bench).
 */
void
ReserveHugePages(double bytes)
{
    const char* env = std::getenv("FLUX_HUGE_PAGES");
    if ((env && std::string(env) == "0") || bytes <= 0)
    {
        return;
    }
    std::size_t huge = 0;
    std::ifstream("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size") >> huge;
    if (huge == 0)
    {
        return; // (no transparent huge pages in this kernel)
    }
    // (two huge pages more: the rest of bytes, and the alignment of the
    // block's start; tcmalloc_minimal reports no large allocation)
    const auto size = (static_cast<std::size_t>(bytes) / huge + 2) * huge;
    void* block = std::malloc(size);
    if (!block)
    {
        return;
    }
    const auto at = reinterpret_cast<std::uintptr_t>(block);
    const std::uintptr_t begin = (at + huge - 1) / huge * huge;
    const std::uintptr_t end = (at + size) / huge * huge;
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    std::free(block);
}

/**
 * \brief Set tcmalloc up for the level a run simulates.
 * \param fluid whether the run (or the bound) is at flow level
 * \param cfg the scenario, for its memory estimate
 *
 * At packet level tcmalloc gives freed pages back to the system at once:
 * frames and packets of many sizes come and go, and the peak memory stays
 * the C library's (huge pages, which that splits, would cost memory and
 * gain nothing there). The flow level frees little until the end: its
 * heap gets huge pages (ReserveHugePages).
 */
void
TuneAllocator(bool fluid, const ScenarioConfig& cfg)
{
    if (fluid)
    {
        ReserveHugePages(MemoryEstimate::Bytes(cfg, true) - MemoryEstimate::kBaseBytes);
    }
    else
    {
        MallocExtension_SetNumericProperty("tcmalloc.aggressive_memory_decommit", 1);
    }
}
#endif

const char* const kUsage =
    "usage: flux-run SCENARIO.json [--out RESULTS.json] [--policy NAME] [--seed N]\n"
    "                [--seed-ecmp N] [--seed-background N] [--seed-placement N]\n"
    "                [--set KEY=VALUE]...\n"
    "                [--pcap DIR [--pcap-hosts LIST] [--pcap-snaplen BYTES]\n"
    "                [--pcap-window START:STOP]] [--quiet] [--backend packet|flow]\n"
    "                [--timeline FILE.json]\n"
    "       flux-run SCENARIO.json --bound [--out BOUND.json] [--policy NAME] [--seed N]\n"
    "                [--seed-ecmp N] [--seed-background N] [--seed-placement N]\n"
    "                [--set KEY=VALUE]... [--quiet]\n"
    "       flux-run SCENARIO.json --check [--policy NAME] [--seed N] [--set KEY=VALUE]...\n"
    "       flux-run --list-policies [--verbose]\n"
    "       flux-run --describe-policy NAME\n"
    "       flux-run --list-cc [--verbose] | --describe-cc NAME\n"
    "       flux-run --schema\n"
    "       flux-run --version\n"
    "\n"
    "Run a flux scenario and write its results (JSON and CSV files), or with\n"
    "--bound its bound and best schedule (JSON).\n"
    "\n"
    "  --out FILE.json     results file (default: <scenario stem>-results.json\n"
    "                      in the scenario's folder; with --bound,\n"
    "                      <scenario stem>-bound.json)\n"
    "  --policy NAME       scheduling policy, replaces scheduler.policy\n"
    "  --seed N            random seed, replaces seed\n"
    "  --seed-ecmp N       seed of the ECMP hash and the jobs' source ports only\n"
    "                      (seeds.ecmp); --seed-background N: of the background\n"
    "                      tenants (seeds.background); --seed-placement N: of\n"
    "                      random placement (seeds.placement)\n"
    "  --set KEY=VALUE     set a scenario key before the checks (dotted path, e.g.\n"
    "                      scheduler.path_placement=false, jobs.0.iterations=2 or\n"
    "                      jobs[0].iterations=2; VALUE is JSON, or a string);\n"
    "                      repeatable\n"
    "  --pcap DIR          write one Ethernet pcap per host NIC into DIR; each\n"
    "                      frame costs its length (at most the snap length) + 16\n"
    "                      bytes: a busy 100 Gb/s host about 25 MB per simulated\n"
    "                      ms. Narrow it with --pcap-hosts LIST (\"0,3,8-11\"),\n"
    "                      --pcap-snaplen BYTES (e.g. 128: headers only) and\n"
    "                      --pcap-window START:STOP (ms; \"2:\" for no end)\n"
    "  --quiet             no progress (stderr) nor summary (stdout)\n"
    "  --backend MODEL     packet (default: every frame) or flow (messages as fluid\n"
    "                      flows on the same paths; fields it cannot know are absent\n"
    "                      and listed in backend_limits)\n"
    "  --timeline FILE.json  also write the run's timeline (Chrome trace events:\n"
    "                      open it in ui.perfetto.dev or chrome://tracing)\n"
    "  --bound             compute, from flow-level runs, each job alone, a lower\n"
    "                      bound on the mean JCT and the worst iteration, and the\n"
    "                      best priority schedule of a search (doc/bound.rst)\n"
    "  --check             check the scenario (with the overrides given) as a run\n"
    "                      would, building it, print it valid with its memory\n"
    "                      estimate and exit: nothing is run or written\n"
    "  --list-policies     print the available policies, one per line, and exit;\n"
    "                      with --verbose, each with its scheduler keys\n"
    "  --describe-policy NAME  print the scheduler keys of a policy (type, default,\n"
    "                      accepted values, help) and exit\n"
    "  --list-cc           print the congestion controls (transport.cc), one per\n"
    "                      line, and exit; with --verbose, each with its keys\n"
    "  --describe-cc NAME  print the transport.<NAME> keys of a congestion control\n"
    "                      and exit\n"
    "  --schema            print the scenario schema (JSON Schema: every key with\n"
    "                      its type, range, default, unit and meaning) and exit\n"
    "  --version           print flux's release and the ns-3 release it was built\n"
    "                      against, and exit\n"
    "  --plugin LIB.so     first load a library of one's own policies or congestion\n"
    "                      controls (FLUX_REGISTER_POLICY, FLUX_REGISTER_CC);\n"
    "                      repeatable. FLUX_PLUGINS=A.so:B.so loads libraries\n"
    "                      before these\n"
    "  -h, --help          show this help\n"
    "\n"
    "An option given twice counts once, with its last value (--set: each key's\n"
    "last value; --plugin: each library).\n"
    "\n"
    "Exit status: 0 success, 2 bad scenario or command line, 1 run (or bound)\n"
    "failure, 130 interrupted.\n";

/**
 * \param name a name that is not registered
 * \param registered a registry's list
 * \param what the registry's kind
 * \param list the option that lists them
 * \return the problem, with the nearest registered name if there is one
 */
std::string
NotKnownName(const std::string& name,
             const std::vector<std::pair<std::string, std::string>>& registered,
             const std::string& what,
             const std::string& list)
{
    std::vector<std::string> names;
    for (const auto& entry : registered)
    {
        names.push_back(entry.first);
    }
    const std::string nearest = scenario::NearestName(name, names);
    return "\"" + name + "\" is not a known " + what + " (" +
           (nearest.empty() ? "" : "did you mean \"" + nearest + "\"?; ") + "see " + list + ")";
}

/**
 * \brief Load the libraries of FLUX_PLUGINS, then those of --plugin; warn
 * of one that registers no policy nor congestion control.
 * \param plugins the --plugin values, in order
 */
void
LoadPlugins(const std::vector<std::string>& plugins)
{
    std::vector<FluxPlugin> loaded = LoadFluxPluginsFromEnvironment();
    for (const auto& path : plugins)
    {
        loaded.push_back(LoadFluxPlugin(path, "--plugin"));
    }
    for (const auto& plugin : loaded)
    {
        if (plugin.policies.empty() && plugin.algorithms.empty() && !plugin.loadedBefore &&
            FabricRanks::GetRank() == 0)
        {
            std::cerr << "flux-run: warning: " << plugin.path
                      << " registers no policy nor congestion control (no FLUX_REGISTER_POLICY "
                         "or FLUX_REGISTER_CC line?)"
                      << std::endl;
        }
    }
}

/**
 * \brief Print a policy's scheduler keys (--describe-policy, --list-policies
 * --verbose): the name and TypeId, then per key its type, default, accepted
 * values and the attribute's help.
 * \param policy a registered policy
 */
void
DescribePolicy(const std::string& policy)
{
    std::cout << policy << " (" << JobScheduler::GetPolicyTypeName(policy) << ")\n";
    const auto keys = scenario::GetPolicyKeys(policy);
    if (keys.empty())
    {
        std::cout << "  no keys besides \"policy\"\n";
    }
    for (const auto& k : keys)
    {
        std::cout << "  " << k.key << ": " << k.type << ", default " << k.defaultValue << ", "
                  << k.range << " (" << k.attribute << ")\n      " << k.help << '\n';
    }
}

/**
 * \brief Print a congestion control's transport.<name> keys (--describe-cc,
 * --list-cc --verbose), as DescribePolicy does.
 * \param name a registered congestion control
 */
void
DescribeCc(const std::string& name)
{
    std::cout << name << " (" << RdmaCongestionControl::GetAlgorithmTypeName(name) << ")\n";
    if (name == "dcqcn")
    {
        std::cout << "  transport.dcqcn keeps its own keys (profile, ...), see doc/scenario.rst\n";
    }
    for (const auto& k : scenario::GetCcKeys(name))
    {
        std::cout << "  " << k.key << ": " << k.type << ", default " << k.defaultValue << ", "
                  << k.range << " (" << k.attribute << ")\n      " << k.help << '\n';
    }
}

void
OnSignal(int sig)
{
    g_cancel.store(true);
    std::signal(sig, SIG_DFL); // a second signal terminates at once
}

/// Print `flux-run: <message>` on one line and return the exit status.
int
Error(int status, const std::string& message)
{
    std::string line = message;
    for (char& c : line)
    {
        if (c == '\n' || c == '\r' || c == '\t')
        {
            c = ' ';
        }
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        {
            c = '?'; // no control character reaches the terminal
        }
    }
    if (FabricRanks::GetRank() == 0) // under MPI every process fails alike
    {
        std::cerr << "flux-run: " << line << std::endl;
    }
    return status;
}

/// Command-line settings.
struct Args
{
    std::string scenario;          //!< scenario file
    std::string out;               //!< results file (empty: default)
    std::string policy;            //!< --policy (empty: none)
    std::string seed;              //!< --seed (empty: none)
    std::string pcapDir;           //!< --pcap (empty: none)
    std::string pcapHosts;         //!< --pcap-hosts (empty: all)
    std::string pcapSnapLen;       //!< --pcap-snaplen (empty: whole frames)
    std::string pcapWindow;        //!< --pcap-window (empty: the whole run)
    std::string timeline;          //!< --timeline (empty: none)
    std::string backend{"packet"}; //!< --backend
    bool backendGiven{false};      //!< --backend was given
    bool bound{false};             //!< --bound
    bool check{false};             //!< --check
    bool quiet{false};             //!< --quiet
    bool help{false};              //!< --help
    bool version{false};           //!< --version
    bool listPolicies{false};      //!< --list-policies
    bool verbose{false};           //!< --verbose (with --list-policies)
    std::string describePolicy;    //!< --describe-policy (empty: none)
    bool listCc{false};            //!< --list-cc
    bool schema{false};            //!< --schema
    std::string describeCc;        //!< --describe-cc (empty: none)
    /// --seed-ecmp, --seed-background, --seed-placement: (seeds key, value)
    std::vector<std::pair<std::string, std::string>> seeds;
    std::vector<std::string> sets;    //!< --set KEY=VALUE, in order
    std::vector<std::string> plugins; //!< --plugin LIB, in order
};

/**
 * \brief Apply one --set KEY=VALUE to the scenario before it is validated.
 *
 * KEY is a dotted path ("scheduler.path_placement", "jobs.0.iterations", or
 * "jobs[0].iterations" as the runner's messages write it); objects on the way are created, array
 * elements must exist. VALUE is JSON
 * ("false", "3", "[1, 2]", "\"ns3::FluxQueueDisc\""), or a string when it
 * does not parse as JSON. The scenario's own checks then apply to it.
 *
 * \param scenario the scenario document
 * \param set the option's value
 */
void
ApplySet(nlohmann::json& scenario, const std::string& set)
{
    const auto eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw ScenarioError("--set", "expected KEY=VALUE, got \"" + set + "\"");
    }
    // the runner's messages name array elements "jobs[0].iterations": the
    // same spelling is taken for "jobs.0.iterations"
    std::string key;
    for (std::size_t i = 0; i < eq; ++i)
    {
        if (set[i] != '[' && set[i] != ']')
        {
            key += set[i];
            continue;
        }
        // "[digits]", followed by ".", "[" or "="
        const auto close = set.find(']', i);
        if (set[i] == ']' || close >= eq || close == i + 1 ||
            set.find_first_not_of("0123456789", i + 1) != close ||
            (close + 1 < eq && set[close + 1] != '.' && set[close + 1] != '['))
        {
            throw ScenarioError("--set",
                                "\"" + set.substr(0, eq) +
                                    "\": brackets hold an index, as in jobs[0].iterations");
        }
        key += '.' + set.substr(i + 1, close - i - 1);
        i = close;
    }
    const std::string text = set.substr(eq + 1);
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded())
    {
        value = text;
    }
    nlohmann::json* node = &scenario;
    std::size_t from = 0;
    while (true)
    {
        const auto dot = key.find('.', from);
        const std::string part = key.substr(from, dot == std::string::npos ? dot : dot - from);
        if (part.empty())
        {
            throw ScenarioError("--set", "\"" + key + "\" has an empty part");
        }
        nlohmann::json* next = nullptr;
        if (node->is_array())
        {
            if (part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9 ||
                std::stoul(part) >= node->size())
            {
                throw ScenarioError("--set " + key,
                                    "\"" + part + "\" is not an index of its array (size " +
                                        std::to_string(node->size()) + ")");
            }
            next = &(*node)[std::stoul(part)];
        }
        else
        {
            if (node->is_null())
            {
                *node = nlohmann::json::object();
            }
            if (!node->is_object())
            {
                throw ScenarioError("--set " + key,
                                    "\"" + part + "\" is inside a value that is not an object");
            }
            next = &(*node)[part];
        }
        if (dot == std::string::npos)
        {
            *next = value;
            return;
        }
        node = next;
        from = dot + 1;
    }
}

/**
 * \brief Check before running that a file can be written where it is asked.
 * \param field the option (or the default path) named in the message
 * \param path the file
 * \param scenario the scenario file, never overwritten
 *
 * Throws ScenarioError naming the field.
 */
void
CheckOutputPath(const std::string& field, const std::string& path, const std::string& scenario)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec) && fs::exists(path, ec) && fs::equivalent(path, scenario, ec))
    {
        throw ScenarioError(field,
                            (field == path ? "" : "\"" + path + "\" ") +
                                "would overwrite the scenario file");
    }
    const std::string problem = OutputPathProblem(path);
    if (!problem.empty())
    {
        throw ScenarioError(field, problem);
    }
}

/// Parse argv; throws ScenarioError naming the offending argument.
Args
ParseArgs(int argc, char** argv)
{
    Args args;
    for (int i = 1; i < argc; ++i)
    {
        std::string arg = argv[i];
        std::string value;
        bool hasValue = false;
        if (arg.rfind("--", 0) == 0)
        {
            const auto eq = arg.find('=');
            if (eq != std::string::npos)
            {
                value = arg.substr(eq + 1);
                arg = arg.substr(0, eq);
                hasValue = true;
            }
        }
        // (an option given twice: the last one counts, as in ns-3's
        // CommandLine, so that a wrapper's defaults can be overridden)
        auto takeValue = [&](std::string& dest) {
            if (!hasValue)
            {
                if (i + 1 >= argc)
                {
                    throw ScenarioError(arg, "needs a value (see --help)");
                }
                value = argv[++i];
            }
            if (value.empty())
            {
                throw ScenarioError(arg, "needs a non-empty value");
            }
            dest = value;
        };
        auto noValue = [&]() {
            if (hasValue)
            {
                throw ScenarioError(arg, "takes no value");
            }
        };
        if (arg == "-h" || arg == "--help" || arg == "--PrintHelp") // (ns-3's spelling too)
        {
            noValue();
            args.help = true;
        }
        else if (arg == "--version")
        {
            noValue();
            args.version = true;
        }
        else if (arg == "--list-policies")
        {
            noValue();
            args.listPolicies = true;
        }
        else if (arg == "--verbose")
        {
            noValue();
            args.verbose = true;
        }
        else if (arg == "--describe-policy")
        {
            takeValue(args.describePolicy);
        }
        else if (arg == "--list-cc")
        {
            noValue();
            args.listCc = true;
        }
        else if (arg == "--schema")
        {
            noValue();
            args.schema = true;
        }
        else if (arg == "--describe-cc")
        {
            takeValue(args.describeCc);
        }
        else if (arg == "--quiet")
        {
            noValue();
            args.quiet = true;
        }
        else if (arg == "--check")
        {
            noValue();
            args.check = true;
        }
        else if (arg == "--bound")
        {
            noValue();
            args.bound = true;
        }
        else if (arg == "--out")
        {
            takeValue(args.out);
        }
        else if (arg == "--policy")
        {
            takeValue(args.policy);
        }
        else if (arg == "--seed")
        {
            takeValue(args.seed);
        }
        else if (arg == "--seed-ecmp" || arg == "--seed-background" || arg == "--seed-placement")
        {
            takeValue(value);
            args.seeds.emplace_back(arg.substr(7), value);
        }
        else if (arg == "--set")
        {
            takeValue(value);
            args.sets.push_back(value);
        }
        else if (arg == "--pcap")
        {
            takeValue(args.pcapDir);
        }
        else if (arg == "--pcap-hosts")
        {
            takeValue(args.pcapHosts);
        }
        else if (arg == "--pcap-snaplen")
        {
            takeValue(args.pcapSnapLen);
        }
        else if (arg == "--pcap-window")
        {
            takeValue(args.pcapWindow);
        }
        else if (arg == "--timeline")
        {
            takeValue(args.timeline);
        }
        else if (arg == "--plugin")
        {
            std::string plugin;
            takeValue(plugin);
            args.plugins.push_back(plugin);
        }
        else if (arg == "--backend")
        {
            takeValue(args.backend);
            args.backendGiven = true;
        }
        else if (arg.size() > 1 && arg[0] == '-')
        {
            throw ScenarioError(arg, "unknown option (see --help)");
        }
        else if (args.scenario.empty())
        {
            args.scenario = arg;
        }
        else
        {
            throw ScenarioError(arg, "unexpected argument: only one scenario file is run");
        }
    }
    return args;
}

/**
 * \brief Print the scenario's warnings (an imported file's keys without a
 * counterpart, a lossy fabric's long timer) on stderr, one line each, from
 * the first process; those of the packet level only at that level.
 * \param cfg the scenario
 * \param backend the level run
 */
void
PrintWarnings(const ScenarioConfig& cfg, const std::string& backend)
{
    if (FabricRanks::GetRank() != 0)
    {
        return;
    }
    for (const auto& w : cfg.WarningsFor(backend))
    {
        std::cerr << "flux-run: warning: " << w << std::endl;
    }
}

/// Progress on stderr, throttled.
class Progress
{
  public:
    /**
     * \param enabled print progress
     * \param splittable the run could be split over MPI processes (the hint
     *        for long runs says how)
     */
    Progress(bool enabled, bool splittable)
        : m_enabled(enabled),
          m_tty(::isatty(STDERR_FILENO) != 0),
          m_splittable(splittable)
    {
    }

    void Update(double simMs, double wallS, double etaS)
    {
        if (!m_enabled || wallS < 2.0 || wallS - m_last < (m_tty ? 0.5 : 10.0))
        {
            return;
        }
        m_last = wallS;
        if (!m_hinted && m_splittable && etaS > kLongRunS && FabricRanks::GetNRanks() == 1)
        {
            // once: how to go faster
            m_hinted = true;
            Finish();
            std::fprintf(stderr,
                         "flux-run: a long run: %s\n",
                         FabricRanks::IsAvailable()
                             ? "mpirun -np N flux-run ... splits it over N processes, by pod "
                               "or leaf (README: Running on several processes)"
                             : "ns-3 built with MPI (scripts/build-in-tree.sh --mpi 3.37) runs "
                               "it over several processes with mpirun (README: Running on "
                               "several processes)");
        }
        char line[160];
        if (etaS >= 0)
        {
            std::snprintf(line,
                          sizeof(line),
                          "flux-run: simulated %.3f ms, wall %.1f s, ETA %.0f s",
                          simMs,
                          wallS,
                          etaS);
        }
        else
        {
            std::snprintf(line,
                          sizeof(line),
                          "flux-run: simulated %.3f ms, wall %.1f s, ETA unknown",
                          simMs,
                          wallS);
        }
        if (m_tty)
        {
            std::fprintf(stderr, "\r%-70s", line);
            m_shown = true;
        }
        else
        {
            std::fprintf(stderr, "%s\n", line);
        }
        std::fflush(stderr);
    }

    /// Clear the in-place line, if any.
    void Finish()
    {
        if (m_shown)
        {
            std::fprintf(stderr, "\r%-70s\r", "");
            std::fflush(stderr);
            m_shown = false;
        }
    }

  private:
    bool m_enabled;        //!< whether to print at all
    bool m_tty;            //!< whether stderr is a terminal
    bool m_splittable;     //!< the run could be split over MPI processes
    bool m_shown{false};   //!< whether an in-place line is on screen
    double m_last{-100.0}; //!< wall time of the last print, s
    bool m_hinted{false};  //!< the hint for long runs was printed
    /// An estimate of more wall time left than this suggests MPI, s.
    static constexpr double kLongRunS = 600;
};

/**
 * \brief Check --pcap-hosts, --pcap-snaplen and --pcap-window into opts
 * (before the pcap folder is made), and tell what the capture may cost.
 * \param args the command line
 * \param cfg the scenario
 * \param opts where the capture options go
 *
 * Throws ScenarioError naming the option.
 */
void
ReadPcapOptions(const Args& args, const ScenarioConfig& cfg, RunOptions& opts)
{
    const bool narrowed =
        !args.pcapHosts.empty() || !args.pcapSnapLen.empty() || !args.pcapWindow.empty();
    if (args.pcapDir.empty())
    {
        if (narrowed)
        {
            throw ScenarioError(!args.pcapHosts.empty()     ? "--pcap-hosts"
                                : !args.pcapSnapLen.empty() ? "--pcap-snaplen"
                                                            : "--pcap-window",
                                "needs --pcap DIR");
        }
        return;
    }
    if (!args.pcapHosts.empty())
    {
        opts.pcapHosts = ParsePcapHosts(args.pcapHosts);
        if (opts.pcapHosts.back() >= cfg.HostCount())
        {
            throw ScenarioError("--pcap-hosts",
                                "host " + std::to_string(opts.pcapHosts.back()) +
                                    " is not in the topology (hosts 0-" +
                                    std::to_string(cfg.HostCount() - 1) + ")");
        }
    }
    if (!args.pcapSnapLen.empty())
    {
        const std::string& v = args.pcapSnapLen;
        if (v.size() > 5 || v.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(v) < 64 || std::stoul(v) > 65535)
        {
            throw ScenarioError("--pcap-snaplen",
                                "expected bytes from 64 to 65535, got \"" + v + "\"");
        }
        opts.pcapSnapLen = static_cast<uint32_t>(std::stoul(v));
    }
    if (!args.pcapWindow.empty())
    {
        ParsePcapWindow(args.pcapWindow, opts);
        if (opts.pcapStartMs >= cfg.stopMs)
        {
            // the captures would all be empty
            throw ScenarioError("--pcap-window",
                                "starts at " +
                                    args.pcapWindow.substr(0, args.pcapWindow.find(':')) +
                                    " ms, not before the run's stop_ms");
        }
    }
    if (!args.quiet && FabricRanks::GetRank() == 0)
    {
        // a busy host sends and receives at line rate; each frame costs its
        // captured bytes and a 16-byte record header, and may bring an ACK
        // the other way (one per packet at most: HPCC's), captured too
        const uint32_t files =
            opts.pcapHosts.empty() ? cfg.HostCount() : static_cast<uint32_t>(opts.pcapHosts.size());
        const double frame = cfg.transport.mtuBytes + WireBytes::L2 + WireBytes::IP_UDP +
                             IbBthHeader::SIZE + IbBthHeader::ICRC_BYTES + WireBytes::FCS;
        const double ack = WireBytes::ACK_FRAME + WireBytes::FCS;
        const double kept = (std::min<double>(frame, opts.pcapSnapLen) + 16 +
                             std::min<double>(ack, opts.pcapSnapLen) + 16) /
                            (frame + 16);
        // each captured host at its own cables' rate ("links" fabrics mix them)
        const auto& t = cfg.topology;
        double gbps = 0;
        for (uint32_t i = 0; i < files; ++i)
        {
            const uint32_t h = opts.pcapHosts.empty() ? i : opts.pcapHosts[i];
            double host = t.kind == "links" ? 0 : t.hostGbps;
            for (const auto& l : t.kind == "links" ? t.links : decltype(t.links){})
            {
                // (a host beyond the fabric is refused when the run is built)
                const bool mine =
                    h < t.hostNodes.size() && (l.a == t.hostNodes[h] || l.b == t.hostNodes[h]);
                host += mine ? l.gbps : 0;
            }
            gbps += host;
        }
        const double mbPerMs = 2 * gbps / 8 * kept;
        // (two significant digits below 10 MB: a short snap length is not 0)
        std::fprintf(stderr,
                     mbPerMs >= 10 ? "flux-run: --pcap: %u files, up to %.0f MB per simulated ms "
                                     "while their links are busy both ways\n"
                                   : "flux-run: --pcap: %u files, up to %.2g MB per simulated ms "
                                     "while their links are busy both ways\n",
                     files,
                     mbPerMs);
    }
}

/**
 * \brief flux-run --bound: compute the bound, write it and, unless
 * quiet, print its summary (FormatBoundSummary) on stdout.
 * \param cfg the scenario
 * \param outPath the bound file
 * \param quiet no progress nor summary
 * \return the exit status
 */
int
Bound(const ScenarioConfig& cfg, const std::string& outPath, bool quiet)
{
    const auto wall0 = std::chrono::steady_clock::now();
    double last = -100;
    BoundOptions opts;
    opts.cancel = &g_cancel;
    opts.progress = [&](const std::string& stage, uint32_t done, uint32_t total, double bestMs) {
        const double wallS =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        if (quiet || wallS < 2.0 || wallS - last < 2.0)
        {
            return;
        }
        last = wallS;
        if (stage == "schedule")
        {
            // (the search may stop before its most: no ETA from the count)
            std::fprintf(stderr, "flux-run: bound: schedule %u of at most %u", done, total);
            if (std::isfinite(bestMs))
            {
                std::fprintf(stderr, ", best mean JCT %.3f ms", bestMs);
            }
        }
        else
        {
            std::fprintf(stderr, "flux-run: bound: %s %u/%u", stage.c_str(), done, total);
        }
        std::fprintf(stderr, ", wall %.1f s\n", wallS);
    };
    BoundResult bound;
    try
    {
        bound = ComputeBound(cfg, opts);
    }
    catch (const ScenarioError& e)
    {
        return Error(2, e.what());
    }
    catch (const std::exception& e)
    {
        return Error(1, std::string("bound failed: ") + e.what());
    }
    if (g_cancel.load() || bound.cancelled)
    {
        return Error(130, "interrupted; no bound written");
    }
    PrintWarnings(cfg, "flow"); // (once its runs built: bad input stays one line)
    try
    {
        BoundWriter::Write(bound, outPath);
    }
    catch (const std::exception& e)
    {
        return Error(1, e.what());
    }
    if (!quiet)
    {
        std::cerr << "flux-run: bound written to " << outPath << std::endl;
        std::cout << FormatBoundSummary(bound) << std::flush;
    }
    return 0;
}

/**
 * \brief The runner, on this process.
 * \param argc argc
 * \param argv argv
 * \return the exit status
 */
int
Main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    const bool root = FabricRanks::GetRank() == 0; // under MPI, rank 0 reports and writes
    const auto wall0 = std::chrono::steady_clock::now();
    auto since = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };

    Args args;
    ScenarioConfig cfg;
    std::string outPath;
    RunOptions pcap; // the capture options, checked before the run
    try
    {
        args = ParseArgs(argc, argv);
        if (args.help)
        {
            std::cout << kUsage;
            return 0;
        }
        if (args.version)
        {
            std::cout << "flux-run " << GetFluxVersion() << " (ns-3 " << GetFluxNs3Version()
                      << ")\n";
            return 0;
        }
        LoadPlugins(args.plugins);
        if (args.listPolicies)
        {
            for (const auto& name : ScenarioConfig::AvailablePolicies())
            {
                if (args.verbose)
                {
                    DescribePolicy(name);
                }
                else
                {
                    std::cout << name << '\n';
                }
            }
            return 0;
        }
        if (args.schema)
        {
            std::cout << ns3::scenario::ScenarioSchema().dump(2, ' ', false) << '\n';
            return 0;
        }
        if (args.listCc)
        {
            for (const auto& entry : RdmaCongestionControl::GetAlgorithms())
            {
                if (args.verbose)
                {
                    DescribeCc(entry.first);
                }
                else
                {
                    std::cout << entry.first << '\n';
                }
            }
            return 0;
        }
        if (!args.describeCc.empty())
        {
            if (RdmaCongestionControl::GetAlgorithmTypeName(args.describeCc).empty())
            {
                throw ScenarioError("--describe-cc",
                                    NotKnownName(args.describeCc,
                                                 RdmaCongestionControl::GetAlgorithms(),
                                                 "congestion control",
                                                 "--list-cc"));
            }
            DescribeCc(args.describeCc);
            return 0;
        }
        if (!args.describePolicy.empty())
        {
            if (JobScheduler::GetPolicyTypeName(args.describePolicy).empty())
            {
                throw ScenarioError("--describe-policy",
                                    NotKnownName(args.describePolicy,
                                                 JobScheduler::GetPolicies(),
                                                 "policy",
                                                 "--list-policies"));
            }
            DescribePolicy(args.describePolicy);
            return 0;
        }
        if (args.scenario.empty())
        {
            throw ScenarioError("SCENARIO.json", "required (see --help)");
        }

        nlohmann::json scenario = ReadScenarioJson(args.scenario);
        if (scenario.is_object())
        {
            if (!args.policy.empty())
            {
                auto& scheduler = scenario["scheduler"];
                if (scheduler.is_null())
                {
                    scheduler = nlohmann::json::object();
                }
                if (scheduler.is_object())
                {
                    scheduler["policy"] = args.policy;
                }
            }
            if (!args.seed.empty())
            {
                if (args.seed.find_first_not_of("0123456789") != std::string::npos ||
                    args.seed.size() > 19)
                {
                    throw ScenarioError("--seed",
                                        "expected a positive integer, got \"" + args.seed + "\"");
                }
                scenario["seed"] = std::stoull(args.seed);
            }
            for (const auto& set : args.sets)
            {
                ApplySet(scenario, set);
            }
            for (const auto& [source, value] : args.seeds)
            {
                if (value.find_first_not_of("0123456789") != std::string::npos || value.empty() ||
                    value.size() > 19)
                {
                    throw ScenarioError("--seed-" + source,
                                        "expected a positive integer, got \"" + value + "\"");
                }
                auto& seeds = scenario["seeds"];
                if (seeds.is_null())
                {
                    seeds = nlohmann::json::object();
                }
                if (seeds.is_object())
                {
                    seeds[source] = std::stoull(value);
                }
            }
        }
        const std::string dir = fs::path(args.scenario).parent_path().string();
        cfg = ParseScenario(scenario, dir.empty() ? "." : dir);
        CheckScenario(cfg);
        if (args.check)
        {
            // built as the run would be, so that what only the build finds
            // (a fault's or a trace's link, the memory) is refused too
            RunOptions build;
            build.quiet = true;
            build.backend = args.backend;
            build.checkOnly = true;
            TimelineData timeline; // (its refusals only: nothing is collected)
            if (!args.timeline.empty())
            {
                build.timeline = &timeline;
            }
            // what is available before the build, as the memory check saw it
            std::string source;
            const double available = MemoryEstimate::AvailableBytes(source);
            RunScenario(cfg, build);
            PrintWarnings(cfg, args.backend);
            if (FabricRanks::GetRank() == 0)
            {
                std::cout << args.scenario << ": valid (policy " << cfg.scheduler.policy
                          << ", seed " << cfg.seed << ", " << cfg.HostCount() << " hosts, "
                          << cfg.jobs.size() << " job(s), " << cfg.background.size()
                          << " tenant(s))" << std::endl;
                // the estimate the memory check compared with what was available
                std::cout << "  memory: an estimated "
                          << MemoryEstimate::Format(
                                 MemoryEstimate::Bytes(cfg, args.backend == "flow"));
                if (available >= 0)
                {
                    std::cout << " of the " << MemoryEstimate::Format(available) << " available ("
                              << source << ")";
                }
                std::cout << std::endl;
            }
            return 0;
        }

        // Where the results go; check before running that they can be written.
        std::string outField = "--out";
        if (args.out.empty())
        {
            const fs::path scenarioPath(args.scenario);
            const std::string suffix = args.bound ? "-bound.json" : "-results.json";
            outPath =
                (scenarioPath.parent_path() / (scenarioPath.stem().string() + suffix)).string();
            outField = outPath;
        }
        else
        {
            outPath = args.out;
        }
        CheckOutputPath(outField, outPath, args.scenario);
        if (!args.bound)
        {
            // the files written beside the results, all of them or none
            for (const auto& companion : ResultsWriter::CompanionPaths(outPath))
            {
                CheckOutputPath(outField, companion, args.scenario);
            }
        }
        if (!args.timeline.empty())
        {
            if (args.bound)
            {
                throw ScenarioError("--timeline", "the bound runs no single run to show");
            }
            if (FabricRanks::GetNRanks() > 1)
            {
                throw ScenarioError("--timeline",
                                    "not on several MPI processes: each holds only its own "
                                    "ranks' steps");
            }
            CheckOutputPath("--timeline", args.timeline, args.scenario);
            std::error_code ec;
            const fs::path timeline = fs::weakly_canonical(args.timeline, ec);
            if (timeline == fs::weakly_canonical(outPath, ec))
            {
                throw ScenarioError("--timeline", "would overwrite the results file");
            }
            for (const auto& companion : ResultsWriter::CompanionPaths(outPath))
            {
                if (timeline == fs::weakly_canonical(companion, ec))
                {
                    throw ScenarioError("--timeline",
                                        "would overwrite " + companion +
                                            ", written beside the results file");
                }
            }
        }
        if (args.bound && !args.pcapDir.empty())
        {
            throw ScenarioError("--pcap", "the bound runs at flow level: no packets to capture");
        }
        if (args.bound && args.backendGiven && args.backend != "flow")
        {
            throw ScenarioError("--backend", "the bound runs at flow level only");
        }
        if (!args.bound)
        {
            // before the pcap folder is made
            RunOptions check;
            check.backend = args.backend;
            check.pcapDir = args.pcapDir;
            CheckBackend(check);
            ReadPcapOptions(args, cfg, pcap);
        }
        if (!args.pcapDir.empty())
        {
            std::error_code ec;
            fs::create_directories(args.pcapDir, ec);
            if (ec || !fs::is_directory(args.pcapDir))
            {
                throw ScenarioError("--pcap",
                                    "cannot create folder \"" + args.pcapDir + "\"" +
                                        (ec ? " (" + ec.message() + ")" : std::string()));
            }
        }
    }
    catch (const ScenarioError& e)
    {
        return Error(2, e.what());
    }
    catch (const std::exception& e)
    {
        return Error(2, (args.scenario.empty() ? "" : args.scenario + ": ") + e.what());
    }

    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
#ifdef FLUX_TCMALLOC
    TuneAllocator(args.bound || args.backend == "flow", cfg);
#endif
    if (args.bound)
    {
        return Bound(cfg, outPath, args.quiet);
    }

    // (a fluid, or a fabric given cable by cable, runs in one process)
    Progress progress(!args.quiet && root,
                      args.backend == "packet" && cfg.topology.kind != "links");
    if (FabricRanks::IsEnabled() && root && !args.quiet)
    {
        std::cerr << "flux-run: " << FabricRanks::GetNRanks()
                  << " MPI process(es), the fabric split by "
                  << FabricTopologyHelper::GetSplitUnit(cfg.topology.kind) << std::endl;
    }
    RunOptions opts = pcap;
    opts.pcapDir = args.pcapDir;
    opts.quiet = args.quiet;
    opts.backend = args.backend;
    opts.progress = [&progress](double simMs, double wallS, double etaS) {
        progress.Update(simMs, wallS, etaS);
    };
    opts.cancel = &g_cancel;
    // (warnings only for a scenario that builds: bad input stays one line)
    opts.started = [&cfg, &args]() { PrintWarnings(cfg, args.backend); };
    // FLUX_TIMING=1: the wall-clock time of each phase on stderr, to tell
    // the runner's own work from the simulation.
    const char* timingEnv = std::getenv("FLUX_TIMING");
    const bool timing = timingEnv && *timingEnv && std::string(timingEnv) != "0";
    RunTimings timings;
    if (timing)
    {
        opts.timings = &timings;
    }
    TimelineData timeline;
    if (!args.timeline.empty())
    {
        timeline.SetMetadata("scenario", fs::path(args.scenario).stem().string());
        opts.timeline = &timeline;
    }
    const double parseS = since(wall0);

    RunResults results;
    try
    {
        results = RunScenario(cfg, opts);
    }
    catch (const ScenarioError& e)
    {
        progress.Finish();
        return Error(2, e.what());
    }
    catch (const std::exception& e)
    {
        progress.Finish();
        return Error(1, std::string("run failed: ") + e.what());
    }
    progress.Finish();

    if (g_cancel.load() || results.sim.stopReason == "cancelled")
    {
        return Error(130, "interrupted; no results written");
    }

    const auto write0 = std::chrono::steady_clock::now();
    if (!root)
    {
        return 0; // rank 0 has every process's results
    }
    bool timelineWritten = false;
    try
    {
        // the timeline first: the results file, last, means all is written
        if (!args.timeline.empty())
        {
            TimelineWriter::Write(timeline, args.timeline);
            timelineWritten = true;
        }
        ResultsWriter::Write(results, outPath);
    }
    catch (const std::exception& e)
    {
        if (timelineWritten)
        {
            std::remove(args.timeline.c_str());
        }
        return Error(1, e.what());
    }
    if (timeline.GetDropped() > 0)
    {
        std::cerr << "flux-run: warning: --timeline: " << timeline.GetDropped()
                  << " events past the cap of " << timeline.GetMaxEvents()
                  << " left out (the file says so in otherData.dropped_events)" << std::endl;
    }
    if (!args.quiet)
    {
        std::cerr << "flux-run: results written to " << outPath << std::endl;
        if (!args.pcapDir.empty())
        {
            std::uintmax_t bytes = 0;
            uint32_t files = 0;
            std::error_code ec;
            for (const auto& e : fs::directory_iterator(args.pcapDir, ec))
            {
                if (e.path().extension() == ".pcap")
                {
                    ++files;
                    bytes += e.file_size(ec);
                }
            }
            std::fprintf(stderr,
                         "flux-run: pcap: %u files, %.1f MB in %s\n",
                         files,
                         static_cast<double>(bytes) / 1e6,
                         args.pcapDir.c_str());
        }
        std::cout << FormatRunSummary(results) << std::flush;
    }
    if (timing)
    {
        const double writeS = since(write0);
        const double totalS = since(wall0);
        std::fprintf(stderr,
                     "flux-run: timing parse_s=%.6f build_s=%.6f run_s=%.6f collect_s=%.6f "
                     "teardown_s=%.6f write_s=%.6f total_s=%.6f outside_run_pct=%.3f "
                     "frames=%llu data_frames=%llu run_cpu_s=%.6f\n",
                     parseS,
                     timings.buildS,
                     timings.runS,
                     timings.collectS,
                     timings.teardownS,
                     writeS,
                     totalS,
                     totalS > 0 ? 100.0 * (totalS - timings.runS) / totalS : 0.0,
                     static_cast<unsigned long long>(timings.frames),
                     static_cast<unsigned long long>(timings.dataFrames),
                     timings.runCpuS);
    }
    return 0;
}

} // namespace

int
main(int argc, char** argv)
{
    // Until a resolution is set or the simulation runs, ns-3 records every
    // Time object in a set, to convert it should the resolution change;
    // setting ns-3's default now spares building the fabric that cost.
    Time::SetResolution(Time::NS);
    // Started by mpirun: the fabric is split over the processes.
    if (FabricRanks::LaunchedByMpirun())
    {
        if (!FabricRanks::IsAvailable())
        {
            return Error(2, "started by mpirun, but " + FabricRanks::Enable(&argc, &argv));
        }
        FabricRanks::Enable(&argc, &argv);
        if (FabricRanks::GetRank() != 0)
        {
            std::cout.setstate(std::ios::badbit); // standard output is rank 0's
        }
    }
    const int status = Main(argc, argv);
    FabricRanks::Disable();
    return status;
}
