/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_FCT_WRITER_H
#define HPCC_FCT_WRITER_H

#include "run-results.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief The HPCC simulator's FCT file (its FCT_OUTPUT_FILE), so that
 * analysis scripts written for it (analysis/fct_analysis.py) read flux's
 * flows: one line per flow, in the order the senders had their last ACK,
 *
 *     sip dip sport dport size start_ns fct_ns ideal_fct_ns
 *
 * addresses as 8 hex digits (HpccNodeAddress: node 1 is 0b000101), the
 * others in decimal. fct_ns runs from the flow's start to the ACK of its
 * last byte at the sender; ideal_fct_ns is that simulator's standalone FCT
 * (IdealFctNs).
 */
class HpccFctWriter
{
  public:
    /// One hop of a flow's path.
    struct Hop
    {
        uint64_t bps;     //!< the link's rate, bit/s
        uint64_t delayNs; //!< its propagation delay, ns
    };

    /// Header bytes per packet in that simulator's ideal FCT: Ethernet 14,
    /// IPv4 20, UDP 8 with its 2-byte priority and 4-byte sequence number.
    static constexpr uint64_t HEADER_BYTES = 48;

    /**
     * \brief That simulator's ideal FCT, in its integer arithmetic:
     * base RTT = 2 x sum of delays + sum over hops of payload x 8 / rate
     * (each term in whole ns); then base RTT + (size + packets x 48) x 8 /
     * (slowest rate), packets = ceil(size / payload).
     * \param hops the flow's path, source to destination
     * \param bytes the flow's size
     * \param payload payload bytes per packet
     * \return nanoseconds
     */
    static uint64_t IdealFctNs(const std::vector<Hop>& hops, uint64_t bytes, uint32_t payload);

    /**
     * \param results results with hpccFctRecords
     * \return the file's text
     */
    static std::string Text(const RunResults& results);
};

} // namespace ns3

#endif /* HPCC_FCT_WRITER_H */
