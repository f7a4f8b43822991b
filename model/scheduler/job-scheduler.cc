/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-scheduler.h"

#include "ns3/log.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("JobScheduler");

NS_OBJECT_ENSURE_REGISTERED(JobScheduler);

TypeId
JobScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::JobScheduler")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddAttribute("Classes",
                          "Traffic classes a multi-class policy may give the jobs.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&JobScheduler::m_classes),
                          MakeUintegerChecker<uint32_t>(1, TrafficClass::MAX_DATA + 1));
    return tid;
}

JobScheduler::JobScheduler()
    : m_classes(3),
      m_reserved(0)
{
}

JobScheduler::~JobScheduler() = default;

void
JobScheduler::DoDispose()
{
    m_jobs.clear();
    Object::DoDispose();
}

const std::vector<std::pair<std::string, std::string>>&
JobScheduler::GetPolicies()
{
    static const std::vector<std::pair<std::string, std::string>> policies = {
        {"fifo", "ns3::FifoScheduler"},
        {"cassini", "ns3::CassiniScheduler"},
        {"crux", "ns3::CruxScheduler"},
        {"flux", "ns3::FluxController"},
    };
    return policies;
}

std::string
JobScheduler::GetPolicyTypeName(const std::string& policy)
{
    for (const auto& [name, type] : GetPolicies())
    {
        if (name == policy)
        {
            return type;
        }
    }
    return "";
}

bool
JobScheduler::UsesOwnClasses() const
{
    return false;
}

std::string
JobScheduler::AssignClasses(uint8_t reservedMask)
{
    m_jobClasses.clear();
    m_reserved = reservedMask;
    if (!UsesOwnClasses())
    {
        return "";
    }
    reservedMask |= TrafficClass::Bit(TrafficClass::CONTROL);
    // Below the lowest reserved data class: other tenants keep precedence.
    uint8_t lowest = TrafficClass::CONTROL;
    for (uint8_t c = 0; c < TrafficClass::CONTROL; ++c)
    {
        if (reservedMask & TrafficClass::Bit(c))
        {
            lowest = c;
            break;
        }
    }
    for (int c = lowest - 1; c >= 0 && m_jobClasses.size() < m_classes; --c)
    {
        m_jobClasses.push_back(static_cast<uint8_t>(c));
    }
    if (m_jobClasses.size() < m_classes)
    {
        const std::string n = std::to_string(m_jobClasses.size());
        m_jobClasses.clear();
        return std::to_string(m_classes) + " classes asked, but only " + n +
               " are free below the classes of the background tenants and the control class " +
               "(lower their priority, or ask for fewer)";
    }
    return "";
}

uint8_t
JobScheduler::GetClassMask() const
{
    uint8_t mask = 0;
    for (uint8_t c : m_jobClasses)
    {
        mask |= TrafficClass::Bit(c);
    }
    return mask;
}

const std::vector<uint8_t>&
JobScheduler::GetJobClasses() const
{
    return m_jobClasses;
}

std::vector<uint8_t>
JobScheduler::GetClassOrder(uint8_t reservedMask) const
{
    std::vector<uint8_t> order{TrafficClass::CONTROL};
    for (int c = TrafficClass::CONTROL - 1; c >= 0; --c)
    {
        if (reservedMask & TrafficClass::Bit(static_cast<uint8_t>(c)))
        {
            order.push_back(static_cast<uint8_t>(c));
        }
    }
    for (uint8_t c : m_jobClasses)
    {
        if (std::find(order.begin(), order.end(), c) == order.end())
        {
            order.push_back(c);
        }
    }
    return order;
}

std::string
JobScheduler::GetClassOrderString() const
{
    std::string s;
    for (uint8_t c : GetClassOrder(m_reserved))
    {
        s += (s.empty() ? "" : " ") + std::to_string(c);
    }
    return s;
}

bool
JobScheduler::GetQueueDiscFactory(ObjectFactory& /* factory */) const
{
    return false;
}

bool
JobScheduler::GetQpArbiterFactory(ObjectFactory& /* factory */) const
{
    return false;
}

void
JobScheduler::AddJob(const JobInfo& info)
{
    NS_LOG_FUNCTION(this << info.index);
    NS_ABORT_MSG_IF(info.index != m_jobs.size(), "JobScheduler: jobs must be added in order");
    m_jobs.push_back(info);
    m_currentClass.push_back(info.scenarioClass);
    std::vector<uint32_t> mine;
    for (const auto& links : info.rankLinks)
    {
        mine.insert(mine.end(), links.begin(), links.end());
    }
    std::sort(mine.begin(), mine.end());
    const std::size_t n = m_jobs.size();
    m_conflict.resize(n);
    for (auto& row : m_conflict)
    {
        row.resize(n, false);
    }
    for (std::size_t j = 0; j + 1 < n; ++j)
    {
        bool shared = false;
        for (const auto& links : m_jobs[j].rankLinks)
        {
            for (uint32_t l : links)
            {
                if (std::binary_search(mine.begin(), mine.end(), l))
                {
                    shared = true;
                    break;
                }
            }
            if (shared)
            {
                break;
            }
        }
        m_conflict[j][n - 1] = shared;
        m_conflict[n - 1][j] = shared;
    }
}

void
JobScheduler::Start()
{
}

const JobScheduler::Counters&
JobScheduler::GetCounters() const
{
    return m_counters;
}

uint8_t
JobScheduler::GetCurrentClass(uint32_t job) const
{
    return m_currentClass.at(job);
}

bool
JobScheduler::Conflict(uint32_t a, uint32_t b) const
{
    return a != b && m_conflict.at(a).at(b);
}

Time
JobScheduler::CommTimeAlone(uint32_t job) const
{
    const JobInfo& info = m_jobs.at(job);
    const Ptr<TrainingJob> tj = info.job;
    const Ptr<Collective> c = tj->GetCollective();
    const uint64_t bytes = tj->GetGradientBytes() / tj->GetNBuckets();
    const double sent = static_cast<double>(c->GetBytesSentPerRank(bytes));
    if (info.bottleneckBps <= 0)
    {
        return Time();
    }
    return Seconds(sent * 8 / info.bottleneckBps);
}

uint32_t
JobScheduler::GetNJobs() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

const JobScheduler::JobInfo&
JobScheduler::GetJobInfo(uint32_t job) const
{
    return m_jobs.at(job);
}

void
JobScheduler::SetJobClass(uint32_t job, uint8_t cls)
{
    if (m_currentClass.at(job) == cls)
    {
        return;
    }
    NS_LOG_FUNCTION(this << job << +cls);
    m_currentClass[job] = cls;
    ++m_counters.classChanges;
    for (const auto& qp : m_jobs[job].job->GetCollective()->GetQueuePairs())
    {
        qp->SetPriority(cls);
    }
}

} // namespace ns3
