/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-bound-search.h"

#include "ns3/log.h"
#include "ns3/traffic-class.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioBound");

namespace scenario
{

std::vector<uint8_t>
BoundSearch::ClassesOf(const std::vector<uint32_t>& order) const
{
    const std::size_t n = order.size();
    const std::size_t groups = std::min(m_free.size(), n);
    const std::size_t base = n / groups;
    const std::size_t extra = n % groups; // the last `extra` groups take one more
    std::vector<uint8_t> classes(n);
    std::size_t at = 0;
    for (std::size_t g = 0; g < groups; ++g)
    {
        const std::size_t size = base + (g >= groups - extra ? 1 : 0);
        for (std::size_t i = 0; i < size; ++i)
        {
            classes[order[at++]] = m_free[g];
        }
    }
    return classes;
}

std::vector<uint8_t>
BoundSearch::Key(const std::vector<uint8_t>& classes) const
{
    if (!m_cfg.background.empty())
    {
        return classes; // where the jobs stand against the background matters
    }
    // Without other traffic only the jobs' relative precedence does.
    std::vector<uint8_t> used(classes);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::vector<uint8_t> key;
    for (uint8_t c : classes)
    {
        key.push_back(
            static_cast<uint8_t>(std::lower_bound(used.begin(), used.end(), c) - used.begin()));
    }
    return key;
}

double
BoundSearch::Try(const std::vector<uint8_t>& classes, const std::string& schedule, bool hashKnown)
{
    const std::vector<uint8_t> key = Key(classes);
    const auto seen = m_tried.find(key);
    if (seen != m_tried.end() && !hashKnown)
    {
        return seen->second;
    }
    double best = seen != m_tried.end() ? seen->second : std::numeric_limits<double>::quiet_NaN();
    // On the hashed paths (fifo), on paths chosen to spread the jobs, the
    // largest first (ecmp-aware), and, when the classes order the jobs, on
    // paths chosen in that order (the first job served picks first): each
    // keeps the classes given here. Orders and paths are searched jointly.
    const bool ordered = std::any_of(classes.begin(), classes.end(), [&classes](uint8_t c) {
        return c != classes.front();
    });

    enum Paths
    {
        HASHED,
        BY_BYTES,
        BY_CLASS
    };

    for (const Paths paths : {HASHED, BY_BYTES, BY_CLASS})
    {
        if ((paths == HASHED && hashKnown) || (paths == BY_CLASS && !ordered))
        {
            continue;
        }
        ScenarioConfig cfg = m_cfg;
        cfg.scheduler.policy = paths == HASHED ? "fifo" : "ecmp-aware";
        if (paths == BY_CLASS)
        {
            cfg.scheduler.settings.push_back({"by_class", "ByClass", "true", 0, "true"});
        }
        for (std::size_t j = 0; j < cfg.jobs.size(); ++j)
        {
            cfg.jobs[j].priority = classes[j];
        }
        const BoundResult::Outcome o = Summarise(Run(cfg, m_ports, nullptr));
        Record(classes,
               paths == HASHED     ? schedule
               : paths == BY_BYTES ? schedule + ", chosen paths"
                                   : schedule + ", paths in its order",
               o);
        if (Better(o.meanJctMs, best))
        {
            best = o.meanJctMs;
        }
    }
    m_tried[key] = best;
    return best;
}

void
BoundSearch::Record(const std::vector<uint8_t>& classes,
                    const std::string& schedule,
                    const BoundResult::Outcome& o)
{
    auto& best = m_bound.best;
    ++best.schedulesTried;
    NS_LOG_INFO("schedule " << best.schedulesTried << " (" << schedule << "): mean JCT "
                            << o.meanJctMs << " ms");
    if (Better(o.meanJctMs, best.meanJctMs))
    {
        best.meanJctMs = o.meanJctMs;
        best.worstIterationMs = o.worstIterationMs;
        best.schedule = schedule;
        best.classes.clear();
        best.order.clear();
        for (std::size_t j = 0; j < classes.size(); ++j)
        {
            best.classes.emplace_back(m_cfg.jobs[j].name, classes[j]);
        }
        for (int c = TrafficClass::MAX_DATA; c >= 0; --c)
        {
            std::vector<std::string> group;
            for (std::size_t j = 0; j < classes.size(); ++j)
            {
                if (classes[j] == c)
                {
                    group.push_back(m_cfg.jobs[j].name);
                }
            }
            if (!group.empty())
            {
                best.order.push_back(group);
            }
        }
    }
    Report("schedule", best.schedulesTried, std::max(m_total, best.schedulesTried));
}

void
BoundSearch::Search()
{
    const auto n = static_cast<uint32_t>(m_cfg.jobs.size());
    std::vector<uint8_t> scenarioClasses;
    for (const auto& j : m_cfg.jobs)
    {
        scenarioClasses.push_back(static_cast<uint8_t>(j.priority));
    }
    // The fifo run is the schedule of the scenario's classes.
    m_tried.emplace(Key(scenarioClasses), m_bound.fifo.meanJctMs);
    std::vector<uint32_t> fileOrder(n);
    std::iota(fileOrder.begin(), fileOrder.end(), 0);
    auto& best = m_bound.best;
    if (m_free.empty() || n == 1)
    {
        // one job, or every data class at or above the background's:
        // nothing to order, but the paths may still be chosen
        m_total = 3;
        Record(scenarioClasses, "scenario", m_bound.fifo);
        Try(scenarioClasses, "scenario", true);
        best.search = n == 1 ? "one job: paths only" : "scenario classes only";
        return;
    }
    const std::vector<uint8_t> fair(n, m_free[0]);
    if (n <= m_opts.allOrdersUpTo)
    {
        best.search = "every order";
        // Count the distinct schedules first, for the progress report.
        std::vector<std::vector<uint32_t>> orders;
        std::vector<uint32_t> order = fileOrder;
        do
        {
            orders.push_back(order);
        } while (std::next_permutation(order.begin(), order.end()));
        std::vector<std::vector<uint8_t>> keys{Key(scenarioClasses), Key(fair)};
        for (const auto& o : orders)
        {
            keys.push_back(Key(ClassesOf(o)));
        }
        std::sort(keys.begin(), keys.end());
        m_total = 3 * static_cast<uint32_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
        Record(scenarioClasses, "scenario", m_bound.fifo);
        Try(scenarioClasses, "scenario", true);
        Try(fair, "fair");
        for (const auto& o : orders)
        {
            Try(ClassesOf(o), "priority");
        }
        return;
    }
    best.search = "orders and swaps";
    std::vector<uint32_t> shortest = fileOrder;
    std::stable_sort(shortest.begin(), shortest.end(), [this](uint32_t a, uint32_t b) {
        return m_bound.jobs[a].jctMs < m_bound.jobs[b].jctMs;
    });
    std::vector<uint32_t> longest = fileOrder;
    std::stable_sort(longest.begin(), longest.end(), [this](uint32_t a, uint32_t b) {
        return m_bound.jobs[a].jctMs > m_bound.jobs[b].jctMs;
    });
    m_total = 3 * (5 + m_opts.swapRuns);
    Record(scenarioClasses, "scenario", m_bound.fifo);
    Try(scenarioClasses, "scenario", true);
    Try(fair, "fair");
    std::vector<uint32_t> current;
    double currentMs = std::numeric_limits<double>::quiet_NaN();
    for (const auto& o : {shortest, longest, fileOrder})
    {
        const double ms = Try(ClassesOf(o), "priority");
        if (current.empty() || Better(ms, currentMs))
        {
            current = o;
            currentMs = ms;
        }
    }
    // Pairwise swaps of the best order so far: take the first that
    // improves it, and scan again, until none does or the runs run out.
    uint32_t swapRuns = 0;
    bool improved = true;
    while (improved && swapRuns < m_opts.swapRuns)
    {
        improved = false;
        for (uint32_t i = 0; i + 1 < n && !improved && swapRuns < m_opts.swapRuns; ++i)
        {
            for (uint32_t j = i + 1; j < n && !improved && swapRuns < m_opts.swapRuns; ++j)
            {
                std::vector<uint32_t> swapped = current;
                std::swap(swapped[i], swapped[j]);
                const std::vector<uint8_t> classes = ClassesOf(swapped);
                if (m_tried.count(Key(classes)))
                {
                    continue; // the same schedule: no run
                }
                ++swapRuns;
                const double ms = Try(classes, "priority");
                if (Better(ms, currentMs))
                {
                    current = swapped;
                    currentMs = ms;
                    improved = true;
                }
            }
        }
    }
}

} // namespace scenario
} // namespace ns3
