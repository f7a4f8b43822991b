/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The fabric switch: strict-priority queueing that skips paused classes,
 * shared-buffer admission with PFC thresholds and headroom, lossless incast
 * (no drop, PFC and ECN at work), lossy incast (drops at the buffer limit),
 * per-flow ECMP without reordering, foreign queue discs, TTL, configuration
 * errors and determinism.
 */

#include "fabric-test-traffic.h"

#include "ns3/core-module.h"
#include "ns3/fabric-queue-disc-item.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/network-module.h"
#include "ns3/pfc-prio-queue-disc.h"
#include "ns3/switch-mmu.h"
#include "ns3/tcp-header.h"
#include "ns3/traffic-control-module.h"
#include "ns3/udp-header.h"

#include <limits>
#include <map>
#include <set>

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/// Everything an incast run reports.
struct IncastResult
{
    uint64_t sentBytes{0};      //!< bytes the senders sent
    uint64_t receivedBytes{0};  //!< bytes the receiver got
    uint64_t reordered{0};      //!< packets out of order in their flow
    uint64_t misdelivered{0};   //!< packets at the wrong host
    uint64_t ceReceived{0};     //!< CE-marked packets at the receiver
    uint64_t drops{0};          //!< switch drops, all reasons
    uint64_t bufferDrops{0};    //!< lossy drops
    uint64_t headroomDrops{0};  //!< lossless drops
    uint64_t queueDiscDrops{0}; //!< queue disc drops
    uint64_t pauses{0};         //!< XOFF decisions
    uint64_t resumes{0};        //!< XON decisions
    uint64_t pauseFrames{0};    //!< PFC frames sent by switches
    uint64_t senderPausesRx{0}; //!< PFC pauses received by the senders
    uint64_t ecnMarks{0};       //!< switch marks
    uint64_t residualBytes{0};  //!< bytes left in switch buffers at the end
    uint64_t residualPaused{0}; //!< (port, prio) still paused at the end
    uint64_t peakUsed{0};       //!< largest buffer occupancy of any switch
    Time lastRx;                //!< last arrival at the receiver
};

/// Where the incast runs.
enum class IncastFabric
{
    SINGLE_SWITCH, //!< one switch, receiver host 0, senders 1..N
    LEAF_SPINE     //!< 3 leaves x 2 spines x 8 hosts, receiver on leaf 0, senders on leaves 1-2
};

/**
 * \brief Run an N-to-1 incast and collect what happened.
 * \param helper the fabric settings
 * \param fabric where
 * \param senders number of senders (at most 16 for LEAF_SPINE)
 * \param packets packets per sender
 * \param payload UDP payload per packet
 * \param prios every sender sends one flow per priority listed
 * \param ring every sender also sends, per priority, a flow to the next
 *        sender: the switch ports towards the senders then carry data when
 *        they must send XOFF, the worst case for the headroom
 * \param setup called with the fabric before the run (to connect traces)
 * \return the result
 */
IncastResult
RunIncast(FabricTopologyHelper helper,
          IncastFabric fabric,
          uint32_t senders,
          uint32_t packets,
          uint32_t payload = 4000,
          std::vector<uint8_t> prios = {3},
          bool ring = false,
          const std::function<void(FabricTopology&)>& setup = {})
{
    FabricTopology topo = fabric == IncastFabric::SINGLE_SWITCH
                              ? helper.BuildLeafSpine(1, 0, senders + 1)
                              : helper.BuildLeafSpine(3, 2, 8);
    topo.AssignStreams(100);
    if (setup)
    {
        setup(topo);
    }
    const uint32_t receiver = 0;
    Ptr<TrafficSink> sink =
        Create<TrafficSink>(topo.hostDevices[receiver], topo.hostAddresses[receiver]);
    auto senderHost = [fabric](uint32_t s) {
        return fabric == IncastFabric::SINGLE_SWITCH ? 1 + s : 8 + s;
    };
    std::vector<Ptr<TrafficSink>> senderSinks;
    std::vector<Ptr<TrafficEgress>> egresses;
    for (uint32_t s = 0; s < senders; ++s)
    {
        const uint32_t host = senderHost(s);
        senderSinks.push_back(
            Create<TrafficSink>(topo.hostDevices[host], topo.hostAddresses[host]));
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[host], topo.hostAddresses[host], payload);
        for (std::size_t i = 0; i < prios.size(); ++i)
        {
            e->AddFlow(topo.hostAddresses[receiver], 20000 + 100 * i + s, packets, prios[i]);
            if (ring)
            {
                e->AddFlow(topo.hostAddresses[senderHost((s + 1) % senders)],
                           30000 + 100 * i + s,
                           packets,
                           prios[i]);
            }
        }
        e->Start(MicroSeconds(1));
        egresses.push_back(e);
    }
    Simulator::Stop(Seconds(1));
    Simulator::Run();

    IncastResult r;
    for (uint32_t s = 0; s < senders; ++s)
    {
        r.sentBytes += egresses[s]->GetSentBytes();
        const uint32_t host = fabric == IncastFabric::SINGLE_SWITCH ? 1 + s : 8 + s;
        r.senderPausesRx += topo.hostDevices[host]->GetPfcPausesReceived();
    }
    r.receivedBytes = sink->m_bytes;
    r.reordered = sink->m_reordered;
    r.misdelivered = sink->m_misdelivered;
    for (const Ptr<TrafficSink>& other : senderSinks)
    {
        r.receivedBytes += other->m_bytes;
        r.reordered += other->m_reordered;
        r.misdelivered += other->m_misdelivered;
    }
    r.ceReceived = sink->m_ceMarked;
    r.lastRx = sink->m_lastRx;
    for (const FabricTopology::Switch& s : topo.switches)
    {
        Ptr<SwitchMmu> mmu = s.sw->GetMmu();
        r.drops += s.sw->GetStats().GetNDroppedPackets();
        r.bufferDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_BUFFER_FULL);
        r.headroomDrops +=
            s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_HEADROOM_EXCEEDED);
        r.queueDiscDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_QUEUE_DISC);
        r.pauses += s.sw->GetStats().nPfcPauses;
        r.resumes += s.sw->GetStats().nPfcResumes;
        r.pauseFrames += s.sw->GetStats().nPfcPauseFramesSent;
        r.ecnMarks += s.sw->GetStats().nEcnMarks;
        r.residualBytes += mmu->GetTotalUsed() + mmu->GetSharedUsed();
        r.peakUsed = std::max(r.peakUsed, mmu->GetStats().peakUsedBytes);
        for (uint32_t port = 0; port < s.sw->GetNPorts(); ++port)
        {
            for (uint8_t prio = 0; prio < 8; ++prio)
            {
                r.residualBytes += mmu->GetIngressBytes(port, prio) +
                                   mmu->GetHeadroomUsed(port, prio) +
                                   mmu->GetEgressBytes(port, prio);
                r.residualPaused += mmu->IsPaused(port, prio) ? 1 : 0;
            }
        }
    }
    Simulator::Destroy();
    return r;
}

} // namespace

