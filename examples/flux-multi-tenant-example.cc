/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * Two training jobs and a background RPC tenant sharing an oversubscribed
 * leaf-spine fabric.
 *
 *            spine0        spine1             2 x --fabricGbps per leaf
 *         /   |   \  \   /  /  |   \          (default 4:1 oversubscribed)
 *     leaf0   leaf1   leaf2   leaf3
 *     h0-h3   h4-h7   h8-h11  h12-h15         --hostGbps each
 *
 * Job "a" has its ranks on hosts 0, 4, 8, 12, 1, 5, 9, 13 and job "b" on
 * 2, 6, 10, 14, 3, 7, 11, 15: every hop of both rings crosses a spine, so
 * the jobs share every leaf uplink. A web-search RPC tenant (Poisson
 * arrivals, DCTCP web-search flow sizes) sends flows between all hosts at
 * --rpcLoad of the host links until both jobs are done.
 *
 * The program runs the jobs together, and (with --alone, the default) each
 * job once more alone on the same fabric, and prints how much sharing
 * stretched every job. It shows the trace sources a study of contention
 * uses: TrainingJob "Iteration", FlowTraffic "Flow", PfcNetDevice "PfcRx"
 * (pause frames the hosts receive from their leaf) and RdmaNic "CnpRx"
 * (DCQCN congestion notifications reaching the senders).
 *
 * Standalone build: build/examples/flux-multi-tenant-example [--args]
 * In an ns-3 tree:   ./ns3 run "flux-multi-tenant-example --rpcLoad=0.3"
 */

#include "ns3/command-line.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/flow-size-cdf.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/poisson-traffic.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/training-job-helper.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("FluxMultiTenantExample");

namespace
{

/// What one experiment run measured.
struct Outcome
{
    std::map<std::string, double> jctMs;               //!< per job
    std::map<std::string, std::vector<double>> iterMs; //!< per job, every iteration
    std::vector<double> shortFctUs;                    //!< RPC flows < 100 KB
    std::vector<double> longFctUs;                     //!< RPC flows >= 100 KB
    uint64_t pfcFramesAtHosts{0};                      //!< "PfcRx" pauses at hosts
    uint64_t cnps{0};                                  //!< "CnpRx" at senders
    double simulatedMs{0};                             //!< simulated time
};

Outcome g_out;             //!< the current run's measurements
uint32_t g_jobsLeft = 0;   //!< jobs still running
Ptr<PoissonTraffic> g_rpc; //!< the RPC tenant (null when absent)

/**
 * \brief TrainingJob "Iteration" sink, bound to the job's name.
 * \param job the job's name
 * \param iteration index
 * \param start begin of its compute
 * \param end end of its allreduce
 */
void
IterationEnded(std::string job, uint32_t iteration, Time start, Time end)
{
    NS_LOG_INFO(job << " iteration " << iteration << ": " << (end - start).As(Time::MS));
    g_out.iterMs[job].push_back((end - start).GetSeconds() * 1e3);
}

/// Stop when the jobs are done and every RPC flow that started has finished.
void
CheckDone()
{
    if (g_jobsLeft == 0 && (!g_rpc || g_rpc->GetFlowsFinished() == g_rpc->GetFlowsStarted()))
    {
        Simulator::Stop();
    }
}

/**
 * \brief A job finished: when it was the last, the RPC tenant starts no more
 * flows.
 * \param job the job
 */
void
JobFinished(Ptr<TrainingJob> job)
{
    g_out.jctMs[job->GetName()] = job->GetJct().GetSeconds() * 1e3;
    if (--g_jobsLeft == 0 && g_rpc)
    {
        g_rpc->StopArrivals();
    }
    CheckDone();
}

/**
 * \brief FlowTraffic "Flow" sink: one RPC flow finished.
 * \param src sending host
 * \param dst receiving host
 * \param bytes size
 * \param fct flow completion time
 */
void
FlowFinished(uint32_t /* src */, uint32_t /* dst */, uint64_t bytes, Time fct)
{
    (bytes < 100000 ? g_out.shortFctUs : g_out.longFctUs).push_back(fct.GetSeconds() * 1e6);
    CheckDone();
}

/**
 * \brief PfcNetDevice "PfcRx" sink: a host's port got a PFC frame.
 * \param prio the priority it concerns
 * \param quanta pause time in quanta (0: resume)
 */
void
PfcReceived(uint8_t /* prio */, uint16_t quanta)
{
    if (quanta > 0)
    {
        ++g_out.pfcFramesAtHosts;
    }
}

/**
 * \brief RdmaNic "CnpRx" sink: a sender's queue pair got a CNP.
 * \param qpn the queue pair
 */
void
CnpReceived(uint32_t /* qpn */)
{
    ++g_out.cnps;
}

/// Parameters of the experiment.
struct Params
{
    double hostGbps{100};     //!< host links
    double fabricGbps{50};    //!< leaf-spine links
    uint64_t bytesA{4900000}; //!< job a's gradient bytes
    uint64_t bytesB{4400000}; //!< job b's gradient bytes
    double computeMs{2};      //!< compute per iteration
    uint32_t iterations{3};   //!< iterations per job
    double rpcLoad{0.05};     //!< RPC load per host link (0: no RPC tenant)
};

/**
 * \brief Build the fabric and the tenants, run, and gather the outcome.
 * \param p the parameters
 * \param jobs which jobs run: "a", "b" or "ab"
 * \param rpc whether the RPC tenant runs
 * \return the measurements
 */
Outcome
RunOnce(const Params& p, const std::string& jobs, bool rpc)
{
    g_out = Outcome();
    RngSeedManager::SetSeed(1);

    FabricTopologyHelper fabric;
    fabric.SetHostRate(DataRate(static_cast<uint64_t>(p.hostGbps * 1e9)));
    fabric.SetFabricRate(DataRate(static_cast<uint64_t>(p.fabricGbps * 1e9)));
    FabricTopology topo = fabric.BuildLeafSpine(4, 2, 4);
    topo.AssignStreams(100); // ECN marking draws, fixed for reproducibility

    RdmaHelper rdma;
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
    {
        nics.push_back(rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
        // Pause frames that a host receives from its leaf switch.
        topo.hostDevices[h]->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcReceived));
        nics[h]->TraceConnectWithoutContext("CnpRx", MakeCallback(&CnpReceived));
    }

