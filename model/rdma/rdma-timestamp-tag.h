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
 * that repaired a loss from spurious ones. Not on the wire.
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
     */
    explicit RdmaTimestampTag(Time t, bool retransmitted = false);

    /** \return the send time */
    Time GetTimestamp() const;

    /** \return true when the packet is a copy sent again by go-back-N */
    bool IsRetransmitted() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    int64_t m_ts;         //!< send time in time steps
    bool m_retransmitted; //!< a copy sent again
};

} // namespace ns3

#endif /* RDMA_TIMESTAMP_TAG_H */
