/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective.h"

#include "ns3/fabric-ranks.h"
#include "ns3/log.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Collective");

NS_OBJECT_ENSURE_REGISTERED(Collective);

namespace
{

/// Keyed events (OrderedScheduler): a run found complete on every rank
/// comes first of all the kinds at one time, then a job's failure.
const uint32_t RUN_COMPLETE_EVENT = OrderedScheduler::RegisterKind("collective run complete", 1);
const uint32_t JOB_FAILED_EVENT =
    OrderedScheduler::RegisterKind("job failed", 2); //!< \copydoc RUN_COMPLETE_EVENT

} // namespace

TypeId
Collective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Collective")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddAttribute("CompletionLatency",
                          "Time from the last rank receiving its data to every rank knowing "
                          "that the run is complete (0: at once; under MPI at least the "
                          "notice delay between processes plus a time step).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&Collective::m_completionLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("Channels",
                          "RDMA queue pairs per pair of ranks on different servers; each "
                          "message is cut into this many parts, one per queue pair (NCCL's "
                          "channels).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&Collective::m_nChannels),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("IntraServerBandwidth",
                          "Rate of a GPU's egress onto its server's GPU interconnect "
                          "(default: NVLink 3, 300 GB/s per direction per A100).",
                          DataRateValue(DataRate("2400Gbps")),
                          MakeDataRateAccessor(&Collective::m_intraRate),
                          MakeDataRateChecker())
            .AddAttribute("IntraServerLatency",
                          "Latency of a message over the GPU interconnect, from the end of "
                          "its transmission to its arrival.",
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&Collective::m_intraLatency),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Phase",
                            "Every rank finished one step (run, step, first start, last end).",
                            MakeTraceSourceAccessor(&Collective::m_phaseTrace),
                            "ns3::Collective::PhaseTracedCallback");
    return tid;
}

Collective::Collective()
    : m_run(0),
      m_jobId(0),
      m_iteration(0),
      m_runBase(0),
      m_nSteps(0),
      m_failed(false),
      m_ranksDone(0),
      m_topic(0),
      m_distributed(false),
      m_nChannels(1),
      m_type(CollectiveType::ALL_REDUCE)
{
    NS_LOG_FUNCTION(this);
}

Collective::~Collective() = default;

void
Collective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nics.clear();
    m_gate = nullptr;
    m_rankGates.clear();
    m_failedCb = FailedCallback();
    if (m_channels)
    {
        m_channels->Dispose();
        m_channels = nullptr;
    }
    Object::DoDispose();
}

void
Collective::SetKind(CollectiveType type, const std::string& algorithm)
{
    m_type = type;
    m_algorithm = algorithm;
}

CollectiveType
Collective::GetCollectiveType() const
{
    return m_type;
}

const std::string&
Collective::GetAlgorithmName() const
{
    return m_algorithm;
}

void
Collective::SetServers(const std::vector<uint32_t>& serverOfRank)
{
    NS_ABORT_MSG_IF(m_channels, "Collective: SetServers() after Setup()");
    m_servers = serverOfRank;
}

const std::vector<uint32_t>&
Collective::GetServers() const
{
    return m_servers;
}

std::string
Collective::GetRanksProblem(uint32_t nRanks) const
{
    return nRanks < 2 ? "a collective needs at least two ranks" : "";
}

std::vector<RankChannels::Link>
Collective::GetLinks(uint32_t /* nRanks */) const
{
    return {};
}

uint32_t
Collective::GetNConnections(uint32_t nRanks) const
{
    std::vector<uint32_t> servers = m_servers;
    if (servers.size() != nRanks)
    {
        servers.resize(nRanks);
        for (uint32_t r = 0; r < nRanks; ++r)
        {
            servers[r] = r;
        }
    }
    return RankChannels::CountConnections(GetLinks(nRanks), servers, m_nChannels);
}

void
Collective::ConnectRanks(const std::vector<Ptr<RdmaNic>>& nics,
                         const std::vector<RankChannels::Link>& links,
                         uint8_t prio,
                         uint16_t srcPorts)
{
    NS_LOG_FUNCTION(this << nics.size() << links.size() << +prio << srcPorts);
    const auto n = static_cast<uint32_t>(nics.size());
    for (uint32_t r = 0; r < n; ++r)
    {
        NS_ABORT_MSG_UNLESS(nics[r], "Collective: rank " << r << " has no RdmaNic (null)");
    }
    NS_ABORT_MSG_IF(!m_servers.empty() && m_servers.size() != n,
                    "Collective: " << m_servers.size() << " servers given (SetServers) for " << n
                                   << " ranks");
    std::vector<uint32_t> servers = m_servers;
    if (servers.empty())
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            servers.push_back(r);
        }
    }
    m_nics = nics;
    m_channels = CreateObject<RankChannels>();
    m_channels->SetReceiveCallback(MakeCallback(&Collective::MessageReceived, this));
    m_channels->SetFailureCallback(MakeCallback(&Collective::LinkFailed, this));
    m_channels
        ->Connect(nics, servers, links, prio, srcPorts, m_nChannels, m_intraRate, m_intraLatency);
    SetupRanks();
    for (uint32_t i = 0; i < m_channels->GetNLinks(); ++i)
    {
        const auto& l = m_channels->GetLink(i);
        NS_ABORT_MSG_IF(m_channels->IsIntraServer(i) && IsLocalRank(l.src) != IsLocalRank(l.dst),
                        "Collective: ranks " << l.src << " and " << l.dst
                                             << " share a server but not an MPI process; "
                                                "place a server's hosts in one process");
    }
}

