/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FluxQueueDisc: control class first and the controller's class order,
 * deficit round robin among the flows of a class, the starvation guard
 * (MinShare byte credit and MaxWait ageing), per-class and per-flow ECN
 * marking, PFC pauses with Peek agreeing with Dequeue, the size limit,
 * plain IPv4 use through TrafficControlHelper, and the direct path against
 * ns-3's.
 */

#include "fabric-test-traffic.h"

#include "ns3/core-module.h"
#include "ns3/flux-queue-disc.h"
#include "ns3/internet-module.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/traffic-class.h"
#include "ns3/traffic-control-module.h"

#include <array>
#include <cstdlib>
#include <vector>

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/**
 * \param item an item made by MakeItem
 * \return its IPv4 identification
 */
uint16_t
SeqOf(Ptr<const QueueDiscItem> item)
{
    return DynamicCast<const Ipv4QueueDiscItem>(item)->GetHeader().GetIdentification();
}

/**
 * \param item an item made by MakeItem
 * \return its UDP source port
 */
uint16_t
PortOf(Ptr<const QueueDiscItem> item)
{
    UdpHeader udp;
    item->GetPacket()->PeekHeader(udp);
    return udp.GetSourcePort();
}

/**
 * \param item an item made by MakeItem
 * \return whether it is marked CE
 */
bool
IsCe(Ptr<const QueueDiscItem> item)
{
    return EcnOf(item) == Ipv4Header::ECN_CE;
}

/**
 * \param flows flow queues per class
 * \param n number of ports wanted
 * \return n UDP source ports whose flows hash to different flow queues
 */
std::vector<uint16_t>
DistinctFlowPorts(uint32_t flows, std::size_t n)
{
    std::vector<uint16_t> ports;
    std::vector<bool> used(flows, false);
    for (uint16_t port = 1000; ports.size() < n; ++port)
    {
        const uint32_t f = MakeItem(0, port)->Hash(0) % flows;
        if (!used[f])
        {
            used[f] = true;
            ports.push_back(port);
        }
    }
    return ports;
}

/**
 * \param minShare attribute MinShare
 * \param maxWait attribute MaxWait
 * \return an initialised queue disc
 */
Ptr<FluxQueueDisc>
MakeQueueDisc(double minShare = 0, Time maxWait = Seconds(0))
{
    Ptr<FluxQueueDisc> q = CreateObject<FluxQueueDisc>();
    q->SetAttribute("MinShare", DoubleValue(minShare));
    q->SetAttribute("MaxWait", TimeValue(maxWait));
    q->Initialize();
    return q;
}

} // namespace

/**
 * \ingroup flux-tests
 * Order: the control class is always served first; then the classes in the
 * controller's order (classes not listed in descending class number); a new
 * order (method or attribute) applies from the next dequeue; Classes folds
 * the high data classes into one.
 */
class FluxQueueDiscOrderTestCase : public TestCase
{
  public:
    FluxQueueDiscOrderTestCase()
        : TestCase("FluxQueueDisc: control first, then the class order, changes at next dequeue")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FluxQueueDisc> q = MakeQueueDisc();
        std::vector<uint8_t> expectedOrder = {6, 5, 4, 3, 2, 1, 0};
        NS_TEST_ASSERT_MSG_EQ((q->GetClassOrder() == expectedOrder),
                              true,
                              "default: descending class number");
        q->SetClassOrder({3, 5});
        expectedOrder = {3, 5, 6, 4, 2, 1, 0};
        NS_TEST_ASSERT_MSG_EQ((q->GetClassOrder() == expectedOrder),
                              true,
                              "listed classes first, then the others descending");

