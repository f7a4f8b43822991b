/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-scheduler.h"

#include "ns3/boolean.h"
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
                          MakeUintegerChecker<uint32_t>(1, TrafficClass::MAX_DATA + 1))
            .AddAttribute("BackgroundFirst",
                          "Give the jobs classes strictly below the background tenants' "
                          "(true), or let the jobs' top class be the lowest background class "
                          "(false: the two share it flow by flow).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&JobScheduler::m_backgroundFirst),
                          MakeBooleanChecker());
    return tid;
}

JobScheduler::JobScheduler()
    : m_classes(3),
      m_backgroundFirst(false),
      m_reserved(0)
{
    NS_LOG_FUNCTION(this);
}

JobScheduler::~JobScheduler() = default;

void
JobScheduler::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_jobs.clear();
    m_links.clear();
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
    // The jobs' top class is the lowest background class itself (shared:
    // one class, deficit round robin among its flows) or the one below it.
    const int top = !m_backgroundFirst && lowest < TrafficClass::CONTROL ? lowest : lowest - 1;
    for (int c = top; c >= 0 && m_jobClasses.size() < m_classes; --c)
    {
        m_jobClasses.push_back(static_cast<uint8_t>(c));
    }
    if (m_jobClasses.size() < m_classes)
    {
        const std::string n = std::to_string(m_jobClasses.size());
        m_jobClasses.clear();
        return std::to_string(m_classes) + " classes asked, but only " + n + " are free " +
               (m_backgroundFirst ? "below" : "up to") +
               " the lowest class of the background tenants and below the control class "
               "(raise the background's priority, or ask for fewer)";
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
    return TrafficClass::FormatOrder(GetClassOrder(m_reserved));
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
    // The job's sends per link direction, and the rate each send gets alone:
    // every rank of a ring sends as fast as the slowest, so a link crossed by
    // n of its sends gives each rate / n.
    std::vector<LinkLoad> loads;
    for (std::size_t r = 0; r < info.rankLinks.size(); ++r)
    {
        for (std::size_t k = 0; k < info.rankLinks[r].size(); ++k)
        {
            const double bps = r < info.rankLinkBps.size() && k < info.rankLinkBps[r].size()
                                   ? info.rankLinkBps[r][k]
                                   : info.bottleneckBps;
            loads.push_back(LinkLoad{info.rankLinks[r][k], 1, bps});
        }
    }
    std::sort(loads.begin(), loads.end(), [](const LinkLoad& a, const LinkLoad& b) {
        return a.link < b.link;
    });
    std::vector<LinkLoad> merged;
    for (const auto& l : loads)
    {
        if (!merged.empty() && merged.back().link == l.link)
        {
            ++merged.back().sends;
        }
        else
        {
            merged.push_back(l);
        }
    }
    double rate = 0;
    for (const auto& l : merged)
    {
        const double share = l.bps / l.sends;
        rate = rate == 0 ? share : std::min(rate, share);
    }
    if (rate > 0)
    {
        m_jobs.back().bottleneckBps = rate;
    }
    m_links.push_back(merged);
    const std::size_t n = m_jobs.size();
    m_conflict.resize(n);
    for (auto& row : m_conflict)
    {
        row.resize(n, false);
    }
    for (std::size_t j = 0; j + 1 < n; ++j)
    {
        const bool c = Overload(j, n - 1);
        m_conflict[j][n - 1] = c;
        m_conflict[n - 1][j] = c;
    }
}

bool
JobScheduler::Overload(std::size_t a, std::size_t b) const
{
    // Two jobs conflict when, both at the rate they get alone, some link
    // direction they share would carry more than its capacity: then sending
    // together slows both rings down, and taking turns loses nothing.
    const double ra = m_jobs[a].bottleneckBps;
    const double rb = m_jobs[b].bottleneckBps;
    const auto& la = m_links[a];
    const auto& lb = m_links[b];
    std::size_t i = 0;
    std::size_t k = 0;
    while (i < la.size() && k < lb.size())
    {
        if (la[i].link < lb[k].link)
        {
            ++i;
        }
        else if (lb[k].link < la[i].link)
        {
            ++k;
        }
        else
        {
            const double load = la[i].sends * ra + lb[k].sends * rb;
            if (load > la[i].bps * (1 + 1e-9))
            {
                return true;
            }
            ++i;
            ++k;
        }
    }
    return false;
}

void
JobScheduler::Start()
{
}

bool
JobScheduler::DecidesPerRank() const
{
    return false;
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
