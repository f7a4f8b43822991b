/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-replay.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkloadReplay");

NS_OBJECT_ENSURE_REGISTERED(WorkloadReplay);

namespace
{

/// Keyed events (OrderedScheduler): the timers of training jobs, replayed
/// or not (iterations, compute, buckets).
const uint32_t JOB_TIMER_EVENT = OrderedScheduler::RegisterKind("job timer", 3);

} // namespace

TypeId
WorkloadReplay::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WorkloadReplay")
                            .SetParent<Object>()
                            .SetGroupName("Flux")
                            .AddConstructor<WorkloadReplay>()
                            .AddAttribute("RecordNodes",
                                          "Keep when every node ran (GetNodeRecords), for "
                                          "timelines.",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&WorkloadReplay::m_recordNodes),
                                          MakeBooleanChecker());
    return tid;
}

WorkloadReplay::WorkloadReplay()
    : m_principalBytes(0),
      m_principalRuns(0),
      m_jobId(0),
      m_left(0),
      m_running(false),
      m_recordNodes(false),
      m_iteration(0)
{
    NS_LOG_FUNCTION(this);
}

WorkloadReplay::~WorkloadReplay() = default;

void
WorkloadReplay::DoDispose()
{
    NS_LOG_FUNCTION(this);
    Stop();
    m_comms.clear();
    m_collectives.clear();
    m_principal = nullptr;
    m_done = Callback<void>();
    m_nodeCb = NodeCallback();
    Object::DoDispose();
}

void
WorkloadReplay::Setup(std::shared_ptr<const WorkloadTrace> trace,
                      CollectiveFactory collectives,
                      PeerFactory peers)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!trace || trace->nodes.size() != trace->ranks,
                    "WorkloadReplay: a trace with one node list per rank is needed");
    m_trace = std::move(trace);
    BuildComms();
    // the collectives, made in a fixed order (groups by index, then rank
    // pairs by (src, dst)), so that source ports do not depend on the run
    std::vector<uint64_t> bytes;
    std::vector<uint32_t> runs;
    std::map<const Collective*, std::size_t> index;
    for (auto& c : m_comms)
    {
        for (const auto& op : c.members)
        {
            const WorkloadNode& n = m_trace->nodes[op[0]][op[1]];
            Ptr<Collective> coll;
            if (n.kind == WorkloadNode::Kind::COLLECTIVE && c.ranks.size() < 2)
            {
                continue; // a group of one rank: nothing to move (TryStart)
            }
            if (n.kind == WorkloadNode::Kind::COLLECTIVE)
            {
                auto& slot = c.byType[static_cast<uint8_t>(n.collective)];
                if (!slot)
                {
                    slot = collectives(n.collective, c.ranks);
                    index[PeekPointer(slot)] = m_collectives.size();
                    m_collectives.push_back(slot);
                    bytes.push_back(0);
                    runs.push_back(0);
                }
                coll = slot;
            }
            else
            {
                if (!c.peer)
                {
                    c.peer = peers(c.ranks[0], c.ranks[1]);
                    index[PeekPointer(c.peer)] = m_collectives.size();
                    m_collectives.push_back(c.peer);
                    bytes.push_back(0);
                    runs.push_back(0);
                }
                coll = c.peer;
            }
            const std::size_t i = index[PeekPointer(coll)];
            bytes[i] += n.bytes;
            ++runs[i];
            m_networkBytes.emplace_back(coll, n.bytes);
        }
    }
    for (std::size_t i = 0; i < m_collectives.size(); ++i)
    {
        if (!m_principal || bytes[i] > m_principalBytes)
        {
            m_principal = m_collectives[i];
            m_principalBytes = bytes[i];
            m_principalRuns = runs[i];
        }
    }
    m_rankStats.assign(m_trace->ranks, RankStats{});
}

