/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-topology-helper.h"

#include "pfc-link-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/int-stamper.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-prio-queue-disc.h"
#include "ns3/switch-mmu.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopologyHelper");

namespace
{
/// Ethernet header and 802.1Q tag.
constexpr uint32_t L2_HEADER_BYTES = WireBytes::L2;
/// Preamble, SFD, inter-frame gap and FCS.
constexpr uint32_t WIRE_OVERHEAD_BYTES = WireBytes::PREAMBLE_IFG + WireBytes::FCS;
/// A PFC frame on the wire: 60-byte minimum frame and the wire overhead.
constexpr uint32_t PFC_FRAME_WIRE_BYTES = 60 + WIRE_OVERHEAD_BYTES;
} // namespace

FabricTopologyHelper::FabricTopologyHelper()
    : m_hostRate("100Gbps"),
      m_fabricRate("100Gbps"),
      m_delay(MicroSeconds(1)),
      m_bufferSize(16 * 1024 * 1024),
      m_mtu(9000),
      m_pfc(true),
      m_losslessPriorities(0xff),
      m_kmin(400000),
      m_kmax(1600000),
      m_pmax(0.2),
      m_ecmpSeed(1),
      m_ranks(1),
      m_queueDiscSet(false)
{
    NS_LOG_FUNCTION(this);
    m_queueDiscFactory.SetTypeId(PfcPrioQueueDisc::GetTypeId());
}

void
FabricTopologyHelper::SetHostRate(DataRate rate)
{
    m_hostRate = rate;
}

void
FabricTopologyHelper::SetFabricRate(DataRate rate)
{
    m_fabricRate = rate;
}

void
FabricTopologyHelper::SetLinkDelay(Time delay)
{
    m_delay = delay;
}

void
FabricTopologyHelper::SetBufferSize(uint64_t bytes)
{
    m_bufferSize = bytes;
}

void
FabricTopologyHelper::SetMtu(uint32_t bytes)
{
    m_mtu = bytes;
}

void
FabricTopologyHelper::SetPfc(bool enabled)
{
    m_pfc = enabled;
}

void
FabricTopologyHelper::SetLosslessPriorities(uint8_t mask)
{
    m_losslessPriorities = mask;
}

void
FabricTopologyHelper::SetEcn(uint32_t kminBytes, uint32_t kmaxBytes, double pmax)
{
    m_kmin = kminBytes;
    m_kmax = kmaxBytes;
    m_pmax = pmax;
}

void
FabricTopologyHelper::SetEcnClass(uint8_t prio, uint32_t kminBytes, uint32_t kmaxBytes, double pmax)
{
    if (prio >= TrafficClass::N_CLASSES)
    {
        m_configError = "ECN: traffic class " + std::to_string(prio) + " out of range 0.." +
                        std::to_string(TrafficClass::N_CLASSES - 1);
        return;
    }
    m_ecnClass[prio] = EcnClass{true, kminBytes, kmaxBytes, pmax};
}

void
FabricTopologyHelper::SetEcnForRate(DataRate rate,
                                    uint32_t kminBytes,
                                    uint32_t kmaxBytes,
                                    double pmax)
{
    m_ecnRate[rate.GetBitRate()] = EcnClass{true, kminBytes, kmaxBytes, pmax};
}

void
FabricTopologyHelper::SetEcmpSeed(uint32_t seed)
{
    m_ecmpSeed = seed;
}

void
FabricTopologyHelper::SetRanks(uint32_t ranks)
{
    NS_ABORT_MSG_IF(ranks == 0, "FabricTopologyHelper::SetRanks: at least one process");
    m_ranks = ranks;
}

uint32_t
FabricTopologyHelper::GetRanks() const
{
    return m_ranks;
}

namespace
{
/// An attribute the helper sets on every fabric it builds, and its setter.
struct OwnAttribute
{
    const char* type;      //!< the TypeId's name
    const char* attribute; //!< the attribute
    const char* setter;    //!< the helper's call that sets it
};

/// Every attribute the helper sets from its own settings.
constexpr OwnAttribute kOwnAttributes[] = {
    {"ns3::SwitchMmu", "BufferSize", "SetBufferSize"},
    {"ns3::SwitchMmu", "Lossless", "SetPfc"},
    {"ns3::SwitchMmu", "LosslessPriorities", "SetLosslessPriorities"},
    {"ns3::SwitchMmu", "EcnKmin", "SetEcn"},
    {"ns3::SwitchMmu", "EcnKmax", "SetEcn"},
    {"ns3::SwitchMmu", "EcnPmax", "SetEcn"},
    {"ns3::SwitchMmu", "DefaultHeadroom", "SetLinkDelay and SetMtu"},
    {"ns3::PfcNetDevice", "DataRate", "SetHostRate and SetFabricRate"},
    {"ns3::PfcNetDevice", "Mtu", "SetMtu"},
    {"ns3::PfcNetDevice", "PfcEnabled", "SetPfc"},
    {"ns3::PfcChannel", "Delay", "SetLinkDelay"},
    {"ns3::FabricSwitch", "EcmpSeed", "SetEcmpSeed"},
    {"ns3::FabricSwitch", "Mmu", "SetMmuAttribute"},
};

} // namespace