        // Class 5 first, class 3 after it, then control and class 0.
        const uint8_t enqueued[] = {5, 5, 5, 3, 3, 7, 0};
        for (uint16_t i = 0; i < 7; ++i)
        {
            q->Enqueue(MakeItem(enqueued[i], 1000, 128, Ipv4Header::ECN_NotECT, i));
        }
        Ptr<QueueDiscItem> item = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 7, "the control class goes first");
        item = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 3, "class 3 before class 5 with order {3, 5}");
        NS_TEST_ASSERT_MSG_EQ(SeqOf(item), 3, "FIFO within the class");

        q->Enqueue(MakeItem(7, 1000, 128, Ipv4Header::ECN_NotECT, 7));
        q->SetClassOrder({5});
        item = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 7, "control first whatever the order");
        item = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 5, "order {5} applies at the next dequeue");
        NS_TEST_ASSERT_MSG_EQ(SeqOf(item), 0, "FIFO within the class");

        q->SetAttribute("Order", StringValue("0 3"));
        StringValue order;
        q->GetAttribute("Order", order);
        NS_TEST_ASSERT_MSG_EQ(order.Get(), "0 3", "attribute Order reads back");
        const uint8_t expected[] = {0, 3, 5, 5};
        for (uint8_t e : expected)
        {
            item = q->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "a packet is left");
            NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), +e, "order \"0 3\" from the next dequeue");
        }
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "empty");
        NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), 0, "no bytes left");
        q->Dispose();

        // Classes = 4: data classes 3..6 share class 3; control keeps its own.
        Ptr<FluxQueueDisc> folded = CreateObject<FluxQueueDisc>();
        folded->SetAttribute("Classes", UintegerValue(4));
        folded->SetAttribute("Order", StringValue("6 1"));
        folded->Initialize();
        NS_TEST_ASSERT_MSG_EQ(+folded->GetQueueClass(6), 3, "class 6 folds into class 3");
        NS_TEST_ASSERT_MSG_EQ(+folded->GetQueueClass(2), 2, "class 2 keeps its queue");
        NS_TEST_ASSERT_MSG_EQ(+folded->GetQueueClass(7), 7, "control keeps its queue");
        expectedOrder = {3, 1, 2, 0};
        NS_TEST_ASSERT_MSG_EQ((folded->GetClassOrder() == expectedOrder),
                              true,
                              "the order refers to folded classes");
        folded->Enqueue(MakeItem(2));
        folded->Enqueue(MakeItem(5));
        folded->Enqueue(MakeItem(1));
        NS_TEST_ASSERT_MSG_EQ(folded->GetClassPackets(3), 1, "class 5 queued in class 3");
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(folded->Dequeue()), 5, "class 3 (holding 5) first");
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(folded->Dequeue()), 1, "then class 1");
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(folded->Dequeue()), 2, "then class 2");
        folded->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * DRR: two backlogged flows of one class, one with 1000-byte and one with
 * 4000-byte packets, have sent the same bytes within one quantum at the
 * start of every round (within a quantum and a packet at any time); three flows with one-quantum
 * packets are served in strict rotation.
 */
class FluxQueueDiscDrrTestCase : public TestCase
{
  public:
    FluxQueueDiscDrrTestCase()
        : TestCase("FluxQueueDisc: DRR gives flows of one class equal bytes")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FluxQueueDisc> q = MakeQueueDisc();
        UintegerValue quantum;
        q->GetAttribute("Quantum", quantum);
        NS_TEST_ASSERT_MSG_EQ(quantum.Get(), 4200, "default quantum: one 4 KB RoCE frame");
        const std::vector<uint16_t> ports = DistinctFlowPorts(16, 2);
        for (uint16_t i = 0; i < 400; ++i)
        {
            q->Enqueue(MakeItem(3, ports[0], 1000));
            if (i % 4 == 0)
            {
                q->Enqueue(MakeItem(3, ports[1], 4000));
            }
        }
        uint64_t bytes[2] = {0, 0};
        uint16_t last = 0;
        uint32_t rounds = 0;
        // Both flows hold 400 KB: dequeue 300 KB, both stay backlogged.
        while (bytes[0] + bytes[1] < 300000)
        {
            Ptr<QueueDiscItem> item = q->Dequeue();
            const uint16_t port = PortOf(item);
            const int64_t diff =
                std::abs(static_cast<int64_t>(bytes[0]) - static_cast<int64_t>(bytes[1]));
            // Flow 0 came first: its turn begins a round, both flows having
            // had as many turns, each spending its quanta but for a deficit
            // below one quantum.
            if (port == ports[0] && last == ports[1])
            {
                ++rounds;
                NS_TEST_ASSERT_MSG_LT_OR_EQ(diff, 4200, "equal bytes within one quantum per round");
            }
            NS_TEST_ASSERT_MSG_LT_OR_EQ(diff, 4200 + 4000, "within a quantum and a packet always");
            bytes[port == ports[0] ? 0 : 1] += item->GetSize();
            last = port;
        }
        NS_TEST_ASSERT_MSG_GT(rounds, 30, "the flows took turns");
        q->Dispose();

