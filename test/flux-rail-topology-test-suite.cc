/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The rail-optimised leaf-spine: hosts numbered by server, NIC i of every
 * server of a rail group on that group's leaf i, switch and link counts as
 * the formulas give, same-rail traffic of a rail group through its rail's
 * leaf alone, every other pair through a spine, the MPI groups, and clear
 * errors for impossible shapes.
 */

#include "ns3/core-module.h"
#include "ns3/fabric-topology-helper.h"

#include <set>
#include <string>

using namespace ns3;

namespace
{

/// Rail groups, servers per rail group, rails (NICs per server), spines.
constexpr uint32_t GROUPS = 2;
constexpr uint32_t SERVERS = 3;
constexpr uint32_t RAILS = 4;
constexpr uint32_t SPINES = 2;

/// \return the rail group of host h
uint32_t
GroupOf(uint32_t h)
{
    return h / RAILS / SERVERS;
}

} // namespace

/**
 * \ingroup flux-tests
 * Structure: H = groups x servers x rails hosts, groups x rails leaves of
 * servers hosts each plus the spines, hosts + leaves x spines cables (two
 * link directions each); host h sits on leaf rg<h / rails / servers>-rail<h %
 * rails>, every leaf is joined to every spine, and the leaves are tier 0,
 * the spines tier 1.
 */
