/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_AETH_HEADER_H
#define IB_AETH_HEADER_H

#include "ns3/header.h"
#include "ns3/traffic-class.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-rdma
 *
 * \brief InfiniBand ACK Extended Transport Header (AETH), 4 bytes after the
 * BTH of an Acknowledge packet (IbBthHeader::ACKNOWLEDGE).
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |R|Typ|  Value  |            Message Sequence Number            |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The syndrome's type bits (6..5) say what the packet is: 00 ACK (value =
 * credit count, 0x1F = no credit information), 01 RNR NAK (value = timer),
 * 11 NAK (value = NAK code, NAK_PSN_SEQUENCE_ERROR for go-back-N). The PSN
 * of the BTH is the PSN acknowledged (ACK) or expected (NAK).
 */
class IbAethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = WireBytes::AETH;     //!< Serialized size in bytes
    static constexpr uint32_t MSN_MASK = 0x00FFFFFF;      //!< MSNs are 24 bits
    static constexpr uint8_t ACK_NO_CREDIT = 0x1F;        //!< ACK credit: no credit information
    static constexpr uint8_t NAK_PSN_SEQUENCE_ERROR = 0;  //!< NAK code: PSN sequence error
    static constexpr uint8_t NAK_INVALID_REQUEST = 1;     //!< NAK code: invalid request
    static constexpr uint8_t NAK_REMOTE_ACCESS_ERROR = 2; //!< NAK code: remote access error
    static constexpr uint8_t NAK_REMOTE_OPERATIONAL_ERROR = 3; //!< NAK code: remote op. error

    /**
     * \brief Construct an ACK (syndrome 0x1F) with MSN 0.
     */
    IbAethHeader();

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
     * \brief Make this an ACK: syndrome = credit (0x00..0x1F).
     * \param credit credit count (5 bits; higher bits are dropped)
     */
    void SetAck(uint8_t credit = ACK_NO_CREDIT);
    /**
     * \brief Make this a NAK: syndrome = 0x60 | code.
     * \param code NAK code (5 bits; higher bits are dropped); 0 = PSN sequence error
     */
    void SetNak(uint8_t code = NAK_PSN_SEQUENCE_ERROR);
    /**
     * \return true if the syndrome is an ACK (type bits 00)
     */
    bool IsAck() const;
    /**
     * \return true if the syndrome is a NAK (type bits 11)
     */
    bool IsNak() const;
    /**
     * \return the low 5 bits of the syndrome: credit count of an ACK, code of a NAK
     */
    uint8_t GetSyndromeValue() const;
    /**
     * \param syndrome the raw 8-bit syndrome
     */
    void SetSyndrome(uint8_t syndrome);
    /**
     * \return the raw 8-bit syndrome
     */
    uint8_t GetSyndrome() const;
    /**
     * \param msn message sequence number (24 bits; higher bits are dropped)
     */
    void SetMsn(uint32_t msn);
    /**
     * \return the message sequence number (24 bits)
     */
    uint32_t GetMsn() const;

  private:
    uint8_t m_syndrome; //!< Syndrome
    uint32_t m_msn;     //!< Message sequence number, 24 bits
};

} // namespace ns3

#endif /* IB_AETH_HEADER_H */