        // Three flows, quantum = packet size: A B C A B C ...
        q = CreateObject<FluxQueueDisc>();
        q->SetAttribute("Quantum", UintegerValue(1000));
        q->Initialize();
        const std::vector<uint16_t> three = DistinctFlowPorts(16, 3);
        for (uint16_t i = 0; i < 10; ++i)
        {
            for (uint16_t port : three)
            {
                q->Enqueue(MakeItem(2, port, 1000));
            }
        }
        for (uint32_t i = 0; i < 30; ++i)
        {
            Ptr<QueueDiscItem> item = q->Dequeue();
            NS_TEST_ASSERT_MSG_EQ(PortOf(item), three[i % 3], "round robin among three flows");
        }
        q->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * Starvation guard: under a permanent backlog of class 6, class 1 gets
 * MinShare of the bytes (within one packet, and never more) over 1000
 * dequeues, each such
 * service counted and traced as a guard activation; with MinShare = 0 and
 * MaxWait = 0 it gets nothing (strict order); with MaxWait = 10 us a class-1
 * packet leaves at the first dequeue after it has waited more than 10 us.
 */
class FluxQueueDiscGuardTestCase : public TestCase
{
  public:
    FluxQueueDiscGuardTestCase()
        : TestCase("FluxQueueDisc: starvation guard (MinShare credit, MaxWait ageing)")
    {
    }

  private:
    /**
     * \brief Trace sink of GuardActivation.
     * \param cls the class served
     */
    void Guard(uint8_t cls)
    {
        ++m_traced;
    }

    /// Dequeue one item and record when a class-1 item leaves.
    void DequeueOne()
    {
        Ptr<QueueDiscItem> item = m_q->Dequeue();
        if (item && ClassOf(item) == 1 && m_oldServedAt.IsNegative())
        {
            m_oldServedAt = Simulator::Now();
        }
    }

    /**
     * \param minShare attribute MinShare
     * \return bytes of class 1 and of both classes in 1000 dequeues under
     *         a permanent backlog of classes 6 and 1
     */
    std::pair<uint64_t, uint64_t> Backlog(double minShare)
    {
        m_q = MakeQueueDisc(minShare);
        m_traced = 0;
        m_q->TraceConnectWithoutContext("GuardActivation",
                                        MakeCallback(&FluxQueueDiscGuardTestCase::Guard, this));
        for (uint32_t i = 0; i < 1100; ++i)
        {
            m_q->Enqueue(MakeItem(6, 1000, 1000));
            m_q->Enqueue(MakeItem(1, 2000, 1500));
        }
        uint64_t low = 0;
        uint64_t total = 0;
        for (uint32_t i = 0; i < 1000; ++i)
        {
            Ptr<QueueDiscItem> item = m_q->Dequeue();
            total += item->GetSize();
            low += ClassOf(item) == 1 ? item->GetSize() : 0;
        }
        return {low, total};
    }

    void DoRun() override
    {
        for (double share : {0.05, 0.2})
        {
            const auto [low, total] = Backlog(share);
            // The credit left unspent is below one class-1 packet plus the
            // share of the last class-6 packet.
            NS_TEST_ASSERT_MSG_GT_OR_EQ(low + 1500 + share * 1000,
                                        share * total,
                                        "class 1 gets at least MinShare within one packet");
            NS_TEST_ASSERT_MSG_LT_OR_EQ(low, share * total, "and not more (credit never < 0)");
            NS_TEST_ASSERT_MSG_EQ(m_q->GetGuardActivations(1),
                                  m_q->GetClassPacketsServed(1),
                                  "every class-1 service was a guard activation");
            NS_TEST_ASSERT_MSG_EQ(m_traced, m_q->GetGuardActivations(), "each one traced");
            NS_TEST_ASSERT_MSG_EQ(m_q->GetClassBytesServed(1), low, "bytes served per class");
            m_q->Dispose();
        }
        {
            const auto [low, total] = Backlog(0);
            NS_TEST_ASSERT_MSG_EQ(low, 0, "MinShare = 0, MaxWait = 0: strict order");
            NS_TEST_ASSERT_MSG_EQ(total, 1000000, "class 6 sent everything");
            NS_TEST_ASSERT_MSG_EQ(m_q->GetGuardActivations(), 0, "no guard activation");
            m_q->Dispose();
        }

        // Ageing: one class-1 packet at 0, class 6 backlogged, a dequeue
        // every microsecond.
        m_q = MakeQueueDisc(0, MicroSeconds(10));
        m_q->Enqueue(MakeItem(1));
        for (uint32_t i = 0; i < 100; ++i)
        {
            m_q->Enqueue(MakeItem(6));
        }
        m_oldServedAt = Seconds(-1);
        for (uint32_t us = 1; us <= 20; ++us)
        {
            Simulator::Schedule(MicroSeconds(us), &FluxQueueDiscGuardTestCase::DequeueOne, this);
        }
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(m_oldServedAt,
                              MicroSeconds(11),
                              "served at the first dequeue after waiting more than MaxWait");
        NS_TEST_ASSERT_MSG_EQ(m_q->GetGuardActivations(1), 1, "one guard activation");
        m_q->Dispose();
        m_q = nullptr;
    }

