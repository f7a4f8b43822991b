/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HPCC and its in-band network telemetry: the INT header's wire format,
 * one record per switch hop echoed back in ACKs, INT bytes on the wire, and
 * HPCC's promises on an N:1 incast (utilisation, fairness, near-zero queue)
 * and for a lone flow.
 */

#include "rdma-fabric.h"

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/hpcc.h"
#include "ns3/ib-bth-header.h"
#include "ns3/int-header.h"
#include "ns3/int-stamper.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

#include <numeric>

using namespace ns3;

namespace ns3
{

/**
 * \ingroup flux
 * \brief HPCC that keeps the INT of every ACK it gets (tests only).
 */
class RecordingHpcc : public HpccCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RecordingHpcc")
                                .SetParent<HpccCongestionControl>()
                                .SetGroupName("Flux")
                                .AddConstructor<RecordingHpcc>();
        return tid;
    }

    void OnAck(const AckEvent& ack) override
    {
        if (ack.intHeader)
        {
            acks.push_back(*ack.intHeader);
            times.push_back(Simulator::Now());
        }
        HpccCongestionControl::OnAck(ack);
    }

    std::vector<IntHeader> acks; //!< INT of each ACK
    std::vector<Time> times;     //!< arrival time of each ACK
};

NS_OBJECT_ENSURE_REGISTERED(RecordingHpcc);

} // namespace ns3

namespace
{

using fluxtest::RdmaFabric;

/**
 * The INT header: serialized size 4 + 8 x maxHops, fields survive a round
 * trip in their units, wrapping differences, a full header refuses records.
 */
class IntHeaderRoundTripTestCase : public TestCase
{
  public:
    IntHeaderRoundTripTestCase()
        : TestCase("INT header: size, round trip of every field, wrap-around deltas")
    {
    }

  private:
    void DoRun() override
    {
        IntHeader h(5, 4);
        NS_TEST_ASSERT_MSG_EQ(h.GetSerializedSize(), 44u, "4 + 5 x 8 bytes");
        NS_TEST_ASSERT_MSG_EQ(IntHeader::SizeFor(3), 28u, "4 + 3 x 8 bytes");
        NS_TEST_ASSERT_MSG_EQ(h.PushHop(100000000000ULL, NanoSeconds(123456), 5120000, 64000),
                              true,
                              "room for a hop");
        NS_TEST_ASSERT_MSG_EQ(h.PushHop(25000000000ULL, NanoSeconds(16777215 + 10), 512, 1e9),
                              true,
                              "room for a second hop");
        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(h);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 144u, "the header's bytes are on the packet");
        IntHeader r;
        p->RemoveHeader(r);
        NS_TEST_ASSERT_MSG_EQ(+r.GetNHops(), 2, "two hops");
        NS_TEST_ASSERT_MSG_EQ(+r.GetMaxHops(), 5, "capacity");
        NS_TEST_ASSERT_MSG_EQ(+r.GetMultiplier(), 4, "multiplier");
        const IntHop& a = r.GetHop(0);
        NS_TEST_ASSERT_MSG_EQ(a.GetLineRateBps(), 100000000000ULL, "line rate code");
        NS_TEST_ASSERT_MSG_EQ(a.GetTimeField(), 123456u, "timestamp, ns");
        NS_TEST_ASSERT_MSG_EQ(a.GetBytesField(), 5120000u / 512, "txBytes in 128 x 4 B units");
        NS_TEST_ASSERT_MSG_EQ(a.GetQlenBytes(4), 64000u, "qLen in 80 x 4 B units");
        const IntHop& b = r.GetHop(1);
        NS_TEST_ASSERT_MSG_EQ(b.GetLineRateBps(), 25000000000ULL, "second line rate");
        NS_TEST_ASSERT_MSG_EQ(b.GetTimeField(), 9u, "the timestamp wraps at 2^24 ns");
        NS_TEST_ASSERT_MSG_EQ(b.GetQlenField(), (1u << 17) - 1, "qLen saturates");
        // deltas across the wrap
        IntHop older;
        older.Set(100000000000ULL, 16777200, (uint64_t{1} << 20) * 128 - 128, 0, 1);
        IntHop newer;
        newer.Set(100000000000ULL, 16777216 + 40, (uint64_t{1} << 20) * 128 + 256, 0, 1);
        NS_TEST_ASSERT_MSG_EQ(newer.GetTimeDelta(older), 56u, "time delta modulo 2^24");
        NS_TEST_ASSERT_MSG_EQ(newer.GetBytesDelta(older, 1), 384u, "bytes delta modulo 2^20");
        // a full header records nothing more
        IntHeader one(1, 1);
        one.PushHop(100000000000ULL, Seconds(0), 0, 0);
        NS_TEST_ASSERT_MSG_EQ(one.PushHop(100000000000ULL, Seconds(0), 0, 0),
                              false,
                              "a full header refuses a record");
        NS_TEST_ASSERT_MSG_EQ(+one.GetNHops(), 1, "nHops stops at maxHops");
    }
};

