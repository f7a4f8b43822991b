/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * fabric-bench: wall-clock cost of one packet-hop of the flux stack on a
 * loaded leaf-spine or fat-tree, and of a bare ns-3 forwarding baseline that
 * moves the same packets over the same hops.
 *
 *     fabric-bench --mode=flux|baseline [--topology=leaf-spine] [--leaves=4]
 *                  [--spines=2] [--hostsPerLeaf=8] [--k=4] [--bufferMb=16]
 *                  [--hostGbps=100] [--fabricGbps=100]
 *                  [--packets=20000] [--payload=4096] [--pattern=permutation]
 *                  [--load=0.95] [--cc=paced] [--scheduler=priority]
 *
 * Fabric: `leaf-spine` (leaves x spines, hostsPerLeaf hosts per leaf) or
 * `fat-tree` (arity k: k^3/4 hosts, k pods), the same switches and cables as
 * FabricTopologyHelper builds.
 *
 * Traffic (both modes): long flows of `packets` packets each, every packet
 * carrying `payload` bytes. `permutation`: host i sends to the same host
 * slot on the next leaf (leaf-spine: i + hostsPerLeaf) or in the next pod
 * (fat-tree: i + k^2/4), so that every packet crosses a spine or a core
 * switch; `all-to-all`: every host sends to every other
 * host. Flows are spread evenly over the paths (in flux mode by choosing
 * each flow's UDP source port, the ECMP entropy, so that the switches' hash
 * sends it where wanted: a permutation puts one flow on every fat-tree
 * link), and every flow is paced at `load` times its fair
 * share of its most loaded link, so that the busiest links run at `load`
 * without standing queues in either mode.
 *
 * - flux: FabricTopologyHelper (PfcNetDevice, FabricSwitch with its MMU
 *   and the egress bands that stand in for PfcPrioQueueDisc) and
 *   RdmaHelper (RdmaNic, one RC queue pair per flow, one SEND message of
 *   packets x payload bytes). Frames are Ethernet + 802.1Q + IPv4 + UDP +
 *   BTH + payload + ICRC. `cc`: `paced` (a fixed rate: the flow's paced
 *   rate), `none` (line rate; PFC throttles) or `dcqcn`. Packet-hops:
 *   frames sent by all PfcNetDevices (data, ACKs, CNPs, PFC).
 * - baseline: ns-3's PointToPointNetDevice and PointToPointChannel (PPP
 *   framing), DropTail device queues large enough that nothing drops, a
 *   forwarder per switch node (the devices' receive callback reads a 4-byte
 *   flow number, looks the egress device up in a vector and calls Send)
 *   and one pacing timer per flow that injects the packets at the hosts.
 *   Frames have the same size as the flux data frames. Packet-hops: packets
 *   sent by all devices.
 *
 * Output: one line of key=value pairs. wall_s is the wall-clock time of
 * Simulator::Run() alone (setup_s is the time to build the network);
 * us_per_hop = wall_s / packet_hops; events are the events the simulator
 * executed; cpu_s is the CPU time of the process during the run (less
 * sensitive than wall_s to other load on the machine); maxrss_kb is the peak resident memory of the
 * process and kb_per_host = (maxrss_kb - base_rss_kb) / hosts, base_rss_kb being the resident
 * memory before anything was built (libraries, ns-3 type system); built_kb_per_host is the same
 * with the resident memory once the network is built, before the first packet (the fabric
 * without the packets queued and in flight). Exit status 1 when not every packet arrived.
 */

#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/header.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <string>
#include <sys/resource.h>
#include <time.h>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief The baseline's only header: the number of the packet's flow.
 */
class BenchFlowHeader : public Header
{
  public:
    BenchFlowHeader() = default;

