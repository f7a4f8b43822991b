/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The flow-level model: max-min fair sharing on hand-built link sets (the
 * water-filling cases of the textbook, random instances against the
 * bottleneck property), strict priority between classes, messages alone
 * and sharing a link against their closed-form times, the ring's step
 * dependencies, conservation of bytes and determinism.
 */

#include "rdma-fabric.h"

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/fluid-network-helper.h"
#include "ns3/fluid-network.h"
#include "ns3/indexed-heap.h"
#include "ns3/max-min-allocator.h"
#include "ns3/network-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/ring-allreduce.h"
#include "ns3/training-job-helper.h"
#include "ns3/training-job.h"

#include <algorithm>
#include <random>
#include <set>

using namespace ns3;

namespace
{

/// Bytes per packet on the wire beyond the payload (FluidNetwork::PacketOverhead).
constexpr double WIRE_OVERHEAD = 86;

/**
 * \brief Allocate rates for flows given as link lists.
 * \param capacity per link
 * \param paths per flow, its links
 * \param classes per flow, its class (empty: all class 3)
 * \param weights per flow, its weight (empty: all 1)
 * \param order class order (empty: descending)
 * \return the rates
 */
std::vector<double>
Rates(const std::vector<double>& capacity,
      const std::vector<std::vector<uint32_t>>& paths,
      const std::vector<uint8_t>& classes = {},
      const std::vector<double>& weights = {},
      const std::vector<uint8_t>& order = {})
{
    MaxMinAllocator a;
    a.SetCapacities(capacity);
    a.SetClassOrder(order);
    std::vector<MaxMinAllocator::Demand> demands(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i)
    {
        demands[i].links = paths[i].data();
        demands[i].hops = static_cast<uint32_t>(paths[i].size());
        demands[i].cls = classes.empty() ? 3 : classes[i];
        demands[i].weight = weights.empty() ? 1.0 : weights[i];
    }
    a.Allocate(demands);
    std::vector<double> rates;
    for (const auto& d : demands)
    {
        rates.push_back(d.rate);
    }
    return rates;
}

/**
 * Water-filling on hand-built link sets gives the textbook max-min rates:
 * equal shares on one link, a flow held back by a narrower link leaving
 * its share to the others, a private narrow link, weights, a dead link.
 */
class MaxMinTextbookTestCase : public TestCase
{
  public:
    MaxMinTextbookTestCase()
        : TestCase("max-min fair rates of the textbook cases")
    {
    }

  private:
    void DoRun() override
    {
        const double tol = 1e-9;
        auto r = Rates({9}, {{0}, {0}, {0}});
        for (double x : r)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(x, 3.0, tol, "three flows on one link of 9: 3 each");
        }
        // Link 0 (10) carries f0, f1, f2; link 1 (4) carries f2, f3. Link 1
        // fills first at 2 each; f0 and f1 share the 8 left on link 0.
        r = Rates({10, 4}, {{0}, {0}, {0, 1}, {1}});
        const std::vector<double> want{4, 4, 2, 2};
        for (std::size_t i = 0; i < want.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r[i], want[i], tol, "two-link case, flow " << i);
        }
        // A private narrow link caps its flow; the other takes the rest.
        r = Rates({1, 10}, {{0, 1}, {1}});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 1.0, tol, "capped by its own link");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 9.0, tol, "the rest of the shared link");
        // The parking lot: a long flow over three links, one short flow on each.
        r = Rates({6, 6, 6}, {{0, 1, 2}, {0}, {1}, {2}});
        for (double x : r)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(x, 3.0, tol, "parking lot: 3 each");
        }
        r = Rates({10}, {{0}, {0}}, {}, {1, 3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 2.5, tol, "weight 1 of 4");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 7.5, tol, "weight 3 of 4");
        r = Rates({0, 10}, {{0, 1}, {1}});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 0.0, tol, "a dead link carries nothing");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 10.0, tol, "the other flow takes the link");
        r = Rates({10}, {{}});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 0.0, tol, "no link, no rate");
    }
};

/**
 * Strict priority between classes: a class takes what the classes before
 * it left, in descending class number or in the order given; within a
 * class the shares stay max-min fair.
 */
