/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The PFC watchdog: a pause storm from a host is detected after
 * DetectionTime and mitigated (drop or forward) until RestorationTime
 * without pauses; a paused queue without packets is no storm; a PFC
 * deadlock built on purpose on a ring of switches stalls the fabric without
 * the watchdog and is broken by it; the watchdog changes nothing where no
 * pause lasts; the scenario runner reports a deadlock as "stalled".
 */

#include "../fabric-test-traffic.h"

#include "ns3/core-module.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/network-module.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/switch-mmu.h"

#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::fluxtest;

namespace
{

/// The watchdog a test runs with.
enum class WatchdogMode
{
    NONE,   //!< no watchdog
    DROP,   //!< Action "drop"
    FORWARD //!< Action "forward"
};

/**
 * \param mode the watchdog
 * \return its name, for test names
 */
std::string
ModeName(WatchdogMode mode)
{
    return mode == WatchdogMode::NONE   ? "no watchdog"
           : mode == WatchdogMode::DROP ? "drop"
                                        : "forward";
}

/**
 * \brief Give a fabric's switches PFC watchdogs.
 * \param helper the fabric settings
 * \param mode the watchdog (NONE: nothing)
 * \param detection DetectionTime
 * \param restoration RestorationTime
 */
void
SetWatchdog(FabricTopologyHelper& helper, WatchdogMode mode, Time detection, Time restoration)
{
    if (mode == WatchdogMode::NONE)
    {
        return;
    }
    ObjectFactory factory;
    factory.SetTypeId(PfcWatchdog::GetTypeId());
    factory.Set("DetectionTime", TimeValue(detection));
    factory.Set("RestorationTime", TimeValue(restoration));
    factory.Set("Action", StringValue(mode == WatchdogMode::DROP ? "drop" : "forward"));
    helper.SetSwitchAttribute("PfcWatchdogFactory", ObjectFactoryValue(factory));
    helper.SetSwitchAttribute("PfcWatchdog", BooleanValue(true));
}

/**
 * \param topo a fabric
 * \return bytes its switches' buffers hold
 */
uint64_t
BufferedBytes(const FabricTopology& topo)
{
    uint64_t total = 0;
    for (const auto& s : topo.switches)
    {
        total += s.sw->GetMmu()->GetTotalUsed();
    }
    return total;
}

} // namespace

/**
 * \ingroup flux-tests
 * A host that keeps pausing its switch port (a PFC storm from a broken NIC)
 * for 3 ms while another host sends to it over a 1 MB buffer. Without a
 * watchdog nothing reaches it until the storm ends and the sender is
 * paused in turn. With a watchdog (DetectionTime 500 us, RestorationTime
 * 1 ms) the storm is declared exactly 500 us after the first pause; "drop"
 * discards every packet of the stormed queue, "forward" delivers them
 * despite the pauses; the queue is restored 1 ms after the last pause frame,
 * and a flow sent after that is delivered normally.
 */
class PfcStormTestCase : public TestCase
{
  public:
    /**
     * \param mode the watchdog
     */
    explicit PfcStormTestCase(WatchdogMode mode)
        : TestCase("PFC storm from a host, " + ModeName(mode)),
          m_mode(mode)
    {
    }

