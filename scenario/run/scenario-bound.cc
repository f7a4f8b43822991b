/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-bound.h"

#include "flux-plugin.h"
#include "scenario-bound-search.h"

#include "ns3/fabric-ranks.h"
#include "ns3/scenario-error.h"
#include "ns3/traffic-class.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ns3
{
namespace scenario
{

namespace
{

/**
 * \brief The mean flow time of preemptive SRPT on one machine.
 * \param jobs (release, work) per job, in seconds; work 0 for a job that
 *        has none here (its flow time counts as 0)
 * \param n the number of jobs the mean is over
 * \return sum over the jobs of (completion - release) / n, s
 *
 * Shortest remaining processing time first is optimal for the sum of
 * completion times with release dates and preemption (Schrage, 1968).
 */
double
SrptMeanFlowTime(std::vector<std::pair<double, double>> jobs, std::size_t n)
{
    jobs.erase(
        std::remove_if(jobs.begin(), jobs.end(), [](const auto& j) { return !(j.second > 0); }),
        jobs.end());
    std::sort(jobs.begin(), jobs.end());
    // (remaining work, release) of the released jobs not yet done
    std::vector<std::pair<double, double>> ready;
    double t = 0;
    double total = 0;
    std::size_t next = 0;
    while (next < jobs.size() || !ready.empty())
    {
        if (ready.empty())
        {
            t = std::max(t, jobs[next].first);
        }
        while (next < jobs.size() && jobs[next].first <= t)
        {
            ready.emplace_back(jobs[next].second, jobs[next].first);
            ++next;
        }
        auto it = std::min_element(ready.begin(), ready.end());
        const double release =
            next < jobs.size() ? jobs[next].first : std::numeric_limits<double>::quiet_NaN();
        if (next >= jobs.size() || t + it->first <= release)
        {
            t += it->first;
            total += t - it->second;
            ready.erase(it);
        }
        else
        {
            it->first -= release - t;
            t = release;
        }
    }
    return n == 0 ? 0 : total / static_cast<double>(n);
}

} // namespace

BoundResult::Outcome
BoundSearch::Summarise(const RunResults& r)
{
    BoundResult::Outcome o;
    double sum = 0;
    double worst = 0;
    for (const auto& job : r.jobs)
    {
        if (!job.completed)
        {
            return o;
        }
        sum += job.jctMs;
        for (double ms : job.iterationMs)
        {
            worst = std::max(worst, ms);
        }
    }
    o.meanJctMs = r.jobs.empty() ? std::numeric_limits<double>::quiet_NaN()
                                 : sum / static_cast<double>(r.jobs.size());
    o.worstIterationMs = worst;
    return o;
}

bool
BoundSearch::Better(double a, double b)
{
    return std::isfinite(a) && (!std::isfinite(b) || a < b);
}

RunResults
BoundSearch::Run(const ScenarioConfig& cfg,
                 const std::vector<uint16_t>& ports,
                 RunLayout* layout,
                 bool shared)
{
    if (m_opts.cancel && m_opts.cancel->load())
    {
        throw BoundCancelled();
    }
    RunOptions ro;
    ro.quiet = true;
    ro.backend = "flow";
    ro.cancel = m_opts.cancel;
    ro.portBases = ports;
    ro.layout = layout;
    ro.fluidShared = shared;
    RunResults r = RunScenario(cfg, ro);
    ++m_bound.runs;
    if (r.sim.stopReason == "cancelled" || (m_opts.cancel && m_opts.cancel->load()))
    {
        throw BoundCancelled();
    }
    return r;
}

void
BoundSearch::Report(const std::string& stage, uint32_t done, uint32_t total) const
{
    if (m_opts.progress)
    {
        m_opts.progress(stage, done, total, m_bound.best.meanJctMs);
    }
}

std::vector<BoundSearch::Cut>
BoundSearch::Cuts(const std::vector<RunLayout::Link>& links) const
{
    // A host's own links carry its bytes whatever the paths.
    std::vector<Cut> cuts;
    std::set<std::string> edges; // switches with hosts
    auto ends = [](const std::string& name) {
        const auto arrow = name.find("->");
        return std::make_pair(name.substr(0, arrow), name.substr(arrow + 2));
    };
    auto isHost = [](const std::string& node) { return node.rfind("host", 0) == 0; };
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        const auto [from, to] = ends(links[l].name);
        if (isHost(from) || isHost(to))
        {
            cuts.push_back(Cut{links[l].name, {l}});
            edges.insert(isHost(from) ? to : from);
        }
    }
    // On fabrics whose routes never turn back down to an edge switch and
    // up again (leaf-spine, fat-tree, dumbbell), every byte between a
    // switch's hosts and the rest crosses exactly one of its links to other
    // switches: those links together are a cut, whatever paths the jobs take.
    if (m_cfg.topology.kind == "ring")
    {
        return cuts;
    }
    std::map<std::string, std::vector<uint32_t>> out;
    std::map<std::string, std::vector<uint32_t>> in;
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        const auto [from, to] = ends(links[l].name);
        if (isHost(from) || isHost(to))
        {
            continue;
        }
        if (edges.count(from))
        {
            out[from].push_back(l);
        }
        if (edges.count(to))
        {
            in[to].push_back(l);
        }
    }
    for (const auto& [sw, ls] : out)
    {
        cuts.push_back(Cut{ls.size() == 1 ? links[ls[0]].name : sw + " uplinks", ls});
    }
    for (const auto& [sw, ls] : in)
    {
        cuts.push_back(Cut{ls.size() == 1 ? links[ls[0]].name : sw + " downlinks", ls});
    }
    return cuts;
}

