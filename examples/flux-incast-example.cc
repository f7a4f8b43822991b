/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * N-to-1 incast through one switch: what PFC and DCQCN do.
 *
 *      h1  h2 ... hN            senders, --bytes each, all at once
 *        \  |     /
 *         switch0               shared buffer --bufferMb
 *            |
 *           h0                  receiver
 *
 * N senders start a flow of --bytes to host 0 at the same time, --bursts
 * times, --intervalMs apart (IncastTraffic). The switch port towards host 0
 * receives N times more than it can send; the shared buffer fills until the
 * MMU pauses the senders' links with PFC (lossless, the default), and ECN
 * marks make the receiver send CNPs that slow the senders down (DCQCN).
 *
 * The program counts, through trace sources, the PFC frames each sender
 * receives from the switch (PfcNetDevice "PfcRx"), the CNPs reaching the
 * senders (RdmaNic "CnpRx") and every flow's completion time (FlowTraffic
 * "Flow"), and compares the FCTs with the time the receiver's link needs
 * to carry one burst, N x bytes. Try --pfc=false (lossy: drops and
 * go-back-N retransmissions), --cc=none (PFC alone) and --pcap=DIR (one
 * Ethernet pcap per host; Wireshark decodes RoCEv2 and PFC).
 *
 * Standalone build: build/examples/flux-incast-example [--args]
 * In an ns-3 tree:   ./ns3 run "flux-incast-example --senders=16 --pfc=false"
 */

#include "ns3/command-line.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/incast-traffic.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FluxIncastExample");

namespace
{

std::vector<uint64_t> g_pfcXoff; //!< per host: PFC pause frames received
std::vector<uint64_t> g_cnps;    //!< per host: CNPs received
std::vector<double> g_fctUs;     //!< every flow's FCT, us
Ptr<IncastTraffic> g_incast;     //!< the incast tenant

/**
 * \brief PfcNetDevice "PfcRx" sink, bound to the host index.
 * \param host the host whose port got the frame
 * \param prio the priority it concerns
 * \param quanta pause time in quanta of 512 bit times (0: resume)
 */
void
PfcReceived(uint32_t host, uint8_t prio, uint16_t quanta)
{
    NS_LOG_DEBUG(Simulator::Now().As(Time::US)
                 << " host" << host << " PFC prio " << +prio << " quanta " << quanta);
    if (quanta > 0)
    {
        ++g_pfcXoff[host];
    }
}

/**
 * \brief RdmaNic "CnpRx" sink, bound to the host index.
 * \param host the host whose NIC got the CNP
 * \param qpn the queue pair it concerns
 */
void
CnpReceived(uint32_t host, uint32_t /* qpn */)
{
    ++g_cnps[host];
}

/**
 * \brief FlowTraffic "Flow" sink: one sender's flow has arrived in full.
 * \param src sending host
 * \param dst receiving host
 * \param bytes size
 * \param fct flow completion time
 */
void
FlowFinished(uint32_t src, uint32_t dst, uint64_t bytes, Time fct)
{
    NS_LOG_INFO("host" << src << " -> host" << dst << ": " << bytes << " B in "
                       << fct.As(Time::US));
    g_fctUs.push_back(fct.GetSeconds() * 1e6);
    if (g_incast->ArrivalsOver() && g_incast->GetFlowsFinished() == g_incast->GetFlowsStarted())
    {
        Simulator::Stop();
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t senders = 8;
    uint64_t bytes = 1000000;
    uint32_t bursts = 2;
    double intervalMs = 2;
    double gbps = 100;
    double bufferMb = 4;
    bool pfc = true;
    std::string cc = "dcqcn";
    std::string pcapDir;

    CommandLine cmd(__FILE__);
    cmd.Usage("N-to-1 RoCEv2 incast through one switch, with PFC and DCQCN.");
    cmd.AddValue("senders", "Number of senders N", senders);
    cmd.AddValue("bytes", "Bytes each sender sends per burst", bytes);
    cmd.AddValue("bursts", "Number of bursts", bursts);
    cmd.AddValue("intervalMs", "Time between the starts of two bursts, ms", intervalMs);
    cmd.AddValue("gbps", "Link rate, Gb/s", gbps);
    cmd.AddValue("bufferMb", "Shared buffer of the switch, MB", bufferMb);
    cmd.AddValue("pfc", "Lossless fabric (PFC); false: drops at the buffer limit", pfc);
    std::string ccNames;
    for (const auto& entry : RdmaCongestionControl::GetAlgorithms())
    {
        ccNames += (ccNames.empty() ? "" : ", ") + entry.first;
    }
    cmd.AddValue("cc", "Congestion control: " + ccNames, cc);
    cmd.AddValue("pcap", "Folder for one Ethernet pcap per host (empty: none)", pcapDir);
    cmd.Parse(argc, argv);

    // One switch: a leaf-spine of one leaf and no spine. Only the data class
    // (3) and the control class (7, ACK/NAK/CNP) are lossless: the switch
    // reserves PFC headroom per port and lossless priority, so fewer lossless
    // priorities leave more shared buffer.
    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate(static_cast<uint64_t>(gbps * 1e9)));
    fabric.SetBufferSize(static_cast<uint64_t>(bufferMb * 1e6));
    fabric.SetPfc(pfc);
    fabric.SetLosslessPriorities((1 << 3) | (1 << 7));
    const std::string problem = fabric.CheckLeafSpine(1, 0, senders + 1);
    if (!problem.empty())
    {
        std::fprintf(stderr, "%s\n", problem.c_str());
        return 1;
    }
    FabricTopology topo = fabric.BuildLeafSpine(1, 0, senders + 1);
    topo.AssignStreams(100);

    RdmaHelper rdma;
    rdma.SetCongestionControl(cc);
    std::vector<Ptr<RdmaNic>> nics;
    g_pfcXoff.assign(topo.GetNHosts(), 0);
    g_cnps.assign(topo.GetNHosts(), 0);
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
        topo.hostDevices[h]->TraceConnectWithoutContext("PfcRx",
                                                        MakeBoundCallback(&PfcReceived, h));
        nics[h]->TraceConnectWithoutContext("CnpRx", MakeBoundCallback(&CnpReceived, h));
    }
    if (!pcapDir.empty())
    {
        topo.EnablePcapHosts(pcapDir); // pcapDir/host<i>.pcap (created if missing)
    }