class StrictPriorityTestCase : public TestCase
{
  public:
    StrictPriorityTestCase()
        : TestCase("strict priority between classes, max-min within")
    {
    }

  private:
    void DoRun() override
    {
        const double tol = 1e-9;
        auto r = Rates({10}, {{0}, {0}}, {5, 3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 10.0, tol, "class 5 first");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 0.0, tol, "class 3 gets nothing");
        r = Rates({10}, {{0}, {0}}, {5, 3}, {}, {3, 5});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 0.0, tol, "order 3 5: class 5 second");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 10.0, tol, "order 3 5: class 3 first");
        // The high class is held back elsewhere: the low one gets the rest.
        r = Rates({10, 4}, {{0, 1}, {0}, {0}}, {5, 3, 3});
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0], 4.0, tol, "high class capped by link 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[1], 3.0, tol, "low class shares the 6 left");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[2], 3.0, tol, "low class shares the 6 left");
        // What rounding leaves of a link the high class fills is nothing:
        // the low class gets exactly 0 (a tiny rate would end its message
        // in centuries, and the message-end event would overflow).
        r = Rates({1}, {{0}, {0}, {0}, {0}}, {5, 5, 5, 3});
        NS_TEST_EXPECT_MSG_EQ(r[3], 0.0, "no rate from rounding residue");
        NS_TEST_EXPECT_MSG_EQ_TOL(r[0] + r[1] + r[2], 1.0, tol, "the high class fills the link");
    }
};

/**
 * Random link sets, small (the allocator's scans) and large (its heap):
 * the rates are feasible (no link over its capacity) and max-min fair, as
 * the bottleneck property characterises it: every flow crosses a full link
 * on which no flow has a larger rate.
 */
class MaxMinPropertyTestCase : public TestCase
{
  public:
    MaxMinPropertyTestCase()
        : TestCase("random instances: feasible, every flow has a bottleneck")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        for (int instance = 0; instance < 200; ++instance)
        {
            const bool large = instance % 4 == 0;
            const uint32_t nLinks = large ? 400 : 12;
            const uint32_t nFlows = large ? 300 : 10;
            std::vector<double> capacity(nLinks);
            for (auto& c : capacity)
            {
                c = 1 + std::uniform_int_distribution<int>(0, 9)(rng);
            }
            std::vector<std::vector<uint32_t>> paths(nFlows);
            for (auto& p : paths)
            {
                const int hops = std::uniform_int_distribution<int>(1, 5)(rng);
                while (p.size() < static_cast<std::size_t>(hops))
                {
                    const uint32_t l = std::uniform_int_distribution<uint32_t>(0, nLinks - 1)(rng);
                    if (std::find(p.begin(), p.end(), l) == p.end())
                    {
                        p.push_back(l);
                    }
                }
            }
            const auto r = Rates(capacity, paths);
            std::vector<double> load(nLinks, 0);
            std::vector<double> top(nLinks, 0);
            for (uint32_t f = 0; f < nFlows; ++f)
            {
                for (uint32_t l : paths[f])
                {
                    load[l] += r[f];
                    top[l] = std::max(top[l], r[f]);
                }
            }
            for (uint32_t l = 0; l < nLinks; ++l)
            {
                NS_TEST_ASSERT_MSG_EQ((load[l] <= capacity[l] * (1 + 1e-9)),
                                      true,
                                      "instance " << instance << ": link " << l << " over");
            }
            for (uint32_t f = 0; f < nFlows; ++f)
            {
                bool bottleneck = false;
                for (uint32_t l : paths[f])
                {
                    bottleneck = bottleneck || (load[l] >= capacity[l] * (1 - 1e-9) &&
                                                r[f] >= top[l] * (1 - 1e-9));
                }
                NS_TEST_ASSERT_MSG_EQ(bottleneck,
                                      true,
                                      "instance " << instance << ": flow " << f
                                                  << " has no bottleneck");
            }
        }
    }
};

/**
 * IndexedHeap against an ordered set under random moves, additions and
 * removals: one entry per id, and the top is always the earliest (time,
 * then id) of the entries present.
 */
