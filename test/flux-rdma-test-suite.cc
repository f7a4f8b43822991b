/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 transport between two hosts on one link: byte conservation,
 * timing against line rate, go-back-N under loss, and DCQCN's reaction.
 */

#include "two-hosts.h"

#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/error-model.h"
#include "ns3/network-module.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/// Records completions of one direction.
struct Completions
{
    uint64_t sentMsgs = 0;    //!< sender completions
    uint64_t sentBytes = 0;   //!< bytes of sender completions
    uint64_t recvMsgs = 0;    //!< receiver completions
    uint64_t recvBytes = 0;   //!< bytes of receiver completions
    Time lastRecv;            //!< time of the last receiver completion
    uint64_t nextSendSeq = 0; //!< expected next sender sequence number
    uint64_t nextRecvSeq = 0; //!< expected next receiver sequence number
    bool inOrder = true;      //!< completions came in posting order

    void Sent(Ptr<RdmaQueuePair>, uint64_t seq, uint64_t bytes)
    {
        inOrder = inOrder && seq == nextSendSeq++;
        ++sentMsgs;
        sentBytes += bytes;
    }

    void Received(Ptr<RdmaQueuePair>, uint64_t seq, uint64_t bytes)
    {
        inOrder = inOrder && seq == nextRecvSeq++;
        ++recvMsgs;
        recvBytes += bytes;
        lastRecv = Simulator::Now();
    }

    void Attach(Ptr<RdmaQueuePair> tx, Ptr<RdmaQueuePair> rx)
    {
        tx->SetSendCompletionCallback(MakeCallback(&Completions::Sent, this));
        rx->SetReceiveCompletionCallback(MakeCallback(&Completions::Received, this));
    }
};

/**
 * A single 10 MB message between two hosts arrives whole, and its transfer
 * time is within 1 % of size / (rate x goodput share) + latency.
 */
class RdmaSingleTransferTestCase : public TestCase
{
  public:
    /// \param rate line rate, e.g. "100Gbps"
    explicit RdmaSingleTransferTestCase(const std::string& rate)
        : TestCase("single transfer at " + rate +
                   " delivers every byte at line rate x goodput share"),
          m_rate(rate)
    {
    }

  private:
    void DoRun() override
    {
        RdmaHelper helper;
        helper.SetCongestionControl("dcqcn");
        TwoHosts net(m_rate, MicroSeconds(1), helper);
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10000);
        Completions c;
        c.Attach(tx, rx);
        const uint64_t bytes = 10000000;
        tx->PostSend(bytes);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(c.recvMsgs, 1, "the message is received");
        NS_TEST_ASSERT_MSG_EQ(c.recvBytes, bytes, "bytes received equal bytes sent");
        NS_TEST_ASSERT_MSG_EQ(c.sentMsgs, 1, "the sender sees its completion");
        NS_TEST_ASSERT_MSG_EQ(net.nicA->GetRetransmittedPackets(), 0, "no loss, no resend");

        // 4096-byte payload: 86 bytes of headers and framing per packet
        // (Ethernet+VLAN 18, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4,
        // preamble+SFD+IFG 20).
        const double mtu = 4096;
        const double share = mtu / (mtu + 86);
        const double bps = static_cast<double>(DataRate(m_rate).GetBitRate());
        const double expected = bytes * 8 / (bps * share) + 1e-6;
        const double measured = c.lastRecv.GetSeconds();
        NS_TEST_ASSERT_MSG_EQ_TOL(measured,
                                  expected,
                                  0.01 * expected,
                                  "transfer time matches size / (rate x goodput) + latency");
        Simulator::Destroy();
    }

    std::string m_rate; //!< line rate
};

/**
 * PFC on one link: while the receiver pauses priority 3, no data of that
 * priority arrives beyond the frame in flight, a second queue pair in
 * priority 5 keeps sending, short pause quanta are refreshed so the pause
 * lasts as long as asked, and data flows again after the resume.
 */