void
BoundSearch::LowerBound()
{
    const std::size_t n = m_cfg.jobs.size();
    // per job, per link direction: wire bits
    std::vector<std::vector<double>> bits(n);
    std::vector<RunLayout::Link> links;
    double aloneSum = 0;
    for (std::size_t k = 0; k < n; ++k)
    {
        ScenarioConfig alone = m_cfg;
        alone.jobs = {m_cfg.jobs[k]};
        alone.background.clear();
        // the idle fabric whole: a fault only takes capacity away, and a
        // job alone on a path a fault would cut may take another with others
        alone.faults.clear();
        alone.traces.enabled = false;
        // alone on its hashed paths, and on paths chosen for it alone: a
        // path-aware policy may give it either. Its flows share links as
        // they do in any run; and, for its bound, they do not: fair sharing
        // among its own flows is not the fastest order for it (a ring whose
        // hops meet on a link ends sooner when one of them goes first and
        // its receiver starts the next step early).
        RunResults r;
        RunLayout layout;
        BoundResult::JobAlone a;
        a.boundJctMs = std::numeric_limits<double>::infinity();
        a.boundIterationMs = std::numeric_limits<double>::infinity();
        for (const std::string policy : {"fifo", "ecmp-aware"})
        {
            alone.scheduler = ScenarioConfig::SchedulerConfig();
            alone.scheduler.policy = policy;
            for (const bool shared : {true, false})
            {
                RunLayout l;
                RunResults tried = Run(alone, {m_ports[k]}, &l, shared);
                const auto& job = tried.jobs.at(0);
                if (!job.completed || job.iterationMs.empty())
                {
                    throw std::runtime_error("job \"" + job.name +
                                             "\" does not complete alone before " + "stop_ms (" +
                                             job.status + ")");
                }
                if (!shared)
                {
                    a.boundJctMs = std::min(a.boundJctMs, job.jctMs);
                    a.boundIterationMs =
                        std::min(a.boundIterationMs,
                                 *std::min_element(job.iterationMs.begin(), job.iterationMs.end()));
                }
                else if (r.jobs.empty() || job.jctMs < r.jobs.at(0).jctMs)
                {
                    r = tried;
                    layout = l;
                }
            }
        }
        const auto& job = r.jobs.at(0);
        a.name = job.name;
        a.startMs = m_cfg.jobs[k].startMs;
        a.jctMs = job.jctMs;
        a.bestIterationMs = *std::min_element(job.iterationMs.begin(), job.iterationMs.end());
        a.worstIterationMs = *std::max_element(job.iterationMs.begin(), job.iterationMs.end());
        m_bound.jobs.push_back(a);
        aloneSum += a.jctMs;
        m_bound.lowerWorstIterationMs = std::max(m_bound.lowerWorstIterationMs, a.boundIterationMs);
        for (const auto& l : layout.links)
        {
            bits[k].push_back(l.bits);
        }
        links = layout.links;
        Report("alone", static_cast<uint32_t>(k + 1), static_cast<uint32_t>(n));
    }
    m_bound.meanAloneJctMs = aloneSum / static_cast<double>(n);
    // SRPT on every cut: its links as one machine of their summed rate
    for (const auto& cut : Cuts(links))
    {
        double bps = 0;
        for (uint32_t l : cut.links)
        {
            bps += links[l].bps;
        }
        std::vector<std::pair<double, double>> work;
        for (std::size_t k = 0; k < n; ++k)
        {
            double b = 0;
            for (uint32_t l : cut.links)
            {
                b += bits[k][l];
            }
            work.emplace_back(m_bound.jobs[k].startMs * 1e-3, b / bps);
            // a job's own bits cross the cut no faster than its rate
            m_bound.jobs[k].boundJctMs = std::max(m_bound.jobs[k].boundJctMs, b / bps * 1e3);
        }
        const double ms = SrptMeanFlowTime(work, n) * 1e3;
        if (ms > m_bound.srptMeanJctMs)
        {
            m_bound.srptMeanJctMs = ms;
            m_bound.srptLink = cut.name;
        }
    }
    double boundSum = 0;
    for (const auto& a : m_bound.jobs)
    {
        boundSum += a.boundJctMs;
    }
    m_bound.meanJobBoundMs = boundSum / static_cast<double>(n);
    m_bound.lowerMeanJctMs = std::max(m_bound.meanJobBoundMs, m_bound.srptMeanJctMs);
}

