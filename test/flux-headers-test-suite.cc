/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Unit tests of the wire headers: each header round-trips through
// Serialize/Deserialize, serializes to the byte layout of its standard, and
// has the standard's size.

#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/test.h"
#include "ns3/vlan-tag-header.h"

#include <cstdint>
#include <vector>

using namespace ns3;

namespace
{

/**
 * \param header a header
 * \return the bytes that the header serializes to
 */
std::vector<uint8_t>
ToBytes(const Header& header)
{
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(header);
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * \param bytes raw bytes
 * \return a packet holding exactly these bytes
 */
Ptr<Packet>
FromBytes(const std::vector<uint8_t>& bytes)
{
    return Create<Packet>(bytes.data(), bytes.size());
}

} // namespace

/**
 * \ingroup flux-tests
 * Base of the header test cases: byte-array comparison and round trip.
 */
class FluxHeaderTestCase : public TestCase
{
  public:
    /**
     * \param name what the test case checks
     */
    explicit FluxHeaderTestCase(std::string name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * \brief Check that a header serializes to exactly the expected bytes.
     * \param header the header
     * \param expected the bytes computed by hand from the standard
     */
    void CheckBytes(const Header& header, const std::vector<uint8_t>& expected)
    {
        NS_TEST_EXPECT_MSG_EQ(header.GetSerializedSize(),
                              expected.size(),
                              "GetSerializedSize() differs from the standard's size");
        std::vector<uint8_t> bytes = ToBytes(header);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), expected.size(), "serialized length");
        for (std::size_t i = 0; i < bytes.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(+bytes[i], +expected[i], "byte " << i);
        }
    }

    /**
     * \brief Serialize a header in front of a payload, remove it again.
     * \param in the header to serialize
     * \param out the header to deserialize into
     */
    void RoundTrip(const Header& in, Header& out)
    {
        const uint32_t payload = 7;
        Ptr<Packet> p = Create<Packet>(payload);
        p->AddHeader(in);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), payload + in.GetSerializedSize(), "AddHeader size");
        uint32_t read = p->RemoveHeader(out);
        NS_TEST_EXPECT_MSG_EQ(read, in.GetSerializedSize(), "Deserialize reads the header size");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), payload, "payload left after RemoveHeader");
    }
};

/**
 * \ingroup flux-tests
 * VLAN tag: all fields round-trip (PCP 7, DEI, 12-bit VID) and the setters
 * mask PCP to 3 bits and VID to 12 bits.
 */
class VlanTagRoundTripTestCase : public FluxHeaderTestCase
{
  public:
    VlanTagRoundTripTestCase()
        : FluxHeaderTestCase("VLAN tag: PCP 7, DEI, VID 0xABC, EtherType round-trip; PCP and "
                             "VID are masked to 3 and 12 bits")
    {
    }

  private:
    void DoRun() override
    {
        VlanTagHeader in(7, 0xABC, 0x0800);
        in.SetDei(true);
        VlanTagHeader out;
        RoundTrip(in, out);
        NS_TEST_EXPECT_MSG_EQ(+out.GetPcp(), 7, "PCP");
        NS_TEST_EXPECT_MSG_EQ(out.GetDei(), true, "DEI");
        NS_TEST_EXPECT_MSG_EQ(out.GetVid(), 0xABC, "VID");
        NS_TEST_EXPECT_MSG_EQ(out.GetEtherType(), 0x0800, "inner EtherType");

        VlanTagHeader masked;
        masked.SetPcp(0xFB);
        masked.SetVid(0xF123);
        NS_TEST_EXPECT_MSG_EQ(+masked.GetPcp(), 3, "PCP masked to 3 bits");
        NS_TEST_EXPECT_MSG_EQ(masked.GetVid(), 0x123, "VID masked to 12 bits");
        NS_TEST_EXPECT_MSG_EQ(masked.GetDei(), false, "DEI untouched by PCP/VID");
        NS_TEST_EXPECT_MSG_EQ(VlanTagHeader(9, 0x1001, 0x86DD).GetVid(), 1, "ctor masks VID");
        NS_TEST_EXPECT_MSG_EQ(+VlanTagHeader(9, 0x1001, 0x86DD).GetPcp(), 1, "ctor masks PCP");
    }
};

