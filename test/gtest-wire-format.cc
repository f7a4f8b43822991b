/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Wire-format check against an independent decoder: frames built from the
// module's headers (and ns-3's Ethernet, IPv4 and UDP headers) are written to
// an Ethernet pcap, decoded by tshark, and tshark must report exactly the
// field values that were written. A byte in the wrong place, a wrong length
// or a bad IPv4 checksum makes tshark decode other values, or flag the frame.
//
// tshark is required: without it the test fails, unless FLUX_NO_TSHARK=1 is
// set in the environment, which skips it.

#include "ns3/ethernet-header.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/pcap-file.h"
#include "ns3/pfc-header.h"
#include "ns3/udp-header.h"
#include "ns3/vlan-tag-header.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint32_t DLT_EN10MB = 1;     //!< pcap link type of Ethernet
constexpr uint8_t DATA_PCP = 3;        //!< VLAN priority of every RoCEv2 frame
constexpr uint16_t IPV4_TYPE = 0x0800; //!< EtherType of IPv4

/// One RoCEv2 frame to write, with the values tshark must decode.
struct RoceFrame
{
    uint8_t opcode;        //!< BTH opcode
    uint32_t destQp;       //!< BTH destination QP
    uint32_t psn;          //!< BTH PSN
    bool ackReq;           //!< BTH AckReq
    uint16_t srcPort;      //!< UDP source port (flow entropy)
    uint32_t payloadBytes; //!< Payload bytes after the transport headers
    uint8_t syndrome;      //!< AETH syndrome, if the opcode has an AETH
    uint32_t msn;          //!< AETH MSN, if the opcode has an AETH
    uint64_t va;           //!< RETH virtual address, if the opcode has a RETH
    uint32_t rkey;         //!< RETH R_Key, if the opcode has a RETH
    uint32_t dmaLength;    //!< RETH DMA length, if the opcode has a RETH
};

/// The RoCEv2 frames of the capture, in order.
const std::vector<RoceFrame> kRoceFrames = {
    // opcode, qp, psn, ackReq, sport, payload, syndrome, msn, va, rkey, dmalen
    {IbBthHeader::RDMA_WRITE_FIRST,
     0xABCDEF,
     0x123456,
     false,
     0xC001,
     1024,
     0,
     0,
     0x00007F0012345000ULL,
     0xDEADBEEF,
     3 * 1024},
    {IbBthHeader::SEND_ONLY, 0x000102, 0xFFFFFF, true, 0xC002, 200, 0, 0, 0, 0, 0},
    {IbBthHeader::ACKNOWLEDGE, 0x00A0B0, 0x123457, false, 0xC003, 0, 0x1F, 0x000007, 0, 0, 0},
    {IbBthHeader::ACKNOWLEDGE, 0x00A0B0, 0x000010, false, 0xC004, 0, 0x60, 0xFEDCBA, 0, 0, 0},
    {IbBthHeader::CNP, 0x654321, 0, false, 0xC005, IbBthHeader::CNP_PAYLOAD_BYTES, 0, 0, 0, 0, 0},
};

constexpr uint8_t kPfcEnable = (1 << 3) | (1 << 5); //!< PFC frame: priorities 3 and 5
constexpr uint16_t kPfcQuanta3 = 0x1234;            //!< PFC frame: quanta of priority 3
constexpr uint16_t kPfcQuanta5 = 0x00FF;            //!< PFC frame: quanta of priority 5

/**
 * \param f the frame's values
 * \return the Ethernet frame (without FCS)
 */