    /** \param flow the flow number */
    explicit BenchFlowHeader(uint32_t flow)
        : m_flow(flow)
    {
    }

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::BenchFlowHeader")
                                .SetParent<Header>()
                                .SetGroupName("Flux")
                                .AddConstructor<BenchFlowHeader>();
        return tid;
    }

    TypeId GetInstanceTypeId() const override
    {
        return GetTypeId();
    }

    uint32_t GetSerializedSize() const override
    {
        return 4;
    }

    void Serialize(Buffer::Iterator start) const override
    {
        start.WriteHtonU32(m_flow);
    }

    uint32_t Deserialize(Buffer::Iterator start) override
    {
        m_flow = start.ReadNtohU32();
        return 4;
    }

    void Print(std::ostream& os) const override
    {
        os << "flow=" << m_flow;
    }

    /** \return the flow number */
    uint32_t GetFlow() const
    {
        return m_flow;
    }

  private:
    uint32_t m_flow{0}; //!< flow number
};

NS_OBJECT_ENSURE_REGISTERED(BenchFlowHeader);

namespace
{

/// Ethernet 14 + 802.1Q 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4: flux data frame minus payload.
constexpr uint32_t FLUX_FRAME_OVERHEAD = 62;
/// Preamble, SFD, inter-frame gap and FCS: line time per frame beyond the frame.
constexpr uint32_t WIRE_OVERHEAD = 24;
/// PPP header the point-to-point device adds.
constexpr uint32_t PPP_HEADER = 2;

/// Benchmark settings.
struct Options
{
    std::string mode{"flux"};           //!< flux | baseline
    std::string topology{"leaf-spine"}; //!< leaf-spine | fat-tree
    uint32_t k{4};                      //!< fat-tree arity
    double bufferMb{16};                //!< flux: shared buffer per switch, MB
    uint32_t leaves{4};                 //!< leaf switches
    uint32_t spines{2};                 //!< spine switches
    uint32_t hostsPerLeaf{8};           //!< hosts under each leaf
    double hostGbps{100};               //!< host link rate
    double fabricGbps{100};             //!< leaf-spine link rate
    double delayUs{1};                  //!< link delay
    uint32_t packets{20000};            //!< packets per flow
    uint32_t payload{4096};             //!< payload bytes per packet
    std::string pattern{"permutation"}; //!< permutation | all-to-all
    double load{0.95};                  //!< share of the fair rate each flow is paced at
    std::string cc{"paced"};            //!< flux: paced | none | dcqcn
    std::string scheduler{"priority"};  //!< map | heap | list | calendar | priority
};

/// One flow of the benchmark.
struct Flow
{
    uint32_t src;              //!< source host
    uint32_t dst;              //!< destination host
    std::vector<uint32_t> via; //!< the switches it crosses, in order (indices in Plan::switches)
};

/// The fabric both modes build: FabricTopologyHelper's shape of it.
using Plan = FabricTopologyHelper::Spec;

/**
 * \param o the settings
 * \return the fabric of the settings, as FabricTopologyHelper builds it
 */
Plan
MakePlan(const Options& o)
{
    if (o.topology == "leaf-spine")
    {
        return FabricTopologyHelper::MakeLeafSpine(o.leaves, o.spines, o.hostsPerLeaf);
    }
    if (o.topology == "fat-tree")
    {
        return FabricTopologyHelper::MakeFatTree(o.k);
    }
    throw std::invalid_argument("--topology: leaf-spine or fat-tree, not " + o.topology);
}

/**
 * \brief The flows of a pattern, spread evenly over the paths.
 *
 * Leaf-spine: the j-th flow between two given leaves takes spine
 * j mod spines. Fat-tree: a flow goes up to the aggregation switch of its
 * pod numbered by the source host's slot on its edge switch (host mod k/2),
 * then to the core switch of that aggregation group numbered by a round
 * robin over the flows through that aggregation switch and destination pod;
 * a permutation thus puts exactly one flow on every link.
 *
 * \param o the settings
 * \return the flows
 */
std::vector<Flow>
MakeFlows(const Options& o)
{
    const Plan plan = MakePlan(o);
    const uint32_t hosts = plan.nHosts;
    // Hosts under one switch of the lowest tier, and hosts per pod (fat-tree)
    const bool fatTree = o.topology == "fat-tree";
    const uint32_t half = o.k / 2;
    const uint32_t perEdge = fatTree ? half : o.hostsPerLeaf;
    const uint32_t perPod = fatTree ? half * half : o.hostsPerLeaf;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    if (o.pattern == "permutation")
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            const uint32_t dst = (h + perPod) % hosts;
            if (dst != h)
            {
                pairs.emplace_back(h, dst);
            }
        }
    }
    else if (o.pattern == "all-to-all")
    {
        for (uint32_t s = 0; s < hosts; ++s)
        {
            for (uint32_t d = 0; d < hosts; ++d)
            {
                if (s != d)
                {
                    pairs.emplace_back(s, d);
                }
            }
        }
    }
    else
    {
        throw std::invalid_argument("--pattern: permutation or all-to-all, not " + o.pattern);
    }
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> roundRobin;
    std::vector<Flow> flows;
    for (const auto& [s, d] : pairs)
    {
        Flow f{s, d, {}};
        const uint32_t es = plan.hostSwitch[s];
        const uint32_t ed = plan.hostSwitch[d];
        f.via.push_back(es);
        if (es != ed)
        {
            if (!fatTree)
            {
                const uint32_t spine = roundRobin[{es, ed}]++ % o.spines;
                f.via.push_back(o.leaves + spine);
            }
            else
            {
                const uint32_t ps = s / perPod;
                const uint32_t pd = d / perPod;
                const uint32_t a = (s % perEdge) % half;
                const uint32_t aggBase = o.k * half;
                f.via.push_back(aggBase + ps * half + a);
                if (ps != pd)
                {
                    const uint32_t c = roundRobin[{aggBase + ps * half + a, pd}]++ % half;
                    f.via.push_back(2 * o.k * half + a * half + c);
                    f.via.push_back(aggBase + pd * half + a);
                }
            }
            f.via.push_back(ed);
        }
        flows.push_back(f);
    }
    return flows;
}