std::string
FabricTopologyHelper::GetOwnSetter(const std::string& attribute)
{
    for (const auto& own : kOwnAttributes)
    {
        if (attribute == std::string(own.type) + "::" + own.attribute)
        {
            return own.setter;
        }
    }
    return "";
}

/**
 * \param tid the type
 * \param name one of its attributes
 * \return the helper's call that sets it when the helper owns it, else ""
 */
static std::string
HelperOwn(TypeId tid, const std::string& name)
{
    return FabricTopologyHelper::GetOwnSetter(tid.GetName() + "::" + name);
}

void
FabricTopologyHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!SwitchMmu::GetTypeId().LookupAttributeByName(name, &info))
    {
        m_configError = "switch buffer: SwitchMmu has no attribute \"" + name + "\"";
        return;
    }
    if (const std::string own = HelperOwn(SwitchMmu::GetTypeId(), name); !own.empty())
    {
        m_configError = "switch buffer: SwitchMmu's " + name + " is the helper's own: use " + own;
        return;
    }
    m_mmuAttributes.emplace_back(name, value.Copy());
}

void
FabricTopologyHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!PfcNetDevice::GetTypeId().LookupAttributeByName(name, &info))
    {
        m_configError = "links: PfcNetDevice has no attribute \"" + name + "\"";
        return;
    }
    if (const std::string own = HelperOwn(PfcNetDevice::GetTypeId(), name); !own.empty())
    {
        m_configError = "links: PfcNetDevice's " + name + " is the helper's own: use " + own;
        return;
    }
    m_deviceAttributes.emplace_back(name, value.Copy());
}

void
FabricTopologyHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    TypeId::AttributeInformation info;
    if (!FabricSwitch::GetTypeId().LookupAttributeByName(name, &info))
    {
        m_configError = "switches: FabricSwitch has no attribute \"" + name + "\"";
        return;
    }
    if (const std::string own = HelperOwn(FabricSwitch::GetTypeId(), name); !own.empty())
    {
        m_configError = "switches: FabricSwitch's " + name + " is the helper's own: use " + own;
        return;
    }
    m_switchAttributes.emplace_back(name, value.Copy());
}

uint32_t
FabricTopologyHelper::GetHeadroom(DataRate rate) const
{
    return GetHeadroom(rate, m_delay);
}

uint32_t
FabricTopologyHelper::GetHeadroom(DataRate rate, Time delay) const
{
    const double wireBytes =
        3.0 * static_cast<double>(rate.GetBitRate()) * delay.GetSeconds() / 8.0;
    const double frames =
        3.0 * (m_mtu + L2_HEADER_BYTES + WIRE_OVERHEAD_BYTES) + 2.0 * PFC_FRAME_WIRE_BYTES;
    const double total = std::ceil(wireBytes + frames);
    return total >= std::numeric_limits<uint32_t>::max() ? std::numeric_limits<uint32_t>::max()
                                                         : static_cast<uint32_t>(total);
}

Ipv4Address
FabricTopologyHelper::GetHostAddress(uint32_t index)
{
    return Ipv4Address(0x0a000000u + index + 1);
}

uint32_t
FabricTopologyHelper::SwitchSeed(uint32_t index) const
{
    // splitmix64 of (fabric seed, switch index): well-spread, distinct seeds.
    uint64_t z = ((static_cast<uint64_t>(m_ecmpSeed) << 32) | index) + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return static_cast<uint32_t>(z ^ (z >> 32));
}

std::string
FabricTopologyHelper::CheckCommon() const
{
    std::ostringstream os;
    if (!m_configError.empty())
    {
        return m_configError;
    }
    if (!m_deviceAttributes.empty())
    {
        Ptr<PfcNetDevice> probe = CreateObject<PfcNetDevice>();
        for (const auto& [name, value] : m_deviceAttributes)
        {
            if (!probe->SetAttributeFailSafe(name, *value))
            {
                return "links: invalid value for PfcNetDevice attribute \"" + name + "\"";
            }
        }
        probe->Dispose();
    }
    if (!m_switchAttributes.empty())
    {
        Ptr<FabricSwitch> probe = CreateObject<FabricSwitch>();
        for (const auto& [name, value] : m_switchAttributes)
        {
            if (!probe->SetAttributeFailSafe(name, *value))
            {
                return "switches: invalid value for FabricSwitch attribute \"" + name + "\"";
            }
        }
        probe->Dispose();
    }
    if (m_hostRate.GetBitRate() == 0)
    {
        return "host rate must be positive (got 0 bit/s)";
    }
    if (m_fabricRate.GetBitRate() == 0)
    {
        return "fabric rate must be positive (got 0 bit/s)";
    }
    if (m_delay.IsStrictlyNegative())
    {
        os << "link delay must not be negative (got " << m_delay.As(Time::US) << ")";
        return os.str();
    }
    if (m_mtu < 68 || m_mtu > 65535)
    {
        os << "MTU must lie in [68, 65535] bytes (got " << m_mtu << ")";
        return os.str();
    }
    if (m_bufferSize == 0)
    {
        return "switch buffer size must be positive (got 0 bytes)";
    }
    if (!(m_pmax >= 0 && m_pmax <= 1))
    {
        os << "ECN pmax must lie in [0, 1] (got " << m_pmax << ")";
        return os.str();
    }
    for (const auto& [bps, e] : m_ecnRate)
    {
        if (!(e.pmax >= 0 && e.pmax <= 1) || e.kmin > e.kmax)
        {
            os << "ECN at " << bps / 1e9 << " Gb/s: kmin " << e.kmin << " bytes, kmax " << e.kmax
               << " bytes, pmax " << e.pmax
               << " (pmax must lie in [0, 1], kmin must not exceed kmax)";
            return os.str();
        }
    }
    if (m_kmin > m_kmax)
    {
        os << "ECN kmin (" << m_kmin << " bytes) must not exceed kmax (" << m_kmax << " bytes)";
        return os.str();
    }
    return "";
}

