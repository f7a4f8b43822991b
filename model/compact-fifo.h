/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COMPACT_FIFO_H
#define COMPACT_FIFO_H

#include <cstddef>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief A first-in first-out queue that takes no memory while it has
 * never held anything, for the many short queues of a large fabric (one or
 * two per device).
 *
 * std::deque allocates a map and a 512-byte block as soon as it is
 * constructed, empty or not: about 600 bytes per queue, which thousands of
 * devices multiply. This queue is a vector read from an advancing head;
 * it empties itself whenever the head reaches the end and moves its
 * contents down once the consumed part is at least half of it, so a queue
 * that is busy holds at most twice its largest backlog. Amortised O(1) per
 * operation.
 *
 * The interface is the part of std::deque that the devices and queue
 * pairs use.
 *
 * \tparam T the element type
 */
template <typename T>
class CompactFifo
{
  public:
    /** \return whether the queue is empty */
    bool empty() const
    {
        return m_head == m_items.size();
    }

    /** \return the number of elements */
    std::size_t size() const
    {
        return m_items.size() - m_head;
    }

    /** \return the oldest element (the queue must not be empty) */
    T& front()
    {
        return m_items[m_head];
    }

    /**
     * \param i a position, 0 being the oldest element (less than size())
     * \return the element at that position
     */
    T& operator[](std::size_t i)
    {
        return m_items[m_head + i];
    }

    /**
     * \param i a position, 0 being the oldest element (less than size())
     * \return the element at that position
     */
    const T& operator[](std::size_t i) const
    {
        return m_items[m_head + i];
    }

    /**
     * \brief Exchange the contents with another queue.
     * \param other the other queue
     */
    void swap(CompactFifo& other)
    {
        m_items.swap(other.m_items);
        std::swap(m_head, other.m_head);
    }

    /**
     * \brief Append an element.
     * \param value the element
     */
    void push_back(T value)
    {
        m_items.push_back(std::move(value));
    }

    /** \brief Remove the oldest element (the queue must not be empty). */
    void pop_front()
    {
        m_items[m_head] = T();
        if (++m_head == m_items.size())
        {
            m_items.clear();
            m_head = 0;
        }
        else if (m_head >= COMPACT_AFTER && 2 * m_head >= m_items.size())
        {
            m_items.erase(m_items.begin(), m_items.begin() + m_head);
            m_head = 0;
        }
    }

    /** \brief Remove every element and give the memory back. */
    void clear()
    {
        std::vector<T>().swap(m_items);
        m_head = 0;
    }

  private:
    /// Consumed elements below which the vector is never moved down.
    static constexpr std::size_t COMPACT_AFTER = 16;

    std::vector<T> m_items; //!< elements; the live ones from m_head on
    std::size_t m_head{0};  //!< index of the oldest live element
};

} // namespace ns3

#endif /* COMPACT_FIFO_H */