    Ptr<FluxQueueDisc> m_q; //!< the queue disc under test
    uint64_t m_traced{0};   //!< GuardActivation trace calls
    Time m_oldServedAt;     //!< when the aged class-1 packet left
};

/**
 * \ingroup flux-tests
 * Per-class ECN: with thresholds on class 3 only, every ECN-capable class-3
 * item leaving more than Kmax bytes behind is marked CE, none leaving at
 * most Kmin, and no class-5 item; non-ECT items are never marked; the
 * attributes set the thresholds of every class.
 */
class FluxQueueDiscEcnTestCase : public TestCase
{
  public:
    FluxQueueDiscEcnTestCase()
        : TestCase("FluxQueueDisc: per-class ECN marking at dequeue")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FluxQueueDisc> q = MakeQueueDisc();
        q->AssignStreams(7);
        q->SetEcnThresholds(3, 2000, 4000, 0.5);
        for (uint32_t i = 0; i < 10; ++i)
        {
            q->Enqueue(MakeItem(3, 1000, 1000, Ipv4Header::ECN_ECT0));
            q->Enqueue(MakeItem(5, 1000, 1000, Ipv4Header::ECN_ECT1));
        }
        uint64_t ce3 = 0;
        while (Ptr<QueueDiscItem> item = q->Dequeue())
        {
            if (ClassOf(item) == 5)
            {
                NS_TEST_ASSERT_MSG_EQ(IsCe(item), false, "class 5 has no thresholds");
                continue;
            }
            const uint32_t left = q->GetClassBytes(3);
            if (left > 4000)
            {
                NS_TEST_ASSERT_MSG_EQ(IsCe(item), true, "beyond Kmax: marked");
            }
            if (left <= 2000)
            {
                NS_TEST_ASSERT_MSG_EQ(IsCe(item), false, "up to Kmin: not marked");
            }
            ce3 += IsCe(item) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_GT_OR_EQ(ce3, 5, "at least the five items beyond Kmax");
        NS_TEST_ASSERT_MSG_EQ(q->GetClassMarks(3), ce3, "marks counted per class");
        NS_TEST_ASSERT_MSG_EQ(q->GetClassMarks(5), 0, "no marks in class 5");
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().nTotalMarkedPackets, ce3, "QueueDisc Mark statistics");

        for (uint32_t i = 0; i < 10; ++i)
        {
            q->Enqueue(MakeItem(3, 1000, 1000, Ipv4Header::ECN_NotECT));
        }
        while (Ptr<QueueDiscItem> item = q->Dequeue())
        {
            NS_TEST_ASSERT_MSG_EQ(IsCe(item), false, "non-ECT items are never marked");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetClassMarks(3), ce3, "no marks counted for non-ECT items");
        q->Dispose();

        // Attributes: every class, step at 1 byte.
        q = CreateObject<FluxQueueDisc>();
        q->SetAttribute("EcnKminBytes", UintegerValue(1));
        q->SetAttribute("EcnKmaxBytes", UintegerValue(1));
        q->Initialize();
        for (uint8_t c : {0, 4})
        {
            q->Enqueue(MakeItem(c, 1000, 1000, Ipv4Header::ECN_ECT0));
            q->Enqueue(MakeItem(c, 1000, 1000, Ipv4Header::ECN_ECT0));
        }
        const bool expected[] = {true, false, true, false};
        for (bool e : expected)
        {
            NS_TEST_ASSERT_MSG_EQ(IsCe(q->Dequeue()), e, "marked while the class holds bytes");
        }
        q->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * Per-flow ECN at dequeue: an ECN-capable item is marked CE exactly when
 * its flow queue still holds FlowEcnBytes and FlowEcnShare times the mean
 * of the class's active flow queues (computed here from what each flow was
 * given and has sent); a flow under the threshold is never marked however
 * full its class; a flow alone in its class is not marked with a share
 * above 1; non-ECT items are never marked; the marks are counted per class
 * apart from the per-class marking's.
 */
class FluxQueueDiscFlowEcnTestCase : public TestCase
{
  public:
    FluxQueueDiscFlowEcnTestCase()
        : TestCase("FluxQueueDisc: per-flow ECN marking at dequeue")
    {
    }

