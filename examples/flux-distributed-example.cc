/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * One lossless fabric split over MPI processes: the same results on 1, 2
 * or 4 of them.
 *
 *      spine0        spine1             2:1 oversubscribed leaf-spine,
 *       |  \        /   |               --leaves leaves of --hostsPerLeaf
 *     leaf0 leaf1 ... leafL-1           hosts; PFC and ECN on
 *     |||| |||| ...
 *
 * An RPC tenant (Poisson arrivals of web-search flows between all hosts,
 * --load of each host link) and --incasts incast bursts (every host of the
 * other leaves to host 0) run for --ms milliseconds. FabricTopologyHelper
 * gives each process a block of leaves with their hosts (the spines are
 * spread); links between blocks carry their frames as MPI messages, and
 * their propagation delay is the lookahead of ns-3's distributed simulator.
 *
 * Every process builds the whole fabric and the same tenants (their flow
 * arrivals come from the same random streams); a flow is posted by the
 * process of its sender and completes at the process of its receiver. At the
 * end, rank 0 gathers the flows and the switches' counters and prints them,
 * with a digest of every flow's completion time: it is the same on any
 * number of processes, and the same as a run without MPI (both order
 * simultaneous events with the OrderedScheduler).
 *
 * In an ns-3 tree configured with --enable-mpi:
 *
 *     mpirun -np 2 build/contrib/flux/examples/ns3.37-flux-distributed-example
 *
 * (as root: mpirun --allow-run-as-root --oversubscribe). Without MPI it runs
 * on one process.
 */

#include "ns3/command-line.h"
#include "ns3/fabric-ranks.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/incast-traffic.h"
#include "ns3/ordered-scheduler.h"
#include "ns3/poisson-traffic.h"
#include "ns3/rdma-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::vector<double> g_flows; //!< finished flows here: tenant, src, dst, bytes, start ns, fct ns

/**
 * \brief FlowTraffic flow callback, bound to the tenant's index.
 * \param tenant the tenant
 * \param r the finished flow
 */
void
FlowFinished(uint32_t tenant, const FlowTraffic::FlowRecord& r)
{
    g_flows.insert(g_flows.end(),
                   {static_cast<double>(tenant),
                    static_cast<double>(r.src),
                    static_cast<double>(r.dst),
                    static_cast<double>(r.bytes),
                    static_cast<double>(r.start.GetNanoSeconds()),
                    static_cast<double>(r.fct.GetNanoSeconds())});
}

/**
 * \brief FNV-1a over 64-bit words.
 * \param words the words
 * \return the digest
 */
