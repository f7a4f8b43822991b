/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The NIC's queue-pair arbiters (RoundRobinQpArbiter, ClassQpArbiter) and
 * changes of a queue pair's traffic class during a run.
 */

#include "two-hosts.h"

#include "ns3/class-qp-arbiter.h"
#include "ns3/core-module.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fixed-rate.h"
#include "ns3/network-module.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/round-robin-qp-arbiter.h"

#include <algorithm>
#include <map>
#include <vector>

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/// Payload bytes per packet (the NIC's default path MTU).
constexpr uint64_t MTU = 4096;

/// Records, at the receiving NIC, which queue pair each data packet is for.
struct Arrivals
{
    std::vector<uint32_t> qpns; //!< receiving QPN of each data packet, in arrival order

    /**
     * \param qpn the receiving queue pair
     */
    void Rx(uint32_t qpn, uint32_t /* payload */, Time /* latency */)
    {
        qpns.push_back(qpn);
    }

    /**
     * \param qpn a receiving queue pair
     * \return the index of its first arrival (size() when none)
     */
    std::size_t First(uint32_t qpn) const
    {
        return std::find(qpns.begin(), qpns.end(), qpn) - qpns.begin();
    }

    /**
     * \param qpn a receiving queue pair
     * \return the index of its last arrival (size() when none)
     */
    std::size_t Last(uint32_t qpn) const
    {
        auto it = std::find(qpns.rbegin(), qpns.rend(), qpn);
        return it == qpns.rend() ? qpns.size() : qpns.size() - 1 - (it - qpns.rbegin());
    }

    /** \return the lengths of the runs of packets for the same queue pair */
    std::vector<std::size_t> Runs() const
    {
        std::vector<std::size_t> runs;
        for (std::size_t i = 0; i < qpns.size(); ++i)
        {
            if (i == 0 || qpns[i] != qpns[i - 1])
            {
                runs.push_back(0);
            }
            ++runs.back();
        }
        return runs;
    }
};

/**
 * \param qp a queue pair
 * \param bytes message size
 */
void
Post(Ptr<RdmaQueuePair> qp, uint64_t bytes)
{
    qp->PostSend(bytes);
}

} // namespace

/**
 * \ingroup flux-tests
 * Order between classes: with ClassQpArbiter's default order a class-5
 * queue pair with data always goes before a class-3 one (all its packets
 * arrive before the first class-3 packet); with Order "3 5" class 3 goes
 * first; RoundRobinQpArbiter (the default) interleaves them one packet each.
 */
class ClassOrderTestCase : public TestCase
{
  public:
    /// Which arbiter and order.
    enum Mode
    {
        ROUND_ROBIN,   //!< the default arbiter
        CLASS_DEFAULT, //!< ClassQpArbiter, descending class
        CLASS_3_FIRST  //!< ClassQpArbiter, Order "3 5"
    };

    /**
     * \param mode the arbiter
     */
    explicit ClassOrderTestCase(Mode mode)
        : TestCase(mode == ROUND_ROBIN ? "RoundRobinQpArbiter (default): classes 5 and 3 "
                                         "interleave one packet each"
                   : mode == CLASS_DEFAULT
                       ? "ClassQpArbiter: a class-5 queue pair goes before a class-3 one"
                       : "ClassQpArbiter Order 3 5: class 3 goes before class 5"),
          m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        if (m_mode != ROUND_ROBIN)
        {
            helper.SetNicAttribute("QpArbiter",
                                   StringValue(m_mode == CLASS_DEFAULT
                                                   ? "ns3::ClassQpArbiter"
                                                   : "ns3::ClassQpArbiter[Order=3,5]"));
        }
        TwoHosts h("100Gbps", MicroSeconds(1), helper);
        NS_TEST_ASSERT_MSG_EQ(
            (m_mode == ROUND_ROBIN
                 ? DynamicCast<RoundRobinQpArbiter>(h.nicA->GetQpArbiter()) != nullptr
                 : DynamicCast<ClassQpArbiter>(h.nicA->GetQpArbiter()) != nullptr),
            true,
            "arbiter type");
        auto [hi, hiRx] = RdmaHelper::Connect(h.nicA, h.nicB, 5, 1000);
        auto [lo, loRx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1001);
        Arrivals arrivals;
        h.nicB->TraceConnectWithoutContext("DataRx", MakeCallback(&Arrivals::Rx, &arrivals));
        // The queue pair of the class that goes first posts first: its first
        // packet leaves at once, whatever the arbiter.
        Ptr<RdmaQueuePair> first = m_mode == CLASS_3_FIRST ? lo : hi;
        Ptr<RdmaQueuePair> second = m_mode == CLASS_3_FIRST ? hi : lo;
        Simulator::Schedule(MicroSeconds(1), &Post, first, 20 * MTU);
        Simulator::Schedule(MicroSeconds(1), &Post, second, 20 * MTU);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        const uint32_t a = (m_mode == CLASS_3_FIRST ? loRx : hiRx)->GetQpn();
        const uint32_t b = (m_mode == CLASS_3_FIRST ? hiRx : loRx)->GetQpn();
        NS_TEST_ASSERT_MSG_EQ(arrivals.qpns.size(), 40, "all packets arrive");
        if (m_mode == ROUND_ROBIN)
        {
            NS_TEST_ASSERT_MSG_EQ(arrivals.Runs().size(), 40, "one packet each in turn");
        }
        else
        {
            NS_TEST_ASSERT_MSG_LT(arrivals.Last(a),
                                  arrivals.First(b),
                                  "every packet of the first class before any of the other");
        }
        NS_TEST_ASSERT_MSG_EQ(h.nicA->GetRetransmittedPackets(), 0, "no retransmission");
        Simulator::Destroy();
    }

    Mode m_mode; //!< the arbiter
};