  private:
    /**
     * \brief Queue two flows of one class, dequeue everything and check
     * every item's mark against the rule.
     * \param share attribute FlowEcnShare
     * \param heavy items of the first flow
     * \param light items of the second flow (0: the first is alone)
     * \param ecn the items' ECN codepoint
     * \return the items marked
     */
    uint64_t Drain(double share, uint32_t heavy, uint32_t light, Ipv4Header::EcnType ecn)
    {
        const uint32_t kBytes = 3000;
        const uint32_t size = 1000;
        Ptr<FluxQueueDisc> q = CreateObject<FluxQueueDisc>();
        q->SetAttribute("FlowEcnBytes", UintegerValue(kBytes));
        q->SetAttribute("FlowEcnShare", DoubleValue(share));
        q->SetAttribute("Quantum", UintegerValue(size));
        q->Initialize();
        const std::vector<uint16_t> ports = DistinctFlowPorts(16, 2);
        uint32_t left[2] = {heavy, light};
        for (uint32_t i = 0; i < std::max(heavy, light); ++i)
        {
            for (uint32_t f = 0; f < 2; ++f)
            {
                if (i < left[f])
                {
                    q->Enqueue(MakeItem(4, ports[f], size, ecn));
                }
            }
        }
        uint64_t marked = 0;
        while (Ptr<QueueDiscItem> item = q->Dequeue())
        {
            const uint32_t f = PortOf(item) == ports[0] ? 0 : 1;
            --left[f];
            // the flow still counts among the active ones as its item leaves
            const uint32_t active = 1 + (left[1 - f] > 0 ? 1 : 0);
            const double flowBytes = static_cast<double>(left[f]) * size;
            const bool due = ecn != Ipv4Header::ECN_NotECT && flowBytes >= kBytes &&
                             flowBytes * active >= share * q->GetClassBytes(4);
            NS_TEST_EXPECT_MSG_EQ(IsCe(item), due, "marked exactly when the flow rule says so");
            if (left[f] * size < kBytes)
            {
                NS_TEST_EXPECT_MSG_EQ(IsCe(item), false, "a flow under FlowEcnBytes: never");
            }
            marked += IsCe(item) ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(q->GetFlowMarks(4), marked, "per-flow marks counted per class");
        NS_TEST_EXPECT_MSG_EQ(q->GetClassMarks(4), 0, "no per-class marking configured");
        NS_TEST_EXPECT_MSG_EQ(q->GetStats().GetNMarkedPackets(FluxQueueDisc::FLOW_ECN_MARK),
                              marked,
                              "QueueDisc Mark statistics, by reason");
        q->Dispose();
        return marked;
    }

    void DoRun() override
    {
        // heavy 12 items, light 2: the heavy flow is marked while it holds
        // 3 KB or more (its items 1..9 leave 11..3 KB behind them), the
        // light one never
        NS_TEST_ASSERT_MSG_EQ(Drain(0, 12, 2, Ipv4Header::ECN_ECT0), 9, "nine marks");
        // share 1.5: the heavy flow only while it holds 1.5x the mean
        const uint64_t shared = Drain(1.5, 12, 6, Ipv4Header::ECN_ECT1);
        NS_TEST_ASSERT_MSG_GT(shared, 0, "the heavy flow is marked");
        NS_TEST_ASSERT_MSG_LT(shared, 9, "fewer than by the bytes alone");
        NS_TEST_ASSERT_MSG_EQ(Drain(1.5, 12, 0, Ipv4Header::ECN_ECT0), 0, "a lone flow: never");
        NS_TEST_ASSERT_MSG_EQ(Drain(1, 12, 0, Ipv4Header::ECN_ECT0), 9, "share 1: alone too");
        NS_TEST_ASSERT_MSG_EQ(Drain(0, 12, 2, Ipv4Header::ECN_NotECT), 0, "non-ECT: never");
    }
};

/**
 * \ingroup flux-tests
 * PFC: with class 5 paused, Dequeue serves class 3 although class 5 comes
 * first in the order and holds packets, and Peek shows the same item; with
 * every class paused nothing is served and nothing is lost; unpausing
 * resumes class 5, in FIFO order.
 */
class FluxQueueDiscPfcTestCase : public TestCase
{
  public:
    FluxQueueDiscPfcTestCase()
        : TestCase("FluxQueueDisc: paused classes skipped, Peek agrees with Dequeue")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FluxQueueDisc> q = MakeQueueDisc(0.05);
        for (uint16_t i = 0; i < 3; ++i)
        {
            q->Enqueue(MakeItem(5, 1000, 128, Ipv4Header::ECN_NotECT, i));
            q->Enqueue(MakeItem(3, 1000, 128, Ipv4Header::ECN_NotECT, 10 + i));
        }
        q->SetPausedMask(TrafficClass::Bit(5));
        for (uint16_t i = 0; i < 3; ++i)
        {
            Ptr<const QueueDiscItem> peeked = q->Peek();
            NS_TEST_ASSERT_MSG_NE(peeked, nullptr, "something to peek at");
            Ptr<QueueDiscItem> item = q->Dequeue();
            NS_TEST_ASSERT_MSG_EQ(item, peeked, "Peek shows what Dequeue returns");
            NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 3, "class 3 while class 5 is paused");
            NS_TEST_ASSERT_MSG_EQ(q->GetClassPackets(5), 3, "class 5 keeps its packets");
        }
        NS_TEST_ASSERT_MSG_EQ(q->Peek(), nullptr, "only paused packets: nothing to peek");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "only paused packets: nothing to dequeue");