uint64_t
Digest(const std::vector<uint64_t>& words)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (uint64_t w : words)
    {
        for (int i = 0; i < 8; ++i)
        {
            h ^= (w >> (8 * i)) & 0xff;
            h *= 0x100000001b3ULL;
        }
    }
    return h;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint32_t leaves = 4;
    uint32_t hostsPerLeaf = 4;
    uint32_t spines = 2;
    double load = 0.5;
    uint32_t incasts = 2;
    double ms = 2.5;
    bool nullMessage = false;

    const std::string mpiProblem =
        FabricRanks::IsAvailable() ? FabricRanks::Enable(&argc, &argv, nullMessage) : "";
    if (!FabricRanks::IsAvailable())
    {
        // One process: the same order of simultaneous events as under MPI.
        ObjectFactory scheduler;
        scheduler.SetTypeId(OrderedScheduler::GetTypeId());
        Simulator::SetScheduler(scheduler);
    }
    CommandLine cmd(__FILE__);
    cmd.Usage("A leaf-spine with an RPC tenant and incasts, split over MPI processes.");
    cmd.AddValue("leaves", "Leaf switches", leaves);
    cmd.AddValue("hostsPerLeaf", "Hosts per leaf", hostsPerLeaf);
    cmd.AddValue("spines", "Spine switches", spines);
    cmd.AddValue("load", "RPC tenant's load on each host link", load);
    cmd.AddValue("incasts", "Incast bursts to host 0", incasts);
    cmd.AddValue("ms", "Simulated time, ms", ms);
    cmd.Parse(argc, argv);
    if (!mpiProblem.empty())
    {
        std::fprintf(stderr, "%s\n", mpiProblem.c_str());
        return 1;
    }
    const uint32_t rank = FabricRanks::GetRank();
    const uint32_t nRanks = FabricRanks::GetNRanks();

    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate("100Gbps"));
    fabric.SetFabricRate(DataRate("100Gbps"));
    fabric.SetLosslessPriorities((1 << 3) | (1 << 7));
    fabric.SetRanks(nRanks);
    FabricTopology topo;
    std::string problem;
    try
    {
        // (refuses more processes than leaves)
        topo = fabric.BuildLeafSpine(leaves, spines, hostsPerLeaf);
        topo.AssignStreams(100);
        problem = FabricRanks::Prepare();
    }
    catch (const std::invalid_argument& e)
    {
        problem = e.what();
    }
    if (!problem.empty())
    {
        if (rank == 0)
        {
            std::fprintf(stderr, "%s\n", problem.c_str());
        }
        Simulator::Destroy();
        FabricRanks::Disable();
        return 1;
    }

    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
    }

    std::vector<uint32_t> all(topo.GetNHosts());
    std::vector<uint32_t> remote;
    for (uint32_t h = 0; h < all.size(); ++h)
    {
        all[h] = h;
        if (h >= hostsPerLeaf)
        {
            remote.push_back(h);
        }
    }
    Ptr<PoissonTraffic> rpc = CreateObject<PoissonTraffic>();
    rpc->Configure(all, FlowSizeCdf::Builtin("websearch"), load, 100e9);
    rpc->SetAttribute("Priority", UintegerValue(3));
    rpc->Setup("rpc", nics);
    rpc->AssignStreams(200);
    rpc->SetFlowCallback(MakeBoundCallback(&FlowFinished, uint32_t{0}));
    rpc->Start();
    Ptr<IncastTraffic> incast = CreateObject<IncastTraffic>();
    incast->Configure(remote, 0, 1000000);
    incast->SetAttribute("StartTime", TimeValue(MicroSeconds(100)));
    incast->SetAttribute("Interval", TimeValue(MicroSeconds(500)));
    incast->SetAttribute("Repeat", UintegerValue(incasts));
    incast->SetAttribute("Priority", UintegerValue(3));
    incast->Setup("incast", nics);
    incast->AssignStreams(300);
    incast->SetFlowCallback(MakeBoundCallback(&FlowFinished, uint32_t{1}));
    if (incasts > 0)
    {
        incast->Start();
    }

    const auto wall0 = std::chrono::steady_clock::now();
    Simulator::Stop(MicroSeconds(static_cast<int64_t>(ms * 1e3)));
    Simulator::Run();
    const double wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

    // Counters: each switch is simulated by one process, the others' copies
    // count nothing, so the sums are the fabric's.
    std::vector<uint64_t> counters;
    for (const auto& s : topo.switches)
    {
        if (!FabricRanks::IsLocal(*s.node))
        {
            counters.insert(counters.end(), 5, 0);
            continue;
        }
        const FabricSwitch::Stats& st = s.sw->GetStats();
        counters.push_back(st.nRxPackets);
        counters.push_back(st.GetNDroppedPackets());
        counters.push_back(st.nEcnMarks);
        counters.push_back(st.nPfcPauses);
        counters.push_back(st.nPfcPauseFramesSent);
    }
    counters = FabricRanks::SumToRoot(counters);
    std::vector<double> flows = FabricRanks::GatherToRoot(g_flows);
    std::vector<double> walls = FabricRanks::GatherToRoot({wallS});
    if (rank == 0)
    {
        // Flows in a fixed order: by tenant, start, source, destination.
        std::vector<std::array<uint64_t, 6>> rows;
        for (std::size_t i = 0; i + 6 <= flows.size(); i += 6)
        {
            rows.push_back({static_cast<uint64_t>(flows[i]),
                            static_cast<uint64_t>(flows[i + 4]),
                            static_cast<uint64_t>(flows[i + 1]),
                            static_cast<uint64_t>(flows[i + 2]),
                            static_cast<uint64_t>(flows[i + 3]),
                            static_cast<uint64_t>(flows[i + 5])});
        }
        std::sort(rows.begin(), rows.end());
        std::vector<uint64_t> words;
        std::array<uint64_t, 2> finished{};
        std::array<double, 2> fctSum{};
        for (const auto& r : rows)
        {
            words.insert(words.end(), r.begin(), r.end());
            ++finished[r[0]];
            fctSum[r[0]] += r[5] * 1e-3;
        }
        std::array<uint64_t, 5> total{};
        for (std::size_t i = 0; i < counters.size(); ++i)
        {
            total[i % 5] += counters[i];
        }
        words.insert(words.end(), counters.begin(), counters.end());
        std::printf("fabric: %u leaves x %u hosts, %u spines, %u MPI process(es)\n",
                    leaves,
                    hostsPerLeaf,
                    spines,
                    nRanks);
        for (int t = 0; t < 2; ++t)
        {
            std::printf("%s flows finished: %llu, mean FCT %.3f us\n",
                        t == 0 ? "rpc" : "incast",
                        static_cast<unsigned long long>(finished[t]),
                        finished[t] ? fctSum[t] / finished[t] : 0.0);
        }
        std::printf("switches: %llu packets received, %llu dropped, %llu ECN marks, "
                    "%llu PFC pauses, %llu pause frames\n",
                    static_cast<unsigned long long>(total[0]),
                    static_cast<unsigned long long>(total[1]),
                    static_cast<unsigned long long>(total[2]),
                    static_cast<unsigned long long>(total[3]),
                    static_cast<unsigned long long>(total[4]));
        std::printf("digest: %016llx\n", static_cast<unsigned long long>(Digest(words)));
        std::fprintf(stderr, "wall time per process:");
        for (double w : walls)
        {
            std::fprintf(stderr, " %.2f s", w);
        }
        std::fprintf(stderr, "\n");
    }
    Simulator::Destroy();
    FabricRanks::Disable();
    return 0;
}
