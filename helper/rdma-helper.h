/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "fabric-topology.h"

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"

#include <string>
#include <vector>

namespace ns3
{

class Node;
class PfcNetDevice;

/**
 * \ingroup flux-helper
 * \brief Installs RoCEv2 NICs (RdmaNic) on hosts and connects queue pairs.
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /**
     * \brief Set an attribute of the NICs this helper creates.
     * \param name attribute name
     * \param value attribute value
     */
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Choose the congestion control of the queue pairs.
     * \param name a registered algorithm's name (RdmaCongestionControl::GetAlgorithms(),
     *        flux-run --list-cc); anything else is an ns-3 TypeId name, which
     *        must name an RdmaCongestionControl (else a fatal error)
     */
    void SetCongestionControl(const std::string& name);

    /**
     * \brief Put a NIC on a host's port and aggregate it to the host.
     * \param host the host node
     * \param device the host's port (one of its devices, else a fatal error)
     * \param address the host's IPv4 address
     * \return the NIC
     */
    Ptr<RdmaNic> Install(Ptr<Node> host, Ptr<PfcNetDevice> device, Ipv4Address address) const;

    /**
     * \brief Put a NIC on every host of a fabric, on its port and address.
     * \param topo the fabric
     * \return the NICs, in host order
     */
    std::vector<Ptr<RdmaNic>> Install(const FabricTopology& topo) const;

    /**
     * \brief Create a connected pair of queue pairs between two NICs
     * (RdmaNic::Connect).
     * \param src the sending side's NIC
     * \param dst the receiving side's NIC
     * \param prio traffic class
     * \param srcPort UDP source port of src's packets (ECMP entropy)
     * \return the queue pair at src (first) and the one at dst (second)
     */
    static std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> Connect(Ptr<RdmaNic> src,
                                                                     Ptr<RdmaNic> dst,
                                                                     uint8_t prio,
                                                                     uint16_t srcPort);

  private:
    ObjectFactory m_nicFactory; //!< NIC factory
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