  private:
    /// Packets of the flow sent during the storm.
    static constexpr uint32_t STORM_PACKETS = 1000;
    /// Packets of the flow sent after the restoration.
    static constexpr uint32_t LATE_PACKETS = 100;

    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetBufferSize(1000000);
        helper.SetLosslessPriorities(TrafficClass::Bit(3));
        SetWatchdog(helper, m_mode, MicroSeconds(500), MilliSeconds(1));
        FabricTopology topo = helper.BuildLeafSpine(1, 0, 2);
        Ptr<FabricSwitch> sw = topo.switches[0].sw;
        Ptr<PfcNetDevice> stormedPort = sw->GetPortDevice(1); // towards host 1
        if (m_mode != WatchdogMode::NONE)
        {
            Ptr<PfcWatchdog> wd = stormedPort->GetWatchdog();
            NS_TEST_ASSERT_MSG_NE(wd, nullptr, "every port has a watchdog");
            wd->TraceConnectWithoutContext("StormDetected",
                                           MakeCallback(&PfcStormTestCase::Detected, this));
            wd->TraceConnectWithoutContext("StormRestored",
                                           MakeCallback(&PfcStormTestCase::Restored, this));
        }
        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
        Ptr<TrafficEgress> early =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 4000);
        early->AddFlow(topo.hostAddresses[1], 1, STORM_PACKETS, 3);
        early->Start(MicroSeconds(5));
        // Host 1 pauses priority 3 from 0 to 3 ms, refreshing the pause.
        Simulator::Schedule(Time(0), &PfcNetDevice::SetPauseUpstream, topo.hostDevices[1], 3, true);
        Simulator::Schedule(MilliSeconds(3),
                            &PfcNetDevice::SetPauseUpstream,
                            topo.hostDevices[1],
                            3,
                            false);
        m_sink = sink;
        Simulator::Schedule(MicroSeconds(2990), &PfcStormTestCase::Snapshot, this);
        // A second flow, after the restoration (at most 4 ms).
        Ptr<TrafficEgress> late =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 4000);
        late->AddFlow(topo.hostAddresses[1], 2, LATE_PACKETS, 3);
        Simulator::Schedule(MilliSeconds(5), &TrafficEgress::Start, late, Time(0));
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();

        const Ipv4Address sender = topo.hostAddresses[0];
        const uint64_t stormDrops =
            sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_PFC_WATCHDOG);
        const PfcWatchdog::Counters c = sw->GetStats().watchdog;
        NS_TEST_ASSERT_MSG_EQ(early->GetSentPackets(), STORM_PACKETS, "the first flow was sent");
        NS_TEST_ASSERT_MSG_EQ(sink->GetFlow(sender, 2).packets,
                              LATE_PACKETS,
                              "the flow after the storm is delivered whole");
        NS_TEST_ASSERT_MSG_EQ(stormDrops,
                              c.drops,
                              "the switch counts the watchdog's drops as its own");
        NS_TEST_ASSERT_MSG_EQ(BufferedBytes(topo), 0, "the buffer is empty at the end");
        switch (m_mode)
        {
        case WatchdogMode::NONE:
            NS_TEST_ASSERT_MSG_EQ(m_deliveredInStorm, 0, "nothing passes the storm");
            NS_TEST_ASSERT_MSG_GT(topo.hostDevices[0]->GetPfcPausesReceived(),
                                  0,
                                  "the storm spreads: the sender is paused");
            NS_TEST_ASSERT_MSG_EQ(sink->GetFlow(sender, 1).packets,
                                  STORM_PACKETS,
                                  "all delivered after the storm");
            NS_TEST_ASSERT_MSG_EQ(c.storms, 0, "no watchdog, no storm");
            break;
        case WatchdogMode::DROP:
            NS_TEST_ASSERT_MSG_EQ(sink->GetFlow(sender, 1).packets,
                                  0,
                                  "stormed queue delivers none");
            NS_TEST_ASSERT_MSG_EQ(stormDrops, STORM_PACKETS, "every packet of the storm dropped");
            NS_TEST_ASSERT_MSG_EQ(sw->GetStats().GetNDroppedPackets(),
                                  stormDrops,
                                  "no drop of another reason");
            NS_TEST_ASSERT_MSG_EQ(c.forwarded, 0, "nothing forwarded");
            break;
        case WatchdogMode::FORWARD:
            NS_TEST_ASSERT_MSG_EQ(m_deliveredInStorm,
                                  STORM_PACKETS,
                                  "forwarded to the pausing host during the storm");
            NS_TEST_ASSERT_MSG_EQ(c.forwarded, STORM_PACKETS, "every packet counted as forwarded");
            NS_TEST_ASSERT_MSG_EQ(sw->GetStats().GetNDroppedPackets(), 0, "no drop");
            break;
        }
        if (m_mode != WatchdogMode::NONE)
        {
            NS_TEST_ASSERT_MSG_EQ(c.storms, 1, "one storm");
            NS_TEST_ASSERT_MSG_EQ(c.restorations, 1, "restored once");
            NS_TEST_ASSERT_MSG_GT(c.ignoredPauses, 0, "the storm's pause frames were ignored");
            NS_TEST_ASSERT_MSG_EQ(m_detected.size(), 1, "StormDetected traced once");
            NS_TEST_ASSERT_MSG_EQ(m_restored.size(), 1, "StormRestored traced once");
            if (m_detected.size() == 1 && m_restored.size() == 1)
            {
                // The first pause frame arrives about 1 us after time 0.
                NS_TEST_ASSERT_MSG_EQ_TOL(m_detected[0].GetMicroSeconds(),
                                          501,
                                          1,
                                          "detected DetectionTime after the pause began");
                // Pauses are refreshed every 167.8 us until 3 ms: the last one
                // arrives after 2.83 ms.
                NS_TEST_ASSERT_MSG_GT_OR_EQ(m_restored[0],
                                            MicroSeconds(3830),
                                            "restored RestorationTime after the last pause");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(m_restored[0],
                                            MicroSeconds(4001),
                                            "restored RestorationTime after the last pause");
            }
            NS_TEST_ASSERT_MSG_EQ(stormedPort->GetIgnoredMask(), 0, "pauses honoured again");
            NS_TEST_ASSERT_MSG_EQ(sw->GetPortDevice(0)->GetWatchdog()->GetCounters().storms,
                                  0,
                                  "the sender's port saw no storm");
        }
        m_sink = nullptr;
        Simulator::Destroy();
    }

    /// Count what the stormed host got before the storm ends.
    void Snapshot()
    {
        m_deliveredInStorm = m_sink->m_packets;
    }

    /**
     * \param prio the priority
     */
    void Detected(uint8_t prio)
    {
        NS_TEST_EXPECT_MSG_EQ(+prio, 3, "the paused priority is stormed");
        m_detected.push_back(Simulator::Now());
    }

    /**
     * \param prio the priority
     */
    void Restored(uint8_t prio)
    {
        NS_TEST_EXPECT_MSG_EQ(+prio, 3, "the paused priority is restored");
        m_restored.push_back(Simulator::Now());
    }

    WatchdogMode m_mode;             //!< the watchdog
    Ptr<TrafficSink> m_sink;         //!< the stormed host
    uint64_t m_deliveredInStorm{99}; //!< packets it got before the storm ended
    std::vector<Time> m_detected;    //!< StormDetected times
    std::vector<Time> m_restored;    //!< StormRestored times
};