class PfcPauseTestCase : public TestCase
{
  public:
    PfcPauseTestCase()
        : TestCase("PFC: a paused priority stops, others go on, refresh holds it, resume restarts")
    {
    }

  private:
    /// Received bytes of the two queue pairs at the sample times.
    struct Samples
    {
        Ptr<RdmaQueuePair> rx3; //!< receiver of priority 3
        Ptr<RdmaQueuePair> rx5; //!< receiver of priority 5
        uint64_t p3[3];         //!< priority 3 bytes
        uint64_t p5[3];         //!< priority 5 bytes

        /// \param i sample index
        void Take(int i)
        {
            p3[i] = rx3->GetBytesReceived();
            p5[i] = rx5->GetBytesReceived();
        }
    };

    void DoRun() override
    {
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        TwoHosts net("100Gbps", MicroSeconds(1), helper);
        // 1000 quanta = 5.12 us at 100 Gb/s: a 50 us pause needs refreshes.
        net.devB->SetAttribute("PauseQuanta", UintegerValue(1000));
        auto q3 = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10004);
        auto q5 = RdmaHelper::Connect(net.nicA, net.nicB, 5, 10005);
        q3.first->PostSend(10000000);
        q5.first->PostSend(10000000);
        Simulator::Schedule(MicroSeconds(10), &PfcNetDevice::SetPauseUpstream, net.devB, 3, true);
        Simulator::Schedule(MicroSeconds(60), &PfcNetDevice::SetPauseUpstream, net.devB, 3, false);
        Samples s{q3.second, q5.second, {0, 0, 0}, {0, 0, 0}};
        Simulator::Schedule(MicroSeconds(15), &Samples::Take, &s, 0);
        Simulator::Schedule(MicroSeconds(58), &Samples::Take, &s, 1);
        Simulator::Schedule(MicroSeconds(100), &Samples::Take, &s, 2);
        Simulator::Stop(MicroSeconds(101));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(s.p3[1] - s.p3[0], 0, "nothing of the paused priority arrives");
        NS_TEST_ASSERT_MSG_GT(s.p5[1] - s.p5[0], 40 * 4096, "the other priority takes the line");
        NS_TEST_ASSERT_MSG_GT(s.p3[2] - s.p3[1], 40 * 4096 / 2, "the paused priority resumes");
        NS_TEST_ASSERT_MSG_GT(net.devB->GetPfcPausesSent(), 5, "the short pause was refreshed");
        NS_TEST_ASSERT_MSG_EQ(net.devA->GetPausedMask(), 0, "nothing paused at the end");
        Simulator::Destroy();
    }
};

/**
 * With 1 % random loss in both directions (data, ACKs and NAKs), every
 * message still completes in order, go-back-N resends packets, and the
 * retransmission timer fires at least once (lost NAKs and tails).
 */
class RdmaLossRecoveryTestCase : public TestCase
{
  public:
    RdmaLossRecoveryTestCase()
        : TestCase("random loss: every message completes, go-back-N and timeouts recover")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(3);
        RngSeedManager::SetRun(1);
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        helper.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
        TwoHosts net("100Gbps", MicroSeconds(1), helper);
        for (auto dev : {net.devA, net.devB})
        {
            Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
            em->SetAttribute("ErrorRate", DoubleValue(0.01));
            em->AssignStreams(dev == net.devA ? 10 : 20);
            dev->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10001);
        Completions c;
        c.Attach(tx, rx);
        uint64_t total = 0;
        for (uint32_t i = 0; i < 200; ++i)
        {
            const uint64_t size = 1000 + 37 * i * i; // 1 KB .. 1.5 MB
            tx->PostSend(size, i % 2 == 0);
            total += size;
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(c.recvMsgs, 200, "every message is received");
        NS_TEST_ASSERT_MSG_EQ(c.recvBytes, total, "bytes received equal bytes sent");
        NS_TEST_ASSERT_MSG_EQ(c.sentMsgs, 200, "every message is acknowledged");
        NS_TEST_ASSERT_MSG_EQ(c.inOrder, true, "completions in posting order");
        NS_TEST_ASSERT_MSG_GT(net.devA->GetRxErrors() + net.devB->GetRxErrors(), 0, "losses");
        NS_TEST_ASSERT_MSG_GT(tx->GetRetransmittedPackets(), 0, "go-back-N resent packets");
        NS_TEST_ASSERT_MSG_GT(tx->GetTimeouts(), 0, "the retransmission timer fired");
        NS_TEST_ASSERT_MSG_EQ(tx->HasOutstanding(), false, "nothing left unacknowledged");
        Simulator::Destroy();
    }
};