class IndexedHeapTestCase : public TestCase
{
  public:
    IndexedHeapTestCase()
        : TestCase("IndexedHeap: the earliest entry on top through moves and removals")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(11);
        IndexedHeap heap;
        std::set<std::pair<int64_t, uint32_t>> reference;
        std::vector<int64_t> at(64, -1); // per id: its time in the reference, -1 without
        for (int op = 0; op < 20000; ++op)
        {
            const uint32_t id = std::uniform_int_distribution<uint32_t>(0, 63)(rng);
            const int kind = std::uniform_int_distribution<int>(0, 3)(rng);
            if (kind == 0)
            {
                heap.Remove(id);
                reference.erase({at[id], id});
                at[id] = -1;
            }
            else if (kind == 1 && !heap.Empty())
            {
                const uint32_t top = heap.Top().id;
                heap.Pop();
                reference.erase({at[top], top});
                at[top] = -1;
            }
            else
            {
                // few distinct times, so that ties are common
                const int64_t t = std::uniform_int_distribution<int64_t>(0, 40)(rng);
                heap.Set(id, t);
                reference.erase({at[id], id});
                reference.insert({t, id});
                at[id] = t;
            }
            NS_TEST_ASSERT_MSG_EQ(heap.Size(), reference.size(), "op " << op << ": entries");
            NS_TEST_ASSERT_MSG_EQ(heap.Contains(id), (at[id] >= 0), "op " << op << ": id " << id);
            if (!reference.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(heap.Top().at,
                                      reference.begin()->first,
                                      "op " << op << ": top time");
                NS_TEST_ASSERT_MSG_EQ(heap.Top().id,
                                      reference.begin()->second,
                                      "op " << op << ": top id");
            }
        }
    }
};

/**
 * A part of the flows computed on what the others leave of the links
 * (MaxMinAllocator::SetResidual) gets the rates the whole computation
 * gives it: how FluidNetwork recomputes only the flows a change reaches.
 */
class MaxMinResidualTestCase : public TestCase
{
  public:
    MaxMinResidualTestCase()
        : TestCase("a part of the flows on what the others leave gets the same rates")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(11);
        for (int instance = 0; instance < 100; ++instance)
        {
            const uint32_t nLinks = 30;
            const uint32_t nFlows = 40;
            std::vector<double> capacity(nLinks);
            for (auto& c : capacity)
            {
                c = 1 + std::uniform_int_distribution<int>(0, 9)(rng);
            }
            std::vector<std::vector<uint32_t>> paths(nFlows);
            std::vector<uint8_t> classes(nFlows);
            for (uint32_t f = 0; f < nFlows; ++f)
            {
                const int hops = std::uniform_int_distribution<int>(1, 4)(rng);
                while (paths[f].size() < static_cast<std::size_t>(hops))
                {
                    const uint32_t l = std::uniform_int_distribution<uint32_t>(0, nLinks - 1)(rng);
                    if (std::find(paths[f].begin(), paths[f].end(), l) == paths[f].end())
                    {
                        paths[f].push_back(l);
                    }
                }
                classes[f] = instance % 2 ? 3 : static_cast<uint8_t>(2 + f % 2);
            }
            const auto all = Rates(capacity, paths, classes);
            // a random part, on what the rest takes of each link
            std::vector<uint32_t> part;
            std::vector<double> residual = capacity;
            for (uint32_t f = 0; f < nFlows; ++f)
            {
                if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
                {
                    part.push_back(f);
                    continue;
                }
                for (uint32_t l : paths[f])
                {
                    residual[l] -= all[f];
                }
            }
            MaxMinAllocator a;
            a.SetCapacities(capacity);
            std::vector<MaxMinAllocator::Demand> demands(part.size());
            for (std::size_t k = 0; k < part.size(); ++k)
            {
                demands[k].links = paths[part[k]].data();
                demands[k].hops = static_cast<uint32_t>(paths[part[k]].size());
                demands[k].cls = classes[part[k]];
                for (uint32_t l : paths[part[k]])
                {
                    a.SetResidual(l, std::max(0.0, residual[l]));
                }
            }
            a.Allocate(demands);
            for (std::size_t k = 0; k < part.size(); ++k)
            {
                NS_TEST_ASSERT_MSG_EQ_TOL(demands[k].rate,
                                          all[part[k]],
                                          1e-9 * (1 + all[part[k]]),
                                          "instance " << instance << ": flow " << part[k]);
            }
        }
    }
};