/**
 * \ingroup flux-tests
 * A port paused for a long time with nothing to send is no storm: the
 * watchdog waits until packets are held back, then declares it.
 */
class PausedEmptyQueueTestCase : public TestCase
{
  public:
    PausedEmptyQueueTestCase()
        : TestCase("a long pause of an empty queue is no storm until packets wait")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        SetWatchdog(helper, WatchdogMode::DROP, MicroSeconds(200), MilliSeconds(1));
        FabricTopology topo = helper.BuildLeafSpine(1, 0, 2);
        Ptr<FabricSwitch> sw = topo.switches[0].sw;
        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[1], topo.hostAddresses[1]);
        Simulator::Schedule(Time(0), &PfcNetDevice::SetPauseUpstream, topo.hostDevices[1], 3, true);
        Ptr<TrafficEgress> e =
            CreateObject<TrafficEgress>(topo.hostDevices[0], topo.hostAddresses[0], 1000);
        e->AddFlow(topo.hostAddresses[1], 1, 10, 3);
        e->Start(MicroSeconds(1500));
        Simulator::Schedule(MicroSeconds(1499), &PausedEmptyQueueTestCase::Snapshot, this, sw);
        Simulator::Stop(MilliSeconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(m_stormsBeforeTraffic, 0, "paused 1.5 ms with nothing queued");
        NS_TEST_ASSERT_MSG_EQ(sw->GetStats().watchdog.storms, 1, "stormed once packets wait");
        NS_TEST_ASSERT_MSG_EQ(sw->GetStats().GetNDroppedPackets(FabricSwitch::DROP_PFC_WATCHDOG),
                              10,
                              "and dropped");
        NS_TEST_ASSERT_MSG_EQ(sink->m_packets, 0, "nothing passes");
        Simulator::Destroy();
    }

    /**
     * \param sw the switch
     */
    void Snapshot(Ptr<FabricSwitch> sw)
    {
        m_stormsBeforeTraffic = sw->GetStats().watchdog.storms;
    }

    uint64_t m_stormsBeforeTraffic{99}; //!< storms before any packet was queued
};