void
FabricTopologyHelper::ConfigureMmu(Ptr<SwitchMmu> mmu) const
{
    // XON hysteresis of two maximum frames (REFERENCE: about 3 KB or 2 MTU),
    // so that a queue does not resume as soon as one frame has left.
    mmu->SetAttribute("ResumeOffset", UintegerValue(2 * (m_mtu + L2_HEADER_BYTES)));
    for (const auto& [name, value] : m_mmuAttributes)
    {
        mmu->SetAttribute(name, *value);
    }
    mmu->SetBufferSize(m_bufferSize);
    mmu->SetLossless(m_pfc);
    mmu->SetLosslessPriorities(m_losslessPriorities);
}

void
FabricTopologyHelper::ConfigureMmuPort(Ptr<SwitchMmu> mmu, uint32_t port, DataRate rate) const
{
    ConfigureMmuPort(mmu, port, rate, m_delay);
}

void
FabricTopologyHelper::ConfigureMmuPort(Ptr<SwitchMmu> mmu,
                                       uint32_t port,
                                       DataRate rate,
                                       Time delay) const
{
    mmu->SetHeadroom(port, GetHeadroom(rate, delay));
    const auto byRate = m_ecnRate.find(rate.GetBitRate());
    if (byRate != m_ecnRate.end())
    {
        const EcnClass& e = byRate->second;
        mmu->SetEcnThresholds(port, e.kmin, e.kmax, e.pmax);
    }
    else
    {
        mmu->SetEcnThresholds(port, m_kmin, m_kmax, m_pmax);
    }
    for (uint8_t prio = 0; prio < TrafficClass::N_CLASSES; ++prio)
    {
        const EcnClass& e = m_ecnClass[prio];
        if (e.set)
        {
            mmu->SetEcnThresholds(port, prio, e.kmin, e.kmax, e.pmax);
        }
    }
}

std::string
FabricTopologyHelper::CheckBuffers(const Spec& spec) const
{
    // Switches with the same numbers of host and fabric ports have the same budget.
    std::vector<uint32_t> hostPorts(spec.switches.size(), 0);
    std::vector<uint32_t> fabricPorts(spec.switches.size(), 0);
    for (uint32_t s : spec.hostSwitch)
    {
        ++hostPorts[s];
    }
    for (const auto& [a, b] : spec.fabricCables)
    {
        ++fabricPorts[a];
        ++fabricPorts[b];
    }
    std::map<std::pair<uint32_t, uint32_t>, bool> checked;
    for (uint32_t s = 0; s < spec.switches.size(); ++s)
    {
        const auto shape = std::make_pair(hostPorts[s], fabricPorts[s]);
        if (checked.count(shape))
        {
            continue;
        }
        checked[shape] = true;
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        for (const auto& [name, value] : m_mmuAttributes)
        {
            if (!mmu->SetAttributeFailSafe(name, *value))
            {
                return "switch buffer: invalid value for SwitchMmu attribute \"" + name + "\"";
            }
        }
        ConfigureMmu(mmu);
        for (uint32_t p = 0; p < hostPorts[s] + fabricPorts[s]; ++p)
        {
            const uint32_t port = mmu->AddPort();
            ConfigureMmuPort(mmu, port, p < hostPorts[s] ? m_hostRate : m_fabricRate);
        }
        const std::string error = mmu->CheckConfiguration();
        mmu->Dispose();
        if (!error.empty())
        {
            std::ostringstream os;
            os << "switch buffer size: switch " << spec.switches[s].first << " (" << hostPorts[s]
               << " host ports at " << m_hostRate.GetBitRate() / 1e9 << " Gb/s, " << fabricPorts[s]
               << " fabric ports at " << m_fabricRate.GetBitRate() / 1e9 << " Gb/s, link delay "
               << m_delay.GetNanoSeconds() / 1e3 << " us): " << error;
            return os.str();
        }
    }
    return "";
}