/// A fabric at flow level: topology, NICs and the FluidNetwork.
struct FluidFabric
{
    FabricTopology topo;            //!< the fabric
    std::vector<Ptr<RdmaNic>> nics; //!< NIC per host
    Ptr<FluidNetwork> fluid;        //!< the flow-level model

    /**
     * \param leaves leaf switches
     * \param spines spine switches
     * \param hostsPerLeaf hosts per leaf
     * \param shared FluidNetwork::Shared
     */
    FluidFabric(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf, bool shared = true)
    {
        FabricTopologyHelper fabric;
        fabric.SetLinkDelay(MicroSeconds(1));
        topo = fabric.BuildLeafSpine(leaves, spines, hostsPerLeaf);
        RdmaHelper rdma;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            nics.push_back(
                rdma.Install(topo.hosts.Get(h), topo.hostDevices[h], topo.hostAddresses[h]));
        }
        FluidNetworkHelper helper;
        helper.SetAttribute("Shared", BooleanValue(shared));
        fluid = helper.Install(topo, nics);
    }

    ~FluidFabric()
    {
        fluid->Dispose();
        Simulator::Destroy();
    }
};

/**
 * \brief A 4-rank ring job whose ranks alternate over the leaves (every
 * step crosses the spines), on hosts 2 apart so that jobs interleave.
 * \param f the fabric (4 hosts per leaf)
 * \param j the job's number (its first host, its name, its ports)
 * \param leaves the leaves to spread over
 * \param iterations its iterations
 * \param bytes its gradient bytes
 * \param compute its compute time per iteration
 * \return the job, not started
 */
Ptr<TrainingJob>
RingJob(FluidFabric& f,
        uint32_t j,
        uint32_t leaves,
        uint32_t iterations,
        uint64_t bytes,
        Time compute)
{
    std::vector<Ptr<RdmaNic>> nics;
    for (uint32_t r = 0; r < 4; ++r)
    {
        nics.push_back(f.nics[(r % leaves) * 4 + (r / leaves) * 2 + j]);
    }
    TrainingJobHelper helper;
    helper.SetJobAttribute("Iterations", UintegerValue(iterations));
    helper.SetJobAttribute("GradientBytes", UintegerValue(bytes));
    helper.SetJobAttribute("ComputeTime", TimeValue(compute));
    return helper.Install("j" + std::to_string(j), nics, 3, 50000 + 10 * j);
}

/// Receive completion sink: when the message arrived.
void
Arrived(Time* at, Ptr<RdmaQueuePair> /* qp */, uint64_t /* seq */, uint64_t /* bytes */)
{
    *at = Simulator::Now();
}

/// Receive completion sink: every arrival, in order.
void
ArrivedEach(std::vector<Time>* at, Ptr<RdmaQueuePair> /* qp */, uint64_t, uint64_t)
{
    at->push_back(Simulator::Now());
}

/**
 * A message alone takes its ideal time: its wire bytes at the line rate
 * plus the propagation and one packet's store-and-forward per extra hop;
 * a message from a host to itself goes up to its switch and back (as its
 * packets do at packet level, within 1 %: there its ACKs share the data's
 * links, 0.54 % of their time); two messages started together
 * on one link take twice as long, and the bytes delivered equal the bytes
 * posted (without sharing, FluidNetwork::Shared false, each takes its time
 * alone); messages posted together on one queue pair follow one another
 * at the line rate, the k-th arriving k wire times after the start.
 */
class MessageTimeTestCase : public TestCase
{
  public:
    MessageTimeTestCase()
        : TestCase("a message alone takes its ideal time; two on one link share it")
    {
    }

