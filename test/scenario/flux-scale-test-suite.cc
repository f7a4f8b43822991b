/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The structures that keep large fabrics small and fast: the switch's
 * compact ECMP route table, the one-queue strict-priority bands, the
 * link and IPv4 headers written and read as one, the
 * device's allocation-free FIFO, the link's reusable arrival events (many
 * frames in flight, in order, both ways), the per-frame traces that fire
 * once a sink is connected, and the runner's event schedulers (every one
 * gives the same results).
 */

#include "../fabric-test-traffic.h"

#include "ns3/compact-fifo.h"
#include "ns3/core-module.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ecmp-route-table.h"
#include "ns3/ethernet-ipv4-header.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/network-module.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/pfc-band-queue.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/pfc-prio-queue-disc.h"
#include "ns3/results-writer.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <deque>
#include <map>
#include <random>
#include <set>
#include <utility>

using namespace ns3;
using namespace ns3::fluxtest;

/**
 * \ingroup flux-tests
 * EcmpRouteTable behaves as a map from address to group number under random
 * Set, erase and clear, for addresses inside the dense array (consecutive
 * host addresses, also below the first one routed) and far outside it (the
 * hash map), group numbers 0 and the largest included.
 */
class EcmpRouteTableTestCase : public TestCase
{
  public:
    EcmpRouteTableTestCase()
        : TestCase("EcmpRouteTable: a map of address to group number")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint32_t> groups = {0, 1, 2, 3, 7, EcmpRouteTable::MAX_GROUP};
        const uint32_t base = Ipv4Address("10.0.0.1").Get();
        // Probes: hosts 10.0.0.1 .. 10.0.1.44, a few below them, and far away.
        std::vector<uint32_t> addresses;
        for (uint32_t i = 0; i < 300; ++i)
        {
            addresses.push_back(base + i);
        }
        for (uint32_t far : {Ipv4Address("10.0.0.0").Get() - 5,
                             Ipv4Address("192.168.1.1").Get(),
                             Ipv4Address("1.2.3.4").Get(),
                             base + (1u << 23)})
        {
            addresses.push_back(far);
        }
        std::mt19937 rng(7);
        EcmpRouteTable table;
        std::map<uint32_t, uint32_t> reference;
        NS_TEST_ASSERT_MSG_EQ((table.find(base) == table.end()), true, "empty table: no route");
        // Start in the middle so that later addresses below the first grow
        // the array downwards.
        table.Set(base + 150, groups[2]);
        reference[base + 150] = groups[2];
        for (int op = 0; op < 5000; ++op)
        {
            const uint32_t dst = addresses[rng() % addresses.size()];
            const uint32_t r = rng() % 20;
            if (r == 0)
            {
                table.erase(dst);
                reference.erase(dst);
            }
            else if (op == 2500)
            {
                table.clear();
                reference.clear();
            }
            else
            {
                const uint32_t g = groups[r % groups.size()];
                table.Set(dst, g);
                reference[dst] = g;
            }
            if (op % 97 == 0 || op > 4900)
            {
                NS_TEST_ASSERT_MSG_EQ(table.size(), reference.size(), "same number of routes");
                for (uint32_t a : addresses)
                {
                    auto it = table.find(a);
                    auto ref = reference.find(a);
                    NS_TEST_ASSERT_MSG_EQ((it == table.end()),
                                          (ref == reference.end()),
                                          "route present iff set, address " << a);
                    if (ref != reference.end())
                    {
                        NS_TEST_ASSERT_MSG_EQ(it->second,
                                              ref->second,
                                              "the group set, address " << a);
                        NS_TEST_ASSERT_MSG_EQ(it->first, a, "the route's address");
                    }
                }
            }
        }
    }
};

/**
 * \ingroup flux-tests
 * CompactFifo keeps first-in first-out order through random pushes and pops
 * (including the moves that reclaim consumed space) and releases an element
 * when it is popped.
 */
class CompactFifoTestCase : public TestCase
{
  public:
    CompactFifoTestCase()
        : TestCase("CompactFifo: FIFO order, popped elements released")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(3);
        CompactFifo<uint32_t> fifo;
        std::deque<uint32_t> reference;
        NS_TEST_ASSERT_MSG_EQ(fifo.empty(), true, "new: empty");
        uint32_t next = 0;
        for (int op = 0; op < 20000; ++op)
        {
            // bursts of pushes, then of pops, so that the queue grows and drains
            const bool push = ((op / 300) % 2 == 0) ? (rng() % 4 != 0) : (rng() % 4 == 0);
            if (push)
            {
                fifo.push_back(next);
                reference.push_back(next++);
            }
            else if (!reference.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(fifo.front(), reference.front(), "FIFO order");
                fifo.pop_front();
                reference.pop_front();
            }
            NS_TEST_ASSERT_MSG_EQ(fifo.size(), reference.size(), "same size");
            NS_TEST_ASSERT_MSG_EQ(fifo.empty(), reference.empty(), "same emptiness");
            if (!reference.empty())
            {
                const std::size_t i = rng() % reference.size();
                NS_TEST_ASSERT_MSG_EQ(fifo[i], reference[i], "same element at a position");
            }
        }
        CompactFifo<uint32_t> other;
        other.push_back(7);
        const std::size_t before = fifo.size();
        fifo.swap(other);
        NS_TEST_ASSERT_MSG_EQ(fifo.size(), 1, "swapped: the other's one element");
        NS_TEST_ASSERT_MSG_EQ(fifo.front(), 7, "swapped: the other's element");
        NS_TEST_ASSERT_MSG_EQ(other.size(), before, "swapped: this one's elements");
        if (before > 0)
        {
            NS_TEST_ASSERT_MSG_EQ(other.front(), reference.front(), "swapped: oldest first");
        }
        CompactFifo<Ptr<Packet>> packets;
        Ptr<Packet> p = Create<Packet>(10);
        packets.push_back(p);
        packets.push_back(Create<Packet>(20));
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 2, "queued: one more reference");
        packets.pop_front();
        NS_TEST_ASSERT_MSG_EQ(p->GetReferenceCount(), 1, "popped: the queue lets go");
        packets.clear();
        NS_TEST_ASSERT_MSG_EQ(packets.empty(), true, "cleared");
    }
};

