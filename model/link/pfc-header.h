/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-link
 *
 * \brief IEEE 802.1Qbb priority-based flow control (PFC) frame: the MAC
 * control payload that follows an Ethernet II header of type 0x8808 sent to
 * 01:80:C2:00:00:01.
 *
 * \verbatim
   bytes  0..1   MAC control opcode 0x0101
   bytes  2..3   priority class-enable vector (bit i = priority i; high byte 0)
   bytes  4..19  pause quanta of priorities 0..7, 16 bits each
   bytes 20..45  zero padding to the 46-byte minimum Ethernet payload
   \endverbatim
 *
 * A quantum is 512 bit times at the link rate. For a priority whose enable
 * bit is set, the receiver pauses that priority for quanta x 512 bit times
 * (a later frame replaces the time); quanta 0 resumes it at once (XON).
 * Priorities whose enable bit is clear are not affected, whatever their
 * quanta field says.
 *
 * PFC frames are never VLAN-tagged. Their size is fixed: GetSerializedSize()
 * is always 46.
 *
 * Deserialize() reads any MAC control frame of 46 bytes. When the opcode is
 * not 0x0101 (e.g. an 802.3x PAUSE, opcode 0x0001), the frame is not a PFC
 * frame: IsPfc() returns false, GetOpcode() returns the opcode found, and
 * the class-enable vector and quanta read back as zero, so that IsPaused()
 * is false for every priority.
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t ETHERTYPE = 0x8808;     //!< EtherType of MAC control frames
    static constexpr uint16_t OPCODE = 0x0101;        //!< MAC control opcode of PFC
    static constexpr uint8_t PRIORITIES = 8;          //!< Number of priorities (on the wire)
    static constexpr uint32_t BITS_PER_QUANTUM = 512; //!< Pause quantum in bit times
    static constexpr uint32_t SIZE = 46;              //!< Serialized size in bytes

    /**
     * \brief Construct a PFC frame that pauses no priority.
     */
    PfcHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \return the destination MAC address of PFC frames, 01:80:C2:00:00:01
     */
    static Mac48Address GetMulticastAddress();

    /**
     * \return the MAC control opcode: OPCODE unless Deserialize() read
     *         another MAC control frame
     */
    uint16_t GetOpcode() const;
    /**
     * \return true if the opcode is the PFC opcode 0x0101
     */
    bool IsPfc() const;

    /**
     * \param mask class-enable vector, bit i for priority i
     */
    void SetClassEnable(uint8_t mask);
    /**
     * \return the class-enable vector, bit i for priority i
     */
    uint8_t GetClassEnable() const;
    /**
     * \brief Set the pause time of one priority; does not touch its enable bit.
     * \param prio priority (0..7; aborts otherwise)
     * \param quanta pause time in quanta of 512 bit times
     */
    void SetQuanta(uint8_t prio, uint16_t quanta);
    /**
     * \param prio priority (0..7; aborts otherwise)
     * \return the pause time of that priority in quanta of 512 bit times
     */
    uint16_t GetQuanta(uint8_t prio) const;
    /**
     * \brief Enable a priority and set its pause time; quanta 0 resumes it.
     * \param prio priority (0..7; aborts otherwise)
     * \param quanta pause time in quanta of 512 bit times
     */
    void Pause(uint8_t prio, uint16_t quanta);
    /**
     * \param prio priority (0..7; aborts otherwise)
     * \return true if the frame pauses that priority: its enable bit is set
     *         and its quanta are not zero
     */
    bool IsPaused(uint8_t prio) const;

  private:
    uint16_t m_opcode;                         //!< MAC control opcode
    uint8_t m_classEnable;                     //!< Class-enable vector
    std::array<uint16_t, PRIORITIES> m_quanta; //!< Pause quanta per priority
};

static_assert(PfcHeader::PRIORITIES == TrafficClass::N_CLASSES,
              "a PFC frame has one timer per traffic class");

} // namespace ns3

#endif /* PFC_HEADER_H */