/**
 * \ingroup flux-tests
 * VLAN tag: 4 bytes, TCI (PCP 3 bits | DEI | VID 12 bits) big-endian, then
 * the inner EtherType.
 */
class VlanTagLayoutTestCase : public FluxHeaderTestCase
{
  public:
    VlanTagLayoutTestCase()
        : FluxHeaderTestCase("VLAN tag: 4 bytes = TCI (PCP, DEI, VID) then inner EtherType, "
                             "big-endian")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(VlanTagHeader::TPID, 0x8100, "TPID");
        VlanTagHeader a(7, 0xABC, 0x0800);
        a.SetDei(true);
        CheckBytes(a, {0xFA, 0xBC, 0x08, 0x00}); // 111 1 1010 1011 1100
        VlanTagHeader b(3, 0x001, 0x0800);
        CheckBytes(b, {0x60, 0x01, 0x08, 0x00}); // 011 0 0000 0000 0001
        VlanTagHeader c(0, 0, 0x8808);
        c.SetDei(true);
        CheckBytes(c, {0x10, 0x00, 0x88, 0x08});

        VlanTagHeader d;
        FromBytes({0xA1, 0x23, 0x86, 0xDD})->RemoveHeader(d);
        NS_TEST_EXPECT_MSG_EQ(+d.GetPcp(), 5, "PCP from bits 15..13");
        NS_TEST_EXPECT_MSG_EQ(d.GetDei(), false, "DEI from bit 12");
        NS_TEST_EXPECT_MSG_EQ(d.GetVid(), 0x123, "VID from bits 11..0");
        NS_TEST_EXPECT_MSG_EQ(d.GetEtherType(), 0x86DD, "EtherType from bytes 2..3");
    }
};

/**
 * \ingroup flux-tests
 * PFC: the class-enable vector and 8 distinct quanta round-trip; Pause()
 * sets the enable bit; IsPaused() needs the enable bit and quanta > 0.
 */
class PfcRoundTripTestCase : public FluxHeaderTestCase
{
  public:
    PfcRoundTripTestCase()
        : FluxHeaderTestCase("PFC: vector and 8 distinct quanta round-trip; IsPaused = enable "
                             "bit and quanta > 0")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader in;
        NS_TEST_EXPECT_MSG_EQ(+in.GetClassEnable(), 0, "a new frame enables nothing");
        const uint16_t quanta[8] = {0x0101, 0x0202, 0x0303, 0xFFFF, 0x0505, 0x1234, 0, 0x8000};
        for (uint8_t i = 0; i < 8; ++i)
        {
            in.SetQuanta(i, quanta[i]);
        }
        NS_TEST_EXPECT_MSG_EQ(+in.GetClassEnable(), 0, "SetQuanta leaves the vector alone");
        NS_TEST_EXPECT_MSG_EQ(in.IsPaused(3), false, "quanta without enable bit do not pause");
        in.SetClassEnable(0xE9); // priorities 0, 3, 5, 6, 7
        PfcHeader out;
        RoundTrip(in, out);
        NS_TEST_EXPECT_MSG_EQ(out.GetOpcode(), PfcHeader::OPCODE, "opcode");
        NS_TEST_EXPECT_MSG_EQ(out.IsPfc(), true, "IsPfc");
        NS_TEST_EXPECT_MSG_EQ(+out.GetClassEnable(), 0xE9, "class-enable vector");
        for (uint8_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(out.GetQuanta(i), quanta[i], "quanta of priority " << +i);
        }
        const bool paused[8] = {true, false, false, true, false, true, false, true};
        for (uint8_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(out.IsPaused(i), paused[i], "IsPaused(" << +i << ")");
        }