/**
 * \ingroup flux-tests
 * PfcBandQueue serves bands in strict priority and each band in FIFO order,
 * with exact per-band and total counts, under random enqueues and dequeues
 * at named bands, at the highest band and by Remove(); PfcPrioQueueDisc uses
 * one such queue by default and behaves the same with eight DropTail queues
 * given before initialisation.
 */
class PfcBandQueueTestCase : public TestCase
{
  public:
    PfcBandQueueTestCase()
        : TestCase("PfcBandQueue: strict priority, FIFO per band, exact counts")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PfcBandQueue> q = CreateObject<PfcBandQueue>();
        q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 100000));
        std::array<std::deque<uint16_t>, PfcBandQueue::N_BANDS> bands;
        std::mt19937 rng(11);
        uint16_t seq = 0;
        uint32_t bytes = 0;
        for (int op = 0; op < 6000; ++op)
        {
            const uint32_t r = rng() % 10;
            if (r < 5)
            {
                const uint8_t band = rng() % PfcBandQueue::N_BANDS;
                const uint32_t size = 100 + rng() % 1400;
                Ptr<QueueDiscItem> item = MakeItem(band, 1000, size, Ipv4Header::ECN_NotECT, seq);
                // Enqueue() classifies by the DS field; EnqueueBand() is told.
                const bool ok = (r == 0) ? q->Enqueue(item) : q->EnqueueBand(band, item);
                NS_TEST_ASSERT_MSG_EQ(ok, true, "enqueued");
                bands[band].push_back(seq++);
                bytes += size;
            }
            else
            {
                // The highest non-empty band, or a named one.
                int band = -1;
                for (int b = PfcBandQueue::N_BANDS - 1; b >= 0 && band < 0; --b)
                {
                    band = bands[b].empty() ? -1 : b;
                }
                Ptr<QueueDiscItem> item;
                if (r < 8)
                {
                    Ptr<const QueueDiscItem> peeked = q->Peek();
                    item = r == 5 ? q->Remove() : q->Dequeue();
                    NS_TEST_ASSERT_MSG_EQ(item, peeked, "Peek shows the next item");
                }
                else
                {
                    band = rng() % PfcBandQueue::N_BANDS;
                    Ptr<const QueueDiscItem> peeked = q->PeekBand(band);
                    item = q->DequeueBand(band);
                    NS_TEST_ASSERT_MSG_EQ(item, peeked, "PeekBand shows the band's next item");
                    band = bands[band].empty() ? -1 : band;
                }
                NS_TEST_ASSERT_MSG_EQ((item == nullptr), (band < 0), "an item iff band non-empty");
                if (item)
                {
                    NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), band, "from the expected band");
                    const uint16_t id =
                        DynamicCast<Ipv4QueueDiscItem>(item)->GetHeader().GetIdentification();
                    NS_TEST_ASSERT_MSG_EQ(id, bands[band].front(), "FIFO within the band");
                    bands[band].pop_front();
                    bytes -= item->GetSize();
                }
            }
            uint32_t total = 0;
            uint8_t mask = 0;
            for (uint8_t b = 0; b < PfcBandQueue::N_BANDS; ++b)
            {
                NS_TEST_ASSERT_MSG_EQ(q->GetBandPackets(b), bands[b].size(), "band count");
                total += bands[b].size();
                mask |= bands[b].empty() ? 0 : (1u << b);
            }
            NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), total, "total count");
            NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), bytes, "total bytes");
            NS_TEST_ASSERT_MSG_EQ(+q->GetNonEmptyMask(), +mask, "non-empty mask");
        }
        uint32_t bandBytes = 0;
        for (uint8_t b = 0; b < PfcBandQueue::N_BANDS; ++b)
        {
            bandBytes += q->GetBandBytes(b);
        }
        NS_TEST_ASSERT_MSG_EQ(bandBytes, bytes, "band bytes add up");

        // PfcPrioQueueDisc: one band queue by default, or eight given queues.
        for (bool eightQueues : {false, true})
        {
            Ptr<PfcPrioQueueDisc> qd = CreateObject<PfcPrioQueueDisc>();
            if (eightQueues)
            {
                for (uint8_t b = 0; b < PfcPrioQueueDisc::N_BANDS; ++b)
                {
                    Ptr<QueueDisc::InternalQueue> dt = CreateObject<DropTailQueue<QueueDiscItem>>();
                    dt->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 1000));
                    qd->AddInternalQueue(dt);
                }
            }
            qd->Initialize();
            NS_TEST_ASSERT_MSG_EQ(qd->GetNInternalQueues(),
                                  (eightQueues ? 8 : 1),
                                  "internal queues of the chosen layout");
            const uint8_t prios[] = {0, 3, 7, 3, 5, 0, 7};
            for (uint16_t i = 0; i < 7; ++i)
            {
                qd->Enqueue(MakeItem(prios[i], 1000, 200, Ipv4Header::ECN_NotECT, i));
            }
            NS_TEST_ASSERT_MSG_EQ(qd->GetBandPackets(7), 2, "two in band 7");
            NS_TEST_ASSERT_MSG_EQ(qd->GetBandBytes(3), 400, "400 bytes in band 3");
            qd->SetPausedMask(1u << 7);
            std::vector<uint16_t> order;
            for (Ptr<QueueDiscItem> item = qd->Dequeue(); item; item = qd->Dequeue())
            {
                order.push_back(
                    DynamicCast<Ipv4QueueDiscItem>(item)->GetHeader().GetIdentification());
            }
            const std::vector<uint16_t> expected = {4, 1, 3, 0, 5};
            NS_TEST_ASSERT_MSG_EQ((order == expected), true, "5, 3, 3, 0, 0 with 7 paused");
            NS_TEST_ASSERT_MSG_EQ(qd->GetNPackets(), 2, "the paused band stays");
            qd->SetPausedMask(0);
            NS_TEST_ASSERT_MSG_EQ(
                DynamicCast<Ipv4QueueDiscItem>(qd->Dequeue())->GetHeader().GetIdentification(),
                2,
                "band 7 once resumed, FIFO");
            qd->Dispose();
        }
    }
};

