/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hpcc-fct-writer.h"

#include "ns3/log.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HpccFctWriter");

uint64_t
HpccFctWriter::IdealFctNs(const std::vector<Hop>& hops, uint64_t bytes, uint32_t payload)
{
    uint64_t delay = 0;
    uint64_t tx = 0;
    uint64_t slowest = std::numeric_limits<uint64_t>::max();
    for (const Hop& h : hops)
    {
        delay += h.delayNs;
        tx += uint64_t{payload} * 8000000000ULL / h.bps;
        slowest = std::min(slowest, h.bps);
    }
    if (hops.empty() || payload == 0)
    {
        return 0;
    }
    const uint64_t baseRtt = 2 * delay + tx;
    const uint64_t packets = bytes == 0 ? 0 : (bytes - 1) / payload + 1;
    const uint64_t total = bytes + packets * HEADER_BYTES;
    // total x 8e9 / rate without overflow for any 64-bit size
    const unsigned __int128 ns = static_cast<unsigned __int128>(total) * 8000000000ULL / slowest;
    return baseRtt + static_cast<uint64_t>(ns);
}

std::string
HpccFctWriter::Text(const RunResults& results)
{
    std::string out;
    char line[160];
    for (const auto& r : results.hpccFctRecords)
    {
        std::snprintf(line,
                      sizeof(line),
                      "%08x %08x %u %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
                      r.sip,
                      r.dip,
                      static_cast<unsigned>(r.sport),
                      r.dport,
                      r.sizeBytes,
                      r.startNs,
                      r.fctNs,
                      r.idealFctNs);
        out += line;
    }
    return out;
}

} // namespace ns3