double
Collective::GetNetworkBytes(uint64_t bytes) const
{
    return static_cast<double>(GetNRanks()) * static_cast<double>(GetBytesSentPerRank(bytes));
}

Ptr<RankChannels>
Collective::GetChannels() const
{
    return m_channels;
}

void
Collective::SendMessage(uint32_t link, uint64_t bytes, uint32_t step, uint32_t chunk)
{
    m_channels->Send(link, bytes, MakeTag(step, chunk));
}

void
Collective::MessageReceived(uint32_t /* link */)
{
}

uint64_t
Collective::GetIntraServerBytes() const
{
    return m_channels ? m_channels->GetIntraServerBytes() : 0;
}

std::vector<Ptr<RdmaQueuePair>>
Collective::GetQueuePairs() const
{
    std::vector<Ptr<RdmaQueuePair>> qps;
    if (!m_channels)
    {
        return qps;
    }
    const uint32_t n = m_channels->GetNConnections();
    for (uint32_t i = 0; i < n; ++i)
    {
        qps.push_back(m_channels->GetSender(i));
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        qps.push_back(m_channels->GetReceiver(i));
    }
    return qps;
}

std::vector<Collective::Connection>
Collective::GetConnections() const
{
    std::vector<Connection> connections;
    if (!m_channels)
    {
        return connections;
    }
    for (uint32_t i = 0; i < m_channels->GetNConnections(); ++i)
    {
        const auto& l = m_channels->GetLink(m_channels->GetConnectionLink(i));
        connections.push_back(
            Connection{l.src, l.dst, m_channels->GetSender(i), m_channels->GetReceiver(i)});
    }
    return connections;
}

void
Collective::LinkFailed(uint32_t link, Ptr<RdmaQueuePair> qp)
{
    const auto& l = m_channels->GetLink(link);
    std::ostringstream reason;
    reason << "retry count exceeded on the queue pair of rank " << l.src << " to rank " << l.dst
           << " (" << qp->GetNic()->GetAddress() << " -> " << qp->GetPeerAddress() << ", "
           << qp->GetTimeouts() << " timeouts of " << std::fixed << std::setprecision(3)
           << qp->GetRetransmitTimeout().GetSeconds() * 1e3 << " ms)";
    NotifyFailed(reason.str());
}

uint32_t
Collective::GetNRanks() const
{
    return static_cast<uint32_t>(m_nics.size());
}

JobStepTag::Phase
Collective::GetPhase(uint32_t step) const
{
    return step + 1 < GetNRanks() ? JobStepTag::REDUCE_SCATTER : JobStepTag::ALL_GATHER;
}

void
Collective::SetGate(Ptr<CollectiveGate> gate)
{
    m_gate = gate;
}

Ptr<CollectiveGate>
Collective::GetGate() const
{
    return m_gate;
}

void
Collective::SetJobId(uint32_t job)
{
    m_jobId = job;
}

uint32_t
Collective::GetJobId() const
{
    return m_jobId;
}

void
Collective::SetIteration(uint32_t iteration)
{
    m_iteration = iteration;
}

uint32_t
Collective::GetIteration() const
{
    return m_iteration;
}

uint32_t
Collective::GetRun() const
{
    return m_run;
}

Time
Collective::GetGateWait() const
{
    if (GetNRanks() == 0)
    {
        return Time();
    }
    int64_t sum = 0;
    for (const auto& r : m_records)
    {
        if (r.start >= r.ready) // a step never released does not count
        {
            sum += (r.start - r.ready).GetTimeStep();
        }
    }
    return TimeStep(sum / GetNRanks());
}

JobStepTag
Collective::MakeTag(uint32_t step, uint32_t chunk) const
{
    return JobStepTag(m_jobId, m_iteration, GetPhase(step), static_cast<uint16_t>(step), chunk);
}

void
Collective::NotifyRunStarted(uint64_t bytes)
{
    if (m_gate)
    {
        m_gate->RunStarted(this, bytes);
    }
}