namespace ns3
{

/**
 * \ingroup flux-tests
 * \brief A FIFO that holds its first packet back for 10 us after it
 * arrived, asking its port to poll again (PfcAwareQueueDisc::RequestPoll).
 */
class HoldFirstTestQueueDisc : public PfcAwareQueueDisc
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::HoldFirstTestQueueDisc")
                                .SetParent<PfcAwareQueueDisc>()
                                .SetGroupName("Flux")
                                .AddConstructor<HoldFirstTestQueueDisc>();
        return tid;
    }

    HoldFirstTestQueueDisc()
        : PfcAwareQueueDisc(QueueDiscSizePolicy::SINGLE_INTERNAL_QUEUE)
    {
    }

    /// How long the first packet is held.
    static constexpr int64_t HOLD_US = 10;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override
    {
        if (!m_seen)
        {
            m_seen = true;
            m_release = Simulator::Now() + MicroSeconds(HOLD_US);
        }
        return GetInternalQueue(0)->Enqueue(item);
    }

    Ptr<QueueDiscItem> DoDequeue() override
    {
        const Time now = Simulator::Now();
        if (m_seen && now < m_release)
        {
            RequestPoll(m_release - now);
            return nullptr;
        }
        return GetInternalQueue(0)->Dequeue();
    }

    Ptr<const QueueDiscItem> DoPeek() override
    {
        return m_seen && Simulator::Now() < m_release ? nullptr : GetInternalQueue(0)->Peek();
    }

    bool CheckConfig() override
    {
        return true;
    }

    void InitializeParams() override
    {
        if (GetNInternalQueues() == 0)
        {
            Ptr<InternalQueue> q = CreateObject<DropTailQueue<QueueDiscItem>>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 1000000));
            AddInternalQueue(q);
        }
    }

    bool m_seen{false}; //!< the first packet arrived
    Time m_release;     //!< when it may leave
};

NS_OBJECT_ENSURE_REGISTERED(HoldFirstTestQueueDisc);

} // namespace ns3

/**
 * \ingroup flux-tests
 * PfcPrioQueueDisc serves the highest non-empty band first, FIFO within a
 * band, skips the paused bands, and Peek() shows what Dequeue() returns.
 */
class PfcPrioQueueDiscTestCase : public TestCase
{
  public:
    PfcPrioQueueDiscTestCase()
        : TestCase("PfcPrioQueueDisc: strict priority, FIFO per band, paused bands skipped")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<PfcPrioQueueDisc> q = CreateObject<PfcPrioQueueDisc>();
        q->Initialize();
        const uint8_t prios[] = {0, 3, 7, 3, 5, 0};
        for (uint16_t i = 0; i < 6; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(
                q->Enqueue(MakeItem(prios[i], 1000, 128, Ipv4Header::ECN_NotECT, i)),
                true,
                "enqueue refused");
        }
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 6, "six packets queued");
        NS_TEST_ASSERT_MSG_EQ(q->GetBandPackets(3), 2, "two in band 3");

        // Priority 7 and 5 paused: band 3 comes first, in FIFO order.
        q->SetPausedMask((1 << 7) | (1 << 5));
        Ptr<const QueueDiscItem> peeked = q->Peek();
        NS_TEST_ASSERT_MSG_NE(peeked, nullptr, "something to peek at");
        Ptr<QueueDiscItem> item = q->Dequeue();
        NS_TEST_ASSERT_MSG_EQ(item, peeked, "Peek shows what Dequeue returns");
        NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), 3, "band 3 while 7 and 5 are paused");
        NS_TEST_ASSERT_MSG_EQ(DynamicCast<Ipv4QueueDiscItem>(item)->GetHeader().GetIdentification(),
                              1,
                              "FIFO within a band");
        // Everything paused: nothing, and nothing lost.
        q->SetPausedMask(0xff);
        NS_TEST_ASSERT_MSG_EQ(q->Peek(), nullptr, "all paused: nothing to peek");
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "all paused: nothing to dequeue");
        NS_TEST_ASSERT_MSG_EQ(q->GetNPackets(), 5, "paused packets stay");
        // Nothing paused: 7, 5, 3, 0, 0.
        q->SetPausedMask(0);
        const uint8_t expected[] = {7, 5, 3, 0, 0};
        for (uint8_t e : expected)
        {
            item = q->Dequeue();
            NS_TEST_ASSERT_MSG_NE(item, nullptr, "a packet is left");
            NS_TEST_ASSERT_MSG_EQ(+ClassOf(item), +e, "strict priority order");
        }
        NS_TEST_ASSERT_MSG_EQ(q->Dequeue(), nullptr, "empty");
        NS_TEST_ASSERT_MSG_EQ(q->GetNBytes(), 0, "no bytes left");
        q->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * SwitchMmu admission: a lossless queue fills its reserve, then the shared
 * pool up to the dynamic threshold (XOFF there), then its headroom, and
 * drops only when the headroom is full; releasing everything resumes it
 * and leaves no byte accounted. A lossy queue drops exactly when the shared
 * pool is full.
 */
class SwitchMmuAdmissionTestCase : public TestCase
{
  public:
    SwitchMmuAdmissionTestCase()
        : TestCase("SwitchMmu: reserve, dynamic threshold, XOFF and XON, headroom, lossy limit")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t pkt = 1000;
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetBufferSize(1 << 20);
        mmu->SetReservedBytes(4096);
        mmu->AddPort();
        mmu->AddPort();
        mmu->SetHeadroom(0, 20000);
        mmu->SetHeadroom(1, 20000);
        NS_TEST_ASSERT_MSG_EQ(mmu->CheckConfiguration(), "", "a usable configuration");
        const uint64_t pool = (1 << 20) - 2 * 8 * 4096 - 2 * 8 * 20000;
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedPoolSize(),
                              pool,
                              "pool = buffer - reserves - headroom");

        // Lossless priority 3 from port 0 to port 1.
        uint32_t admitted = 0;
        bool paused = false;
        while (!paused && admitted < 10000)
        {
            NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, 1, 3, pkt), SwitchMmu::ADMITTED, "admitted");
            ++admitted;
            paused = mmu->CheckXoff(0, 3);
        }
        NS_TEST_ASSERT_MSG_EQ(paused, true, "XOFF eventually");
        // XOFF comes with the first packet that does not fit under the
        // threshold: it is the first (and only) one in the headroom.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(mmu->GetHeadroomUsed(0, 3), pkt, "XOFF at the first overflow");
        // The threshold: shared s = alpha (pool - s), alpha 1/8.
        const double s = mmu->GetIngressBytes(0, 3) - 4096.0;
        const double expectedShared = pool / 9.0;
        NS_TEST_ASSERT_MSG_EQ_TOL(s, expectedShared, pkt, "XOFF at the dynamic threshold");
        NS_TEST_ASSERT_MSG_EQ(mmu->IsPaused(0, 3), true, "state paused");
        NS_TEST_ASSERT_MSG_EQ(mmu->CheckXoff(0, 3), false, "no second XOFF while paused");

        // Beyond the threshold: headroom, 20 packets of 1000 bytes, then a drop.
        while (mmu->GetHeadroomUsed(0, 3) < 20000)
        {
            NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, 1, 3, pkt), SwitchMmu::ADMITTED, "into headroom");
            ++admitted;
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, 3), 20000, "headroom full");
        NS_TEST_ASSERT_MSG_EQ(mmu->Admit(0, 1, 3, pkt),
                              SwitchMmu::DROP_HEADROOM_EXCEEDED,
                              "lossless drop only past the headroom");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetStats().nHeadroomDrops, 1, "counted as a headroom violation");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(1, 3),
                              static_cast<uint64_t>(admitted) * pkt,
                              "egress bytes");

        // Drain: no XON while headroom is in use; XON before the queue is empty.
        uint32_t released = 0;
        bool resumed = false;
        while (!resumed && released < admitted)
        {
            mmu->Release(0, 1, 3, pkt);
            ++released;
            resumed = mmu->CheckXon(0, 3);
            if (resumed)
            {
                NS_TEST_ASSERT_MSG_EQ(mmu->GetHeadroomUsed(0, 3),
                                      0,
                                      "XON only with empty headroom");
            }
        }
        NS_TEST_ASSERT_MSG_EQ(resumed, true, "XON eventually");
        NS_TEST_ASSERT_MSG_LT(released, admitted, "XON before the queue is empty");
        const double sharedAtXon = mmu->GetIngressBytes(0, 3) - 4096.0;
        NS_TEST_ASSERT_MSG_LT_OR_EQ(sharedAtXon + 3072,
                                    mmu->GetPfcThreshold() + 1.0,
                                    "XON a resume offset below the threshold");
        for (; released < admitted; ++released)
        {
            mmu->Release(0, 1, 3, pkt);
        }
        NS_TEST_ASSERT_MSG_EQ(mmu->GetTotalUsed(), 0, "nothing accounted after the drain");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetSharedUsed(), 0, "shared pool empty");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetIngressBytes(0, 3), 0, "ingress empty");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEgressBytes(1, 3), 0, "egress empty");

        // Lossy (PFC off): the whole pool, then drops.
        Ptr<SwitchMmu> lossy = CreateObject<SwitchMmu>();
        lossy->SetBufferSize(1 << 20);
        lossy->SetLossless(false);
        lossy->AddPort();
        lossy->AddPort();
        const uint64_t lossyPool = (1 << 20) - 2 * 8 * 4096;
        NS_TEST_ASSERT_MSG_EQ(lossy->GetSharedPoolSize(), lossyPool, "no headroom when lossy");
        uint64_t accepted = 0;
        while (lossy->Admit(0, 1, 3, pkt) == SwitchMmu::ADMITTED)
        {
            accepted += pkt;
            NS_TEST_ASSERT_MSG_EQ(lossy->CheckXoff(0, 3), false, "no PFC when lossy");
        }
        NS_TEST_ASSERT_MSG_EQ(lossy->GetStats().nBufferDrops, 1, "a buffer drop");
        NS_TEST_ASSERT_MSG_GT_OR_EQ(accepted + pkt, lossyPool + 4096, "dropped only when full");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(accepted, lossyPool + 4096, "never beyond pool + reserve");
        mmu->Dispose();
        lossy->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * ECN marking follows RED: never at or below Kmin, always above Kmax, and
 * with probability close to Pmax (q - Kmin) / (Kmax - Kmin) in between.
 */