/**
 * A lost last packet (tail loss, no later packet to trigger a NAK) is
 * recovered by the retransmission timer, within about one timeout.
 */
class RdmaTailLossTestCase : public TestCase
{
  public:
    RdmaTailLossTestCase()
        : TestCase("tail loss is recovered by the retransmission timeout")
    {
    }

  private:
    void DoRun() override
    {
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        helper.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(50)));
        TwoHosts net("100Gbps", MicroSeconds(1), helper);
        // Lose the 3rd data frame that reaches B: the last of a 3-packet message.
        Ptr<ListErrorModel> em = CreateObject<ListErrorModel>();
        net.devB->SetAttribute("ReceiveErrorModel", PointerValue(em));
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10002);
        Completions c;
        c.Attach(tx, rx);
        uint64_t lostUid = 0;
        uint32_t seen = 0;
        net.devA->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(
                +[](Ptr<ListErrorModel> m, uint64_t* uid, uint32_t* n, Ptr<const Packet> p) {
                    if (++*n == 3)
                    {
                        *uid = p->GetUid();
                        m->SetList({static_cast<uint32_t>(p->GetUid())}); // 3.37 lists 32-bit uids
                    }
                },
                em,
                &lostUid,
                &seen));
        tx->PostSend(3 * 4096);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(c.recvBytes, 3 * 4096, "the message arrives whole");
        NS_TEST_ASSERT_MSG_EQ(tx->GetTimeouts(), 1, "exactly one timeout recovered the tail");
        NS_TEST_ASSERT_MSG_LT(c.lastRecv, MicroSeconds(70), "recovered about one RTO later");
        Simulator::Destroy();
    }
};

/**
 * The local ACK timeout follows InfiniBand: 4.096 us x 2^t, t = 0 is no
 * timer; an explicit RetransmitTimeout replaces it; the default is t = 20
 * (NCCL's), 4.29 s.
 */
class RdmaAckTimeoutTestCase : public TestCase
{
  public:
    RdmaAckTimeoutTestCase()
        : TestCase("local ACK timeout is 4.096 us x 2^t (t = 0: none), default t = 20")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(RdmaNic::AckTimeoutToTime(0), Time(0), "t = 0: infinite");
        NS_TEST_ASSERT_MSG_EQ(RdmaNic::AckTimeoutToTime(1), NanoSeconds(8192), "t = 1");
        NS_TEST_ASSERT_MSG_EQ(RdmaNic::AckTimeoutToTime(14), NanoSeconds(4096ULL << 14), "67 ms");
        NS_TEST_ASSERT_MSG_EQ(RdmaNic::AckTimeoutToTime(31),
                              NanoSeconds(4096ULL << 31),
                              "the largest, 2.4 hours");
        Ptr<RdmaNic> nic = CreateObject<RdmaNic>();
        NS_TEST_ASSERT_MSG_EQ(nic->GetRetransmitTimeout(),
                              NanoSeconds(4096ULL << 20),
                              "default: NCCL_IB_TIMEOUT 20");
        nic->SetAttribute("AckTimeout", UintegerValue(0));
        NS_TEST_ASSERT_MSG_EQ(nic->GetRetransmitTimeout(), Time(0), "no timer");
        nic->SetAttribute("RetransmitTimeout", TimeValue(MicroSeconds(300)));
        NS_TEST_ASSERT_MSG_EQ(nic->GetRetransmitTimeout(),
                              MicroSeconds(300),
                              "an explicit time wins");
        nic->Dispose();
    }
};