        PfcHeader p;
        p.Pause(5, 77);
        p.Pause(2, 0); // XON: enabled with zero quanta
        NS_TEST_EXPECT_MSG_EQ(+p.GetClassEnable(), 0x24, "Pause sets the enable bits");
        NS_TEST_EXPECT_MSG_EQ(p.GetQuanta(5), 77, "Pause sets the quanta");
        NS_TEST_EXPECT_MSG_EQ(p.IsPaused(5), true, "priority 5 paused");
        NS_TEST_EXPECT_MSG_EQ(p.IsPaused(2), false, "quanta 0 is a resume");
        NS_TEST_EXPECT_MSG_EQ(p.IsPaused(4), false, "priority 4 untouched");
    }
};

/**
 * \ingroup flux-tests
 * PFC: 46 bytes: opcode 0x0101 first, vector, 8 big-endian quanta, zero
 * padding; destination address 01:80:C2:00:00:01.
 */
class PfcLayoutTestCase : public FluxHeaderTestCase
{
  public:
    PfcLayoutTestCase()
        : FluxHeaderTestCase("PFC: 46 bytes = 0x01 0x01 opcode, vector, 8 quanta, zero padding; "
                             "dst 01:80:C2:00:00:01")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(PfcHeader::ETHERTYPE, 0x8808, "EtherType");
        PfcHeader h;
        h.Pause(3, 0x1234);
        h.Pause(5, 0xABCD);
        h.SetQuanta(0, 0x0F0E); // not enabled, still on the wire
        std::vector<uint8_t> expected = {0x01,
                                         0x01,
                                         0x00,
                                         0x28,
                                         0x0F,
                                         0x0E,
                                         0x00,
                                         0x00,
                                         0x00,
                                         0x00,
                                         0x12,
                                         0x34,
                                         0x00,
                                         0x00,
                                         0xAB,
                                         0xCD};
        expected.resize(46, 0x00);
        CheckBytes(h, expected);

        uint8_t mac[6];
        PfcHeader::GetMulticastAddress().CopyTo(mac);
        const uint8_t expectedMac[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
        for (int i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(+mac[i], +expectedMac[i], "multicast address byte " << i);
        }
    }
};

/**
 * \ingroup flux-tests
 * PFC: a MAC control frame whose opcode is not 0x0101 (an 802.3x PAUSE) is
 * consumed whole but flagged: IsPfc() false, and it pauses no priority.
 */
class PfcOtherOpcodeTestCase : public FluxHeaderTestCase
{
  public:
    PfcOtherOpcodeTestCase()
        : FluxHeaderTestCase("PFC: opcode other than 0x0101 is flagged (IsPfc false) and pauses "
                             "nothing")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> bytes = {0x00, 0x01, 0x00, 0xFF, 0xFF, 0xFF};
        bytes.resize(46, 0x11);
        Ptr<Packet> p = FromBytes(bytes);
        PfcHeader h;
        uint32_t read = p->RemoveHeader(h);
        NS_TEST_EXPECT_MSG_EQ(read, 46, "the whole MAC control payload is consumed");
        NS_TEST_EXPECT_MSG_EQ(h.GetOpcode(), 0x0001, "GetOpcode reports the opcode read");
        NS_TEST_EXPECT_MSG_EQ(h.IsPfc(), false, "not a PFC frame");
        NS_TEST_EXPECT_MSG_EQ(+h.GetClassEnable(), 0, "no class enabled");
        for (uint8_t i = 0; i < 8; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h.IsPaused(i), false, "priority " << +i << " not paused");
        }

        // A PFC frame with a non-zero reserved high byte of the vector keeps
        // the low 8 bits.
        bytes = {0x01, 0x01, 0xAB, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09};
        bytes.resize(46, 0x00);
        PfcHeader g;
        FromBytes(bytes)->RemoveHeader(g);
        NS_TEST_EXPECT_MSG_EQ(g.IsPfc(), true, "PFC opcode");
        NS_TEST_EXPECT_MSG_EQ(+g.GetClassEnable(), 0x08, "reserved high byte dropped");
        NS_TEST_EXPECT_MSG_EQ(g.IsPaused(3), true, "priority 3 paused");
        NS_TEST_EXPECT_MSG_EQ(g.GetQuanta(3), 9, "priority 3 quanta");
    }
};