class SwitchMmuEcnTestCase : public TestCase
{
  public:
    SwitchMmuEcnTestCase()
        : TestCase("SwitchMmu: RED-like ECN marking probability")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetLossless(false);
        mmu->AddPort();
        mmu->AddPort();
        mmu->SetEcnThresholds(1, 100000, 300000, 0.5);
        mmu->AssignStreams(7);
        auto fillTo = [&mmu](uint64_t bytes) {
            while (mmu->GetEgressBytes(1, 3) < bytes)
            {
                mmu->Admit(0, 1, 3, 1000);
            }
        };
        auto markRate = [&mmu](int draws) {
            int marks = 0;
            for (int i = 0; i < draws; ++i)
            {
                marks += mmu->ShouldMarkEcn(1, 3) ? 1 : 0;
            }
            return static_cast<double>(marks) / draws;
        };
        fillTo(100000);
        NS_TEST_ASSERT_MSG_EQ(markRate(1000), 0.0, "no mark at Kmin");
        fillTo(200000);
        NS_TEST_ASSERT_MSG_EQ_TOL(markRate(20000), 0.25, 0.02, "half way: Pmax / 2");
        fillTo(301000);
        NS_TEST_ASSERT_MSG_EQ(markRate(1000), 1.0, "always above Kmax");
        mmu->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * RequestPoll: a queue disc that holds its first packet back for 10 us and
 * asks its port to poll again gets it out 10 us later, with no other
 * arrival and no pause to wake the port in between.
 */
/**
 * \ingroup flux-tests
 * FabricQueueDiscItem's own allocation: items made in the memory of
 * released ones are whole. 400 items with distinct fields are made,
 * released and made again in a random order; every live item keeps its
 * own packet, header, port, class, size and charged bytes throughout, and
 * (outside sanitizer builds, which allocate each item) an item made right
 * after a release takes the released memory.
 */
class FabricItemReuseTestCase : public TestCase
{
  public:
    FabricItemReuseTestCase()
        : TestCase("FabricQueueDiscItem: items made in released memory are whole")
    {
    }

  private:
    /// What item number n holds.
    struct Expected
    {
        uint64_t uid;        //!< its packet's uid
        uint32_t port;       //!< ingress port
        uint8_t priority;    //!< traffic class
        uint32_t charged;    //!< charged bytes
        uint32_t size;       //!< IPv4 bytes
        Ipv4Address address; //!< destination
    };

    /// Make item number n.
    static Ptr<FabricQueueDiscItem> Make(uint32_t n, Expected& e)
    {
        Ptr<Packet> p = Create<Packet>(64 + n % 1000);
        Ipv4Header ip;
        ip.SetSource(Ipv4Address("10.0.0.1"));
        ip.SetDestination(Ipv4Address(0x0a000000 + n));
        ip.SetProtocol(17);
        ip.SetPayloadSize(p->GetSize());
        e = Expected{p->GetUid(),
                     n % 64,
                     static_cast<uint8_t>(n % 8),
                     100 + n,
                     0,
                     ip.GetDestination()};
        e.size = p->GetSize() + ip.GetSerializedSize();
        return Create<FabricQueueDiscItem>(p, ip, e.port, e.priority, e.charged);
    }

    void DoRun() override
    {
        Ptr<UniformRandomVariable> random = CreateObject<UniformRandomVariable>();
        random->SetStream(7);
        std::vector<Ptr<FabricQueueDiscItem>> items(400);
        std::vector<Expected> expected(items.size());
        uint32_t made = 0;
        uint32_t reused = 0;
        for (uint32_t round = 0; round < 20; ++round)
        {
            for (uint32_t k = 0; k < items.size(); ++k)
            {
                if (!items[k])
                {
                    items[k] = Make(made++, expected[k]);
                }
                else if (random->GetValue() < 0.5)
                {
                    const void* memory = PeekPointer(items[k]);
                    items[k] = nullptr; // the last reference: released
                    items[k] = Make(made++, expected[k]);
                    reused += PeekPointer(items[k]) == memory;
                }
            }
            for (uint32_t k = 0; k < items.size(); ++k)
            {
                const Expected& e = expected[k];
                const Ptr<FabricQueueDiscItem>& item = items[k];
                NS_TEST_ASSERT_MSG_EQ(item->GetPacket()->GetUid(), e.uid, "item " << k);
                NS_TEST_ASSERT_MSG_EQ(item->GetIngressPort(), e.port, "item " << k);
                NS_TEST_ASSERT_MSG_EQ(+item->GetPriority(), +e.priority, "item " << k);
                NS_TEST_ASSERT_MSG_EQ(item->GetChargedBytes(), e.charged, "item " << k);
                NS_TEST_ASSERT_MSG_EQ(item->GetSize(), e.size, "item " << k);
                NS_TEST_ASSERT_MSG_EQ(item->GetHeader().GetDestination(), e.address, "item " << k);
            }
        }
        NS_TEST_ASSERT_MSG_GT(made, 4000, "items were made again and again");
#if !defined(__SANITIZE_ADDRESS__)
        NS_TEST_ASSERT_MSG_EQ(reused,
                              made - items.size(),
                              "every item made after a release reuses its memory");
#endif
    }
};

/**
 * \ingroup flux-tests
 * FabricQueueDiscItem::Hash gives Ipv4QueueDiscItem::Hash's value (the
 * paths ns-3's hash gives flows) for UDP and TCP packets, a fragment (no
 * ports) and another protocol, for several perturbations.
 */
class FabricItemHashTestCase : public TestCase
{
  public:
    FabricItemHashTestCase()
        : TestCase("FabricQueueDiscItem::Hash equals Ipv4QueueDiscItem::Hash")
    {
    }

