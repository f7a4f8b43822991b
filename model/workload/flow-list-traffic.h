/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_LIST_TRAFFIC_H
#define FLOW_LIST_TRAFFIC_H

#include "flow-traffic.h"

#include "ns3/event-id.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Flows given one by one: each starts at its own time between its
 * own hosts, as a flow file lists them (the HPCC simulator's flow.txt).
 *
 * Flows with the same start time start in the order given; a flow's id
 * (FlowTraffic::FlowRecord::id) is its place in the list.
 */
class FlowListTraffic : public FlowTraffic
{
  public:
    /// One flow of the list.
    struct Entry
    {
        uint32_t src;   //!< sending host
        uint32_t dst;   //!< receiving host
        uint64_t bytes; //!< size
        Time start;     //!< start time
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowListTraffic();
    ~FlowListTraffic() override;

    /**
     * \brief Set the flows.
     * \param flows the flows, by start time (not decreasing)
     */
    void Configure(const std::vector<Entry>& flows);

    void Start() override;
    void StopArrivals() override;
    bool ArrivalsOver() const override;

  protected:
    void DoDispose() override;

  private:
    /// Start the flows due now and schedule the next.
    void StartDue();

    std::vector<Entry> m_list; //!< the flows
    std::size_t m_next;        //!< the next flow to start
    bool m_stopped;            //!< StopArrivals() was called
    EventId m_event;           //!< the next start
};

} // namespace ns3

#endif /* FLOW_LIST_TRAFFIC_H */