/**
 * \brief The rate every flow is paced at: load x the smallest fair share
 * (link rate / flows on the link) over all links the flows cross.
 * \param o the settings
 * \param flows the flows
 * \return bit/s
 */
double
FlowRate(const Options& o, const std::vector<Flow>& flows)
{
    // Directed links: host uplinks ("up", host), host downlinks ("down",
    // host) and switch-to-switch (from, to).
    std::map<std::pair<int, uint64_t>, uint32_t> count;
    auto key = [](uint32_t a, uint32_t b) { return (static_cast<uint64_t>(a) << 32) | b; };
    for (const Flow& f : flows)
    {
        ++count[{0, f.src}];
        ++count[{1, f.dst}];
        for (size_t i = 0; i + 1 < f.via.size(); ++i)
        {
            ++count[{2, key(f.via[i], f.via[i + 1])}];
        }
    }
    double share = std::numeric_limits<double>::max();
    for (const auto& [link, n] : count)
    {
        const double rate = (link.first < 2 ? o.hostGbps : o.fabricGbps) * 1e9;
        share = std::min(share, rate / n);
    }
    return o.load * share;
}

/// Resident memory now, KiB.
uint64_t
CurrentRssKb()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key)
    {
        if (key == "VmRSS:")
        {
            uint64_t kb = 0;
            status >> kb;
            return kb;
        }
        status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 0;
}

/// Peak resident memory of the process, KiB.
uint64_t
PeakRssKb()
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<uint64_t>(ru.ru_maxrss);
}

/// CPU seconds used by the process so far.
double
CpuSeconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/// Wall-clock seconds since t0.
double
Since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// What a run measured.
struct Measurement
{
    double setupS{0};       //!< building the network, s
    uint64_t builtRssKb{0}; //!< resident memory once the network is built, before any packet
    double wallS{0};        //!< Simulator::Run(), s
    double cpuS{0};         //!< CPU time of the process during Simulator::Run(), s
    double simMs{0};        //!< simulated time, ms
    uint64_t packetHops{0}; //!< frames sent by all devices
    uint64_t dataHops{0};   //!< data packets x hops
    uint64_t events{0};     //!< events executed
    uint64_t delivered{0};  //!< data packets that arrived
    uint64_t expected{0};   //!< data packets that should arrive
    uint64_t drops{0};      //!< packets lost
    uint64_t pfcPauses{0};  //!< PFC pause frames sent (flux)
};