class RailStructureTestCase : public TestCase
{
  public:
    RailStructureTestCase()
        : TestCase("rail-optimized: hosts per leaf, switch, link and port counts, numbering")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology t = helper.BuildRailOptimized(GROUPS, SERVERS, RAILS, SPINES);
        const uint32_t hosts = GROUPS * SERVERS * RAILS;
        const uint32_t leaves = GROUPS * RAILS;
        NS_TEST_ASSERT_MSG_EQ(t.kind, "rail-optimized", "kind");
        NS_TEST_ASSERT_MSG_EQ(t.GetNHosts(), hosts, "groups x servers x rails hosts");
        NS_TEST_ASSERT_MSG_EQ(t.switches.size(), leaves + SPINES, "leaves and spines");
        NS_TEST_ASSERT_MSG_EQ(t.links.size(),
                              2 * (hosts + leaves * SPINES),
                              "both directions of every host cable and leaf-spine cable");
        std::vector<uint32_t> perLeaf(t.switches.size(), 0);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            const std::string leaf =
                "rg" + std::to_string(GroupOf(h)) + "-rail" + std::to_string(h % RAILS);
            NS_TEST_ASSERT_MSG_EQ(t.switches[t.hostSwitch[h]].name,
                                  leaf,
                                  "host " << h << " (server " << h / RAILS << ", NIC " << h % RAILS
                                          << ") sits on its rail's leaf");
            ++perLeaf[t.hostSwitch[h]];
        }
        for (uint32_t s = 0; s < t.switches.size(); ++s)
        {
            const bool leaf = s < leaves;
            NS_TEST_ASSERT_MSG_EQ(t.switches[s].tier, (leaf ? 0u : 1u), t.switches[s].name);
            NS_TEST_ASSERT_MSG_EQ(perLeaf[s],
                                  (leaf ? SERVERS : 0),
                                  "hosts of " << t.switches[s].name);
            NS_TEST_ASSERT_MSG_EQ(t.switches[s].sw->GetNPorts(),
                                  (leaf ? SERVERS + SPINES : leaves),
                                  "ports of " << t.switches[s].name);
        }
        for (uint32_t l = 0; l < leaves; ++l)
        {
            for (uint32_t s = 0; s < SPINES; ++s)
            {
                const std::string name = t.switches[l].name + "->spine" + std::to_string(s);
                NS_TEST_ASSERT_MSG_NE(t.FindLink(name), -1, name);
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * Paths: NIC i of two servers of one rail group talk through their rail's
 * leaf alone (two link directions: up to the leaf, down to the host);
 * NICs i and j != i of two servers, and NICs of two rail groups, cross a
 * spine (four link directions: up, up to the spine, down, down). Every
 * host reaches every other host, whatever the flow's source port.
 */
class RailPathsTestCase : public TestCase
{
  public:
    RailPathsTestCase()
        : TestCase("rail-optimized: same rail of a rail group crosses one leaf, others a spine")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        FabricTopology t = helper.BuildRailOptimized(GROUPS, SERVERS, RAILS, SPINES);
        const uint32_t hosts = t.GetNHosts();
        auto spineOf = [&t](uint32_t link) {
            const std::string& name = t.links[link].name;
            return name.find("spine") != std::string::npos;
        };
        for (uint32_t a = 0; a < hosts; ++a)
        {
            for (uint32_t b = 0; b < hosts; ++b)
            {
                if (a / RAILS == b / RAILS)
                {
                    continue; // one server: its GPUs talk over the intra-server link
                }
                for (uint16_t port : {49152, 50000, 60001})
                {
                    const std::vector<uint32_t> path = t.GetPath(a, b, port);
                    const bool sameRail = GroupOf(a) == GroupOf(b) && a % RAILS == b % RAILS;
                    NS_TEST_ASSERT_MSG_EQ(path.size(),
                                          (sameRail ? 2 : 4),
                                          "hosts " << a << " -> " << b << " reach each other");
                    const std::string leaf =
                        "rg" + std::to_string(GroupOf(a)) + "-rail" + std::to_string(a % RAILS);
                    NS_TEST_ASSERT_MSG_EQ(t.links[path.front()].name,
                                          "host" + std::to_string(a) + "->" + leaf,
                                          "up to the source's rail leaf");
                    NS_TEST_ASSERT_MSG_EQ(
                        t.links[path.back()].name.substr(t.links[path.back()].name.find("->")),
                        "->host" + std::to_string(b),
                        "down to the destination");
                    uint32_t spineLinks = 0;
                    for (uint32_t l : path)
                    {
                        spineLinks += spineOf(l) ? 1 : 0;
                    }
                    NS_TEST_ASSERT_MSG_EQ(spineLinks,
                                          (sameRail ? 0 : 2),
                                          "hosts " << a << " -> " << b
                                                   << (sameRail ? ": no spine" : ": a spine"));
                }
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * MPI groups: a rail group (its leaves and their hosts) is one group, so
 * all NICs of a server are in one process; the spines spread over the groups.
 */
class RailGroupsTestCase : public TestCase
{
  public:
    RailGroupsTestCase()
        : TestCase("rail-optimized: a rail group, with its servers, is one MPI group")
    {
    }

  private:
    void DoRun() override
    {
        const FabricTopologyHelper::Spec spec =
            FabricTopologyHelper::MakeRailOptimized(GROUPS, SERVERS, RAILS, SPINES);
        NS_TEST_ASSERT_MSG_EQ(spec.nGroups, GROUPS, "one group per rail group");
        NS_TEST_ASSERT_MSG_EQ(spec.groupName, "rail groups", "named");
        for (uint32_t h = 0; h < spec.nHosts; ++h)
        {
            NS_TEST_ASSERT_MSG_EQ(spec.switchGroup[spec.hostSwitch[h]],
                                  GroupOf(h),
                                  "host " << h << " is in its rail group");
        }
        std::set<uint32_t> spineGroups;
        for (uint32_t s = GROUPS * RAILS; s < spec.switches.size(); ++s)
        {
            spineGroups.insert(spec.switchGroup[s]);
        }
        NS_TEST_ASSERT_MSG_EQ(spineGroups.size(), std::min(GROUPS, SPINES), "spines spread");
        FabricTopologyHelper helper;
        helper.SetRanks(GROUPS + 1);
        bool refused = false;
        try
        {
            helper.BuildRailOptimized(GROUPS, SERVERS, RAILS, SPINES);
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("rail groups") != std::string::npos;
        }
        NS_TEST_ASSERT_MSG_EQ(refused, true, "more processes than rail groups are refused");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * Shapes that cannot be built are refused with a message naming the
 * parameter; a single leaf needs no spine.
 */
class RailErrorsTestCase : public TestCase
{
  public:
    RailErrorsTestCase()
        : TestCase("rail-optimized: impossible shapes are refused with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        FabricTopologyHelper helper;
        auto has = [&helper](uint32_t g, uint32_t s, uint32_t r, uint32_t sp, const char* text) {
            return helper.CheckRailOptimized(g, s, r, sp).find(text) != std::string::npos;
        };
        NS_TEST_ASSERT_MSG_EQ(has(0, 2, 2, 1, "rail groups"), true, "no rail group");
        NS_TEST_ASSERT_MSG_EQ(has(1, 0, 2, 1, "servers per rail group"), true, "no server");
        NS_TEST_ASSERT_MSG_EQ(has(1, 2, 0, 1, "rails"), true, "no rail");
        NS_TEST_ASSERT_MSG_EQ(has(1, 2, 2, 0, "spines must be at least 1"), true, "2 leaves");
        NS_TEST_ASSERT_MSG_EQ(has(64, 65535, 8, 1, "exceed"), true, "too many hosts");
        NS_TEST_ASSERT_MSG_EQ(helper.CheckRailOptimized(1, 3, 1, 0), "", "one leaf, no spine");
        FabricTopology single = helper.BuildRailOptimized(1, 3, 1, 0);
        NS_TEST_ASSERT_MSG_EQ(single.switches.size(), 1, "a single switch");
        NS_TEST_ASSERT_MSG_EQ(single.GetPath(0, 2, 49152).size(), 2, "through it");
        Simulator::Destroy();
    }
};

/**
 * \ingroup flux-tests
 * The rail-optimised topology test suite.
 */
class FluxRailTopologyTestSuite : public TestSuite
{
  public:
    FluxRailTopologyTestSuite()
        : TestSuite("flux-rail-topology")
    {
        AddTestCase(new RailStructureTestCase);
        AddTestCase(new RailPathsTestCase);
        AddTestCase(new RailGroupsTestCase);
        AddTestCase(new RailErrorsTestCase);
    }
};

static FluxRailTopologyTestSuite
    g_fluxRailTopologyTestSuite; //!< Static variable for test initialization
