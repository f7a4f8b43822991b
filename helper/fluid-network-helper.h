/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUID_NETWORK_HELPER_H
#define FLUID_NETWORK_HELPER_H

#include "fabric-topology.h"

#include "ns3/attribute.h"
#include "ns3/fluid-network.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-helper
 * \brief Runs a fabric at flow level: a FluidNetwork that carries the
 * messages of the hosts' NICs on the fabric's own links and ECMP paths.
 *
 * \code
 *   FabricTopology topo = FabricTopologyHelper().BuildLeafSpine(2, 2, 4);
 *   std::vector<Ptr<RdmaNic>> nics = ...; // RdmaHelper::Install, host order
 *   Ptr<FluidNetwork> fluid = FluidNetworkHelper().Install(topo, nics);
 *   // jobs and tenants as at packet level; no packet is sent
 * \endcode
 *
 * The FluidNetwork gets every link direction of the topology (its device's
 * rate, its channel's delay), the NICs as hosts in topology order, the
 * path function of FabricTopology::GetPath (the switches' ECMP choice), and
 * follows the fabric's faults: a cable going down or up (PfcChannel
 * SetLinkUp) changes what its directions carry at once, and a switch acting
 * on it (FabricSwitch trace LinkState) or a route recomputation
 * (FabricTopology::ComputeRoutes, then FluidNetwork::RefreshPaths) moves
 * the paths. The FluidNetwork must be disposed before the topology.
 */
class FluidNetworkHelper
{
  public:
    FluidNetworkHelper();

    /**
     * \brief Set an attribute of the FluidNetwork this helper creates.
     * \param name attribute name
     * \param value attribute value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Carry the NICs' messages at flow level.
     * \param topo the fabric (copied into the path function)
     * \param nics the NIC of each host, in topology order
     * \return the FluidNetwork
     */
    Ptr<FluidNetwork> Install(const FabricTopology& topo,
                              const std::vector<Ptr<RdmaNic>>& nics) const;

  private:
    /**
     * \brief A cable changed state: its directions follow.
     * \param fluid the flow-level fabric
     * \param channel the cable
     * \param directions its two directions' link indices, one in the high
     *        and one in the low 32 bits
     */
    static void CableChanged(FluidNetwork* fluid, PfcChannel* channel, uint64_t directions);

    /**
     * \brief A switch acted on a port's state: the paths may change.
     * \param fluid the flow-level fabric
     * \param port the port
     * \param up its state
     */
    static void SwitchActed(FluidNetwork* fluid, uint32_t port, bool up);

    ObjectFactory m_factory; //!< makes the FluidNetwork
};

} // namespace ns3

#endif /* FLUID_NETWORK_HELPER_H */