std::string
FabricTopologyHelper::CheckLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf) const
{
    std::ostringstream os;
    if (leaves == 0)
    {
        return "leaf-spine: leaves must be at least 1";
    }
    if (hostsPerLeaf == 0)
    {
        return "leaf-spine: hosts per leaf must be at least 1";
    }
    if (spines == 0 && leaves > 1)
    {
        os << "leaf-spine: spines must be at least 1 with " << leaves
           << " leaves (0 spines is allowed only with a single leaf)";
        return os.str();
    }
    const uint64_t hosts = static_cast<uint64_t>(leaves) * hostsPerLeaf;
    if (hosts > MAX_HOSTS)
    {
        os << "leaf-spine: " << hosts << " hosts (leaves x hosts per leaf) exceed the " << MAX_HOSTS
           << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    const std::string error = CheckCommon();
    return error.empty() ? CheckBuffers(MakeLeafSpine(leaves, spines, hostsPerLeaf)) : error;
}

std::string
FabricTopologyHelper::CheckFatTree(uint32_t k) const
{
    std::ostringstream os;
    if (k < 2 || k % 2 != 0)
    {
        os << "fat-tree: k must be an even number of at least 2 (got " << k << ")";
        return os.str();
    }
    const uint64_t hosts = static_cast<uint64_t>(k) * k * k / 4;
    if (hosts > MAX_HOSTS)
    {
        os << "fat-tree: k = " << k << " gives " << hosts << " hosts (k^3/4), more than the "
           << MAX_HOSTS << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    const std::string error = CheckCommon();
    return error.empty() ? CheckBuffers(MakeFatTree(k)) : error;
}

std::string
FabricTopologyHelper::CheckDumbbell(uint32_t hostsPerSide) const
{
    std::ostringstream os;
    if (hostsPerSide == 0)
    {
        return "dumbbell: hosts per side must be at least 1";
    }
    const uint64_t hosts = 2ULL * hostsPerSide;
    if (hosts > MAX_HOSTS)
    {
        os << "dumbbell: " << hosts << " hosts exceed the " << MAX_HOSTS
           << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    const std::string error = CheckCommon();
    return error.empty() ? CheckBuffers(MakeDumbbell(hostsPerSide)) : error;
}

std::string
FabricTopologyHelper::CheckRing(uint32_t switches, uint32_t hostsPerSwitch) const
{
    std::ostringstream os;
    if (switches < 3)
    {
        os << "ring: switches must be at least 3 (got " << switches << ")";
        return os.str();
    }
    if (hostsPerSwitch == 0)
    {
        return "ring: hosts per switch must be at least 1";
    }
    const uint64_t hosts = static_cast<uint64_t>(switches) * hostsPerSwitch;
    if (hosts > MAX_HOSTS)
    {
        os << "ring: " << hosts << " hosts (switches x hosts per switch) exceed the " << MAX_HOSTS
           << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    const std::string error = CheckCommon();
    return error.empty() ? CheckBuffers(MakeRing(switches, hostsPerSwitch)) : error;
}

std::string
FabricTopologyHelper::CheckRailOptimized(uint32_t railGroups,
                                         uint32_t serversPerRailGroup,
                                         uint32_t rails,
                                         uint32_t spines) const
{
    std::ostringstream os;
    if (railGroups == 0)
    {
        return "rail-optimized: rail groups must be at least 1";
    }
    if (serversPerRailGroup == 0)
    {
        return "rail-optimized: servers per rail group must be at least 1";
    }
    if (rails == 0)
    {
        return "rail-optimized: rails (NICs per server) must be at least 1";
    }
    const uint64_t leaves = static_cast<uint64_t>(railGroups) * rails;
    if (spines == 0 && leaves > 1)
    {
        os << "rail-optimized: spines must be at least 1 with " << leaves
           << " leaves (rail groups x rails; 0 spines is allowed only with a single leaf)";
        return os.str();
    }
    const uint64_t hosts = leaves * serversPerRailGroup;
    if (hosts > MAX_HOSTS || leaves > std::numeric_limits<uint32_t>::max() - spines)
    {
        os << "rail-optimized: " << hosts
           << " hosts (rail groups x servers per rail group x rails) exceed the " << MAX_HOSTS
           << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    const std::string error = CheckCommon();
    return error.empty()
               ? CheckBuffers(MakeRailOptimized(railGroups, serversPerRailGroup, rails, spines))
               : error;
}

FabricTopology
FabricTopologyHelper::BuildLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    const std::string error = CheckLeafSpine(leaves, spines, hostsPerLeaf);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeLeafSpine(leaves, spines, hostsPerLeaf));
}

FabricTopology
FabricTopologyHelper::BuildFatTree(uint32_t k)
{
    const std::string error = CheckFatTree(k);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeFatTree(k));
}

FabricTopology
FabricTopologyHelper::BuildDumbbell(uint32_t hostsPerSide)
{
    const std::string error = CheckDumbbell(hostsPerSide);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeDumbbell(hostsPerSide));
}

FabricTopology
FabricTopologyHelper::BuildRing(uint32_t switches, uint32_t hostsPerSwitch)
{
    const std::string error = CheckRing(switches, hostsPerSwitch);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeRing(switches, hostsPerSwitch));
}

