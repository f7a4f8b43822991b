/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-mmu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ecn-marking.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");

NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMmu")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddConstructor<SwitchMmu>()
            .AddAttribute(
                "BufferSize",
                "Total packet buffer of the switch in bytes (reserves, headroom and "
                "shared pool).",
                UintegerValue(16 * 1024 * 1024),
                MakeUintegerAccessor(&SwitchMmu::SetBufferSize, &SwitchMmu::GetBufferSize),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "ReservedBytes",
                "Bytes reserved for every (ingress port, priority) queue.",
                UintegerValue(4096),
                MakeUintegerAccessor(&SwitchMmu::SetReservedBytes, &SwitchMmu::GetReservedBytes),
                MakeUintegerChecker<uint32_t>())
            .AddAttribute("DefaultHeadroom",
                          "PFC headroom in bytes, per lossless priority, of ports added "
                          "afterwards (SetHeadroom changes one port). The default fits a "
                          "100 Gb/s link of 1 us with 9000-byte frames.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&SwitchMmu::m_defaultHeadroom),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("PfcAlpha",
                          "Dynamic threshold factor: a lossless ingress queue is paused when "
                          "its shared bytes reach PfcAlpha x the free shared pool.",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SwitchMmu::m_pfcAlpha),
                          MakeDoubleChecker<double>())
            .AddAttribute("ResumeOffset",
                          "A paused queue resumes when its shared bytes fall this many bytes "
                          "below the dynamic threshold (or to zero).",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&SwitchMmu::m_resumeOffset),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Lossless",
                          "Run PFC: the LosslessPriorities are never dropped for lack of "
                          "buffer. When false every priority is lossy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SwitchMmu::SetLossless, &SwitchMmu::GetLossless),
                          MakeBooleanChecker())
            .AddAttribute("LosslessPriorities",
                          "Bit p set when priority p is lossless while Lossless is true. Each "
                          "lossless priority sets aside headroom on every port.",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&SwitchMmu::SetLosslessPriorities,
                                               &SwitchMmu::GetLosslessPriorities),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("EcnKmin",
                          "ECN: egress queue bytes below which nothing is marked (ports added "
                          "afterwards; SetEcnThresholds changes one port).",
                          UintegerValue(400000),
                          MakeUintegerAccessor(&SwitchMmu::m_defaultKmin),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnKmax",
                          "ECN: egress queue bytes above which everything is marked.",
                          UintegerValue(1600000),
                          MakeUintegerAccessor(&SwitchMmu::m_defaultKmax),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnPmax",
                          "ECN: marking probability just below EcnKmax.",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&SwitchMmu::m_defaultPmax),
                          MakeDoubleChecker<double>());
    return tid;
}

SwitchMmu::SwitchMmu()
    : m_bufferSize(16 * 1024 * 1024),
      m_reservedBytes(4096),
      m_defaultHeadroom(65536),
      m_pfcAlpha(0.125),
      m_resumeOffset(3072),
      m_lossless(true),
      m_losslessPriorities(0xff),
      m_losslessMask(0xff),
      m_defaultKmin(400000),
      m_defaultKmax(1600000),
      m_defaultPmax(0.2),
      m_sharedPool(0),
      m_sharedUsed(0),
      m_totalUsed(0)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
    UpdateSharedPool();
}

SwitchMmu::~SwitchMmu() = default;

void
SwitchMmu::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uniform = nullptr;
    Object::DoDispose();
}

uint32_t
SwitchMmu::AddPort()
{
    NS_LOG_FUNCTION(this);
    const uint32_t port = m_headroom.size();
    m_headroom.push_back(m_defaultHeadroom);
    Queue q;
    q.kmin = m_defaultKmin;
    q.kmax = m_defaultKmax;
    q.pmax = m_defaultPmax;
    m_queues.resize(m_queues.size() + N_PRIORITIES, q);
    UpdateSharedPool();
    return port;
}

void
SwitchMmu::ShrinkToFit()
{
    m_headroom.shrink_to_fit();
    m_queues.shrink_to_fit();
}

uint32_t
SwitchMmu::GetNPorts() const
{
    return m_headroom.size();
}

void
SwitchMmu::SetHeadroom(uint32_t port, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << bytes);
    m_headroom.at(port) = bytes;
    UpdateSharedPool();
}

uint32_t
SwitchMmu::GetHeadroom(uint32_t port) const
{
    return m_headroom.at(port);
}

