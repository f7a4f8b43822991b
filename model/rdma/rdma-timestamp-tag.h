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
 * \ingroup flux
 * \brief Simulation metadata: when the sending NIC put a data packet on its
 * port, for one-way latency measurement. Not on the wire.
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
     */
    explicit RdmaTimestampTag(Time t);

    /** \return the send time */
    Time GetTimestamp() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    int64_t m_ts; //!< send time in time steps
};

} // namespace ns3

#endif /* RDMA_TIMESTAMP_TAG_H */
