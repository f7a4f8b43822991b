/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_BTH_HEADER_H
#define IB_BTH_HEADER_H

#include "ns3/header.h"
#include "ns3/traffic-class.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-rdma
 *
 * \brief InfiniBand Base Transport Header (BTH), the first header of every
 * RoCEv2 packet after UDP (destination port 4791).
 *
 * \verbatim
    0                   1                   2                   3
    0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |    OpCode     |S|M|Pad| TVer  |         Partition Key         |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |   Reserved    |            Destination QP                     |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   |A|  Reserved   |          Packet Sequence Number               |
   +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
   \endverbatim
 *
 * The reserved byte 4 is written as zero and ignored on reception.
 *
 * A RoCEv2 packet is, after the UDP header:
 * BTH, then RETH (IbRethHeader) if HasReth(opcode), AETH (IbAethHeader) if
 * HasAeth(opcode), 4 bytes of immediate data if HasImmediate(opcode), then
 * the payload, then the 4-byte invariant CRC (ICRC).
 *
 * \par Congestion notification packet (CNP)
 * A CNP is a BTH with opcode CNP (0x81), the destination QP of the flow's
 * sender and PSN 0, followed by CNP_PAYLOAD_BYTES (16) reserved zero bytes
 * and the ICRC.
 *
 * \par ICRC
 * The ICRC is carried as ICRC_BYTES (4) zero bytes at the end of the
 * packet's payload, not as an ns3::Trailer: a packet built as
 * `Create<Packet>(payloadBytes + IbBthHeader::ICRC_BYTES)` gets them for
 * free (ns-3 keeps zero-filled payload as a virtual zero area, without
 * memory or metadata), whereas a Trailer costs an AddTrailer/RemoveTrailer
 * and a buffer copy per packet and hop. The value is not computed: nothing
 * in the simulation corrupts bytes, and tshark decodes the packets without
 * checking the ICRC (it shows it as infiniband.invariant.crc = 0).
 *
 * Setters keep only the bits that fit the field: DestQP and PSN 24 bits,
 * PadCnt 2 bits, TVer 4 bits.
 */
class IbBthHeader : public Header
{
  public:
    /**
     * \brief BTH opcodes of the reliable connection (RC) transport and the
     * RoCEv2 congestion notification packet.
     */
    enum Opcode : uint8_t
    {
        SEND_FIRST = 0x00,          //!< SEND, first packet of a message
        SEND_MIDDLE = 0x01,         //!< SEND, middle packet
        SEND_LAST = 0x02,           //!< SEND, last packet
        SEND_LAST_IMM = 0x03,       //!< SEND, last packet, with immediate data
        SEND_ONLY = 0x04,           //!< SEND, single-packet message
        SEND_ONLY_IMM = 0x05,       //!< SEND, single packet, with immediate data
        RDMA_WRITE_FIRST = 0x06,    //!< RDMA WRITE, first packet (with RETH)
        RDMA_WRITE_MIDDLE = 0x07,   //!< RDMA WRITE, middle packet
        RDMA_WRITE_LAST = 0x08,     //!< RDMA WRITE, last packet
        RDMA_WRITE_LAST_IMM = 0x09, //!< RDMA WRITE, last packet, with immediate data
        RDMA_WRITE_ONLY = 0x0A,     //!< RDMA WRITE, single packet (with RETH)
        RDMA_WRITE_ONLY_IMM = 0x0B, //!< RDMA WRITE, single packet (RETH, immediate)
        ACKNOWLEDGE = 0x11,         //!< ACK or NAK (with AETH)
        CNP = 0x81,                 //!< RoCEv2 congestion notification packet
    };

    static constexpr uint16_t UDP_PORT = 4791;              //!< RoCEv2 UDP destination port
    static constexpr uint16_t DEFAULT_PKEY = 0xFFFF;        //!< Default partition key
    static constexpr uint32_t SIZE = WireBytes::BTH;        //!< Serialized size in bytes
    static constexpr uint32_t CNP_PAYLOAD_BYTES = 16;       //!< Reserved bytes after a CNP's BTH
    static constexpr uint32_t ICRC_BYTES = WireBytes::ICRC; //!< ICRC bytes at the end of a packet
    static constexpr uint32_t IMMEDIATE_BYTES = 4;          //!< Immediate data after BTH/RETH
    static constexpr uint32_t PSN_MASK = 0x00FFFFFF;        //!< PSNs are 24 bits
    static constexpr uint32_t QP_MASK = 0x00FFFFFF;         //!< QP numbers are 24 bits

