/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INDEXED_HEAP_H
#define INDEXED_HEAP_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief A binary min-heap of times that holds at most one entry per id and
 * finds it again: setting an id's time moves its entry, removing it takes
 * it out.
 *
 * The fluid network keeps each flow's next message end here. A rate change
 * moves the end; a heap without positions would have to leave the old end
 * behind, stale, to be skipped later, and on a busy fabric most of its
 * entries were stale. Entries are ordered by time, then by id, so equal
 * times come out in the same order on every run.
 */
class IndexedHeap
{
  public:
    /** \brief One entry. */
    struct Entry
    {
        int64_t at;  //!< its time
        uint32_t id; //!< whose it is
    };

    /** \return whether the heap is empty */
    bool Empty() const
    {
        return m_heap.empty();
    }

    /** \return the number of entries */
    std::size_t Size() const
    {
        return m_heap.size();
    }

    /** \return the earliest entry (the heap must not be empty) */
    const Entry& Top() const
    {
        return m_heap.front();
    }

    /**
     * \param id an id
     * \return whether the id has an entry
     */
    bool Contains(uint32_t id) const
    {
        return id < m_position.size() && m_position[id] != NONE;
    }

    /**
     * \brief Give an id a time: its entry moves there, or is added.
     * \param id the id
     * \param at its time
     */
    void Set(uint32_t id, int64_t at)
    {
        if (id >= m_position.size())
        {
            m_position.resize(id + 1, NONE);
        }
        uint32_t i = m_position[id];
        if (i == NONE)
        {
            i = static_cast<uint32_t>(m_heap.size());
            m_heap.push_back(Entry{at, id});
            m_position[id] = i;
            Up(i);
            return;
        }
        const bool earlier = at < m_heap[i].at;
        m_heap[i].at = at;
        if (earlier)
        {
            Up(i);
        }
        else
        {
            Down(i);
        }
    }

    /**
     * \brief Take an id's entry out, if it has one.
     * \param id the id
     */
    void Remove(uint32_t id)
    {
        if (!Contains(id))
        {
            return;
        }
        const uint32_t i = m_position[id];
        m_position[id] = NONE;
        const Entry last = m_heap.back();
        m_heap.pop_back();
        if (i == m_heap.size())
        {
            return; // it was the last one
        }
        Put(i, last);
        if (i > 0 && Before(m_heap[i], m_heap[(i - 1) / 2]))
        {
            Up(i);
        }
        else
        {
            Down(i);
        }
    }

    /** \brief Take the earliest entry out (the heap must not be empty). */
    void Pop()
    {
        Remove(m_heap.front().id);
    }

    /** \brief Remove every entry. */
    void Clear()
    {
        m_heap.clear();
        m_position.clear();
    }

  private:
    static constexpr uint32_t NONE = 0xffffffff; //!< no entry

    /**
     * \param a an entry
     * \param b another
     * \return whether a comes out before b
     */
    static bool Before(const Entry& a, const Entry& b)
    {
        return a.at != b.at ? a.at < b.at : a.id < b.id;
    }

    /**
     * \brief Store an entry at a place and note where it is.
     * \param i the place
     * \param e the entry
     */
    void Put(uint32_t i, const Entry& e)
    {
        m_heap[i] = e;
        m_position[e.id] = i;
    }

    /**
     * \brief Move an entry up to its place.
     * \param i where it is
     */
    void Up(uint32_t i)
    {
        const Entry e = m_heap[i];
        while (i > 0)
        {
            const uint32_t parent = (i - 1) / 2;
            if (!Before(e, m_heap[parent]))
            {
                break;
            }
            Put(i, m_heap[parent]);
            i = parent;
        }
        Put(i, e);
    }

    /**
     * \brief Move an entry down to its place.
     * \param i where it is
     */
    void Down(uint32_t i)
    {
        const Entry e = m_heap[i];
        const auto n = static_cast<uint32_t>(m_heap.size());
        while (true)
        {
            uint32_t child = 2 * i + 1;
            if (child >= n)
            {
                break;
            }
            if (child + 1 < n && Before(m_heap[child + 1], m_heap[child]))
            {
                ++child;
            }
            if (!Before(m_heap[child], e))
            {
                break;
            }
            Put(i, m_heap[child]);
            i = child;
        }
        Put(i, e);
    }

    std::vector<Entry> m_heap;        //!< the entries, as a binary heap
    std::vector<uint32_t> m_position; //!< per id: where its entry is, NONE without one
};

} // namespace ns3

#endif /* INDEXED_HEAP_H */
