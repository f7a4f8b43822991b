/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mltcp-scheduler.h"

#include "ns3/collective.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-queue-pair.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MltcpScheduler");

NS_OBJECT_ENSURE_REGISTERED(MltcpGate);
NS_OBJECT_ENSURE_REGISTERED(MltcpScheduler);
FLUX_REGISTER_POLICY("mltcp", MltcpScheduler, JobScheduler::POLICY_RANK_OTHER);

TypeId
MltcpGate::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MltcpGate")
                            .SetParent<CollectiveGate>()
                            .SetGroupName("Flux")
                            .AddConstructor<MltcpGate>();
    return tid;
}

MltcpGate::MltcpGate()
    : m_scheduler(nullptr),
      m_job(0),
      m_iterationBytes(0)
{
    NS_LOG_FUNCTION(this);
}

MltcpGate::~MltcpGate() = default;

void
MltcpGate::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_ranks.clear();
    m_scheduler = nullptr;
    CollectiveGate::DoDispose();
}

void
MltcpGate::Setup(MltcpScheduler* scheduler,
                 uint32_t job,
                 uint64_t iterationBytes,
                 std::vector<std::vector<Ptr<RdmaCongestionControl>>> senders)
{
    m_scheduler = scheduler;
    m_job = job;
    m_iterationBytes = iterationBytes;
    m_ranks.assign(senders.size(), Rank());
    for (std::size_t r = 0; r < senders.size(); ++r)
    {
        m_ranks[r].senders = std::move(senders[r]);
    }
}

double
MltcpGate::OnSend(uint32_t rank, uint32_t iteration, uint64_t bytes)
{
    Rank& r = m_ranks.at(rank);
    if (!r.started || r.iteration != iteration)
    {
        r.started = true;
        r.iteration = iteration;
        r.sent = 0;
    }
    const double ratio = m_iterationBytes > 0
                             ? static_cast<double>(r.sent) / static_cast<double>(m_iterationBytes)
                             : 0.0;
    const double factor = m_scheduler->GetFactor(ratio);
    NS_LOG_LOGIC("mltcp: job " << m_job << " rank " << rank << " ratio " << ratio << " factor "
                               << factor);
    for (const auto& cc : r.senders)
    {
        cc->SetAggressiveness(factor);
    }
    r.sent += bytes;
    return factor;
}

void
MltcpGate::Ask(Ptr<Collective> collective, const Request& req)
{
    if (req.rank < m_ranks.size())
    {
        OnSend(req.rank, req.iteration, req.bytes);
    }
    m_scheduler->CountDecision();
    collective->Release(req.rank);
}

uint64_t
MltcpGate::GetBytesSent(uint32_t rank) const
{
    return m_ranks.at(rank).sent;
}

TypeId
MltcpScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MltcpScheduler")
            .SetParent<JobScheduler>()
            .SetGroupName("Flux")
            .AddConstructor<MltcpScheduler>()
            .AddAttribute("Slope",
                          "S of the aggressiveness F = S x bytes_ratio + I that scales the "
                          "queue pairs' congestion-control increase steps (bytes_ratio: "
                          "bytes sent in the iteration over bytes per iteration).",
                          DoubleValue(1.5),
                          MakeDoubleAccessor(&MltcpScheduler::m_slope),
                          MakeDoubleChecker<double>(0, 100))
            .AddAttribute("Intercept",
                          "I of the aggressiveness F = S x bytes_ratio + I (the factor at "
                          "the start of an iteration).",
                          DoubleValue(0.25),
                          MakeDoubleAccessor(&MltcpScheduler::m_intercept),
                          MakeDoubleChecker<double>(0, 100));
    return tid;
}

MltcpScheduler::MltcpScheduler()
    : m_slope(1.5),
      m_intercept(0.25)
{
    NS_LOG_FUNCTION(this);
}

MltcpScheduler::~MltcpScheduler() = default;

void
MltcpScheduler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& g : m_gates)
    {
        g->Dispose();
    }
    m_gates.clear();
    JobScheduler::DoDispose();
}

std::string
MltcpScheduler::GetPolicyName() const
{
    return "mltcp";
}

double
MltcpScheduler::GetFactor(double bytesRatio) const
{
    return m_slope * std::clamp(bytesRatio, 0.0, 1.0) + m_intercept;
}

void
MltcpScheduler::Start()
{
    m_gates.clear();
    for (uint32_t j = 0; j < GetNJobs(); ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        const Ptr<Collective> c = tj->GetCollective();
        const uint32_t buckets = tj->GetNBuckets();
        const uint64_t perIteration =
            c->GetBytesSentPerRank(tj->GetGradientBytes() / buckets) * buckets;
        std::vector<std::vector<Ptr<RdmaCongestionControl>>> senders;
        for (const auto& conn : c->GetConnections())
        {
            if (conn.src >= senders.size())
            {
                senders.resize(conn.src + 1);
            }
            senders[conn.src].push_back(conn.sender->GetCongestionControl());
        }
        Ptr<MltcpGate> gate = CreateObject<MltcpGate>();
        gate->Setup(this, j, perIteration, std::move(senders));
        c->SetGate(gate);
        m_gates.push_back(gate);
    }
}

bool
MltcpScheduler::DecidesPerRank() const
{
    return true; // the gates in the ranks decide
}

std::vector<std::string>
MltcpScheduler::GetFlowLevelLimits() const
{
    return {"scheduler.slope", "scheduler.intercept"};
}

Ptr<MltcpGate>
MltcpScheduler::GetGate(uint32_t job) const
{
    return m_gates.at(job);
}

void
MltcpScheduler::CountDecision()
{
    ++m_counters.decisions;
}

} // namespace ns3