    // Senders 1..N, receiver 0.
    std::vector<uint32_t> from;
    for (uint32_t h = 1; h <= senders; ++h)
    {
        from.push_back(h);
    }
    g_incast = CreateObject<IncastTraffic>();
    g_incast->Configure(from, 0, bytes);
    g_incast->SetAttribute("StartTime", TimeValue(MicroSeconds(10)));
    g_incast->SetAttribute("Interval",
                           TimeValue(MicroSeconds(static_cast<int64_t>(intervalMs * 1e3))));
    g_incast->SetAttribute("Repeat", UintegerValue(bursts));
    g_incast->Setup("incast", nics);
    g_incast->AssignStreams(200);
    g_incast->TraceConnectWithoutContext("Flow", MakeCallback(&FlowFinished));
    g_incast->Start();

    Simulator::Stop(Seconds(10)); // safety stop
    Simulator::Run();

    // The receiver's link carries N x bytes of payload per burst at best at
    // the goodput of 4 KB packets (82 bytes of overhead each on the wire).
    const double drainUs = senders * bytes * 8.0 / (gbps * 1e9 * 4096 / (4096 + 82)) * 1e6;
    std::sort(g_fctUs.begin(), g_fctUs.end());
    uint64_t xoff = 0;
    uint64_t cnps = 0;
    uint64_t retransmissions = 0;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        xoff += g_pfcXoff[h];
        cnps += g_cnps[h];
        retransmissions += nics[h]->GetRetransmittedPackets();
    }

    std::printf("%u-to-1 incast, %u burst(s) of %.3f MB per sender, %g Gb/s, %g MB buffer, "
                "PFC %s, cc %s\n",
                senders,
                bursts,
                bytes / 1e6,
                gbps,
                bufferMb,
                pfc ? "on" : "off",
                cc.c_str());
    std::printf("  flows finished           %zu of %lu\n",
                g_fctUs.size(),
                static_cast<unsigned long>(g_incast->GetFlowsStarted()));
    if (!g_fctUs.empty())
    {
        std::printf("  FCT min / median / max   %.1f / %.1f / %.1f us (drain time of a burst "
                    "%.1f us)\n",
                    g_fctUs.front(),
                    g_fctUs[g_fctUs.size() / 2],
                    g_fctUs.back(),
                    drainUs);
    }
    std::printf("  PFC pause frames at the senders %lu (", static_cast<unsigned long>(xoff));
    for (uint32_t h = 1; h < topo.GetNHosts(); ++h)
    {
        std::printf("%s%lu", h > 1 ? " " : "", static_cast<unsigned long>(g_pfcXoff[h]));
    }
    std::printf(")\n");
    const FabricSwitch::Stats switches = topo.GetSwitchStats();
    std::printf("  switch: PFC pauses %lu, ECN marks %lu, drops %lu\n",
                static_cast<unsigned long>(switches.nPfcPauses),
                static_cast<unsigned long>(switches.nEcnMarks),
                static_cast<unsigned long>(switches.GetNDroppedPackets()));
    std::printf("  CNPs at the senders %lu, retransmitted packets %lu\n",
                static_cast<unsigned long>(cnps),
                static_cast<unsigned long>(retransmissions));
    if (!pcapDir.empty())
    {
        std::printf("  pcaps in %s/host<i>.pcap\n", pcapDir.c_str());
    }

    g_incast = nullptr;
    Simulator::Destroy();
    return 0;
}
