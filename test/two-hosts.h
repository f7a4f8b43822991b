/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TWO_HOSTS_H
#define TWO_HOSTS_H

// Test-only fixture of the RDMA suites: two hosts with RoCEv2 NICs joined
// by one PFC link.

#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/node-container.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/string.h"

#include <string>

namespace ns3
{
namespace fluxtest
{

/// Two hosts joined by one link, each with a RoCEv2 NIC.
struct TwoHosts
{
    Ptr<PfcNetDevice> devA; //!< host A's port
    Ptr<PfcNetDevice> devB; //!< host B's port
    Ptr<RdmaNic> nicA;      //!< host A's NIC
    Ptr<RdmaNic> nicB;      //!< host B's NIC

    /**
     * \param rate line rate
     * \param delay propagation delay
     * \param helper NIC settings
     */
    TwoHosts(const std::string& rate, Time delay, const RdmaHelper& helper)
    {
        NodeContainer nodes(2);
        Ptr<PfcChannel> ch = CreateObjectWithAttributes<PfcChannel>("Delay", TimeValue(delay));
        devA = CreateObjectWithAttributes<PfcNetDevice>("DataRate", StringValue(rate));
        devB = CreateObjectWithAttributes<PfcNetDevice>("DataRate", StringValue(rate));
        devA->SetAddress(Mac48Address::Allocate());
        devB->SetAddress(Mac48Address::Allocate());
        nodes.Get(0)->AddDevice(devA);
        nodes.Get(1)->AddDevice(devB);
        devA->Attach(ch);
        devB->Attach(ch);
        nicA = helper.Install(nodes.Get(0), devA, Ipv4Address("10.0.0.1"));
        nicB = helper.Install(nodes.Get(1), devB, Ipv4Address("10.0.0.2"));
    }
};

} // namespace fluxtest
} // namespace ns3

#endif /* TWO_HOSTS_H */