void
SwitchMmu::SetEcnThresholds(uint32_t port, uint32_t kmin, uint32_t kmax, double pmax)
{
    NS_LOG_FUNCTION(this << port << kmin << kmax << pmax);
    for (uint8_t prio = 0; prio < N_PRIORITIES; ++prio)
    {
        SetEcnThresholds(port, prio, kmin, kmax, pmax);
    }
}

void
SwitchMmu::SetEcnThresholds(uint32_t port, uint8_t prio, uint32_t kmin, uint32_t kmax, double pmax)
{
    NS_LOG_FUNCTION(this << port << +prio << kmin << kmax << pmax);
    if (port >= GetNPorts() || prio >= N_PRIORITIES)
    {
        throw std::out_of_range("SwitchMmu::SetEcnThresholds: no queue (port " +
                                std::to_string(port) + ", priority " + std::to_string(prio) + ")");
    }
    const uint32_t idx = Index(port, prio);
    m_queues[idx].kmin = kmin;
    m_queues[idx].kmax = kmax;
    m_queues[idx].pmax = pmax;
}

uint32_t
SwitchMmu::GetEcnKmin(uint32_t port) const
{
    return GetEcnKmin(port, 0);
}

uint32_t
SwitchMmu::GetEcnKmax(uint32_t port) const
{
    return GetEcnKmax(port, 0);
}

double
SwitchMmu::GetEcnPmax(uint32_t port) const
{
    return GetEcnPmax(port, 0);
}

uint32_t
SwitchMmu::GetEcnKmin(uint32_t port, uint8_t prio) const
{
    return m_queues.at(CheckedIndex(port, prio)).kmin;
}

uint32_t
SwitchMmu::GetEcnKmax(uint32_t port, uint8_t prio) const
{
    return m_queues.at(CheckedIndex(port, prio)).kmax;
}

double
SwitchMmu::GetEcnPmax(uint32_t port, uint8_t prio) const
{
    return m_queues.at(CheckedIndex(port, prio)).pmax;
}

void
SwitchMmu::SetBufferSize(uint64_t bytes)
{
    m_bufferSize = bytes;
    UpdateSharedPool();
}

uint64_t
SwitchMmu::GetBufferSize() const
{
    return m_bufferSize;
}

void
SwitchMmu::SetReservedBytes(uint32_t bytes)
{
    m_reservedBytes = bytes;
    UpdateSharedPool();
}

uint32_t
SwitchMmu::GetReservedBytes() const
{
    return m_reservedBytes;
}

void
SwitchMmu::SetLossless(bool lossless)
{
    m_lossless = lossless;
    m_losslessMask = m_lossless ? m_losslessPriorities : 0;
    UpdateSharedPool();
}

bool
SwitchMmu::GetLossless() const
{
    return m_lossless;
}

void
SwitchMmu::SetLosslessPriorities(uint8_t mask)
{
    m_losslessPriorities = mask;
    m_losslessMask = m_lossless ? m_losslessPriorities : 0;
    UpdateSharedPool();
}

uint8_t
SwitchMmu::GetLosslessPriorities() const
{
    return m_losslessPriorities;
}

bool
SwitchMmu::IsLossless(uint8_t prio) const
{
    return (m_losslessMask >> prio) & 1u;
}

uint64_t
SwitchMmu::TotalHeadroom() const
{
    uint64_t perPrio = 0;
    for (uint32_t h : m_headroom)
    {
        perPrio += h;
    }
    return perPrio * __builtin_popcount(m_losslessMask);
}

void
SwitchMmu::UpdateSharedPool()
{
    const uint64_t reserved =
        static_cast<uint64_t>(m_reservedBytes) * N_PRIORITIES * m_headroom.size();
    const uint64_t setAside = reserved + TotalHeadroom();
    m_sharedPool = m_bufferSize > setAside ? m_bufferSize - setAside : 0;
}

