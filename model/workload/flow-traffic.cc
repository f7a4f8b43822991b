/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-traffic.h"

#include "ns3/fabric-ranks.h"
#include "ns3/log.h"
#include "ns3/pfc-net-device.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowTraffic");

NS_OBJECT_ENSURE_REGISTERED(FlowTraffic);

TypeId
FlowTraffic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowTraffic")
            .SetParent<Object>()
            .SetGroupName("Flux")
            .AddAttribute("Priority",
                          "Traffic class of the flows.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&FlowTraffic::m_prio),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddTraceSource("Flow",
                            "A flow finished (source host, destination host, bytes, FCT).",
                            MakeTraceSourceAccessor(&FlowTraffic::m_flowTrace),
                            "ns3::FlowTraffic::FlowTracedCallback")
            .AddTraceSource("FlowStart",
                            "A flow started: its queue pairs (sender's, receiver's).",
                            MakeTraceSourceAccessor(&FlowTraffic::m_flowStartTrace),
                            "ns3::FlowTraffic::FlowStartTracedCallback");
    return tid;
}

FlowTraffic::FlowTraffic()
    : m_prio(3),
      m_started(0),
      m_finished(0),
      m_failed(0),
      m_firstActive(0),
      m_bytesStarted(0)
{
    NS_LOG_FUNCTION(this);
    m_port = CreateObject<UniformRandomVariable>();
}

FlowTraffic::~FlowTraffic() = default;

void
FlowTraffic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_nics.clear();
    m_flows.clear();
    m_port = nullptr;
    m_flowCallback = FlowCallback();
    m_failedCallback = Callback<void, uint64_t>();
    Object::DoDispose();
}

void
FlowTraffic::Setup(const std::string& name, const std::vector<Ptr<RdmaNic>>& nics)
{
    m_name = name;
    m_nics = nics;
}

void
FlowTraffic::StopArrivals()
{
}

void
FlowTraffic::SetFlowCallback(FlowCallback cb)
{
    m_flowCallback = cb;
}

void
FlowTraffic::SetFlowAckedCallback(FlowCallback cb)
{
    m_ackedCallback = cb;
}

const std::string&
FlowTraffic::GetName() const
{
    return m_name;
}

uint64_t
FlowTraffic::GetFlowsStarted() const
{
    return m_started;
}

uint64_t
FlowTraffic::GetFlowsFinished() const
{
    return m_finished;
}

uint64_t
FlowTraffic::GetFlowsFailed() const
{
    return m_failed;
}

RdmaQueuePair::Counters
FlowTraffic::GetCounters() const
{
    RdmaQueuePair::Counters c = m_closedCounters;
    for (const auto& f : m_flows)
    {
        if (f.tx)
        {
            c += f.tx->GetCounters();
            c += f.rx->GetCounters();
        }
    }
    return c;
}

std::vector<FlowTraffic::ActiveFlow>
FlowTraffic::GetActiveFlows() const
{
    std::vector<ActiveFlow> active;
    for (uint64_t id = m_firstActive; id < m_flows.size(); ++id)
    {
        const Flow& f = m_flows[id];
        if (f.tx)
        {
            active.push_back(ActiveFlow{f.src, f.dst, f.tx, id});
        }
    }
    return active;
}

void
FlowTraffic::SetFlowFailedCallback(Callback<void, uint64_t> cb)
{
    m_failedCallback = cb;
}

uint64_t
FlowTraffic::GetBytesStarted() const
{
    return m_bytesStarted;
}

int64_t
FlowTraffic::AssignStreams(int64_t stream)
{
    m_port->SetStream(stream);
    return 1;
}