    // Spread placement: consecutive ranks under different leaves.
    const std::map<std::string, std::vector<uint32_t>> hosts = {
        {"a", {0, 4, 8, 12, 1, 5, 9, 13}},
        {"b", {2, 6, 10, 14, 3, 7, 11, 15}}};
    const std::map<std::string, uint64_t> bytes = {{"a", p.bytesA}, {"b", p.bytesB}};
    // Fixed UDP source ports per job, so that ECMP puts its flows on the
    // same paths alone and shared.
    const std::map<std::string, uint16_t> ports = {{"a", 50000}, {"b", 50100}};
    std::vector<Ptr<TrainingJob>> running;
    for (char c : jobs)
    {
        const std::string name(1, c);
        std::vector<Ptr<RdmaNic>> rankNics;
        for (uint32_t h : hosts.at(name))
        {
            rankNics.push_back(nics[h]);
        }
        TrainingJobHelper jobHelper;
        jobHelper.SetJobAttribute("Iterations", UintegerValue(p.iterations));
        jobHelper.SetJobAttribute("ComputeTime",
                                  TimeValue(MicroSeconds(static_cast<int64_t>(p.computeMs * 1e3))));
        jobHelper.SetJobAttribute("GradientBytes", UintegerValue(bytes.at(name)));
        Ptr<TrainingJob> job = jobHelper.Install(name, rankNics, 3, ports.at(name));
        job->TraceConnectWithoutContext("Iteration", MakeBoundCallback(&IterationEnded, name));
        job->SetFinishedCallback(MakeCallback(&JobFinished));
        job->Start();
        running.push_back(job);
    }
    g_jobsLeft = static_cast<uint32_t>(running.size());

