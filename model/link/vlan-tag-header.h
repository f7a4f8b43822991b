/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VLAN_TAG_HEADER_H
#define VLAN_TAG_HEADER_H

#include "ns3/header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-link
 *
 * \brief IEEE 802.1Q tag: the four bytes that follow an Ethernet II header
 * whose type field is the tag protocol identifier 0x8100.
 *
 * ns3::EthernetHeader carries the destination, source and the TPID
 * (EthernetHeader::SetLengthType(VlanTagHeader::TPID)); this header carries
 * the rest of the tag and the EtherType of the payload:
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   | PCP |D|         VID           |        inner EtherType        |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The priority code point (PCP) is the 802.1p priority that PFC pauses
 * (0..7). Setters keep only the bits that fit the field: PCP 3 bits,
 * VID 12 bits.
 */
class VlanTagHeader : public Header
{
  public:
    static constexpr uint16_t TPID = 0x8100; //!< EtherType that announces a tag
    static constexpr uint32_t SIZE = 4;      //!< Serialized size in bytes

    /**
     * \brief Construct a tag with PCP 0, DEI 0, VID 0 and inner type 0.
     */
    VlanTagHeader();
    /**
     * \brief Construct a tag.
     * \param pcp priority code point (0..7; higher bits are dropped)
     * \param vid VLAN identifier (0..4095; higher bits are dropped)
     * \param etherType EtherType of the payload (e.g. 0x0800 for IPv4)
     */
    VlanTagHeader(uint8_t pcp, uint16_t vid, uint16_t etherType);

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
     * \param pcp priority code point (0..7; higher bits are dropped)
     */
    void SetPcp(uint8_t pcp);
    /**
     * \return the priority code point (0..7)
     */
    uint8_t GetPcp() const;
    /**
     * \param dei drop eligible indicator
     */
    void SetDei(bool dei);
    /**
     * \return the drop eligible indicator
     */
    bool GetDei() const;
    /**
     * \param vid VLAN identifier (0..4095; higher bits are dropped)
     */
    void SetVid(uint16_t vid);
    /**
     * \return the VLAN identifier (0..4095)
     */
    uint16_t GetVid() const;
    /**
     * \param etherType EtherType of the payload that follows the tag
     */
    void SetEtherType(uint16_t etherType);
    /**
     * \return the EtherType of the payload that follows the tag
     */
    uint16_t GetEtherType() const;

  private:
    uint8_t m_pcp;        //!< Priority code point, 3 bits
    bool m_dei;           //!< Drop eligible indicator
    uint16_t m_vid;       //!< VLAN identifier, 12 bits
    uint16_t m_etherType; //!< EtherType of the payload
};

} // namespace ns3

#endif /* VLAN_TAG_HEADER_H */