Ptr<Packet>
BuildRoceFrame(const RoceFrame& f)
{
    // Payload bytes 0x01, 0x02, ... (a CNP's reserved bytes stay zero), then
    // the ICRC as 4 zero bytes.
    std::vector<uint8_t> bytes(f.payloadBytes + IbBthHeader::ICRC_BYTES, 0);
    for (uint32_t i = 0; f.opcode != IbBthHeader::CNP && i < f.payloadBytes; ++i)
    {
        bytes[i] = static_cast<uint8_t>(1 + i % 255);
    }
    Ptr<Packet> p = Create<Packet>(bytes.data(), bytes.size());
    if (IbBthHeader::HasAeth(f.opcode))
    {
        IbAethHeader aeth;
        aeth.SetSyndrome(f.syndrome);
        aeth.SetMsn(f.msn);
        p->AddHeader(aeth);
    }
    if (IbBthHeader::HasReth(f.opcode))
    {
        IbRethHeader reth;
        reth.SetVirtualAddress(f.va);
        reth.SetRKey(f.rkey);
        reth.SetDmaLength(f.dmaLength);
        p->AddHeader(reth);
    }
    IbBthHeader bth;
    bth.SetOpcode(f.opcode);
    bth.SetDestQp(f.destQp);
    bth.SetPsn(f.psn);
    bth.SetAckReq(f.ackReq);
    p->AddHeader(bth);

    UdpHeader udp; // checksum left zero, as RoCEv2 allows
    udp.SetSourcePort(f.srcPort);
    udp.SetDestinationPort(IbBthHeader::UDP_PORT);
    p->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetTtl(64);
    ip.SetDontFragment();
    ip.SetDscp(Ipv4Header::DSCP_CS3);
    ip.SetEcn(Ipv4Header::ECN_ECT0);
    ip.SetPayloadSize(p->GetSize());
    ip.EnableChecksum();
    p->AddHeader(ip);

    p->AddHeader(VlanTagHeader(DATA_PCP, 0, IPV4_TYPE));

    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    eth.SetLengthType(VlanTagHeader::TPID);
    p->AddHeader(eth);
    return p;
}

/**
 * \return the PFC frame pausing priorities 3 and 5
 */
Ptr<Packet>
BuildPfcFrame()
{
    Ptr<Packet> p = Create<Packet>();
    PfcHeader pfc;
    pfc.Pause(3, kPfcQuanta3);
    pfc.Pause(5, kPfcQuanta5);
    p->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:02"));
    eth.SetDestination(PfcHeader::GetMulticastAddress());
    eth.SetLengthType(PfcHeader::ETHERTYPE);
    p->AddHeader(eth);
    return p;
}

/**
 * \param cmd a shell command
 * \param[out] exitCode its exit code (-1 if it did not exit normally)
 * \return its standard output
 */
std::string
RunCommand(const std::string& cmd, int& exitCode)
{
    std::string out;
    FILE* pipe = popen(cmd.c_str(), "r");
    if (pipe == nullptr)
    {
        exitCode = -1;
        return out;
    }
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0)
    {
        out.append(buf, n);
    }
    int status = pclose(pipe);
    exitCode = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    return out;
}

/**
 * \param s a string
 * \param sep a separator
 * \return the pieces of s between separators (empty pieces kept)
 */
std::vector<std::string>
Split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep))
    {
        parts.push_back(part);
    }
    if (!s.empty() && s.back() == sep)
    {
        parts.emplace_back();
    }
    return parts;
}

/**
 * \param s a decimal or 0x-prefixed hexadecimal number as tshark prints it
 * \return its value
 */
uint64_t
ToNumber(const std::string& s)
{
    return std::strtoull(s.c_str(), nullptr, 0);
}

/**
 * \return true if a program named tshark is on the PATH
 */
bool
HaveTshark()
{
    return std::system("command -v tshark >/dev/null 2>&1") == 0;
}

/// Decoded fields of one frame, by tshark field name.
using Fields = std::map<std::string, std::string>;

/**
 * Writes the capture into a fresh temporary directory; removes it after a
 * passing test and keeps it (its path is printed) after a failing one.
 */
