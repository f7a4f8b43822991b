/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rank-channels.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RankChannels");

NS_OBJECT_ENSURE_REGISTERED(RankChannels);

TypeId
RankChannels::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RankChannels").SetParent<Object>().SetGroupName("Flux");
    return tid;
}

RankChannels::RankChannels()
    : m_channels(1),
      m_intraBytes(0)
{
    NS_LOG_FUNCTION(this);
}

RankChannels::~RankChannels() = default;

void
RankChannels::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_links.clear();
    m_senders.clear();
    m_receivers.clear();
    m_receive = ReceiveCallback();
    m_failure = FailureCallback();
    Object::DoDispose();
}

uint32_t
RankChannels::CountConnections(const std::vector<Link>& links,
                               const std::vector<uint32_t>& servers,
                               uint32_t channels)
{
    uint32_t n = 0;
    for (const auto& l : links)
    {
        const bool intra =
            l.src < servers.size() && l.dst < servers.size() && servers[l.src] == servers[l.dst];
        n += intra ? 0 : channels;
    }
    return n;
}

void
RankChannels::Connect(const std::vector<Ptr<RdmaNic>>& nics,
                      const std::vector<uint32_t>& servers,
                      const std::vector<Link>& links,
                      uint8_t prio,
                      uint16_t srcPorts,
                      uint32_t channels,
                      DataRate intraRate,
                      Time intraLatency)
{
    NS_LOG_FUNCTION(this << nics.size() << links.size() << +prio << srcPorts << channels);
    NS_ABORT_MSG_IF(channels == 0, "RankChannels: Channels must be at least 1");
    NS_ABORT_MSG_IF(servers.size() != nics.size(),
                    "RankChannels: " << servers.size() << " servers given for " << nics.size()
                                     << " ranks");
    NS_ABORT_MSG_IF(CountConnections(links, servers, channels) > 65536u - srcPorts,
                    "RankChannels: " << CountConnections(links, servers, channels)
                                     << " connections do not fit the UDP source ports from "
                                     << srcPorts);
    m_channels = channels;
    m_intraRate = intraRate;
    m_intraLatency = intraLatency;
    m_egressFree.assign(nics.size(), Time());
    m_links.assign(links.size(), LinkState());
    for (uint32_t i = 0; i < links.size(); ++i)
    {
        const Link& l = links[i];
        NS_ABORT_MSG_IF(l.src >= nics.size() || l.dst >= nics.size() || l.src == l.dst,
                        "RankChannels: link " << i << " (" << l.src << " -> " << l.dst
                                              << ") does not join two ranks of " << nics.size());
        LinkState& s = m_links[i];
        s.ends = l;
        s.intra = servers[l.src] == servers[l.dst];
        if (s.intra)
        {
            continue;
        }
        NS_ABORT_MSG_IF(nics[l.src] == nics[l.dst],
                        "RankChannels: ranks " << l.src << " and " << l.dst
                                               << " share a NIC but are on different servers");
        s.firstConnection = static_cast<uint32_t>(m_senders.size());
        if (channels > 1)
        {
            s.arrived.assign(channels, 0); // (one channel: a part is a message)
        }
        for (uint32_t c = 0; c < channels; ++c)
        {
            const auto id = static_cast<uint32_t>(m_senders.size());
            auto qps = RdmaNic::Connect(nics[l.src], nics[l.dst], prio, srcPorts + id);
            qps.first->SetErrorCallback(MakeBoundCallback(&RankChannels::SendFailed, this, id));
            qps.second->SetReceiveCompletionCallback(
                MakeBoundCallback(&RankChannels::PartReceived, this, id));
            m_senders.push_back(qps.first);
            m_receivers.push_back(qps.second);
            m_connectionLink.push_back(i);
        }
    }
}

void
RankChannels::SetReceiveCallback(ReceiveCallback cb)
{
    m_receive = cb;
}

void
RankChannels::SetFailureCallback(FailureCallback cb)
{
    m_failure = cb;
}

void
RankChannels::Send(uint32_t link, uint64_t bytes, const JobStepTag& tag)
{
    LinkState& s = m_links[link];
    if (s.intra)
    {
        const Time now = Simulator::Now();
        Time& free = m_egressFree[s.ends.src];
        free = std::max(free, now) + m_intraRate.CalculateBytesTxTime(bytes);
        m_intraBytes += bytes;
        Simulator::Schedule(free + m_intraLatency - now, &RankChannels::IntraArrived, this, link);
        return;
    }
    // every channel carries a part, empty ones too, so that the receiver
    // knows a message is whole once each channel delivered one more part
    for (uint32_t c = 0; c < m_channels; ++c)
    {
        const uint64_t part = bytes / m_channels + (c < bytes % m_channels ? 1 : 0);
        m_senders[s.firstConnection + c]->PostSend(part, tag);
    }
}

void
RankChannels::IntraArrived(uint32_t link)
{
    ++m_links[link].delivered;
    m_receive(link);
}

void
RankChannels::PartReceived(RankChannels* self,
                           uint32_t connection,
                           Ptr<RdmaQueuePair> /* qp */,
                           uint64_t /* seq */,
                           uint64_t /* bytes */)
{
    const uint32_t link = self->m_connectionLink[connection];
    LinkState& s = self->m_links[link];
    if (self->m_channels == 1)
    {
        // one part per message: it is whole
        ++s.delivered;
        self->m_receive(link);
        return;
    }
    ++s.arrived[connection - s.firstConnection];
    const uint64_t whole = *std::min_element(s.arrived.begin(), s.arrived.end());
    while (s.delivered < whole)
    {
        ++s.delivered;
        self->m_receive(link);
    }
}

void
RankChannels::SendFailed(RankChannels* self,
                         uint32_t connection,
                         Ptr<RdmaQueuePair> qp,
                         uint64_t /* seq */,
                         uint64_t /* bytes */,
                         RdmaQueuePair::WcStatus status)
{
    if (status != RdmaQueuePair::RETRY_EXCEEDED)
    {
        return; // flushed behind the failure, which reports it
    }
    if (!self->m_failure.IsNull())
    {
        self->m_failure(self->m_connectionLink[connection], qp);
    }
}

uint32_t
RankChannels::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

const RankChannels::Link&
RankChannels::GetLink(uint32_t link) const
{
    return m_links[link].ends;
}

bool
RankChannels::IsIntraServer(uint32_t link) const
{
    return m_links[link].intra;
}

uint32_t
RankChannels::GetNConnections() const
{
    return static_cast<uint32_t>(m_senders.size());
}

uint32_t
RankChannels::GetConnectionLink(uint32_t i) const
{
    return m_connectionLink[i];
}

Ptr<RdmaQueuePair>
RankChannels::GetSender(uint32_t i) const
{
    return m_senders[i];
}

Ptr<RdmaQueuePair>
RankChannels::GetReceiver(uint32_t i) const
{
    return m_receivers[i];
}

uint64_t
RankChannels::GetIntraServerBytes() const
{
    return m_intraBytes;
}

} // namespace ns3