    /**
     * \brief Construct a BTH: opcode SEND_FIRST, all flags clear,
     * P_Key DEFAULT_PKEY, QP 0, PSN 0.
     */
    IbBthHeader();

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
     * \param opcode the opcode (an Opcode or any other 8-bit value)
     */
    void SetOpcode(uint8_t opcode);
    /**
     * \return the opcode
     */
    Opcode GetOpcode() const;
    /**
     * \param se solicited event flag
     */
    void SetSolicitedEvent(bool se);
    /**
     * \return the solicited event flag
     */
    bool GetSolicitedEvent() const;
    /**
     * \param m migration request flag
     */
    void SetMigReq(bool m);
    /**
     * \return the migration request flag
     */
    bool GetMigReq() const;
    /**
     * \param padCnt number of pad bytes before the ICRC (0..3)
     */
    void SetPadCount(uint8_t padCnt);
    /**
     * \return the number of pad bytes before the ICRC (0..3)
     */
    uint8_t GetPadCount() const;
    /**
     * \param tver transport header version (0..15)
     */
    void SetTver(uint8_t tver);
    /**
     * \return the transport header version (0..15)
     */
    uint8_t GetTver() const;
    /**
     * \param pkey partition key
     */
    void SetPkey(uint16_t pkey);
    /**
     * \return the partition key
     */
    uint16_t GetPkey() const;
    /**
     * \param qp destination queue pair number (24 bits; higher bits are dropped)
     */
    void SetDestQp(uint32_t qp);
    /**
     * \return the destination queue pair number (24 bits)
     */
    uint32_t GetDestQp() const;
    /**
     * \param ackReq acknowledge request flag: the responder should ACK this packet
     */
    void SetAckReq(bool ackReq);
    /**
     * \return the acknowledge request flag
     */
    bool GetAckReq() const;
    /**
     * \param psn packet sequence number (24 bits; higher bits are dropped)
     */
    void SetPsn(uint32_t psn);
    /**
     * \return the packet sequence number (24 bits)
     */
    uint32_t GetPsn() const;

    /**
     * \param opcode an opcode
     * \return true for the first packet of a multi-packet SEND or RDMA WRITE
     */
    static bool IsFirst(uint8_t opcode);
    /**
     * \param opcode an opcode
     * \return true for the last packet of a multi-packet SEND or RDMA WRITE
     */
    static bool IsLast(uint8_t opcode);
    /**
     * \param opcode an opcode
     * \return true for the single packet of a SEND or RDMA WRITE message
     */
    static bool IsOnly(uint8_t opcode);
    /**
     * \param opcode an opcode
     * \return true if an RDMA extended transport header (IbRethHeader)
     *         follows the BTH: RDMA WRITE first, only and only with immediate
     */
    static bool HasReth(uint8_t opcode);
    /**
     * \param opcode an opcode
     * \return true if an ACK extended transport header (IbAethHeader)
     *         follows the BTH: Acknowledge, and the RDMA READ response and
     *         atomic acknowledge opcodes that carry it
     */
    static bool HasAeth(uint8_t opcode);
    /**
     * \param opcode an opcode
     * \return true if 4 bytes of immediate data follow the BTH (and RETH):
     *         the "with immediate" SEND and RDMA WRITE opcodes
     */
    static bool HasImmediate(uint8_t opcode);

  private:
    uint8_t m_opcode;  //!< Opcode
    bool m_se;         //!< Solicited event
    bool m_migReq;     //!< Migration request
    uint8_t m_padCnt;  //!< Pad count, 2 bits
    uint8_t m_tver;    //!< Transport header version, 4 bits
    uint16_t m_pkey;   //!< Partition key
    uint32_t m_destQp; //!< Destination QP, 24 bits
    bool m_ackReq;     //!< Acknowledge request
    uint32_t m_psn;    //!< Packet sequence number, 24 bits
};

} // namespace ns3

#endif /* IB_BTH_HEADER_H */