class WireFormatTest : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/flux-wire-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr) << "mkdtemp failed";
        m_dir = tmpl;
        m_pcap = m_dir + "/roce-pfc.pcap";

        PcapFile file;
        file.Open(m_pcap, std::ios::out);
        ASSERT_FALSE(file.Fail()) << "cannot create " << m_pcap;
        file.Init(DLT_EN10MB, 65535);
        uint32_t usec = 0;
        for (const auto& f : kRoceFrames)
        {
            file.Write(0, usec++, BuildRoceFrame(f));
        }
        file.Write(0, usec++, BuildPfcFrame());
        ASSERT_FALSE(file.Fail()) << "cannot write " << m_pcap;
        file.Close();
    }

    void TearDown() override
    {
        if (HasFailure())
        {
            std::cerr << "capture kept in " << m_dir << std::endl;
            return;
        }
        std::remove(m_pcap.c_str());
        std::remove((m_dir + "/tshark.err").c_str());
        rmdir(m_dir.c_str());
    }

    /**
     * \brief Decode the capture with tshark.
     * \param fields the tshark field names to print
     * \param[out] frames one map per frame, field name to value (all
     *             occurrences joined by ',')
     */
    void Decode(const std::vector<std::string>& fields, std::vector<Fields>& frames)
    {
        std::string cmd = "tshark -n -o ip.check_checksum:TRUE -r '" + m_pcap +
                          "' -T fields -E separator=/t -E occurrence=a -E aggregator=,";
        for (const auto& f : fields)
        {
            cmd += " -e " + f;
        }
        cmd += " 2>'" + m_dir + "/tshark.err'";
        int exitCode = 0;
        std::string out = RunCommand(cmd, exitCode);
        ASSERT_EQ(exitCode, 0) << "tshark failed: " << cmd << "\nsee " << m_dir << "/tshark.err";
        frames.clear();
        for (const auto& line : Split(out, '\n'))
        {
            if (line.empty())
            {
                continue;
            }
            std::vector<std::string> values = Split(line, '\t');
            ASSERT_EQ(values.size(), fields.size()) << "tshark line: " << line;
            Fields frame;
            for (size_t i = 0; i < fields.size(); ++i)
            {
                frame[fields[i]] = values[i];
            }
            frames.push_back(frame);
        }
    }

    std::string m_dir;  //!< Temporary directory
    std::string m_pcap; //!< Capture file in m_dir
};

/// Skip when FLUX_NO_TSHARK=1; fail with a clear message when tshark is missing.
#define FLUX_REQUIRE_TSHARK()                                                                      \
    do                                                                                             \
    {                                                                                              \
        const char* noTshark = std::getenv("FLUX_NO_TSHARK");                                      \
        if (noTshark != nullptr && std::string(noTshark) == "1")                                   \
        {                                                                                          \
            GTEST_SKIP() << "FLUX_NO_TSHARK=1: tshark decoding not checked";                       \
        }                                                                                          \
        if (!HaveTshark())                                                                         \
        {                                                                                          \
            FAIL() << "tshark is not installed (not on PATH); it is needed to check the wire "     \
                      "format. Install it (Debian: apt-get install tshark) or set "                \
                      "FLUX_NO_TSHARK=1 to skip this test.";                                       \
        }                                                                                          \
    } while (false)

