/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_FABRIC_H
#define RDMA_FABRIC_H

// Test-only fixture: a built fabric with a RoCEv2 NIC on every host.

#include "ns3/fabric-topology.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <vector>

namespace ns3
{
namespace fluxtest
{

/// A fabric with a RoCEv2 NIC on every host.
struct RdmaFabric
{
    FabricTopology topo;            //!< the network
    std::vector<Ptr<RdmaNic>> nics; //!< NIC per host

    /**
     * \param topology the network
     * \param rdma NIC settings
     */
    RdmaFabric(FabricTopology topology, const RdmaHelper& rdma)
        : topo(std::move(topology)),
          nics(rdma.Install(topo))
    {
        topo.AssignStreams(100);
    }

    /** \return payload bytes received by all NICs */
    uint64_t BytesReceived() const
    {
        uint64_t n = 0;
        for (const auto& nic : nics)
        {
            n += nic->GetBytesReceived();
        }
        return n;
    }

    /** \return packets retransmitted by all NICs */
    uint64_t Retransmissions() const
    {
        uint64_t n = 0;
        for (const auto& nic : nics)
        {
            n += nic->GetRetransmittedPackets();
        }
        return n;
    }
};

} // namespace fluxtest
} // namespace ns3

#endif /* RDMA_FABRIC_H */