void
Collective::NotifyRunFinished()
{
    if (m_gate)
    {
        m_gate->RunFinished(this);
    }
}

void
Collective::Submit(uint32_t rank, uint32_t step, uint32_t chunk, uint64_t bytes, uint64_t stepBytes)
{
    if (chunk == 0)
    {
        RecordReady(rank, step);
    }
    if (!m_gate)
    {
        if (chunk == 0)
        {
            RecordStart(rank, step);
        }
        DoPost(rank, step, chunk);
        return;
    }
    if (m_rankGates.size() != GetNRanks())
    {
        m_rankGates.resize(GetNRanks());
    }
    m_rankGates[rank].queue.push_back(Pending{step, chunk, bytes, stepBytes});
    Pump(rank);
}

void
Collective::Release(uint32_t rank)
{
    NS_LOG_FUNCTION(this << rank);
    RankGate& g = m_rankGates.at(rank);
    if (!g.asking)
    {
        return; // nothing asked (e.g. released twice)
    }
    g.asking = false;
    g.granted = true;
    if (!g.pumping)
    {
        Pump(rank);
    }
}

void
Collective::Pump(uint32_t rank)
{
    RankGate& g = m_rankGates[rank];
    if (g.asking || g.pumping)
    {
        return;
    }
    g.pumping = true;
    const bool perChunk = m_gate->GetGranularity() == CollectiveGate::CHUNK;
    while (!g.queue.empty() && !m_failed)
    {
        const Pending p = g.queue.front();
        const bool open = !perChunk && g.stepOpen && g.releasedStep == p.step;
        if (!open)
        {
            if (!g.granted)
            {
                g.asking = true;
                CollectiveGate::Request req{m_run,
                                            m_iteration,
                                            rank,
                                            p.step,
                                            perChunk ? p.chunk : 0,
                                            perChunk ? p.bytes : p.stepBytes,
                                            GetPhase(p.step)};
                m_gate->Ask(this, req);
                if (g.asking)
                {
                    break; // the gate answers later
                }
            }
            g.granted = false;
            g.stepOpen = !perChunk;
            g.releasedStep = p.step;
        }
        g.queue.pop_front();
        if (p.chunk == 0)
        {
            RecordStart(rank, p.step);
        }
        DoPost(rank, p.step, p.chunk);
    }
    g.pumping = false;
}

const std::vector<Collective::StepRecord>&
Collective::GetStepRecords() const
{
    return m_records;
}

RdmaQueuePair::Counters
Collective::GetCounters() const
{
    RdmaQueuePair::Counters c;
    for (const auto& qp : GetQueuePairs())
    {
        if (qp)
        {
            c += qp->GetCounters();
        }
    }
    return c;
}

void
Collective::SetFailedCallback(FailedCallback cb)
{
    m_failedCb = cb;
}

bool
Collective::HasFailed() const
{
    return m_failed;
}

const std::string&
Collective::GetFailureReason() const
{
    return m_failureReason;
}

void
Collective::SetupRanks()
{
    m_localRank.clear();
    for (const auto& nic : m_nics)
    {
        m_localRank.push_back(FabricRanks::IsLocal(*nic->GetDevice()->GetNode()));
    }
    // Every process listens, in the same order, whether it has ranks or not.
    m_distributed = FabricRanks::GetNRanks() > 1;
    if (m_distributed)
    {
        m_topic = FabricRanks::Subscribe(MakeCallback(&Collective::NoticeReceived, this));
    }
}

bool
Collective::IsLocalRank(uint32_t rank) const
{
    return rank >= m_localRank.size() || m_localRank[rank];
}

void
Collective::CountRankDone(Time end)
{
    m_lastEnd = std::max(m_lastEnd, end);
    if (++m_ranksDone < GetNRanks())
    {
        return;
    }
    if (!m_distributed && m_completionLatency.IsZero())
    {
        CompleteRun();
        return;
    }
    const Time at = m_lastEnd + m_completionLatency;
    NS_ABORT_MSG_IF(at <= Simulator::Now() && m_distributed,
                    "Collective: CompletionLatency shorter than the notice delay between MPI "
                    "processes plus a time step");
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(RUN_COMPLETE_EVENT, m_jobId));
    Simulator::Schedule(at - Simulator::Now(), &Collective::CompleteRun, this);
}

void
Collective::CompleteRun()
{
    m_ranksDone = 0;
    m_lastEnd = Time();
    RunComplete();
}

void
Collective::RunComplete()
{
    NotifyRunFinished();
    ++m_run;
}

