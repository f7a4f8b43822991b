/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_PATH_PLACEMENT_H
#define FLUX_PATH_PLACEMENT_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scheduler
 * \brief The search behind JobScheduler::PlacePaths(): one path for each
 * send (a connection of a job's collective) among its candidate paths.
 *
 * A send's load on a link direction is its rate over the link's rate. The
 * search lowers, in this order: the load above capacity summed over the
 * link directions, the number of job pairs that share a link direction
 * (pairs that share none may send at once whatever a policy orders), and
 * the sum of squared loads. It places the sends greedily in the order they
 * were added, then repeats until nothing improves: moves of one send to its
 * best path, and ejection chains (a send on an overloaded link moves, and
 * the sends its new path overloads move to their best), which find the
 * swaps that single moves cannot. Where a link stays overloaded, a bounded
 * depth-first search looks for paths within every link's capacity; failing
 * that, it kicks the
 * sends on overloaded links onto other paths and searches again, keeping
 * the best placement found (a ring over a fat-tree is a permutation, which
 * has paths without a shared link). The kicks draw from a fixed-seed
 * generator, so a placement is the same on every run; the work is bounded
 * for large fabrics.
 */
class PathPlacement
{
  public:
    /**
     * \param linkBps the rate of every link direction, bit/s (index: link id)
     * \param nJobs the number of jobs (job ids are below it)
     */
    PathPlacement(std::vector<double> linkBps, uint32_t nJobs);

    /**
     * \brief Add load that stays where it is (a job not placed).
     * \param link the link direction
     * \param load its share of the link's rate
     */
    void AddFixedLoad(uint32_t link, double load);

    /**
     * \brief Add a send to place.
     * \param job its job
     * \param bps its rate, bit/s
     * \param paths its candidate paths (link directions); the first is kept on ties
     * \return its index
     */
    uint32_t AddSend(uint32_t job, double bps, std::vector<std::vector<uint32_t>> paths);

    /// Search the placement.
    void Place();

    /**
     * \param send a send's index
     * \return the index of its chosen path among its candidates
     */
    std::size_t GetChosen(uint32_t send) const;

    /** \return the load above capacity summed over the link directions */
    double GetOverload() const;

    /** \return the job pairs that share a link direction */
    uint64_t GetSharingPairs() const;

    /**
     * \return the paths the last search for a placement within capacity
     *         tried (at most 200 000: the search gives up there)
     */
    uint64_t GetSearchNodes() const;

  private:
    /// A send to place.
    struct Send
    {
        uint32_t job;                             //!< its job
        double bps;                               //!< its rate, bit/s
        std::vector<std::vector<uint32_t>> paths; //!< candidate paths
        std::size_t chosen{0};                    //!< index in paths
    };

    /// What the search lowers, in order.
    struct Totals
    {
        double overload{0}; //!< load above capacity, summed over link directions
        int64_t pairs{0};   //!< job pairs sharing a link direction
        double squares{0};  //!< sum of squared loads

        /**
         * \param o other totals
         * \return true when these are clearly better
         */
        bool Below(const Totals& o) const;
    };

    /// A path's cost for a send, against the others (Choose()).
    struct Cost
    {
        double worst;       //!< its most loaded link after it
        uint32_t strangers; //!< jobs it would newly share a link with
        double squares;     //!< sum of its links' squared loads after it
    };

    /**
     * \brief Add or remove a send on its chosen path.
     * \param s the send's index
     * \param sign +1 to add, -1 to remove
     */
    void Apply(uint32_t s, int sign);
    /**
     * \param s a send's index (removed from its path)
     * \param p a candidate path's index
     * \return the cost of that path
     */
    Cost PathCost(uint32_t s, std::size_t p);
    /**
     * \brief Give a removed send its best path.
     * \param s the send's index
     */
    void Choose(uint32_t s);
    /**
     * \brief Move a send to another path.
     * \param s the send's index
     * \param p its new path's index
     */
    void Move(uint32_t s, std::size_t p);
    /**
     * \brief Change the count of sends of job a on links job b uses.
     * \param a a job
     * \param b another job
     * \param delta the change
     */
    void Partner(uint32_t a, uint32_t b, int32_t delta);
    /// Single moves and ejection chains until neither improves.
    void Improve();
    /** \return true when some send improved by an ejection chain */
    bool EjectionChains();
    /**
     * \brief Search, depth first and bounded, for paths that load no link
     * direction above its capacity; take them when found.
     * \return true when found
     */
    bool FitAll();
    /** \return the next number of the fixed-seed generator */
    uint32_t Random();

    std::vector<double> m_linkBps;                                   //!< rate per link direction
    uint32_t m_nJobs;                                                //!< job count
    std::vector<Send> m_sends;                                       //!< the sends
    std::vector<double> m_load;                                      //!< load per link direction
    std::vector<std::vector<uint32_t>> m_sendsOn;                    //!< sends per link direction
    std::vector<std::vector<std::pair<uint32_t, int32_t>>> m_jobsOn; //!< (job, sends) per link
    std::vector<int32_t> m_partners;          //!< shared link sends per job pair
    Totals m_totals;                          //!< the placement's totals
    uint64_t m_budget{0};                     //!< trials left
    uint64_t m_searchNodes{0};                //!< paths the last FitAll() tried
    uint64_t m_random{0x9e3779b97f4a7c15ULL}; //!< generator state
    std::vector<uint32_t> m_met;              //!< scratch of PathCost()
};

} // namespace ns3

#endif /* FLUX_PATH_PLACEMENT_H */
