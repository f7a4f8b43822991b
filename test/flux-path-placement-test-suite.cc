/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * PathPlacement, the search behind the path-aware policies' choice of
 * source ports, on hand-built leaf-spine fabrics.
 */

#include "ns3/path-placement.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Link directions of a leaf-spine with as many hosts per leaf as spines.
struct LeafSpine
{
    uint32_t leaves;   //!< leaf count
    uint32_t spines;   //!< spine count (and hosts per leaf)
    double bps{100e9}; //!< every link's rate

    /** \return the number of hosts */
    uint32_t Hosts() const
    {
        return leaves * spines;
    }

    /** \return the number of link directions */
    uint32_t Links() const
    {
        return 2 * Hosts() + 2 * leaves * spines;
    }

    /**
     * \param a a source host
     * \param b a destination host
     * \return the up-down paths from a to b (one per spine across leaves)
     */
    std::vector<std::vector<uint32_t>> Paths(uint32_t a, uint32_t b) const
    {
        const uint32_t n = Hosts();
        const uint32_t la = a / spines;
        const uint32_t lb = b / spines;
        if (la == lb)
        {
            return {{a, n + b}};
        }
        std::vector<std::vector<uint32_t>> paths;
        for (uint32_t s = 0; s < spines; ++s)
        {
            paths.push_back(
                {a, 2 * n + la * spines + s, 2 * n + leaves * spines + lb * spines + s, n + b});
        }
        return paths;
    }
};

/// Link directions of a k-ary fat-tree (k pods of k/2 edge and k/2
/// aggregation switches, (k/2)^2 cores, k/2 hosts per edge switch).
class FatTree
{
  public:
    /// \param k the switches' port count
    explicit FatTree(uint32_t k)
        : m_k(k)
    {
    }

    /** \return the number of hosts */
    uint32_t Hosts() const
    {
        return m_k * m_k * m_k / 4;
    }

    /** \return the number of link directions (host, edge-aggregation, aggregation-core) */
    uint32_t Links() const
    {
        return 3 * m_k * m_k * m_k / 2;
    }

    /**
     * \param a a source host
     * \param b a destination host
     * \return the up-down paths from a to b
     */
    std::vector<std::vector<uint32_t>> Paths(uint32_t a, uint32_t b)
    {
        const uint32_t h = m_k / 2;
        const uint32_t ea = a / h; // edge switches, numbered across pods
        const uint32_t eb = b / h;
        const uint32_t pa = ea / h; // pods
        const uint32_t pb = eb / h;
        const std::string ha = "h" + std::to_string(a);
        const std::string hb = "h" + std::to_string(b);
        const std::string sa = "e" + std::to_string(ea);
        const std::string sb = "e" + std::to_string(eb);
        if (ea == eb)
        {
            return {{Link(ha, sa), Link(sa, hb)}};
        }
        std::vector<std::vector<uint32_t>> paths;
        for (uint32_t i = 0; i < h; ++i)
        {
            const std::string ga = "a" + std::to_string(pa * h + i);
            const std::string gb = "a" + std::to_string(pb * h + i);
            if (pa == pb)
            {
                paths.push_back({Link(ha, sa), Link(sa, ga), Link(ga, sb), Link(sb, hb)});
                continue;
            }
            for (uint32_t j = 0; j < h; ++j)
            {
                const std::string c = "c" + std::to_string(i * h + j);
                paths.push_back({Link(ha, sa),
                                 Link(sa, ga),
                                 Link(ga, c),
                                 Link(c, gb),
                                 Link(gb, sb),
                                 Link(sb, hb)});
            }
        }
        return paths;
    }

  private:
    /**
     * \param from a node's name
     * \param to another node's name
     * \return the id of the link direction from -> to
     */
    uint32_t Link(const std::string& from, const std::string& to)
    {
        return m_links.emplace(from + ">" + to, static_cast<uint32_t>(m_links.size()))
            .first->second;
    }

    uint32_t m_k;                            //!< port count
    std::map<std::string, uint32_t> m_links; //!< link direction ids by name
};

/**
 * \ingroup flux-tests
 * Every permutation of the hosts of a leaf-spine with as many spines as
 * hosts per leaf has paths that load no link above its capacity (König:
 * the leaf-to-leaf multigraph of degree at most S is S-edge-colourable, a
 * spine per colour), and so does every permutation on a k = 4 fat-tree
 * (rearrangeably non-blocking); the placement finds such paths for 200
 * random permutations on each, with the sends of three jobs interleaved,
 * and places the same way twice.
 */
class PermutationTestCase : public TestCase
{
  public:
    PermutationTestCase()
        : TestCase("every permutation on a leaf-spine is placed without an overloaded link")
    {
    }