FabricTopology
FabricTopologyHelper::BuildRailOptimized(uint32_t railGroups,
                                         uint32_t serversPerRailGroup,
                                         uint32_t rails,
                                         uint32_t spines)
{
    const std::string error = CheckRailOptimized(railGroups, serversPerRailGroup, rails, spines);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeRailOptimized(railGroups, serversPerRailGroup, rails, spines));
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeLeafSpine(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf)
{
    Spec spec;
    spec.kind = "leaf-spine";
    spec.nHosts = leaves * hostsPerLeaf;
    for (uint32_t l = 0; l < leaves; ++l)
    {
        spec.switches.emplace_back("leaf" + std::to_string(l), 0);
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        spec.switches.emplace_back("spine" + std::to_string(s), 1);
    }
    spec.nGroups = leaves;
    spec.groupName = GetSplitUnit(spec.kind);
    for (uint32_t l = 0; l < leaves; ++l)
    {
        spec.switchGroup.push_back(l);
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        spec.switchGroup.push_back(s * leaves / spines);
    }
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        spec.hostSwitch.push_back(h / hostsPerLeaf);
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            spec.fabricCables.emplace_back(l, leaves + s);
        }
    }
    return spec;
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeFatTree(uint32_t k)
{
    const uint32_t half = k / 2;
    Spec spec;
    spec.kind = "fat-tree";
    spec.nHosts = k * k * k / 4;
    // Edge switches (pod-major), then aggregation, then core.
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            spec.switches.emplace_back("pod" + std::to_string(p) + "-edge" + std::to_string(e), 0);
        }
    }
    const uint32_t aggBase = spec.switches.size();
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t a = 0; a < half; ++a)
        {
            spec.switches.emplace_back("pod" + std::to_string(p) + "-agg" + std::to_string(a), 1);
        }
    }
    const uint32_t coreBase = spec.switches.size();
    for (uint32_t c = 0; c < half * half; ++c)
    {
        spec.switches.emplace_back("core" + std::to_string(c), 2);
    }
    spec.nGroups = k;
    spec.groupName = GetSplitUnit(spec.kind);
    for (uint32_t i = 0; i < 2 * k * half; ++i)
    {
        spec.switchGroup.push_back((i % (k * half)) / half); // edge and aggregation: the pod
    }
    for (uint32_t c = 0; c < half * half; ++c)
    {
        spec.switchGroup.push_back(c * k / (half * half));
    }
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        spec.hostSwitch.push_back(h / half);
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t e = 0; e < half; ++e)
        {
            for (uint32_t a = 0; a < half; ++a)
            {
                spec.fabricCables.emplace_back(p * half + e, aggBase + p * half + a);
            }
        }
    }
    // Aggregation switch a of every pod joins core switches a*k/2 .. a*k/2 + k/2 - 1.
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t a = 0; a < half; ++a)
        {
            for (uint32_t c = 0; c < half; ++c)
            {
                spec.fabricCables.emplace_back(aggBase + p * half + a, coreBase + a * half + c);
            }
        }
    }
    return spec;
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeDumbbell(uint32_t hostsPerSide)
{
    Spec spec;
    spec.kind = "dumbbell";
    spec.nHosts = 2 * hostsPerSide;
    spec.switches = {{"left", 0}, {"right", 0}};
    spec.switchGroup = {0, 1};
    spec.nGroups = 2;
    spec.groupName = GetSplitUnit(spec.kind);
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        spec.hostSwitch.push_back(h < hostsPerSide ? 0 : 1);
    }
    spec.fabricCables.emplace_back(0, 1);
    return spec;
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeRing(uint32_t switches, uint32_t hostsPerSwitch)
{
    Spec spec;
    spec.kind = "ring";
    spec.nHosts = switches * hostsPerSwitch;
    for (uint32_t s = 0; s < switches; ++s)
    {
        spec.switches.emplace_back("ring" + std::to_string(s), 0);
        spec.switchGroup.push_back(s);
    }
    spec.nGroups = switches;
    spec.groupName = GetSplitUnit(spec.kind);
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        spec.hostSwitch.push_back(h / hostsPerSwitch);
    }
    for (uint32_t s = 0; s < switches; ++s)
    {
        spec.fabricCables.emplace_back(s, (s + 1) % switches);
    }
    return spec;
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeRailOptimized(uint32_t railGroups,
                                        uint32_t serversPerRailGroup,
                                        uint32_t rails,
                                        uint32_t spines)
{
    Spec spec;
    spec.kind = "rail-optimized";
    const uint32_t leaves = railGroups * rails;
    spec.nHosts = leaves * serversPerRailGroup;
    for (uint32_t r = 0; r < railGroups; ++r)
    {
        for (uint32_t i = 0; i < rails; ++i)
        {
            spec.switches.emplace_back("rg" + std::to_string(r) + "-rail" + std::to_string(i), 0);
            spec.switchGroup.push_back(r);
        }
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        spec.switches.emplace_back("spine" + std::to_string(s), 1);
        spec.switchGroup.push_back(s * railGroups / spines);
    }
    // A rail group (its leaves and servers) is a group: a server's NICs,
    // and so its GPUs, stay in one process.
    spec.nGroups = railGroups;
    spec.groupName = GetSplitUnit(spec.kind);
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        const uint32_t server = h / rails;
        spec.hostSwitch.push_back(server / serversPerRailGroup * rails + h % rails);
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            spec.fabricCables.emplace_back(l, leaves + s);
        }
    }
    return spec;
}

