/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REMOTE_FRAME_TAG_H
#define REMOTE_FRAME_TAG_H

#include "ns3/nstime.h"
#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-parallel
 * \brief What a frame crossing to another MPI process carries besides its
 *        bytes: when it arrives, and the link's down count when it was sent.
 *
 * Each process keeps its own copy of the link and applies the same link
 * faults at the same times; the receiving process compares the count with
 * its own to tell whether the link went down while the frame was on the
 * wire (PfcChannel). The MPI message is delivered ahead of the arrival, so
 * that the arrival can be scheduled like a local one. The tag is removed
 * before the frame is delivered.
 */
class RemoteFrameTag : public Tag
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    RemoteFrameTag();

    /**
     * \param downs the link's down count at sending
     * \param arrival when the frame's last bit arrives
     */
    RemoteFrameTag(uint32_t downs, Time arrival);

    /** \return the link's down count at sending */
    uint32_t GetDowns() const;

    /** \return when the frame's last bit arrives */
    Time GetArrival() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_downs;  //!< the link's down count at sending
    int64_t m_arrival; //!< arrival time, in time steps
};

} // namespace ns3

#endif /* REMOTE_FRAME_TAG_H */