/**
 * \ingroup flux-tests
 * A PFC deadlock built on purpose: five switches in a ring, one host each,
 * host i sending to host i+2 (two hops clockwise, the only shortest path),
 * 4 MB per flow over 1 MB switch buffers. Every ring link carries two
 * flows, every switch's ring ingress pauses the switch before it: a cyclic
 * buffer dependency.
 * - Without a watchdog the fabric deadlocks: between 5 and 10 ms not one
 *   packet is delivered, the buffers hold packets and every ring port is
 *   paused by its peer.
 * - With watchdogs (DetectionTime 200 us, RestorationTime 500 us) the
 *   deadlock is detected and broken: "drop" delivers or discards every
 *   packet, "forward" delivers them (the pausing peer may drop some for
 *   want of headroom); the buffers empty and every storm is restored.
 */
class RingDeadlockTestCase : public TestCase
{
  public:
    /**
     * \param mode the watchdog
     */
    explicit RingDeadlockTestCase(WatchdogMode mode)
        : TestCase("PFC deadlock on a ring of switches, " + ModeName(mode)),
          m_mode(mode)
    {
    }

  private:
    /// Switches (and hosts) in the ring.
    static constexpr uint32_t N = 5;
    /// Packets per flow.
    static constexpr uint32_t PACKETS = 1000;

    void DoRun() override
    {
        FabricTopologyHelper helper;
        helper.SetBufferSize(1000000);
        helper.SetLosslessPriorities(TrafficClass::Bit(3));
        SetWatchdog(helper, m_mode, MicroSeconds(200), MicroSeconds(500));
        FabricTopology topo = helper.BuildRing(N, 1);
        NS_TEST_ASSERT_MSG_EQ(topo.kind, "ring", "a ring");
        // The flows' paths: two hops clockwise, so that every ring link
        // direction i -> i+1 carries two flows and waits on the next one.
        for (uint32_t h = 0; h < N; ++h)
        {
            const std::vector<uint32_t> path = topo.GetPath(h, (h + 2) % N, 100 + h);
            NS_TEST_ASSERT_MSG_EQ(path.size(), 4, "host, two ring links, host");
            const std::string hop = topo.links[path[1]].name;
            NS_TEST_ASSERT_MSG_EQ(hop,
                                  "ring" + std::to_string(h) + "->ring" +
                                      std::to_string((h + 1) % N),
                                  "clockwise");
        }
        std::vector<Ptr<TrafficSink>> sinks;
        std::vector<Ptr<TrafficEgress>> egresses;
        for (uint32_t h = 0; h < N; ++h)
        {
            sinks.push_back(Create<TrafficSink>(topo.hostDevices[h], topo.hostAddresses[h]));
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[h], topo.hostAddresses[h], 4000);
            e->AddFlow(topo.hostAddresses[(h + 2) % N], 100 + h, PACKETS, 3);
            e->Start(MicroSeconds(1));
            egresses.push_back(e);
        }
        m_topo = &topo;
        m_sinks = sinks;
        Simulator::Schedule(MilliSeconds(5), &RingDeadlockTestCase::Snapshot, this, 0);
        Simulator::Schedule(MilliSeconds(10), &RingDeadlockTestCase::Snapshot, this, 1);
        Simulator::Stop(MilliSeconds(30));
        Simulator::Run();

