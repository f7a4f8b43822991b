/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "job-scheduler.h"

#include "path-placement.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/named-type-registry.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
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
                          MakeBooleanChecker())
            .AddAttribute("PathCandidates",
                          "Source ports a path-aware policy tries per connection when it "
                          "chooses the jobs' paths.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&JobScheduler::m_pathCandidates),
                          MakeUintegerChecker<uint32_t>(1, 4096));
    return tid;
}

JobScheduler::JobScheduler()
    : m_classes(3),
      m_backgroundFirst(false),
      m_reserved(0),
      m_pathCandidates(64)
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
    m_jobQps.clear();
    m_paths = nullptr;
    Object::DoDispose();
}

NamedTypeRegistry&
JobScheduler::GetPolicyRegistry()
{
    // a function-local static: registrations from other files' static
    // initialisation may come before anything of this file is initialised
    static NamedTypeRegistry registry("JobScheduler: policy");
    return registry;
}

bool
JobScheduler::RegisterPolicy(const std::string& name, TypeId (*getTypeId)(), uint32_t rank)
{
    return GetPolicyRegistry().Register(name, getTypeId, rank);
}

const std::vector<std::pair<std::string, std::string>>&
JobScheduler::GetPolicies()
{
    return GetPolicyRegistry().List();
}

