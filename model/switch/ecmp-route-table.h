/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_ROUTE_TABLE_H
#define ECMP_ROUTE_TABLE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief A switch's routes: destination IPv4 address -> ECMP group (the
 * egress ports), compact for fabrics of thousands of hosts.
 *
 * Every switch of a fabric routes to every host, so the tables hold
 * switches x hosts entries, but a switch has only a handful of distinct
 * groups (an edge switch of a k-ary fat-tree: one port per local host and
 * the k/2 uplinks for everything else). The table stores each distinct
 * group once and, per destination, a 16-bit group number in an array
 * indexed by the address's distance from the lowest routed address (the
 * hosts' addresses are consecutive): 2 bytes per route and one array read
 * per lookup, where a hash map of vectors costs about 100 bytes and three
 * dependent memory reads. Destinations far outside the array's span (more
 * than 2^22 addresses away) go to a hash map.
 *
 * The interface is the part of std::unordered_map<uint32_t,
 * std::vector<uint32_t>> that a switch uses for lookups: find(), end(),
 * size(), erase(), clear(); an iterator's `->second` is the group.
 * Groups are set whole with Set().
 */
class EcmpRouteTable
{
  public:
    /// A route: `first` the destination address, `second` its ECMP group.
    struct Route
    {
        uint32_t first;                      //!< destination address (host order)
        const std::vector<uint32_t>& second; //!< egress ports
    };

    /// Points at a route, or at end().
    class ConstIterator
    {
      public:
        /**
         * \param dst the destination
         * \param group its group
         */
        ConstIterator(uint32_t dst, const std::vector<uint32_t>& group)
            : m_route{dst, group}
        {
        }

        /** \return the route */
        const Route* operator->() const
        {
            return &m_route;
        }

        /** \return the route */
        const Route& operator*() const
        {
            return m_route;
        }

        /**
         * \param o another iterator
         * \return whether both point at the same group (end() has its own)
         */
        bool operator==(const ConstIterator& o) const
        {
            return &m_route.second == &o.m_route.second;
        }

        /**
         * \param o another iterator
         * \return whether they differ
         */
        bool operator!=(const ConstIterator& o) const
        {
            return !(*this == o);
        }

      private:
        Route m_route; //!< the route
    };

    EcmpRouteTable();

    /**
     * \param dst a destination address (host order)
     * \return its route, or end()
     */
    ConstIterator find(uint32_t dst) const
    {
        const uint32_t offset = dst - m_base;
        if (offset < m_slots.size())
        {
            const uint16_t slot = m_slots[offset];
            return slot == 0 ? end() : ConstIterator(dst, m_groups[slot - 1]);
        }
        return FindSparse(dst);
    }

    /** \return the iterator that find() returns for an unknown destination */
    ConstIterator end() const
    {
        return ConstIterator(0, m_none);
    }

    /**
     * \brief Set the group of a destination, replacing its route.
     * \param dst the destination address (host order)
     * \param group the egress ports (not empty)
     */
    void Set(uint32_t dst, const std::vector<uint32_t>& group);

    /**
     * \brief Remove the route to a destination, if any.
     * \param dst the destination address (host order)
     */
    void erase(uint32_t dst);

    /** \brief Remove all routes. */
    void clear();

    /** \return the number of destinations with a route */
    std::size_t size() const;

    /** \return the number of distinct groups stored */
    std::size_t GetNGroups() const;

  private:
    /**
     * \param dst a destination outside the array
     * \return its route in the hash map, or end()
     */
    ConstIterator FindSparse(uint32_t dst) const;

    /**
     * \param group a group
     * \return its number (1-based), stored once
     */
    uint16_t Intern(const std::vector<uint32_t>& group);

    /// Largest span of addresses the array covers.
    static constexpr uint32_t MAX_SPAN = 1u << 22;

    uint32_t m_base;               //!< address of m_slots[0]
    std::vector<uint16_t> m_slots; //!< per address from m_base: group number, 0 none
    std::unordered_map<uint32_t, uint16_t> m_sparse;         //!< destinations outside the array
    std::vector<std::vector<uint32_t>> m_groups;             //!< the distinct groups
    std::map<std::vector<uint32_t>, uint16_t> m_groupNumber; //!< group -> its number
    std::size_t m_size;                                      //!< routes
    std::vector<uint32_t> m_none;                            //!< end()'s empty group
};

} // namespace ns3

#endif /* ECMP_ROUTE_TABLE_H */