  private:
    /**
     * \brief One message from host 0 to \p dst alone at flow level.
     * \param dst the destination host (0: host 0 itself)
     * \param bytes its size
     * \return when it arrived, and the bytes the fluid delivered
     */
    static std::pair<Time, uint64_t> OneMessage(uint32_t dst, uint64_t bytes)
    {
        FluidFabric f(1, 0, 4);
        auto qps = RdmaNic::Connect(f.nics[0], f.nics[dst], 3, 50000);
        Time at;
        qps.second->SetReceiveCompletionCallback(MakeBoundCallback(&Arrived, &at));
        qps.first->PostSend(bytes);
        Simulator::Run();
        return {at, f.fluid->GetBytesDelivered()};
    }

    void DoRun() override
    {
        const uint64_t bytes = 1000000;
        const double packets = std::ceil(bytes / 4096.0);
        const double wireS = (bytes + packets * WIRE_OVERHEAD) * 8 / 100e9;
        // host -> leaf -> host: two 1 us links, the first packet stored and
        // forwarded once at the leaf.
        const double latencyS = 2e-6 + (4096 + WIRE_OVERHEAD) * 8 / 100e9;
        {
            const auto [at, delivered] = OneMessage(1, bytes);
            NS_TEST_EXPECT_MSG_EQ_TOL(at.GetSeconds(), wireS + latencyS, 2e-9, "alone");
            NS_TEST_EXPECT_MSG_EQ(delivered, bytes, "bytes delivered");
        }
        {
            // host 0 to itself: host -> leaf -> host, as between two hosts
            const auto [at, delivered] = OneMessage(0, bytes);
            NS_TEST_EXPECT_MSG_EQ_TOL(at.GetSeconds(), wireS + latencyS, 2e-9, "to itself");
            NS_TEST_EXPECT_MSG_EQ(delivered, bytes, "to itself, delivered");
        }
        {
            // the same at packet level
            FabricTopologyHelper fabric;
            fabric.SetLinkDelay(MicroSeconds(1));
            fluxtest::RdmaFabric f(fabric.BuildLeafSpine(1, 0, 4), RdmaHelper());
            auto qps = RdmaNic::Connect(f.nics[0], f.nics[0], 3, 50000);
            Time at;
            qps.second->SetReceiveCompletionCallback(MakeBoundCallback(&Arrived, &at));
            qps.first->PostSend(bytes);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(f.BytesReceived(), bytes, "to itself at packet level");
            NS_TEST_EXPECT_MSG_EQ_TOL(at.GetSeconds(),
                                      wireS + latencyS,
                                      0.01 * (wireS + latencyS),
                                      "to itself at packet level");
            Simulator::Destroy();
        }
        for (const bool shared : {true, false})
        {
            // hosts 0 and 1 both send to host 2: its downlink is shared
            // (or, without sharing, carries both at its full rate)
            FluidFabric f(1, 0, 4, shared);
            auto a = RdmaNic::Connect(f.nics[0], f.nics[2], 3, 50000);
            auto b = RdmaNic::Connect(f.nics[1], f.nics[2], 3, 50001);
            Time atA;
            Time atB;
            a.second->SetReceiveCompletionCallback(MakeBoundCallback(&Arrived, &atA));
            b.second->SetReceiveCompletionCallback(MakeBoundCallback(&Arrived, &atB));
            a.first->PostSend(bytes);
            b.first->PostSend(bytes);
            Simulator::Run();
            const double expected = (shared ? 2 : 1) * wireS + latencyS;
            NS_TEST_EXPECT_MSG_EQ_TOL(atA.GetSeconds(), expected, 2e-9, "a, shared " << shared);
            NS_TEST_EXPECT_MSG_EQ_TOL(atB.GetSeconds(), expected, 2e-9, "b, shared " << shared);
            NS_TEST_EXPECT_MSG_EQ(a.first->GetBytesPosted() + b.first->GetBytesPosted(),
                                  a.second->GetBytesReceived() + b.second->GetBytesReceived(),
                                  "bytes posted = bytes received");
        }
        {
            // three messages on one queue pair: the second and third wait
            // behind the first and go at the same rate, in order
            FluidFabric f(1, 0, 4);
            auto qps = RdmaNic::Connect(f.nics[0], f.nics[1], 3, 50000);
            std::vector<Time> at;
            qps.second->SetReceiveCompletionCallback(MakeBoundCallback(&ArrivedEach, &at));
            for (int k = 0; k < 3; ++k)
            {
                qps.first->PostSend(bytes);
            }
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(at.size(), 3, "three messages arrived");
            for (std::size_t k = 0; k < at.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(at[k].GetSeconds(),
                                          (k + 1) * wireS + latencyS,
                                          3e-9,
                                          "message " << k << " behind the ones before it");
            }
            NS_TEST_EXPECT_MSG_EQ(f.fluid->GetBytesDelivered(), 3 * bytes, "bytes delivered");
        }
    }
};