  private:
    void DoRun() override
    {
        uint32_t checked = 0;
        for (uint8_t protocol : {17, 6, 1})
        {
            for (uint16_t fragment : {0, 8})
            {
                for (uint16_t port : {0, 4791, 49152, 65535})
                {
                    Ptr<Packet> p = Create<Packet>(100);
                    if (protocol == 17)
                    {
                        UdpHeader udp;
                        udp.SetSourcePort(port);
                        udp.SetDestinationPort(4791);
                        p->AddHeader(udp);
                    }
                    else if (protocol == 6)
                    {
                        TcpHeader tcp;
                        tcp.SetSourcePort(port);
                        tcp.SetDestinationPort(80);
                        p->AddHeader(tcp);
                    }
                    Ipv4Header ip;
                    ip.SetSource(Ipv4Address("10.0.1.2"));
                    ip.SetDestination(Ipv4Address("10.0.3.4"));
                    ip.SetProtocol(protocol);
                    ip.SetFragmentOffset(fragment);
                    ip.SetPayloadSize(p->GetSize());
                    Ptr<Ipv4QueueDiscItem> reference =
                        Create<Ipv4QueueDiscItem>(p->Copy(), Address(), 0x0800, ip);
                    Ptr<FabricQueueDiscItem> item =
                        Create<FabricQueueDiscItem>(p->Copy(), ip, 0, 3, 0);
                    for (uint32_t perturbation : {0U, 1U, 0xdeadbeefU})
                    {
                        NS_TEST_ASSERT_MSG_EQ(item->Hash(perturbation),
                                              reference->Hash(perturbation),
                                              "protocol " << +protocol << ", fragment " << fragment
                                                          << ", port " << port);
                        ++checked;
                    }
                }
            }
        }
        NS_TEST_ASSERT_MSG_EQ(checked, 3 * 2 * 4 * 3, "every case checked");
    }
};

class RequestPollTestCase : public TestCase
{
  public:
    RequestPollTestCase()
        : TestCase("RequestPoll: a held packet leaves after 10 us with no other arrival")
    {
    }

  private:
    void DoRun() override
    {
        Time arrival[2];
        for (int hold = 0; hold < 2; ++hold)
        {
            FabricTopologyHelper helper;
            if (hold)
            {
                helper.SetQueueDisc("ns3::HoldFirstTestQueueDisc");
            }
            FabricTopology topo = helper.BuildLeafSpine(1, 0, 2);
            Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 1000);
            e->AddFlow(topo.hostAddresses[1], 1, 1, 3);
            e->Start(MicroSeconds(1));
            Simulator::Stop(MilliSeconds(1));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(sink->m_packets, 1, "the packet arrives");
            arrival[hold] = sink->m_lastRx;
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_EQ(arrival[1] - arrival[0],
                              MicroSeconds(HoldFirstTestQueueDisc::HOLD_US),
                              "held exactly 10 us");
    }
};

/**
 * \ingroup flux-tests
 * Per-class ECN thresholds: class 3 with Kmin 10 KB is marked at 30 KB
 * while class 5 of the same port, with the port's 1 MB thresholds, is not;
 * the per-port getters still read the port's thresholds; a per-class error
 * names the class.
 */
class SwitchMmuEcnClassTestCase : public TestCase
{
  public:
    SwitchMmuEcnClassTestCase()
        : TestCase("per-class ECN: class 3 marked at 10 KB while class 5 with 1 MB "
                   "thresholds is not")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetLossless(false);
        mmu->AddPort();
        mmu->AddPort();
        mmu->SetEcnThresholds(1, 1000000, 2000000, 0.2);
        mmu->SetEcnThresholds(1, 3, 10000, 20000, 1.0);
        mmu->AssignStreams(3);
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(1, 3), 10000, "class 3 Kmin");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmax(1, 3), 20000, "class 3 Kmax");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnPmax(1, 3), 1.0, "class 3 Pmax");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(1, 5), 1000000, "class 5 Kmin: the port's");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(1), 1000000, "per-port getter");
        NS_TEST_ASSERT_MSG_EQ(mmu->GetEcnKmin(0, 3), 400000, "other port: default");
        for (uint8_t prio : {3, 5})
        {
            while (mmu->GetEgressBytes(1, prio) < 30000)
            {
                mmu->Admit(0, 1, prio, 1000);
            }
        }
        int marks3 = 0;
        int marks5 = 0;
        for (int i = 0; i < 100; ++i)
        {
            marks3 += mmu->ShouldMarkEcn(1, 3) ? 1 : 0;
            marks5 += mmu->ShouldMarkEcn(1, 5) ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(marks3, 100, "class 3 above its Kmax: always marked");
        NS_TEST_ASSERT_MSG_EQ(marks5, 0, "class 5 below its Kmin: never marked");
        NS_TEST_ASSERT_MSG_EQ(mmu->CheckConfiguration(), "", "sound");
        mmu->SetEcnThresholds(1, 3, 500, 100, 0.2);
        const std::string msg = mmu->CheckConfiguration();
        NS_TEST_ASSERT_MSG_EQ(
            (msg.find("Kmin") != std::string::npos && msg.find("priority 3") != std::string::npos),
            true,
            "per-class error names the class: " << msg);
        mmu->Dispose();
    }
};

/**
 * \ingroup flux-tests
 * Configuration errors are reported as one message naming the parameter,
 * never by a crash; a sound configuration reports nothing.
 */
class SwitchMmuConfigurationTestCase : public TestCase
{
  public:
    SwitchMmuConfigurationTestCase()
        : TestCase("SwitchMmu: impossible configurations give a clear message")
    {
    }

  private:
    /**
     * \param configure changes to a sound 4-port MMU
     * \return CheckConfiguration()'s message
     */
    std::string Check(std::function<void(Ptr<SwitchMmu>)> configure)
    {
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        for (int i = 0; i < 4; ++i)
        {
            mmu->AddPort();
        }
        configure(mmu);
        std::string msg = mmu->CheckConfiguration();
        mmu->Dispose();
        return msg;
    }

