/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ORDERED_SCHEDULER_H
#define ORDERED_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-parallel
 * \brief An event scheduler whose order of simultaneous events does not
 *        depend on how the simulation is split across processes.
 *
 * ns-3 runs events of the same time in the order they were scheduled. On
 * one process that order is fixed; under MPI a frame from another process
 * is scheduled when its message is received, at a point that depends on
 * the number of processes, so simultaneous events would run in an order
 * that changes with it, and so would the results.
 *
 * This scheduler orders events by (time, order key, scheduling order). The
 * code that schedules an event may give it a key just before
 * (SetNextKey()); every other event gets the largest key. Frame arrivals
 * are keyed by the receiving port: at a given time a node first takes in
 * the frames that arrive, port by port, then runs everything else in the
 * order it was scheduled. Everything else is caused by the node itself and
 * so is scheduled in the same order however the fabric is split.
 */
class OrderedScheduler : public Scheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    OrderedScheduler();
    ~OrderedScheduler() override;

    /// The key of events that were given none.
    static constexpr uint32_t DEFAULT_KEY = 0xffffffff;

    /**
     * \brief Register a kind of keyed event.
     *
     * The components that key their own events (collectives, jobs, gates,
     * controllers, a run's monitor) each declare their kinds once, in their
     * own file; this layer names none of them. At one time, the events of a
     * lower order run first (after the frame arrivals, before the events
     * without a key). Registering a name again with the same order returns
     * the same kind; an order taken by another name, or outside 1 to 127,
     * is a fatal error.
     *
     * \param name the kind's name
     * \param order its rank among the kinds, 1 to 127, lower first
     * \return the kind, for ControlKey()
     */
    static uint32_t RegisterKind(const std::string& name, uint32_t order);

    /**
     * \return the registered kinds, (order, name), lowest order first
     */
    static std::vector<std::pair<uint32_t, std::string>> GetKinds();

    /**
     * \param kind what the event is (from RegisterKind())
     * \param index whose (a job index)
     * \return the key: after frame arrivals (keyed by port), before events
     *         without a key, by kind then index
     */
    static uint32_t ControlKey(uint32_t kind, uint32_t index)
    {
        return 0x80000000U | (kind << 24) | (index & 0xffffffU);
    }

    /**
     * \brief Give the next event scheduled a key.
     *
     * The key applies to the next insertion into an OrderedScheduler and is
     * then forgotten; with another scheduler it has no effect.
     *
     * \param key the key; lower runs first among events of the same time
     */
    static void SetNextKey(uint32_t key)
    {
        s_nextKey = key;
    }

    // Inherited
    void Insert(const Scheduler::Event& ev) override;
    bool IsEmpty() const override;
    Scheduler::Event PeekNext() const override;
    Scheduler::Event RemoveNext() override;
    void Remove(const Scheduler::Event& ev) override;

  private:
    /// An event and its order key.
    struct Entry
    {
        Scheduler::Event ev; //!< the event
        uint32_t key;        //!< its order key

        /**
         * \param o another entry
         * \return true if this one runs after o (the heap keeps the least on top)
         */
        bool operator>(const Entry& o) const
        {
            if (ev.key.m_ts != o.ev.key.m_ts)
            {
                return ev.key.m_ts > o.ev.key.m_ts;
            }
            if (key != o.key)
            {
                return key > o.key;
            }
            return ev.key.m_uid > o.ev.key.m_uid;
        }
    };

    static uint32_t s_nextKey; //!< key of the next insertion
    std::vector<Entry> m_heap; //!< binary heap, earliest on top
};

} // namespace ns3

#endif /* ORDERED_SCHEDULER_H */
