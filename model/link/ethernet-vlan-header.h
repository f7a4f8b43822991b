/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_VLAN_HEADER_H
#define ETHERNET_VLAN_HEADER_H

#include "ns3/header.h"
#include "ns3/mac48-address.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-link
 *
 * \brief An Ethernet II header with an optional IEEE 802.1Q tag, written and
 * read in one pass: the framing of PfcNetDevice.
 *
 * On the wire it is exactly ns3::EthernetHeader (destination, source, type)
 * followed, when tagged, by a VlanTagHeader (PCP, DEI, VID, inner
 * EtherType):
 *
 * \verbatim
   untagged: | destination (6) | source (6) | EtherType (2) |
   tagged:   | destination (6) | source (6) | 0x8100 (2) | PCP|DEI|VID (2) | EtherType (2) |
   \endverbatim
 *
 * so frames built with either representation read alike with the other.
 * Deserialize() reads the tag when the type field is 0x8100 and returns the
 * number of bytes read (14 or 18). Addresses are held as 48-bit integers so
 * that a device can frame a packet without Address conversions.
 */
class EthernetVlanHeader : public Header
{
  public:
    static constexpr uint16_t TPID = 0x8100;      //!< EtherType that announces a tag
    static constexpr uint32_t UNTAGGED_SIZE = 14; //!< bytes without a tag
    static constexpr uint32_t TAGGED_SIZE = 18;   //!< bytes with a tag

    /**
     * \brief An untagged header with zero addresses and EtherType 0.
     */
    EthernetVlanHeader();

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
     * \param address a MAC address
     * \return its 48 bits, first byte on the wire in the most significant position
     */
    static uint64_t MacToBits(Mac48Address address);

    /**
     * \param bits 48 bits as returned by MacToBits()
     * \return the MAC address
     */
    static Mac48Address BitsToMac(uint64_t bits);

    /**
     * \param bits destination MAC address, as returned by MacToBits()
     */
    void SetDestinationBits(uint64_t bits);
    /** \return the destination MAC address, as returned by MacToBits() */
    uint64_t GetDestinationBits() const;
    /**
     * \param bits source MAC address, as returned by MacToBits()
     */
    void SetSourceBits(uint64_t bits);
    /** \return the source MAC address, as returned by MacToBits() */
    uint64_t GetSourceBits() const;

    /** \param address the destination MAC address */
    void SetDestination(Mac48Address address);
    /** \return the destination MAC address */
    Mac48Address GetDestination() const;
    /** \param address the source MAC address */
    void SetSource(Mac48Address address);
    /** \return the source MAC address */
    Mac48Address GetSource() const;

    /**
     * \brief Add an 802.1Q tag (VID 0, DEI 0).
     * \param pcp priority code point (0..7; higher bits are dropped)
     */
    void SetVlanTag(uint8_t pcp);
    /** \brief Remove the 802.1Q tag. */
    void ClearVlanTag();
    /** \return whether the header has an 802.1Q tag */
    bool IsTagged() const;
    /** \return the tag's priority code point (0 when untagged) */
    uint8_t GetPcp() const;
    /** \return the tag's drop eligible indicator (false when untagged) */
    bool GetDei() const;
    /** \return the tag's VLAN identifier (0 when untagged) */
    uint16_t GetVid() const;

    /**
     * \param etherType EtherType of the payload (after the tag, when tagged)
     */
    void SetEtherType(uint16_t etherType);
    /** \return the EtherType of the payload (after the tag, when tagged) */
    uint16_t GetEtherType() const;

  private:
    uint64_t m_destination; //!< destination MAC, 48 bits
    uint64_t m_source;      //!< source MAC, 48 bits
    uint16_t m_tci;         //!< tag control information (PCP, DEI, VID)
    uint16_t m_etherType;   //!< EtherType of the payload
    bool m_tagged;          //!< an 802.1Q tag is present
};

} // namespace ns3

#endif /* ETHERNET_VLAN_HEADER_H */