        q->Enqueue(MakeItem(7, 1000, 128, Ipv4Header::ECN_NotECT, 20));
        q->SetPausedMask(TrafficClass::ALL);
        NS_TEST_ASSERT_MSG_EQ(q->Peek(), nullptr, "all paused: nothing to peek");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "all paused: nothing to dequeue");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 4, "paused packets stay");

        q->SetPausedMask(0);
        const uint16_t expected[] = {20, 0, 1, 2};
        for (uint16_t e : expected)
        {
            Ptr<const QueueDiscItem> peeked = q->Peek();
            Ptr<QueueDiscItem> item = q->Dequeue();
            NS_TEST_ASSERT_MSG_EQ(item, peeked, "Peek shows what Dequeue returns");
            NS_TEST_ASSERT_MSG_EQ(SeqOf(item), e, "control, then class 5 in FIFO order");
        }
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "empty");
        q->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * MaxSize: an item beyond the limit is dropped before enqueue with the
 * reason LIMIT_EXCEEDED_DROP, and the queued ones are kept.
 */
class FluxQueueDiscLimitTestCase : public TestCase
{
  public:
    FluxQueueDiscLimitTestCase()
        : TestCase("FluxQueueDisc: MaxSize drops before enqueue")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<FluxQueueDisc> q = CreateObject<FluxQueueDisc>();
        q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("3p")));
        q->Initialize();
        for (uint8_t c = 0; c < 4; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(q->Enqueue(MakeItem(c)), (c < 3), "three packets fit");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 3, "three queued");
        NS_TEST_ASSERT_MSG_EQ(q->GetStats().GetNDroppedPackets(FluxQueueDisc::LIMIT_EXCEEDED_DROP),
                              1,
                              "one drop, with its reason");
        NS_TEST_ASSERT_MSG_EQ(q->GetClassPackets(3), 0, "the dropped item is not counted");
        q->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * Plain IPv4: installed with TrafficControlHelper on a SimpleNetDevice of
 * a node with the internet stack, the queue disc carries UDP packets of
 * every TOS class to the other node, each class through its own queue.
 */
class FluxQueueDiscPlainIpTestCase : public TestCase
{
  public:
    FluxQueueDiscPlainIpTestCase()
        : TestCase("FluxQueueDisc: plain IPv4 over TrafficControlHelper")
    {
    }