// ---------------------------------------------------------------------------
// flux mode
// ---------------------------------------------------------------------------

/// Counts finished flows and stops the simulation after the last one.
struct FluxCompletion
{
    uint32_t left{0};      //!< flows not finished
    uint64_t delivered{0}; //!< packets acknowledged

    /**
     * \brief A message was fully acknowledged.
     * \param bytes its size
     * \param payload payload bytes per packet
     */
    void Done(uint64_t bytes, uint32_t payload)
    {
        delivered += (bytes + payload - 1) / payload;
        if (--left == 0)
        {
            Simulator::Stop();
        }
    }
};

/**
 * \brief A UDP source port whose ECMP path crosses the wanted switches.
 * \param topo the fabric
 * \param f the flow
 * \return the port
 */
uint16_t
PickSourcePort(const FabricTopology& topo, const Flow& f)
{
    const uint16_t first = static_cast<uint16_t>(49152 + (f.src * 131 + f.dst * 7) % 8192);
    if (f.via.size() <= 1)
    {
        return first;
    }
    for (uint32_t k = 0; k < 16384; ++k)
    {
        const uint16_t port = static_cast<uint16_t>(49152 + (first - 49152 + k) % 16384);
        const std::vector<uint32_t> path = topo.GetPath(f.src, f.dst, port);
        // path: host uplink, then one link out of each switch crossed
        bool match = path.size() == f.via.size() + 1;
        for (size_t i = 0; match && i < f.via.size(); ++i)
        {
            const uint32_t node = topo.links[path[i]].rx->GetNode()->GetId();
            match = topo.switchOfNode[node] == static_cast<int32_t>(f.via[i]);
        }
        if (match)
        {
            return port;
        }
    }
    throw std::runtime_error("no UDP source port leads along the wanted path");
}

/**
 * \brief Run the flux stack.
 * \param o the settings
 * \param flows the flows
 * \param rate the paced rate, bit/s
 * \return the measurement
 */
