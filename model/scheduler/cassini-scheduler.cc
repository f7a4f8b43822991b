/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cassini-scheduler.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CassiniScheduler");

NS_OBJECT_ENSURE_REGISTERED(CassiniScheduler);
FLUX_REGISTER_POLICY("cassini", CassiniScheduler, 1);

TypeId
CassiniScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CassiniScheduler")
            .SetParent<JobScheduler>()
            .SetGroupName("Flux")
            .AddConstructor<CassiniScheduler>()
            .AddAttribute("Slots",
                          "Grid points per longest period for the shifts.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&CassiniScheduler::m_slots),
                          MakeUintegerChecker<uint32_t>(2, 4096))
            .AddAttribute("MaxCircle",
                          "Longest circle, in longest periods (least common multiple of "
                          "the periods beyond it: the longest period is used).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&CassiniScheduler::m_maxCircle),
                          MakeUintegerChecker<uint32_t>(1, 1024));
    return tid;
}

CassiniScheduler::CassiniScheduler()
    : m_slots(64),
      m_maxCircle(16)
{
    NS_LOG_FUNCTION(this);
}

CassiniScheduler::~CassiniScheduler() = default;

std::string
CassiniScheduler::GetPolicyName() const
{
    return "cassini";
}

Time
CassiniScheduler::GetPeriod(uint32_t job) const
{
    const Ptr<TrainingJob> tj = GetJobInfo(job).job;
    // Buckets overlap communication with compute: the iteration is the longer
    // of compute then the last bucket's allreduce, and the first bucket's
    // share of compute then every allreduce back to back.
    const Time bucket = CommTimeAlone(job);
    const uint32_t b = tj->GetNBuckets();
    return std::max(tj->GetComputeTime() + bucket, tj->GetComputeTime() / b + bucket * b);
}

std::vector<Time>
CassiniScheduler::ComputeShifts() const
{
    const uint32_t n = GetNJobs();
    std::vector<Time> shifts(n, Time());
    if (n < 2)
    {
        return shifts;
    }
    int64_t maxP = 1;
    for (uint32_t j = 0; j < n; ++j)
    {
        maxP = std::max(maxP, GetPeriod(j).GetTimeStep());
    }
    const double grid = static_cast<double>(maxP) / m_slots;
    std::vector<uint64_t> p(n);
    std::vector<uint64_t> d(n);
    uint64_t circle = 1;
    bool capped = false;
    for (uint32_t j = 0; j < n; ++j)
    {
        const Ptr<TrainingJob> tj = GetJobInfo(j).job;
        p[j] = std::max<uint64_t>(1, std::llround(GetPeriod(j).GetTimeStep() / grid));
        const double comm = (CommTimeAlone(j) * tj->GetNBuckets()).GetTimeStep() / grid;
        d[j] = std::min<uint64_t>(p[j], std::max<uint64_t>(1, std::llround(comm)));
        if (!capped)
        {
            circle = std::lcm(circle, p[j]);
            if (circle > static_cast<uint64_t>(m_maxCircle) * m_slots)
            {
                capped = true;
            }
        }
    }
    if (capped)
    {
        circle = *std::max_element(p.begin(), p.end());
    }
    // communication slots of job j with shift s on the circle
    auto pattern = [&](uint32_t j, uint64_t s) {
        std::vector<uint8_t> occ(circle, 0);
        for (uint64_t start = 0; start < circle; start += p[j])
        {
            for (uint64_t k = p[j] - d[j]; k < p[j]; ++k)
            {
                occ[(s + start + k) % circle] = 1;
            }
        }
        return occ;
    };
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return static_cast<double>(d[a]) / p[a] > static_cast<double>(d[b]) / p[b];
    });
    std::vector<std::vector<uint8_t>> placed(n);
    for (uint32_t j : order)
    {
        uint64_t best = 0;
        uint64_t bestOverlap = UINT64_MAX;
        for (uint64_t s = 0; s < p[j] && bestOverlap > 0; ++s)
        {
            const std::vector<uint8_t> occ = pattern(j, s);
            uint64_t overlap = 0;
            for (uint32_t k = 0; k < n; ++k)
            {
                if (placed[k].empty() || !Conflict(j, k))
                {
                    continue;
                }
                for (uint64_t t = 0; t < circle; ++t)
                {
                    overlap += occ[t] & placed[k][t];
                }
            }
            if (overlap < bestOverlap)
            {
                bestOverlap = overlap;
                best = s;
            }
        }
        placed[j] = pattern(j, best);
        shifts[j] = TimeStep(std::llround(best * grid));
        NS_LOG_INFO("cassini: job " << j << " period " << p[j] << " comm " << d[j] << " shift "
                                    << best << " of " << circle << " overlap " << bestOverlap);
    }
    return shifts;
}

void
CassiniScheduler::Start()
{
    m_shift = ComputeShifts();
    const uint32_t n = GetNJobs();
    m_anchor.assign(n, Time());
    for (uint32_t j = 0; j < n; ++j)
    {
        Time anchor = GetJobInfo(j).job->GetStartTime();
        for (uint32_t k = 0; k < n; ++k)
        {
            if (Conflict(j, k))
            {
                anchor = std::min(anchor, GetJobInfo(k).job->GetStartTime());
            }
        }
        m_anchor[j] = anchor;
        bool shares = false;
        for (uint32_t k = 0; k < n; ++k)
        {
            shares = shares || Conflict(j, k);
        }
        if (!shares)
        {
            continue; // a job that shares no link keeps its own pace
        }
        GetJobInfo(j).job->SetIterationGate(
            MakeBoundCallback(&CassiniScheduler::IterationStart, this, j));
    }
}

Time
CassiniScheduler::IterationStart(CassiniScheduler* self,
                                 uint32_t index,
                                 Ptr<TrainingJob> /* job */,
                                 uint32_t iteration)
{
    ++self->m_counters.decisions;
    const Time now = Simulator::Now();
    const int64_t period = self->GetPeriod(index).GetTimeStep();
    if (period <= 0)
    {
        return Time();
    }
    const int64_t base = (self->m_anchor[index] + self->m_shift[index]).GetTimeStep();
    const int64_t t = now.GetTimeStep();
    // the first slot at or after now
    int64_t next = base;
    if (t > base)
    {
        next = base + (t - base + period - 1) / period * period;
    }
    int64_t wait = next - t;
    // later iterations: only an early one waits (the nearest slot is ahead)
    if (iteration > 0 && wait * 2 > period)
    {
        wait = 0;
    }
    if (wait > 0)
    {
        ++self->m_counters.held;
    }
    return TimeStep(wait);
}

} // namespace ns3