    /**
     * \param msg a message
     * \param word what it must name
     * \return true if msg contains word
     */
    static bool Names(const std::string& msg, const std::string& word)
    {
        return msg.find(word) != std::string::npos;
    }

    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Check([](Ptr<SwitchMmu>) {}), "", "defaults are sound");
        std::string msg = Check([](Ptr<SwitchMmu> m) { m->SetBufferSize(512 * 1024); });
        NS_TEST_ASSERT_MSG_EQ((Names(msg, "BufferSize") && Names(msg, "headroom")),
                              true,
                              "buffer too small for the headroom: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) { m->SetBufferSize(0); });
        NS_TEST_ASSERT_MSG_EQ(Names(msg, "BufferSize"), true, "zero buffer: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) { m->SetEcnThresholds(2, 500, 100, 0.2); });
        NS_TEST_ASSERT_MSG_EQ(Names(msg, "Kmin"), true, "Kmin > Kmax: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) { m->SetEcnThresholds(1, 100, 500, 1.5); });
        NS_TEST_ASSERT_MSG_EQ(Names(msg, "Pmax"), true, "Pmax > 1: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) { m->SetAttribute("PfcAlpha", DoubleValue(0)); });
        NS_TEST_ASSERT_MSG_EQ(Names(msg, "PfcAlpha"), true, "alpha 0: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) { m->SetHeadroom(3, 0); });
        NS_TEST_ASSERT_MSG_EQ(Names(msg, "headroom"), true, "no headroom with PFC: " << msg);
        msg = Check([](Ptr<SwitchMmu> m) {
            m->SetHeadroom(3, 0);
            m->SetLossless(false);
        });
        NS_TEST_ASSERT_MSG_EQ(msg, "", "no headroom is fine without PFC");
        // The same buffer fits when fewer priorities are lossless.
        msg = Check([](Ptr<SwitchMmu> m) {
            m->SetBufferSize(1024 * 1024);
            m->SetLosslessPriorities(0x08);
        });
        NS_TEST_ASSERT_MSG_EQ(msg, "", "one lossless priority needs less headroom");
    }
};

/**
 * \ingroup flux-tests
 * 16-to-1 incast with PFC on: not one packet dropped, every byte delivered
 * in order, the switch paused its ingress ports (and the senders saw the
 * pauses), marked ECN, and ended with an empty, unpaused buffer.
 */
class LosslessIncastTestCase : public TestCase
{
  public:
    /**
     * \param fabric where the incast runs
     * \param qdisc egress queue disc type ("" = default)
     */
    LosslessIncastTestCase(IncastFabric fabric, std::string qdisc = "")
        : TestCase(std::string("lossless 16-to-1 incast through ") +
                   (fabric == IncastFabric::SINGLE_SWITCH ? "one switch" : "a leaf-spine") +
                   (qdisc.empty() ? "" : " with " + qdisc) +
                   ": no drop, PFC and ECN at work, all bytes in order"),
          m_fabric(fabric),
          m_qdisc(qdisc)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        FabricTopologyHelper helper;
        if (m_qdisc == "ns3::FifoQueueDisc")
        {
            helper.SetQueueDisc(m_qdisc, "MaxSize", StringValue("100000p"));
        }
        else if (!m_qdisc.empty())
        {
            helper.SetQueueDisc(m_qdisc);
        }
        const uint32_t packets = 500; // 2 MB per sender, 32 MB in all
        IncastResult r = RunIncast(helper, m_fabric, 16, packets);
        NS_TEST_ASSERT_MSG_EQ(r.sentBytes, 16ULL * packets * 4028, "every sender sent all");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0, "no drop with PFC");
        NS_TEST_ASSERT_MSG_EQ(r.headroomDrops, 0, "no headroom violation");
        NS_TEST_ASSERT_MSG_EQ(r.receivedBytes, r.sentBytes, "every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(r.reordered, 0, "no reordering within a flow");
        NS_TEST_ASSERT_MSG_EQ(r.misdelivered, 0, "delivered to the right host");
        NS_TEST_ASSERT_MSG_GT(r.pauses, 0, "the switch paused ingress ports");
        NS_TEST_ASSERT_MSG_EQ(r.resumes, r.pauses, "every pause was resumed");
        NS_TEST_ASSERT_MSG_GT(r.pauseFrames, 0, "PFC frames went out");
        NS_TEST_ASSERT_MSG_GT(r.senderPausesRx, 0, "the senders were paused");
        NS_TEST_ASSERT_MSG_GT(r.ecnMarks, 0, "ECN marks under incast");
        NS_TEST_ASSERT_MSG_GT(r.ceReceived, 0, "CE marks reach the receiver");
        NS_TEST_ASSERT_MSG_EQ(r.residualBytes, 0, "buffer accounting back to zero");
        NS_TEST_ASSERT_MSG_EQ(r.residualPaused, 0, "nothing left paused");
        // The receiver's link is the bottleneck: 32 MB at 100 Gb/s.
        const double wireBytes = 16.0 * packets * (4028 + 18 + 24);
        const double ideal = wireBytes * 8 / 100e9;
        NS_TEST_ASSERT_MSG_GT_OR_EQ(r.lastRx.GetSeconds(), ideal, "not faster than the line");
        NS_TEST_ASSERT_MSG_LT(r.lastRx.GetSeconds(),
                              ideal * 1.05 + 20e-6,
                              "the bottleneck stays busy (PFC does not idle it)");
    }

    IncastFabric m_fabric; //!< where
    std::string m_qdisc;   //!< egress queue disc
};

/**
 * \ingroup flux-tests
 * FabricSwitch::WaitEcn on ports with FluxQueueDisc (a class's flows served
 * in turn, class 5 strictly before class 3): with ECN as a step at K bytes,
 * every data packet leaves CE-marked exactly when its class's bytes exceed
 * K or, with WaitEcn, when the bytes the port sends in the time it waited
 * exceed K; some packets are marked for their wait alone.
 */
class WaitEcnTestCase : public TestCase
{
  public:
    WaitEcnTestCase()
        : TestCase("WaitEcn: a packet is marked for its class's bytes or for its own wait")
    {
    }

  private:
    static constexpr uint32_t K = 300000; //!< the ECN step, bytes

    /// Checks each packet leaving a port of the switch against the rule.
    struct Marks
    {
        Ptr<FabricSwitch> sw;   //!< the switch
        bool waitEcn{false};    //!< FabricSwitch::WaitEcn
        uint64_t packets{0};    //!< ECN-capable packets dequeued
        uint64_t marked{0};     //!< of them CE-marked
        uint64_t forWait{0};    //!< marked while the class's bytes were at most K
        uint64_t unexpected{0}; //!< marked or not against the rule

        /**
         * \brief Trace sink of FabricSwitch "Dequeue" (after marking).
         * \param item the packet
         * \param port its egress port
         */
        void Dequeued(Ptr<const QueueDiscItem> item, uint32_t port)
        {
            const Ipv4Header::EcnType ecn = EcnOf(item);
            if (ecn == Ipv4Header::ECN_NotECT)
            {
                return;
            }
            const uint8_t prio = PfcAwareQueueDisc::GetItemPriority(item);
            const uint64_t classBytes = sw->GetMmu()->GetEgressBytes(port, prio);
            const double waited = (Simulator::Now() - item->GetTimeStamp()).GetSeconds();
            const double rate = sw->GetPortDevice(port)->GetDataRate().GetBitRate();
            const auto waitBytes = static_cast<uint64_t>(waited * rate / 8);
            const bool isMarked = ecn == Ipv4Header::ECN_CE;
            const bool expected = classBytes > K || (waitEcn && waitBytes > K);
            ++packets;
            marked += isMarked ? 1 : 0;
            forWait += (isMarked && classBytes <= K) ? 1 : 0;
            unexpected += isMarked != expected ? 1 : 0;
        }
    };

    /**
     * \param waitEcn FabricSwitch::WaitEcn
     * \return what the dequeue trace saw
     */
    Marks Run(bool waitEcn)
    {
        RngSeedManager::SetSeed(3);
        FabricTopologyHelper helper;
        helper.SetEcn(K, K, 1.0);
        helper.SetQueueDisc("ns3::FluxQueueDisc");
        helper.SetSwitchAttribute("WaitEcn", BooleanValue(waitEcn));
        Marks m;
        m.waitEcn = waitEcn;
        auto setup = [&m](FabricTopology& topo) {
            m.sw = topo.switches[0].sw;
            m.sw->TraceConnectWithoutContext("Dequeue", MakeCallback(&Marks::Dequeued, &m));
        };
        IncastResult r =
            RunIncast(helper, IncastFabric::SINGLE_SWITCH, 2, 200, 4000, {3, 5}, false, setup);
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0, "no drop");
        NS_TEST_EXPECT_MSG_EQ(r.receivedBytes, r.sentBytes, "every byte delivered");
        m.sw = nullptr;
        return m;
    }

    void DoRun() override
    {
        const Marks off = Run(false);
        const Marks on = Run(true);
        NS_TEST_ASSERT_MSG_GT(off.packets, 0, "packets dequeued");
        NS_TEST_EXPECT_MSG_EQ(off.unexpected,
                              0,
                              "off: marked exactly when the class's bytes exceed K");
        NS_TEST_EXPECT_MSG_EQ(off.forWait, 0, "off: nothing marked for its wait");
        NS_TEST_EXPECT_MSG_EQ(on.unexpected, 0, "on: marked exactly when bytes or wait exceed K");
        NS_TEST_EXPECT_MSG_GT(on.forWait, 0, "on: packets marked for their wait alone");
        NS_TEST_EXPECT_MSG_GT(on.marked, off.marked, "on: more marks");
    }
};

/**
 * \ingroup flux-tests
 * The switch counts every CE mark it makes: with FluxQueueDisc marking per
 * flow at its ports, the ECN-capable packets that leave the switch CE-marked
 * number exactly the MMU's marks plus the queue discs' (Stats::nEcnMarks +
 * nQueueDiscMarks), both kinds occur, and no packet is marked twice.
 */
class QueueDiscMarksTestCase : public TestCase
{
  public:
    QueueDiscMarksTestCase()
        : TestCase("the switch's counters hold the MMU's and its queue discs' ECN marks")
    {
    }

  private:
    /// Read a switch's counters (a function: ns-3 before 3.32 schedules no lambda).
    static void ReadStats(Ptr<FabricSwitch> sw, FabricSwitch::Stats* stats)
    {
        *stats = sw->GetStats();
    }

    /// Counts the CE-marked packets leaving the switch.
    struct Seen
    {
        uint64_t ce{0}; //!< CE-marked data packets dequeued

        /**
         * \brief Trace sink of FabricSwitch "Dequeue" (after marking).
         * \param item the packet
         */
        void Dequeued(Ptr<const QueueDiscItem> item, uint32_t /* port */)
        {
            ce += EcnOf(item) == Ipv4Header::ECN_CE ? 1 : 0;
        }
    };

    void DoRun() override
    {
        RngSeedManager::SetSeed(5);
        FabricTopologyHelper helper;
        helper.SetEcn(400000, 400000, 1.0);
        helper.SetQueueDisc("ns3::FluxQueueDisc", "FlowEcnBytes", UintegerValue(100000));
        Seen seen;
        FabricSwitch::Stats st;
        auto setup = [&seen, &st](FabricTopology& topo) {
            Ptr<FabricSwitch> sw = topo.switches[0].sw;
            sw->TraceConnectWithoutContext("Dequeue", MakeCallback(&Seen::Dequeued, &seen));
            // (read before the run's end disposes of the switch)
            Simulator::Schedule(MilliSeconds(999), &ReadStats, sw, &st);
        };
        IncastResult r =
            RunIncast(helper, IncastFabric::SINGLE_SWITCH, 8, 200, 4000, {3}, false, setup);
        NS_TEST_EXPECT_MSG_EQ(r.drops, 0, "no drop");
        NS_TEST_EXPECT_MSG_EQ(r.receivedBytes, r.sentBytes, "every byte delivered");
        NS_TEST_EXPECT_MSG_GT(st.nEcnMarks, 0, "the MMU marked");
        NS_TEST_EXPECT_MSG_GT(st.nQueueDiscMarks, 0, "the queue discs marked");
        NS_TEST_EXPECT_MSG_EQ(seen.ce,
                              st.nEcnMarks + st.nQueueDiscMarks,
                              "every CE packet counted once");
    }
};

/**
 * \ingroup flux-tests
 * The hardest case for the PFC headroom: links without propagation delay,
 * so that the headroom is made of frames only (three 9000-byte frames: two
 * are not enough here), data in both directions of the host links (each
 * sender also feeds the next one), and two lossless priorities congested at
 * once. Still no drop and every byte in order.
 */
class LosslessJumboTwoClassesTestCase : public TestCase
{
  public:
    LosslessJumboTwoClassesTestCase()
        : TestCase("lossless incast with jumbo frames, zero-delay links, reverse traffic and two "
                   "congested priorities: no drop")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        FabricTopologyHelper helper;
        helper.SetLinkDelay(Seconds(0));
        const uint32_t packets = 120;
        const uint32_t payload = 8972; // 9000-byte IPv4 packets, the Mtu
        IncastResult r =
            RunIncast(helper, IncastFabric::LEAF_SPINE, 16, packets, payload, {3, 5}, true);
        NS_TEST_ASSERT_MSG_EQ(r.sentBytes, 16ULL * 4 * packets * 9000, "every sender sent all");
        NS_TEST_ASSERT_MSG_EQ(r.drops, 0, "no drop with PFC");
        NS_TEST_ASSERT_MSG_EQ(r.receivedBytes, r.sentBytes, "every byte delivered");
        NS_TEST_ASSERT_MSG_EQ(r.reordered, 0, "no reordering within a flow");
        NS_TEST_ASSERT_MSG_GT(r.pauses, 0, "PFC at work");
        NS_TEST_ASSERT_MSG_EQ(r.residualBytes, 0, "buffer accounting back to zero");
        NS_TEST_ASSERT_MSG_EQ(r.residualPaused, 0, "nothing left paused");
    }
};

