/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-plugin.h"
#include "scenario-run.h"
#include "scenario-scheduler.h"

#include "ns3/ib-bth-header.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/results-writer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioCollect");

namespace scenario
{

namespace
{

/// The results' form of a queue pair's counters.
RunResults::TransportCounters
ToResults(const RdmaQueuePair::Counters& c)
{
    RunResults::TransportCounters t;
    t.retransmissions = c.retransmitted;
    t.repair = c.repairsReceived;
    // Every copy that did not deliver new data: duplicates, copies still in
    // flight at the end, copies lost themselves.
    t.spurious = c.retransmitted - std::min(c.retransmitted, c.repairsReceived);
    t.timeouts = c.timeouts;
    t.errorCompletions = c.errorCompletions;
    return t;
}

/// \return whether a message of the job waits at flow level on a link that
/// is down, for good: its queue pair has no ACK timeout to give up on
bool
CutOff(const FluidNetwork& fluid, const TrainingJob& job)
{
    const auto qps = job.GetQueuePairs();
    return std::any_of(qps.begin(), qps.end(), [&fluid](const Ptr<RdmaQueuePair>& qp) {
        return qp && fluid.IsCutOff(qp) && qp->GetGiveUpTime().IsZero();
    });
}

/**
 * \brief What a replayed workload ran: per operation kind, and per rank.
 * \param replay the workload
 * \param jr its job's results
 */
void
CollectReplay(const WorkloadReplay& replay, RunResults::JobResult& jr)
{
    jr.replay = true;
    RdmaQueuePair::Counters counters;
    for (const auto& c : replay.GetCollectives())
    {
        counters += c->GetCounters();
    }
    jr.transport = ToResults(counters);
    const auto add = [&jr](const std::string& kind, const WorkloadReplay::TypeStats& s) {
        if (s.count > 0)
        {
            jr.operations.push_back({kind, s.count, s.bytes, s.time.GetSeconds() * 1e3});
        }
    };
    for (uint32_t t = 0; t < N_COLLECTIVE_TYPES; ++t)
    {
        add(CollectiveTypeName(static_cast<CollectiveType>(t)), replay.GetTypeStats()[t]);
    }
    add("send-recv", replay.GetPeerStats());
    const auto& ranks = replay.GetRankStats();
    for (const auto& r : ranks)
    {
        jr.computeMs += r.compute.GetSeconds() * 1e3 / ranks.size();
        jr.commMs += r.comm.GetSeconds() * 1e3 / ranks.size();
        jr.exposedCommMs += r.exposedComm.GetSeconds() * 1e3 / ranks.size();
    }
}

} // namespace

std::vector<uint32_t>
ScenarioRun::PathForIdeal(const FlowTraffic::FlowRecord& rec) const
{
    std::vector<uint32_t> path = m_topo.GetPath(rec.src, rec.dst, rec.srcPort);
    return path.empty() ? m_topo.GetBuiltPath(rec.src, rec.dst) : path;
}

Time
ScenarioRun::IdealFct(const FlowTraffic::FlowRecord& rec) const
{
    // Store-and-forward of back-to-back packets over the hops: the last
    // packet arrives at the end of the longest path through the (packet,
    // hop) grid. Every packet but the last is full, so that path runs the
    // full packets over the hops up to some hop c, the other full packets
    // through hop c at the slowest pace up to there, then the last packet
    // from hop c on (it may be shorter than the others).
    const uint32_t mtu = m_cfg.transport.mtuBytes;
    const uint64_t packets = rec.bytes == 0 ? 1 : (rec.bytes + mtu - 1) / mtu;
    // A data packet's headers: Ethernet+VLAN, IPv4, UDP, BTH and ICRC.
    const uint32_t overhead =
        WireBytes::L2 + WireBytes::IP_UDP + IbBthHeader::SIZE + IbBthHeader::ICRC_BYTES;
    const auto lastBytes = static_cast<uint32_t>(rec.bytes - (packets - 1) * mtu) + overhead;
    const std::vector<uint32_t> path = PathForIdeal(rec);
    // In picoseconds, as the line paces frames (a frame time rounded to
    // the nanosecond, times the packets, came out short by up to a
    // nanosecond a packet); the line's events fall on whole nanoseconds,
    // each run of frames on a hop down to one, so the sum is taken down by
    // a nanosecond per hop and one more to stay a lower bound.
    Time delays;
    int64_t lastFrom = 0; // the last packet over the hops from c on
    for (uint32_t l : path)
    {
        delays += DynamicCast<PfcChannel>(m_topo.links[l].tx->GetChannel())->GetDelay();
        lastFrom += m_topo.links[l].tx->GetFrameTxPicoSeconds(lastBytes);
    }
    int64_t longest = lastFrom;
    int64_t fullTo = 0;  // a full packet over the hops up to c
    int64_t slowest = 0; // the slowest full frame up to c
    for (uint32_t l : path)
    {
        if (packets < 2)
        {
            break;
        }
        const int64_t full = m_topo.links[l].tx->GetFrameTxPicoSeconds(mtu + overhead);
        fullTo += full;
        slowest = std::max(slowest, full);
        longest =
            std::max(longest, fullTo + slowest * static_cast<int64_t>(packets - 2) + lastFrom);
        lastFrom -= m_topo.links[l].tx->GetFrameTxPicoSeconds(lastBytes);
    }
    const auto slack = 1000 * static_cast<int64_t>(path.size() + 1);
    return delays + PicoSeconds(std::max<int64_t>(0, longest - slack));
}

RunResults::FlowResult
ScenarioRun::ToFlowResult(const FinishedFlow& flow) const
{
    const FlowTraffic::FlowRecord& rec = flow.rec;
    RunResults::FlowResult fr;
    fr.tenant = m_tenants[flow.tenant]->GetName();
    fr.src = rec.src;
    fr.dst = rec.dst;
    fr.sizeBytes = rec.bytes;
    fr.startMs = rec.start.GetSeconds() * 1e3;
    fr.fctUs = rec.fct.GetSeconds() * 1e6;
    fr.idealFctUs = flow.idealFctUs;
    return fr;
}

std::vector<RunResults::LinkUtilization>
ScenarioRun::BusiestLinks(const std::vector<double>& bits, double simS) const
{
    std::vector<RunResults::LinkUtilization> links;
    if (simS <= 0)
    {
        return links;
    }
    for (std::size_t l = 0; l < m_topo.links.size(); ++l)
    {
        const auto& tx = m_topo.links[l].tx;
        const double u = bits[l] / (tx->GetDataRate().GetBitRate() * simS);
        links.push_back(RunResults::LinkUtilization{m_topo.links[l].name, std::min(1.0, u)});
    }
    std::stable_sort(links.begin(), links.end(), [](const auto& a, const auto& b) {
        return a.utilization > b.utilization;
    });
    if (links.size() > ResultsWriter::kBusiestLinks)
    {
        links.resize(ResultsWriter::kBusiestLinks);
    }
    return links;
}

RunResults
ScenarioRun::Collect(double wallS) const
{
    RunResults r;
    r.policy = m_cfg.scheduler.policy;
    r.seed = m_cfg.seed;
    r.seeds.ecmp = m_cfg.EcmpSeed();
    r.seeds.background = m_cfg.BackgroundSeed();
    r.seeds.placement = m_cfg.PlacementSeed();
    {
        const auto& c = m_scheduler->GetCounters();
        for (uint8_t cls : m_scheduler->GetJobClasses())
        {
            r.scheduler.classes.push_back(cls);
        }
        if (!m_scheduler->GetJobClasses().empty())
        {
            r.scheduler.order = m_scheduler->GetClassOrderString();
        }
        r.scheduler.decisions = c.decisions;
        r.scheduler.held = c.held;
        r.scheduler.replans = c.replans;
        r.scheduler.overdue = c.overdue;
        r.scheduler.messages = c.messages;
        r.scheduler.classChanges = c.classChanges;
        r.scheduler.pathsMoved = c.pathsMoved;
        r.scheduler.counters = m_scheduler->GetPolicyCounters();
    }
    nlohmann::ordered_json taken = nlohmann::ordered_json::object();
    for (const auto& s : m_cfg.scheduler.settings)
    {
        if (PolicyTakes(m_scheduler, s))
        {
            // (a setting made in code may not say how it was written)
            taken[s.key] = s.written.empty() ? nlohmann::ordered_json(s.value)
                                             : nlohmann::ordered_json::parse(s.written);
        }
        else
        {
            r.scheduler.ignored.push_back(s.key);
        }
    }
    r.scheduler.settings = taken.dump();
    // (a factory the scenario gives in ns3_defaults replaces transport.cc)
    const auto factory = m_cfg.ns3Defaults.find("ns3::RdmaNic::CongestionControl");
    r.cc = factory != m_cfg.ns3Defaults.end() ? factory->second : m_cfg.transport.cc;
    for (const auto& job : m_jobs)
    {
        RunResults::JobResult jr;
        jr.name = job->GetName();
        jr.completed = job->IsFinished();
        jr.status = jr.completed ? "completed" : job->HasFailed() ? "failed" : "unfinished";
        jr.reason = job->GetFailureReason();
        if (m_fluid && jr.status == "unfinished" && CutOff(*m_fluid, *job))
        {
            jr.reason = "at flow level, a message waits on a link that is down (without an "
                        "ACK timeout nothing fails it)";
        }
        jr.transport = ToResults(job->GetCollective()->GetCounters());
        if (job->GetWorkload())
        {
            CollectReplay(*job->GetWorkload(), jr);
        }
        jr.jctMs = job->GetJct().GetSeconds() * 1e3;
        jr.gateWaitMs =
            (job->GetCollective()->GetGateWait() + job->GetIterationGateWait()).GetSeconds() * 1e3;
        jr.trafficClass = m_scheduler->GetCurrentClass(static_cast<uint32_t>(r.jobs.size()));
        for (const auto& c : m_scheduler->GetClassTimeline(static_cast<uint32_t>(r.jobs.size())))
        {
            jr.classTimeline.emplace_back(static_cast<double>(c.at.GetNanoSeconds()) / 1e6, c.cls);
        }
        for (const auto& it : job->GetIterations())
        {
            jr.iterationMs.push_back((it.end - it.start).GetSeconds() * 1e3);
        }
        // Phases as the collective traced them, in (iteration, step) order.
        jr.phases = m_phases[r.jobs.size()]->times;
        std::sort(jr.phases.begin(),
                  jr.phases.end(),
                  [](const RunResults::PhaseTime& x, const RunResults::PhaseTime& y) {
                      return std::tie(x.iteration, x.step) < std::tie(y.iteration, y.step);
                  });
        r.jobs.push_back(jr);
    }
    CollectJobPaths(r);
    for (const auto& flow : m_flows)
    {
        r.flows.push_back(ToFlowResult(flow));
    }
    for (std::size_t i = 0; i < m_tenants.size(); ++i)
    {
        const auto& t = m_tenants[i];
        RunResults::TenantResult tr;
        tr.name = t->GetName();
        const double endMs = m_tenantArrivalsEndMs[i]; // (a stop_ms the run may not reach)
        // (arrivals that would have begun after the jobs ended never did)
        if (!std::isnan(endMs) && FromMs(endMs) <= Simulator::Now() &&
            endMs >= m_cfg.background[i].startMs)
        {
            tr.arrivalsEndMs = endMs;
        }
        tr.started = t->GetFlowsStarted();
        tr.failed = t->GetFlowsFailed();
        tr.transport = ToResults(t->GetCounters());
        r.tenants.push_back(tr);
    }
    r.packetLatencyUs.Clear();
    std::size_t samples = 0;
    for (const auto& owner : m_latencyUs)
    {
        samples += owner.Count();
    }
    r.packetLatencyUs.Reserve(samples);
    for (std::size_t o = 0; o < m_latencyUs.size(); ++o)
    {
        r.SetPacketLatency(o, m_latencyUs[o]);
        r.packetLatencyUs.Merge(m_latencyUs[o]);
    }

    RdmaQueuePair::Counters all;
    for (const auto& nic : m_nics)
    {
        r.network.cnps += nic->GetCnpsSent();
        r.network.qpErrors += nic->GetQpErrors();
        all += nic->GetCounters();
    }
    const auto t = ToResults(all);
    r.network.retransmissions = t.retransmissions;
    r.network.retransmissionsRepair = t.repair;
    r.network.retransmissionsSpurious = t.spurious;
    r.network.timeouts = t.timeouts;
    // Frames lost to link faults: random loss at the receiving port, and
    // frames sent into a link that was down (counted once per cable).
    std::set<const PfcChannel*> cables;
    for (const auto& link : m_topo.links)
    {
        r.network.linkLosses += link.rx->GetRxErrors();
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(link.tx->GetChannel());
        if (cables.insert(PeekPointer(ch)).second)
        {
            r.network.linkLosses += ch->GetLostFrames();
        }
    }
    const FabricSwitch::Stats fabric = m_topo.GetSwitchStats();
    r.network.drops = fabric.GetNDroppedPackets() + r.network.linkLosses;
    r.network.pfcPauses = fabric.nPfcPauses;
    r.network.linkDownDrops = fabric.GetNDroppedPackets(FabricSwitch::DROP_LINK_DOWN);
    r.network.linkStateChanges = fabric.nLinkStateChanges;
    r.network.routeUpdates = m_routeUpdates;
    // PFC pauses per paused link direction, and by the tiers it joins.
    {
        static const std::map<std::string, std::vector<std::string>> tierNames = {
            {"leaf-spine", {"leaf", "spine"}},
            {"rail-optimized", {"leaf", "spine"}},
            {"fat-tree", {"edge", "agg", "core"}},
            {"dumbbell", {"switch"}},
            {"ring", {"ring"}},
            {"links", {"switch"}}};
        const auto names = tierNames.find(m_topo.kind);
        auto tierOf = [this, &names](const Ptr<PfcNetDevice>& dev) -> std::string {
            const uint32_t id = dev->GetNode()->GetId();
            if (id >= m_topo.switchOfNode.size() || m_topo.switchOfNode[id] < 0)
            {
                return "host";
            }
            const uint32_t tier = m_topo.switches[m_topo.switchOfNode[id]].tier;
            if (names == tierNames.end() || tier >= names->second.size())
            {
                return "tier" + std::to_string(tier);
            }
            return names->second[tier];
        };
        for (uint32_t l = 0; l < m_topo.links.size(); ++l)
        {
            const auto& link = m_topo.links[l];
            const std::string rxTier = tierOf(link.rx);
            if (rxTier == "host")
            {
                continue; // hosts never pause
            }
            const std::string kind = tierOf(link.tx) + "->" + rxTier;
            auto it = std::find_if(r.network.pfcPausesByTier.begin(),
                                   r.network.pfcPausesByTier.end(),
                                   [&kind](const auto& e) { return e.first == kind; });
            if (it == r.network.pfcPausesByTier.end())
            {
                r.network.pfcPausesByTier.emplace_back(kind, 0);
                it = r.network.pfcPausesByTier.end() - 1;
            }
            const uint64_t pauses = m_topo.GetPfcPauses(l);
            it->second += pauses;
            if (pauses > 0)
            {
                r.network.pfcPausesByLink.emplace_back(link.name, pauses);
            }
        }
    }
    // the MMU's marks and the queue discs' (per-class and per-flow ECN)
    r.network.ecnMarks = fabric.nEcnMarks + fabric.nQueueDiscMarks;
    for (const auto& s : m_topo.switches)
    {
        r.network.pfcWatchdog = r.network.pfcWatchdog || s.sw->GetPfcWatchdogEnabled();
    }
    if (r.network.pfcWatchdog)
    {
        const PfcWatchdog::Counters& wd = fabric.watchdog;
        r.network.pfcWatchdogStorms = wd.storms;
        r.network.pfcWatchdogRestorations = wd.restorations;
        r.network.pfcWatchdogDrops = wd.drops;
        r.network.pfcWatchdogForwarded = wd.forwarded;
    }

    const double simS = Simulator::Now().GetSeconds();
    r.links = BusiestLinks(LinkBits(), simS);
    r.sim.simulatedMs = simS * 1e3;
    r.sim.wallS = wallS;
    r.sim.events = Simulator::GetEventCount();
    r.sim.stopReason = m_stopReason;
    r.sim.plugins = GetLoadedFluxPlugins();
    r.hpccFct = m_cfg.hpccFct;
    r.hpccFctRecords = m_hpccFct;
    r.warnings = m_cfg.WarningsFor(m_opts.backend);
    r.traces = m_cfg.traces.enabled;
    r.rates = m_rates;
    r.queues = m_queues;
    if (m_fluid)
    {
        CollectFluid(r);
    }
    return r;
}

std::vector<double>
ScenarioRun::LinkBits() const
{
    std::vector<double> bits;
    for (uint32_t l = 0; l < m_topo.links.size(); ++l)
    {
        const auto& tx = m_topo.links[l].tx;
        bits.push_back(m_fluid ? m_fluid->GetLinkBits(l)
                               : 8.0 * (tx->GetTxBytes() + 24.0 * tx->GetTxFrames()));
    }
    return bits;
}

void
ScenarioRun::CollectJobPaths(RunResults& r) const
{
    // Per link direction, the jobs whose ring sends cross it: the paths of
    // the queue pairs' source ports at the end (a path-aware policy may
    // have moved them from the drawn ones).
    std::vector<std::vector<uint32_t>> users(m_topo.links.size());
    for (uint32_t j = 0; j < m_cfg.jobs.size() && j < m_jobs.size(); ++j)
    {
        std::vector<bool> crossed(m_topo.links.size(), false);
        for (const auto& c : m_jobs[j]->GetConnections())
        {
            const uint16_t port = c.sender->GetSourcePort();
            for (uint32_t l :
                 m_topo.GetPath(HostOf(c.sender->GetNic()), HostOf(c.receiver->GetNic()), port))
            {
                crossed[l] = true;
            }
        }
        for (uint32_t l = 0; l < crossed.size(); ++l)
        {
            if (crossed[l])
            {
                r.jobs[j].links.push_back(m_topo.links[l].name);
                users[l].push_back(j);
            }
        }
    }
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& u : users)
    {
        if (u.size() < 2)
        {
            continue;
        }
        ++r.ecmp.sharedLinks;
        for (std::size_t a = 0; a < u.size(); ++a)
        {
            for (std::size_t b = a + 1; b < u.size(); ++b)
            {
                pairs.insert({u[a], u[b]});
            }
        }
    }
    r.ecmp.jobPairs = static_cast<uint32_t>(pairs.size());
}

void
ScenarioRun::FillLayout(RunLayout& layout) const
{
    layout.portBases = m_portBases;
    layout.links.clear();
    const std::vector<double> bits = LinkBits();
    for (uint32_t l = 0; l < m_topo.links.size(); ++l)
    {
        const auto& link = m_topo.links[l];
        layout.links.push_back(
            RunLayout::Link{link.name,
                            static_cast<double>(link.tx->GetDataRate().GetBitRate()),
                            bits[l]});
    }
}

} // namespace scenario
} // namespace ns3