/**
 * \ingroup flux-tests
 * BTH: every field round-trips; DestQP and PSN are masked to 24 bits,
 * PadCnt to 2 and TVer to 4.
 */
class BthRoundTripTestCase : public FluxHeaderTestCase
{
  public:
    BthRoundTripTestCase()
        : FluxHeaderTestCase("BTH: all fields round-trip; DestQP and PSN masked to 24 bits, "
                             "PadCnt to 2, TVer to 4")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader def;
        NS_TEST_EXPECT_MSG_EQ(def.GetPkey(), 0xFFFF, "default P_Key");
        NS_TEST_EXPECT_MSG_EQ(IbBthHeader::UDP_PORT, 4791, "RoCEv2 UDP port");

        IbBthHeader in;
        in.SetOpcode(IbBthHeader::RDMA_WRITE_ONLY);
        in.SetSolicitedEvent(true);
        in.SetMigReq(true);
        in.SetPadCount(0xFE);
        in.SetTver(0x1A);
        in.SetPkey(0x8001);
        in.SetDestQp(0xFFABCDEF);
        in.SetAckReq(true);
        in.SetPsn(0x7F123456);
        NS_TEST_EXPECT_MSG_EQ(in.GetDestQp(), 0xABCDEF, "SetDestQp masks to 24 bits");
        NS_TEST_EXPECT_MSG_EQ(in.GetPsn(), 0x123456, "SetPsn masks to 24 bits");
        NS_TEST_EXPECT_MSG_EQ(+in.GetPadCount(), 2, "SetPadCount masks to 2 bits");
        NS_TEST_EXPECT_MSG_EQ(+in.GetTver(), 0xA, "SetTver masks to 4 bits");

        IbBthHeader out;
        RoundTrip(in, out);
        NS_TEST_EXPECT_MSG_EQ(+out.GetOpcode(), 0x0A, "opcode");
        NS_TEST_EXPECT_MSG_EQ(out.GetSolicitedEvent(), true, "SE");
        NS_TEST_EXPECT_MSG_EQ(out.GetMigReq(), true, "M");
        NS_TEST_EXPECT_MSG_EQ(+out.GetPadCount(), 2, "PadCnt");
        NS_TEST_EXPECT_MSG_EQ(+out.GetTver(), 0xA, "TVer");
        NS_TEST_EXPECT_MSG_EQ(out.GetPkey(), 0x8001, "P_Key");
        NS_TEST_EXPECT_MSG_EQ(out.GetDestQp(), 0xABCDEF, "DestQP");
        NS_TEST_EXPECT_MSG_EQ(out.GetAckReq(), true, "AckReq");
        NS_TEST_EXPECT_MSG_EQ(out.GetPsn(), 0x123456, "PSN");

        // Flags clear must come back clear (not stuck at their previous value).
        IbBthHeader clear;
        clear.SetOpcode(IbBthHeader::CNP);
        clear.SetPsn(0xFFFFFF);
        RoundTrip(clear, out);
        NS_TEST_EXPECT_MSG_EQ(out.GetOpcode(), IbBthHeader::CNP, "CNP opcode");
        NS_TEST_EXPECT_MSG_EQ(out.GetSolicitedEvent(), false, "SE clear");
        NS_TEST_EXPECT_MSG_EQ(out.GetMigReq(), false, "M clear");
        NS_TEST_EXPECT_MSG_EQ(out.GetAckReq(), false, "AckReq clear");
        NS_TEST_EXPECT_MSG_EQ(out.GetPsn(), 0xFFFFFF, "largest PSN");
        NS_TEST_EXPECT_MSG_EQ(out.GetDestQp(), 0, "QP 0");
    }
};

/**
 * \ingroup flux-tests
 * BTH: 12 bytes; opcode at byte 0, flags byte 1, P_Key bytes 2..3,
 * reserved byte 4, DestQP bytes 5..7, AckReq bit 7 of byte 8, PSN 9..11.
 */
