/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fluid-network-helper.h"

#include "ns3/pfc-channel.h"

#include <map>

namespace ns3
{

FluidNetworkHelper::FluidNetworkHelper()
{
    m_factory.SetTypeId(FluidNetwork::GetTypeId());
}

void
FluidNetworkHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<FluidNetwork>
FluidNetworkHelper::Install(const FabricTopology& topo, const std::vector<Ptr<RdmaNic>>& nics) const
{
    Ptr<FluidNetwork> fluid = m_factory.Create<FluidNetwork>();
    for (const auto& link : topo.links)
    {
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(link.tx->GetChannel());
        fluid->AddLink(link.tx->GetDataRate(), ch->GetDelay());
    }
    for (const auto& nic : nics)
    {
        fluid->AddHost(nic);
    }
    fluid->SetPathFunction(
        [topo](uint32_t src, uint32_t dst, uint16_t port) { return topo.GetPath(src, dst, port); });
    // A cable's state reaches the fluid at once (what crosses a dead link
    // is lost until the switches route around it). Each cable's two
    // directions, from their sending devices.
    std::map<const PfcChannel*, uint32_t> firstDirection;
    for (uint32_t l = 0; l < topo.links.size(); ++l)
    {
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(topo.links[l].tx->GetChannel());
        auto it = firstDirection.find(PeekPointer(ch));
        if (it == firstDirection.end())
        {
            firstDirection.emplace(PeekPointer(ch), l);
            continue;
        }
        // (ns-3 up to 3.35 binds at most three arguments)
        const uint64_t directions = (static_cast<uint64_t>(it->second) << 32) | l;
        topo.links[l].tx->AddLinkChangeCallback(MakeBoundCallback(&FluidNetworkHelper::CableChanged,
                                                                  PeekPointer(fluid),
                                                                  PeekPointer(ch),
                                                                  directions));
    }
    for (const auto& s : topo.switches)
    {
        s.sw->TraceConnectWithoutContext(
            "LinkState",
            MakeBoundCallback(&FluidNetworkHelper::SwitchActed, PeekPointer(fluid)));
    }
    return fluid;
}

void
FluidNetworkHelper::CableChanged(FluidNetwork* fluid, PfcChannel* channel, uint64_t directions)
{
    const bool up = channel->IsLinkUp();
    fluid->SetLinkUp(static_cast<uint32_t>(directions >> 32), up);
    fluid->SetLinkUp(static_cast<uint32_t>(directions), up);
}

void
FluidNetworkHelper::SwitchActed(FluidNetwork* fluid, uint32_t /* port */, bool /* up */)
{
    fluid->RefreshPaths();
}

} // namespace ns3