void
WorkloadReplay::BuildComms()
{
    const WorkloadTrace& t = *m_trace;
    m_comms.assign(t.groups.size(), Comm{});
    for (std::size_t g = 0; g < t.groups.size(); ++g)
    {
        m_comms[g].ranks = t.groups[g];
    }
    m_nodeComm.assign(t.ranks, {});
    m_dependents.assign(t.ranks, {});
    // transfers: one communicator per ordered rank pair; the k-th SEND of a
    // pair with a tag meets the k-th RECV of that pair with that tag
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> pairComm;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::vector<uint32_t>> recvs;
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::size_t> matched;
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        const auto& nodes = t.nodes[r];
        m_nodeComm[r].assign(nodes.size(), NodeComm{});
        m_dependents[r].assign(nodes.size(), {});
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            for (uint32_t d : nodes[i].deps)
            {
                NS_ABORT_MSG_IF(d >= i, "WorkloadReplay: node dependencies out of order");
                m_dependents[r][d].push_back(i);
            }
            if (nodes[i].kind == WorkloadNode::Kind::RECV)
            {
                recvs[{nodes[i].peer, r, nodes[i].tag}].push_back(i);
            }
        }
    }
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        const auto& nodes = t.nodes[r];
        std::vector<uint32_t> ops(m_comms.size(), 0); // group operations seen on this rank
        for (uint32_t i = 0; i < nodes.size(); ++i)
        {
            const WorkloadNode& n = nodes[i];
            if (n.kind == WorkloadNode::Kind::COLLECTIVE)
            {
                NS_ABORT_MSG_IF(n.group >= m_comms.size(), "WorkloadReplay: unknown group");
                Comm& c = m_comms[n.group];
                // this rank's k-th operation of the group
                const uint32_t k = ops[n.group]++;
                if (c.members.size() <= k)
                {
                    c.members.resize(k + 1);
                }
                c.members[k].push_back(r);
                c.members[k].push_back(i);
                m_nodeComm[r][i] = NodeComm{n.group, k};
            }
            else if (n.kind == WorkloadNode::Kind::SEND)
            {
                auto key = std::make_pair(r, n.peer);
                auto it = pairComm.find(key);
                if (it == pairComm.end())
                {
                    it = pairComm.emplace(key, static_cast<uint32_t>(m_comms.size())).first;
                    m_comms.emplace_back();
                    m_comms.back().ranks = {r, n.peer};
                }
                const auto rkey = std::make_tuple(r, n.peer, n.tag);
                const auto& candidates = recvs[rkey];
                std::size_t& next = matched[rkey];
                NS_ABORT_MSG_IF(next >= candidates.size(),
                                "WorkloadReplay: a send without its receive");
                const uint32_t recv = candidates[next++];
                Comm& c = m_comms[it->second];
                const auto op = static_cast<uint32_t>(c.members.size());
                c.members.push_back({r, i, n.peer, recv});
                m_nodeComm[r][i] = NodeComm{it->second, op};
                m_nodeComm[n.peer][recv] = NodeComm{it->second, op};
            }
        }
    }
    for (const auto& c : m_comms)
    {
        for (const auto& op : c.members)
        {
            NS_ABORT_MSG_IF(op.size() != 2 * c.ranks.size(),
                            "WorkloadReplay: an operation not every member reaches");
        }
    }
}

std::vector<std::vector<uint32_t>>
WorkloadReplay::DependencyCounts() const
{
    std::vector<std::vector<uint32_t>> counts(m_trace->ranks);
    for (uint32_t r = 0; r < m_trace->ranks; ++r)
    {
        for (const auto& n : m_trace->nodes[r])
        {
            counts[r].push_back(static_cast<uint32_t>(n.deps.size()));
        }
    }
    return counts;
}

