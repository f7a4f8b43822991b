/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// EthernetVlanHeader (the one-pass framing of PfcNetDevice) must be
// byte-for-byte the same as ns3::EthernetHeader followed by VlanTagHeader
// (tagged) or EthernetHeader alone (untagged), in both directions: what one
// writes the other reads back with the same field values, and Deserialize()
// consumes exactly the bytes of the header (18 tagged, 14 untagged), leaving
// the payload in place.

#include "ns3/ethernet-header.h"
#include "ns3/ethernet-vlan-header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/vlan-tag-header.h"

#include <gtest/gtest.h>
#include <vector>

using namespace ns3;

namespace
{

const Mac48Address kSrc("02:11:22:33:44:55"); //!< a source address
const Mac48Address kDst("0a:bb:cc:dd:ee:ff"); //!< a destination address
constexpr uint32_t kPayload = 100;            //!< payload bytes behind the header

/// \return the bytes of a packet
std::vector<uint8_t>
Bytes(Ptr<const Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/// \return a payload with the reference headers: EthernetHeader [+ VlanTagHeader]
Ptr<Packet>
ReferenceFrame(bool tagged, uint8_t pcp, uint16_t etherType)
{
    Ptr<Packet> p = Create<Packet>(kPayload);
    if (tagged)
    {
        p->AddHeader(VlanTagHeader(pcp, 0, etherType));
    }
    EthernetHeader eth(false);
    eth.SetSource(kSrc);
    eth.SetDestination(kDst);
    eth.SetLengthType(tagged ? VlanTagHeader::TPID : etherType);
    p->AddHeader(eth);
    return p;
}

/// \return a payload with an EthernetVlanHeader
Ptr<Packet>
CombinedFrame(bool tagged, uint8_t pcp, uint16_t etherType)
{
    Ptr<Packet> p = Create<Packet>(kPayload);
    EthernetVlanHeader h;
    h.SetSource(kSrc);
    h.SetDestination(kDst);
    if (tagged)
    {
        h.SetVlanTag(pcp);
    }
    h.SetEtherType(etherType);
    p->AddHeader(h);
    return p;
}

} // namespace

TEST(EthernetVlanHeaderTest, TaggedBytesEqualEthernetPlusVlanTag)
{
    for (uint8_t pcp = 0; pcp < 8; ++pcp)
    {
        EXPECT_EQ(Bytes(CombinedFrame(true, pcp, 0x0800)), Bytes(ReferenceFrame(true, pcp, 0x0800)))
            << "pcp " << +pcp;
    }
}

TEST(EthernetVlanHeaderTest, UntaggedBytesEqualEthernet)
{
    EXPECT_EQ(Bytes(CombinedFrame(false, 0, 0x8808)), Bytes(ReferenceFrame(false, 0, 0x8808)));
}

TEST(EthernetVlanHeaderTest, ReadsTaggedReferenceFrame)
{
    Ptr<Packet> p = ReferenceFrame(true, 5, 0x0800);
    EthernetVlanHeader h;
    EXPECT_EQ(p->RemoveHeader(h), EthernetVlanHeader::TAGGED_SIZE);
    EXPECT_TRUE(h.IsTagged());
    EXPECT_EQ(h.GetPcp(), 5);
    EXPECT_EQ(h.GetVid(), 0);
    EXPECT_FALSE(h.GetDei());
    EXPECT_EQ(h.GetEtherType(), 0x0800);
    EXPECT_EQ(h.GetSource(), kSrc);
    EXPECT_EQ(h.GetDestination(), kDst);
    EXPECT_EQ(h.GetSerializedSize(), EthernetVlanHeader::TAGGED_SIZE);
    EXPECT_EQ(p->GetSize(), kPayload) << "only the header is consumed";
}

TEST(EthernetVlanHeaderTest, ReadsUntaggedReferenceFrame)
{
    Ptr<Packet> p = ReferenceFrame(false, 0, 0x8808);
    EthernetVlanHeader h;
    EXPECT_EQ(p->RemoveHeader(h), EthernetVlanHeader::UNTAGGED_SIZE);
    EXPECT_FALSE(h.IsTagged());
    EXPECT_EQ(h.GetPcp(), 0);
    EXPECT_EQ(h.GetEtherType(), 0x8808);
    EXPECT_EQ(h.GetSource(), kSrc);
    EXPECT_EQ(h.GetDestination(), kDst);
    EXPECT_EQ(p->GetSize(), kPayload) << "only the header is consumed";
}

TEST(EthernetVlanHeaderTest, ReferenceHeadersReadCombinedFrame)
{
    Ptr<Packet> p = CombinedFrame(true, 7, 0x0800);
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    VlanTagHeader tag;
    p->RemoveHeader(tag);
    EXPECT_EQ(eth.GetSource(), kSrc);
    EXPECT_EQ(eth.GetDestination(), kDst);
    EXPECT_EQ(eth.GetLengthType(), VlanTagHeader::TPID);
    EXPECT_EQ(tag.GetPcp(), 7);
    EXPECT_EQ(tag.GetEtherType(), 0x0800);
    EXPECT_EQ(p->GetSize(), kPayload);
}

TEST(EthernetVlanHeaderTest, MacBitsRoundTrip)
{
    const uint64_t bits = EthernetVlanHeader::MacToBits(kDst);
    EXPECT_EQ(bits, 0x0abbccddeeffULL);
    EXPECT_EQ(EthernetVlanHeader::BitsToMac(bits), kDst);
    EXPECT_EQ(EthernetVlanHeader::MacToBits(Mac48Address::GetBroadcast()), 0xffffffffffffULL);
}
