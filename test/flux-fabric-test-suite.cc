/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RoCEv2 NICs on a switched fabric: lossless incast under PFC, loss and
 * recovery without it, DCQCN fairness and line rate.
 */

#include "rdma-fabric.h"

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/incast-traffic.h"
#include "ns3/network-module.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-nic.h"

using namespace ns3;

namespace
{

using fluxtest::RdmaFabric;

/// Counts finished flows.
struct FlowCounter
{
    uint64_t flows = 0; //!< finished flows
    uint64_t bytes = 0; //!< their bytes

    /// \param rec a finished flow
    void Add(const FlowTraffic::FlowRecord& rec)
    {
        ++flows;
        bytes += rec.bytes;
    }
};

/**
 * 16 senders write 1 MB each to one receiver under one switch. With PFC the
 * fabric is lossless: zero drops, pauses raised, every byte delivered.
 * Without PFC the buffer overflows, yet go-back-N delivers every byte.
 */
class IncastTestCase : public TestCase
{
  public:
    /// \param pfc whether PFC is on
    explicit IncastTestCase(bool pfc)
        : TestCase(pfc ? "16-to-1 incast with PFC: zero drops, pauses, every byte delivered"
                       : "16-to-1 incast without PFC: drops, and go-back-N delivers every byte"),
          m_pfc(pfc)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        FabricTopologyHelper topo;
        topo.SetPfc(m_pfc);
        // A small buffer makes the incast overflow it; as in RoCE deployments,
        // only the data and control classes are lossless.
        topo.SetBufferSize(3000000);
        topo.SetLosslessPriorities((1 << 3) | (1 << 7));
        RdmaHelper rdma;
        rdma.SetCongestionControl("dcqcn");
        rdma.SetNicAttribute("RetransmitTimeout", TimeValue(MicroSeconds(200)));
        RdmaFabric net(topo.BuildLeafSpine(1, 0, 17), rdma);

        Ptr<IncastTraffic> incast = CreateObject<IncastTraffic>();
        std::vector<uint32_t> senders;
        for (uint32_t h = 1; h <= 16; ++h)
        {
            senders.push_back(h);
        }
        const uint64_t bytes = 1000000;
        incast->Configure(senders, 0, bytes);
        incast->Setup("incast", net.nics);
        incast->AssignStreams(7);
        FlowCounter done;
        incast->SetFlowCallback(MakeCallback(&FlowCounter::Add, &done));
        incast->Start();
        Simulator::Stop(MilliSeconds(100));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(done.flows, 16, "every flow completes");
        NS_TEST_ASSERT_MSG_EQ(done.bytes, 16 * bytes, "every byte is delivered");
        NS_TEST_ASSERT_MSG_EQ(net.BytesReceived(),
                              16 * bytes,
                              "NICs received exactly the bytes sent");
        if (m_pfc)
        {
            NS_TEST_ASSERT_MSG_EQ(net.topo.GetSwitchStats().GetNDroppedPackets(),
                                  0,
                                  "lossless: zero drops");
            NS_TEST_ASSERT_MSG_GT(net.topo.GetSwitchStats().nPfcPauses,
                                  0,
                                  "PFC paused the senders");
            NS_TEST_ASSERT_MSG_EQ(net.Retransmissions(), 0, "nothing to retransmit");
        }
        else
        {
            NS_TEST_ASSERT_MSG_GT(net.topo.GetSwitchStats().GetNDroppedPackets(),
                                  0,
                                  "lossy: the buffer overflows");
            NS_TEST_ASSERT_MSG_EQ(net.topo.GetSwitchStats().nPfcPauses, 0, "no PFC");
            NS_TEST_ASSERT_MSG_GT(net.Retransmissions(), 0, "go-back-N recovered the losses");
        }
        NS_TEST_ASSERT_MSG_GT(net.topo.GetSwitchStats().nEcnMarks,
                              0,
                              "the congested queue marks ECN");
        Simulator::Destroy();
    }

    bool m_pfc; //!< PFC on
};

/**
 * Measures the rate of long flows through one bottleneck link with DCQCN.
 */
