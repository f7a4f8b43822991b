/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/string.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

RdmaHelper::RdmaHelper()
{
    NS_LOG_FUNCTION(this);
    m_nicFactory.SetTypeId("ns3::RdmaNic");
}

void
RdmaHelper::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
}

void
RdmaHelper::SetCongestionControl(const std::string& name)
{
    const std::string known = RdmaCongestionControl::GetAlgorithmTypeName(name);
    const std::string type = known.empty() ? name : known;
    // (Debian's optimised ns-3 does not check a TypeId name: a misspelt one
    // would fail later, inside ObjectFactory::Create)
    TypeId tid;
    const TypeId base = RdmaCongestionControl::GetTypeId();
    // (a factory string may follow the name with its attributes: "T[A=v]")
    if (!TypeId::LookupByNameFailSafe(type.substr(0, type.find('[')), &tid) ||
        (tid != base && !tid.IsChildOf(base)))
    {
        std::string names;
        for (const auto& algorithm : RdmaCongestionControl::GetAlgorithms())
        {
            names += (names.empty() ? "" : ", ") + algorithm.first;
        }
        NS_FATAL_ERROR("RdmaHelper::SetCongestionControl: \""
                       << name << "\" is neither a congestion control (" << names
                       << ") nor the TypeId name of an RdmaCongestionControl");
    }
    m_nicFactory.Set("CongestionControl", StringValue(type));
}

Ptr<RdmaNic>
RdmaHelper::Install(Ptr<Node> host, Ptr<PfcNetDevice> device, Ipv4Address address) const
{
    NS_ABORT_MSG_UNLESS(host && device && device->GetNode() == host,
                        "RdmaHelper::Install: the device is not one of the host's");
    Ptr<RdmaNic> nic = m_nicFactory.Create<RdmaNic>();
    host->AggregateObject(nic);
    nic->Setup(device, address);
    return nic;
}

std::vector<Ptr<RdmaNic>>
RdmaHelper::Install(const FabricTopology& topo) const
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    return nics;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaHelper::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, uint8_t prio, uint16_t srcPort)
{
    return RdmaNic::Connect(src, dst, prio, srcPort);
}

} // namespace ns3