/// Error completions of one queue pair, in order.
struct ErrorLog
{
    std::vector<uint64_t> seqs;                  //!< sequence numbers
    std::vector<RdmaQueuePair::WcStatus> status; //!< their status
    Time first;                                  //!< time of the first

    void Error(Ptr<RdmaQueuePair>, uint64_t seq, uint64_t, RdmaQueuePair::WcStatus s)
    {
        if (seqs.empty())
        {
            first = Simulator::Now();
        }
        seqs.push_back(seq);
        status.push_back(s);
    }
};

/// NICs without congestion control, a 262 us timeout (t = 6) and 2 retries.
RdmaHelper
ShortRetries()
{
    RdmaHelper helper;
    helper.SetCongestionControl("none");
    helper.SetNicAttribute("AckTimeout", UintegerValue(6));
    helper.SetNicAttribute("RetryCount", UintegerValue(2));
    return helper;
}

/// Post one more message on a queue pair (scheduled by the tests).
void
PostOne(Ptr<RdmaQueuePair> qp, uint64_t bytes)
{
    qp->PostSend(bytes);
}

/**
 * The link is cut for good in the middle of a transfer. The queue pair
 * times out RetryCount + 1 times in a row without progress, then enters the
 * error state: its three posted messages complete in error in posting order
 * (RETRY_EXCEEDED, then FLUSHED), a later post completes FLUSHED at once,
 * nothing more is sent, and the simulation ends by itself (no timer left).
 */
class RdmaRetryExhaustedTestCase : public TestCase
{
  public:
    RdmaRetryExhaustedTestCase()
        : TestCase("retries exhausted: error state, error completions in order, no hang")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts net("100Gbps", MicroSeconds(1), ShortRetries());
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(net.devA->GetChannel());
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10006);
        Completions c;
        c.Attach(tx, rx);
        ErrorLog log;
        tx->SetErrorCallback(MakeCallback(&ErrorLog::Error, &log));
        uint32_t errors = 0;
        net.nicA->TraceConnectWithoutContext("QpError",
                                             MakeBoundCallback(
                                                 +[](uint32_t* n, uint32_t) { ++*n; },
                                                 &errors));
        for (int i = 0; i < 3; ++i)
        {
            tx->PostSend(1000000); // 80 us each at 100 Gb/s
        }
        Simulator::Schedule(MicroSeconds(40), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Schedule(MilliSeconds(5), &PostOne, tx, 1000);
        Simulator::Run();

        const Time rto = NanoSeconds(4096ULL << 6);
        NS_TEST_ASSERT_MSG_EQ(tx->GetState(), RdmaQueuePair::ERR, "the queue pair is in error");
        NS_TEST_ASSERT_MSG_EQ(tx->GetTimeouts(), 3, "RetryCount + 1 timeouts");
        NS_TEST_ASSERT_MSG_EQ(errors, 1, "the NIC traced one queue pair error");
        NS_TEST_ASSERT_MSG_EQ(net.nicA->GetQpErrors(), 1, "and counted it");
        NS_TEST_ASSERT_MSG_EQ(c.sentMsgs, 0, "no message completed successfully");
        NS_TEST_ASSERT_MSG_EQ(log.seqs.size(), 4, "three flushed, one posted after the error");
        for (std::size_t i = 0; i < log.seqs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(log.seqs[i], i, "error completions in posting order");
            const bool exceeded = log.status[i] == RdmaQueuePair::RETRY_EXCEEDED;
            const bool first = i == 0;
            NS_TEST_ASSERT_MSG_EQ(exceeded,
                                  first,
                                  "the first exceeded the retries, the others are flushed");
        }
        NS_TEST_ASSERT_MSG_EQ(tx->GetErrorCompletions(), 4, "four error completions");
        // The last progress was an ACK that arrived shortly before the cut
        // (those on the wire at the cut are lost); the error comes three
        // timeouts later.
        NS_TEST_ASSERT_MSG_GT(log.first, MicroSeconds(35) + rto * 3, "not before 3 timeouts");
        NS_TEST_ASSERT_MSG_LT(log.first, MicroSeconds(60) + rto * 3, "right after the third");
        NS_TEST_ASSERT_MSG_EQ(tx->HasOutstanding(), false, "nothing outstanding");
        NS_TEST_ASSERT_MSG_GT(ch->GetLostFrames(), 0, "frames were lost on the cut link");
        NS_TEST_ASSERT_MSG_LT(c.recvBytes, 3000000, "the transfer did not get through");
        Simulator::Destroy();
    }
};