/**
 * Two rings on a leaf-spine at flow level, contending across the spines:
 * no rank starts step k+1 before its step-k data has arrived, every step
 * of every rank is recorded, and the same run twice gives the same times.
 */
class StepDependencyTestCase : public TestCase
{
  public:
    StepDependencyTestCase()
        : TestCase("ring steps wait for their data; the same run twice is identical")
    {
    }

  private:
    /**
     * \return every step record of both jobs, in order
     */
    std::vector<Collective::StepRecord> RunOnce()
    {
        FluidFabric f(2, 1, 4);
        std::vector<Ptr<TrainingJob>> jobs;
        for (uint32_t j = 0; j < 2; ++j)
        {
            jobs.push_back(RingJob(f, j, 2, 2, 4000000, MicroSeconds(100 + 50 * j)));
        }
        for (const auto& job : jobs)
        {
            job->Start();
        }
        Simulator::Run();
        std::vector<Collective::StepRecord> all;
        for (const auto& job : jobs)
        {
            NS_TEST_EXPECT_MSG_EQ(job->IsFinished(), true, "the job finished");
            const auto& records = job->GetCollective()->GetStepRecords();
            NS_TEST_EXPECT_MSG_EQ(records.size(), 2u * 4 * 6, "2 runs x 4 ranks x 6 steps");
            for (const auto& a : records)
            {
                for (const auto& b : records)
                {
                    if (a.run == b.run && a.rank == b.rank && b.step == a.step + 1)
                    {
                        NS_TEST_EXPECT_MSG_EQ((b.start >= a.end),
                                              true,
                                              "rank " << a.rank << " started step " << b.step
                                                      << " before step " << a.step
                                                      << "'s data arrived");
                    }
                }
                NS_TEST_EXPECT_MSG_EQ((a.end > a.start), true, "a step takes time");
            }
            all.insert(all.end(), records.begin(), records.end());
        }
        for (const auto& job : jobs)
        {
            job->Dispose();
        }
        return all;
    }

    void DoRun() override
    {
        const auto first = RunOnce();
        const auto second = RunOnce();
        NS_TEST_ASSERT_MSG_EQ(first.size(), second.size(), "same records");
        for (std::size_t i = 0; i < first.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(first[i].end, second[i].end, "record " << i << " differs");
        }
    }
};

/**
 * The rates FluidNetwork keeps by recomputing only what a change reaches
 * are the max-min fair rates of all flows computed from scratch, at every
 * instant checked: two rings and random messages between random hosts in
 * two classes on a leaf-spine whose ECMP paths collide, with class changes
 * and a spine link going down and up during the run.
 */
class IncrementalRatesTestCase : public TestCase
{
  public:
    IncrementalRatesTestCase()
        : TestCase("the incremental rates are max-min fair from scratch at every instant")
    {
    }

  private:
    // (functions rather than lambdas: ns-3 before 3.32 schedules no lambda)

    /// Post a message of some bytes.
    static void Post(Ptr<RdmaQueuePair> qp, uint64_t bytes)
    {
        qp->PostSend(bytes);
    }

    /// Move a queue pair between classes 3 and 4.
    static void SwapClass(Ptr<RdmaQueuePair> qp)
    {
        qp->SetPriority(qp->GetPriority() == 3 ? 4 : 3);
    }