        uint64_t sent = 0;
        uint64_t received = 0;
        for (uint32_t h = 0; h < N; ++h)
        {
            sent += egresses[h]->GetSentPackets();
            received += sinks[h]->m_packets;
            NS_TEST_ASSERT_MSG_EQ(sinks[h]->m_misdelivered, 0, "no packet at the wrong host");
        }
        const PfcWatchdog::Counters c = topo.GetSwitchStats().watchdog;
        const uint64_t stormDrops = c.drops;
        const uint64_t headroomDrops =
            topo.GetSwitchStats().GetNDroppedPackets(FabricSwitch::DROP_HEADROOM_EXCEEDED);
        NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(),
                              stormDrops + headroomDrops,
                              "drops: only the watchdog's and, forwarding, headroom");
        if (m_mode == WatchdogMode::NONE)
        {
            NS_TEST_ASSERT_MSG_LT(received, N * PACKETS, "not everything arrives");
            NS_TEST_ASSERT_MSG_EQ(m_received[1], m_received[0], "no progress from 5 to 10 ms");
            NS_TEST_ASSERT_MSG_GT(m_buffered[1], 0, "packets stuck in the buffers");
            NS_TEST_ASSERT_MSG_EQ(m_pausedRingPorts[1], N, "every ring port paused by the next");
            NS_TEST_ASSERT_MSG_EQ(topo.GetSwitchStats().GetNDroppedPackets(),
                                  0,
                                  "lossless: no drop");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(sent, N * PACKETS, "every packet sent");
            NS_TEST_ASSERT_MSG_EQ(received + topo.GetSwitchStats().GetNDroppedPackets(),
                                  sent,
                                  "every packet delivered or dropped");
            NS_TEST_ASSERT_MSG_EQ(BufferedBytes(topo), 0, "the buffers empty");
            NS_TEST_ASSERT_MSG_GT_OR_EQ(c.storms, 1, "the deadlock was detected");
            NS_TEST_ASSERT_MSG_EQ(c.restorations, c.storms, "every stormed queue restored");
            if (m_mode == WatchdogMode::DROP)
            {
                NS_TEST_ASSERT_MSG_GT(stormDrops, 0, "dropping broke it");
                NS_TEST_ASSERT_MSG_EQ(c.forwarded, 0, "nothing forwarded");
            }
            else
            {
                NS_TEST_ASSERT_MSG_GT(c.forwarded, 0, "forwarding broke it");
                NS_TEST_ASSERT_MSG_EQ(stormDrops, 0, "nothing dropped by the watchdog");
                NS_TEST_ASSERT_MSG_GT(received, N * PACKETS / 2, "most packets delivered");
            }
        }
        m_topo = nullptr;
        m_sinks.clear();
        Simulator::Destroy();
    }

    /**
     * \brief Record deliveries, buffered bytes and paused ring ports.
     * \param i snapshot index
     */
    void Snapshot(uint32_t i)
    {
        m_received[i] = 0;
        for (const auto& s : m_sinks)
        {
            m_received[i] += s->m_packets;
        }
        m_buffered[i] = BufferedBytes(*m_topo);
        m_pausedRingPorts[i] = 0;
        for (uint32_t s = 0; s < N; ++s)
        {
            const int64_t l = m_topo->FindLink("ring" + std::to_string(s) + "->ring" +
                                               std::to_string((s + 1) % N));
            if (l >= 0 && (m_topo->links[l].tx->GetPausedMask() & TrafficClass::Bit(3)))
            {
                ++m_pausedRingPorts[i];
            }
        }
    }

    WatchdogMode m_mode;                   //!< the watchdog
    const FabricTopology* m_topo{nullptr}; //!< the fabric, during the run
    std::vector<Ptr<TrafficSink>> m_sinks; //!< the hosts' receivers
    uint64_t m_received[2]{};              //!< packets delivered at each snapshot
    uint64_t m_buffered[2]{};              //!< bytes in the buffers at each snapshot
    uint32_t m_pausedRingPorts[2]{};       //!< ring ports paused at each snapshot
};