/**
 * One HPCC flow across a path of `switches` switches: every ACK echoes one
 * INT record per switch, with the ports' line rate, timestamps increasing
 * along the path and no later than the ACK, cumulative txBytes growing from
 * ACK to ACK, and queue lengths no larger than the switch buffer; data
 * frames are exactly the INT bytes larger than without HPCC. The 2-switch
 * case sends an RDMA WRITE (RETH, then INT, in its first packet).
 */
class IntPerHopTestCase : public TestCase
{
  public:
    /// \param switches switches on the path: 1 (one leaf), 2 (dumbbell), 3 (leaf-spine)
    explicit IntPerHopTestCase(uint32_t switches)
        : TestCase("INT: one record per hop on a " + std::to_string(switches) +
                   "-switch path, echoed in every ACK"),
          m_switches(switches)
    {
    }

  private:
    /// MacTx trace sink: remember the largest frame
    /// \param p the frame
    void FrameSent(Ptr<const Packet> p)
    {
        m_largest = std::max(m_largest, p->GetSize());
    }

    /**
     * \param cc congestion control TypeId
     * \param[out] acks INT of the ACKs (RecordingHpcc only)
     * \return the largest frame the sender put on the line
     */
    uint32_t Run(const std::string& cc, std::vector<IntHeader>* acks, std::vector<Time>* times)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        FabricTopologyHelper th;
        FabricTopology t = m_switches == 1   ? th.BuildLeafSpine(1, 0, 2)
                           : m_switches == 2 ? th.BuildDumbbell(1)
                                             : th.BuildLeafSpine(2, 1, 1);
        RdmaHelper rdma;
        rdma.SetCongestionControl(cc);
        RdmaFabric net(std::move(t), rdma);
        auto qps = RdmaHelper::Connect(net.nics[0], net.nics[1], 3, 7000);
        m_largest = 0;
        net.topo.hostDevices[0]->TraceConnectWithoutContext(
            "MacTx",
            MakeCallback(&IntPerHopTestCase::FrameSent, this));
        qps.first->PostSend(400000, m_switches == 2); // RDMA WRITE (RETH before INT) on 2
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(qps.second->GetBytesReceived(), 400000u, "every byte arrives");
        if (acks)
        {
            Ptr<RecordingHpcc> rec = DynamicCast<RecordingHpcc>(qps.first->GetCongestionControl());
            *acks = rec->acks;
            *times = rec->times;
        }
        Simulator::Destroy();
        return m_largest;
    }

    void DoRun() override
    {
        std::vector<IntHeader> acks;
        std::vector<Time> times;
        const uint32_t withInt = Run("ns3::RecordingHpcc", &acks, &times);
        const uint32_t without = Run("none", nullptr, nullptr);
        NS_TEST_ASSERT_MSG_EQ(withInt - without, 44u, "a data frame carries 44 INT bytes");
        // 98 packets, one ACK each (IntAckInterval 1)
        NS_TEST_ASSERT_MSG_EQ(acks.size(), 98u, "an ACK per data packet");
        uint64_t prevBytes = 0;
        for (std::size_t a = 0; a < acks.size(); ++a)
        {
            const IntHeader& ih = acks[a];
            NS_TEST_ASSERT_MSG_EQ(+ih.GetNHops(), m_switches, "one record per switch");
            NS_TEST_ASSERT_MSG_EQ(+ih.GetMultiplier(), 4, "100G / 25G");
            const uint32_t now = static_cast<uint32_t>(times[a].GetNanoSeconds()) & 0xFFFFFF;
            for (uint8_t i = 0; i < ih.GetNHops(); ++i)
            {
                const IntHop& h = ih.GetHop(i);
                NS_TEST_ASSERT_MSG_EQ(h.GetLineRateBps(), 100000000000ULL, "port line rate");
                NS_TEST_ASSERT_MSG_LT(h.GetQlenBytes(4), 16000000u, "queue within the buffer");
                // the ACK comes back within 100 us of the stamp
                const uint32_t age = (now - h.GetTimeField()) & 0xFFFFFF;
                NS_TEST_ASSERT_MSG_LT(age, 100000u, "stamped before the ACK arrived");
                if (i > 0)
                {
                    const uint64_t d = h.GetTimeDelta(ih.GetHop(i - 1));
                    NS_TEST_ASSERT_MSG_GT(d, 1000u, "later hops stamp later (link delay 1 us)");
                    NS_TEST_ASSERT_MSG_LT(d, 20000u, "and not much later");
                }
            }
            const uint64_t bytes = ih.GetHop(0).GetBytesField();
            NS_TEST_ASSERT_MSG_GT(bytes, prevBytes, "the first hop's txBytes grow");
            prevBytes = bytes;
        }
        // the first hop has sent at least the flow's bytes by the last ACK
        NS_TEST_ASSERT_MSG_GT(prevBytes * 512, 400000u, "txBytes count the flow");
    }

    uint32_t m_switches; //!< switches on the path
    uint32_t m_largest;  //!< largest frame sent
};

