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
 * The queue stamped is the port's standing queue: the least queue over
 * the last FloorPackets to twice FloorPackets packet times (of the largest
 * INT packet the port has sent, at its line rate). Paced flows' packets
 * that meet leave a queue of a packet or two that drains by itself; HPCC
 * counts the queue stamped as utilisation, so stamping it would hold the
 * link below eta by that much (6.7 % of B x T per 4 KB packet on 1 us
 * links). Every flow reads the same floor, whatever its own packets'
 * place in the queue. With FloorPackets zero the stamp is the queue
 * averaged over time with time constant QueueAverage (an exponential
 * moving average, exact between the queue's changes); with both zero it
 * is the queue the packet leaves behind it, as the HPCC authors' simulator
 * stamps it: a paced flow then samples the queue without its own packets
 * (the smaller its share, the more of the others' queue it sees), and
 * HPCC's shares drift apart with large packets. A port tracks its queue
 * only after its first INT packet, so traffic without INT pays nothing but
 * the hook's calls.
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
    /// A port's queue over time.
    struct PortQueue
    {
        bool seen{false};    //!< an INT packet has left: the port tracks its queue
        double mean{0};      //!< the time-averaged queue, bytes
        uint64_t now{0};     //!< the queue since its last change, bytes
        int64_t since{0};    //!< time of the last change the average took in, ns
        uint32_t largest{0}; //!< largest INT packet sent, bytes
        int64_t window{0};   //!< FloorPackets times the largest's serialisation, ns
        int64_t epoch{0};    //!< start of the current window, ns
        uint64_t curMin{0};  //!< least queue in the current window, bytes
        uint64_t prevMin{0}; //!< least queue in the window before it, bytes
    };

    /**
     * \brief Note a port's queue now: its floor, or its average.
     * \param q the port's state
     * \param queueBytes its queue now
     */
    void Track(PortQueue& q, uint64_t queueBytes) const;

    /**
     * \brief Close the floor windows that ended, then note the queue.
     * \param q the port's state
     * \param queueBytes its queue now
     */
    static void TrackFloor(PortQueue& q, uint64_t queueBytes);

    /**
     * \brief Advance the average to now, then note the queue.
     * \param q the port's state
     * \param queueBytes its queue now
     */
    void TrackMean(PortQueue& q, uint64_t queueBytes) const;

    uint32_t m_floorPackets;        //!< floor window in packet times (0: no floor)
    Time m_average;                 //!< time constant (0: the queue behind the packet)
    std::vector<PortQueue> m_ports; //!< per port, grown on demand
    uint64_t m_codedRate;           //!< the last line rate found codable in INT, b/s
};

} // namespace ns3

#endif /* INT_STAMPER_H */
