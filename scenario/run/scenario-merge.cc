/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A scenario run split over MPI processes (FabricRanks): how rank 0 puts
// the processes' results together.

#include "scenario-run.h"

#include "ns3/fabric-ranks.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

namespace ns3
{
namespace scenario
{

namespace
{

/// Words per gathered row of each kind.
constexpr std::size_t FLOW_WORDS = 8;
constexpr std::size_t RECORD_WORDS = 7;
constexpr std::size_t RATE_WORDS = 10;
constexpr std::size_t QUEUE_WORDS = 4;

/**
 * \brief The summable fields of transport counters, raw (spurious copies
 *        are recomputed from the sums).
 * \param t counters
 * \param out where to append them
 */
void
PushTransport(RunResults::TransportCounters& t, std::vector<uint64_t*>& out)
{
    out.insert(out.end(), {&t.retransmissions, &t.repair, &t.timeouts, &t.errorCompletions});
}

/**
 * \param t counters whose retransmissions and repairs are totals
 */
void
FixSpurious(RunResults::TransportCounters& t)
{
    t.spurious = t.retransmissions - std::min(t.retransmissions, t.repair);
}

/**
 * \param t a time in ns, as gathered
 * \return the time
 */
Time
Ns(double t)
{
    return NanoSeconds(static_cast<int64_t>(t));
}

} // namespace

void
ScenarioRun::MergeProcesses(RunResults& r) const
{
    const bool root = FabricRanks::GetRank() == 0;

    // Counters: each is counted by the process that simulates the node, the
    // other copies count nothing, so the sums are the fabric's. What every
    // process computes alike (the jobs' times, the controller's plans) is
    // rank 0's.
    std::vector<uint64_t*> sums;
    if (m_scheduler->DecidesPerRank())
    {
        sums = {&r.scheduler.decisions, &r.scheduler.held};
    }
    for (auto& j : r.jobs)
    {
        PushTransport(j.transport, sums);
    }
    for (auto& t : r.tenants)
    {
        sums.push_back(&t.failed);
        PushTransport(t.transport, sums);
    }
    auto& n = r.network;
    sums.insert(sums.end(),
                {&n.cnps,
                 &n.qpErrors,
                 &n.retransmissions,
                 &n.retransmissionsRepair,
                 &n.timeouts,
                 &n.linkLosses,
                 &n.drops,
                 &n.pfcPauses,
                 &n.linkDownDrops,
                 &n.linkStateChanges,
                 &n.ecnMarks,
                 &n.pfcWatchdogStorms,
                 &n.pfcWatchdogRestorations,
                 &n.pfcWatchdogDrops,
                 &n.pfcWatchdogForwarded,
                 &r.sim.events});
    for (auto& [kind, pauses] : n.pfcPausesByTier)
    {
        sums.push_back(&pauses);
    }
    // per link: pauses against it, and its wire bits (for the busiest links)
    const std::size_t nLinks = m_topo.links.size();
    std::vector<uint64_t> values;
    for (const uint64_t* v : sums)
    {
        values.push_back(*v);
    }
    for (uint32_t l = 0; l < nLinks; ++l)
    {
        const auto& link = m_topo.links[l];
        values.push_back(m_topo.GetPfcPauses(l));
        values.push_back(8 * (link.tx->GetTxBytes() + 24 * link.tx->GetTxFrames()));
    }
    values = FabricRanks::SumToRoot(values);

    // Rows: finished flows (at their receiver's process), the step records
    // of this process's ranks, per-packet latencies, sampled rates and queues.
    std::vector<double> flows;
    for (const auto& [tenant, rec, idealFctUs] : m_flows)
    {
        flows.insert(flows.end(),
                     {static_cast<double>(tenant),
                      static_cast<double>(rec.src),
                      static_cast<double>(rec.dst),
                      static_cast<double>(rec.bytes),
                      static_cast<double>(rec.start.GetNanoSeconds()),
                      static_cast<double>(rec.fct.GetNanoSeconds()),
                      static_cast<double>(rec.srcPort),
                      idealFctUs});
    }
    std::vector<double> records;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        Ptr<Collective> c = m_jobs[j]->GetCollective();
        for (const auto& rec : c->GetStepRecords())
        {
            if (FabricRanks::IsLocal(
                    *m_nics[m_cfg.jobs[j].hosts[rec.rank]]->GetDevice()->GetNode()))
            {
                records.insert(records.end(),
                               {static_cast<double>(j),
                                static_cast<double>(rec.run),
                                static_cast<double>(rec.step),
                                static_cast<double>(rec.rank),
                                static_cast<double>(rec.ready.GetNanoSeconds()),
                                static_cast<double>(rec.start.GetNanoSeconds()),
                                static_cast<double>(rec.end.GetNanoSeconds())});
            }
        }
    }
    std::vector<double> rates;
    for (std::size_t i = 0; i < m_rates.size(); ++i)
    {
        const auto& s = m_rates[i];
        rates.insert(rates.end(),
                     {s.timeUs,
                      static_cast<double>(m_rateOrder[i].first),
                      static_cast<double>(m_rateOrder[i].second),
                      static_cast<double>(s.src),
                      static_cast<double>(s.dst),
                      static_cast<double>(s.qpn),
                      s.rateGbps,
                      s.targetGbps,
                      s.alpha,
                      s.windowBytes});
    }
    std::vector<double> queues;
    for (std::size_t i = 0; i < m_queues.size(); ++i)
    {
        const auto& q = m_queues[i];
        queues.insert(queues.end(),
                      {q.timeUs,
                       static_cast<double>(m_queueTrace[i]),
                       static_cast<double>(q.queueBytes),
                       q.utilization});
    }
    flows = FabricRanks::GatherToRoot(flows);
    records = FabricRanks::GatherToRoot(records);
    // (one process has them all already: no copy of what may be millions)
    const bool split = FabricRanks::GetNRanks() > 1;
    std::vector<SampleSummary> latencies(split ? m_latencyUs.size() : 0);
    for (std::size_t o = 0; o < latencies.size(); ++o)
    {
        latencies[o].AddAll(FabricRanks::GatherToRoot(m_latencyUs[o].Sorted()));
    }
    rates = FabricRanks::GatherToRoot(rates);
    queues = FabricRanks::GatherToRoot(queues);
    if (!root)
    {
        return;
    }