/**
 * The queue an IntStamper writes: with FloorPackets (default 2) the least
 * queue over the last two to four packet times, so a packet or two that
 * meet and drain leave no trace while a standing queue is stamped whole;
 * with QueueAverage and FloorPackets zero, the queue behind the packet.
 */
class IntStamperFloorTestCase : public TestCase
{
  public:
    IntStamperFloorTestCase()
        : TestCase("INT: the stamped queue is the standing queue, not packets that meet")
    {
    }

  private:
    /// A data packet with room for INT, as a switch dequeues it.
    static Ptr<QueueDiscItem> IntPacket()
    {
        Ptr<Packet> p = Create<Packet>(4096);
        p->AddHeader(IntHeader(5, 1));
        p->AddHeader(IbBthHeader());
        p->AddHeader(UdpHeader());
        Ipv4Header ip;
        ip.SetDscp(static_cast<Ipv4Header::DscpType>(IntHeader::DSCP_INT));
        return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
    }

    /// \return the queue stamped in the last hop of the item's INT
    static uint64_t Stamped(const Ptr<QueueDiscItem>& item)
    {
        Ptr<Packet> p = item->GetPacket()->Copy();
        UdpHeader udp;
        p->RemoveHeader(udp);
        IbBthHeader bth;
        p->RemoveHeader(bth);
        IntHeader ih;
        p->RemoveHeader(ih);
        return ih.GetHop(ih.GetNHops() - 1).GetQlenBytes(1);
    }

    /// Dequeue an INT packet now with \p queue bytes left behind it.
    static void Leave(Ptr<IntStamper> s, uint64_t queue, uint64_t* stamped)
    {
        Ptr<QueueDiscItem> item = IntPacket();
        s->Dequeued(0, queue, 0, 100000000000ULL, item);
        *stamped = Stamped(item);
    }

    /// Change the queue now without an INT packet leaving.
    static void Queue(Ptr<IntStamper> s, uint64_t queue)
    {
        s->Enqueued(0, queue);
    }

    void DoRun() override
    {
        // 100 Gb/s, 4184-byte packets: windows of 670 ns
        Ptr<IntStamper> floor = CreateObject<IntStamper>();
        Ptr<IntStamper> behind = CreateObject<IntStamper>();
        behind->SetAttribute("FloorPackets", UintegerValue(0));
        behind->SetAttribute("QueueAverage", TimeValue(Seconds(0)));
        uint64_t first = 1;
        uint64_t meet = 1;
        uint64_t meetBehind = 0;
        uint64_t standing = 0;
        uint64_t drained = 1;
        for (auto s : {floor, behind})
        {
            Simulator::Schedule(NanoSeconds(1), &Leave, s, 0, &first);
        }
        for (auto s : {floor, behind})
        {
            Simulator::Schedule(NanoSeconds(100), &Queue, s, 4000);
            Simulator::Schedule(NanoSeconds(150), &Queue, s, 8000);
        }
        Simulator::Schedule(NanoSeconds(300), &Leave, floor, 8000, &meet);
        Simulator::Schedule(NanoSeconds(300), &Leave, behind, 8000, &meetBehind);
        Simulator::Schedule(NanoSeconds(400), &Queue, floor, 0);
        Simulator::Schedule(NanoSeconds(1000), &Queue, floor, 20000);
        Simulator::Schedule(NanoSeconds(2500), &Leave, floor, 20000, &standing);
        Simulator::Schedule(NanoSeconds(2600), &Queue, floor, 0);
        Simulator::Schedule(NanoSeconds(2700), &Leave, floor, 0, &drained);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(first, 0u, "an empty queue");
        NS_TEST_EXPECT_MSG_EQ(meet, 0u, "two packets that meet leave no floor");
        NS_TEST_EXPECT_MSG_EQ(meetBehind, 8000u, "without the floor: the queue behind");
        NS_TEST_EXPECT_MSG_EQ(standing, 20000u, "a queue that stood two windows is stamped");
        NS_TEST_EXPECT_MSG_EQ(drained, 0u, "a drained queue is stamped as soon as it drains");
    }
};