class DcqcnFairnessTestCase : public TestCase
{
  public:
    /// \param flows number of flows sharing the bottleneck (1 or 2)
    explicit DcqcnFairnessTestCase(uint32_t flows)
        : TestCase(flows == 1 ? "DCQCN: a single flow keeps line rate"
                              : "DCQCN: two flows converge to within 10 % of the fair share, "
                                "with ECN marks and CNPs"),
          m_flows(flows)
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(1);
        FabricTopologyHelper topo;
        // The DCQCN paper's marking (Kmin 5 KB, Kmax 200 KB, Pmax 1 %): with
        // the deeper production thresholds DCQCN converges over far longer.
        topo.SetEcn(5000, 200000, 0.01);
        RdmaHelper rdma;
        rdma.SetCongestionControl("dcqcn");
        // hosts 0, 1 send to host 2, all under one switch
        RdmaFabric net(topo.BuildLeafSpine(1, 0, 3), rdma);
        std::vector<Ptr<RdmaQueuePair>> tx;
        for (uint32_t f = 0; f < m_flows; ++f)
        {
            auto qps = RdmaHelper::Connect(net.nics[f], net.nics[2], 3, 5000 + f);
            qps.first->PostSend(2000000000); // longer than the run
            tx.push_back(qps.second);
        }
        // Measure over the second half of the run, after convergence.
        const Time warmup = MilliSeconds(10);
        const Time end = MilliSeconds(40);
        std::vector<uint64_t> atWarmup(m_flows);
        Simulator::Schedule(warmup, &DcqcnFairnessTestCase::Snapshot, &tx, &atWarmup);
        Simulator::Stop(end);
        Simulator::Run();

        const double share = 4096.0 / (4096 + 86); // goodput share at a 4 KB MTU
        const double capacity = 100e9 * share / 8 * (end - warmup).GetSeconds();
        uint64_t total = 0;
        for (uint32_t f = 0; f < m_flows; ++f)
        {
            const double got = tx[f]->GetBytesReceived() - atWarmup[f];
            total += got;
            NS_TEST_ASSERT_MSG_EQ_TOL(got / capacity,
                                      1.0 / m_flows,
                                      0.1 / m_flows,
                                      "flow " << f << " gets its fair share");
        }
        NS_TEST_ASSERT_MSG_GT(total / capacity, 0.95, "the bottleneck stays busy");
        uint64_t cnps = 0;
        for (const auto& nic : net.nics)
        {
            cnps += nic->GetCnpsSent();
        }
        if (m_flows > 1)
        {
            NS_TEST_ASSERT_MSG_GT(net.topo.GetSwitchStats().nEcnMarks,
                                  0,
                                  "the bottleneck marks ECN");
            NS_TEST_ASSERT_MSG_GT(cnps, 0, "receivers send CNPs");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ(cnps, 0, "a lone flow is never marked");
        }
        Simulator::Destroy();
    }

    /**
     * Records the bytes each flow has received so far.
     * \param tx the flows' receiving queue pairs
     * \param bytes where to record, one entry per flow
     */
    static void Snapshot(const std::vector<Ptr<RdmaQueuePair>>* tx, std::vector<uint64_t>* bytes)
    {
        for (size_t f = 0; f < tx->size(); ++f)
        {
            (*bytes)[f] = (*tx)[f]->GetBytesReceived();
        }
    }

    uint32_t m_flows; //!< flows
};

} // namespace

/**
 * \ingroup flux
 * \brief RoCEv2 NICs on switched fabrics.
 */
class FluxFabricTestSuite : public TestSuite
{
  public:
    FluxFabricTestSuite()
        : TestSuite("flux-fabric", TestSuite::Type::SYSTEM)
    {
        AddTestCase(new IncastTestCase(true));
        AddTestCase(new IncastTestCase(false));
        AddTestCase(new DcqcnFairnessTestCase(1));
        AddTestCase(new DcqcnFairnessTestCase(2));
    }
};

static FluxFabricTestSuite g_fluxFabricTestSuite; //!< the suite
