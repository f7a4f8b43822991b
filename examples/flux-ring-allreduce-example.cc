/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * One data-parallel training job alone on a leaf-spine fabric.
 *
 *        spine0     spine1          (fabric links, --fabricGbps)
 *          |  \     /  |
 *          |    \ /    |
 *          |    / \    |
 *        leaf0      leaf1           (host links, --hostGbps)
 *       / | | \    / | | \
 *      h0 h1 h2 h3 h4 h5 h6 h7      rank i runs on host i
 *
 * The job computes for --computeMs, then allreduces --bytes of gradients
 * with a ring allreduce over RoCEv2 (2(N-1) dependent ring steps), and does
 * so --iterations times. The program prints every iteration (from the
 * TrainingJob "Iteration" trace source), the phase times (from the
 * Collective "Phase" trace source: one phase is one ring step, from the first
 * rank starting it to the last rank finishing it) and compares the
 * communication time with the bandwidth lower bound of any allreduce,
 * 2(N-1)/N x bytes / goodput.
 *
 * Standalone build: build/examples/flux-ring-allreduce-example [--args]
 * In an ns-3 tree:   ./ns3 run "flux-ring-allreduce-example --ranks=8 --bytes=20000000"
 */

#include "ns3/command-line.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/training-job-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FluxRingAllreduceExample");

namespace
{

std::vector<double> g_phaseMs; //!< duration of every phase, ms
bool g_verbose = false;        //!< print every phase

/**
 * \brief TrainingJob "Iteration" trace sink: one iteration ended.
 * \param iteration its index
 * \param start when its compute began
 * \param end when its allreduce finished
 */
void
IterationEnded(uint32_t iteration, Time start, Time end)
{
    std::printf("  iteration %u: %8.3f ms (from %.3f to %.3f ms)\n",
                iteration,
                (end - start).GetSeconds() * 1e3,
                start.GetSeconds() * 1e3,
                end.GetSeconds() * 1e3);
}

/**
 * \brief Collective "Phase" trace sink: every rank finished one ring step.
 * \param run which allreduce (one per iteration here)
 * \param step the ring step: 0..N-2 reduce-scatter, N-1..2N-3 all-gather
 * \param start when the first rank started the step
 * \param end when the last rank finished it
 */
void
PhaseEnded(uint32_t run, uint32_t step, Time start, Time end)
{
    g_phaseMs.push_back((end - start).GetSeconds() * 1e3);
    if (g_verbose)
    {
        std::printf("    allreduce %u step %2u: %.3f ms\n",
                    run,
                    step,
                    (end - start).GetSeconds() * 1e3);
    }
}

/**
 * \brief The job finished: nothing is left to simulate (the NICs' timers
 * would keep the simulator going).
 * \param job the job
 */
void
JobFinished(Ptr<TrainingJob> job)
{
    NS_LOG_INFO("job " << job->GetName() << " finished at " << Simulator::Now().As(Time::MS));
    Simulator::Stop();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t leaves = 2;
    uint32_t spines = 2;
    uint32_t hostsPerLeaf = 4;
    double hostGbps = 100;
    double fabricGbps = 100;
    uint32_t ranks = 8;
    uint64_t bytes = 9800000; // ResNet-50's 98 MB fp32 gradient, scaled down by 10
    double computeMs = 2;
    uint32_t iterations = 4;
    uint32_t mtu = 4096;
    std::string cc = "dcqcn";

    CommandLine cmd(__FILE__);
    cmd.Usage("One ring-allreduce training job alone on a leaf-spine RoCEv2 fabric.");
    cmd.AddValue("leaves", "Number of leaf switches", leaves);
    cmd.AddValue("spines", "Number of spine switches", spines);
    cmd.AddValue("hostsPerLeaf", "Hosts under each leaf", hostsPerLeaf);
    cmd.AddValue("hostGbps", "Host link rate, Gb/s", hostGbps);
    cmd.AddValue("fabricGbps", "Leaf-spine link rate, Gb/s", fabricGbps);
    cmd.AddValue("ranks", "Ranks of the job (rank i on host i)", ranks);
    cmd.AddValue("bytes", "Gradient bytes allreduced per iteration", bytes);
    cmd.AddValue("computeMs", "Compute time per iteration, ms", computeMs);
    cmd.AddValue("iterations", "Training iterations", iterations);
    cmd.AddValue("mtu", "RDMA path MTU: payload bytes per packet", mtu);
    std::string ccNames;
    for (const auto& entry : RdmaCongestionControl::GetAlgorithms())
    {
        ccNames += (ccNames.empty() ? "" : ", ") + entry.first;
    }
    cmd.AddValue("cc", "Congestion control: " + ccNames, cc);
    cmd.AddValue("verbose", "Print every phase (ring step)", g_verbose);
    cmd.Parse(argc, argv);

    if (ranks < 2 || ranks > leaves * hostsPerLeaf)
    {
        std::cerr << "--ranks must be between 2 and leaves x hostsPerLeaf = "
                  << leaves * hostsPerLeaf << std::endl;
        return 1;
    }

    // 1. The fabric: switches, PFC links, addresses and ECMP routes. Hosts are
    //    numbered leaf by leaf; they have a port but no network stack yet.
    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate(static_cast<uint64_t>(hostGbps * 1e9)));
    fabric.SetFabricRate(DataRate(static_cast<uint64_t>(fabricGbps * 1e9)));
    fabric.SetLinkDelay(MicroSeconds(1));
    FabricTopology topo = fabric.BuildLeafSpine(leaves, spines, hostsPerLeaf);