/**
 * A link that goes down for less than the retries' span and comes back:
 * the queue pair times out, retries, and completes every message with its
 * exact bytes once the link is up; its retry count restarts on progress.
 */
class RdmaLinkFlapTestCase : public TestCase
{
  public:
    RdmaLinkFlapTestCase()
        : TestCase("a link down for two timeouts: the queue pair retries and completes")
    {
    }

  private:
    void DoRun() override
    {
        TwoHosts net("100Gbps", MicroSeconds(1), ShortRetries());
        Ptr<PfcChannel> ch = DynamicCast<PfcChannel>(net.devA->GetChannel());
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10007);
        Completions c;
        c.Attach(tx, rx);
        for (int i = 0; i < 10; ++i)
        {
            tx->PostSend(1000000);
        }
        // Down twice, each for about two timeouts, with progress between.
        Simulator::Schedule(MicroSeconds(100), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Schedule(MicroSeconds(700), &PfcChannel::SetLinkUp, ch, true);
        Simulator::Schedule(MicroSeconds(900), &PfcChannel::SetLinkUp, ch, false);
        Simulator::Schedule(MicroSeconds(1500), &PfcChannel::SetLinkUp, ch, true);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(tx->GetState(), RdmaQueuePair::RTS, "still ready to send");
        NS_TEST_ASSERT_MSG_EQ(c.recvMsgs, 10, "every message arrived");
        NS_TEST_ASSERT_MSG_EQ(c.recvBytes, 10000000, "with exactly its bytes");
        NS_TEST_ASSERT_MSG_EQ(c.inOrder, true, "in order, once");
        NS_TEST_ASSERT_MSG_EQ(c.sentMsgs, 10, "every message acknowledged");
        NS_TEST_ASSERT_MSG_EQ(tx->GetTimeouts(), 4, "two timeouts per outage, 4 in all");
        NS_TEST_ASSERT_MSG_GT(rx->GetRepairRetransmissionsReceived(),
                              0,
                              "retransmissions repaired the losses");
        NS_TEST_ASSERT_MSG_LT(rx->GetRepairRetransmissionsReceived(),
                              tx->GetRetransmittedPackets() + 1,
                              "repairs are a subset of the retransmissions");
        Simulator::Destroy();
    }
};

/**
 * DCQCN reaction point: a CNP cuts the rate by (1 - alpha/2) with alpha = 1
 * at start, later CNPs within the decrease interval are ignored, and
 * without CNPs the rate recovers to line rate.
 */