/**
 * \ingroup flux-tests
 * Where no pause lasts DetectionTime, a watchdog changes nothing: an 8-to-1
 * incast across a leaf-spine fabric (four senders under each of two leaves,
 * the receiver under a third), in which the spine pauses the senders'
 * leaves, delivers at the same times with and without watchdogs, and the
 * watchdogs cost at most one event per paused switch port, priority and
 * DetectionTime.
 */
class NoStormNoChangeTestCase : public TestCase
{
  public:
    NoStormNoChangeTestCase()
        : TestCase("without storms the watchdog changes nothing and costs little")
    {
    }

  private:
    /// What one incast run gave.
    struct Outcome
    {
        uint64_t received{0};       //!< packets delivered
        Time lastRx;                //!< last delivery
        uint64_t pauses{0};         //!< PFC pause decisions
        uint64_t switchPausesRx{0}; //!< pause frames switch ports received
        uint64_t storms{0};         //!< storms
        uint64_t events{0};         //!< simulator events
    };

    /**
     * \param watchdog with watchdogs
     * \return the outcome
     */
    static Outcome Run(bool watchdog)
    {
        FabricTopologyHelper helper;
        helper.SetBufferSize(2000000);
        helper.SetLosslessPriorities(TrafficClass::Bit(3));
        SetWatchdog(helper,
                    watchdog ? WatchdogMode::DROP : WatchdogMode::NONE,
                    MilliSeconds(1),
                    MilliSeconds(1));
        FabricTopology topo = helper.BuildLeafSpine(3, 1, 4);
        Ptr<TrafficSink> sink = Create<TrafficSink>(topo.hostDevices[0], topo.hostAddresses[0]);
        std::vector<Ptr<TrafficEgress>> egresses;
        for (uint32_t h = 4; h < 12; ++h)
        {
            Ptr<TrafficEgress> e =
                CreateObject<TrafficEgress>(topo.hostDevices[h], topo.hostAddresses[h], 4000);
            e->AddFlow(topo.hostAddresses[0], h, 500, 3);
            e->Start(MicroSeconds(1));
            egresses.push_back(e);
        }
        Simulator::Stop(MilliSeconds(10));
        Simulator::Run();
        Outcome o;
        o.received = sink->m_packets;
        o.lastRx = sink->m_lastRx;
        o.pauses = topo.GetSwitchStats().nPfcPauses;
        for (const auto& s : topo.switches)
        {
            for (uint32_t p = 0; p < s.sw->GetNPorts(); ++p)
            {
                o.switchPausesRx += s.sw->GetPortDevice(p)->GetPfcPausesReceived();
            }
        }
        o.storms = topo.GetSwitchStats().watchdog.storms;
        o.events = Simulator::GetEventCount();
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        const Outcome without = Run(false);
        const Outcome with = Run(true);
        NS_TEST_ASSERT_MSG_EQ(without.received, 8 * 500, "all delivered");
        NS_TEST_ASSERT_MSG_GT(without.switchPausesRx, 0, "the spine pauses the leaves");
        NS_TEST_ASSERT_MSG_EQ(with.storms, 0, "no storm");
        NS_TEST_ASSERT_MSG_EQ(with.received, without.received, "same deliveries");
        NS_TEST_ASSERT_MSG_EQ(with.lastRx, without.lastRx, "same timing");
        NS_TEST_ASSERT_MSG_EQ(with.pauses, without.pauses, "same pauses");
        // 10 ms of DetectionTime 1 ms: at most 10 checks per paused
        // (switch port, priority); 6 fabric ports can be paused by a switch.
        NS_TEST_ASSERT_MSG_GT_OR_EQ(with.events, without.events, "checks are events");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(with.events - without.events,
                                    uint64_t{6 * 10},
                                    "at most one check per paused queue and DetectionTime");
    }
};