// Property: tshark decodes every RoCEv2 frame as 802.1Q (PCP 3, inner IPv4) /
// IPv4 (DSCP CS3, ECT(0), good checksum) / UDP 4791 / BTH with exactly the
// opcode, QP, PSN and AckReq written, RETH and AETH with the values written,
// the payload length written, and nothing malformed.
TEST_F(WireFormatTest, TsharkDecodesRoceV2FramesAsWritten)
{
    FLUX_REQUIRE_TSHARK();
    const std::vector<std::string> fieldNames = {
        "frame.number",
        "vlan.priority",
        "vlan.id",
        "vlan.etype",
        "ip.dsfield.dscp",
        "ip.dsfield.ecn",
        "ip.len",
        "ip.checksum.status",
        "udp.srcport",
        "udp.dstport",
        "udp.length",
        "infiniband.bth.opcode",
        "infiniband.bth.destqp",
        "infiniband.bth.psn",
        "infiniband.bth.a",
        "infiniband.bth.p_key",
        "infiniband.reth.va",
        "infiniband.reth.r_key",
        "infiniband.reth.dmalen",
        "infiniband.aeth.syndrome",
        "infiniband.aeth.msn",
        "infiniband.invariant.crc",
        "infiniband.vendor",
        "data.len",
        "data.data",
        "_ws.malformed",
    };
    std::vector<Fields> frames;
    ASSERT_NO_FATAL_FAILURE(Decode(fieldNames, frames));
    ASSERT_EQ(frames.size(), kRoceFrames.size() + 1) << "tshark frame count";

    for (size_t i = 0; i < kRoceFrames.size(); ++i)
    {
        const RoceFrame& f = kRoceFrames[i];
        const Fields& d = frames[i];
        SCOPED_TRACE("frame " + d.at("frame.number") + ", opcode " + std::to_string(f.opcode));
        uint32_t transport = IbBthHeader::SIZE +
                             (IbBthHeader::HasReth(f.opcode) ? IbRethHeader::SIZE : 0) +
                             (IbBthHeader::HasAeth(f.opcode) ? IbAethHeader::SIZE : 0) +
                             f.payloadBytes + IbBthHeader::ICRC_BYTES;

        EXPECT_EQ(ToNumber(d.at("vlan.priority")), DATA_PCP);
        EXPECT_EQ(ToNumber(d.at("vlan.id")), 0u);
        EXPECT_EQ(ToNumber(d.at("vlan.etype")), IPV4_TYPE);
        EXPECT_EQ(ToNumber(d.at("ip.dsfield.dscp")), Ipv4Header::DSCP_CS3);
        EXPECT_EQ(ToNumber(d.at("ip.dsfield.ecn")), Ipv4Header::ECN_ECT0);
        EXPECT_EQ(ToNumber(d.at("ip.len")), 20u + 8u + transport);
        EXPECT_EQ(ToNumber(d.at("ip.checksum.status")), 1u) << "1 = Good";
        EXPECT_EQ(ToNumber(d.at("udp.srcport")), f.srcPort);
        EXPECT_EQ(ToNumber(d.at("udp.dstport")), IbBthHeader::UDP_PORT);
        EXPECT_EQ(ToNumber(d.at("udp.length")), 8u + transport);

        ASSERT_FALSE(d.at("infiniband.bth.opcode").empty()) << "no BTH decoded";
        EXPECT_EQ(ToNumber(d.at("infiniband.bth.opcode")), f.opcode);
        EXPECT_EQ(ToNumber(d.at("infiniband.bth.destqp")), f.destQp);
        EXPECT_EQ(ToNumber(d.at("infiniband.bth.psn")), f.psn);
        EXPECT_EQ(ToNumber(d.at("infiniband.bth.a")), f.ackReq ? 1u : 0u);
        EXPECT_EQ(ToNumber(d.at("infiniband.bth.p_key")), IbBthHeader::DEFAULT_PKEY);

        if (IbBthHeader::HasReth(f.opcode))
        {
            EXPECT_EQ(ToNumber(d.at("infiniband.reth.va")), f.va);
            EXPECT_EQ(ToNumber(d.at("infiniband.reth.r_key")), f.rkey);
            EXPECT_EQ(ToNumber(d.at("infiniband.reth.dmalen")), f.dmaLength);
        }
        else
        {
            EXPECT_EQ(d.at("infiniband.reth.va"), "") << "RETH decoded where none was written";
        }
        if (IbBthHeader::HasAeth(f.opcode))
        {
            EXPECT_EQ(ToNumber(d.at("infiniband.aeth.syndrome")), f.syndrome);
            EXPECT_EQ(ToNumber(d.at("infiniband.aeth.msn")), f.msn);
        }
        else
        {
            EXPECT_EQ(d.at("infiniband.aeth.syndrome"), "")
                << "AETH decoded where none was written";
        }
        if (f.opcode == IbBthHeader::CNP)
        {
            EXPECT_EQ(d.at("data.len"), "") << "a CNP carries no payload";
            if (d.at("infiniband.invariant.crc").empty())
            {
                // tshark 4.0 does not know opcode 0x81: it shows what follows
                // the BTH (16 reserved bytes and the ICRC) as one block of
                // unknown data, the last occurrence of infiniband.vendor.
                const std::string& v = d.at("infiniband.vendor");
                std::string rest =
                    v.substr(v.rfind(',') == std::string::npos ? 0 : v.rfind(',') + 1);
                EXPECT_EQ(
                    rest,
                    std::string(2 * (IbBthHeader::CNP_PAYLOAD_BYTES + IbBthHeader::ICRC_BYTES),
                                '0'))
                    << "CNP: 16 reserved zero bytes and a zero ICRC after the BTH";
            }
            else
            {
                EXPECT_EQ(ToNumber(d.at("infiniband.invariant.crc")), 0u);
            }
            EXPECT_EQ(d.at("_ws.malformed"), "") << "tshark flags the frame as malformed";
            continue;
        }
        ASSERT_FALSE(d.at("infiniband.invariant.crc").empty()) << "no ICRC decoded";
        EXPECT_EQ(ToNumber(d.at("infiniband.invariant.crc")), 0u);
        if (f.payloadBytes > 0)
        {
            // The payload, byte for byte: tshark found the end of the
            // transport headers and took exactly the last 4 bytes as ICRC.
            EXPECT_EQ(ToNumber(d.at("data.len")), f.payloadBytes);
            std::string hex;
            char byte[3];
            for (uint32_t k = 0; k < f.payloadBytes; ++k)
            {
                std::snprintf(byte, sizeof(byte), "%02x", 1 + k % 255);
                hex += byte;
            }
            EXPECT_EQ(d.at("data.data"), hex) << "payload bytes";
        }
        else
        {
            EXPECT_EQ(d.at("data.len"), "") << "payload decoded where none was written";
        }
        EXPECT_EQ(d.at("_ws.malformed"), "") << "tshark flags the frame as malformed";
    }
}

