/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MAX_MIN_ALLOCATOR_H
#define MAX_MIN_ALLOCATOR_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-flow
 * \brief Rates of fluid flows on a set of links: strict priority between
 * traffic classes, weighted max-min fair sharing within a class.
 *
 * The classes are served in the order SetClassOrder() gives (highest
 * precedence first; classes it does not list follow in descending class
 * number, as the switches' built-in bands serve them). Each class gets what
 * the classes before it left of every link, and shares it by progressive
 * filling (water-filling): all its flows' rates rise together, in
 * proportion to their weights, until a link is full; the flows crossing
 * that link are frozen at their rate, and the others go on rising. The
 * result is the weighted max-min fair allocation of the class: no flow can
 * get more without taking from a flow whose rate per weight is no larger.
 *
 * A flow crossing a link of capacity zero (a link that is down) gets rate
 * zero. The allocator keeps its work space between calls, so that
 * Allocate() allocates no memory once the largest problem has been seen,
 * and its work is proportional to the flows' hops, not to the number of
 * links: a caller may allocate a part of the network (a set of flows that
 * shares no link with the others) on its own.
 */
class MaxMinAllocator
{
  public:
    /// One flow: its links (indices into the capacities), class and weight.
    struct Demand
    {
        const uint32_t* links{nullptr}; //!< the links it crosses
        uint32_t hops{0};               //!< how many
        uint8_t cls{0};                 //!< traffic class 0..7
        double weight{1};               //!< share within its class (> 0)
        double rate{0};                 //!< out: its rate, in the capacities' unit
    };

    MaxMinAllocator();

    /**
     * \brief Set the links.
     * \param capacity per link, any unit (the rates come out in it)
     */
    void SetCapacities(const std::vector<double>& capacity);

    /**
     * \brief Add a link.
     * \param capacity its capacity
     * \return its index
     */
    uint32_t AddLink(double capacity);

    /**
     * \brief Change one link's capacity (0: the link carries nothing).
     * \param link the link
     * \param capacity its capacity
     */
    void SetCapacity(uint32_t link, double capacity);

    /** \return the number of links */
    uint32_t GetNLinks() const;

    /**
     * \param link a link
     * \return its capacity
     */
    double GetCapacity(uint32_t link) const;

    /**
     * \brief For the next Allocate() call only, what a link has to give
     * (its capacity less what flows outside the call take).
     * \param link the link
     * \param capacity what it has to give
     */
    void SetResidual(uint32_t link, double capacity);

    /**
     * \param cls a traffic class
     * \return its place in the precedence order (0: served first)
     */
    uint8_t GetRank(uint8_t cls) const
    {
        return m_rank[cls & 7u];
    }

    /**
     * \brief Set the precedence of the classes.
     * \param order classes, highest precedence first; the classes it does
     *        not list follow in descending class number
     */
    void SetClassOrder(const std::vector<uint8_t>& order);

    /**
     * \brief Compute the rates of the flows.
     * \param demands the flows; each one's rate is set. A flow with no link
     *        gets rate 0.
     */
    void Allocate(std::vector<Demand>& demands);

  private:
    /**
     * \brief Water-fill one class over what is left of the links.
     * \param demands all flows
     * \param begin first index (into m_order) of the class's flows
     * \param end one past its last
     */
    void FillClass(std::vector<Demand>& demands, std::size_t begin, std::size_t end);

    /**
     * \brief Fill a class of one flow (the common case): its rate is what
     * its fullest link has left, exactly as FillClass would compute it.
     * \param d the flow
     */
    void FillAlone(Demand& d);
    /**
     * \brief Water-filling for a class of a few flows (at most FEW_FLOWS):
     * rounds that freeze the flows of the links at the lowest level, found
     * by scanning, without the link lists FillClass builds.
     * \param demands the flows
     * \param begin the class's first place in m_order
     * \param end past its last
     */
    void FillFew(std::vector<Demand>& demands, std::size_t begin, std::size_t end);

    /**
     * \brief A link is full: freeze every flow still rising on it.
     * \param demands all flows
     * \param l the link
     * \param level their rate per weight
     */
    void Freeze(std::vector<Demand>& demands, uint32_t l, double level);

    /**
     * \brief Freeze one flow.
     * \param demands all flows
     * \param f the flow
     * \param level its rate per weight
     */
    void FreezeFlow(std::vector<Demand>& demands, uint32_t f, double level);

    /// Up to this many shared links per class, the smallest share is found by scans, not a heap.
    static constexpr std::size_t SCAN_LINKS = 128;
    /// Classes of at most this many flows are filled by FillFew.
    static constexpr std::size_t FEW_FLOWS = 4;

    /**
     * \param l a link
     * \return what is left of it to give out, 0 when that is only rounding
     *         (under a billionth of its capacity)
     */
    double Room(uint32_t l);

    /**
     * \param l a link
     * \return its capacity not yet given out in this Allocate() call
     */
    double& Left(uint32_t l);

    /// What the allocator keeps of a link (together: one cache line or two).
    struct LinkState
    {
        double capacity{0};   //!< its capacity
        double left{0};       //!< capacity not yet given out
        double weight{0};     //!< weight of its rising flows
        uint64_t leftCall{0}; //!< the call left belongs to
        uint32_t start{0};    //!< + 1: start of its flows in m_linkFlows (0: untouched)
    };

    std::vector<LinkState> m_links;     //!< per link
    uint64_t m_call{0};                 //!< Allocate() calls so far
    std::vector<uint32_t> m_linkFlows;  //!< flows of each link (indices into demands)
    std::vector<uint32_t> m_touched;    //!< links crossed by the class being filled
    std::vector<uint32_t> m_order;      //!< flow indices sorted by class precedence
    std::vector<uint8_t> m_frozen;      //!< per flow: its rate is final
    std::vector<uint8_t> m_rank;        //!< per class: its place in the precedence order
    std::vector<uint32_t> m_classCount; //!< per rank: number of flows
    std::vector<std::pair<double, uint32_t>> m_caps; //!< (cap per weight, flow), rising
    std::vector<uint32_t> m_shared;                  //!< links crossed by several flows
    /// Heap of (share per weight when pushed, link), smallest share first.
    std::vector<std::pair<double, uint32_t>> m_heap;
};

} // namespace ns3

#endif /* MAX_MIN_ALLOCATOR_H */