/**
 * \ingroup flux-tests
 * ClassQpArbiter shares a class by deficit round robin over frame bytes:
 * with Quantum = 3 frames two queue pairs of one class take turns of exactly
 * 3 packets, with the default Quantum (about one frame) of 1 packet; both
 * get the same bytes.
 */
class ClassQuantumTestCase : public TestCase
{
  public:
    /**
     * \param frames the quantum in frames (0: the default Quantum)
     */
    explicit ClassQuantumTestCase(uint32_t frames)
        : TestCase(frames == 0 ? "ClassQpArbiter: two queue pairs of one class alternate "
                                 "packet by packet with the default Quantum"
                               : "ClassQpArbiter: with Quantum = 3 frames two queue pairs "
                                 "of one class take turns of 3 packets"),
          m_frames(frames)
    {
    }

  private:
    void DoRun() override
    {
        // a full frame: IPv4 + UDP + BTH + payload + ICRC + Ethernet/802.1Q
        const uint32_t frame = 20 + 8 + 12 + MTU + 4 + 18;
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        helper.SetNicAttribute("QpArbiter", StringValue("ns3::ClassQpArbiter"));
        TwoHosts h("100Gbps", MicroSeconds(1), helper);
        Ptr<ClassQpArbiter> arbiter = DynamicCast<ClassQpArbiter>(h.nicA->GetQpArbiter());
        NS_TEST_ASSERT_MSG_EQ(arbiter->GetQuantum(), 4200, "default quantum");
        if (m_frames > 0)
        {
            arbiter->SetAttribute("Quantum", UintegerValue(m_frames * frame));
        }
        auto [a, aRx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1000);
        auto [b, bRx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1001);
        Arrivals arrivals;
        h.nicB->TraceConnectWithoutContext("DataRx", MakeCallback(&Arrivals::Rx, &arrivals));
        Simulator::Schedule(MicroSeconds(1), &Post, a, 30 * MTU);
        Simulator::Schedule(MicroSeconds(1), &Post, b, 30 * MTU);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(arrivals.qpns.size(), 60, "all packets arrive");
        const std::vector<std::size_t> runs = arrivals.Runs();
        const std::size_t want = m_frames == 0 ? 1 : m_frames;
        NS_TEST_ASSERT_MSG_EQ(runs.size(), 60 / want, "turns");
        for (std::size_t i = 0; i < runs.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(runs[i], want, "packets of turn " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(aRx->GetBytesReceived(), 30 * MTU, "a's bytes");
        NS_TEST_ASSERT_MSG_EQ(bRx->GetBytesReceived(), 30 * MTU, "b's bytes");
        Simulator::Destroy();
    }

    uint32_t m_frames; //!< quantum in frames (0: default)
};

/**
 * \ingroup flux-tests
 * ClassQpArbiter is work-conserving: while class 5 is paused by PFC the
 * class-3 queue pair sends (and class 5 sends nothing), and class 5 resumes
 * after the pause; when the class-5 queue pair waits for its pacing time the
 * class-3 queue pair uses the gaps, so two queue pairs paced at 10 Gb/s
 * finish together instead of one after the other.
 */
class ClassWorkConservingTestCase : public TestCase
{
  public:
    ClassWorkConservingTestCase()
        : TestCase("ClassQpArbiter: a paused or pacing-blocked class lets the next one send")
    {
    }

  private:
    void DoRun() override
    {
        Paused();
        Paced();
    }

    /// Class 5 paused by the peer for 40 us.
    void Paused()
    {
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        helper.SetNicAttribute("QpArbiter", StringValue("ns3::ClassQpArbiter"));
        TwoHosts h("100Gbps", MicroSeconds(1), helper);
        auto [hi, hiRx] = RdmaHelper::Connect(h.nicA, h.nicB, 5, 1000);
        auto [lo, loRx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1001);
        Simulator::Schedule(NanoSeconds(0), &PfcNetDevice::SetPauseUpstream, h.devB, 5, true);
        Simulator::Schedule(MicroSeconds(2), &Post, hi, 100 * MTU);
        Simulator::Schedule(MicroSeconds(2), &Post, lo, 50 * MTU);
        Simulator::Schedule(MicroSeconds(45), &PfcNetDevice::SetPauseUpstream, h.devB, 5, false);
        Simulator::Stop(MicroSeconds(40));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(hiRx->GetBytesReceived(), 0, "paused class 5 sends nothing");
        NS_TEST_ASSERT_MSG_EQ(loRx->GetBytesReceived(), 50 * MTU, "class 3 sends meanwhile");
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(hiRx->GetBytesReceived(), 100 * MTU, "class 5 after the pause");
        Simulator::Destroy();
    }

    /// Both queue pairs paced at 10 Gb/s on a 100 Gb/s line.
    void Paced()
    {
        RdmaHelper helper;
        helper.SetCongestionControl("ns3::FixedRateCongestionControl[Rate=10Gb/s]");
        helper.SetNicAttribute("QpArbiter", StringValue("ns3::ClassQpArbiter"));
        TwoHosts h("100Gbps", MicroSeconds(1), helper);
        auto [hi, hiRx] = RdmaHelper::Connect(h.nicA, h.nicB, 5, 1000);
        auto [lo, loRx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1001);
        m_done.clear();
        hiRx->SetReceiveCompletionCallback(MakeCallback(&ClassWorkConservingTestCase::Done, this));
        loRx->SetReceiveCompletionCallback(MakeCallback(&ClassWorkConservingTestCase::Done, this));
        Simulator::Schedule(MicroSeconds(1), &Post, hi, 100 * MTU);
        Simulator::Schedule(MicroSeconds(1), &Post, lo, 100 * MTU);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        // 100 frames of 4158 bytes (4182 on the wire) at 10 Gb/s: about 334 us
        const Time alone = MicroSeconds(334);
        NS_TEST_ASSERT_MSG_EQ(m_done.size(), 2, "both complete");
        const Time tHi = m_done[hiRx->GetQpn()];
        const Time tLo = m_done[loRx->GetQpn()];
        NS_TEST_ASSERT_MSG_LT(tHi, alone * 1.1, "class 5 at its paced rate");
        NS_TEST_ASSERT_MSG_LT(tLo, alone * 1.1, "class 3 uses the pacing gaps of class 5");
        Simulator::Destroy();
    }

    /**
     * \param qp the receiving queue pair
     */
    void Done(Ptr<RdmaQueuePair> qp, uint64_t /* seq */, uint64_t /* bytes */)
    {
        m_done[qp->GetQpn()] = Simulator::Now();
    }

    std::map<uint32_t, Time> m_done; //!< per receiving QPN: completion time
};

/**
 * \ingroup flux-tests
 * The class order of ClassQpArbiter: listed classes first, the others in
 * descending class number; the Order attribute says the same; bad orders
 * are rejected.
 */
class ClassOrderConfigTestCase : public TestCase
{
  public:
    ClassOrderConfigTestCase()
        : TestCase("ClassQpArbiter: SetClassOrder and the Order attribute")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<ClassQpArbiter> a = CreateObject<ClassQpArbiter>();
        NS_TEST_ASSERT_MSG_EQ((a->GetClassOrder() == std::vector<uint8_t>{7, 6, 5, 4, 3, 2, 1, 0}),
                              true,
                              "default: descending class");
        a->SetClassOrder({3, 5});
        NS_TEST_ASSERT_MSG_EQ((a->GetClassOrder() == std::vector<uint8_t>{3, 5, 7, 6, 4, 2, 1, 0}),
                              true,
                              "listed first, the rest descending");
        a->SetAttribute("Order", StringValue("0 1 2"));
        NS_TEST_ASSERT_MSG_EQ((a->GetClassOrder() == std::vector<uint8_t>{0, 1, 2, 7, 6, 5, 4, 3}),
                              true,
                              "Order attribute");
        StringValue order;
        a->GetAttribute("Order", order);
        NS_TEST_ASSERT_MSG_EQ(order.Get(), "0 1 2 7 6 5 4 3", "Order read back");
        bool threw = false;
        try
        {
            a->SetClassOrder({8});
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "class 8 rejected");
        threw = false;
        try
        {
            a->SetClassOrder({3, 3});
        }
        catch (const std::invalid_argument&)
        {
            threw = true;
        }
        NS_TEST_ASSERT_MSG_EQ(threw, true, "a class listed twice rejected");
        a->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * SetPriority while packets are unacknowledged takes effect at the ACK of
 * the last one (the NIC's PriorityChanged trace fires then, the class stays
 * the old one and the new one is pending before); every packet before it
 * leaves in the old class and every packet after it in the new one; on an
 * idle queue pair it takes effect at once; setting the class in effect again
 * cancels a pending change; no retransmission occurs.
 */
class SetPriorityTestCase : public TestCase
{
  public:
    SetPriorityTestCase()
        : TestCase("RdmaQueuePair::SetPriority takes effect when nothing is unacknowledged")
    {
    }

  private:
    void DoRun() override
    {
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        TwoHosts h("100Gbps", MicroSeconds(1), helper);
        auto [qp, rx] = RdmaHelper::Connect(h.nicA, h.nicB, 3, 1000);
        m_qp = qp;
        qp->SetSendCompletionCallback(MakeCallback(&SetPriorityTestCase::SendDone, this));
        h.nicA->TraceConnectWithoutContext("PriorityChanged",
                                           MakeCallback(&SetPriorityTestCase::Changed, this));
        h.devA->TraceConnectWithoutContext("MacTx", MakeCallback(&SetPriorityTestCase::Tx, this));

        // idle: at once
        qp->SetPriority(4);
        NS_TEST_ASSERT_MSG_EQ(+qp->GetPriority(), 4, "idle queue pair: at once");
        qp->SetPriority(3);
        NS_TEST_ASSERT_MSG_EQ(qp->GetPriorityChanges(), 2, "two changes");
        m_changes.clear();

        Simulator::Schedule(MicroSeconds(1), &Post, qp, 40 * MTU);
        Simulator::Schedule(MicroSeconds(5), &SetPriorityTestCase::Change, this);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_pendingSeen, true, "pending while packets are unacknowledged");
        NS_TEST_ASSERT_MSG_EQ(m_changes.size(), 1, "one change took effect");
        NS_TEST_ASSERT_MSG_EQ(m_changes[0].first, m_sendDone, "at the ACK of the last packet");
        NS_TEST_ASSERT_MSG_EQ(+m_changes[0].second, 5, "to class 5");
        NS_TEST_ASSERT_MSG_EQ(+qp->GetPriority(), 5, "class in effect");
        NS_TEST_ASSERT_MSG_EQ(m_framesByPcp[3], 40, "first message in the old class");
        NS_TEST_ASSERT_MSG_EQ(m_framesByPcp[5], 40, "second message in the new class");
        NS_TEST_ASSERT_MSG_EQ(rx->GetBytesReceived(), 80 * MTU, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(h.nicA->GetRetransmittedPackets(), 0, "no retransmission");

        // a pending change is cancelled by setting the class in effect again
        Simulator::Schedule(MicroSeconds(1), &Post, qp, 40 * MTU);
        Simulator::Schedule(MicroSeconds(3), &RdmaQueuePair::SetPriority, qp, 2);
        Simulator::Schedule(MicroSeconds(4), &RdmaQueuePair::SetPriority, qp, 5);
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_changes.size(), 1, "no further change");
        NS_TEST_ASSERT_MSG_EQ(+qp->GetPriority(), 5, "class unchanged");
        m_qp = nullptr;
        Simulator::Destroy();
    }

    /// Ask for class 5 in mid-message.
    void Change()
    {
        m_qp->SetPriority(5);
        m_pendingSeen = m_qp->GetPriority() == 3 && m_qp->GetPendingPriority() == 5;
    }

    /// The first message is acknowledged: post the second.
    void SendDone(Ptr<RdmaQueuePair> qp, uint64_t seq, uint64_t /* bytes */)
    {
        if (seq == 0)
        {
            m_sendDone = Simulator::Now();
            Simulator::Schedule(MicroSeconds(1), &Post, qp, 40 * MTU);
        }
    }

    /**
     * \param qpn the queue pair
     * \param newClass its new class
     */
    void Changed(uint32_t /* qpn */, uint8_t /* oldClass */, uint8_t newClass)
    {
        m_changes.emplace_back(Simulator::Now(), newClass);
    }

    /**
     * \param frame a frame host A put on the line (data only: A receives)
     */
    void Tx(Ptr<const Packet> frame)
    {
        EthernetVlanHeader eth;
        frame->PeekHeader(eth);
        ++m_framesByPcp[eth.GetPcp()];
    }

    Ptr<RdmaQueuePair> m_qp;                         //!< the sending queue pair
    bool m_pendingSeen{false};                       //!< old class in effect, new pending
    Time m_sendDone;                                 //!< first message acknowledged
    std::vector<std::pair<Time, uint8_t>> m_changes; //!< changes that took effect
    std::map<uint8_t, uint64_t> m_framesByPcp;       //!< frames sent per PCP
};

/**
 * \ingroup flux-tests
 * SetPriority through a switch that queues the classes apart (strict
 * priority): a sender whose class-3 packets wait behind another sender's
 * asks for class 5 in mid-stream and posts more; as the change waits until
 * nothing is unacknowledged, no class-5 packet overtakes a class-3 one: no
 * NAK, no retransmission, everything delivered, with ClassQpArbiter too.
 */
class SetPriorityFabricTestCase : public TestCase
{
  public:
    SetPriorityFabricTestCase()
        : TestCase("SetPriority through a strict-priority switch: no reordering, no "
                   "retransmission")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper fabric;
        FabricTopology topo = fabric.BuildLeafSpine(1, 0, 3);
        RdmaHelper helper;
        helper.SetCongestionControl("none");
        helper.SetNicAttribute("QpArbiter", StringValue("ns3::ClassQpArbiter"));
        std::vector<Ptr<RdmaNic>> nics;
        for (uint32_t i = 0; i < 3; ++i)
        {
            nics.push_back(
                helper.Install(topo.hosts.Get(i), topo.hostDevices[i], topo.hostAddresses[i]));
        }
        // hosts 0 and 1 send to host 2: the switch port towards host 2 queues
        auto [a, aRx] = RdmaHelper::Connect(nics[0], nics[2], 3, 1000);
        auto [b, bRx] = RdmaHelper::Connect(nics[1], nics[2], 3, 1001);
        Simulator::Schedule(MicroSeconds(1), &Post, a, 200 * MTU);
        Simulator::Schedule(MicroSeconds(1), &Post, b, 200 * MTU);
        Simulator::Schedule(MicroSeconds(20), &RdmaQueuePair::SetPriority, a, 5);
        Simulator::Schedule(MicroSeconds(20), &Post, a, 200 * MTU);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(aRx->GetBytesReceived(), 400 * MTU, "a delivered");
        NS_TEST_ASSERT_MSG_EQ(bRx->GetBytesReceived(), 200 * MTU, "b delivered");
        NS_TEST_ASSERT_MSG_EQ(nics[2]->GetNaksSent(), 0, "no NAK: nothing overtaken");
        NS_TEST_ASSERT_MSG_EQ(nics[0]->GetRetransmittedPackets(), 0, "no retransmission");
        NS_TEST_ASSERT_MSG_EQ(a->GetPriorityChanges(), 1, "the change took effect");
        NS_TEST_ASSERT_MSG_EQ(+a->GetPriority(), 5, "in class 5 at the end");
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(), 0, "no drop");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * The NIC's queue-pair arbiters and class changes of queue pairs.
 */
class FluxArbiterTestSuite : public TestSuite
{
  public:
    FluxArbiterTestSuite()
        : TestSuite("flux-arbiter")
    {
        AddTestCase(new ClassOrderTestCase(ClassOrderTestCase::ROUND_ROBIN));
        AddTestCase(new ClassOrderTestCase(ClassOrderTestCase::CLASS_DEFAULT));
        AddTestCase(new ClassOrderTestCase(ClassOrderTestCase::CLASS_3_FIRST));
        AddTestCase(new ClassQuantumTestCase(0));
        AddTestCase(new ClassQuantumTestCase(3));
        AddTestCase(new ClassWorkConservingTestCase);
        AddTestCase(new ClassOrderConfigTestCase);
        AddTestCase(new SetPriorityTestCase);
        AddTestCase(new SetPriorityFabricTestCase);
    }
};

static FluxArbiterTestSuite g_fluxArbiterTestSuite; //!< Static variable for test initialization