/**
 * HPCC on N long flows into one 100 Gb/s switch port, measured over 5 ms
 * after 10 ms of convergence: the bottleneck is busy (at least 95 % of the
 * line's goodput), the queue stays near zero (time average below 16 KB or
 * 2 packets per flow, whichever is larger: a few percent of DCQCN's Kmin of
 * 400 KB), no PFC pause, and Jain's index exceeds 0.99, for N = 1 ... 16
 * with the HPCC authors' 1 KB packets and with 4 KB packets, on 1 us links
 * (T = 5 us, one 4 KB packet 6.7 % of B x T) and 2.5 us links. Stamping the
 * queue behind each packet left 4 and 8 flows of 4 KB at Jain's index
 * 0.39-0.40; stamping the queue averaged over 1 us held 4 KB packets on 1 us
 * links at 0.93 of the line (the packets that meet counted as queue); the
 * switches stamp the standing queue (IntStamper::FloorPackets).
 */
class HpccIncastTestCase : public TestCase
{
  public:
    /**
     * \param senders N
     * \param minJain lower bound of Jain's fairness index
     * \param mtu payload bytes per packet
     * \param minUtil lower bound of the goodput over the line's goodput
     * \param delay every link's propagation delay
     */
    HpccIncastTestCase(uint32_t senders, double minJain, uint32_t mtu, double minUtil, Time delay)
        : TestCase("HPCC: " + std::to_string(senders) + ":1 incast, utilisation > " +
                   std::to_string(minUtil).substr(0, 4) + ", near-zero queue, Jain > " +
                   std::to_string(minJain).substr(0, 4) + " (" + std::to_string(mtu) +
                   "-byte packets, " + std::to_string(delay.GetNanoSeconds()) + " ns links)"),
          m_n(senders),
          m_minJain(minJain),
          m_mtu(mtu),
          m_minUtil(minUtil),
          m_delay(delay)
    {
    }

  private:
    /// Record the flows' bytes at the start of the window.
    void Snapshot()
    {
        for (uint32_t f = 0; f < m_n; ++f)
        {
            m_start[f] = m_rx[f]->GetBytesReceived();
        }
    }

    /// Sample the bottleneck queue every microsecond from now until `end`.
    /// \param end the end of the window
    void Sample(Time end)
    {
        const uint64_t q = m_switch->GetQueuedBytes(m_port);
        m_qSum += q;
        m_qMax = std::max(m_qMax, q);
        ++m_qSamples;
        if (Simulator::Now() + MicroSeconds(1) < end)
        {
            Simulator::Schedule(MicroSeconds(1), &HpccIncastTestCase::Sample, this, end);
        }
    }

    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        FabricTopologyHelper th;
        th.SetLinkDelay(m_delay);
        RdmaHelper rdma;
        rdma.SetCongestionControl("hpcc");
        // one switch: hosts 0..N-1 send to host N; base RTT of the 2-hop path
        // (2 x the propagation both ways + data and ACK serialization) rounded up
        const Time baseRtt = 4 * m_delay + MicroSeconds(1);
        Config::SetDefault("ns3::HpccCongestionControl::BaseRtt", TimeValue(baseRtt));
        Config::SetDefault("ns3::RdmaNic::Mtu", UintegerValue(m_mtu));
        RdmaFabric net(th.BuildLeafSpine(1, 0, m_n + 1), rdma);
        const uint32_t dst = m_n;
        const FabricTopology::Switch& sw = net.topo.switches[0];
        for (uint32_t port = 0; port < sw.portLink.size(); ++port)
        {
            if (net.topo.links[sw.portLink[port]].rx == net.topo.hostDevices[dst])
            {
                m_switch = sw.sw;
                m_port = port;
            }
        }
        NS_TEST_ASSERT_MSG_NE(m_switch, nullptr, "the bottleneck port");
        m_rx.clear();
        for (uint32_t f = 0; f < m_n; ++f)
        {
            auto qps = RdmaHelper::Connect(net.nics[f], net.nics[dst], 3, 6000 + f);
            qps.first->PostSend(2000000000); // longer than the run
            m_rx.push_back(qps.second);
        }
        m_start.assign(m_n, 0);
        // Fairness comes from W_AI alone: unequal windows converge with a
        // time constant of BDP / (N W_AI) RTTs (625 RTTs, 3 ms, for N = 4).
        const Time warmup = m_n == 1 ? MicroSeconds(100) : MilliSeconds(10);
        const Time end = warmup + MilliSeconds(5);
        Simulator::Schedule(warmup, &HpccIncastTestCase::Snapshot, this);
        Simulator::Schedule(warmup, &HpccIncastTestCase::Sample, this, end);
        Simulator::Stop(end);
        Simulator::Run();

