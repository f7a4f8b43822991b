/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "path-placement.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <utility>

namespace ns3
{

namespace
{

/// Loads closer than this are equal (rounding must not move sends).
constexpr double EPSILON = 1e-9;
/// FitAll() tries placements of this many sends at most ...
constexpr std::size_t MAX_FIT_SENDS = 1024;
/// ... and this many paths in all.
constexpr uint64_t MAX_FIT_NODES = 200000;

} // namespace

bool
PathPlacement::Totals::Below(const Totals& o) const
{
    if (overload < o.overload - EPSILON)
    {
        return true;
    }
    if (overload > o.overload + EPSILON)
    {
        return false;
    }
    return pairs < o.pairs || (pairs == o.pairs && squares < o.squares - EPSILON);
}

PathPlacement::PathPlacement(std::vector<double> linkBps, uint32_t nJobs)
    : m_linkBps(std::move(linkBps)),
      m_nJobs(nJobs),
      m_load(m_linkBps.size(), 0.0),
      m_sendsOn(m_linkBps.size()),
      m_jobsOn(m_linkBps.size()),
      m_partners(static_cast<std::size_t>(nJobs) * nJobs, 0)
{
}

void
PathPlacement::AddFixedLoad(uint32_t link, double load)
{
    m_load.at(link) += load;
}

uint32_t
PathPlacement::AddSend(uint32_t job, double bps, std::vector<std::vector<uint32_t>> paths)
{
    m_sends.push_back(Send{job, bps, std::move(paths), 0});
    return static_cast<uint32_t>(m_sends.size() - 1);
}

std::size_t
PathPlacement::GetChosen(uint32_t send) const
{
    return m_sends.at(send).chosen;
}

double
PathPlacement::GetOverload() const
{
    return m_totals.overload;
}

uint64_t
PathPlacement::GetSharingPairs() const
{
    return static_cast<uint64_t>(m_totals.pairs);
}

uint64_t
PathPlacement::GetSearchNodes() const
{
    return m_searchNodes;
}

void
PathPlacement::Partner(uint32_t a, uint32_t b, int32_t delta)
{
    int32_t& p = m_partners[static_cast<std::size_t>(a) * m_nJobs + b];
    const bool before = p != 0;
    p += delta;
    m_partners[static_cast<std::size_t>(b) * m_nJobs + a] = p;
    m_totals.pairs += static_cast<int64_t>(p != 0) - static_cast<int64_t>(before);
}

void
PathPlacement::Apply(uint32_t s, int sign)
{
    const Send& send = m_sends[s];
    for (uint32_t l : send.paths[send.chosen])
    {
        auto& on = m_sendsOn[l];
        if (sign > 0)
        {
            on.push_back(s);
        }
        else
        {
            on.erase(std::find(on.begin(), on.end(), s));
        }
        const double before = m_load[l];
        m_load[l] += sign * send.bps / m_linkBps[l];
        m_totals.overload += std::max(0.0, m_load[l] - 1) - std::max(0.0, before - 1);
        m_totals.squares += m_load[l] * m_load[l] - before * before;
        auto& jobs = m_jobsOn[l];
        auto it = std::find_if(jobs.begin(), jobs.end(), [&send](const auto& e) {
            return e.first == send.job;
        });
        for (const auto& [k, count] : jobs)
        {
            if (k != send.job)
            {
                Partner(send.job, k, sign * count);
            }
        }
        if (it == jobs.end())
        {
            jobs.emplace_back(send.job, 1);
        }
        else if ((it->second += sign) == 0)
        {
            jobs.erase(it);
        }
    }
}

PathPlacement::Cost
PathPlacement::PathCost(uint32_t s, std::size_t p)
{
    const Send& send = m_sends[s];
    Cost c{0, 0, 0};
    m_met.clear();
    for (uint32_t l : send.paths[p])
    {
        const double after = m_load[l] + send.bps / m_linkBps[l];
        c.worst = std::max(c.worst, after);
        c.squares += after * after;
        for (const auto& e : m_jobsOn[l])
        {
            if (e.first != send.job &&
                m_partners[static_cast<std::size_t>(send.job) * m_nJobs + e.first] == 0 &&
                std::find(m_met.begin(), m_met.end(), e.first) == m_met.end())
            {
                m_met.push_back(e.first);
            }
        }
    }
    c.strangers = static_cast<uint32_t>(m_met.size());
    return c;
}

void
PathPlacement::Choose(uint32_t s)
{
    Send& send = m_sends[s];
    std::size_t best = send.chosen;
    Cost bestCost = PathCost(s, best);
    for (std::size_t p = 0; p < send.paths.size(); ++p)
    {
        const Cost c = PathCost(s, p);
        // a clear gain only: rounding must not move sends back and forth
        const bool lower = c.worst < bestCost.worst - EPSILON;
        const bool same = !lower && c.worst < bestCost.worst + EPSILON;
        if (lower || (same && (c.strangers < bestCost.strangers ||
                               (c.strangers == bestCost.strangers &&
                                c.squares < bestCost.squares - EPSILON))))
        {
            best = p;
            bestCost = c;
        }
    }
    send.chosen = best;
}

void
PathPlacement::Move(uint32_t s, std::size_t p)
{
    Apply(s, -1);
    m_sends[s].chosen = p;
    Apply(s, 1);
}

bool
PathPlacement::EjectionChains()
{
    auto overloaded = [this](uint32_t l) { return m_load[l] > 1 + EPSILON; };
    std::vector<std::pair<uint32_t, std::size_t>> undo; // (send, its path before)
    std::vector<uint32_t> victims;
    bool improved = false;
    for (uint32_t i = 0; i < m_sends.size() && m_budget > 0 && m_totals.overload > EPSILON; ++i)
    {
        const auto& now = m_sends[i].paths[m_sends[i].chosen];
        if (std::none_of(now.begin(), now.end(), overloaded))
        {
            continue;
        }
        for (std::size_t p = 0; p < m_sends[i].paths.size() && m_budget > 0; ++p)
        {
            if (p == m_sends[i].chosen)
            {
                continue;
            }
            --m_budget;
            const Totals base = m_totals;
            undo.assign(1, {i, m_sends[i].chosen});
            Move(i, p);
            victims.clear();
            for (uint32_t l : m_sends[i].paths[p])
            {
                if (!overloaded(l))
                {
                    continue;
                }
                for (uint32_t t : m_sendsOn[l])
                {
                    if (t != i && std::find(victims.begin(), victims.end(), t) == victims.end())
                    {
                        victims.push_back(t);
                    }
                }
            }
            for (uint32_t t : victims)
            {
                undo.emplace_back(t, m_sends[t].chosen);
                Apply(t, -1);
                Choose(t);
                Apply(t, 1);
            }
            if (m_totals.Below(base))
            {
                improved = true;
                break;
            }
            for (auto it = undo.rbegin(); it != undo.rend(); ++it)
            {
                Move(it->first, it->second);
            }
            m_totals = base; // the same placement: drop the rounding
        }
    }
    return improved;
}

void
PathPlacement::Improve()
{
    for (int pass = 0; pass < 3; ++pass)
    {
        bool moved = false;
        for (uint32_t s = 0; s < m_sends.size(); ++s)
        {
            const std::size_t before = m_sends[s].chosen;
            Apply(s, -1);
            Choose(s);
            Apply(s, 1);
            moved = moved || m_sends[s].chosen != before;
        }
        if (!moved)
        {
            break;
        }
    }
    while (m_totals.overload > EPSILON && m_budget > 0 && EjectionChains())
    {
    }
}

bool
PathPlacement::FitAll()
{
    const std::size_t n = m_sends.size();
    if (n > MAX_FIT_SENDS)
    {
        return false;
    }
    // depth first, the sends with the fewest paths first, each path that
    // keeps every link within capacity (its present path first)
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        return m_sends[a].paths.size() < m_sends[b].paths.size();
    });
    for (uint32_t s = 0; s < n; ++s)
    {
        Apply(s, -1);
    }
    std::vector<double> load = m_load;
    std::vector<std::size_t> pick(n);
    m_searchNodes = 0;
    std::function<bool(std::size_t)> fit = [&](std::size_t i) {
        if (i == n)
        {
            return true;
        }
        const Send& send = m_sends[order[i]];
        for (std::size_t t = 0; t < send.paths.size(); ++t)
        {
            // (counted before the try: a count that deeper levels used up
            // stops every level above them too)
            if (m_searchNodes == MAX_FIT_NODES)
            {
                return false;
            }
            ++m_searchNodes;
            const std::size_t p = (send.chosen + t) % send.paths.size();
            const auto& path = send.paths[p];
            if (std::any_of(path.begin(), path.end(), [&](uint32_t l) {
                    return load[l] + send.bps / m_linkBps[l] > 1 + EPSILON;
                }))
            {
                continue;
            }
            for (uint32_t l : path)
            {
                load[l] += send.bps / m_linkBps[l];
            }
            pick[order[i]] = p;
            if (fit(i + 1))
            {
                return true;
            }
            for (uint32_t l : path)
            {
                load[l] -= send.bps / m_linkBps[l];
            }
        }
        return false;
    };
    const bool found = fit(0);
    for (uint32_t s = 0; s < n; ++s)
    {
        if (found)
        {
            m_sends[s].chosen = pick[s];
        }
        Apply(s, 1);
    }
    if (found)
    {
        Improve(); // fewer sharing pairs, lower squares, within capacity
    }
    return found;
}