  private:
    /**
     * \brief Receive callback.
     * \param socket the receiving socket
     */
    void Receive(Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            ++m_received;
        }
    }

    /**
     * \brief Send one packet of a class.
     * \param cls the class
     */
    void Send(uint8_t cls)
    {
        m_tx->SetIpTos(static_cast<uint8_t>(TrafficClass::ToDscp(cls) << 2));
        m_tx->Send(Create<Packet>(200));
    }

    void DoRun() override
    {
        NodeContainer nodes(2);
        SimpleNetDeviceHelper simple;
        NetDeviceContainer devices = simple.Install(nodes);
        InternetStackHelper internet;
        internet.Install(nodes);
        TrafficControlHelper tch;
        tch.SetRootQueueDisc("ns3::FluxQueueDisc");
        QueueDiscContainer qdiscs = tch.Install(devices.Get(0));
        Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);

        Ptr<Socket> rx = Socket::CreateSocket(nodes.Get(1), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9000));
        rx->SetRecvCallback(MakeCallback(&FluxQueueDiscPlainIpTestCase::Receive, this));
        m_tx = Socket::CreateSocket(nodes.Get(0), UdpSocketFactory::GetTypeId());
        m_tx->Bind();
        m_tx->Connect(InetSocketAddress(interfaces.GetAddress(1), 9000));
        // Class 0 starts ARP (its request waits up to 10 ms), the others follow.
        Simulator::Schedule(MilliSeconds(1), &FluxQueueDiscPlainIpTestCase::Send, this, 0);
        for (uint8_t c = 1; c < TrafficClass::N_CLASSES; ++c)
        {
            Simulator::Schedule(MilliSeconds(20 + c), &FluxQueueDiscPlainIpTestCase::Send, this, c);
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        Ptr<FluxQueueDisc> q = DynamicCast<FluxQueueDisc>(qdiscs.Get(0));
        NS_TEST_ASSERT_MSG_NE(q, nullptr, "a FluxQueueDisc on the device");
        NS_TEST_ASSERT_MSG_EQ(m_received, TrafficClass::N_CLASSES, "every packet delivered");
        for (uint8_t c = 1; c < TrafficClass::N_CLASSES; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(q->GetClassPacketsServed(c), 1, "one packet through each class");
        }
        // Class 0 also carried the ARP request.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(q->GetClassPacketsServed(0), 1, "class 0 served");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 0, "nothing left");
        m_tx = nullptr;
        Simulator::Destroy();
    }

    Ptr<Socket> m_tx;       //!< the sending socket
    uint32_t m_received{0}; //!< packets received
};

/**
 * \ingroup flux-tests
 * Direct path: a queue disc on PfcAwareQueueDisc's direct path (as on a
 * switch port) serves the same items in the same order as one on ns-3's
 * path, with the same drops, marks and guard activations, through ordering,
 * DRR, both guards, per-class ECN, PFC pauses and a full queue; QueueDisc's
 * own counters stay at zero on the direct path.
 */
class FluxQueueDiscDirectTestCase : public TestCase
{
  public:
    FluxQueueDiscDirectTestCase()
        : TestCase("FluxQueueDisc: the direct path serves as the ns-3 path does")
    {
    }

  private:
    /**
     * \param direct whether to take the direct path
     * \return an initialised queue disc with both guards, ECN on class 3, a
     *         class order and a small size limit
     */
    Ptr<FluxQueueDisc> Make(bool direct)
    {
        Ptr<FluxQueueDisc> q = CreateObject<FluxQueueDisc>();
        q->SetAttribute("MinShare", DoubleValue(0.1));
        q->SetAttribute("MaxWait", TimeValue(MicroSeconds(30)));
        q->SetAttribute("MaxSize", QueueSizeValue(QueueSize("60p")));
        q->SetAttribute("FlowsPerClass", UintegerValue(4));
        q->SetEcnThresholds(3, 4000, 20000, 0.5);
        q->SetClassOrder({2, 5, 3});
        q->AssignStreams(7);
        if (direct)
        {
            NS_TEST_EXPECT_MSG_EQ(q->StartDirect(), true, "the direct path is taken");
        }
        q->TraceConnectWithoutContext(
            "Drop",
            MakeCallback(&FluxQueueDiscDirectTestCase::Dropped, this).Bind(direct));
        q->Initialize();
        return q;
    }

    /**
     * \brief Count a drop.
     * \param direct which queue disc
     * \param item the item
     */
    void Dropped(bool direct, Ptr<const QueueDiscItem> item)
    {
        ++m_drops[direct];
    }

