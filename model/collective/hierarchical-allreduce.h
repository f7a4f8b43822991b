/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HIERARCHICAL_ALLREDUCE_H
#define HIERARCHICAL_ALLREDUCE_H

#include "scheduled-collective.h"

#include <string>

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Hierarchical (2-D) all-reduce: reduce-scatter inside each server,
 * all-reduce across servers among the ranks of the same local index, then
 * all-gather inside each server.
 *
 * The servers come from Collective::SetServers(); each must have the same
 * number G of ranks (a rank's local index is its position among its
 * server's ranks, in rank order), and there are M servers. S is each rank's
 * buffer. The intra-server reduce-scatter leaves each rank with S/G bytes,
 * which the M ranks of its local index all-reduce over the fabric, and the
 * intra-server all-gather spreads the result. Each dimension runs a ring
 * or halving-doubling (IntraAlgorithm, InterAlgorithm; halving-doubling
 * needs a power of two in its dimension). Steps: a + b + a, with a = G-1
 * (ring) or log2 G, b = 2(M-1) (ring) or 2 log2 M. Bytes per rank:
 * 2(G-1)/G S over the GPU interconnect plus 2(M-1)/M S/G over the NIC.
 */
class HierarchicalAllreduce : public ScheduledCollective
{
  public:
    /// An algorithm of one dimension.
    enum Algorithm
    {
        RING,            //!< ring
        HALVING_DOUBLING //!< recursive halving then doubling
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    HierarchicalAllreduce();
    ~HierarchicalAllreduce() override;

    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;
    std::string GetRanksProblem(uint32_t nRanks) const override;

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    void GetSends(uint32_t n,
                  uint32_t rank,
                  uint32_t step,
                  uint64_t bytes,
                  std::vector<Send>& sends) const override;
    uint32_t GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const override;

  private:
    /// The ranks arranged by server.
    struct Grid
    {
        uint32_t g{1};                //!< ranks per server
        uint32_t m{1};                //!< servers
        std::vector<uint32_t> server; //!< per rank: its server's index (0 .. m-1)
        std::vector<uint32_t> local;  //!< per rank: its local index (0 .. g-1)
        std::vector<uint32_t> rankAt; //!< rank of (server, local): rankAt[s * g + l]
        std::string error;            //!< why the ranks do not form a grid (empty: they do)
    };

    /**
     * \param n ranks
     * \return the grid of the ranks (cached)
     */
    const Grid& GetGrid(uint32_t n) const;

    /**
     * \param algorithm an algorithm
     * \param size the dimension's ranks
     * \return steps of its reduce-scatter (or all-gather)
     */
    static uint32_t HalfSteps(Algorithm algorithm, uint32_t size);

    /**
     * \param name an algorithm's name
     * \param attribute the attribute that gave it (for the message)
     * \return the algorithm
     */
    static Algorithm ToAlgorithm(const std::string& name, const char* attribute);

    /** \return the intra-server algorithm (IntraAlgorithm) */
    Algorithm Intra() const;

    /** \return the inter-server algorithm (InterAlgorithm) */
    Algorithm Inter() const;

    std::string m_intraName; //!< the intra-server algorithm ("ring", "halving-doubling")
    std::string m_interName; //!< the inter-server algorithm
    mutable Grid m_grid;     //!< the grid, for m_gridServers
    mutable std::vector<uint32_t> m_gridServers; //!< server of each rank m_grid was made for
};

} // namespace ns3

#endif /* HIERARCHICAL_ALLREDUCE_H */