/**
 * \brief Join the two nodes of a container with a PfcChannel.
 * \param nodes two nodes
 * \param ch the channel
 * \return the device of the first node and that of the second
 */
static std::pair<Ptr<PfcNetDevice>, Ptr<PfcNetDevice>>
LinkTwoNodes(const NodeContainer& nodes, Ptr<PfcChannel> ch)
{
    Ptr<PfcNetDevice> a = CreateObject<PfcNetDevice>();
    Ptr<PfcNetDevice> b = CreateObject<PfcNetDevice>();
    nodes.Get(0)->AddDevice(a);
    nodes.Get(1)->AddDevice(b);
    a->Attach(ch);
    b->Attach(ch);
    return {a, b};
}

/**
 * \ingroup flux-tests
 * The end of a frame is an event only when something waits for the line:
 * frames sent one at a time cost one arrival each and no end; frames queued
 * together, or one sent while another is on the line, still leave back to
 * back at the line rate.
 */
class FrameEndTestCase : public TestCase
{
  public:
    FrameEndTestCase()
        : TestCase("PfcNetDevice: a frame's end is an event only when a frame waits")
    {
    }

  private:
    /// Records when packets arrive.
    struct Arrivals : public PfcIpv4Receiver
    {
        void ReceiveIpv4(Ptr<PfcNetDevice>, Ptr<Packet>, Ipv4Header&, uint8_t) override
        {
            at.push_back(Simulator::Now());
        }

        std::vector<Time> at; //!< arrival times
    };