std::string
FabricTopologyHelper::CheckGraph(uint32_t nodes,
                                 const std::vector<uint32_t>& switchIds,
                                 const std::vector<Cable>& cables) const
{
    std::ostringstream os;
    std::vector<bool> isSwitch(nodes, false);
    for (uint32_t id : switchIds)
    {
        if (id >= nodes)
        {
            os << "links: switch " << id << " is not a node (ids 0.." << nodes - 1 << ")";
            return os.str();
        }
        if (isSwitch[id])
        {
            os << "links: switch " << id << " listed twice";
            return os.str();
        }
        isSwitch[id] = true;
    }
    const uint64_t hosts = nodes - switchIds.size();
    if (hosts == 0)
    {
        return "links: no host (every node is a switch)";
    }
    if (hosts > MAX_HOSTS)
    {
        os << "links: " << hosts << " hosts exceed the " << MAX_HOSTS
           << " host addresses of 10.0.0.0/8";
        return os.str();
    }
    std::vector<uint32_t> hostCables(nodes, 0);
    std::map<std::pair<uint32_t, uint32_t>, std::size_t> seen;
    for (std::size_t c = 0; c < cables.size(); ++c)
    {
        const Cable& cable = cables[c];
        os << "links: cable " << c << " (" << cable.a << " - " << cable.b << "): ";
        if (cable.a >= nodes || cable.b >= nodes)
        {
            os << "node " << std::max(cable.a, cable.b) << " is not a node (ids 0.." << nodes - 1
               << ")";
            return os.str();
        }
        if (cable.a == cable.b)
        {
            os << "joins node " << cable.a << " to itself";
            return os.str();
        }
        if (!isSwitch[cable.a] && !isSwitch[cable.b])
        {
            os << "joins two hosts (a host's cable goes to a switch)";
            return os.str();
        }
        const auto key = std::minmax(cable.a, cable.b);
        if (!seen.emplace(key, c).second)
        {
            os << "a second cable between the same nodes (the first is cable " << seen[key] << ")";
            return os.str();
        }
        if (cable.rate.GetBitRate() == 0)
        {
            os << "rate must be positive";
            return os.str();
        }
        if (cable.delay.IsStrictlyNegative())
        {
            os << "delay must not be negative";
            return os.str();
        }
        for (uint32_t end : {cable.a, cable.b})
        {
            if (!isSwitch[end] && ++hostCables[end] > 1)
            {
                os << "host " << end << " has a second cable (a host has one)";
                return os.str();
            }
        }
        os.str("");
    }
    for (uint32_t id = 0; id < nodes; ++id)
    {
        if (!isSwitch[id] && hostCables[id] == 0)
        {
            os << "links: host " << id << " has no cable";
            return os.str();
        }
    }
    const std::string error = CheckCommon();
    return error.empty() ? CheckGraphBuffers(MakeGraph(nodes, switchIds, cables)) : error;
}

std::string
FabricTopologyHelper::CheckGraphBuffers(const Spec& spec) const
{
    // Per switch, its ports' (rate, delay) in the order Build() adds them;
    // switches with the same ports have the same budget.
    std::vector<std::vector<std::pair<uint64_t, int64_t>>> ports(spec.switches.size());
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        ports[spec.hostSwitch[h]].emplace_back(spec.hostCables[h].first.GetBitRate(),
                                               spec.hostCables[h].second.GetTimeStep());
    }
    for (std::size_t c = 0; c < spec.fabricCables.size(); ++c)
    {
        const auto& [rate, delay] = spec.fabricCableLinks[c];
        ports[spec.fabricCables[c].first].emplace_back(rate.GetBitRate(), delay.GetTimeStep());
        ports[spec.fabricCables[c].second].emplace_back(rate.GetBitRate(), delay.GetTimeStep());
    }
    std::map<std::vector<std::pair<uint64_t, int64_t>>, bool> checked;
    for (uint32_t s = 0; s < spec.switches.size(); ++s)
    {
        if (!checked.emplace(ports[s], true).second)
        {
            continue;
        }
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        for (const auto& [name, value] : m_mmuAttributes)
        {
            if (!mmu->SetAttributeFailSafe(name, *value))
            {
                return "switch buffer: invalid value for SwitchMmu attribute \"" + name + "\"";
            }
        }
        ConfigureMmu(mmu);
        for (const auto& [bps, delay] : ports[s])
        {
            ConfigureMmuPort(mmu, mmu->AddPort(), DataRate(bps), TimeStep(delay));
        }
        const std::string error = mmu->CheckConfiguration();
        mmu->Dispose();
        if (!error.empty())
        {
            return "switch buffer size: switch " + spec.switches[s].first + " (" +
                   std::to_string(ports[s].size()) + " ports): " + error;
        }
    }
    return "";
}

FabricTopology
FabricTopologyHelper::BuildGraph(uint32_t nodes,
                                 const std::vector<uint32_t>& switchIds,
                                 const std::vector<Cable>& cables)
{
    const std::string error = CheckGraph(nodes, switchIds, cables);
    if (!error.empty())
    {
        throw std::invalid_argument(error);
    }
    return Build(MakeGraph(nodes, switchIds, cables));
}