/// A ring allreduce whose every step goes two hops clockwise round five switches.
const char* RING_SCENARIO = R"({
  "stop_ms": 200,
  "topology": {"kind": "ring", "switches": 5, "hosts_per_switch": 1, "buffer_mb": 1},
  "transport": {"cc": "none"},
  "jobs": [{"name": "ring", "ranks": 5, "hosts": [0, 2, 4, 1, 3], "bytes": 20000000,
            "iterations": 1}]
})";

/**
 * \ingroup flux-tests
 * The scenario runner on a deadlocking ring allreduce: without a watchdog
 * the run stops as "stalled" stall_ms after the deadlock (not at stop_ms);
 * with PFC watchdogs that forward the job completes.
 */
class RunnerStallTestCase : public TestCase
{
  public:
    RunnerStallTestCase()
        : TestCase("the runner reports a deadlock as stalled; a watchdog lets the job finish")
    {
    }

  private:
    /**
     * \param extra keys added to the scenario's root
     * \return the results
     */
    static RunResults RunRing(const nlohmann::json& extra)
    {
        nlohmann::json s = ParseScenarioText(RING_SCENARIO, "ring");
        for (auto it = extra.begin(); it != extra.end(); ++it)
        {
            s[it.key()] = it.value();
        }
        RunOptions opts;
        opts.quiet = true;
        return RunScenario(ParseScenario(s, "."), opts);
    }

    void DoRun() override
    {
        const RunResults stalled = RunRing(nlohmann::json::object());
        NS_TEST_ASSERT_MSG_EQ(stalled.sim.stopReason, "stalled", "the deadlock is reported");
        NS_TEST_ASSERT_MSG_LT(stalled.sim.simulatedMs, 11, "within stall_ms (10) of it");
        NS_TEST_ASSERT_MSG_EQ(stalled.jobs[0].completed, false, "the job is stuck");
        NS_TEST_ASSERT_MSG_EQ(stalled.network.pfcWatchdog, false, "no watchdog");

        const RunResults off = RunRing({{"stall_ms", 0}, {"stop_ms", 30}});
        NS_TEST_ASSERT_MSG_EQ(off.sim.stopReason, "stop_ms", "stall_ms 0: no stall detection");

        const RunResults forward =
            RunRing({{"pfc_watchdog",
                      {{"detection_ms", 1}, {"restoration_ms", 1}, {"action", "forward"}}}});
        NS_TEST_ASSERT_MSG_EQ(forward.sim.stopReason, "completed", "the watchdog unblocks it");
        NS_TEST_ASSERT_MSG_EQ(forward.jobs[0].completed, true, "the job completes");
        NS_TEST_ASSERT_MSG_EQ(forward.network.pfcWatchdog, true, "watchdog reported");
        NS_TEST_ASSERT_MSG_GT(forward.network.pfcWatchdogStorms, 0, "storms counted");
        NS_TEST_ASSERT_MSG_GT(forward.network.pfcWatchdogForwarded, 0, "forwarded counted");
    }
};

/**
 * \ingroup flux-tests
 * \brief The PFC watchdog test suite.
 */
class FluxWatchdogTestSuite : public TestSuite
{
  public:
    FluxWatchdogTestSuite()
        : TestSuite("flux-watchdog")
    {
        for (WatchdogMode mode : {WatchdogMode::NONE, WatchdogMode::DROP, WatchdogMode::FORWARD})
        {
            AddTestCase(new PfcStormTestCase(mode));
        }
        AddTestCase(new PausedEmptyQueueTestCase);
        for (WatchdogMode mode : {WatchdogMode::NONE, WatchdogMode::DROP, WatchdogMode::FORWARD})
        {
            AddTestCase(new RingDeadlockTestCase(mode));
        }
        AddTestCase(new NoStormNoChangeTestCase);
        AddTestCase(new RunnerStallTestCase);
    }
};

static FluxWatchdogTestSuite g_fluxWatchdogTestSuite; //!< Static variable for test initialization