    /**
     * \brief Send n IPv4 packets of 1000 bytes through the device's Send().
     * \param dev the device
     * \param n how many
     */
    static void SendPackets(Ptr<PfcNetDevice> dev, uint32_t n)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            Ptr<Packet> p = Create<Packet>(980);
            Ipv4Header ip;
            ip.SetPayloadSize(980);
            ip.SetProtocol(17);
            ip.SetSource(Ipv4Address("10.0.0.1"));
            ip.SetDestination(Ipv4Address("10.0.0.2"));
            p->AddHeader(ip);
            dev->Send(p, dev->GetBroadcast(), 0x0800);
        }
    }

    /**
     * \brief Run sends at the given times (n packets each) over a fresh link.
     * \param sends (time, packets) pairs
     * \param[out] events the events the simulator ran
     * \param[out] txTime the time one frame takes on the line
     * \return the arrival times
     */
    static std::vector<Time> Run(const std::vector<std::pair<Time, uint32_t>>& sends,
                                 uint64_t& events,
                                 Time& txTime)
    {
        NodeContainer nodes(2);
        auto [a, b] = LinkTwoNodes(nodes, CreateObject<PfcChannel>());
        Arrivals arrivals;
        b->SetIpv4Receiver(&arrivals);
        for (const auto& [at, n] : sends)
        {
            Simulator::Schedule(at, &FrameEndTestCase::SendPackets, a, n);
        }
        Simulator::Run();
        events = Simulator::GetEventCount();
        txTime = a->GetFrameTxTime(1000 + 18); // IPv4 packet, Ethernet and 802.1Q
        b->SetIpv4Receiver(nullptr);
        Simulator::Destroy();
        return arrivals.at;
    }

    void DoRun() override
    {
        uint64_t events = 0;
        Time tx;
        const Time delay = MicroSeconds(1); // PfcChannel's default
        uint64_t setup = 0;                 // the events of an idle link (the nodes' start)
        Run({}, setup, tx);
        // one at a time: a send and an arrival per frame, no frame end
        std::vector<std::pair<Time, uint32_t>> spaced;
        for (int i = 0; i < 5; ++i)
        {
            spaced.emplace_back(MicroSeconds(10 * i), 1);
        }
        std::vector<Time> at = Run(spaced, events, tx);
        NS_TEST_ASSERT_MSG_EQ(at.size(), 5, "every frame arrived");
        NS_TEST_ASSERT_MSG_EQ(events - setup, 10, "5 sends and 5 arrivals, no frame end");
        for (int i = 0; i < 5; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(at[i],
                                      MicroSeconds(10 * i) + tx + delay,
                                      NanoSeconds(1),
                                      "on time");
        }

        // five at once: back to back, four frame ends (none after the last)
        at = Run({{Seconds(0), 5}}, events, tx);
        NS_TEST_ASSERT_MSG_EQ(at.size(), 5, "every frame arrived");
        NS_TEST_ASSERT_MSG_EQ(events - setup, 10, "1 send, 4 frame ends, 5 arrivals");
        Time ideal = delay;
        for (int i = 0; i < 5; ++i)
        {
            // (at most a nanosecond off: sub-resolution remainders carry over)
            ideal += tx;
            NS_TEST_ASSERT_MSG_EQ_TOL(at[i], ideal, NanoSeconds(1), "back to back, frame " << i);
        }

        // one sent while another is on the line: it waits for that frame's end
        at = Run({{Seconds(0), 1}, {TimeStep(tx.GetTimeStep() / 2), 1}}, events, tx);
        NS_TEST_ASSERT_MSG_EQ(at.size(), 2, "both frames arrived");
        NS_TEST_ASSERT_MSG_EQ(events - setup, 5, "2 sends, 1 frame end, 2 arrivals");
        NS_TEST_ASSERT_MSG_EQ_TOL(at[1], at[0] + tx, NanoSeconds(1), "right after the first");
    }
};

/**
 * \ingroup flux-tests
 * Received IPv4 packets go to the device's PfcIpv4Receiver when it has one,
 * else to its Ipv4RxCallback, else to its RxCallback; each frame to exactly
 * one of them.
 */
class Ipv4ReceiverTestCase : public TestCase
{
  public:
    Ipv4ReceiverTestCase()
        : TestCase("PfcNetDevice: receiver, then IPv4 callback, then receive callback")
    {
    }

  private:
    /// Counts what it receives.
    struct Counter : public PfcIpv4Receiver
    {
        void ReceiveIpv4(Ptr<PfcNetDevice>, Ptr<Packet>, Ipv4Header& ip, uint8_t) override
        {
            ++packets;
            lastDestination = ip.GetDestination();
        }

        uint64_t packets{0};         //!< packets received
        Ipv4Address lastDestination; //!< destination of the last one
    };

    static void CountIpv4(uint64_t* n, Ptr<PfcNetDevice>, Ptr<Packet>, Ipv4Header&, uint8_t)
    {
        ++*n;
    }

    /// Send 10 frames from a to b and run until they arrived.
    static void SendTen(Ptr<TrafficEgress> egress, const Ipv4Address& to, uint16_t flow)
    {
        egress->AddFlow(to, flow, 10);
        egress->Start(Simulator::Now());
        Simulator::Run();
    }