    for (std::size_t i = 0; i < sums.size(); ++i)
    {
        *sums[i] = values[i];
    }
    for (auto& j : r.jobs)
    {
        FixSpurious(j.transport);
    }
    for (auto& t : r.tenants)
    {
        FixSpurious(t.transport);
    }
    n.retransmissionsSpurious =
        n.retransmissions - std::min(n.retransmissions, n.retransmissionsRepair);
    n.pfcPausesByLink.clear();
    std::vector<double> bits;
    for (uint32_t l = 0; l < nLinks; ++l)
    {
        const uint64_t pauses = values[sums.size() + 2 * l];
        if (pauses > 0)
        {
            n.pfcPausesByLink.emplace_back(m_topo.links[l].name, pauses);
        }
        bits.push_back(static_cast<double>(values[sums.size() + 2 * l + 1]));
    }
    r.links = BusiestLinks(bits, Simulator::Now().GetSeconds());

    // Flows in the order they ended (ties by tenant, source, destination).
    std::vector<std::array<double, FLOW_WORDS>> rows;
    for (std::size_t i = 0; i + FLOW_WORDS <= flows.size(); i += FLOW_WORDS)
    {
        std::array<double, FLOW_WORDS> row;
        std::copy(flows.begin() + i, flows.begin() + i + FLOW_WORDS, row.begin());
        rows.push_back(row);
    }
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return std::make_tuple(a[4] + a[5], a[0], a[1], a[2], a[4]) <
               std::make_tuple(b[4] + b[5], b[0], b[1], b[2], b[4]);
    });
    r.flows.clear();
    for (const auto& row : rows)
    {
        const FlowTraffic::FlowRecord rec{static_cast<uint32_t>(row[1]),
                                          static_cast<uint32_t>(row[2]),
                                          static_cast<uint64_t>(row[3]),
                                          Ns(row[4]),
                                          Ns(row[5]),
                                          static_cast<uint16_t>(row[6])};
        r.flows.push_back(ToFlowResult(FinishedFlow{static_cast<uint32_t>(row[0]), rec, row[7]}));
    }

    // Phases and gate waits from every rank's step records, as one process
    // finds them (Collective's Phase trace and GetGateWait).
    for (uint32_t j = 0; j < r.jobs.size(); ++j)
    {
        const uint32_t ranks = m_jobs[j]->GetCollective()->GetNRanks();
        const uint32_t steps = m_jobs[j]->GetCollective()->GetNSteps();
        const uint32_t buckets = m_jobs[j]->GetNBuckets();
        // (run, step) -> ranks finished, first start, last end
        std::map<std::pair<uint32_t, uint32_t>, std::tuple<uint32_t, int64_t, int64_t>> phases;
        int64_t wait = 0;
        for (std::size_t i = 0; i + RECORD_WORDS <= records.size(); i += RECORD_WORDS)
        {
            if (static_cast<uint32_t>(records[i]) != j)
            {
                continue;
            }
            const auto run = static_cast<uint32_t>(records[i + 1]);
            const auto step = static_cast<uint32_t>(records[i + 2]);
            const auto ready = static_cast<int64_t>(records[i + 4]);
            const auto start = static_cast<int64_t>(records[i + 5]);
            const auto end = static_cast<int64_t>(records[i + 6]);
            if (start >= ready)
            {
                wait += start - ready;
            }
            auto& [done, first, last] =
                phases.try_emplace({run, step}, 0, INT64_MAX, INT64_MIN).first->second;
            first = std::min(first, start); // a phase counts once every rank started and ended it
            if (end > 0)
            {
                ++done;
                last = std::max(last, end);
            }
        }
        RunResults::JobResult& jr = r.jobs[j];
        jr.phases.clear();
        for (const auto& [key, value] : phases)
        {
            const auto& [done, first, last] = value;
            if (done < ranks)
            {
                continue;
            }
            RunResults::PhaseTime pt;
            pt.iteration = key.first / buckets;
            pt.step = (key.first % buckets) * steps + key.second;
            pt.startMs = NanoSeconds(first).GetSeconds() * 1e3;
            pt.durationMs = NanoSeconds(last - first).GetSeconds() * 1e3;
            jr.phases.push_back(pt);
        }
        std::sort(jr.phases.begin(), jr.phases.end(), [](const auto& x, const auto& y) {
            return std::tie(x.iteration, x.step) < std::tie(y.iteration, y.step);
        });
        const Time gateWait = ranks > 0 ? NanoSeconds(wait / ranks) : Time();
        jr.gateWaitMs = (gateWait + m_jobs[j]->GetIterationGateWait()).GetSeconds() * 1e3;
    }

    if (split)
    {
        r.packetLatencyUs.Clear();
        for (std::size_t o = 0; o < latencies.size(); ++o)
        {
            r.SetPacketLatency(o, latencies[o]);
            r.packetLatencyUs.Merge(latencies[o]);
        }
    }
    r.packetLatencyUs.Canonicalize();

    r.rates.clear();
    std::vector<std::array<double, RATE_WORDS>> rateRows;
    for (std::size_t i = 0; i + RATE_WORDS <= rates.size(); i += RATE_WORDS)
    {
        std::array<double, RATE_WORDS> row;
        std::copy(rates.begin() + i, rates.begin() + i + RATE_WORDS, row.begin());
        rateRows.push_back(row);
    }
    // as one process samples them: by time, owner, place in the owner's list
    std::sort(rateRows.begin(), rateRows.end(), [](const auto& a, const auto& b) {
        return std::make_tuple(a[0], a[1], a[2]) < std::make_tuple(b[0], b[1], b[2]);
    });
    for (const auto& row : rateRows)
    {
        RunResults::RateSample s;
        s.timeUs = row[0];
        s.owner = OwnerName(static_cast<uint32_t>(row[1]));
        s.src = static_cast<uint32_t>(row[3]);
        s.dst = static_cast<uint32_t>(row[4]);
        s.qpn = static_cast<uint32_t>(row[5]);
        s.rateGbps = row[6];
        s.targetGbps = row[7];
        s.alpha = row[8];
        s.windowBytes = row[9];
        r.rates.push_back(s);
    }
    r.queues.clear();
    std::vector<std::array<double, QUEUE_WORDS>> queueRows;
    for (std::size_t i = 0; i + QUEUE_WORDS <= queues.size(); i += QUEUE_WORDS)
    {
        queueRows.push_back({queues[i], queues[i + 1], queues[i + 2], queues[i + 3]});
    }
    std::sort(queueRows.begin(), queueRows.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a[0], a[1]) < std::make_pair(b[0], b[1]);
    });
    for (const auto& row : queueRows)
    {
        RunResults::QueueSample q;
        q.timeUs = row[0];
        q.link = m_topo.links[m_traceLinks[static_cast<std::size_t>(row[1])]].name;
        q.queueBytes = static_cast<uint64_t>(row[2]);
        q.utilization = row[3];
        r.queues.push_back(q);
    }
}

} // namespace scenario
} // namespace ns3
