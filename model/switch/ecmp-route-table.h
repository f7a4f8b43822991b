/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_ROUTE_TABLE_H
#define ECMP_ROUTE_TABLE_H

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief A switch's routes: destination IPv4 address -> the number of its
 * ECMP group, compact for fabrics of thousands of hosts.
 *
 * Every switch of a fabric routes to every host, so the tables hold
 * switches x hosts entries, but a switch has only a handful of distinct
 * groups (an edge switch of a k-ary fat-tree: one port per local host and
 * the k/2 uplinks for everything else), which it stores once (FabricSwitch
 * keeps each group's members and live members). The table holds, per
 * destination, a 16-bit group number in an array indexed by the address's
 * distance from the lowest routed address (the hosts' addresses are
 * consecutive): 2 bytes per route and one array read per lookup, where a
 * hash map costs tens of bytes and dependent memory reads. Destinations far
 * outside the array's span (more than 2^22 addresses away) go to a hash map.
 *
 * The interface is the part of std::unordered_map<uint32_t, uint32_t> that
 * a switch uses: find(), end(), size(), erase(), clear(); an iterator's
 * `->first` is the destination and `->second` the group number. Routes are
 * set with Set().
 */
class EcmpRouteTable
{
  public:
    /// Largest group number the table holds.
    static constexpr uint32_t MAX_GROUP = 0xfffe;

    /// A route: `first` the destination address, `second` its group number.
    struct Route
    {
        uint32_t first;  //!< destination address (host order)
        uint32_t second; //!< group number
    };

    /// Points at a route, or at end().
    class ConstIterator
    {
      public:
        /**
         * \param dst the destination
         * \param group its group number, or NONE for end()
         */
        ConstIterator(uint32_t dst, uint32_t group)
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
         * \return whether both point at the same route (or both at end())
         */
        bool operator==(const ConstIterator& o) const
        {
            return m_route.second == o.m_route.second &&
                   (m_route.second == NONE || m_route.first == o.m_route.first);
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
            return slot == 0 ? end() : ConstIterator(dst, slot - 1u);
        }
        return FindSparse(dst);
    }

    /** \return the iterator that find() returns for an unknown destination */
    ConstIterator end() const
    {
        return ConstIterator(0, NONE);
    }

    /**
     * \brief Set the group of a destination, replacing its route.
     * \param dst the destination address (host order)
     * \param group the group number (at most MAX_GROUP)
     */
    void Set(uint32_t dst, uint32_t group);

    /**
     * \brief Remove the route to a destination, if any.
     * \param dst the destination address (host order)
     */
    void erase(uint32_t dst);

    /** \brief Remove all routes. */
    void clear();

    /** \return the number of destinations with a route */
    std::size_t size() const;

  private:
    /// end()'s group number.
    static constexpr uint32_t NONE = 0xffffffff;

    /**
     * \param dst a destination outside the array
     * \return its route in the hash map, or end()
     */
    ConstIterator FindSparse(uint32_t dst) const;

    /// Largest span of addresses the array covers.
    static constexpr uint32_t MAX_SPAN = 1u << 22;

    uint32_t m_base;               //!< address of m_slots[0]
    std::vector<uint16_t> m_slots; //!< per address from m_base: group number + 1, 0 none
    std::unordered_map<uint32_t, uint16_t> m_sparse; //!< destinations outside the array
    std::size_t m_size;                              //!< routes
};

} // namespace ns3

#endif /* ECMP_ROUTE_TABLE_H */