    void DoRun() override
    {
        NodeContainer nodes(2);
        auto [a, b] = LinkTwoNodes(nodes, CreateObject<PfcChannel>());
        const Ipv4Address ipB("10.0.0.2");
        Ptr<TrafficEgress> egress = CreateObject<TrafficEgress>(a, Ipv4Address("10.0.0.1"), 1000);
        Ptr<TrafficSink> sink = Create<TrafficSink>(b, ipB); // the RxCallback
        uint64_t viaCallback = 0;
        b->SetIpv4RxCallback(MakeBoundCallback(&CountIpv4, &viaCallback));
        Counter receiver;
        b->SetIpv4Receiver(&receiver);

        SendTen(egress, ipB, 1);
        NS_TEST_ASSERT_MSG_EQ(receiver.packets, 10, "the receiver takes every packet");
        NS_TEST_ASSERT_MSG_EQ(receiver.lastDestination, ipB, "with its IPv4 header");
        NS_TEST_ASSERT_MSG_EQ(viaCallback + sink->m_packets, 0, "and nothing else does");

        b->SetIpv4Receiver(nullptr);
        SendTen(egress, ipB, 2);
        NS_TEST_ASSERT_MSG_EQ(viaCallback, 10, "no receiver: the IPv4 callback");
        NS_TEST_ASSERT_MSG_EQ(receiver.packets + sink->m_packets, 10, "only it");

        b->SetIpv4RxCallback(PfcNetDevice::Ipv4RxCallback());
        SendTen(egress, ipB, 3);
        NS_TEST_ASSERT_MSG_EQ(sink->m_packets, 10, "neither: the receive callback");
        NS_TEST_ASSERT_MSG_EQ(viaCallback + receiver.packets, 20, "only it");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * A long link keeps many frames in flight at once in both directions; every
 * frame arrives, once, in order, after its serialisation and propagation
 * time (the link reuses its arrival events), and per-frame traces connected
 * in the middle of the run see exactly the frames sent and received after
 * that.
 */
class LinkInFlightTestCase : public TestCase
{
  public:
    LinkInFlightTestCase()
        : TestCase("PfcChannel: many frames in flight both ways, in order; late trace sinks")
    {
    }

  private:
    /// Count a frame.
    static void Count(uint64_t* n, Ptr<const Packet>)
    {
        ++*n;
    }

    /// Connect the traces of device a and b.
    void ConnectTraces(Ptr<PfcNetDevice> a, Ptr<PfcNetDevice> b)
    {
        a->TraceConnectWithoutContext("MacTx", MakeBoundCallback(&Count, &m_txAfter));
        b->TraceConnectWithoutContext("MacRx", MakeBoundCallback(&Count, &m_rxAfter));
        b->TraceConnectWithoutContext("PromiscSniffer", MakeBoundCallback(&Count, &m_sniffedAfter));
        m_sentAt = m_egressA->GetSentPackets();
        m_sentAtB = m_egressB->GetSentPackets();
        m_receivedAt = m_sinkB->m_packets;
    }

    void DoRun() override
    {
        NodeContainer nodes(2);
        // 100 Gb/s, 50 us: about 150 frames of 4 KB on the wire each way.
        auto [a, b] = LinkTwoNodes(
            nodes,
            CreateObjectWithAttributes<PfcChannel>("Delay", TimeValue(MicroSeconds(50))));
        // Addresses after attaching: the frames must carry the peer's.
        a->SetAddress(Mac48Address("00:00:00:00:00:0a"));
        b->SetAddress(Mac48Address("00:00:00:00:00:0b"));
        const Ipv4Address ipA("10.0.0.1");
        const Ipv4Address ipB("10.0.0.2");
        m_egressA = CreateObject<TrafficEgress>(a, ipA, 4000);
        m_egressB = CreateObject<TrafficEgress>(b, ipB, 1000);
        m_egressA->AddFlow(ipB, 1, 600);
        m_egressA->AddFlow(ipB, 2, 400, 5);
        m_egressB->AddFlow(ipA, 3, 900);
        m_sinkB = Create<TrafficSink>(b, ipB);
        Ptr<TrafficSink> sinkA = Create<TrafficSink>(a, ipA);
        uint64_t destOk = 0;
        b->TraceConnectWithoutContext("Sniffer", MakeBoundCallback(&CheckDest, &destOk));
        m_egressA->Start(Seconds(0));
        m_egressB->Start(MicroSeconds(3));
        Simulator::Schedule(MicroSeconds(120), &LinkInFlightTestCase::ConnectTraces, this, a, b);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(m_sinkB->m_packets, 1000, "every frame A sent arrived");
        NS_TEST_ASSERT_MSG_EQ(sinkA->m_packets, 900, "every frame B sent arrived");
        NS_TEST_ASSERT_MSG_EQ(m_sinkB->m_reordered + sinkA->m_reordered, 0, "in order");
        NS_TEST_ASSERT_MSG_EQ(m_sinkB->GetFlow(ipA, 2).packets, 400, "second flow complete");
        // 1000 frames of 4000 B + 48 B headers + 24 B wire overhead, then 50 us.
        const double frameS = (4000 + 28 + 18 + 24) * 8 / 100e9;
        NS_TEST_ASSERT_MSG_EQ_TOL(m_sinkB->m_lastRx.GetSeconds(),
                                  1000 * frameS + 50e-6,
                                  1e-9,
                                  "last arrival after 1000 frame times and the delay");
        NS_TEST_ASSERT_MSG_GT(m_sentAt, 0, "traces connected while A was sending");
        NS_TEST_ASSERT_MSG_EQ(m_txAfter, 1000 - m_sentAt, "MacTx: every frame sent since");
        NS_TEST_ASSERT_MSG_EQ(m_rxAfter, 1000 - m_receivedAt, "MacRx: every frame received since");
        NS_TEST_ASSERT_MSG_EQ(m_sniffedAfter,
                              (1000 - m_receivedAt) + (900 - m_sentAtB),
                              "PromiscSniffer: B's frames received and sent since");
        NS_TEST_ASSERT_MSG_EQ(destOk, 1000 + 900, "Sniffer: the right MAC on every frame");
        Simulator::Destroy();
    }

    /// Check the MACs of a frame seen by B's sniffer: A to B or B to A.
    static void CheckDest(uint64_t* ok, Ptr<const Packet> frame)
    {
        uint8_t mac[12];
        frame->CopyData(mac, 12);
        const bool zeros = mac[0] == 0 && mac[4] == 0 && mac[6] == 0 && mac[10] == 0;
        if (zeros && ((mac[5] == 0x0b && mac[11] == 0x0a) || (mac[5] == 0x0a && mac[11] == 0x0b)))
        {
            ++*ok;
        }
    }

    Ptr<TrafficEgress> m_egressA; //!< A's traffic
    Ptr<TrafficEgress> m_egressB; //!< B's traffic
    Ptr<TrafficSink> m_sinkB;     //!< B's receiver
    uint64_t m_sentAt{0};         //!< frames A had sent when the traces were connected
    uint64_t m_sentAtB{0};        //!< frames B had sent then
    uint64_t m_receivedAt{0};     //!< frames B had received then
    uint64_t m_txAfter{0};        //!< A's MacTx since
    uint64_t m_rxAfter{0};        //!< B's MacRx since
    uint64_t m_sniffedAfter{0};   //!< B's PromiscSniffer since
};

/**
 * \ingroup flux-tests
 * The event scheduler is a matter of speed only: a multi-job scenario with
 * background traffic gives the same results (every field but the wall
 * time) with each of the runner's schedulers that keep ns-3's order of
 * simultaneous events, and the same results twice with "ordered"; an
 * unknown one is refused.
 */
class EventSchedulerTestCase : public TestCase
{
  public:
    EventSchedulerTestCase()
        : TestCase("event_scheduler: same results with every order-keeping scheduler")
    {
    }

  private:
    void DoRun() override
    {
        const std::string text = R"({
          "seed": 3, "stop_ms": 20,
          "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                       "fabric_gbps": 50},
          "jobs": [{"name": "a", "ranks": 4, "placement": "spread", "bytes": 400000,
                    "iterations": 2},
                   {"name": "b", "ranks": 4, "placement": "packed", "bytes": 300000,
                    "iterations": 2, "start_ms": 0.1}],
          "background": [{"name": "rpc", "cdf": "websearch", "load": 0.2}]
        })";
        std::string first;
        for (const std::string& name : ScenarioConfig::AvailableEventSchedulers())
        {
            nlohmann::json j = ParseScenarioText(text, "test");
            j["event_scheduler"] = name;
            ScenarioConfig cfg = ParseScenario(j, ".");
            NS_TEST_ASSERT_MSG_EQ(cfg.eventScheduler, name, "parsed");
            RunOptions opts;
            opts.quiet = true;
            RunResults r = RunScenario(cfg, opts);
            r.sim.wallS = 0;
            NS_TEST_ASSERT_MSG_GT(r.sim.events, 1000, "the scenario ran");
            const std::string json = ResultsWriter::ToJsonText(r);
            if (name == "ordered")
            {
                // Takes simultaneous arrivals port by port, as under MPI: its
                // own results, the same on every run.
                RunResults again = RunScenario(cfg, opts);
                again.sim.wallS = 0;
                NS_TEST_ASSERT_MSG_EQ((ResultsWriter::ToJsonText(again) == json),
                                      true,
                                      "ordered: the same results twice");
                continue;
            }
            if (first.empty())
            {
                first = json;
            }
            NS_TEST_ASSERT_MSG_EQ((json == first), true, "results with " << name);
        }
        NS_TEST_ASSERT_MSG_EQ(ScenarioConfig().eventScheduler,
                              ScenarioConfig::AvailableEventSchedulers()[0],
                              "the default is listed first");
        bool refused = false;
        try
        {
            nlohmann::json j = ParseScenarioText(text, "test");
            j["event_scheduler"] = "fastest";
            ParseScenario(j, ".");
        }
        catch (const ScenarioError& e)
        {
            refused = std::string(e.what()).find("event_scheduler") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "an unknown scheduler names the field");
    }
};