Measurement
RunFlux(const Options& o, const std::vector<Flow>& flows, double rate)
{
    Measurement m;
    const auto t0 = std::chrono::steady_clock::now();
    FabricTopologyHelper helper;
    helper.SetHostRate(DataRate(static_cast<uint64_t>(o.hostGbps * 1e9)));
    helper.SetFabricRate(DataRate(static_cast<uint64_t>(o.fabricGbps * 1e9)));
    helper.SetLinkDelay(NanoSeconds(static_cast<int64_t>(o.delayUs * 1000)));
    helper.SetBufferSize(static_cast<uint64_t>(o.bufferMb * 1e6));
    FabricTopology topo = o.topology == "fat-tree"
                              ? helper.BuildFatTree(o.k)
                              : helper.BuildLeafSpine(o.leaves, o.spines, o.hostsPerLeaf);

    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(o.payload));
    if (o.cc == "paced")
    {
        Config::SetDefault("ns3::FixedRateCongestionControl::Rate",
                           DataRateValue(DataRate(static_cast<uint64_t>(rate))));
        rdma.SetCongestionControl("ns3::FixedRateCongestionControl");
    }
    else if (o.cc == "none" || o.cc == "dcqcn")
    {
        rdma.SetCongestionControl(o.cc);
    }
    else
    {
        throw std::invalid_argument("--cc: paced, none or dcqcn, not " + o.cc);
    }
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    FluxCompletion completion;
    completion.left = flows.size();
    const uint32_t payload = o.payload;
    for (const Flow& f : flows)
    {
        const uint16_t port = PickSourcePort(topo, f);
        auto qps = RdmaHelper::Connect(nics[f.src], nics[f.dst], 3, port);
        qps.first->SetSendCompletionCallback(MakeBoundCallback(
            +[](FluxCompletion* c, uint32_t pl, Ptr<RdmaQueuePair>, uint64_t, uint64_t bytes) {
                c->Done(bytes, pl);
            },
            &completion,
            payload));
        qps.first->PostSend(static_cast<uint64_t>(o.packets) * o.payload, false);
    }
    m.setupS = Since(t0);
    m.builtRssKb = CurrentRssKb();

    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = CpuSeconds();
    Simulator::Run();
    m.wallS = Since(t1);
    m.cpuS = CpuSeconds() - c1;
    m.simMs = Simulator::Now().GetSeconds() * 1e3;
    m.events = Simulator::GetEventCount();

    for (const auto& link : topo.links)
    {
        m.packetHops += link.tx->GetTxFrames();
    }
    // Data packets x the links each crosses (its switches + 1); every
    // host sends one flow's packets in permutation, several in all-to-all.
    std::vector<uint64_t> hopsOfHost(nics.size(), 0);
    std::vector<uint64_t> flowsOfHost(nics.size(), 0);
    for (const Flow& f : flows)
    {
        hopsOfHost[f.src] += f.via.size() + 1;
        ++flowsOfHost[f.src];
    }
    for (uint32_t h = 0; h < nics.size(); ++h)
    {
        if (flowsOfHost[h] > 0)
        {
            m.dataHops += nics[h]->GetDataPacketsSent() * hopsOfHost[h] / flowsOfHost[h];
        }
        m.drops += nics[h]->GetDevice()->GetRxErrors();
    }
    m.delivered = completion.delivered;
    m.expected = static_cast<uint64_t>(flows.size()) * o.packets;
    m.drops += topo.GetSwitchStats().GetNDroppedPackets();
    m.pfcPauses = topo.GetSwitchStats().nPfcPauseFramesSent;
    nics.clear();
    topo = FabricTopology();
    Simulator::Destroy();
    return m;
}

// ---------------------------------------------------------------------------
// baseline mode
// ---------------------------------------------------------------------------

/// A switch of the baseline: forwards by flow number.
class BaselineForwarder : public SimpleRefCount<BaselineForwarder>
{
  public:
    /**
     * \param flows number of flows
     */
    explicit BaselineForwarder(uint32_t flows)
        : m_out(flows, nullptr)
    {
    }

    /**
     * \brief Set the egress device of a flow.
     * \param flow the flow
     * \param dev the device
     */
    void SetRoute(uint32_t flow, PointToPointNetDevice* dev)
    {
        m_out[flow] = dev;
    }

    /**
     * \brief Receive callback of the switch's devices.
     * \param p the packet, after its PPP header
     * \param protocol its protocol
     * \return true
     */
    bool Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t protocol, const Address&)
    {
        BenchFlowHeader h;
        p->PeekHeader(h);
        // The device hands over the packet and keeps no reference to it.
        m_out[h.GetFlow()]->Send(ConstCast<Packet>(p), m_dest, protocol);
        return true;
    }

  private:
    std::vector<PointToPointNetDevice*> m_out; //!< egress device per flow
    Address m_dest;                            //!< unused by point-to-point devices
};

/// The baseline's hosts: paced sources and counting sinks.
class BaselineHosts : public SimpleRefCount<BaselineHosts>
{
  public:
    /// A source.
    struct Source
    {
        PointToPointNetDevice* dev; //!< the host's device
        uint32_t flow;              //!< flow number
        uint32_t left;              //!< packets still to send
    };

    /**
     * \param packetBytes bytes per packet after the PPP header
     * \param interval time between two packets of a flow
     */
    BaselineHosts(uint32_t packetBytes, Time interval)
        : m_packetBytes(packetBytes),
          m_interval(interval)
    {
    }

    /**
     * \brief Add a source.
     * \param dev the host's device
     * \param packets packets to send
     */
    void AddSource(PointToPointNetDevice* dev, uint32_t packets)
    {
        m_sources.push_back({dev, static_cast<uint32_t>(m_sources.size()), packets});
    }