/**
 * \ingroup flux-tests
 * The same incast with PFC off: the shared buffer overflows and the switch
 * drops, counts the drops as buffer drops, sends no PFC, and its accounting
 * still returns to zero.
 */
class LossyIncastTestCase : public TestCase
{
  public:
    LossyIncastTestCase()
        : TestCase("lossy 16-to-1 incast (PFC off): drops at the buffer limit, no PFC")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        FabricTopologyHelper helper;
        helper.SetPfc(false);
        IncastResult r = RunIncast(helper, IncastFabric::SINGLE_SWITCH, 16, 500);
        NS_TEST_ASSERT_MSG_GT(r.bufferDrops, 0, "drops at the buffer limit");
        NS_TEST_ASSERT_MSG_EQ(r.drops, r.bufferDrops, "all drops are buffer drops");
        NS_TEST_ASSERT_MSG_EQ(r.pauses, 0, "no PFC decision");
        NS_TEST_ASSERT_MSG_EQ(r.pauseFrames, 0, "no PFC frame");
        NS_TEST_ASSERT_MSG_EQ(r.senderPausesRx, 0, "senders never paused");
        NS_TEST_ASSERT_MSG_LT(r.receivedBytes, r.sentBytes, "bytes lost");
        NS_TEST_ASSERT_MSG_EQ(r.residualBytes, 0, "buffer accounting back to zero");
        // The buffer was really full: occupancy reached the pool.
        NS_TEST_ASSERT_MSG_GT(r.peakUsed, 15 * 1024 * 1024, "drops only with a full buffer");
    }
};