std::string
WorkloadReplay::FindDeadlock() const
{
    NS_LOG_FUNCTION(this);
    const WorkloadTrace& t = *m_trace;

    enum State : uint8_t
    {
        WAITING,
        ARRIVED,
        DONE
    };

    std::vector<std::vector<State>> state(t.ranks);
    std::vector<std::vector<uint32_t>> deps = DependencyCounts();
    std::vector<std::pair<uint32_t, uint32_t>> ready; // (rank, node)
    std::size_t total = 0;
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        total += deps[r].size();
        state[r].assign(deps[r].size(), WAITING);
        for (uint32_t i = 0; i < deps[r].size(); ++i)
        {
            if (deps[r][i] == 0)
            {
                ready.emplace_back(r, i);
            }
        }
    }
    std::vector<std::vector<uint32_t>> arrived(m_comms.size());
    std::vector<uint32_t> next(m_comms.size(), 0);
    for (std::size_t c = 0; c < m_comms.size(); ++c)
    {
        arrived[c].assign(m_comms[c].members.size(), 0);
    }
    std::size_t done = 0;
    const auto finish = [&](uint32_t r, uint32_t i) {
        state[r][i] = DONE;
        ++done;
        for (uint32_t d : m_dependents[r][i])
        {
            if (--deps[r][d] == 0)
            {
                ready.emplace_back(r, d);
            }
        }
    };
    while (!ready.empty())
    {
        const auto [r, i] = ready.back();
        ready.pop_back();
        const WorkloadNode::Kind kind = t.nodes[r][i].kind;
        if (kind == WorkloadNode::Kind::COMPUTE || kind == WorkloadNode::Kind::MEMORY)
        {
            finish(r, i);
            continue;
        }
        state[r][i] = ARRIVED;
        const NodeComm& nc = m_nodeComm[r][i];
        ++arrived[nc.comm][nc.op];
        const auto& ops = m_comms[nc.comm].members;
        uint32_t& k = next[nc.comm];
        while (k < ops.size() && 2 * arrived[nc.comm][k] == ops[k].size())
        {
            for (std::size_t m = 0; m + 1 < ops[k].size(); m += 2)
            {
                finish(ops[k][m], ops[k][m + 1]);
            }
            ++k;
        }
    }
    if (done == total)
    {
        return "";
    }
    // A node that reached its operation, and a member of the operation it
    // waits behind (its own, or the earlier one of its group or pair) that
    // has not: where that member is stuck itself.
    const auto name = [&t](uint32_t r, uint32_t i) {
        return "rank " + std::to_string(r) + "'s node " + std::to_string(t.nodes[r][i].id) + " \"" +
               t.nodes[r][i].name + "\"";
    };
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        for (uint32_t i = 0; i < state[r].size(); ++i)
        {
            if (state[r][i] != ARRIVED)
            {
                continue;
            }
            const uint32_t c = m_nodeComm[r][i].comm;
            const auto& op = m_comms[c].members[next[c]];
            for (std::size_t m = 0; m + 1 < op.size(); m += 2)
            {
                const uint32_t q = op[m];
                if (state[q][op[m + 1]] != WAITING)
                {
                    continue;
                }
                std::string why = "the workload deadlocks: " + name(r, i) + " waits for rank " +
                                  std::to_string(q) + " (" + name(q, op[m + 1]) + ")";
                for (uint32_t j = 0; j < state[q].size(); ++j)
                {
                    if (state[q][j] == ARRIVED)
                    {
                        return why + ", which waits at its node " +
                               std::to_string(t.nodes[q][j].id) + " \"" + t.nodes[q][j].name + "\"";
                    }
                }
                return why + ", which never gets there";
            }
        }
    }
    return "the workload deadlocks: " + std::to_string(total - done) + " of its " +
           std::to_string(total) + " nodes never run";
}

void
WorkloadReplay::Run(uint32_t iteration, Callback<void> done)
{
    NS_LOG_FUNCTION(this << iteration);
    NS_ABORT_MSG_IF(m_running, "WorkloadReplay: a run is in progress");
    const WorkloadTrace& t = *m_trace;
    m_running = true;
    m_iteration = iteration;
    m_done = done;
    m_left = 0;
    m_events.clear();
    for (const auto& c : m_collectives)
    {
        c->SetIteration(iteration);
    }
    for (auto& c : m_comms)
    {
        c.arrived.assign(c.members.size(), 0);
        c.next = 0;
        c.busy = false;
    }
    m_waiting = DependencyCounts();
    m_readyAt.assign(t.ranks, {});
    m_gpuQueue.assign(t.ranks, {});
    m_gpuHead.assign(t.ranks, 0);
    m_gpuBusy.assign(t.ranks, false);
    m_inFlight.assign(t.ranks, 0);
    m_lastChange.assign(t.ranks, Simulator::Now());
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        m_readyAt[r].assign(t.nodes[r].size(), Time());
        m_left += t.nodes[r].size();
    }
    if (m_left == 0)
    {
        m_running = false;
        KeyNextEvent();
        Simulator::ScheduleNow(&WorkloadReplay::Finish, this);
        return;
    }
    for (uint32_t r = 0; r < t.ranks; ++r)
    {
        for (uint32_t i = 0; i < t.nodes[r].size(); ++i)
        {
            if (m_running && t.nodes[r][i].deps.empty())
            {
                NodeReady(r, i);
            }
        }
    }
}

void
WorkloadReplay::Stop()
{
    for (auto& e : m_events)
    {
        e.Cancel();
    }
    m_events.clear();
    m_running = false;
}