    g_rpc = nullptr;
    if (rpc)
    {
        std::vector<uint32_t> all(topo.GetNHosts());
        for (uint32_t h = 0; h < all.size(); ++h)
        {
            all[h] = h;
        }
        g_rpc = CreateObject<PoissonTraffic>();
        g_rpc->Configure(all, FlowSizeCdf::Builtin("websearch"), p.rpcLoad, p.hostGbps * 1e9);
        g_rpc->SetAttribute("Priority", UintegerValue(3)); // same class as the jobs
        g_rpc->Setup("rpc", nics);
        g_rpc->AssignStreams(200);
        g_rpc->TraceConnectWithoutContext("Flow", MakeCallback(&FlowFinished));
        g_rpc->Start();
    }

    Simulator::Stop(Seconds(10)); // safety stop
    Simulator::Run();
    g_out.simulatedMs = Simulator::Now().GetSeconds() * 1e3;
    g_rpc = nullptr;
    Simulator::Destroy();
    return g_out;
}

/**
 * \param v samples (sorted in place)
 * \param q quantile in [0, 1]
 * \return the nearest-rank quantile, 0 for no samples
 */
double
Quantile(std::vector<double>& v, double q)
{
    if (v.empty())
    {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const auto rank = static_cast<std::size_t>(std::max(1.0, q * v.size() + 0.999999)) - 1;
    return v[std::min(rank, v.size() - 1)];
}

} // namespace

int
main(int argc, char* argv[])
{
    Params p;
    bool alone = true;

    CommandLine cmd(__FILE__);
    cmd.Usage("Two ring-allreduce jobs and a web-search RPC tenant on a 4x2 leaf-spine.");
    cmd.AddValue("hostGbps", "Host link rate, Gb/s", p.hostGbps);
    cmd.AddValue("fabricGbps", "Leaf-spine link rate, Gb/s (50: 4:1 oversubscribed)", p.fabricGbps);
    cmd.AddValue("bytesA", "Job a's gradient bytes per iteration", p.bytesA);
    cmd.AddValue("bytesB", "Job b's gradient bytes per iteration", p.bytesB);
    cmd.AddValue("computeMs", "Compute time per iteration of both jobs, ms", p.computeMs);
    cmd.AddValue("iterations", "Iterations of each job", p.iterations);
    cmd.AddValue("rpcLoad", "Load of the RPC tenant per host link (0: none)", p.rpcLoad);
    cmd.AddValue("alone", "Also run each job alone, to measure the stretch", alone);
    cmd.Parse(argc, argv);

    const bool rpc = p.rpcLoad > 0;
    Outcome shared = RunOnce(p, "ab", rpc);

    std::printf("Jobs a and b together%s (%.3f ms simulated)\n",
                rpc ? " with the RPC tenant" : "",
                shared.simulatedMs);
    for (const std::string name : {"a", "b"})
    {
        auto& it = shared.iterMs[name];
        std::printf("  job %s: JCT %8.3f ms, iteration median %.3f ms, max %.3f ms",
                    name.c_str(),
                    shared.jctMs[name],
                    Quantile(it, 0.5),
                    Quantile(it, 1.0));
        if (alone)
        {
            const double aloneMs = RunOnce(p, name, false).jctMs[name];
            std::printf(", alone %.3f ms: %.2fx", aloneMs, shared.jctMs[name] / aloneMs);
        }
        std::printf("\n");
    }
    if (rpc)
    {
        std::printf("  RPC flows < 100 KB: %zu, FCT p50 %.1f us, p99 %.1f us\n",
                    shared.shortFctUs.size(),
                    Quantile(shared.shortFctUs, 0.5),
                    Quantile(shared.shortFctUs, 0.99));
        std::printf("  RPC flows >= 100 KB: %zu, FCT p50 %.1f us, p99 %.1f us\n",
                    shared.longFctUs.size(),
                    Quantile(shared.longFctUs, 0.5),
                    Quantile(shared.longFctUs, 0.99));
    }
    std::printf("  PFC pause frames received by hosts: %lu, CNPs received by senders: %lu\n",
                static_cast<unsigned long>(shared.pfcFramesAtHosts),
                static_cast<unsigned long>(shared.cnps));
    return 0;
}