/**
 * \ingroup flux-tests
 * A foreign queue disc that drops (FifoQueueDisc limited to 20 packets):
 * its drops are counted as queue-disc drops and give their buffer space
 * back.
 */
class QueueDiscDropTestCase : public TestCase
{
  public:
    QueueDiscDropTestCase()
        : TestCase("queue disc drops are counted and release the buffer")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetPfc(false);
        helper.SetQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("20p"));
        IncastResult r = RunIncast(helper, IncastFabric::SINGLE_SWITCH, 4, 200);
        NS_TEST_ASSERT_MSG_GT(r.queueDiscDrops, 0, "the queue disc dropped");
        NS_TEST_ASSERT_MSG_EQ(r.drops, r.queueDiscDrops, "only queue disc drops");
        NS_TEST_ASSERT_MSG_LT(r.receivedBytes, r.sentBytes, "bytes lost");
        NS_TEST_ASSERT_MSG_EQ(r.residualBytes, 0, "dropped packets released their space");
    }
};

/**
 * \ingroup flux-tests
 * A priority paused at an egress port: the default PfcPrioQueueDisc still
 * sends the other priorities, a plain FIFO (ns3::FifoQueueDisc) holds
 * everything behind the paused head; after the resume all arrives.
 */
class PausedEgressTestCase : public TestCase
{
  public:
    /**
     * \param fifo install a FifoQueueDisc instead of the default
     */
    explicit PausedEgressTestCase(bool fifo)
        : TestCase(fifo ? "paused priority at a FIFO egress blocks the head of line"
                        : "paused priority at the default egress does not block others"),
          m_fifo(fifo)
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        if (m_fifo)
        {
            helper.SetQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));
        }
        FabricTopology topo = helper.BuildLeafSpine(1, 0, 2);
        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 1000);
        e->AddFlow(topo.hostAddresses[1], 1, 10, 3);
        e->AddFlow(topo.hostAddresses[1], 2, 10, 7);
        // Host 1 pauses priority 3 at the switch, then resumes it.
        Simulator::Schedule(NanoSeconds(0),
                            &PfcNetDevice::SetPauseUpstream,
                            topo.hostDevices[1],
                            3,
                            true);
        e->Start(MicroSeconds(5));
        m_sink = sink;
        m_sender = topo.hostAddresses[0];
        Simulator::Schedule(MicroSeconds(50), &PausedEgressTestCase::Snapshot, this);
        Simulator::Schedule(MicroSeconds(60),
                            &PfcNetDevice::SetPauseUpstream,
                            topo.hostDevices[1],
                            3,
                            false);
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_prio3AtCheck, 0, "paused priority held");
        NS_TEST_ASSERT_MSG_EQ(m_prio7AtCheck,
                              (m_fifo ? 0 : 10),
                              (m_fifo ? "FIFO: blocked behind the paused head"
                                      : "other priority flows past the paused one"));
        NS_TEST_ASSERT_MSG_EQ(sink->m_packets, 20, "all arrive after the resume");
        NS_TEST_ASSERT_MSG_EQ(sink->m_reordered, 0, "in order");
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(), 0, "no drop");
        m_sink = nullptr;
        Simulator::Destroy();
    }

    /// Record what arrived while priority 3 is paused.
    void Snapshot()
    {
        m_prio3AtCheck = m_sink->GetFlow(m_sender, 1).packets;
        m_prio7AtCheck = m_sink->GetFlow(m_sender, 2).packets;
    }

    bool m_fifo;                 //!< FIFO egress
    Ptr<TrafficSink> m_sink;     //!< the receiver
    Ipv4Address m_sender;        //!< the sender's address
    uint64_t m_prio3AtCheck{99}; //!< priority-3 packets at the snapshot
    uint64_t m_prio7AtCheck{99}; //!< priority-7 packets at the snapshot
};

/**
 * \ingroup flux-tests
 * ECMP by 5-tuple hash: 256 flows between two leaves spread over all four
 * spines (each carries 1/4 +- 50 %), no packet of a flow is reordered, the
 * spines really carry what FabricTopology::GetPath predicts, the same seed
 * gives the same paths and another seed different ones.
 */
class EcmpTestCase : public TestCase
{
  public:
    EcmpTestCase()
        : TestCase("ECMP: flows spread over all spines, per-flow order, seed-dependent")
    {
    }

  private:
    /**
     * \param topo a 2-leaf fabric with one host per leaf
     * \param flows number of flows
     * \return per flow: the spine it crosses (from GetPath)
     */
    static std::vector<std::string> Spines(const FabricTopology& topo, uint32_t flows)
    {
        std::vector<std::string> spines;
        for (uint32_t f = 0; f < flows; ++f)
        {
            std::vector<uint32_t> path = topo.GetPath(0, 1, 10000 + f);
            spines.push_back(path.size() == 4 ? topo.links[path[1]].name : "none");
        }
        return spines;
    }

    void DoRun() override
    {
        const uint32_t flows = 256;
        const uint32_t packets = 4;
        FabricTopologyHelper helper;
        helper.SetEcmpSeed(11);
        FabricTopology topo = helper.BuildLeafSpine(2, 4, 1);
        const std::vector<std::string> predicted = Spines(topo, flows);

        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 1000);
        for (uint32_t f = 0; f < flows; ++f)
        {
            e->AddFlow(topo.hostAddresses[1], 10000 + f, packets);
        }
        e->Start(MicroSeconds(1));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sink->m_packets, flows * packets, "all delivered");
        NS_TEST_ASSERT_MSG_EQ(sink->m_reordered, 0, "no reordering within any flow");
        std::map<std::string, uint64_t> predictedPackets;
        for (const std::string& s : predicted)
        {
            predictedPackets[s] += packets;
        }
        for (const FabricTopology::Switch& s : topo.switches)
        {
            if (s.tier != 1)
            {
                continue;
            }
            const uint64_t carried = s.sw->GetStats().nRxPackets;
            NS_TEST_ASSERT_MSG_GT(carried, flows * packets / 4 / 2, s.name << " carries its share");
            NS_TEST_ASSERT_MSG_LT(carried,
                                  flows * packets / 4 * 3 / 2,
                                  s.name << " carries no more than its share");
            NS_TEST_ASSERT_MSG_EQ(carried,
                                  predictedPackets["leaf0->" + s.name],
                                  s.name << " carries what GetPath predicts");
        }
        Simulator::Destroy();

        FabricTopology same = helper.BuildLeafSpine(2, 4, 1);
        helper.SetEcmpSeed(12);
        FabricTopology other = helper.BuildLeafSpine(2, 4, 1);
        const std::vector<std::string> sameSpines = Spines(same, flows);
        const std::vector<std::string> otherSpines = Spines(other, flows);
        uint32_t sameDiffer = 0;
        uint32_t otherDiffer = 0;
        for (uint32_t f = 0; f < flows; ++f)
        {
            sameDiffer += sameSpines[f] != predicted[f] ? 1 : 0;
            otherDiffer += otherSpines[f] != predicted[f] ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(sameDiffer, 0, "same seed, same paths");
        NS_TEST_ASSERT_MSG_GT(otherDiffer, flows / 2, "another seed moves most flows");
        NS_TEST_ASSERT_MSG_NE(same.switches[0].sw->GetEcmpSeed(),
                              same.switches[1].sw->GetEcmpSeed(),
                              "switches of one fabric have different seeds");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * TTL: each switch decrements it; a packet arriving with TTL 1 is dropped
 * (counted as DROP_TTL_EXPIRED), one with enough TTL arrives with TTL
 * reduced by the number of switches.
 */
class TtlTestCase : public TestCase
{
  public:
    TtlTestCase()
        : TestCase("TTL decremented per switch, expired packets dropped")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology topo = helper.BuildLeafSpine(2, 1, 1);
        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 100);
        e->AddFlow(topo.hostAddresses[1], 1, 5, 3, 3); // dies at the third switch
        e->AddFlow(topo.hostAddresses[1], 2, 5, 3, 4); // arrives with TTL 1
        e->Start(MicroSeconds(1));
        Simulator::Run();
        uint64_t ttlDrops = 0;
        for (const FabricTopology::Switch& s : topo.switches)
        {
            ttlDrops += s.sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_TTL_EXPIRED);
        }
        NS_TEST_ASSERT_MSG_EQ(ttlDrops, 5, "TTL 3 dies on a 3-switch path");
        NS_TEST_ASSERT_MSG_EQ(sink->m_packets, 5, "TTL 4 arrives");
        NS_TEST_ASSERT_MSG_EQ(sink->m_ttls[1], 5, "with TTL 4 - 3 switches");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * A test case that compares two incasts counter by counter.
 */
