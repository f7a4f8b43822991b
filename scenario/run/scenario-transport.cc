/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The transport settings that depend on the built topology: the base RTT
 * of the congestion controls that take one, and DCQCN's window in BDPs.
 */

#include "scenario-run.h"

#include "ns3/int-header.h"
#include "ns3/pfc-channel.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/string.h"
#include "ns3/traffic-class.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{
namespace scenario
{
namespace
{

/**
 * \brief The base RTT HPCC needs: the largest over the paths from host 0
 * (every path length of the symmetric topologies) of the propagation delays
 * both ways plus one data frame's and one ACK's serialization per hop, as
 * the HPCC authors' simulator takes the largest base RTT of its topology.
 * \param topo the topology
 * \param mtu RDMA payload bytes per packet
 * \param intBytes INT bytes per data packet and ACK
 * \return the base RTT
 */
Time
MaxBaseRtt(const FabricTopology& topo, uint32_t mtu, uint32_t intBytes)
{
    // the largest data frame (an RDMA WRITE's first, with its RETH)
    const uint32_t dataFrame = WireBytes::DataFrame(mtu, true) + intBytes;
    const uint32_t ackFrame = WireBytes::ACK_FRAME + intBytes;
    Time worst;
    for (uint32_t dst = 1; dst < topo.GetNHosts(); ++dst)
    {
        Time rtt;
        for (uint32_t l : topo.GetPath(0, dst, 49152))
        {
            const auto& link = topo.links[l];
            rtt += 2 * DynamicCast<PfcChannel>(link.tx->GetChannel())->GetDelay();
            rtt += link.tx->GetFrameTxTime(dataFrame) + link.tx->GetFrameTxTime(ackFrame);
        }
        worst = std::max(worst, rtt);
    }
    return worst;
}

} // namespace

void
ScenarioRun::ConfigureTransport()
{
    if (m_nics.empty() || m_cfg.ns3Defaults.count("ns3::RdmaNic::CongestionControl"))
    {
        return; // (the scenario's factory sets what it sets)
    }
    // DCQCN with a window: whole BDPs of the topology, as the HPCC
    // simulator's DCQCN+w.
    const auto& dcqcn = m_cfg.transport.dcqcn;
    if (m_cfg.transport.cc == "dcqcn" && dcqcn.windowBdp > 0)
    {
        const Time rtt = MaxBaseRtt(m_topo, m_cfg.transport.mtuBytes, 0);
        const auto bytes = static_cast<uint64_t>(
            std::ceil(dcqcn.windowBdp * m_cfg.topology.hostGbps * 1e9 / 8 * rtt.GetSeconds()));
        const std::string cc = "ns3::DcqcnCongestionControl[Window=" + std::to_string(bytes) +
                               "|VariableWindow=" + (dcqcn.variableWindow ? "true" : "false") + "]";
        for (const auto& nic : m_nics)
        {
            nic->SetAttribute("CongestionControl", StringValue(cc));
        }
        return;
    }
    // Congestion controls with a BaseRtt attribute (hpcc, dctcp) get the
    // topology's largest base RTT unless the scenario sets it.
    const std::string type = RdmaCongestionControl::GetAlgorithmTypeName(m_cfg.transport.cc);
    if (type.empty())
    {
        return;
    }
    // the TypeId that declares BaseRtt: the algorithm's or a parent's
    std::string owner;
    for (TypeId t = TypeId::LookupByName(type); owner.empty(); t = t.GetParent())
    {
        for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
        {
            if (t.GetAttribute(i).name == "BaseRtt")
            {
                owner = t.GetName();
            }
        }
        if (t.GetParent() == t)
        {
            break;
        }
    }
    if (owner.empty())
    {
        return;
    }
    const std::string attribute = owner + "::BaseRtt";
    if (m_cfg.ns3Defaults.count(attribute))
    {
        return; // set by the scenario
    }
    for (const auto& s : m_cfg.transport.ccSettings)
    {
        if (s.attribute == attribute)
        {
            return;
        }
    }
    uint32_t intBytes = 0;
    {
        ObjectFactory factory;
        factory.SetTypeId(type);
        Ptr<RdmaCongestionControl> probe = factory.Create<RdmaCongestionControl>();
        if (probe->UsesInt())
        {
            UintegerValue hops;
            m_nics[0]->GetAttribute("IntMaxHops", hops);
            intBytes = IntHeader::SizeFor(static_cast<uint8_t>(hops.Get()));
        }
        probe->Dispose();
    }
    const Time rtt = MaxBaseRtt(m_topo, m_cfg.transport.mtuBytes, intBytes);
    const std::string cc = type + "[BaseRtt=" + std::to_string(rtt.GetNanoSeconds()) + "ns]";
    for (const auto& nic : m_nics)
    {
        nic->SetAttribute("CongestionControl", StringValue(cc));
    }
}

} // namespace scenario
} // namespace ns3