/**
 * \ingroup flux-tests
 * The kinds of keyed events are the components' own registrations, one
 * order each, in the order simultaneous events must run (a collective run
 * found complete, a job's failure, the jobs' timers, the gates' timers, the
 * controller, the run's end, the run's monitor), and registering a kind
 * again changes nothing.
 */
class OrderedSchedulerKindsTestCase : public TestCase
{
  public:
    OrderedSchedulerKindsTestCase()
        : TestCase("OrderedScheduler: kinds registered by their components, in order")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<std::string> expected = {"collective run complete",
                                                   "job failed",
                                                   "job timer",
                                                   "gate timer",
                                                   "scheduler control",
                                                   "run end",
                                                   "run monitor"};
        std::vector<std::pair<uint32_t, std::string>> kinds = OrderedScheduler::GetKinds();
        NS_TEST_ASSERT_MSG_EQ(kinds.size(), expected.size(), "the registered kinds");
        for (std::size_t i = 0; i < kinds.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(kinds[i].second, expected[i], "kind at rank " << i);
            if (i > 0)
            {
                NS_TEST_EXPECT_MSG_LT(kinds[i - 1].first, kinds[i].first, "orders rise");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(OrderedScheduler::RegisterKind(kinds[2].second, kinds[2].first),
                              kinds[2].first,
                              "registering a kind again returns it");
        NS_TEST_EXPECT_MSG_EQ(OrderedScheduler::GetKinds().size(),
                              expected.size(),
                              "and adds nothing");
        NS_TEST_EXPECT_MSG_LT(OrderedScheduler::ControlKey(kinds[0].first, 0xffffff),
                              OrderedScheduler::ControlKey(kinds[1].first, 0),
                              "any job's event of a lower kind runs first");
    }
};

/**
 * \ingroup flux-tests
 * OrderedScheduler runs events of the same time by key, then in the order
 * they were scheduled (events without a key last, as ns-3 orders them); a
 * key applies to one event only; a removed event does not run.
 */
class OrderedSchedulerTestCase : public TestCase
{
  public:
    OrderedSchedulerTestCase()
        : TestCase("OrderedScheduler: simultaneous events by key, then scheduling order")
    {
    }