// Property: tshark decodes the PFC frame as a MAC control frame with opcode
// 0x0101, the class-enable vector of priorities 3 and 5, and exactly the
// quanta written for every priority (0 where none was set), sent to
// 01:80:c2:00:00:01, without VLAN tag and nothing malformed.
TEST_F(WireFormatTest, TsharkDecodesPfcFrameAsWritten)
{
    FLUX_REQUIRE_TSHARK();
    std::vector<std::string> fieldNames = {
        "frame.number",
        "eth.dst",
        "eth.type",
        "vlan.priority",
        "macc.opcode",
        "macc.cbfc.enbv",
        "macc.dst_address_invalid",
        "macc.cbfc.enbv.not_zero",
        "_ws.malformed",
    };
    for (int prio = 0; prio < 8; ++prio)
    {
        fieldNames.push_back("macc.cbfc.pause_time.c" + std::to_string(prio));
    }
    std::vector<Fields> frames;
    ASSERT_NO_FATAL_FAILURE(Decode(fieldNames, frames));
    ASSERT_EQ(frames.size(), kRoceFrames.size() + 1) << "tshark frame count";

    const Fields& d = frames.back();
    EXPECT_EQ(d.at("eth.dst"), "01:80:c2:00:00:01");
    EXPECT_EQ(ToNumber(d.at("eth.type")), PfcHeader::ETHERTYPE);
    EXPECT_EQ(d.at("vlan.priority"), "") << "PFC frames are never VLAN-tagged";
    EXPECT_EQ(ToNumber(d.at("macc.opcode")), PfcHeader::OPCODE);
    EXPECT_EQ(ToNumber(d.at("macc.cbfc.enbv")), kPfcEnable);
    for (int prio = 0; prio < 8; ++prio)
    {
        uint16_t expected = prio == 3 ? kPfcQuanta3 : (prio == 5 ? kPfcQuanta5 : 0);
        const std::string field = "macc.cbfc.pause_time.c" + std::to_string(prio);
        ASSERT_FALSE(d.at(field).empty()) << field << " not decoded";
        EXPECT_EQ(ToNumber(d.at(field)), expected) << field;
    }
    EXPECT_EQ(d.at("macc.dst_address_invalid"), "");
    EXPECT_EQ(d.at("macc.cbfc.enbv.not_zero"), "");
    EXPECT_EQ(d.at("_ws.malformed"), "");
}

} // namespace