class BthLayoutTestCase : public FluxHeaderTestCase
{
  public:
    BthLayoutTestCase()
        : FluxHeaderTestCase("BTH: 12 bytes = opcode@0, SE M Pad TVer@1, P_Key@2-3, DestQP@5-7, "
                             "A@8.7, PSN@9-11")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader h;
        h.SetOpcode(IbBthHeader::RDMA_WRITE_FIRST);
        h.SetSolicitedEvent(true);
        h.SetMigReq(true);
        h.SetPadCount(2);
        h.SetTver(1);
        h.SetPkey(0x1234);
        h.SetDestQp(0xABCDEF);
        h.SetAckReq(true);
        h.SetPsn(0x123456);
        CheckBytes(h, {0x06, 0xE1, 0x12, 0x34, 0x00, 0xAB, 0xCD, 0xEF, 0x80, 0x12, 0x34, 0x56});

        IbBthHeader ack;
        ack.SetOpcode(IbBthHeader::ACKNOWLEDGE);
        ack.SetDestQp(0x000102);
        ack.SetPsn(0x00FF00);
        CheckBytes(ack, {0x11, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0xFF, 0x00});

        // Reserved bits on the wire are ignored on reception.
        IbBthHeader r;
        FromBytes({0x81, 0x00, 0xFF, 0xFF, 0xC3, 0x00, 0x00, 0x07, 0x7F, 0x00, 0x00, 0x01})
            ->RemoveHeader(r);
        NS_TEST_EXPECT_MSG_EQ(r.GetOpcode(), IbBthHeader::CNP, "opcode 0x81");
        NS_TEST_EXPECT_MSG_EQ(r.GetDestQp(), 7, "reserved byte 4 not part of DestQP");
        NS_TEST_EXPECT_MSG_EQ(r.GetAckReq(), false, "reserved bits of byte 8 not AckReq");
        NS_TEST_EXPECT_MSG_EQ(r.GetPsn(), 1, "reserved bits of byte 8 not part of PSN");
    }
};

/**
 * \ingroup flux-tests
 * BTH opcode classes: IsFirst/IsLast/IsOnly/HasReth/HasAeth/HasImmediate
 * hold for exactly the opcodes the InfiniBand spec lists, over all 256
 * opcode values.
 */
class BthOpcodeClassTestCase : public TestCase
{
  public:
    BthOpcodeClassTestCase()
        : TestCase("BTH: IsFirst, IsLast, IsOnly, HasReth, HasAeth, HasImmediate hold for "
                   "exactly the spec's opcodes")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t op = 0; op < 256; ++op)
        {
            bool first = op == 0x00 || op == 0x06;
            bool last = op == 0x02 || op == 0x03 || op == 0x08 || op == 0x09;
            bool only = op == 0x04 || op == 0x05 || op == 0x0A || op == 0x0B;
            bool reth = op == 0x06 || op == 0x0A || op == 0x0B;
            bool aeth = op == 0x0D || op == 0x0F || op == 0x10 || op == 0x11 || op == 0x12;
            bool imm = op == 0x03 || op == 0x05 || op == 0x09 || op == 0x0B;
            uint8_t o = static_cast<uint8_t>(op);
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::IsFirst(o), first, "IsFirst(" << op << ")");
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::IsLast(o), last, "IsLast(" << op << ")");
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::IsOnly(o), only, "IsOnly(" << op << ")");
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::HasReth(o), reth, "HasReth(" << op << ")");
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::HasAeth(o), aeth, "HasAeth(" << op << ")");
            NS_TEST_EXPECT_MSG_EQ(IbBthHeader::HasImmediate(o), imm, "HasImm(" << op << ")");
        }
        NS_TEST_EXPECT_MSG_EQ(IbBthHeader::CNP_PAYLOAD_BYTES, 16, "CNP reserved bytes");
        NS_TEST_EXPECT_MSG_EQ(IbBthHeader::ICRC_BYTES, 4, "ICRC bytes");
    }
};