  private:
    /**
     * \brief An event's record.
     * \param log where
     * \param id which
     */
    static void Record(std::vector<int>* log, int id)
    {
        log->push_back(id);
    }

    void DoRun() override
    {
        Simulator::Destroy();
        ObjectFactory factory;
        factory.SetTypeId(OrderedScheduler::GetTypeId());
        Simulator::SetScheduler(factory);
        std::vector<int> log;
        const Time t = MicroSeconds(5);
        Simulator::Schedule(t, &Record, &log, 1); // no key
        OrderedScheduler::SetNextKey(7);
        Simulator::Schedule(t, &Record, &log, 2);
        Simulator::Schedule(t, &Record, &log, 3); // no key: the key was used
        OrderedScheduler::SetNextKey(2);
        Simulator::Schedule(t, &Record, &log, 4);
        OrderedScheduler::SetNextKey(7);
        Simulator::Schedule(t, &Record, &log, 5);
        Simulator::Schedule(MicroSeconds(4), &Record, &log, 6); // earlier: first
        OrderedScheduler::SetNextKey(1);
        EventId removed = Simulator::Schedule(t, &Record, &log, 7);
        Simulator::Remove(removed);
        Simulator::Run();
        Simulator::Destroy();
        const std::vector<int> expected = {6, 4, 2, 5, 1, 3};
        NS_TEST_ASSERT_MSG_EQ(log.size(), expected.size(), "every event that was not removed ran");
        for (std::size_t i = 0; i < expected.size() && i < log.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(log[i], expected[i], "event " << i);
        }
    }
};

/**
 * \ingroup flux-tests
 * FabricTopologyHelper::SetRanks gives each MPI process a block of pods
 * (with their hosts; the core switches spread evenly) or of leaves (the
 * spines spread evenly), in the same node order as without; without MPI
 * enabled every node stays local.
 */
class SetRanksTestCase : public TestCase
{
  public:
    SetRanksTestCase()
        : TestCase("SetRanks: processes by pod or leaf, node order unchanged")
    {
    }