void
FlowTraffic::StartFlow(uint32_t src, uint32_t dst, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << src << dst << bytes);
    // (per flow, not per packet: a host index from Configure checked here,
    // where the NICs of Setup are known)
    NS_ABORT_MSG_IF(src >= m_nics.size() || dst >= m_nics.size(),
                    "FlowTraffic \"" << m_name << "\": host " << std::max(src, dst)
                                     << " is not among the " << m_nics.size()
                                     << " NICs given to Setup()"
                                     << (m_nics.empty() ? " (was Setup() called?)" : ""));
    const uint64_t id = m_flows.size();
    const auto port = static_cast<uint16_t>(m_port->GetInteger(49152, 65535));
    auto qps = RdmaNic::Connect(m_nics[src], m_nics[dst], m_prio, port);
    qps.second->SetReceiveCompletionCallback(MakeBoundCallback(&FlowTraffic::Received, this, id));
    qps.first->SetSendCompletionCallback(MakeBoundCallback(&FlowTraffic::Acked, this, id));
    qps.first->SetErrorCallback(MakeBoundCallback(&FlowTraffic::Failed, this, id));
    m_flows.push_back(Flow{src, dst, bytes, Simulator::Now(), port, qps.first, qps.second, false});
    m_flowStartTrace(qps.first, qps.second);
    ++m_started;
    m_bytesStarted += bytes;
    // Under MPI every process runs the tenant (the same arrivals from the
    // same streams) and connects the queue pairs, so that queue pair
    // numbers agree; only the sender's process posts.
    if (FabricRanks::IsLocal(*m_nics[src]->GetDevice()->GetNode()))
    {
        qps.first->PostSend(bytes);
    }
}

void
FlowTraffic::Received(FlowTraffic* self,
                      uint64_t id,
                      Ptr<RdmaQueuePair> /* qp */,
                      uint64_t /* seq */,
                      uint64_t /* bytes */)
{
    Flow& f = self->m_flows[id];
    f.received = true;
    const FlowRecord record{f.src, f.dst, f.bytes, f.start, Simulator::Now() - f.start, f.port, id};
    ++self->m_finished;
    self->m_flowTrace(record.src, record.dst, record.bytes, record.fct);
    if (!self->m_flowCallback.IsNull())
    {
        self->m_flowCallback(record);
    }
}

void
FlowTraffic::Acked(FlowTraffic* self,
                   uint64_t id,
                   Ptr<RdmaQueuePair> /* qp */,
                   uint64_t /* seq */,
                   uint64_t /* bytes */)
{
    Flow& f = self->m_flows[id];
    const FlowRecord record{f.src, f.dst, f.bytes, f.start, Simulator::Now() - f.start, f.port, id};
    self->TearDown(f);
    if (!self->m_ackedCallback.IsNull())
    {
        self->m_ackedCallback(record);
    }
}

void
FlowTraffic::Failed(FlowTraffic* self,
                    uint64_t id,
                    Ptr<RdmaQueuePair> /* qp */,
                    uint64_t /* seq */,
                    uint64_t /* bytes */,
                    RdmaQueuePair::WcStatus /* status */)
{
    Flow& f = self->m_flows[id];
    if (!f.tx)
    {
        return;
    }
    if (f.received)
    {
        // Delivered, only its acknowledgement was lost: not a failed flow.
        self->TearDown(f);
        return;
    }
    NS_LOG_LOGIC("flow " << id << " of " << self->m_name << " failed: retries exhausted");
    ++self->m_failed;
    self->TearDown(f);
    if (!self->m_failedCallback.IsNull())
    {
        self->m_failedCallback(id);
    }
}

void
FlowTraffic::TearDown(Flow& f)
{
    m_closedCounters += f.tx->GetCounters();
    m_closedCounters += f.rx->GetCounters();
    f.tx->GetNic()->DestroyQueuePair(f.tx);
    f.rx->GetNic()->DestroyQueuePair(f.rx);
    f.tx = nullptr;
    f.rx = nullptr;
    while (m_firstActive < m_flows.size() && !m_flows[m_firstActive].tx)
    {
        ++m_firstActive;
    }
}

} // namespace ns3
