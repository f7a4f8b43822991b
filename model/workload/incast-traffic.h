/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INCAST_TRAFFIC_H
#define INCAST_TRAFFIC_H

#include "flow-traffic.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Synchronised bursts: every sender starts a flow of the same size to
 * one receiver at the same time, Repeat times, every Interval.
 */
class IncastTraffic : public FlowTraffic
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IncastTraffic();
    ~IncastTraffic() override;

    /**
     * \brief Set the pattern.
     * \param senders sending hosts
     * \param receiver receiving host
     * \param bytes bytes per sender per burst
     */
    void Configure(const std::vector<uint32_t>& senders, uint32_t receiver, uint64_t bytes);

    void Start() override;
    void StopArrivals() override;
    bool ArrivalsOver() const override;

  protected:
    void DoDispose() override;

  private:
    /// Start one burst and schedule the next.
    void Burst();

    std::vector<uint32_t> m_senders; //!< sending hosts
    uint32_t m_receiver;             //!< receiving host
    uint64_t m_bytes;                //!< bytes per sender per burst
    Time m_startTime;                //!< first burst
    Time m_interval;                 //!< time between bursts
    uint32_t m_repeat;               //!< number of bursts
    uint32_t m_bursts;               //!< bursts started
    EventId m_next;                  //!< next burst
};

} // namespace ns3

#endif /* INCAST_TRAFFIC_H */