    /// Start all sources now.
    void Start()
    {
        for (uint32_t i = 0; i < m_sources.size(); ++i)
        {
            Simulator::ScheduleWithContext(m_sources[i].dev->GetNode()->GetId(),
                                           Time(0),
                                           &BaselineHosts::SendNext,
                                           this,
                                           i);
        }
    }

    /**
     * \brief Receive callback of the hosts' devices.
     * \return true
     */
    bool Receive(Ptr<NetDevice>, Ptr<const Packet>, uint16_t, const Address&)
    {
        ++m_received;
        return true;
    }

    /** \return packets received by all hosts */
    uint64_t GetReceived() const
    {
        return m_received;
    }

  private:
    /**
     * \brief Send the next packet of a source.
     * \param i the source
     */
    void SendNext(uint32_t i)
    {
        Source& s = m_sources[i];
        Ptr<Packet> p = Create<Packet>(m_packetBytes - 4);
        p->AddHeader(BenchFlowHeader(s.flow));
        s.dev->Send(p, m_dest, 0x0800);
        if (--s.left > 0)
        {
            Simulator::Schedule(m_interval, &BaselineHosts::SendNext, this, i);
        }
    }

    uint32_t m_packetBytes;        //!< bytes per packet after the PPP header
    Time m_interval;               //!< pacing interval
    std::vector<Source> m_sources; //!< the sources, by flow number
    uint64_t m_received{0};        //!< packets received
    Address m_dest;                //!< unused by point-to-point devices
};

/**
 * \brief Run the bare point-to-point forwarding baseline.
 * \param o the settings
 * \param flows the flows
 * \param rate the paced rate, bit/s
 * \return the measurement
 */
Measurement
RunBaseline(const Options& o, const std::vector<Flow>& flows, double rate)
{
    Measurement m;
    const auto t0 = std::chrono::steady_clock::now();
    const Plan plan = MakePlan(o);
    const uint32_t nHosts = plan.nHosts;
    NodeContainer hosts;
    hosts.Create(nHosts);
    NodeContainer switches;
    switches.Create(plan.switches.size());

    std::vector<Ptr<PointToPointNetDevice>> devices;
    auto cable = [&](Ptr<Node> a, Ptr<Node> b, double gbps) {
        Ptr<PointToPointChannel> ch = CreateObject<PointToPointChannel>();
        ch->SetAttribute("Delay", TimeValue(NanoSeconds(static_cast<int64_t>(o.delayUs * 1000))));
        std::pair<Ptr<PointToPointNetDevice>, Ptr<PointToPointNetDevice>> ends;
        for (Ptr<Node> n : {a, b})
        {
            Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
            dev->SetAddress(Mac48Address::Allocate());
            dev->SetDataRate(DataRate(static_cast<uint64_t>(gbps * 1e9)));
            dev->SetMtu(9000);
            Ptr<DropTailQueue<Packet>> q = CreateObject<DropTailQueue<Packet>>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, 1000000));
            dev->SetQueue(q);
            n->AddDevice(dev);
            dev->Attach(ch);
            devices.push_back(dev);
            (n == a ? ends.first : ends.second) = dev;
        }
        return ends;
    };

    std::vector<Ptr<BaselineForwarder>> fwd;
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        fwd.push_back(Create<BaselineForwarder>(flows.size()));
    }
    std::vector<Ptr<PointToPointNetDevice>> hostDev(nHosts); // host side
    std::vector<Ptr<PointToPointNetDevice>> downDev(nHosts); // switch side, towards the host
    // per switch: (neighbour switch, device towards it)
    std::vector<std::map<uint32_t, Ptr<PointToPointNetDevice>>> towards(switches.GetN());
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        auto [hd, sd] = cable(hosts.Get(h), switches.Get(plan.hostSwitch[h]), o.hostGbps);
        hostDev[h] = hd;
        downDev[h] = sd;
    }
    for (const auto& [a, b] : plan.fabricCables)
    {
        auto [da, db] = cable(switches.Get(a), switches.Get(b), o.fabricGbps);
        towards[a][b] = da;
        towards[b][a] = db;
    }

    const uint32_t packetBytes = o.payload + FLUX_FRAME_OVERHEAD - PPP_HEADER;
    const double frameBits = 8.0 * (o.payload + FLUX_FRAME_OVERHEAD + WIRE_OVERHEAD);
    Ptr<BaselineHosts> app = Create<BaselineHosts>(packetBytes, Seconds(frameBits / rate));
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const Flow& f = flows[i];
        for (size_t j = 0; j + 1 < f.via.size(); ++j)
        {
            fwd[f.via[j]]->SetRoute(i, PeekPointer(towards[f.via[j]].at(f.via[j + 1])));
        }
        fwd[f.via.back()]->SetRoute(i, PeekPointer(downDev[f.dst]));
        app->AddSource(PeekPointer(hostDev[f.src]), o.packets);
    }
    for (uint32_t s = 0; s < switches.GetN(); ++s)
    {
        Ptr<Node> node = switches.Get(s);
        for (uint32_t d = 0; d < node->GetNDevices(); ++d)
        {
            node->GetDevice(d)->SetReceiveCallback(
                MakeCallback(&BaselineForwarder::Receive, fwd[s]));
        }
    }
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        hostDev[h]->SetReceiveCallback(MakeCallback(&BaselineHosts::Receive, app));
    }
    app->Start();
    m.setupS = Since(t0);
    m.builtRssKb = CurrentRssKb();

    const auto t1 = std::chrono::steady_clock::now();
    const double c1 = CpuSeconds();
    Simulator::Run();
    m.wallS = Since(t1);
    m.cpuS = CpuSeconds() - c1;
    m.simMs = Simulator::Now().GetSeconds() * 1e3;
    m.events = Simulator::GetEventCount();

    for (const auto& dev : devices)
    {
        Ptr<Queue<Packet>> q = dev->GetQueue();
        m.packetHops += q->GetTotalReceivedPackets() - q->GetTotalDroppedPackets();
        m.drops += q->GetTotalDroppedPackets();
    }
    m.dataHops = m.packetHops;
    m.delivered = app->GetReceived();
    m.expected = static_cast<uint64_t>(flows.size()) * o.packets;
    Simulator::Destroy();
    return m;
}

} // namespace
} // namespace ns3