void
WorkloadReplay::NodeReady(uint32_t rank, uint32_t node)
{
    const WorkloadNode& n = m_trace->nodes[rank][node];
    m_readyAt[rank][node] = Simulator::Now();
    switch (n.kind)
    {
    case WorkloadNode::Kind::COMPUTE:
        if (n.durationNs > 0)
        {
            m_gpuQueue[rank].push_back(node);
            NextCompute(rank);
            break;
        }
        // A node of no time (Chakra's metadata nodes) only orders others:
        // it takes no turn on the GPU, so kernels queued before it do not
        // hold it (and what depends on it) back.
        [[fallthrough]];
    case WorkloadNode::Kind::MEMORY:
        KeyNextEvent();
        Track(Simulator::Schedule(NanoSeconds(n.durationNs),
                                  &WorkloadReplay::TimerDone,
                                  this,
                                  rank,
                                  node));
        break;
    default: {
        Account(rank);
        ++m_inFlight[rank];
        const NodeComm& nc = m_nodeComm[rank][node];
        ++m_comms[nc.comm].arrived[nc.op];
        TryStart(nc.comm);
    }
    }
}

void
WorkloadReplay::NextCompute(uint32_t rank)
{
    if (m_gpuBusy[rank] || m_gpuHead[rank] >= m_gpuQueue[rank].size())
    {
        return;
    }
    const uint32_t node = m_gpuQueue[rank][m_gpuHead[rank]++];
    Account(rank);
    m_gpuBusy[rank] = true;
    m_readyAt[rank][node] = Simulator::Now(); // a compute node starts on the GPU
    KeyNextEvent();
    Track(Simulator::Schedule(NanoSeconds(m_trace->nodes[rank][node].durationNs),
                              &WorkloadReplay::TimerDone,
                              this,
                              rank,
                              node));
}

void
WorkloadReplay::Track(EventId timer)
{
    if (m_events.size() >= m_eventsPrune)
    {
        m_events.erase(std::remove_if(m_events.begin(),
                                      m_events.end(),
                                      [](const EventId& e) { return e.IsExpired(); }),
                       m_events.end());
        m_eventsPrune = std::max<std::size_t>(64, 2 * m_events.size());
    }
    m_events.push_back(timer);
}

void
WorkloadReplay::TimerDone(WorkloadReplay* self, uint32_t rank, uint32_t node)
{
    if (!self->m_running)
    {
        return;
    }
    const WorkloadNode& n = self->m_trace->nodes[rank][node];
    const bool gpu = n.kind == WorkloadNode::Kind::COMPUTE && n.durationNs > 0;
    if (gpu)
    {
        self->Account(rank);
        self->m_gpuBusy[rank] = false;
    }
    self->NodeDone(rank, node, self->m_readyAt[rank][node]);
    if (gpu && self->m_running)
    {
        self->NextCompute(rank);
    }
}

void
WorkloadReplay::TryStart(uint32_t comm)
{
    Comm& c = m_comms[comm];
    if (c.busy || c.next >= c.members.size() || 2 * c.arrived[c.next] < c.members[c.next].size())
    {
        return;
    }
    const auto& op = c.members[c.next];
    const WorkloadNode& n = m_trace->nodes[op[0]][op[1]];
    c.busy = true;
    c.started = Simulator::Now();
    if (n.kind == WorkloadNode::Kind::COLLECTIVE &&
        ((n.bytes == 0 && n.collective != CollectiveType::BARRIER) || c.ranks.size() < 2))
    {
        // nothing to move: the operation is over as soon as all are there
        KeyNextEvent();
        Simulator::ScheduleNow(&WorkloadReplay::OperationDone, this, comm);
        return;
    }
    const Ptr<Collective> coll = n.kind == WorkloadNode::Kind::COLLECTIVE
                                     ? c.byType[static_cast<uint8_t>(n.collective)]
                                     : c.peer;
    coll->Start(n.bytes, MakeBoundCallback(&WorkloadReplay::OperationDone, this, comm));
}