/**
 * \ingroup flux-tests
 * AETH: 4 bytes = syndrome then 24-bit MSN; ACK syndromes 0x00..0x1F, NAK
 * syndromes 0x60|code; round trip and 24-bit MSN mask.
 */
class AethTestCase : public FluxHeaderTestCase
{
  public:
    AethTestCase()
        : FluxHeaderTestCase(
              "AETH: 4 bytes = syndrome + 24-bit MSN; ACK 0x00-0x1F, NAK 0x60 + code; "
              "round trip")
    {
    }

  private:
    void DoRun() override
    {
        IbAethHeader ack;
        ack.SetAck();
        ack.SetMsn(0x01000001); // masked to 1
        NS_TEST_EXPECT_MSG_EQ(ack.GetMsn(), 1, "SetMsn masks to 24 bits");
        CheckBytes(ack, {0x1F, 0x00, 0x00, 0x01});
        NS_TEST_EXPECT_MSG_EQ(ack.IsAck(), true, "ACK is ACK");
        NS_TEST_EXPECT_MSG_EQ(ack.IsNak(), false, "ACK is not NAK");

        IbAethHeader nak;
        nak.SetNak();
        nak.SetMsn(0xABCDEF);
        CheckBytes(nak, {0x60, 0xAB, 0xCD, 0xEF});
        NS_TEST_EXPECT_MSG_EQ(nak.IsNak(), true, "NAK is NAK");
        NS_TEST_EXPECT_MSG_EQ(nak.IsAck(), false, "NAK is not ACK");

        IbAethHeader out;
        RoundTrip(nak, out);
        NS_TEST_EXPECT_MSG_EQ(+out.GetSyndrome(), 0x60, "NAK syndrome");
        NS_TEST_EXPECT_MSG_EQ(out.GetMsn(), 0xABCDEF, "MSN");
        NS_TEST_EXPECT_MSG_EQ(out.IsNak(), true, "NAK after round trip");

        nak.SetNak(IbAethHeader::NAK_REMOTE_ACCESS_ERROR);
        NS_TEST_EXPECT_MSG_EQ(+nak.GetSyndrome(), 0x62, "NAK code 2");
        NS_TEST_EXPECT_MSG_EQ(+nak.GetSyndromeValue(), 2, "NAK code value");
        ack.SetAck(0x05);
        NS_TEST_EXPECT_MSG_EQ(+ack.GetSyndrome(), 0x05, "ACK credit 5");
        RoundTrip(ack, out);
        NS_TEST_EXPECT_MSG_EQ(out.IsAck(), true, "ACK after round trip");
        NS_TEST_EXPECT_MSG_EQ(+out.GetSyndromeValue(), 5, "credit after round trip");

        IbAethHeader rnr;
        rnr.SetSyndrome(0x2E); // RNR NAK: neither ACK nor NAK
        NS_TEST_EXPECT_MSG_EQ(rnr.IsAck(), false, "RNR NAK is not ACK");
        NS_TEST_EXPECT_MSG_EQ(rnr.IsNak(), false, "RNR NAK is not NAK");
    }
};

/**
 * \ingroup flux-tests
 * RETH: 16 bytes = 64-bit virtual address, 32-bit R_Key, 32-bit DMA length,
 * big-endian; round trip.
 */
class RethTestCase : public FluxHeaderTestCase
{
  public:
    RethTestCase()
        : FluxHeaderTestCase("RETH: 16 bytes = VA(64) R_Key(32) DMA length(32) big-endian; "
                             "round trip")
    {
    }

  private:
    void DoRun() override
    {
        IbRethHeader in;
        in.SetVirtualAddress(0x0123456789ABCDEFULL);
        in.SetRKey(0xDEADBEEF);
        in.SetDmaLength(0x00100004);
        CheckBytes(in,
                   {0x01,
                    0x23,
                    0x45,
                    0x67,
                    0x89,
                    0xAB,
                    0xCD,
                    0xEF,
                    0xDE,
                    0xAD,
                    0xBE,
                    0xEF,
                    0x00,
                    0x10,
                    0x00,
                    0x04});
        IbRethHeader out;
        RoundTrip(in, out);
        NS_TEST_EXPECT_MSG_EQ(out.GetVirtualAddress(), 0x0123456789ABCDEFULL, "VA");
        NS_TEST_EXPECT_MSG_EQ(out.GetRKey(), 0xDEADBEEF, "R_Key");
        NS_TEST_EXPECT_MSG_EQ(out.GetDmaLength(), 0x00100004, "DMA length");
    }
};