        // goodput share with 44 INT bytes per packet
        const double share = m_mtu / (m_mtu + 86.0 + 44);
        const double capacity = 100e9 * share / 8 * (end - warmup).GetSeconds();
        std::vector<double> got;
        for (uint32_t f = 0; f < m_n; ++f)
        {
            got.push_back(static_cast<double>(m_rx[f]->GetBytesReceived() - m_start[f]));
        }
        const double total = std::accumulate(got.begin(), got.end(), 0.0);
        double squares = 0;
        for (double g : got)
        {
            squares += g * g;
        }
        const double jain = total * total / (m_n * squares);
        const double avgQ = static_cast<double>(m_qSum) / m_qSamples;
        std::cout << "hpcc N=" << m_n << " utilisation " << total / capacity << " jain " << jain
                  << " queue avg " << avgQ << " B max " << m_qMax << " B pauses "
                  << net.topo.GetSwitchStats().nPfcPauses << " marks "
                  << net.topo.GetSwitchStats().nEcnMarks;
        for (double g : got)
        {
            std::cout << " " << g / capacity;
        }
        std::cout << std::endl;
        const uint64_t pauses = net.topo.GetSwitchStats().nPfcPauses;
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_EXPECT_MSG_GT(total / capacity, m_minUtil, "the bottleneck stays busy");
        NS_TEST_EXPECT_MSG_GT(jain, m_minJain, "flows share fairly");
        NS_TEST_EXPECT_MSG_LT(avgQ,
                              std::max(16000.0, 2.0 * (m_mtu + 130) * m_n),
                              "near-zero queue");
        NS_TEST_EXPECT_MSG_EQ(pauses, 0, "no PFC pause");
    }

    uint32_t m_n;                         //!< senders
    double m_minJain;                     //!< lower bound of Jain's index
    uint32_t m_mtu;                       //!< payload bytes per packet
    double m_minUtil;                     //!< lower bound of the utilisation
    Time m_delay;                         //!< link propagation delay
    std::vector<Ptr<RdmaQueuePair>> m_rx; //!< receiving queue pairs
    std::vector<uint64_t> m_start;        //!< bytes at the window's start
    Ptr<FabricSwitch> m_switch;           //!< the switch of the bottleneck port
    uint32_t m_port{0};                   //!< the bottleneck port
    uint64_t m_qSum{0};                   //!< sum of queue samples
    uint64_t m_qMax{0};                   //!< largest queue sample
    uint64_t m_qSamples{0};               //!< queue samples
};

} // namespace

/**
 * \ingroup flux
 * \brief HPCC and in-band network telemetry.
 */
class FluxHpccTestSuite : public TestSuite
{
  public:
    FluxHpccTestSuite()
        : TestSuite("flux-hpcc", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new IntHeaderRoundTripTestCase);
        AddTestCase(new IntStamperFloorTestCase);
        for (uint32_t switches : {1u, 2u, 3u})
        {
            AddTestCase(new IntPerHopTestCase(switches));
        }
        for (uint32_t mtu : {1024, 4096})
        {
            for (uint32_t n : {1, 2, 4, 8, 16})
            {
                AddTestCase(new HpccIncastTestCase(n, 0.99, mtu, 0.95, MicroSeconds(1)));
            }
        }
        // 4 KB packets where one is 3 % of B x T (with 16 flows the first
        // RTT at line rate overruns the longer links' PFC threshold)
        for (uint32_t n : {2, 4, 8})
        {
            AddTestCase(new HpccIncastTestCase(n, 0.99, 4096, 0.95, NanoSeconds(2500)));
        }
    }
};

static FluxHpccTestSuite g_fluxHpccTestSuite; //!< the suite
