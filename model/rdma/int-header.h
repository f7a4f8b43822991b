/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INT_HEADER_H
#define INT_HEADER_H

#include "ns3/header.h"
#include "ns3/nstime.h"

#include <array>
#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup flux-rdma
 * \brief One hop's in-band network telemetry record, 8 bytes on the wire.
 *
 * The layout and units are those of the HPCC authors' simulator (HPCC,
 * Li et al., SIGCOMM 2019), packed into one big-endian 64-bit word:
 *
 * \verbatim
   63   61 60                     37 36               17 16             0
   +------+-------------------------+-------------------+----------------+
   | rate |   timestamp (24 bits)   | txBytes (20 bits) | qLen (17 bits) |
   +------+-------------------------+-------------------+----------------+
   \endverbatim
 *
 * - rate: a 3-bit code of the egress port's line rate (LINE_RATES);
 * - timestamp: the time the packet left the port, in ns, modulo 2^24;
 * - txBytes: the port's cumulative transmitted bytes, in units of
 *   BYTE_UNIT x multiplier, modulo 2^20;
 * - qLen: the port's egress queue bytes, in units of QLEN_UNIT x
 *   multiplier, saturating at 2^17 - 1.
 *
 * The multiplier (the HPCC simulator's "INT multiplier", line rate / 25G)
 * travels in the IntHeader's fixed part, so every record is self-describing.
 * Differences of wrapping fields are taken modulo their width.
 */
class IntHop
{
  public:
    static constexpr uint32_t TIME_BITS = 24;  //!< timestamp width
    static constexpr uint32_t BYTES_BITS = 20; //!< txBytes width
    static constexpr uint32_t QLEN_BITS = 17;  //!< qLen width
    static constexpr uint32_t BYTE_UNIT = 128; //!< txBytes unit, bytes (x multiplier)
    static constexpr uint32_t QLEN_UNIT = 80;  //!< qLen unit, bytes (x multiplier)
    /// Line rates of the 3-bit code, bit/s: the HPCC simulator's six, plus 40G and 800G.
    static const std::array<uint64_t, 8> LINE_RATES;

    IntHop();

    /**
     * \brief Fill the record.
     * \param lineRateBps the port's line rate (the nearest LINE_RATES entry is coded)
     * \param timeNs the time, ns
     * \param txBytes the port's cumulative transmitted bytes
     * \param qlenBytes the port's queue bytes
     * \param multiplier the unit multiplier (>= 1)
     */
    void Set(uint64_t lineRateBps,
             uint64_t timeNs,
             uint64_t txBytes,
             uint64_t qlenBytes,
             uint32_t multiplier);

    /** \return the line rate, bit/s */
    uint64_t GetLineRateBps() const;
    /** \return the timestamp field, ns modulo 2^24 */
    uint32_t GetTimeField() const;
    /** \return the txBytes field, units */
    uint32_t GetBytesField() const;
    /** \return the qLen field, units */
    uint32_t GetQlenField() const;
    /**
     * \param multiplier the unit multiplier
     * \return the queue length, bytes
     */
    uint64_t GetQlenBytes(uint32_t multiplier) const;
    /**
     * \param older the same hop's record in an earlier packet
     * \return the time between the two records, ns
     */
    uint64_t GetTimeDelta(const IntHop& older) const;
    /**
     * \param older the same hop's record in an earlier packet
     * \param multiplier the unit multiplier
     * \return the bytes sent by the port between the two records
     */
    uint64_t GetBytesDelta(const IntHop& older, uint32_t multiplier) const;

    /**
     * \param bps a line rate
     * \return its 3-bit code (the nearest LINE_RATES entry)
     */
    static uint8_t EncodeLineRate(uint64_t bps);

    /**
     * \param bps a line rate
     * \return true when LINE_RATES holds it exactly
     */
    static bool IsCodedLineRate(uint64_t bps);

    uint64_t word; //!< the packed record, host order
};

/**
 * \ingroup flux-rdma
 * \brief In-band network telemetry (INT) of HPCC: a 4-byte fixed part and
 * room for MaxHops IntHop records of 8 bytes.
 *
 * \verbatim
    0               1               2               3
   +---------------+---------------+---------------+---------------+
   |    nHops      |   maxHops     |  multiplier   |   reserved    |
   +---------------+---------------+---------------+---------------+
   |                 hop 0 (IntHop, 8 bytes)                       |
   |                 ...  (maxHops records, unused ones zero)      |
   +---------------------------------------------------------------+
   \endverbatim
 *
 * On the wire it sits after the BTH (and RETH) and before the payload, so
 * RoCEv2 dissectors show it as the first payload bytes. Its size is fixed
 * by maxHops when the sender NIC creates it (as in the HPCC simulator):
 * switches fill records in place, so a packet keeps its size along the path
 * and switch buffer accounting stays exact. Hops beyond maxHops are not
 * recorded (nHops stops at maxHops).
 *
 * A data packet carrying INT has DSCP_INT set in its IPv4 DSCP; an ACK
 * echoing INT has DSCP_INT_ECHO (the INT specification lets a DSCP value
 * signal the INT header; flux uses the low DSCP bits, below the
 * priority's three).
 */
class IntHeader : public Header
{
  public:
    static constexpr uint32_t FIXED_BYTES = 4;     //!< fixed part
    static constexpr uint32_t HOP_BYTES = 8;       //!< per-hop record
    static constexpr uint8_t MAX_HOPS = 16;        //!< capacity limit
    static constexpr uint8_t DSCP_INT = 0x01;      //!< DSCP bit: data with INT, stamped by switches
    static constexpr uint8_t DSCP_INT_ECHO = 0x02; //!< DSCP bit: ACK echoing INT

    /**
     * \param maxHops room for this many hop records (at most MAX_HOPS)
     * \param multiplier unit multiplier of txBytes and qLen (>= 1)
     */
    explicit IntHeader(uint8_t maxHops = 5, uint8_t multiplier = 1);

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
     * \param maxHops hop records of a header of that capacity
     * \return its serialized size in bytes
     */
    static uint32_t SizeFor(uint8_t maxHops);

    /** \return the number of recorded hops */
    uint8_t GetNHops() const;
    /** \return the capacity in hops */
    uint8_t GetMaxHops() const;
    /** \return the unit multiplier */
    uint8_t GetMultiplier() const;
    /**
     * \param i hop index, < GetNHops()
     * \return the record
     */
    const IntHop& GetHop(uint8_t i) const;

    /**
     * \brief Append a hop record.
     * \param lineRateBps the port's line rate
     * \param now the time it leaves the port
     * \param txBytes the port's cumulative transmitted bytes
     * \param qlenBytes the port's queue bytes
     * \return false when the header is full (nothing recorded)
     */
    bool PushHop(uint64_t lineRateBps, Time now, uint64_t txBytes, uint64_t qlenBytes);

    /**
     * \brief Append a hop record to the INT of a RoCEv2 packet in place.
     *
     * \param p the packet from its UDP header: UDP / BTH [/ RETH] / INT / ...
     * \param lineRateBps the port's line rate
     * \param txBytes the port's cumulative transmitted bytes
     * \param qlenBytes the port's queue bytes
     */
    static void StampPacket(Ptr<Packet> p,
                            uint64_t lineRateBps,
                            uint64_t txBytes,
                            uint64_t qlenBytes);

  private:
    uint8_t m_nHops;                       //!< recorded hops
    uint8_t m_maxHops;                     //!< capacity
    uint8_t m_multiplier;                  //!< unit multiplier
    std::array<IntHop, MAX_HOPS> m_hops{}; //!< records
};

} // namespace ns3

#endif /* INT_HEADER_H */