class DcqcnReactionTestCase : public TestCase
{
  public:
    DcqcnReactionTestCase()
        : TestCase("DCQCN halves the rate on the first CNP and recovers to line rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DcqcnCongestionControl> cc = CreateObject<DcqcnCongestionControl>();
        cc->Init(DataRate("100Gbps"));
        m_afterCut = 0;
        m_afterSecond = 0;
        Simulator::Schedule(MicroSeconds(10), &DcqcnReactionTestCase::TwoCnps, this, cc);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ_TOL(m_afterCut, 50e9, 1e6, "first CNP: Rc = Rc (1 - 1/2)");
        NS_TEST_ASSERT_MSG_EQ(m_afterSecond, m_afterCut, "one cut per decrease interval");
        NS_TEST_ASSERT_MSG_EQ_TOL(cc->GetRateBps(), 100e9, 1e6, "recovered to line rate");
        NS_TEST_ASSERT_MSG_LT(cc->GetAlpha(), 1.0, "alpha decays without CNPs");
        cc->Dispose();
        Simulator::Destroy();
    }

    /**
     * Two CNPs at once, recording the rate after each.
     * \param cc the reaction point
     */
    void TwoCnps(Ptr<DcqcnCongestionControl> cc)
    {
        cc->OnCnp();
        m_afterCut = cc->GetRateBps();
        cc->OnCnp(); // within RateDecreaseInterval: ignored
        m_afterSecond = cc->GetRateBps();
    }

    double m_afterCut{0};    //!< rate after the first CNP, bit/s
    double m_afterSecond{0}; //!< rate after the second CNP, bit/s
};

/**
 * Same seed, same run: identical counters and completion times.
 */
class RdmaDeterminismTestCase : public TestCase
{
  public:
    RdmaDeterminismTestCase()
        : TestCase("same seed gives identical completion times and counters")
    {
    }

  private:
    std::pair<Time, uint64_t> RunOnce()
    {
        RngSeedManager::SetSeed(7);
        RngSeedManager::SetRun(1);
        RdmaHelper helper;
        helper.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(100)));
        TwoHosts net("100Gbps", MicroSeconds(2), helper);
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        em->SetAttribute("ErrorRate", DoubleValue(0.005));
        em->AssignStreams(1);
        net.devB->SetAttribute("ReceiveErrorModel", PointerValue(em));
        auto [tx, rx] = RdmaHelper::Connect(net.nicA, net.nicB, 3, 10003);
        Completions c;
        c.Attach(tx, rx);
        tx->PostSend(5000000);
        Simulator::Run();
        auto result = std::make_pair(c.lastRecv, tx->GetRetransmittedPackets());
        Simulator::Destroy();
        return result;
    }

    void DoRun() override
    {
        auto a = RunOnce();
        auto b = RunOnce();
        NS_TEST_ASSERT_MSG_EQ(a.first, b.first, "same completion time");
        NS_TEST_ASSERT_MSG_EQ(a.second, b.second, "same retransmissions");
        NS_TEST_ASSERT_MSG_GT(a.second, 0, "the run exercised loss recovery");
    }
};

} // namespace

/**
 * \ingroup flux
 * \brief RoCEv2 transport tests on a single link.
 */
class FluxRdmaTestSuite : public TestSuite
{
  public:
    FluxRdmaTestSuite()
        : TestSuite("flux-rdma", TestSuite::Type::UNIT)
    {
        for (const char* rate : {"100Gbps", "200Gbps", "400Gbps"})
        {
            AddTestCase(new RdmaSingleTransferTestCase(rate));
        }
        AddTestCase(new PfcPauseTestCase);
        AddTestCase(new RdmaLossRecoveryTestCase);
        AddTestCase(new RdmaTailLossTestCase);
        AddTestCase(new RdmaAckTimeoutTestCase);
        AddTestCase(new RdmaRetryExhaustedTestCase);
        AddTestCase(new RdmaLinkFlapTestCase);
        AddTestCase(new DcqcnReactionTestCase);
        AddTestCase(new RdmaDeterminismTestCase);
    }
};

static FluxRdmaTestSuite g_fluxRdmaTestSuite; //!< the suite