/**
 * \ingroup flux-tests
 * RoCEv2 transport stack: BTH + RETH + payload + ICRC, and BTH + AETH +
 * ICRC, parse back in order, with the sizes of the standard.
 */
class RoceStackTestCase : public TestCase
{
  public:
    RoceStackTestCase()
        : TestCase("RoCEv2: BTH+RETH+payload+ICRC and BTH+AETH+ICRC parse back in order with "
                   "12, 16 and 4-byte headers")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t payload = 1000;
        Ptr<Packet> p = Create<Packet>(payload + IbBthHeader::ICRC_BYTES);
        IbRethHeader reth;
        reth.SetDmaLength(3 * payload);
        p->AddHeader(reth);
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RDMA_WRITE_FIRST);
        bth.SetPsn(0xFFFFFE);
        bth.SetDestQp(42);
        p->AddHeader(bth);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 12 + 16 + payload + 4, "BTH 12 + RETH 16 + ICRC 4");

        IbBthHeader bthOut;
        p->RemoveHeader(bthOut);
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasReth(bthOut.GetOpcode()), true, "RETH expected");
        IbRethHeader rethOut;
        p->RemoveHeader(rethOut);
        NS_TEST_EXPECT_MSG_EQ(rethOut.GetDmaLength(), 3 * payload, "RETH after BTH");
        NS_TEST_EXPECT_MSG_EQ(bthOut.GetPsn(), 0xFFFFFE, "PSN");
        NS_TEST_EXPECT_MSG_EQ(bthOut.GetDestQp(), 42, "QP");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), payload + IbBthHeader::ICRC_BYTES, "payload + ICRC");

        Ptr<Packet> a = Create<Packet>(IbBthHeader::ICRC_BYTES);
        IbAethHeader aeth;
        aeth.SetNak();
        aeth.SetMsn(9);
        a->AddHeader(aeth);
        bth.SetOpcode(IbBthHeader::ACKNOWLEDGE);
        a->AddHeader(bth);
        NS_TEST_EXPECT_MSG_EQ(a->GetSize(), 12 + 4 + 4, "BTH 12 + AETH 4 + ICRC 4");
        a->RemoveHeader(bthOut);
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasAeth(bthOut.GetOpcode()), true, "AETH expected");
        IbAethHeader aethOut;
        a->RemoveHeader(aethOut);
        NS_TEST_EXPECT_MSG_EQ(aethOut.IsNak(), true, "NAK");
        NS_TEST_EXPECT_MSG_EQ(aethOut.GetMsn(), 9, "MSN");
    }
};

/**
 * \ingroup flux-tests
 * The suite of wire-header unit tests.
 */
class FluxHeadersTestSuite : public TestSuite
{
  public:
    FluxHeadersTestSuite()
        : TestSuite("flux-headers", TestSuite::Type::UNIT)
    {
        AddTestCase(new VlanTagRoundTripTestCase);
        AddTestCase(new VlanTagLayoutTestCase);
        AddTestCase(new PfcRoundTripTestCase);
        AddTestCase(new PfcLayoutTestCase);
        AddTestCase(new PfcOtherOpcodeTestCase);
        AddTestCase(new BthRoundTripTestCase);
        AddTestCase(new BthLayoutTestCase);
        AddTestCase(new BthOpcodeClassTestCase);
        AddTestCase(new AethTestCase);
        AddTestCase(new RethTestCase);
        AddTestCase(new RoceStackTestCase);
    }
};

static FluxHeadersTestSuite g_fluxHeadersTestSuite; //!< Static variable for test initialization
