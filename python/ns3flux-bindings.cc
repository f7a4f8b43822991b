/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * The extension module `ns3flux._ns3flux`: the scenario runner for Python.
 *
 * The public API is the pure-Python package `ns3flux` (python/ns3flux/),
 * which converts scenarios to JSON text and calls the functions below:
 *
 * - run(text, base_dir, progress, quiet, records, pcap_dir, backend, timeline,
 *   name) -> dict: parse, validate and run a scenario (backend "packet" or
 *   "flow"); the results dict of the runner (the same keys and values as
 *   the results file of flux-run), plus "records" (the rows of the runner's
 *   CSV files, column by column) when asked; with a timeline path, also
 *   writes the run's timeline there as flux-run --timeline does (the
 *   scenario's name in its metadata).
 * - bound(text, base_dir, progress) -> dict: the bound and best schedule of
 *   a scenario (ComputeBound), the same keys and values as the bound file
 *   of flux-run --bound; progress(stage, done, total, best_ms) is called
 *   after every flow-level run.
 * - validate(text, base_dir) -> dict: parse and validate only; a summary
 *   of the resolved scenario (host count, the hosts of every job).
 * - read_scenario(path) -> str: a scenario file's JSON, checked for syntax
 *   errors and duplicate keys like flux-run does.
 * - registered_key_problems(text) -> list of (field, problem): the keys the
 *   schema cannot name (scheduler, transport.<cc>, ns3_defaults), each
 *   checked alone (RegisteredKeyProblems).
 * - policies() -> list: ScenarioConfig::AvailablePolicies().
 * - congestion_controls() -> list: the registered congestion controls
 *   (RdmaCongestionControl::GetAlgorithms(), values of transport.cc).
 * - congestion_control_keys(name) -> list of dict: the transport.<name> keys
 *   of one (key, attribute, type, default, range, help).
 * - policy_keys(name) -> list of dict: the scheduler keys of a policy, alike.
 * - nearest_name(word, names) -> str: the nearest of names within two edits,
 *   or "" (the "did you mean" of flux-run's messages).
 * - load_plugin(path) -> dict: load a library of one's own policies or
 *   congestion controls (LoadFluxPlugin): its path and the "policies" and
 *   "congestion_controls" it registered; load_plugins_from_environment()
 *   -> list of such dicts: the libraries of FLUX_PLUGINS; loaded_plugins()
 *   -> list[str]: the libraries loaded so far (ScenarioError if one has
 *   changed on disk since: runs here and in workers would differ).
 * - library_path() -> str: the path of the loaded libns3-flux (the model);
 * - library_paths() -> list[str]: the model's and the scenario application's
 *   libraries, then the plugins loaded.
 *
 * Errors: ns3::ScenarioError becomes ns3flux.errors.ScenarioError (a
 * ValueError with `field` and `problem`; str() is flux-run's message
 * `<field>: <problem>`); any other C++ exception from a run becomes
 * ns3flux.errors.RunError with flux-run's message `run failed: <what>`.
 *
 * Runs release the GIL and are serialised by a process-wide mutex (ns-3 has
 * one global simulator). While a run goes on, the runner's progress callback
 * (a few times per second of wall-clock time) briefly takes the GIL to run
 * pending signal handlers (PyErr_CheckSignals: Ctrl-C raises
 * KeyboardInterrupt in the main thread) and the caller's progress function.
 * If either raises, the run is cancelled through RunOptions::cancel and the
 * exception is re-raised once the simulator has stopped and its state is
 * reset.
 */

#include "ns3/bound-writer.h"
#include "ns3/fabric-switch.h"
#include "ns3/flux-plugin.h"
#include "ns3/output-file.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/results-table.h"
#include "ns3/results-writer.h"
#include "ns3/run-results.h"
#include "ns3/scenario-bound.h"
#include "ns3/scenario-cc-keys.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"
#include "ns3/scenario-keys.h"
#include "ns3/scenario-policy-keys.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario-scheduler.h"
#include "ns3/timeline-writer.h"
#include "ns3/traffic-class.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <memory>
#include <mutex>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace
{

using ns3::ResultsTable;
using ns3::RunResults;
using ns3::ScenarioConfig;
using ns3::ScenarioError;

/// A run that failed for another reason than its scenario (ns3flux.errors.RunError).
class RunFailure : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// ns3flux used in a way it cannot serve (RuntimeError).
class UsageError : public std::logic_error
{
  public:
    using std::logic_error::logic_error;
};

/// Serialises everything that touches ns-3's global state.
std::mutex g_ns3Mutex;

/// The thread that holds g_ns3Mutex for a run (default id: none).
std::atomic<std::thread::id> g_runThread{std::thread::id()};

/// Minimum wall-clock time between two signal checks during a run.
constexpr std::chrono::milliseconds kCheckInterval{50};

/// A JSON value as the corresponding Python value.
py::object
ToPython(const nlohmann::ordered_json& j)
{
    switch (j.type())
    {
    case nlohmann::ordered_json::value_t::null:
        return py::none();
    case nlohmann::ordered_json::value_t::boolean:
        return py::bool_(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
        return py::int_(j.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned:
        return py::int_(j.get<uint64_t>());
    case nlohmann::ordered_json::value_t::number_float:
        return py::float_(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
        return py::str(j.get_ref<const std::string&>());
    case nlohmann::ordered_json::value_t::array: {
        py::list list(j.size());
        size_t i = 0;
        for (const auto& v : j)
        {
            list[i++] = ToPython(v);
        }
        return std::move(list);
    }
    case nlohmann::ordered_json::value_t::object: {
        py::dict dict;
        for (const auto& [key, v] : j.items())
        {
            dict[py::str(key)] = ToPython(v);
        }
        return std::move(dict);
    }
    default:
        return py::none();
    }
}

/// One ResultsTable column by column: {"column": [values...], ...}.
py::dict
Columns(const ResultsTable& table)
{
    std::vector<py::list> columns(table.columns.size());
    for (const auto& row : table.rows)
    {
        for (size_t i = 0; i < row.size(); ++i)
        {
            const ResultsTable::Cell& c = row[i];
            switch (c.kind)
            {
            case ResultsTable::Cell::Kind::TEXT:
                columns[i].append(py::str(c.text));
                break;
            case ResultsTable::Cell::Kind::INTEGER:
                columns[i].append(py::int_(c.integer));
                break;
            case ResultsTable::Cell::Kind::NUMBER:
                columns[i].append(py::float_(c.number));
                break;
            case ResultsTable::Cell::Kind::EMPTY:
                columns[i].append(py::none());
                break;
            }
        }
    }
    py::dict dict;
    for (size_t i = 0; i < columns.size(); ++i)
    {
        dict[py::str(table.columns[i])] = columns[i];
    }
    return dict;
}

/**
 * The rows of the runner's three CSV files, column by column, from the same
 * ResultsTable that ResultsWriter writes:
 * {"iterations": {"job": [...], ...}, "phases": {...}, "flows": {...}}.
 */
py::dict
Records(const RunResults& results)
{
    py::dict records;
    records["iterations"] = Columns(ResultsTable::Iterations(results));
    records["phases"] = Columns(ResultsTable::Phases(results));
    records["flows"] = Columns(ResultsTable::Flows(results));
    if (results.hpccFct)
    {
        // the HPCC simulator's FCT file, column by column (HpccFctWriter)
        py::dict fct;
        py::list sip, dip, sport, dport, size, start, fctNs, ideal;
        char hex[16];
        for (const auto& r : results.hpccFctRecords)
        {
            std::snprintf(hex, sizeof(hex), "%08x", r.sip);
            sip.append(std::string(hex));
            std::snprintf(hex, sizeof(hex), "%08x", r.dip);
            dip.append(std::string(hex));
            sport.append(r.sport);
            dport.append(r.dport);
            size.append(r.sizeBytes);
            start.append(r.startNs);
            fctNs.append(r.fctNs);
            ideal.append(r.idealFctNs);
        }
        fct["sip"] = sip;
        fct["dip"] = dip;
        fct["sport"] = sport;
        fct["dport"] = dport;
        fct["size"] = size;
        fct["start_ns"] = start;
        fct["fct_ns"] = fctNs;
        fct["ideal_fct_ns"] = ideal;
        records["hpcc_fct"] = fct;
    }
    return records;
}

/// Parse and validate scenario JSON text (the caller holds g_ns3Mutex).
ScenarioConfig
Parse(const std::string& text, const std::string& baseDir)
{
    const nlohmann::json scenario = ns3::ParseScenarioText(text, "scenario");
    ScenarioConfig cfg = ns3::ParseScenario(scenario, baseDir);
    ns3::CheckScenario(cfg);
    return cfg;
}

/// Takes g_ns3Mutex, refusing a nested run in the same thread (which would
/// deadlock), e.g. from a progress function.
std::unique_lock<std::mutex>
LockNs3()
{
    if (g_runThread.load() == std::this_thread::get_id())
    {
        throw UsageError("ns3flux: a scenario cannot be run or validated from inside a run "
                         "(e.g. from a progress function)");
    }
    return std::unique_lock<std::mutex>(g_ns3Mutex);
}

/**
 * What a run or a bound shares with Python while it simulates: the Python
 * exception its progress function raised (or a signal's), which cancels
 * it, and the simulation itself, without the GIL, under the ns-3 lock.
 */
class SimulationCall
{
  public:
    /// Set as the options' cancel flag.
    std::atomic<bool> cancel{false};

    /**
     * \brief A progress tick, with the GIL taken: pending signal handlers,
     *        then the caller's progress function (when not None); an
     *        exception from either cancels the simulation.
     * \param progress the progress function, or None
     * \param args its arguments
     */
    template <typename... Args>
    void Tick(const py::object& progress, Args... args)
    {
        if (cancel.load())
        {
            return;
        }
        py::gil_scoped_acquire gil;
        try
        {
            if (PyErr_CheckSignals() != 0)
            {
                throw py::error_already_set();
            }
            if (!progress.is_none())
            {
                progress(args...);
            }
        }
        catch (py::error_already_set& e)
        {
            m_pending = std::make_unique<py::error_already_set>(std::move(e));
            cancel.store(true);
        }
        catch (const std::exception& e)
        {
            PyErr_SetString(PyExc_RuntimeError, e.what());
            m_pending = std::make_unique<py::error_already_set>();
            cancel.store(true);
        }
    }

    /**
     * \brief Parse the scenario and simulate it, the GIL released.
     * \param text the scenario's JSON text
     * \param baseDir the folder of its relative paths
     * \param simulate the simulation, given the configuration
     * \param failure the prefix of a RunFailure's message ("run failed")
     * \return what simulate returns; the pending Python exception, if any,
     *         is raised instead
     */
    template <typename F>
    auto Simulate(const std::string& text,
                  const std::string& baseDir,
                  F simulate,
                  const std::string& failure)
    {
        decltype(simulate(std::declval<const ScenarioConfig&>())) out;
        {
            py::gil_scoped_release release;
            auto lock = LockNs3();
            // (a plugin rebuilt since it was loaded would run its old build
            // here and its new one in a sweep's workers)
            ns3::CheckFluxPluginsUnchanged();
            const ScenarioConfig cfg = Parse(text, baseDir);
            g_runThread.store(std::this_thread::get_id());
            try
            {
                out = simulate(cfg);
            }
            catch (const ScenarioError&)
            {
                g_runThread.store(std::thread::id());
                throw;
            }
            catch (const std::exception& e)
            {
                g_runThread.store(std::thread::id());
                throw RunFailure(failure + ": " + e.what());
            }
            g_runThread.store(std::thread::id());
        }
        if (m_pending)
        {
            throw py::error_already_set(*m_pending);
        }
        return out;
    }

  private:
    /// Set from a progress tick, which runs with the GIL taken; raised once
    /// the simulation is over, with the GIL taken again.
    std::unique_ptr<py::error_already_set> m_pending;
};

/// The run of one scenario, see the file comment.
py::dict
Run(const std::string& text,
    const std::string& baseDir,
    const py::object& progress,
    bool quiet,
    bool records,
    const std::string& pcapDir,
    const std::string& backend,
    const std::string& timelinePath,
    const std::string& name)
{
    SimulationCall call;
    auto lastCheck = std::chrono::steady_clock::now() - kCheckInterval;
    ns3::RunOptions opts;
    opts.pcapDir = pcapDir;
    opts.quiet = quiet;
    opts.backend = backend;
    opts.cancel = &call.cancel;
    ns3::TimelineData timeline;
    if (!timelinePath.empty())
    {
        timeline.SetMetadata("scenario", name);
        opts.timeline = &timeline;
    }
    opts.progress = [&](double simMs, double wallS, double etaS) {
        const auto now = std::chrono::steady_clock::now();
        if (now - lastCheck < kCheckInterval)
        {
            return;
        }
        lastCheck = now;
        call.Tick(progress, simMs, wallS, etaS);
    };
    const RunResults results = call.Simulate(
        text,
        baseDir,
        [&opts](const ScenarioConfig& cfg) { return ns3::RunScenario(cfg, opts); },
        "run failed");
    for (const auto& w : results.warnings)
    {
        // what an imported file holds that has no counterpart here
        if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0)
        {
            throw py::error_already_set();
        }
    }
    if (!timelinePath.empty())
    {
        // (a failure to write is a RuntimeError `<path>: <reason>`)
        ns3::TimelineWriter::Write(timeline, timelinePath);
        if (timeline.GetDropped() > 0)
        {
            const std::string w = "timeline: " + std::to_string(timeline.GetDropped()) +
                                  " events past the cap of " +
                                  std::to_string(timeline.GetMaxEvents()) + " left out";
            if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0)
            {
                throw py::error_already_set();
            }
        }
    }
    py::object out = ToPython(ns3::ResultsWriter::ToJson(results));
    py::dict dict = out.cast<py::dict>();
    if (records)
    {
        dict["records"] = Records(results);
    }
    return dict;
}

/// The bound of one scenario, see the file comment.
py::dict
Bound(const std::string& text, const std::string& baseDir, const py::object& progress)
{
    SimulationCall call;
    ns3::BoundOptions opts;
    opts.cancel = &call.cancel;
    opts.progress = [&](const std::string& stage, uint32_t done, uint32_t total, double bestMs) {
        call.Tick(progress, stage, done, total, bestMs);
    };
    const ns3::BoundResult bound = call.Simulate(
        text,
        baseDir,
        [&opts](const ScenarioConfig& cfg) { return ns3::ComputeBound(cfg, opts); },
        "bound failed");
    return ToPython(ns3::BoundWriter::ToJson(bound)).cast<py::dict>();
}

/// Parse and validate a scenario; a summary of the resolved configuration.
py::dict
Validate(const std::string& text, const std::string& baseDir)
{
    ScenarioConfig cfg;
    {
        py::gil_scoped_release release;
        auto lock = LockNs3();
        cfg = Parse(text, baseDir);
    }
    py::list jobs;
    for (const auto& j : cfg.jobs)
    {
        py::dict job;
        job["name"] = j.name;
        job["ranks"] = j.ranks;
        job["placement"] = j.placement;
        job["hosts"] = j.hosts;
        job["gpus"] = j.gpus;
        job["servers"] = j.servers;
        job["bytes"] = j.bytes;
        job["iterations"] = j.iterations;
        jobs.append(job);
    }
    py::list background;
    for (const auto& b : cfg.background)
    {
        py::dict entry;
        entry["name"] = b.name;
        if (b.kind == ScenarioConfig::BackgroundConfig::Kind::CDF)
        {
            entry["kind"] = "cdf";
            entry["cdf"] = b.cdf;
            entry["hosts"] = b.hosts;
        }
        else
        {
            entry["kind"] = "pattern";
            entry["pattern"] = b.pattern;
            entry["senders"] = b.senders;
            entry["receiver"] = b.receiver;
        }
        background.append(entry);
    }
    py::dict summary;
    summary["policy"] = cfg.scheduler.policy;
    summary["seed"] = cfg.seed;
    summary["stop_ms"] = cfg.stopMs;
    summary["topology"] = cfg.topology.kind;
    summary["hosts"] = cfg.HostCount();
    summary["hosts_per_leaf"] = cfg.HostsPerLeaf();
    summary["gpus"] = cfg.GpuCount();
    summary["servers"] = cfg.ServerCount();
    summary["jobs"] = jobs;
    summary["background"] = background;
    return summary;
}

/// The path of the loaded library that holds \p symbol (empty when unknown).
std::string
LibraryOf(void* symbol)
{
    Dl_info info;
    if (dladdr(symbol, &info) != 0 && info.dli_fname)
    {
        return info.dli_fname;
    }
    return "";
}

/// The path of the loaded libns3-flux, the model (empty when unknown).
std::string
LibraryPath()
{
    return LibraryOf(reinterpret_cast<void*>(&ns3::FabricSwitch::GetTypeId));
}

/// The paths of the loaded flux libraries: the model, the scenario
/// application, then the plugins loaded.
std::vector<std::string>
LibraryPaths()
{
    std::vector<std::string> paths{LibraryPath(),
                                   LibraryOf(reinterpret_cast<void*>(&ns3::RunScenario))};
    for (const auto& plugin : ns3::GetLoadedFluxPlugins())
    {
        paths.push_back(plugin);
    }
    return paths;
}

/**
 * \param plugin a library loaded
 * \return its path and what it registered, as a dict
 */
py::dict
PluginDict(const ns3::FluxPlugin& plugin)
{
    py::dict d;
    d["path"] = plugin.path;
    d["policies"] = plugin.policies;
    d["congestion_controls"] = plugin.algorithms;
    return d;
}

/// Raises ns3flux.errors.<name>(args...), or fallback(message) when the
/// package cannot be imported (the extension used on its own).
template <typename... Args>
void
SetError(const char* name, PyObject* fallback, const std::string& message, Args&&... args)
{
    try
    {
        py::object cls = py::module_::import("ns3flux.errors").attr(name);
        py::object exc = cls(std::forward<Args>(args)...);
        PyErr_SetObject(cls.ptr(), exc.ptr());
    }
    catch (py::error_already_set&)
    {
        PyErr_SetString(fallback, message.c_str());
    }
}

/**
 * \param keys a policy's or a congestion control's keys
 * \return them as dicts (key, attribute, type, default, range, help)
 */
py::list
KeyList(const std::vector<ns3::scenario::AttributeKey>& keys)
{
    py::list out;
    for (const auto& k : keys)
    {
        py::dict d;
        d["key"] = k.key;
        d["attribute"] = k.attribute;
        d["type"] = k.type;
        d["default"] = k.defaultValue;
        d["range"] = k.range;
        d["help"] = k.help;
        out.append(d);
    }
    return out;
}

} // namespace

PYBIND11_MODULE(_ns3flux, m)
{
    m.doc() = "flux scenario runner (ns-3): the extension module behind ns3flux";
#ifdef FLUX_VERSION
    m.attr("__version__") = FLUX_VERSION;
#endif

    py::register_exception_translator([](std::exception_ptr p) {
        try
        {
            if (p)
            {
                std::rethrow_exception(p);
            }
        }
        catch (const ScenarioError& e)
        {
            SetError("ScenarioError", PyExc_ValueError, e.what(), e.GetField(), e.GetProblem());
        }
        catch (const UsageError& e)
        {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        }
        catch (const RunFailure& e)
        {
            SetError("RunError", PyExc_RuntimeError, e.what(), std::string(e.what()));
        }
    });

    m.def("run",
          &Run,
          py::arg("text"),
          py::arg("base_dir"),
          py::arg("progress") = py::none(),
          py::arg("quiet") = true,
          py::arg("records") = true,
          py::arg("pcap_dir") = "",
          py::arg("backend") = "packet",
          py::arg("timeline") = "",
          py::arg("name") = "scenario",
          "Run a scenario given as JSON text; returns the results dict.");
    m.def("bound",
          &Bound,
          py::arg("text"),
          py::arg("base_dir"),
          py::arg("progress") = py::none(),
          "The bound and best schedule of a scenario given as JSON text; returns a dict.");
    m.def("validate",
          &Validate,
          py::arg("text"),
          py::arg("base_dir"),
          "Parse and validate a scenario given as JSON text; returns a summary.");
    m.def(
        "read_scenario",
        [](const std::string& path) {
            py::gil_scoped_release release;
            return ns3::ReadScenarioJson(path).dump();
        },
        py::arg("path"),
        "The JSON text of a scenario file, checked for syntax errors and duplicate keys.");
    m.def(
        "schema_text",
        []() { return ns3::scenario::ScenarioSchema().dump(2, ' ', false); },
        "The scenario schema (JSON Schema) the parser reads its keys, types and ranges from.");
    m.def(
        "registered_key_problems",
        [](const std::string& text) {
            const auto doc = nlohmann::json::parse(text);
            py::gil_scoped_release release;
            return ns3::RegisteredKeyProblems(doc);
        },
        py::arg("text"),
        "(field, problem) of every scheduler, transport.<cc> and ns3_defaults key refused, "
        "each checked alone.");
    m.def(
        "policies",
        []() { return ScenarioConfig::AvailablePolicies(); },
        "The scheduling policies that can be run (scheduler.policy).");
    m.def(
        "congestion_controls",
        []() {
            std::vector<std::string> names;
            for (const auto& entry : ns3::RdmaCongestionControl::GetAlgorithms())
            {
                names.push_back(entry.first);
            }
            return names;
        },
        "The registered congestion controls (transport.cc).");
    m.def(
        "congestion_control_keys",
        [](const std::string& name) { return KeyList(ns3::scenario::GetCcKeys(name)); },
        py::arg("name"),
        "The transport.<name> keys of a congestion control.");
    m.def(
        "policy_keys",
        [](const std::string& name) { return KeyList(ns3::scenario::GetPolicyKeys(name)); },
        py::arg("name"),
        "The scheduler keys of a policy.");
    m.def("nearest_name",
          &ns3::scenario::NearestName,
          py::arg("word"),
          py::arg("names"),
          "The nearest of names to word within two edits, or \"\" (flux-run's \"did you "
          "mean\").");
    m.def(
        "wire_bytes",
        []() {
            namespace w = ns3::WireBytes;
            py::dict d;
            d["l2"] = w::L2;
            d["ip_udp"] = w::IP_UDP;
            d["bth"] = w::BTH;
            d["reth"] = w::RETH;
            d["aeth"] = w::AETH;
            d["icrc"] = w::ICRC;
            d["fcs"] = w::FCS;
            d["preamble_ifg"] = w::PREAMBLE_IFG;
            return d;
        },
        "Header sizes of a RoCEv2 frame on the wire, bytes (model/traffic-class.h).");
    m.def("output_path_problem",
          &ns3::OutputPathProblem,
          py::arg("path"),
          "Why a results or timeline file could not be written at path, or \"\" when it "
          "can (the check flux-run makes before a run).");
    m.def(
        "load_plugin",
        [](const std::string& path) {
            ns3::FluxPlugin plugin;
            {
                py::gil_scoped_release release;
                auto lock = LockNs3(); // (not while a run lists the policies)
                plugin = ns3::LoadFluxPlugin(path, "load_plugin");
            }
            return PluginDict(plugin);
        },
        py::arg("path"),
        "Load a library of one's own policies or congestion controls; returns what it "
        "registered.");
    m.def(
        "load_plugins_from_environment",
        []() {
            std::vector<ns3::FluxPlugin> plugins;
            {
                py::gil_scoped_release release;
                auto lock = LockNs3();
                plugins = ns3::LoadFluxPluginsFromEnvironment();
            }
            py::list out;
            for (const auto& plugin : plugins)
            {
                out.append(PluginDict(plugin));
            }
            return out;
        },
        "Load the libraries of FLUX_PLUGINS (paths separated by ':').");
    m.def(
        "loaded_plugins",
        []() {
            ns3::CheckFluxPluginsUnchanged();
            return ns3::GetLoadedFluxPlugins();
        },
        "The plugin libraries loaded, in order (absolute paths); ScenarioError if one has "
        "changed on disk since.");
    m.def("library_path", &LibraryPath, "The path of the loaded libns3-flux (the model).");
    m.def("library_paths",
          &LibraryPaths,
          "The paths of the loaded flux libraries: the model, then the scenario application.");
}
