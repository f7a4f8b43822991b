/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_TIMESTAMP_TAG_H
#define RDMA_TIMESTAMP_TAG_H

#include "ns3/nstime.h"
#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief Simulation metadata: when the sending NIC put a data packet on its
 * port, for one-way latency measurement, and whether the packet is a copy
 * sent again by go-back-N, so that the receiver can tell retransmissions
 * that repaired a loss from spurious ones. When the sender's congestion
 * control measures RTTs (RdmaCongestionControl::UsesRtt()), the data packet
 * asks for its timestamp back and the receiver's ACK carries it in a tag of
 * this type, as a RoCE NIC's hardware timestamps give the sender the RTT of
 * each acknowledged packet. Not on the wire.
 */
class RdmaTimestampTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RdmaTimestampTag();

    /**
     * \param t the send time
     * \param retransmitted the packet is a copy sent again by go-back-N
     * \param echo the receiver returns the send time in its ACK
     */
    explicit RdmaTimestampTag(Time t, bool retransmitted = false, bool echo = false);

    /** \return the send time */
    Time GetTimestamp() const;

    /** \return true when the packet is a copy sent again by go-back-N */
    bool IsRetransmitted() const;

    /** \return true when the receiver returns the send time in its ACK */
    bool IsEchoRequested() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    int64_t m_ts;         //!< send time in time steps
    bool m_retransmitted; //!< a copy sent again
    bool m_echo;          //!< the send time is to be echoed in the ACK
};

} // namespace ns3

#endif /* RDMA_TIMESTAMP_TAG_H */