int
main(int argc, char** argv)
{
    using namespace ns3;
    const uint64_t baseRss = CurrentRssKb();
    Options o;
    CommandLine cmd(__FILE__);
    cmd.Usage("Wall-clock cost per packet-hop of the flux stack and of a bare ns-3 "
              "point-to-point forwarding baseline on the same leaf-spine and traffic.");
    cmd.AddValue("mode", "flux or baseline", o.mode);
    cmd.AddValue("topology", "leaf-spine or fat-tree", o.topology);
    cmd.AddValue("k", "fat-tree arity (k^3/4 hosts)", o.k);
    cmd.AddValue("bufferMb", "flux: shared buffer per switch, MB", o.bufferMb);
    cmd.AddValue("leaves", "leaf switches", o.leaves);
    cmd.AddValue("spines", "spine switches", o.spines);
    cmd.AddValue("hostsPerLeaf", "hosts per leaf", o.hostsPerLeaf);
    cmd.AddValue("hostGbps", "host link rate, Gb/s", o.hostGbps);
    cmd.AddValue("fabricGbps", "leaf-spine link rate, Gb/s", o.fabricGbps);
    cmd.AddValue("delayUs", "link delay, us", o.delayUs);
    cmd.AddValue("packets", "packets per flow", o.packets);
    cmd.AddValue("payload", "payload bytes per packet (flux: RDMA MTU, at most 4096)", o.payload);
    cmd.AddValue("pattern", "permutation or all-to-all", o.pattern);
    cmd.AddValue("load", "share of the fair rate every flow is paced at", o.load);
    cmd.AddValue("cc", "flux congestion control: paced, none or dcqcn", o.cc);
    cmd.AddValue("scheduler",
                 "event scheduler of both modes: priority (flux-run's default), map (ns-3's "
                 "default), heap, list or calendar",
                 o.scheduler);
    cmd.Parse(argc, argv);

    try
    {
        if (o.mode != "flux" && o.mode != "baseline")
        {
            throw std::invalid_argument("--mode: flux or baseline, not " + o.mode);
        }
        if (o.leaves == 0 || o.hostsPerLeaf == 0 || o.packets == 0 || o.payload == 0 ||
            (o.leaves > 1 && o.spines == 0) || !(o.load > 0) || !(o.bufferMb > 0))
        {
            throw std::invalid_argument("leaves, hostsPerLeaf, packets, payload, load, bufferMb "
                                        "must be positive, and spines too with several leaves");
        }
        if (o.topology == "fat-tree" && (o.k < 4 || o.k % 2 != 0))
        {
            throw std::invalid_argument("--k: an even number >= 4");
        }
        const std::map<std::string, std::string> schedulers{
            {"map", "ns3::MapScheduler"},
            {"heap", "ns3::HeapScheduler"},
            {"list", "ns3::ListScheduler"},
            {"calendar", "ns3::CalendarScheduler"},
            {"priority", "ns3::PriorityQueueScheduler"}};
        auto sched = schedulers.find(o.scheduler);
        if (sched == schedulers.end())
        {
            throw std::invalid_argument("--scheduler: unknown " + o.scheduler);
        }
        ObjectFactory factory(sched->second);
        Simulator::SetScheduler(factory);

        const std::vector<Flow> flows = MakeFlows(o);
        const double rate = FlowRate(o, flows);
        const Measurement m =
            o.mode == "flux" ? RunFlux(o, flows, rate) : RunBaseline(o, flows, rate);
        // getrusage's high-water mark can read below a resident size read
        // from /proc (the kernel keeps them apart): the peak is at least any
        // size read
        const uint64_t maxRss = std::max({PeakRssKb(), CurrentRssKb(), m.builtRssKb});
        const uint32_t nHosts = MakePlan(o).nHosts;
        std::printf("mode=%s wall_s=%.4f packet_hops=%llu us_per_hop=%.4f events=%llu "
                    "events_per_s=%.0f cpu_s=%.4f cpu_us_per_hop=%.4f maxrss_kb=%llu "
                    "kb_per_host=%.1f built_kb_per_host=%.1f base_rss_kb=%llu "
                    "setup_s=%.4f data_hops=%llu sim_ms=%.4f flows=%zu flow_gbps=%.3f "
                    "delivered=%llu expected=%llu drops=%llu pfc_pauses=%llu\n",
                    o.mode.c_str(),
                    m.wallS,
                    static_cast<unsigned long long>(m.packetHops),
                    m.packetHops ? m.wallS * 1e6 / m.packetHops : 0.0,
                    static_cast<unsigned long long>(m.events),
                    m.wallS > 0 ? m.events / m.wallS : 0.0,
                    m.cpuS,
                    m.packetHops ? m.cpuS * 1e6 / m.packetHops : 0.0,
                    static_cast<unsigned long long>(maxRss),
                    maxRss > baseRss ? static_cast<double>(maxRss - baseRss) / nHosts : 0.0,
                    m.builtRssKb > baseRss ? static_cast<double>(m.builtRssKb - baseRss) / nHosts
                                           : 0.0,
                    static_cast<unsigned long long>(baseRss),
                    m.setupS,
                    static_cast<unsigned long long>(m.dataHops),
                    m.simMs,
                    flows.size(),
                    rate / 1e9,
                    static_cast<unsigned long long>(m.delivered),
                    static_cast<unsigned long long>(m.expected),
                    static_cast<unsigned long long>(m.drops),
                    static_cast<unsigned long long>(m.pfcPauses));
        if (m.delivered != m.expected)
        {
            std::fprintf(stderr,
                         "fabric-bench: only %llu of %llu packets arrived\n",
                         static_cast<unsigned long long>(m.delivered),
                         static_cast<unsigned long long>(m.expected));
            return 1;
        }
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "fabric-bench: %s\n", e.what());
        return 2;
    }
    return 0;
}
