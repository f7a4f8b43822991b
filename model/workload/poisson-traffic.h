/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef POISSON_TRAFFIC_H
#define POISSON_TRAFFIC_H

#include "flow-size-cdf.h"
#include "flow-traffic.h"

#include "ns3/event-id.h"

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief Open-loop background tenant: Poisson flow arrivals among a set of
 * hosts, sizes drawn from a flow-size CDF, at a target load of the hosts'
 * links.
 *
 * With n hosts of line rate R, load L and mean flow size m bytes, flows
 * arrive at rate n L R / (8 m); each picks a source uniformly among the
 * hosts and a destination uniformly among the others, so every host link
 * carries L R on average in each direction.
 */
class PoissonTraffic : public FlowTraffic
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PoissonTraffic();
    ~PoissonTraffic() override;

    /**
     * \brief Set the traffic's shape.
     * \param hosts host indices exchanging flows (at least two)
     * \param sizes flow-size distribution
     * \param load offered load per host link, in (0, 1]
     * \param lineRateBps host line rate, bit/s
     */
    void Configure(const std::vector<uint32_t>& hosts,
                   const FlowSizeCdf& sizes,
                   double load,
                   double lineRateBps);

    void Start() override;
    void StopArrivals() override;
    bool ArrivalsOver() const override;
    int64_t AssignStreams(int64_t stream) override;

    /** \return mean time between arrivals */
    Time GetMeanInterArrival() const;

  protected:
    void DoDispose() override;

  private:
    /// Start a flow and schedule the next arrival.
    void Arrival();

    std::vector<uint32_t> m_hosts;        //!< participating hosts
    FlowSizeCdf m_sizes;                  //!< flow sizes
    double m_arrivalRate;                 //!< flows per second
    Time m_startTime;                     //!< first arrival not before
    Time m_stopTime;                      //!< no arrival at or after (0: none)
    Ptr<ExponentialRandomVariable> m_gap; //!< inter-arrival times
    Ptr<UniformRandomVariable> m_pick;    //!< host and size draws
    EventId m_next;                       //!< next arrival
    bool m_stopped;                       //!< arrivals stopped
};

} // namespace ns3

#endif /* POISSON_TRAFFIC_H */