    // 2. A RoCEv2 NIC on every host (DCQCN by default).
    RdmaHelper rdma;
    rdma.SetNicAttribute("Mtu", UintegerValue(mtu));
    rdma.SetCongestionControl(cc);
    std::vector<Ptr<RdmaNic>> nics; // by host index
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }
    // Rank i runs on host i.
    std::vector<Ptr<RdmaNic>> rankNics(nics.begin(), nics.begin() + ranks);

    // 3. The training job: compute, then a ring allreduce over one RC queue
    //    pair from every rank to the next one, every iteration; data in
    //    traffic class 3, UDP source ports 50000.. (ECMP entropy).
    TrainingJobHelper jobs;
    jobs.SetJobAttribute("Iterations", UintegerValue(iterations));
    jobs.SetJobAttribute("ComputeTime",
                         TimeValue(MicroSeconds(static_cast<int64_t>(computeMs * 1e3))));
    jobs.SetJobAttribute("GradientBytes", UintegerValue(bytes));
    Ptr<TrainingJob> job = jobs.Install("job", rankNics, 3, 50000);
    job->GetCollective()->TraceConnectWithoutContext("Phase", MakeCallback(&PhaseEnded));
    job->TraceConnectWithoutContext("Iteration", MakeCallback(&IterationEnded));
    job->SetFinishedCallback(MakeCallback(&JobFinished));
    job->Start();

    std::printf("%u ranks on a %u x %u leaf-spine (%g/%g Gb/s), %.1f MB per allreduce, "
                "%.3f ms compute\n",
                ranks,
                leaves,
                spines,
                hostGbps,
                fabricGbps,
                bytes / 1e6,
                computeMs);
    Simulator::Stop(Seconds(10)); // safety stop
    Simulator::Run();

    // The alpha-beta bound: each rank sends 2(N-1)/N x bytes; on the wire
    // every packet carries 82 bytes of headers, preamble and gap besides
    // its payload.
    const double goodputBps = hostGbps * 1e9 * mtu / (mtu + 82.0);
    const double boundMs = 2.0 * (ranks - 1) / ranks * bytes * 8 / goodputBps * 1e3;
    const auto& its = job->GetIterations();
    double commMs = 0;
    for (const auto& it : its)
    {
        commMs += (it.end - it.start).GetSeconds() * 1e3 - computeMs;
    }
    commMs /= std::max<std::size_t>(1, its.size());
    std::sort(g_phaseMs.begin(), g_phaseMs.end());

    std::printf("Summary\n");
    std::printf("  JCT                      %.3f ms (%zu of %u iterations)\n",
                job->GetJct().GetSeconds() * 1e3,
                its.size(),
                iterations);
    std::printf("  allreduce time, mean     %.3f ms\n", commMs);
    std::printf("  bandwidth lower bound    %.3f ms (%.1f%% of it reached)\n",
                boundMs,
                commMs > 0 ? 100 * boundMs / commMs : 0.0);
    if (!g_phaseMs.empty())
    {
        std::printf("  phases                   %zu, median %.3f ms, max %.3f ms\n",
                    g_phaseMs.size(),
                    g_phaseMs[g_phaseMs.size() / 2],
                    g_phaseMs.back());
    }
    uint64_t cnps = 0;
    for (const auto& nic : nics)
    {
        cnps += nic->GetCnpsSent();
    }
    const FabricSwitch::Stats switches = topo.GetSwitchStats();
    std::printf("  PFC pauses %lu, ECN marks %lu, CNPs %lu, drops %lu\n",
                static_cast<unsigned long>(switches.nPfcPauses),
                static_cast<unsigned long>(switches.nEcnMarks),
                static_cast<unsigned long>(cnps),
                static_cast<unsigned long>(switches.GetNDroppedPackets()));

    Simulator::Destroy();
    return 0;
}