void
Collective::NoticeReceived(const std::vector<uint64_t>& words)
{
    NS_ABORT_MSG_IF(words.size() < 2, "Collective: a truncated notice");
    if (words[0] == 0) // a rank finished the run: run, rank, time step
    {
        NS_ABORT_MSG_IF(words.size() < 4 || words[1] != m_run,
                        "Collective: a notice for another run");
        CountRankDone(TimeStep(static_cast<int64_t>(words[3])));
        return;
    }
    // a failure: time step, then the reason's bytes
    std::string reason;
    for (std::size_t i = 2; i < words.size(); ++i)
    {
        for (int b = 0; b < 8; ++b)
        {
            const char c = static_cast<char>((words[i] >> (8 * b)) & 0xff);
            if (c != 0)
            {
                reason.push_back(c);
            }
        }
    }
    const Time at = TimeStep(static_cast<int64_t>(words[1])) + m_completionLatency;
    NS_ABORT_MSG_IF(at <= Simulator::Now(),
                    "Collective: CompletionLatency shorter than the notice delay between MPI "
                    "processes plus a time step");
    OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(JOB_FAILED_EVENT, m_jobId));
    Simulator::Schedule(at - Simulator::Now(), &Collective::ApplyFailure, this, reason);
}

void
Collective::NotifyFailed(const std::string& reason)
{
    if (m_failed)
    {
        return;
    }
    NS_LOG_FUNCTION(this << reason);
    if (m_distributed || !m_completionLatency.IsZero())
    {
        // every copy learns it CompletionLatency from now
        if (m_distributed)
        {
            std::vector<uint64_t> words{1, static_cast<uint64_t>(Simulator::Now().GetTimeStep())};
            for (std::size_t i = 0; i < reason.size() && words.size() < 200; i += 8)
            {
                uint64_t w = 0;
                for (std::size_t b = 0; b < 8 && i + b < reason.size(); ++b)
                {
                    w |= static_cast<uint64_t>(static_cast<unsigned char>(reason[i + b]))
                         << (8 * b);
                }
                words.push_back(w);
            }
            FabricRanks::Publish(m_topic, words);
        }
        OrderedScheduler::SetNextKey(OrderedScheduler::ControlKey(JOB_FAILED_EVENT, m_jobId));
        Simulator::Schedule(m_completionLatency, &Collective::ApplyFailure, this, reason);
        return;
    }
    ApplyFailure(reason);
}

void
Collective::ApplyFailure(std::string reason)
{
    if (m_failed)
    {
        return;
    }
    m_failed = true;
    m_failureReason = reason;
    if (!m_failedCb.IsNull())
    {
        m_failedCb(reason);
    }
}

void
Collective::BeginRun(uint32_t nRanks, uint32_t nSteps)
{
    m_nSteps = nSteps;
    m_runBase = m_records.size();
    m_records.resize(m_runBase + static_cast<std::size_t>(nRanks) * nSteps);
    for (uint32_t s = 0; s < nSteps; ++s)
    {
        for (uint32_t r = 0; r < nRanks; ++r)
        {
            m_records[m_runBase + s * nRanks + r] = StepRecord{Time(), Time(), Time(), m_run, s, r};
        }
    }
    m_stepFinished.assign(nSteps, 0);
    m_stepsLeft.assign(nRanks, nSteps);
    m_rankEnd.assign(nRanks, Time());
    for (auto& g : m_rankGates)
    {
        g.stepOpen = false;
    }
    m_stepFirstStart.assign(nSteps, Time::Max());
}

void
Collective::RecordReady(uint32_t rank, uint32_t step)
{
    m_records[m_runBase + step * GetNRanks() + rank].ready = Simulator::Now();
}

void
Collective::RecordStart(uint32_t rank, uint32_t step)
{
    const Time now = Simulator::Now();
    m_records[m_runBase + step * GetNRanks() + rank].start = now;
    m_stepFirstStart[step] = std::min(m_stepFirstStart[step], now);
}

void
Collective::RecordEnd(uint32_t rank, uint32_t step)
{
    const Time now = Simulator::Now();
    m_records[m_runBase + step * GetNRanks() + rank].end = now;
    FinishStep(rank, step, now);
}

void
Collective::RecordIdle(uint32_t rank, uint32_t step)
{
    m_records[m_runBase + step * GetNRanks() + rank].idle = true;
    FinishStep(rank, step, Time());
}

void
Collective::FinishStep(uint32_t rank, uint32_t step, Time now)
{
    if (++m_stepFinished[step] == GetNRanks() && m_stepFirstStart[step] != Time::Max())
    {
        m_phaseTrace(m_run, step, m_stepFirstStart[step], Simulator::Now());
    }
    m_rankEnd[rank] = std::max(m_rankEnd[rank], now);
    if (--m_stepsLeft[rank] == 0)
    {
        // this rank is done with the run: the other processes' copies learn it
        const Time end = m_rankEnd[rank];
        if (m_distributed)
        {
            FabricRanks::Publish(m_topic,
                                 {0, m_run, rank, static_cast<uint64_t>(end.GetTimeStep())});
        }
        CountRankDone(end);
    }
}

} // namespace ns3