FabricTopologyHelper::Spec
FabricTopologyHelper::MakeGraph(uint32_t nodes,
                                const std::vector<uint32_t>& switchIds,
                                const std::vector<Cable>& cables)
{
    Spec spec;
    spec.kind = "links";
    spec.groupName = GetSplitUnit(spec.kind);
    // Switches in the order listed, hosts in id order.
    std::vector<int64_t> switchIndex(nodes, -1);
    for (uint32_t s = 0; s < switchIds.size(); ++s)
    {
        switchIndex[switchIds[s]] = s;
        spec.switches.emplace_back("sw" + std::to_string(switchIds[s]), 0);
    }
    std::vector<int64_t> hostIndex(nodes, -1);
    for (uint32_t id = 0; id < nodes; ++id)
    {
        if (switchIndex[id] < 0)
        {
            hostIndex[id] = spec.nHosts++;
        }
    }
    spec.hostSwitch.resize(spec.nHosts, 0);
    spec.hostCables.resize(spec.nHosts);
    for (const Cable& c : cables)
    {
        if (switchIndex[c.a] >= 0 && switchIndex[c.b] >= 0)
        {
            spec.fabricCables.emplace_back(switchIndex[c.a], switchIndex[c.b]);
            spec.fabricCableLinks.emplace_back(c.rate, c.delay);
            continue;
        }
        const uint32_t host = switchIndex[c.a] < 0 ? c.a : c.b;
        const uint32_t sw = switchIndex[c.a] < 0 ? c.b : c.a;
        spec.hostSwitch[hostIndex[host]] = switchIndex[sw];
        spec.hostCables[hostIndex[host]] = {c.rate, c.delay};
    }
    // Tiers: hops from the nearest switch with hosts.
    std::vector<std::vector<uint32_t>> adjacency(spec.switches.size());
    for (const auto& [a, b] : spec.fabricCables)
    {
        adjacency[a].push_back(b);
        adjacency[b].push_back(a);
    }
    constexpr uint32_t unseen = std::numeric_limits<uint32_t>::max();
    std::vector<uint32_t> tier(spec.switches.size(), unseen);
    std::deque<uint32_t> queue;
    for (uint32_t s : spec.hostSwitch)
    {
        if (tier[s] == unseen)
        {
            tier[s] = 0;
            queue.push_back(s);
        }
    }
    while (!queue.empty())
    {
        const uint32_t s = queue.front();
        queue.pop_front();
        for (uint32_t n : adjacency[s])
        {
            if (tier[n] == unseen)
            {
                tier[n] = tier[s] + 1;
                queue.push_back(n);
            }
        }
    }
    for (uint32_t s = 0; s < spec.switches.size(); ++s)
    {
        spec.switches[s].second = tier[s] == unseen ? 0 : tier[s];
    }
    return spec;
}

std::string
FabricTopologyHelper::GetSplitUnit(const std::string& kind)
{
    static const std::map<std::string, std::string> units = {{"fat-tree", "pods"},
                                                             {"leaf-spine", "leaves"},
                                                             {"dumbbell", "sides"},
                                                             {"ring", "switches"},
                                                             {"rail-optimized", "rail groups"},
                                                             {"links", "fabrics"}};
    const auto it = units.find(kind);
    return it == units.end() ? "groups" : it->second;
}