std::string
SwitchMmu::CheckConfiguration() const
{
    std::ostringstream os;
    if (m_bufferSize == 0)
    {
        return "SwitchMmu: BufferSize must be positive";
    }
    if (!(m_pfcAlpha > 0) || !std::isfinite(m_pfcAlpha))
    {
        os << "SwitchMmu: PfcAlpha must be a positive number, not " << m_pfcAlpha;
        return os.str();
    }
    for (uint32_t port = 0; port < GetNPorts(); ++port)
    {
        for (uint8_t prio = 0; prio < N_PRIORITIES; ++prio)
        {
            const uint32_t idx = Index(port, prio);
            // per-port wording when all priorities of the port are alike
            bool alike = true;
            for (uint8_t p = 1; p < N_PRIORITIES; ++p)
            {
                const Queue& a = m_queues[Index(port, p)];
                const Queue& b = m_queues[Index(port, 0)];
                alike = alike && a.kmin == b.kmin && a.kmax == b.kmax && a.pmax == b.pmax;
            }
            // (named only for a message: a switch has hundreds of queues)
            auto queue = [&]() {
                std::ostringstream name;
                name << "port " << port;
                if (!alike)
                {
                    name << " priority " << +prio;
                }
                return name.str();
            };
            if (!(m_queues[idx].pmax >= 0 && m_queues[idx].pmax <= 1))
            {
                os << "SwitchMmu: ECN Pmax of " << queue() << " must lie in [0, 1], not "
                   << m_queues[idx].pmax;
                return os.str();
            }
            if (m_queues[idx].kmin > m_queues[idx].kmax)
            {
                os << "SwitchMmu: ECN Kmin of " << queue() << " (" << m_queues[idx].kmin
                   << " bytes) exceeds its Kmax (" << m_queues[idx].kmax << " bytes)";
                return os.str();
            }
        }
        if (m_losslessMask != 0 && m_headroom[port] == 0)
        {
            os << "SwitchMmu: port " << port
               << " has no PFC headroom although PFC is on (Lossless)";
            return os.str();
        }
    }
    const uint64_t reserved = static_cast<uint64_t>(m_reservedBytes) * N_PRIORITIES * GetNPorts();
    const uint64_t headroom = TotalHeadroom();
    if (reserved + headroom >= m_bufferSize)
    {
        os << "SwitchMmu: BufferSize (" << m_bufferSize
           << " bytes) cannot hold the per-queue reserves (" << reserved
           << " bytes = " << GetNPorts() << " ports x 8 priorities x ReservedBytes "
           << m_reservedBytes << ") and the PFC headroom (" << headroom
           << " bytes = the headroom of " << GetNPorts() << " ports x "
           << __builtin_popcount(m_losslessMask)
           << " lossless priorities) and leave a shared pool: raise BufferSize, or lower "
              "ReservedBytes, the headroom (link rate x delay, MTU) or the number of "
              "LosslessPriorities";
        return os.str();
    }
    return "";
}

int64_t
SwitchMmu::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

SwitchMmu::Verdict
SwitchMmu::Admit(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << inPort << outPort << +prio << bytes);
    const uint32_t idx = Index(inPort, prio);
    const uint64_t q = m_queues[idx].ingressBytes;
    const uint64_t newBytes = q + bytes;
    if (newBytes > m_reservedBytes)
    {
        // Part of the packet beyond the reserve, and the queue's shared bytes.
        const uint64_t sharedInc = newBytes - std::max<uint64_t>(q, m_reservedBytes);
        const uint64_t sharedNow = SharedOf(idx);
        const bool poolFits = m_sharedUsed + sharedInc <= m_sharedPool;
        if (IsLossless(prio))
        {
            const double threshold = m_pfcAlpha * static_cast<double>(FreeShared());
            if (poolFits && static_cast<double>(sharedNow + sharedInc) <= threshold)
            {
                m_queues[idx].ingressBytes = newBytes;
                m_sharedUsed += sharedInc;
            }
            else if (m_queues[idx].headroomUsed + bytes <= m_headroom[inPort])
            {
                m_queues[idx].headroomUsed += bytes;
            }
            else
            {
                NS_LOG_LOGIC("headroom exceeded on port " << inPort << " prio " << +prio);
                ++m_stats.nHeadroomDrops;
                return DROP_HEADROOM_EXCEEDED;
            }
        }
        else if (poolFits)
        {
            m_queues[idx].ingressBytes = newBytes;
            m_sharedUsed += sharedInc;
        }
        else
        {
            NS_LOG_LOGIC("buffer full: drop on port " << inPort << " prio " << +prio);
            ++m_stats.nBufferDrops;
            return DROP_BUFFER_FULL;
        }
    }
    else
    {
        m_queues[idx].ingressBytes = newBytes;
    }
    m_queues[Index(outPort, prio)].egressBytes += bytes;
    m_totalUsed += bytes;
    m_stats.peakUsedBytes = std::max(m_stats.peakUsedBytes, m_totalUsed);
    return ADMITTED;
}