void
BoundSearch::FreeClasses()
{
    // Strictly below the lowest class of the background tenants (which
    // stay first); all data classes without background.
    const uint8_t background = m_cfg.BackgroundClasses();
    int top = TrafficClass::MAX_DATA;
    for (int c = 0; c <= TrafficClass::MAX_DATA; ++c)
    {
        if (background & TrafficClass::Bit(static_cast<uint8_t>(c)))
        {
            top = c - 1;
            break;
        }
    }
    for (int c = top; c >= 0; --c)
    {
        m_free.push_back(static_cast<uint8_t>(c));
    }
}

BoundResult
BoundSearch::Compute()
{
    const auto wall0 = std::chrono::steady_clock::now();
    if (m_cfg.jobs.empty())
    {
        throw ScenarioError("jobs", "the bound needs at least one job");
    }
    if (FabricRanks::IsEnabled())
    {
        // (its runs are at flow level, which CheckBackend refuses under MPI)
        throw ScenarioError("--bound", "runs at flow level, on one process: without mpirun");
    }
    m_bound.seed = m_cfg.seed;
    m_bound.seeds.ecmp = m_cfg.EcmpSeed();
    m_bound.seeds.background = m_cfg.BackgroundSeed();
    m_bound.seeds.placement = m_cfg.PlacementSeed();
    m_bound.policy = m_cfg.scheduler.policy;
    try
    {
        // fifo first: its mean JCT, and the ports (so the paths) of the jobs
        ScenarioConfig fifo = m_cfg;
        fifo.scheduler.policy = "fifo";
        RunLayout layout;
        const RunResults r = Run(fifo, {}, &layout);
        m_bound.fifo = Summarise(r);
        m_ports = layout.portBases;
        LowerBound();

        FreeClasses();
        Search();

        if (m_bound.policy == "fifo")
        {
            m_bound.policyOutcome = m_bound.fifo;
        }
        else
        {
            m_bound.policyOutcome = Summarise(Run(m_cfg, {}, nullptr));
            Report("policy", 1, 1);
        }
    }
    catch (const BoundCancelled&)
    {
        m_bound.cancelled = true;
    }
    m_bound.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    m_bound.plugins = GetLoadedFluxPlugins();
    return m_bound;
}

} // namespace scenario

BoundResult
ComputeBound(const ScenarioConfig& cfg, const BoundOptions& opts)
{
    scenario::BoundSearch search(cfg, opts);
    return search.Compute();
}

} // namespace ns3