std::vector<std::string>
JobScheduler::GetFlowLevelLimits() const
{
    return {};
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

bool
JobScheduler::ChoosesPaths() const
{
    return false;
}

bool
JobScheduler::UsesAttribute(const std::string& name) const
{
    if (name == "Classes" || name == "BackgroundFirst")
    {
        return UsesOwnClasses();
    }
    return name != "PathCandidates" || ChoosesPaths();
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
        // (m_classes may be a policy's default, not what the user asked)
        const std::size_t n = m_jobClasses.size();
        m_jobClasses.clear();
        return "needs " + std::to_string(m_classes) + (m_classes == 1 ? " class" : " classes") +
               ", but " + (n == 0 ? std::string("none is") : "only " + std::to_string(n) + " are") +
               " free " + (m_backgroundFirst ? "below" : "up to") +
               " the lowest class of the background tenants and below the control class "
               "(raise the background's priority" +
               (m_classes > 1 ? ", or ask for fewer)" : ")");
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
    // (a policy would index an empty list: say which call is missing)
    NS_ABORT_MSG_IF(m_jobClasses.empty() && UsesOwnClasses(),
                    "JobScheduler (policy " << GetPolicyName()
                                            << "): the jobs have no classes: AssignClasses() was "
                                               "not called, or failed, before the policy used "
                                               "them (JobSchedulerHelper::Create calls it)");
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

uint8_t
JobScheduler::GetReservedClasses() const
{
    return m_reserved;
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
JobScheduler::SetPathFunction(PathFunction paths, std::vector<double> linkBps)
{
    // the jobs' links and conflicts are computed as they are added
    NS_ABORT_MSG_IF(!m_jobs.empty(),
                    "JobScheduler: the fabric (JobSchedulerHelper::SetFabric) must be given "
                    "before the jobs are added");
    m_paths = std::move(paths);
    m_linkBps = std::move(linkBps);
}

void
JobScheduler::AddJob(const JobInfo& info)
{
    NS_LOG_FUNCTION(this << info.index);
    NS_ABORT_MSG_IF(info.index != m_jobs.size(), "JobScheduler: jobs must be added in order");
    NS_ABORT_MSG_IF(!info.job, "JobScheduler: job " << info.index << " has no TrainingJob");
    for (const auto& other : m_jobs)
    {
        NS_ABORT_MSG_IF(other.job == info.job,
                        "JobScheduler: job " << info.index << " is job " << other.index
                                             << " added again");
    }
    NS_ABORT_MSG_IF(info.rankLinks.size() != info.job->GetConnections().size(),
                    "JobScheduler: job "
                        << info.index << " has " << info.job->GetConnections().size()
                        << " connections but rankLinks gives " << info.rankLinks.size()
                        << " paths (one per connection; "
                           "JobSchedulerHelper::AddJob fills them)");
    m_jobs.push_back(info);
    m_currentClass.push_back(info.scenarioClass);
    m_classTimeline.push_back({ClassChange{Simulator::Now(), info.scenarioClass}});
    m_links.emplace_back();
    m_jobQps.push_back(info.job->GetQueuePairs());
    UpdateLinks(m_jobs.size() - 1);
}

void
JobScheduler::UpdateLinks(std::size_t job)
{
    JobInfo& info = m_jobs[job];
    // The job's sends per link direction, and the rate each send gets alone:
    // every rank of a ring sends as fast as the slowest, so a link crossed by
    // n of its sends gives each rate / n.
    std::vector<LinkLoad> loads;
    for (std::size_t r = 0; r < info.rankLinks.size(); ++r)
    {
        for (std::size_t k = 0; k < info.rankLinks[r].size(); ++k)
        {
            const uint32_t link = info.rankLinks[r][k];
            double bps = info.bottleneckBps;
            if (r < info.rankLinkBps.size() && k < info.rankLinkBps[r].size())
            {
                bps = info.rankLinkBps[r][k];
            }
            else if (link < m_linkBps.size())
            {
                bps = m_linkBps[link];
            }
            loads.push_back(LinkLoad{link, 1, bps});
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
        info.bottleneckBps = rate;
    }
    m_links[job] = merged;
    const std::size_t n = m_jobs.size();
    m_conflict.resize(n);
    for (auto& row : m_conflict)
    {
        row.resize(n, false);
    }
    for (std::size_t j = 0; j < n; ++j)
    {
        if (j != job)
        {
            const bool c = Overload(j, job);
            m_conflict[j][job] = c;
            m_conflict[job][j] = c;
        }
    }
}

const std::vector<JobScheduler::LinkLoad>&
JobScheduler::GetLinkLoads(uint32_t job) const
{
    return m_links.at(job);
}

uint32_t
JobScheduler::PlacePaths(const std::vector<uint32_t>& order)
{
    NS_LOG_FUNCTION(this << order.size());
    NS_ABORT_MSG_IF(!m_paths,
                    "JobScheduler: policy " << GetPolicyName()
                                            << " chooses paths, but it was given no fabric "
                                               "(JobSchedulerHelper::SetFabric before AddJob)");
    if (m_linkBps.empty())
    {
        return 0;
    }

    // Per connection of the ordered jobs: the distinct paths its candidate
    // ports give (the port it has first), with one port for each.
    struct Send
    {
        uint32_t job;
        uint32_t connection;                      //!< its index (and rankLinks')
        Collective::Connection conn;              //!< its queue pairs
        double bps;                               //!< its NIC's rate, bit/s
        std::vector<std::vector<uint32_t>> paths; //!< candidate paths
        std::vector<uint16_t> ports;              //!< a port for each
        std::size_t chosen{0};                    //!< index in paths
    };

    std::vector<Send> sends;
    PathPlacement placement(m_linkBps, static_cast<uint32_t>(m_jobs.size()));
    std::vector<bool> ordered(m_jobs.size(), false);
    for (uint32_t j : order)
    {
        ordered.at(j) = true;
    }
    // jobs left out keep their paths, and their load
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        if (!ordered[j])
        {
            for (const auto& l : m_links[j])
            {
                placement.AddFixedLoad(l.link, l.sends * m_jobs[j].bottleneckBps / l.bps);
            }
        }
    }
    for (uint32_t j : order)
    {
        const JobInfo& info = m_jobs[j];
        const auto connections = info.job->GetConnections();
        for (uint32_t c = 0; c < connections.size(); ++c)
        {
            const auto& conn = connections[c];
            Send s;
            s.job = j;
            s.connection = c;
            s.conn = conn;
            const auto [src, dst] = info.connectionHosts.at(c);
            const uint16_t own = conn.sender->GetSourcePort();
            for (uint32_t k = 0; k < m_pathCandidates; ++k)
            {
                // own port, then ports spread over the dynamic range
                const auto port = static_cast<uint16_t>(49152 + (own - 49152 + 4099U * k) % 16384);
                std::vector<uint32_t> path = m_paths(src, dst, port);
                if (std::find(s.paths.begin(), s.paths.end(), path) == s.paths.end())
                {
                    s.paths.push_back(std::move(path));
                    s.ports.push_back(port);
                }
            }
            const uint32_t first = s.paths.front().empty() ? 0 : s.paths.front().front();
            s.bps = first < m_linkBps.size() ? m_linkBps[first] : 1.0;
            sends.push_back(std::move(s));
        }
    }
    for (const auto& s : sends)
    {
        placement.AddSend(s.job, s.bps, s.paths);
    }
    placement.Place();
    for (uint32_t i = 0; i < sends.size(); ++i)
    {
        sends[i].chosen = placement.GetChosen(i);
    }
    // give the queue pairs their ports, and learn the new paths
    uint32_t movedCount = 0;
    std::vector<bool> changed(m_jobs.size(), false);
    for (const auto& s : sends)
    {
        if (s.chosen == 0)
        {
            continue;
        }
        const auto& c = s.conn;
        const uint16_t port = s.ports[s.chosen];
        if (!c.sender->SetSourcePort(port))
        {
            continue; // busy: it keeps its path
        }
        c.receiver->SetSourcePort(port);
        m_jobs[s.job].rankLinks.at(s.connection) = s.paths[s.chosen];
        if (s.connection < m_jobs[s.job].rankLinkBps.size())
        {
            m_jobs[s.job].rankLinkBps[s.connection].clear();
        }
        changed[s.job] = true;
        ++movedCount;
    }
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        if (changed[j])
        {
            m_jobs[j].bottleneckBps = 0;
            UpdateLinks(j);
        }
    }
    m_counters.pathsMoved += movedCount;
    NS_LOG_INFO("paths: " << movedCount << " of " << sends.size() << " connections moved");
    return movedCount;
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

bool
JobScheduler::TurnsPay(uint32_t first, uint32_t second) const
{
    const double ra = m_jobs[first].bottleneckBps;
    const double rb = m_jobs[second].bottleneckBps;
    if (ra <= 0 || rb <= 0)
    {
        return Conflict(first, second);
    }
    // each job's speed together, as a fraction of its speed alone
    double xa = 1;
    double xb = 1;
    const auto& la = m_links[first];
    const auto& lb = m_links[second];
    for (std::size_t i = 0, k = 0; i < la.size() && k < lb.size();)
    {
        if (la[i].link != lb[k].link)
        {
            la[i].link < lb[k].link ? ++i : ++k;
            continue;
        }
        const double c = la[i].bps;
        const double da = la[i].sends * ra;
        const double db = lb[k].sends * rb;
        if (da + db > c * (1 + 1e-9))
        {
            // max-min between the two demands
            const double ga = db <= c / 2 ? c - db : std::min(da, std::max(c / 2, c - db));
            const double gb = c - ga;
            xa = std::min(xa, ga / da);
            xb = std::min(xb, gb / db);
        }
        ++i;
        ++k;
    }
    if (xa <= 0 || xb <= 0)
    {
        return true;
    }
    // Runs of equal length alone (the order is the caller's business, and
    // the lengths change from run to run): sharing until the first ends,
    // then the other alone at full speed.
    const double t1 = std::min(1 / xa, 1 / xb);
    const double rest = 1 - std::max(xa, xb) * t1;
    const double shared = t1 + (t1 + rest);
    const double turns = 1 + 2;
    return turns < shared;
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

const std::map<std::string, uint64_t>&
JobScheduler::GetPolicyCounters() const
{
    return m_policyCounters;
}

void
JobScheduler::CountPolicy(const std::string& name, uint64_t by)
{
    NS_ABORT_MSG_IF(name.empty(), "JobScheduler::CountPolicy: a counter needs a name");
    m_policyCounters[name] += by;
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

const std::vector<JobScheduler::ClassChange>&
JobScheduler::GetClassTimeline(uint32_t job) const
{
    return m_classTimeline.at(job);
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
    auto& timeline = m_classTimeline[job];
    if (!timeline.empty() && timeline.back().at == Simulator::Now())
    {
        timeline.back().cls = cls; // what counts at an instant is its last word
    }
    else
    {
        timeline.push_back(ClassChange{Simulator::Now(), cls});
    }
    for (const auto& qp : m_jobQps[job])
    {
        if (qp)
        {
            qp->SetPriority(cls);
        }
    }
}

} // namespace ns3