    /// One step: the same arrivals and dequeues at both queue discs.
    void Step()
    {
        // a fixed pseudo-random sequence (a linear congruential generator)
        auto next = [this](uint32_t n) {
            m_state = m_state * 1103515245u + 12345u;
            return (m_state >> 16) % n;
        };
        const uint32_t arrivals = next(5);
        for (uint32_t i = 0; i < arrivals; ++i)
        {
            const auto cls = static_cast<uint8_t>(next(8));
            const auto port = static_cast<uint16_t>(1000 + next(12));
            const uint32_t size = 200 + next(4000);
            const auto ecn = next(2) ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
            m_ns3->Enqueue(MakeItem(cls, port, size, ecn, m_seq));
            m_direct->EnqueueDirect(MakeItem(cls, port, size, ecn, m_seq));
            ++m_seq;
        }
        const auto paused = static_cast<uint8_t>(next(4) == 0 ? 1u << next(8) : 0);
        m_ns3->SetPausedMask(paused);
        m_direct->SetPausedMask(paused);
        const uint32_t dequeues = next(4);
        for (uint32_t i = 0; i < dequeues; ++i)
        {
            Ptr<const QueueDiscItem> peeked = m_direct->Peek();
            Ptr<QueueDiscItem> a = m_ns3->Dequeue();
            Ptr<QueueDiscItem> b = m_direct->DequeueDirect();
            NS_TEST_EXPECT_MSG_EQ(b, peeked, "Peek shows what the direct path returns");
            NS_TEST_EXPECT_MSG_EQ((a == nullptr), (b == nullptr), "both serve or neither");
            if (a && b)
            {
                ++m_served;
                NS_TEST_EXPECT_MSG_EQ(SeqOf(a), SeqOf(b), "the same item");
                NS_TEST_EXPECT_MSG_EQ(EcnOf(a), EcnOf(b), "the same marking");
            }
        }
    }

    void DoRun() override
    {
        m_ns3 = Make(false);
        m_direct = Make(true);
        for (uint32_t t = 0; t < 4000; ++t)
        {
            Simulator::Schedule(MicroSeconds(t), &FluxQueueDiscDirectTestCase::Step, this);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_GT(m_served, 3000, "most steps served something");
        NS_TEST_ASSERT_MSG_GT(m_drops[false], 0, "the size limit was reached");
        NS_TEST_ASSERT_MSG_EQ(m_drops[true], m_drops[false], "the same drops");
        NS_TEST_ASSERT_MSG_GT(m_ns3->GetClassMarks(3), 0, "class 3 marked");
        NS_TEST_ASSERT_MSG_GT(m_ns3->GetGuardActivations(), 0, "the guards acted");
        for (uint8_t c = 0; c < TrafficClass::N_CLASSES; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(m_direct->GetClassPackets(c), m_ns3->GetClassPackets(c), "held");
            NS_TEST_ASSERT_MSG_EQ(m_direct->GetClassMarks(c), m_ns3->GetClassMarks(c), "marks");
            NS_TEST_ASSERT_MSG_EQ(m_direct->GetGuardActivations(c),
                                  m_ns3->GetGuardActivations(c),
                                  "guard activations");
        }
        uint32_t held = 0;
        for (uint8_t c = 0; c < TrafficClass::N_CLASSES; ++c)
        {
            held += m_ns3->GetClassPackets(c);
        }
        NS_TEST_ASSERT_MSG_EQ(m_ns3->GetNPackets(), held, "the ns-3 path counts what it holds");
        NS_TEST_ASSERT_MSG_EQ(m_direct->GetHeldPackets(), held, "the direct path counts it too");
        NS_TEST_ASSERT_MSG_EQ(m_direct->GetNPackets(), 0, "QueueDisc's counters stay silent");
        NS_TEST_ASSERT_MSG_EQ(m_direct->GetNInternalQueues(), 0, "no internal queue");
        m_ns3->Dispose();
        m_direct->Dispose();
        Simulator::Destroy();
    }

    Ptr<FluxQueueDisc> m_ns3;          //!< on ns-3's path
    Ptr<FluxQueueDisc> m_direct;       //!< on the direct path
    uint32_t m_state{1};               //!< the generator's state
    uint16_t m_seq{0};                 //!< next identification number
    uint32_t m_served{0};              //!< items both served
    std::array<uint32_t, 2> m_drops{}; //!< drops, by path (direct: 1)
};

/**
 * \ingroup flux-tests
 * The FluxQueueDisc test suite.
 */
class FluxQueueDiscTestSuite : public TestSuite
{
  public:
    FluxQueueDiscTestSuite()
        : TestSuite("flux-queue-disc")
    {
        AddTestCase(new FluxQueueDiscOrderTestCase);
        AddTestCase(new FluxQueueDiscDrrTestCase);
        AddTestCase(new FluxQueueDiscGuardTestCase);
        AddTestCase(new FluxQueueDiscEcnTestCase);
        AddTestCase(new FluxQueueDiscFlowEcnTestCase);
        AddTestCase(new FluxQueueDiscPfcTestCase);
        AddTestCase(new FluxQueueDiscLimitTestCase);
        AddTestCase(new FluxQueueDiscPlainIpTestCase);
        AddTestCase(new FluxQueueDiscDirectTestCase);
    }
};

static FluxQueueDiscTestSuite g_fluxQueueDiscTestSuite; //!< Static variable for test initialization
