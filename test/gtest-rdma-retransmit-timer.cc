/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The retransmission timer of an RDMA queue pair restarts on every
// acknowledged progress (it keeps a single pending event whose deadline
// moves): a lossless transfer much longer than the timeout never times out.
// A timer that were armed once and not restarted would fire during the
// transfer and make the queue pair go back and resend.

#include "two-hosts.h"

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
    RdmaHelper helper;
    helper.SetCongestionControl("none");
    helper.SetNicAttribute("RetransmitTimeout", TimeValue(rto));
    fluxtest::TwoHosts hosts("100Gbps", MicroSeconds(1), helper);
    auto [tx, rx] = RdmaHelper::Connect(hosts.nicA, hosts.nicB, 3, 10000);
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
