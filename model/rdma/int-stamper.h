/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INT_STAMPER_H
#define INT_STAMPER_H

#include "ns3/nstime.h"
#include "ns3/switch-egress-hook.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief In-band network telemetry at a switch: writes this hop's record
 * (IntHeader::StampPacket: the port's line rate, its bytes sent, this packet
 * included, and its queue) into every data packet that carries INT (DSCP
 * bit IntHeader::DSCP_INT) as the packet leaves an egress port.
 *
 * The queue stamped is the port's egress queue averaged over time with time
 * constant QueueAverage: an exponential moving average of the queue, exact
 * between its changes. A port tracks its queue only after its first INT
 * packet, so traffic without INT pays nothing but the hook's calls. With
 * QueueAverage zero the record holds the queue the packet leaves behind it,
 * as the HPCC authors' simulator stamps it; a paced flow then samples the
 * queue without its own packets (the smaller its share, the more of the
 * others' queue it sees), and HPCC's shares drift apart with large packets.
 *
 * FabricTopologyHelper installs one on every switch it builds
 * (FabricSwitch::SetEgressHook()).
 */
class IntStamper : public SwitchEgressHook
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IntStamper();
    ~IntStamper() override;

    void Enqueued(uint32_t port, uint64_t queueBytes) override;
    void Dequeued(uint32_t port,
                  uint64_t queueBytes,
                  uint64_t txBytes,
                  uint64_t lineRateBps,
                  const Ptr<QueueDiscItem>& item) override;

  private:
    /// A port's time-averaged queue.
    struct PortQueue
    {
        bool seen{false}; //!< an INT packet has left: the port tracks its queue
        double mean{0};   //!< the time-averaged queue, bytes
        uint64_t now{0};  //!< the queue since `since`, bytes
        int64_t since{0}; //!< time of its last change, ns
    };

    /**
     * \brief Advance a port's average to now, then note its queue.
     * \param q the port's state
     * \param queueBytes its queue now
     */
    void Track(PortQueue& q, uint64_t queueBytes) const;

    Time m_average;                 //!< time constant (0: the queue behind the packet)
    std::vector<PortQueue> m_ports; //!< per port, grown on demand
};

} // namespace ns3

#endif /* INT_STAMPER_H */
