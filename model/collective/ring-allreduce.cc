/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-allreduce.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/rdma-nic.h"
#include "ns3/uinteger.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllreduce");

NS_OBJECT_ENSURE_REGISTERED(RingAllreduce);

TypeId
RingAllreduce::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RingAllreduce")
            .SetParent<Collective>()
            .SetGroupName("Flux")
            .AddConstructor<RingAllreduce>()
            .AddAttribute("PipelineBytes",
                          "Size of the pieces a step's chunk is sent in (0 = one message "
                          "per step).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RingAllreduce::m_pipelineBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

RingAllreduce::RingAllreduce()
    : m_pipelineBytes(0),
      m_bytes(0),
      m_pieces(1),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
}

RingAllreduce::~RingAllreduce() = default;

void
RingAllreduce::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sendQp.clear();
    m_recvQp.clear();
    m_done = DoneCallback();
    Collective::DoDispose();
}

void
RingAllreduce::Setup(const std::vector<Ptr<RdmaNic>>& nics, uint8_t prio, uint16_t srcPorts)
{
    NS_LOG_FUNCTION(this << nics.size() << +prio << srcPorts);
    NS_ABORT_MSG_IF(nics.size() < 2, "RingAllreduce: a ring needs at least two ranks");
    m_nics = nics;
    const uint32_t n = GetNRanks();
    m_sendQp.assign(n, nullptr);
    m_recvQp.assign(n, nullptr);
    for (uint32_t r = 0; r < n; ++r)
    {
        const uint32_t next = (r + 1) % n;
        auto qps = RdmaNic::Connect(nics[r], nics[next], prio, srcPorts + r);
        m_sendQp[r] = qps.first;
        qps.first->SetErrorCallback(MakeBoundCallback(&RingAllreduce::SendFailed, this, r));
        m_recvQp[next] = qps.second;
        qps.second->SetReceiveCompletionCallback(
            MakeBoundCallback(&RingAllreduce::Received, this, next));
    }
    SetupRanks();
}

uint32_t
RingAllreduce::GetNSteps() const
{
    return 2 * (GetNRanks() - 1);
}

std::vector<Ptr<RdmaQueuePair>>
RingAllreduce::GetQueuePairs() const
{
    std::vector<Ptr<RdmaQueuePair>> qps = m_sendQp;
    qps.insert(qps.end(), m_recvQp.begin(), m_recvQp.end());
    return qps;
}

std::vector<Collective::Connection>
RingAllreduce::GetConnections() const
{
    std::vector<Connection> connections;
    const auto n = static_cast<uint32_t>(m_sendQp.size());
    for (uint32_t r = 0; r < n; ++r)
    {
        const uint32_t next = (r + 1) % n;
        connections.push_back(Connection{r, next, m_sendQp[r], m_recvQp[next]});
    }
    return connections;
}

void
RingAllreduce::SendFailed(RingAllreduce* self,
                          uint32_t rank,
                          Ptr<RdmaQueuePair> qp,
                          uint64_t /* seq */,
                          uint64_t /* bytes */,
                          RdmaQueuePair::WcStatus status)
{
    if (status != RdmaQueuePair::RETRY_EXCEEDED)
    {
        return; // flushed behind the failure, which reports it
    }
    std::ostringstream reason;
    reason << "retry count exceeded on the queue pair of rank " << rank << " to rank "
           << (rank + 1) % self->GetNRanks() << " (" << qp->GetNic()->GetAddress() << " -> "
           << qp->GetPeerAddress() << ", " << qp->GetTimeouts() << " timeouts of " << std::fixed
           << std::setprecision(3) << qp->GetRetransmitTimeout().GetSeconds() * 1e3 << " ms)";
    self->NotifyFailed(reason.str());
}

uint64_t
RingAllreduce::GetBytesSentPerRank(uint64_t bytes) const
{
    // every chunk but one, twice; averaged over ranks
    const uint32_t n = GetNRanks();
    return 2 * (n - 1) * bytes / n;
}

uint64_t
RingAllreduce::ChunkBytes(uint32_t chunk) const
{
    const uint32_t n = GetNRanks();
    return m_bytes / n + (chunk < m_bytes % n ? 1 : 0);
}

uint32_t
RingAllreduce::ChunkOf(uint32_t rank, uint32_t step) const
{
    const uint32_t n = GetNRanks();
    if (step < n - 1)
    {
        return (rank + n - step) % n; // reduce-scatter: (r - k) mod N
    }
    const uint32_t k = step - (n - 1);
    return (rank + 1 + n - k) % n; // all-gather: (r + 1 - k) mod N
}

uint64_t
RingAllreduce::PieceBytes(uint32_t rank, uint32_t step, uint32_t piece) const
{
    const uint64_t chunk = ChunkBytes(ChunkOf(rank, step));
    const uint64_t base = chunk / m_pieces;
    return base + (piece < chunk % m_pieces ? 1 : 0);
}

void
RingAllreduce::Post(uint32_t rank, uint32_t step, uint32_t piece)
{
    Submit(rank, step, piece, PieceBytes(rank, step, piece), ChunkBytes(ChunkOf(rank, step)));
}

void
RingAllreduce::DoPost(uint32_t rank, uint32_t step, uint32_t piece)
{
    m_sendQp[rank]->PostSend(PieceBytes(rank, step, piece), MakeTag(step, piece));
}

void
RingAllreduce::Start(uint64_t bytes, DoneCallback done)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(m_running, "RingAllreduce: Start() while a run is in progress");
    const uint32_t n = GetNRanks();
    if (m_running || n == 0)
    {
        return;
    }
    m_running = true;
    m_bytes = bytes;
    m_done = done;
    const uint64_t chunk = std::max<uint64_t>(1, bytes / n);
    m_pieces = m_pipelineBytes == 0
                   ? 1
                   : static_cast<uint32_t>(
                         std::max<uint64_t>(1, (chunk + m_pipelineBytes - 1) / m_pipelineBytes));
    m_received.assign(n, 0);
    BeginRun(n, GetNSteps());
    NotifyRunStarted(bytes);
    for (uint32_t r = 0; r < n; ++r)
    {
        if (!IsLocalRank(r))
        {
            continue; // its own process posts (under MPI)
        }
        for (uint32_t j = 0; j < m_pieces; ++j)
        {
            Post(r, 0, j);
        }
    }
}

void
RingAllreduce::Received(RingAllreduce* self,
                        uint32_t rank,
                        Ptr<RdmaQueuePair> /* qp */,
                        uint64_t /* seq */,
                        uint64_t /* bytes */)
{
    const uint64_t index = self->m_received[rank]++;
    const uint32_t step = static_cast<uint32_t>(index / self->m_pieces);
    const uint32_t piece = static_cast<uint32_t>(index % self->m_pieces);
    const uint32_t nSteps = self->GetNSteps();
    if (step + 1 < nSteps)
    {
        // the data of this piece is what the rank forwards (reduced) next
        self->Post(rank, step + 1, piece);
    }
    if (piece + 1 == self->m_pieces)
    {
        self->RecordEnd(rank, step); // on the last step, counts the rank done
    }
}

void
RingAllreduce::RunComplete()
{
    m_running = false;
    Collective::RunComplete();
    DoneCallback done = m_done;
    m_done = DoneCallback();
    if (!done.IsNull())
    {
        done();
    }
}

} // namespace ns3
