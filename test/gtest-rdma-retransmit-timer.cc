/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The retransmission timer of an RDMA queue pair restarts on every
// acknowledged progress (it keeps a single pending event whose deadline
// moves): a lossless transfer much longer than the timeout never times out.
// A timer that were armed once and not restarted would fire during the
// transfer and make the queue pair go back and resend.

#include "ns3/mac48-address.h"
#include "ns3/node-container.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// Completed sends and receives of one queue pair.
struct Done
{
    uint64_t sent{0};     //!< bytes whose send completed
    uint64_t received{0}; //!< bytes received
};

/**
 * \brief Run one transfer between two hosts linked back to back.
 * \param bytes message size
 * \param rto retransmission timeout
 * \param[out] done completions
 * \return the sender's queue pair
 */
Ptr<RdmaQueuePair>
Transfer(uint64_t bytes, Time rto, Done& done)
{
    NodeContainer nodes(2);
    Ptr<PfcChannel> ch =
        CreateObjectWithAttributes<PfcChannel>("Delay", TimeValue(MicroSeconds(1)));
    Ptr<PfcNetDevice> devA = CreateObject<PfcNetDevice>();
    Ptr<PfcNetDevice> devB = CreateObject<PfcNetDevice>();
    devA->SetAddress(Mac48Address::Allocate());
    devB->SetAddress(Mac48Address::Allocate());
    nodes.Get(0)->AddDevice(devA);
    nodes.Get(1)->AddDevice(devB);
    devA->Attach(ch);
    devB->Attach(ch);
    RdmaHelper helper;
    helper.SetCongestionControl("none");
    helper.SetNicAttribute("RetransmitTimeout", TimeValue(rto));
    Ptr<RdmaNic> nicA = helper.Install(nodes.Get(0), devA, Ipv4Address("10.0.0.1"));
    Ptr<RdmaNic> nicB = helper.Install(nodes.Get(1), devB, Ipv4Address("10.0.0.2"));
    auto [tx, rx] = RdmaHelper::Connect(nicA, nicB, 3, 10000);
    tx->SetSendCompletionCallback(MakeBoundCallback(
        +[](Done* d, Ptr<RdmaQueuePair>, uint64_t, uint64_t b) { d->sent += b; },
        &done));
    rx->SetReceiveCompletionCallback(MakeBoundCallback(
        +[](Done* d, Ptr<RdmaQueuePair>, uint64_t, uint64_t b) { d->received += b; },
        &done));
    tx->PostSend(bytes);
    Simulator::Run();
    return tx;
}

} // namespace

TEST(RdmaRetransmitTimerTest, ProgressRestartsTheTimer)
{
    // 8 MB at 100 Gb/s take about 650 us, 65 timeouts of 10 us; ACKs come
    // every 4 packets (about 1.4 us).
    Done done;
    const uint64_t bytes = 8000000;
    Ptr<RdmaQueuePair> tx = Transfer(bytes, MicroSeconds(10), done);
    EXPECT_EQ(done.received, bytes);
    EXPECT_EQ(done.sent, bytes);
    EXPECT_EQ(tx->GetTimeouts(), 0u) << "the timer fired although every ACK made progress";
    EXPECT_EQ(tx->GetRetransmittedPackets(), 0u);
    EXPECT_GT(Simulator::Now(), MicroSeconds(600)) << "the transfer outlasts many timeouts";
    Simulator::Destroy();
}