void
WorkloadReplay::OperationDone(WorkloadReplay* self, uint32_t comm)
{
    if (!self->m_running)
    {
        return;
    }
    Comm& c = self->m_comms[comm];
    const auto& op = c.members[c.next];
    const WorkloadNode& first = self->m_trace->nodes[op[0]][op[1]];
    TypeStats& stats = first.kind == WorkloadNode::Kind::COLLECTIVE
                           ? self->m_typeStats[static_cast<uint8_t>(first.collective)]
                           : self->m_peerStats;
    ++stats.count;
    stats.bytes += first.bytes;
    stats.time += Simulator::Now() - c.started;
    c.busy = false;
    const uint32_t index = c.next++;
    for (std::size_t m = 0; m + 1 < c.members[index].size() && self->m_running; m += 2)
    {
        const uint32_t rank = c.members[index][m];
        const uint32_t node = c.members[index][m + 1];
        self->Account(rank);
        --self->m_inFlight[rank];
        self->NodeDone(rank, node, self->m_readyAt[rank][node]);
    }
    if (self->m_running)
    {
        self->TryStart(comm);
    }
}

void
WorkloadReplay::NodeDone(uint32_t rank, uint32_t node, Time start)
{
    const WorkloadNode& n = m_trace->nodes[rank][node];
    if (!m_nodeCb.IsNull())
    {
        m_nodeCb(rank, n, start, Simulator::Now());
    }
    if (m_recordNodes)
    {
        m_nodeRecords.push_back(NodeRecord{m_iteration, rank, node, start, Simulator::Now()});
    }
    for (uint32_t d : m_dependents[rank][node])
    {
        if (--m_waiting[rank][d] == 0)
        {
            NodeReady(rank, d);
        }
    }
    if (--m_left == 0)
    {
        m_running = false;
        for (uint32_t r = 0; r < m_trace->ranks; ++r)
        {
            Account(r);
        }
        Finish(this);
    }
}

void
WorkloadReplay::Finish(WorkloadReplay* self)
{
    Callback<void> done = self->m_done;
    self->m_done = Callback<void>();
    done();
}

void
WorkloadReplay::Account(uint32_t rank)
{
    const Time now = Simulator::Now();
    const Time dt = now - m_lastChange[rank];
    m_lastChange[rank] = now;
    RankStats& s = m_rankStats[rank];
    if (m_gpuBusy[rank])
    {
        s.compute += dt;
    }
    if (m_inFlight[rank] > 0)
    {
        s.comm += dt;
        if (!m_gpuBusy[rank])
        {
            s.exposedComm += dt;
        }
    }
}

void
WorkloadReplay::KeyNextEvent() const
{
    KeyJobTimer(m_jobId);
}

void
WorkloadReplay::KeyJobTimer(uint32_t job)
{
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(JOB_TIMER_EVENT, job));
}

void
WorkloadReplay::SetJobId(uint32_t job)
{
    m_jobId = job;
    for (const auto& c : m_collectives)
    {
        c->SetJobId(job);
    }
}

void
WorkloadReplay::SetNodeCallback(NodeCallback cb)
{
    m_nodeCb = cb;
}

const std::vector<WorkloadReplay::NodeRecord>&
WorkloadReplay::GetNodeRecords() const
{
    return m_nodeRecords;
}

const std::vector<Ptr<Collective>>&
WorkloadReplay::GetCollectives() const
{
    return m_collectives;
}

Ptr<Collective>
WorkloadReplay::GetPrincipal() const
{
    return m_principal;
}

uint64_t
WorkloadReplay::GetPrincipalBytes() const
{
    return m_principalBytes;
}

double
WorkloadReplay::GetNetworkBytesPerIteration() const
{
    double total = 0;
    for (const auto& [coll, bytes] : m_networkBytes)
    {
        total += coll->GetNetworkBytes(bytes);
    }
    return total;
}

uint32_t
WorkloadReplay::GetPrincipalRuns() const
{
    return m_principalRuns;
}

Time
WorkloadReplay::GetComputePerIteration() const
{
    uint64_t ns = 0;
    if (m_trace && !m_trace->nodes.empty())
    {
        for (const auto& n : m_trace->nodes[0])
        {
            ns += n.kind == WorkloadNode::Kind::COMPUTE ? n.durationNs : 0;
        }
    }
    return NanoSeconds(static_cast<int64_t>(ns));
}

const std::array<WorkloadReplay::TypeStats, N_COLLECTIVE_TYPES>&
WorkloadReplay::GetTypeStats() const
{
    return m_typeStats;
}

const WorkloadReplay::TypeStats&
WorkloadReplay::GetPeerStats() const
{
    return m_peerStats;
}

const std::vector<WorkloadReplay::RankStats>&
WorkloadReplay::GetRankStats() const
{
    return m_rankStats;
}

const WorkloadTrace&
WorkloadReplay::GetTrace() const
{
    return *m_trace;
}

} // namespace ns3
