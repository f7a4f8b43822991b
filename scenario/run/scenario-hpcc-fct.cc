/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * The lines of the HPCC FCT file: each background flow as the HPCC
 * simulator's third.cc reports it when its sender has the last ACK.
 */

#include "scenario-run.h"

#include "ns3/hpcc-fct-writer.h"
#include "ns3/hpcc-import.h"
#include "ns3/log.h"
#include "ns3/pfc-channel.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioHpccFct");

namespace scenario
{

uint64_t
ScenarioRun::HpccIdealFctNs(const FlowTraffic::FlowRecord& rec) const
{
    const std::vector<uint32_t> path = PathForIdeal(rec);
    std::vector<HpccFctWriter::Hop> hops;
    for (uint32_t l : path)
    {
        const auto& link = m_topo.links[l];
        hops.push_back(
            {link.tx->GetDataRate().GetBitRate(),
             static_cast<uint64_t>(
                 DynamicCast<PfcChannel>(link.tx->GetChannel())->GetDelay().GetNanoSeconds())});
    }
    return HpccFctWriter::IdealFctNs(hops, rec.bytes, m_cfg.transport.mtuBytes);
}

void
ScenarioRun::FlowAcked(uint32_t tenant, const FlowTraffic::FlowRecord& rec)
{
    RunResults::HpccFctRecord r;
    r.sip = HpccNodeAddress(m_cfg.HostNodeId(rec.src));
    r.dip = HpccNodeAddress(m_cfg.HostNodeId(rec.dst));
    r.sport = rec.srcPort;
    const auto& bc = m_cfg.background[tenant];
    r.dport = rec.id < bc.flows.size() ? bc.flows[rec.id].dport : 100;
    r.sizeBytes = rec.bytes;
    r.startNs = static_cast<uint64_t>(rec.start.GetNanoSeconds());
    r.fctNs = static_cast<uint64_t>(rec.fct.GetNanoSeconds());
    r.idealFctNs = HpccIdealFctNs(rec);
    m_hpccFct.push_back(r);
    m_endAt = std::max(m_endAt, Simulator::Now());
    CheckDone();
}

} // namespace scenario
} // namespace ns3