  private:
    void DoRun() override
    {
        const LeafSpine leafSpine{8, 4};
        FatTree fatTree(4);
        std::mt19937 rng(7);
        for (int trial = 0; trial < 400; ++trial)
        {
            const bool fat = trial % 2 == 1;
            const uint32_t hosts = fat ? fatTree.Hosts() : leafSpine.Hosts();
            std::vector<uint32_t> to(hosts);
            std::iota(to.begin(), to.end(), 0);
            std::shuffle(to.begin(), to.end(), rng);
            std::vector<std::vector<std::vector<uint32_t>>> paths;
            for (uint32_t h = 0; h < hosts; ++h)
            {
                paths.push_back(fat ? fatTree.Paths(h, to[h]) : leafSpine.Paths(h, to[h]));
            }
            const uint32_t links = fat ? fatTree.Links() : leafSpine.Links();
            std::vector<std::size_t> first;
            for (int again = 0; again < 2; ++again)
            {
                PathPlacement placement(std::vector<double>(links, 100e9), 3);
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    placement.AddSend(h % 3, 100e9, paths[h]);
                }
                placement.Place();
                NS_TEST_ASSERT_MSG_EQ_TOL(placement.GetOverload(),
                                          0,
                                          1e-9,
                                          "permutation " << trial << " has an overloaded link");
                std::vector<std::size_t> chosen;
                for (uint32_t h = 0; h < hosts; ++h)
                {
                    chosen.push_back(placement.GetChosen(h));
                }
                if (again == 0)
                {
                    first = chosen;
                }
                NS_TEST_ASSERT_MSG_EQ((chosen == first), true, "the placement is deterministic");
            }
        }
    }
};

/**
 * \ingroup flux-tests
 * A placement that cannot be found ends its search within its budget: on a
 * k = 4 fat-tree, sixteen light sends with four paths each come before one
 * whose only destination link is already full, so that every combination of
 * the others' paths fails at the last; the search gives up after 200 000
 * paths, where the combinations number 4^16, and places as well as it can.
 */
class SearchBudgetTestCase : public TestCase
{
  public:
    SearchBudgetTestCase()
        : TestCase("a search for a placement within capacity ends within its budget")
    {
    }

  private:
    void DoRun() override
    {
        FatTree fabric(4);
        std::vector<std::vector<std::vector<uint32_t>>> paths;
        for (uint32_t i = 0; i < 16; ++i)
        {
            paths.push_back(fabric.Paths(i % 4, 4 + i % 11)); // pod 0 to hosts 4..14
        }
        paths.push_back(fabric.Paths(0, 15));
        const uint32_t full = paths.back().front().back(); // the link into host 15
        PathPlacement placement(std::vector<double>(fabric.Links(), 100e9), 2);
        placement.AddFixedLoad(full, 1.0);
        for (uint32_t s = 0; s < 16; ++s)
        {
            placement.AddSend(0, 1e9, paths[s]);
        }
        placement.AddSend(1, 50e9, paths.back());
        placement.Place();
        NS_TEST_ASSERT_MSG_GT(placement.GetSearchNodes(), 0, "the search ran");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(placement.GetSearchNodes(),
                                    200000,
                                    "the search stopped at its budget");
        NS_TEST_ASSERT_MSG_EQ_TOL(placement.GetOverload(),
                                  0.5,
                                  1e-9,
                                  "only the full link is over capacity, by the last send");
    }
};

/**
 * \ingroup flux-tests
 * Load that stays (a job not placed) counts: with spine 0's uplink from
 * leaf 0 full, a send from leaf 0 takes spine 1. Two jobs whose sends can
 * avoid each other share no link direction, and a send with one path keeps it.
 */
class FixedLoadAndPairsTestCase : public TestCase
{
  public:
    FixedLoadAndPairsTestCase()
        : TestCase("fixed load is avoided and jobs that can avoid each other share nothing")
    {
    }

  private:
    void DoRun() override
    {
        const LeafSpine fabric{3, 2};
        const uint32_t n = fabric.Hosts();
        {
            PathPlacement placement(std::vector<double>(fabric.Links(), fabric.bps), 1);
            placement.AddFixedLoad(2 * n + 0, 1.0); // leaf 0 -> spine 0 is full
            placement.AddSend(0, fabric.bps, fabric.Paths(0, 2));
            placement.Place();
            NS_TEST_ASSERT_MSG_EQ(placement.GetChosen(0), 1, "the send avoids the full uplink");
            NS_TEST_ASSERT_MSG_EQ_TOL(placement.GetOverload(), 0, 1e-9, "nothing overloaded");
        }
        {
            // two half-rate sends of two jobs from leaf 0 to leaf 1: they fit
            // on one spine, but need not share it
            PathPlacement placement(std::vector<double>(fabric.Links(), fabric.bps), 2);
            placement.AddSend(0, fabric.bps / 2, fabric.Paths(0, 2));
            placement.AddSend(1, fabric.bps / 2, fabric.Paths(1, 3));
            placement.AddSend(1, fabric.bps, fabric.Paths(4, 5)); // one path: same leaf
            placement.Place();
            NS_TEST_ASSERT_MSG_EQ(placement.GetSharingPairs(), 0, "the jobs share no link");
            NS_TEST_ASSERT_MSG_NE(placement.GetChosen(0),
                                  placement.GetChosen(1),
                                  "the sends take different spines");
            NS_TEST_ASSERT_MSG_EQ(placement.GetChosen(2), 0, "a single path is kept");
        }
    }
};

/**
 * \ingroup flux-tests
 * The PathPlacement test suite.
 */
class FluxPathPlacementTestSuite : public TestSuite
{
  public:
    FluxPathPlacementTestSuite()
        : TestSuite("flux-path-placement", TestSuite::Type::UNIT)
    {
        AddTestCase(new PermutationTestCase);
        AddTestCase(new FixedLoadAndPairsTestCase);
        AddTestCase(new SearchBudgetTestCase);
    }
};

static FluxPathPlacementTestSuite
    g_fluxPathPlacementTestSuite; //!< Static variable for test initialization

} // namespace