bool
SwitchMmu::CheckXoff(uint32_t inPort, uint8_t prio)
{
    const uint32_t idx = Index(inPort, prio);
    if (m_queues[idx].paused || !IsLossless(prio))
    {
        return false;
    }
    const uint64_t shared = SharedOf(idx);
    if (m_queues[idx].headroomUsed > 0 ||
        (shared > 0 &&
         static_cast<double>(shared) >= m_pfcAlpha * static_cast<double>(FreeShared())))
    {
        NS_LOG_LOGIC("XOFF port " << inPort << " prio " << +prio);
        m_queues[idx].paused = 1;
        ++m_stats.nPauses;
        return true;
    }
    return false;
}

void
SwitchMmu::Release(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << inPort << outPort << +prio << bytes);
    const uint32_t idx = Index(inPort, prio);
    // Headroom first: it is the most precious space.
    const uint64_t fromHeadroom = std::min<uint64_t>(m_queues[idx].headroomUsed, bytes);
    m_queues[idx].headroomUsed -= fromHeadroom;
    const uint64_t rest = bytes - fromHeadroom;
    if (rest > 0)
    {
        const uint64_t fromShared = std::min(SharedOf(idx), rest);
        m_sharedUsed -= std::min(m_sharedUsed, fromShared);
        m_queues[idx].ingressBytes -= std::min(m_queues[idx].ingressBytes, rest);
    }
    uint64_t& egress = m_queues[Index(outPort, prio)].egressBytes;
    egress -= std::min<uint64_t>(egress, bytes);
    m_totalUsed -= std::min<uint64_t>(m_totalUsed, bytes);
}

bool
SwitchMmu::CheckXon(uint32_t inPort, uint8_t prio)
{
    const uint32_t idx = Index(inPort, prio);
    if (!m_queues[idx].paused || m_queues[idx].headroomUsed > 0)
    {
        return false;
    }
    const uint64_t shared = SharedOf(idx);
    if (shared == 0 || static_cast<double>(shared + m_resumeOffset) <=
                           m_pfcAlpha * static_cast<double>(FreeShared()))
    {
        NS_LOG_LOGIC("XON port " << inPort << " prio " << +prio);
        m_queues[idx].paused = 0;
        ++m_stats.nResumes;
        return true;
    }
    return false;
}

bool
SwitchMmu::ShouldMarkEcn(uint32_t outPort, uint8_t prio)
{
    return ShouldMarkEcn(outPort, prio, m_queues[Index(outPort, prio)].egressBytes);
}

bool
SwitchMmu::ShouldMarkEcn(uint32_t outPort, uint8_t prio, uint64_t bytes)
{
    const Queue& q = m_queues[Index(outPort, prio)];
    return EcnShouldMark(bytes, q.kmin, q.kmax, q.pmax, *m_uniform);
}

bool
SwitchMmu::IsPaused(uint32_t inPort, uint8_t prio) const
{
    return m_queues.at(Index(inPort, prio)).paused != 0;
}

uint64_t
SwitchMmu::GetSharedPoolSize() const
{
    return m_sharedPool;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchMmu::GetPfcThreshold() const
{
    return static_cast<uint64_t>(m_pfcAlpha * static_cast<double>(FreeShared()));
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t port, uint8_t prio) const
{
    return m_queues.at(Index(port, prio)).ingressBytes;
}

uint64_t
SwitchMmu::GetHeadroomUsed(uint32_t port, uint8_t prio) const
{
    return m_queues.at(Index(port, prio)).headroomUsed;
}

uint64_t
SwitchMmu::GetEgressBytes(uint32_t port, uint8_t prio) const
{
    return m_queues.at(Index(port, prio)).egressBytes;
}

uint64_t
SwitchMmu::GetTotalUsed() const
{
    return m_totalUsed;
}

SwitchMmu::Stats&
SwitchMmu::Stats::operator+=(const Stats& o)
{
    nBufferDrops += o.nBufferDrops;
    nHeadroomDrops += o.nHeadroomDrops;
    nPauses += o.nPauses;
    nResumes += o.nResumes;
    peakUsedBytes = std::max(peakUsedBytes, o.peakUsedBytes);
    return *this;
}

const SwitchMmu::Stats&
SwitchMmu::GetStats() const
{
    return m_stats;
}

} // namespace ns3
