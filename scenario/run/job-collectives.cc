/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-collectives.h"

#include "ns3/collective-library.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-send.h"
#include "ns3/rdma-nic.h"
#include "ns3/scenario-error.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobCollectives");

namespace scenario
{

namespace
{

/// The UDP source ports a job's connections take, in turn (RoCE's ECMP entropy).
constexpr uint32_t kFirstPort = 49152;
constexpr uint32_t kEndPort = 65536;

/// The collective type a plain job's "collective" names.
CollectiveType
TypeOf(const std::string& collective)
{
    CollectiveType type = CollectiveType::ALL_REDUCE;
    CollectiveTypeFromName(collective, type); // "ring-allreduce": all-reduce
    return type;
}

} // namespace

JobCollectives::JobCollectives(const std::vector<Ptr<RdmaNic>>& nics,
                               const ScenarioConfig& cfg,
                               const ScenarioConfig::JobConfig& job,
                               Time completionLatency,
                               uint16_t basePort)
    : m_nics(nics),
      m_cfg(cfg),
      m_job(job),
      m_completionLatency(completionLatency),
      m_nextPort(basePort)
{
}

Ptr<Collective>
JobCollectives::Make(CollectiveType type,
                     const std::string& algorithm,
                     const std::vector<uint32_t>& ranks)
{
    return Make(CollectiveLibrary::GetTypeId(type, algorithm), ranks);
}

Ptr<Collective>
JobCollectives::Make(TypeId tid, const std::vector<uint32_t>& ranks)
{
    ObjectFactory factory(tid.GetName());
    factory.Set("CompletionLatency", TimeValue(m_completionLatency));
    factory.Set("Channels", UintegerValue(m_job.channels));
    TypeId::AttributeInformation info;
    if (m_job.chunkBytes > 0 && factory.GetTypeId().LookupAttributeByName("PipelineBytes", &info))
    {
        factory.Set("PipelineBytes", UintegerValue(m_job.chunkBytes));
    }
    if (m_cfg.topology.hasServers)
    {
        const auto& s = m_cfg.topology.servers;
        factory.Set("IntraServerBandwidth",
                    DataRateValue(DataRate(static_cast<uint64_t>(s.nvlinkGbps * 1e9))));
        factory.Set("IntraServerLatency",
                    TimeValue(NanoSeconds(static_cast<int64_t>(s.nvlinkLatencyUs * 1e3))));
    }
    Ptr<Collective> c = factory.Create<Collective>();
    std::vector<Ptr<RdmaNic>> nics;
    std::vector<uint32_t> servers;
    for (uint32_t r : ranks)
    {
        nics.push_back(m_nics[m_job.hosts[r]]);
        servers.push_back(m_job.servers.empty() ? m_job.hosts[r] : m_job.servers[r]);
    }
    c->SetServers(servers);
    const std::string problem = c->GetRanksProblem(static_cast<uint32_t>(ranks.size()));
    if (!problem.empty())
    {
        // (e.g. "hierarchical" on servers holding different numbers of ranks)
        const std::string type = CollectiveTypeName(c->GetCollectiveType());
        throw ScenarioError(m_job.algorithm.count(type) ? JobPath() + ".algorithm." + type
                                                        : JobPath(),
                            type + " by \"" + m_job.AlgorithmFor(c->GetCollectiveType()) +
                                "\" on " + std::to_string(ranks.size()) + " ranks: " + problem);
    }
    const uint32_t n = c->GetNConnections(static_cast<uint32_t>(ranks.size()));
    if (n > kEndPort - kFirstPort)
    {
        throw ScenarioError(JobPath(),
                            tid.GetName() + " on " + std::to_string(ranks.size()) +
                                " ranks needs " + std::to_string(n) +
                                " connections, more than the " +
                                std::to_string(kEndPort - kFirstPort) + " UDP source ports");
    }
    if (m_nextPort + n > kEndPort)
    {
        m_nextPort = kFirstPort; // ports only spread paths: reuse them
    }
    c->Setup(nics, static_cast<uint8_t>(m_job.priority), static_cast<uint16_t>(m_nextPort));
    m_nextPort += n;
    return c;
}

Ptr<TrainingJob>
JobCollectives::Build()
{
    const CollectiveType type = TypeOf(m_job.collective);
    const std::string algorithm = m_job.AlgorithmFor(type);
    std::vector<uint32_t> ranks(m_job.ranks);
    for (uint32_t r = 0; r < m_job.ranks; ++r)
    {
        ranks[r] = r;
    }
    Ptr<TrainingJob> job = CreateObjectWithAttributes<TrainingJob>(
        "Iterations",
        UintegerValue(m_job.iterations),
        "ComputeTime",
        TimeValue(NanoSeconds(static_cast<int64_t>(m_job.computeMs * 1e6))),
        "GradientBytes",
        UintegerValue(m_job.bytes),
        "Buckets",
        UintegerValue(m_job.buckets),
        "StartTime",
        TimeValue(NanoSeconds(static_cast<int64_t>(m_job.startMs * 1e6))));
    job->Setup(m_job.name, Make(type, algorithm, ranks));
    return job;
}

std::string
JobCollectives::JobPath() const
{
    return "jobs[" + std::to_string(&m_job - m_cfg.jobs.data()) + "]";
}

Ptr<TrainingJob>
JobCollectives::BuildReplay()
{
    Ptr<WorkloadReplay> replay = CreateObject<WorkloadReplay>();
    replay->Setup(
        m_job.workload.trace,
        [this](CollectiveType type, const std::vector<uint32_t>& ranks) {
            return Make(type, m_job.AlgorithmFor(type), ranks);
        },
        [this](uint32_t src, uint32_t dst) {
            return Make(PointToPointSend::GetTypeId(), {src, dst});
        });
    const std::string deadlock = replay->FindDeadlock();
    if (!deadlock.empty())
    {
        throw ScenarioError(JobPath() + ".workload", deadlock + " (" + m_job.workload.path + ")");
    }
    if (!replay->GetPrincipal())
    {
        // every collective of the workload is within one rank
        throw ScenarioError(JobPath() + ".workload",
                            "no communication between ranks (" + m_job.workload.path +
                                "): every collective and send stays within one rank");
    }
    Ptr<TrainingJob> job = CreateObjectWithAttributes<TrainingJob>(
        "Iterations",
        UintegerValue(m_job.iterations),
        "StartTime",
        TimeValue(NanoSeconds(static_cast<int64_t>(m_job.startMs * 1e6))));
    job->SetWorkload(m_job.name, replay);
    return job;
}

} // namespace scenario
} // namespace ns3