    /// Compare the rates now, and again later until the run ends.
    void Check()
    {
        const double error = m_fluid->GetRateError();
        if (error >= 0)
        {
            ++m_checked;
            m_worst = std::max(m_worst, error);
        }
        Simulator::Schedule(NanoSeconds(97), &IncrementalRatesTestCase::Check, this);
    }

    void DoRun() override
    {
        FluidFabric f(3, 2, 4);
        m_fluid = f.fluid;
        std::mt19937 rng(5);
        std::vector<Ptr<TrainingJob>> jobs;
        for (uint32_t j = 0; j < 2; ++j)
        {
            jobs.push_back(RingJob(f, j, 3, 6, 600000 + 300000 * j, MicroSeconds(20 + 15 * j)));
            jobs.back()->Start();
        }
        // messages between random hosts, some in class 4 (served first)
        std::vector<Ptr<RdmaQueuePair>> senders;
        for (uint32_t q = 0; q < 16; ++q)
        {
            const uint32_t a = std::uniform_int_distribution<uint32_t>(0, 11)(rng);
            const uint32_t b = std::uniform_int_distribution<uint32_t>(0, 11)(rng);
            auto qps = RdmaNic::Connect(f.nics[a], f.nics[b], q % 3 == 0 ? 4 : 3, 51000 + q);
            senders.push_back(qps.first);
            for (uint32_t m = 0; m < 100; ++m)
            {
                const Time at = NanoSeconds(std::uniform_int_distribution<int>(0, 600000)(rng));
                const uint64_t bytes = std::uniform_int_distribution<uint64_t>(1, 60000)(rng);
                Simulator::Schedule(at, &IncrementalRatesTestCase::Post, qps.first, bytes);
            }
        }
        // classes change during the run
        for (uint32_t q = 0; q < senders.size(); q += 2)
        {
            const Time at = NanoSeconds(std::uniform_int_distribution<int>(0, 600000)(rng));
            Simulator::Schedule(at, &IncrementalRatesTestCase::SwapClass, senders[q]);
        }
        // a leaf's first uplink goes down for 30 us: what crosses it stops
        uint32_t uplink = 0;
        while (f.topo.links[uplink].name != "leaf0->spine0")
        {
            ++uplink;
        }
        Simulator::Schedule(MicroSeconds(50), &FluidNetwork::SetLinkUp, f.fluid, uplink, false);
        Simulator::Schedule(MicroSeconds(80), &FluidNetwork::SetLinkUp, f.fluid, uplink, true);
        Simulator::Schedule(NanoSeconds(1), &IncrementalRatesTestCase::Check, this);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        for (const auto& job : jobs)
        {
            NS_TEST_EXPECT_MSG_EQ(job->IsFinished(), true, "the job finished");
            job->Dispose();
        }
        NS_TEST_EXPECT_MSG_GT(f.fluid->GetRateUpdates(), 500u, "the rates were recomputed");
        NS_TEST_EXPECT_MSG_GT(m_checked, 2000u, "instants checked");
        NS_TEST_EXPECT_MSG_LT(m_worst, 1e-9, "largest difference from max-min from scratch");
        m_fluid = nullptr;
    }

    Ptr<FluidNetwork> m_fluid; //!< the network under test
    uint64_t m_checked{0};     //!< instants compared
    double m_worst{0};         //!< largest difference found
};

/**
 * The flow-level suite.
 */
class FluxFlowTestSuite : public TestSuite
{
  public:
    FluxFlowTestSuite()
        : TestSuite("flux-flow", TestSuite::Type::UNIT)
    {
        AddTestCase(new MaxMinTextbookTestCase);
        AddTestCase(new StrictPriorityTestCase);
        AddTestCase(new MaxMinPropertyTestCase);
        AddTestCase(new MaxMinResidualTestCase);
        AddTestCase(new IndexedHeapTestCase);
        AddTestCase(new MessageTimeTestCase);
        AddTestCase(new StepDependencyTestCase);
        AddTestCase(new IncrementalRatesTestCase);
    }
};

} // namespace

static FluxFlowTestSuite g_fluxFlowTestSuite; //!< the suite