  private:
    void DoRun() override
    {
        {
            FabricTopologyHelper helper;
            helper.SetRanks(2);
            FabricTopology topo = helper.BuildFatTree(4); // 4 pods of 4 hosts, 4 cores
            for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
            {
                NS_TEST_ASSERT_MSG_EQ(topo.hosts.Get(h)->GetSystemId(),
                                      h / 8,
                                      "host " << h << ": pods 0-1 on rank 0, 2-3 on rank 1");
                NS_TEST_ASSERT_MSG_EQ(FabricRanks::IsLocal(*topo.hosts.Get(h)),
                                      true,
                                      "without MPI every node is local");
            }
            std::vector<uint32_t> perRank(2, 0);
            for (const auto& sw : topo.switches)
            {
                const uint32_t rank = sw.node->GetSystemId();
                NS_TEST_ASSERT_MSG_LT(rank, 2u, "a process of the two");
                perRank[rank] += sw.tier == 2 ? 1 : 0;
                if (sw.tier < 2)
                {
                    const uint32_t pod = std::stoul(sw.name.substr(3, sw.name.find('-') - 3));
                    NS_TEST_ASSERT_MSG_EQ(rank, pod / 2, sw.name << " with its pod");
                }
            }
            NS_TEST_ASSERT_MSG_EQ(perRank[0], 2u, "two core switches each");
            NS_TEST_ASSERT_MSG_EQ(perRank[1], 2u, "two core switches each");
            NS_TEST_ASSERT_MSG_LT(topo.hosts.Get(topo.GetNHosts() - 1)->GetId(),
                                  topo.switches.front().node->GetId(),
                                  "hosts first, then switches, as without ranks");
            Simulator::Destroy();
        }
        {
            FabricTopologyHelper helper;
            helper.SetRanks(3);
            FabricTopology topo = helper.BuildLeafSpine(3, 2, 2);
            for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
            {
                NS_TEST_ASSERT_MSG_EQ(topo.hosts.Get(h)->GetSystemId(), h / 2, "by leaf");
            }
            NS_TEST_ASSERT_MSG_EQ(topo.switches[3].node->GetSystemId(), 0u, "spine0");
            NS_TEST_ASSERT_MSG_EQ(topo.switches[4].node->GetSystemId(), 1u, "spine1");
            Simulator::Destroy();
        }
        {
            FabricTopologyHelper helper;
            helper.SetRanks(4);
            bool refused = false;
            try
            {
                helper.BuildLeafSpine(3, 2, 2);
            }
            catch (const std::invalid_argument& e)
            {
                refused = std::string(e.what()).find("splits by leaves into at most 3 parts") !=
                          std::string::npos;
            }
            NS_TEST_ASSERT_MSG_EQ(refused, true, "at most one process per leaf");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup flux-tests
 * EthernetIpv4Header writes exactly the bytes of an EthernetVlanHeader
 * followed by an Ipv4Header, reads both back in one pass, and reads only
 * the link header of a non-IPv4 frame, whose payload stays.
 */
class EthernetIpv4HeaderTestCase : public TestCase
{
  public:
    EthernetIpv4HeaderTestCase()
        : TestCase("EthernetIpv4Header: the bytes of the two headers, read in one pass")
    {
    }

  private:
    void DoRun() override
    {
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.7"));
        ip.SetDestination(Ipv4Address("10.0.3.9"));
        ip.SetProtocol(17);
        ip.SetTtl(61);
        ip.SetIdentification(4242);
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(TrafficClass::ToDscp(5)));
        ip.SetEcn(Ipv4Header::ECN_CE);
        ip.SetPayloadSize(100);
        EthernetVlanHeader eth;
        eth.SetSourceBits(0x0a0b0c0d0e0fULL);
        eth.SetDestinationBits(0x010203040506ULL);
        eth.SetVlanTag(5);
        eth.SetEtherType(0x0800);

        // Two headers one after the other, and one combined header.
        Ptr<Packet> apart = Create<Packet>(100);
        apart->AddHeader(ip);
        apart->AddHeader(eth);
        Ptr<Packet> together = Create<Packet>(100);
        EthernetIpv4Header both;
        both.SetSourceBits(eth.GetSourceBits());
        both.SetDestinationBits(eth.GetDestinationBits());
        both.SetVlanTag(5);
        both.SetEtherType(EthernetIpv4Header::ETHERTYPE_IPV4);
        both.SetIpv4(&ip);
        together->AddHeader(both);
        NS_TEST_ASSERT_MSG_EQ(together->GetSize(), apart->GetSize(), "same size");
        std::vector<uint8_t> a(apart->GetSize());
        std::vector<uint8_t> b(together->GetSize());
        apart->CopyData(a.data(), a.size());
        together->CopyData(b.data(), b.size());
        NS_TEST_ASSERT_MSG_EQ((a == b), true, "same bytes");

        Ipv4Header readIp;
        EthernetIpv4Header read;
        read.SetIpv4Sink(&readIp);
        together->RemoveHeader(read);
        NS_TEST_ASSERT_MSG_EQ(read.HasIpv4(), true, "IPv4 read");
        NS_TEST_ASSERT_MSG_EQ(together->GetSize(), 100, "both headers removed");
        NS_TEST_ASSERT_MSG_EQ(read.GetPcp(), 5, "PCP");
        NS_TEST_ASSERT_MSG_EQ(read.GetSourceBits(), eth.GetSourceBits(), "source MAC");
        NS_TEST_ASSERT_MSG_EQ(readIp.GetDestination(), ip.GetDestination(), "IPv4 destination");
        NS_TEST_ASSERT_MSG_EQ(readIp.GetIdentification(), 4242, "IPv4 identification");
        NS_TEST_ASSERT_MSG_EQ(+readIp.GetTtl(), 61, "TTL");
        NS_TEST_ASSERT_MSG_EQ(readIp.GetEcn(), Ipv4Header::ECN_CE, "ECN");

        // A PFC-like frame: the link header only; the payload stays.
        Ptr<Packet> control = Create<Packet>(46);
        EthernetIpv4Header link;
        link.SetEtherType(0x8808);
        control->AddHeader(link);
        NS_TEST_ASSERT_MSG_EQ(control->GetSize(), 46 + 14, "untagged link header only");
        EthernetIpv4Header readLink;
        readLink.SetIpv4Sink(&readIp);
        control->RemoveHeader(readLink);
        NS_TEST_ASSERT_MSG_EQ(readLink.HasIpv4(), false, "no IPv4 in a control frame");
        NS_TEST_ASSERT_MSG_EQ(readLink.GetEtherType(), 0x8808, "EtherType");
        NS_TEST_ASSERT_MSG_EQ(control->GetSize(), 46, "payload kept");
    }
};

/**
 * \ingroup flux-tests
 * The scale test suite.
 */
class FluxScaleTestSuite : public TestSuite
{
  public:
    FluxScaleTestSuite()
        : TestSuite("flux-scale")
    {
        AddTestCase(new EcmpRouteTableTestCase);
        AddTestCase(new CompactFifoTestCase);
        AddTestCase(new PfcBandQueueTestCase);
        AddTestCase(new LinkInFlightTestCase);
        AddTestCase(new Ipv4ReceiverTestCase);
        AddTestCase(new FrameEndTestCase);
        AddTestCase(new EthernetIpv4HeaderTestCase);
        AddTestCase(new EventSchedulerTestCase);
        AddTestCase(new OrderedSchedulerTestCase);
        AddTestCase(new OrderedSchedulerKindsTestCase);
        AddTestCase(new SetRanksTestCase);
    }
};

static FluxScaleTestSuite g_fluxScaleTestSuite; //!< Static variable for test initialization