class IncastComparisonTestCase : public TestCase
{
  protected:
    /** \param name the test case's name */
    explicit IncastComparisonTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * \brief Check that two incasts gave the same counters and timing.
     * \param a one result
     * \param b the other
     */
    void ExpectSameIncast(const IncastResult& a, const IncastResult& b)
    {
        NS_TEST_EXPECT_MSG_EQ(a.ecnMarks, b.ecnMarks, "same ECN marks");
        NS_TEST_EXPECT_MSG_EQ(a.pauses, b.pauses, "same pauses");
        NS_TEST_EXPECT_MSG_EQ(a.pauseFrames, b.pauseFrames, "same pause frames");
        NS_TEST_EXPECT_MSG_EQ(a.drops, b.drops, "same drops");
        NS_TEST_EXPECT_MSG_EQ(a.ceReceived, b.ceReceived, "same CE at the receiver");
        NS_TEST_EXPECT_MSG_EQ(a.peakUsed, b.peakUsed, "same peak occupancy");
        NS_TEST_EXPECT_MSG_EQ(a.lastRx, b.lastRx, "same completion time");
    }
};

/**
 * \ingroup flux-tests
 * Determinism: the same incast with the same seed twice gives identical
 * counters and timing.
 */
class SwitchDeterminismTestCase : public IncastComparisonTestCase
{
  public:
    SwitchDeterminismTestCase()
        : IncastComparisonTestCase("same seed, same counters")
    {
    }

  private:
    void DoRun() override
    {
        IncastResult r[2];
        for (int i = 0; i < 2; ++i)
        {
            RngSeedManager::SetSeed(5);
            FabricTopologyHelper helper;
            helper.SetEcn(50000, 400000, 0.2); // many random draws
            r[i] = RunIncast(helper, IncastFabric::LEAF_SPINE, 12, 200);
        }
        NS_TEST_ASSERT_MSG_GT(r[0].ecnMarks, 0, "randomness was used");
        ExpectSameIncast(r[0], r[1]);
    }
};

/**
 * \ingroup flux-tests
 * Ports with built-in bands (FabricSwitch::NativeEgress) serve packets as
 * PfcPrioQueueDisc does: an incast with two lossless classes, flows in a
 * ring, PFC pauses and ECN marks gives the same counters and completion
 * time both ways; the ports have no queue disc then, and nothing is left
 * queued.
 */
class NativeEgressTestCase : public IncastComparisonTestCase
{
  public:
    NativeEgressTestCase()
        : IncastComparisonTestCase(
              "NativeEgress (default): the same results as PfcPrioQueueDisc, no queue disc")
    {
    }

  private:
    void DoRun() override
    {
        IncastResult r[2];
        for (int native = 0; native < 2; ++native)
        {
            RngSeedManager::SetSeed(5);
            FabricTopologyHelper helper;
            helper.SetEcn(50000, 400000, 0.2);
            if (native == 0)
            {
                helper.SetQueueDisc("ns3::PfcPrioQueueDisc"); // what the bands stand in for
            }
            r[native] = RunIncast(helper, IncastFabric::LEAF_SPINE, 16, 200, 4000, {3, 5}, true);
        }
        NS_TEST_ASSERT_MSG_GT(r[0].pauses, 0, "PFC paused ports");
        NS_TEST_ASSERT_MSG_GT(r[0].ecnMarks, 0, "ECN marked packets");
        ExpectSameIncast(r[1], r[0]);

        // Built-in bands by default; a queue disc with NativeEgress false.
        for (bool native : {true, false})
        {
            FabricTopologyHelper helper;
            if (!native)
            {
                helper.SetSwitchAttribute("NativeEgress", BooleanValue(false));
            }
            FabricTopology topo = helper.BuildLeafSpine(1, 0, 2);
            Ptr<FabricSwitch> sw = topo.switches[0].sw;
            NS_TEST_ASSERT_MSG_EQ((sw->GetQueueDisc(0) == nullptr),
                                  native,
                                  "a queue disc on the port only without NativeEgress");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup flux-tests
 * The switch test suite.
 */
class FluxSwitchTestSuite : public TestSuite
{
  public:
    FluxSwitchTestSuite()
        : TestSuite("flux-switch")
    {
        AddTestCase(new PfcPrioQueueDiscTestCase);
        AddTestCase(new SwitchMmuAdmissionTestCase);
        AddTestCase(new SwitchMmuEcnTestCase);
        AddTestCase(new SwitchMmuConfigurationTestCase);
        AddTestCase(new SwitchMmuEcnClassTestCase);
        AddTestCase(new RequestPollTestCase);
        AddTestCase(new FabricItemHashTestCase);
        AddTestCase(new FabricItemReuseTestCase);
        AddTestCase(new LosslessIncastTestCase(IncastFabric::SINGLE_SWITCH));
        AddTestCase(new LosslessIncastTestCase(IncastFabric::LEAF_SPINE));
        AddTestCase(new LosslessIncastTestCase(IncastFabric::SINGLE_SWITCH, "ns3::FifoQueueDisc"));
        AddTestCase(
            new LosslessIncastTestCase(IncastFabric::SINGLE_SWITCH, "ns3::FqCoDelQueueDisc"));
        AddTestCase(new LosslessIncastTestCase(IncastFabric::SINGLE_SWITCH, "ns3::FluxQueueDisc"));
        AddTestCase(new QueueDiscMarksTestCase);
        AddTestCase(new LosslessJumboTwoClassesTestCase);
        AddTestCase(new WaitEcnTestCase);
        AddTestCase(new LossyIncastTestCase);
        AddTestCase(new QueueDiscDropTestCase);
        AddTestCase(new PausedEgressTestCase(false));
        AddTestCase(new PausedEgressTestCase(true));
        AddTestCase(new EcmpTestCase);
        AddTestCase(new TtlTestCase);
        AddTestCase(new SwitchDeterminismTestCase);
        AddTestCase(new NativeEgressTestCase);
    }
};

static FluxSwitchTestSuite g_fluxSwitchTestSuite; //!< Static variable for test initialization