uint32_t
PathPlacement::Random()
{
    // xorshift64*: portable, so a placement is the same everywhere
    m_random ^= m_random >> 12;
    m_random ^= m_random << 25;
    m_random ^= m_random >> 27;
    return static_cast<uint32_t>((m_random * 2685821657736338717ULL) >> 32);
}

void
PathPlacement::Place()
{
    m_totals = Totals();
    for (double x : m_load)
    {
        m_totals.overload += std::max(0.0, x - 1);
        m_totals.squares += x * x;
    }
    for (uint32_t s = 0; s < m_sends.size(); ++s)
    {
        Choose(s);
        Apply(s, 1);
    }
    const std::size_t n = m_sends.size();
    const uint64_t trials = std::min<uint64_t>(16 * n, 20000);
    m_budget = trials;
    Improve();
    if (m_totals.overload <= EPSILON || n == 0 || FitAll())
    {
        return;
    }
    // Kicks: the sends on overloaded links (and one more) onto other paths,
    // then the search again; the best placement found stays.
    std::vector<std::size_t> best(n);
    for (std::size_t s = 0; s < n; ++s)
    {
        best[s] = m_sends[s].chosen;
    }
    Totals bestTotals = m_totals;
    std::vector<uint32_t> kicked;
    const std::size_t kicks = std::min<std::size_t>(100, 20000 / n);
    for (std::size_t k = 0; k < kicks && bestTotals.overload > EPSILON; ++k)
    {
        kicked.clear();
        for (uint32_t l = 0; l < m_load.size(); ++l)
        {
            if (m_load[l] > 1 + EPSILON)
            {
                kicked.insert(kicked.end(), m_sendsOn[l].begin(), m_sendsOn[l].end());
            }
        }
        kicked.push_back(Random() % n);
        std::sort(kicked.begin(), kicked.end());
        kicked.erase(std::unique(kicked.begin(), kicked.end()), kicked.end());
        for (uint32_t s : kicked)
        {
            const std::size_t paths = m_sends[s].paths.size();
            if (paths > 1)
            {
                Move(s, (m_sends[s].chosen + 1 + Random() % (paths - 1)) % paths);
            }
        }
        m_budget = trials;
        Improve();
        if (m_totals.Below(bestTotals))
        {
            bestTotals = m_totals;
            for (std::size_t s = 0; s < n; ++s)
            {
                best[s] = m_sends[s].chosen;
            }
            continue;
        }
        for (uint32_t s = 0; s < n; ++s)
        {
            if (m_sends[s].chosen != best[s])
            {
                Move(s, best[s]);
            }
        }
        m_totals = bestTotals;
    }
}

} // namespace ns3