FabricTopology
FabricTopologyHelper::Build(const Spec& spec) const
{
    NS_LOG_FUNCTION(this << spec.kind);
    FabricTopology topo;
    topo.kind = spec.kind;
    // Nodes in the same order whatever the split: ids (and so random
    // streams and traces) do not depend on the number of processes.
    if (m_ranks > spec.nGroups)
    {
        throw std::invalid_argument(std::to_string(m_ranks) + " MPI processes, but a " + spec.kind +
                                    " topology splits by " + spec.groupName + " into at most " +
                                    std::to_string(spec.nGroups) +
                                    (spec.nGroups == 1 ? " part" : " parts") + ": run at most " +
                                    std::to_string(spec.nGroups));
    }
    auto rankOf = [&spec, this](uint32_t s) {
        return spec.switchGroup.empty() ? 0 : spec.switchGroup[s] * m_ranks / spec.nGroups;
    };
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        topo.hosts.Create(1, rankOf(spec.hostSwitch[h]));
    }
    for (uint32_t s = 0; s < spec.switches.size(); ++s)
    {
        topo.switchNodes.Create(1, rankOf(s));
    }

    for (uint32_t s = 0; s < spec.switches.size(); ++s)
    {
        Ptr<FabricSwitch> sw = CreateObject<FabricSwitch>();
        for (const auto& [name, value] : m_switchAttributes)
        {
            sw->SetAttribute(name, *value);
        }
        sw->SetEcmpSeed(SwitchSeed(s));
        // in-band telemetry for the congestion controls that ask for it
        sw->SetEgressHook(CreateObject<IntStamper>());
        if (m_queueDiscSet)
        {
            // Chosen by name: the port gets that queue disc even when it is
            // the PfcPrioQueueDisc that built-in bands would stand in for.
            sw->SetAttribute("QueueDiscFactory", ObjectFactoryValue(m_queueDiscFactory));
            sw->SetAttribute("NativeEgress", BooleanValue(false));
        }
        ConfigureMmu(sw->GetMmu());
        Ptr<Node> node = topo.switchNodes.Get(s);
        node->AggregateObject(sw);
        topo.switches.push_back({node, sw, spec.switches[s].first, spec.switches[s].second, {}});
        const uint32_t id = node->GetId();
        if (topo.switchOfNode.size() <= id)
        {
            topo.switchOfNode.resize(id + 1, -1);
        }
        topo.switchOfNode[id] = s;
    }

    PfcLinkHelper hostLinks;
    PfcLinkHelper fabricLinks;
    for (PfcLinkHelper* helper : {&hostLinks, &fabricLinks})
    {
        for (const auto& [name, value] : m_deviceAttributes)
        {
            helper->SetDeviceAttribute(name, *value);
        }
        helper->SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
        helper->SetDeviceAttribute("PfcEnabled", BooleanValue(m_pfc));
        helper->SetChannelAttribute("Delay", TimeValue(m_delay));
    }
    hostLinks.SetDeviceAttribute("DataRate", DataRateValue(m_hostRate));
    fabricLinks.SetDeviceAttribute("DataRate", DataRateValue(m_fabricRate));

    auto addLink =
        [&topo](const std::string& name, Ptr<PfcNetDevice> tx, Ptr<PfcNetDevice> rx) -> uint32_t {
        topo.links.push_back({name, tx, rx});
        return topo.links.size() - 1;
    };

    // Host links: each host's port is added to its switch in host order.
    for (uint32_t h = 0; h < spec.nHosts; ++h)
    {
        const uint32_t s = spec.hostSwitch[h];
        FabricTopology::Switch& sw = topo.switches[s];
        DataRate rate = m_hostRate;
        Time delay = m_delay;
        if (!spec.hostCables.empty())
        {
            std::tie(rate, delay) = spec.hostCables[h];
            hostLinks.SetDeviceAttribute("DataRate", DataRateValue(rate));
            hostLinks.SetChannelAttribute("Delay", TimeValue(delay));
        }
        NetDeviceContainer devs = hostLinks.Install(topo.hosts.Get(h), sw.node);
        Ptr<PfcNetDevice> hostDev = DynamicCast<PfcNetDevice>(devs.Get(0));
        Ptr<PfcNetDevice> swDev = DynamicCast<PfcNetDevice>(devs.Get(1));
        const uint32_t port = sw.sw->AddPort(swDev);
        ConfigureMmuPort(sw.sw->GetMmu(), port, rate, delay);
        const std::string hostName = "host" + std::to_string(h);
        topo.hostDevices.push_back(hostDev);
        topo.hostAddresses.push_back(GetHostAddress(h));
        topo.hostSwitch.push_back(s);
        topo.hostUplink.push_back(addLink(hostName + "->" + sw.name, hostDev, swDev));
        sw.portLink.push_back(addLink(sw.name + "->" + hostName, swDev, hostDev));
    }

    // Fabric links.
    for (std::size_t c = 0; c < spec.fabricCables.size(); ++c)
    {
        const auto [a, b] = spec.fabricCables[c];
        DataRate rate = m_fabricRate;
        Time delay = m_delay;
        if (!spec.fabricCableLinks.empty())
        {
            std::tie(rate, delay) = spec.fabricCableLinks[c];
            fabricLinks.SetDeviceAttribute("DataRate", DataRateValue(rate));
            fabricLinks.SetChannelAttribute("Delay", TimeValue(delay));
        }
        FabricTopology::Switch& swA = topo.switches[a];
        FabricTopology::Switch& swB = topo.switches[b];
        NetDeviceContainer devs = fabricLinks.Install(swA.node, swB.node);
        Ptr<PfcNetDevice> devA = DynamicCast<PfcNetDevice>(devs.Get(0));
        Ptr<PfcNetDevice> devB = DynamicCast<PfcNetDevice>(devs.Get(1));
        const uint32_t portA = swA.sw->AddPort(devA);
        const uint32_t portB = swB.sw->AddPort(devB);
        ConfigureMmuPort(swA.sw->GetMmu(), portA, rate, delay);
        ConfigureMmuPort(swB.sw->GetMmu(), portB, rate, delay);
        swA.portLink.push_back(addLink(swA.name + "->" + swB.name, devA, devB));
        swB.portLink.push_back(addLink(swB.name + "->" + swA.name, devB, devA));
    }

    // Routes: ECMP over shortest paths (every cable is up).
    topo.ComputeRoutes();

    // Configuration is checked beforehand; this only guards against a
    // difference between the checked shapes and the built switches.
    for (const FabricTopology::Switch& s : topo.switches)
    {
        const std::string error = s.sw->GetMmu()->CheckConfiguration();
        if (!error.empty())
        {
            throw std::invalid_argument("switch " + s.name + ": " + error);
        }
    }
    return topo;
}

} // namespace ns3
