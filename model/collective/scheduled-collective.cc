/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scheduled-collective.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduledCollective");

NS_OBJECT_ENSURE_REGISTERED(ScheduledCollective);

TypeId
ScheduledCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ScheduledCollective")
            .SetParent<Collective>()
            .SetGroupName("Flux")
            .AddAttribute("PipelineBytes",
                          "Size of the pieces a message is sent in (0 = one message per "
                          "peer and step; the pieces of a step's 1/N share of the buffer).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ScheduledCollective::m_pipelineBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

ScheduledCollective::ScheduledCollective()
    : m_pipelineBytes(0),
      m_nLinks(0),
      m_bytes(0),
      m_pieces(1),
      m_steps(0),
      m_running(false)
{
    NS_LOG_FUNCTION(this);
}

ScheduledCollective::~ScheduledCollective() = default;

void
ScheduledCollective::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_done = DoneCallback();
    Collective::DoDispose();
}

uint64_t
ScheduledCollective::GetPipelineBytes() const
{
    return m_pipelineBytes;
}

uint32_t
ScheduledCollective::GetPieces(uint64_t bytes) const
{
    if (m_pipelineBytes == 0)
    {
        return 1;
    }
    const uint64_t share = std::max<uint64_t>(1, bytes / GetNRanks());
    return static_cast<uint32_t>(
        std::max<uint64_t>(1, (share + m_pipelineBytes - 1) / m_pipelineBytes));
}

uint32_t
ScheduledCollective::GetNSteps() const
{
    return GetNStepsFor(GetNRanks());
}

std::vector<RankChannels::Link>
ScheduledCollective::GetLinks(uint32_t n) const
{
    std::vector<RankChannels::Link> links;
    std::unordered_map<uint64_t, uint32_t> seen;
    const uint32_t steps = GetNStepsFor(n);
    for (uint32_t s = 0; s < steps; ++s)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            GetSends(n, r, s, 0, m_sends);
            for (const auto& send : m_sends)
            {
                const uint64_t key = (static_cast<uint64_t>(r) << 32) | send.peer;
                if (seen.try_emplace(key, static_cast<uint32_t>(links.size())).second)
                {
                    links.push_back(RankChannels::Link{r, send.peer});
                }
            }
        }
    }
    return links;
}

void
ScheduledCollective::Setup(const std::vector<Ptr<RdmaNic>>& nics, uint8_t prio, uint16_t srcPorts)
{
    NS_LOG_FUNCTION(this << nics.size() << +prio << srcPorts);
    const auto n = static_cast<uint32_t>(nics.size());
    const std::string problem = GetRanksProblem(n);
    NS_ABORT_MSG_IF(!problem.empty(), GetInstanceTypeId().GetName() << ": " << problem);
    const std::vector<RankChannels::Link> links = GetLinks(n);
    m_linksFrom.assign(n, {});
    m_nLinks = static_cast<uint32_t>(links.size());
    for (uint32_t i = 0; i < links.size(); ++i)
    {
        m_linksFrom[links[i].src].emplace_back(links[i].dst, i);
    }
    for (auto& from : m_linksFrom)
    {
        std::sort(from.begin(), from.end());
    }
    const uint32_t steps = GetNStepsFor(n);
    std::vector<std::vector<uint32_t>> perLink(links.size());
    std::size_t most = 0;
    for (uint32_t s = 0; s < steps; ++s)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            GetSends(n, r, s, 0, m_sends);
            for (const auto& send : m_sends)
            {
                auto& list = perLink[LinkOf(r, send.peer)];
                list.push_back(s);
                most = std::max(most, list.size());
            }
        }
    }
    m_linkSteps.assign(most * links.size(), 0);
    for (uint32_t l = 0; l < links.size(); ++l)
    {
        for (std::size_t k = 0; k < perLink[l].size(); ++k)
        {
            m_linkSteps[k * links.size() + l] = perLink[l][k];
        }
    }
    m_bytesPosted.assign(n, 0);
    ConnectRanks(nics, links, prio, srcPorts);
}

const std::vector<uint64_t>&
ScheduledCollective::GetBytesPosted() const
{
    return m_bytesPosted;
}

uint64_t
ScheduledCollective::PieceBytes(uint64_t total, uint32_t piece) const
{
    return total / m_pieces + (piece < total % m_pieces ? 1 : 0);
}

void
ScheduledCollective::Start(uint64_t bytes, DoneCallback done)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(m_running,
                    GetInstanceTypeId().GetName() << ": Start() while a run is in progress");
    const uint32_t n = GetNRanks();
    if (m_running || n == 0)
    {
        return;
    }
    m_running = true;
    m_bytes = bytes;
    m_done = done;
    m_steps = GetNSteps();
    m_pieces = GetPieces(bytes);
    m_recvCount.assign(static_cast<std::size_t>(m_steps) * n * m_pieces, 0);
    m_recvCursor.assign(static_cast<std::size_t>(n) * m_pieces, 0);
    m_stepPieces.assign(static_cast<std::size_t>(m_steps) * n, 0);
    m_postStep.assign(n, 0);
    m_postPiece.assign(n, 0);
    m_linkArrived.assign(m_nLinks, 0);
    BeginRun(n, m_steps);
    NotifyRunStarted(bytes);
    const uint32_t run = m_run;
    for (uint32_t r = 0; r < n && m_run == run; ++r)
    {
        if (!IsLocalRank(r))
        {
            continue; // its own process runs it (under MPI)
        }
        Pump(r); // the first step needs nothing received
        for (uint32_t j = 0; j < m_pieces && m_run == run; ++j)
        {
            if (AdvanceReceives(r, j)) // steps that receive nothing
            {
                Pump(r);
            }
        }
    }
}

void
ScheduledCollective::Pump(uint32_t rank)
{
    const uint32_t n = GetNRanks();
    const uint32_t run = m_run;
    while (m_postStep[rank] < m_steps)
    {
        const uint32_t s = m_postStep[rank];
        const uint32_t j = m_postPiece[rank];
        if (m_recvCursor[rank * m_pieces + j] < s)
        {
            return; // piece j of an earlier step has not arrived
        }
        if (++m_postPiece[rank] == m_pieces)
        {
            m_postPiece[rank] = 0;
            ++m_postStep[rank];
        }
        GetSends(n, rank, s, m_bytes, m_sends);
        uint64_t stepBytes = 0;
        for (const auto& send : m_sends)
        {
            stepBytes += send.bytes;
        }
        const auto nSends = static_cast<uint32_t>(m_sends.size());
        for (uint32_t i = 0; i < nSends; ++i)
        {
            // GetSends is asked again in DoPost: m_sends may be reused by then
            GetSends(n, rank, s, m_bytes, m_sends);
            Submit(rank, s, i * m_pieces + j, PieceBytes(m_sends[i].bytes, j), stepBytes);
            if (m_run != run)
            {
                return; // that send ended the run, and another may have begun
            }
        }
    }
}

double
ScheduledCollective::GetNetworkBytes(uint64_t bytes) const
{
    // every step's messages, but those between ranks of one server
    const uint32_t n = GetNRanks();
    const Ptr<RankChannels> channels = GetChannels();
    bool intra = false;
    for (uint32_t l = 0; channels && l < m_nLinks && !intra; ++l)
    {
        intra = channels->IsIntraServer(l);
    }
    if (!intra)
    {
        return Collective::GetNetworkBytes(bytes); // (no walk over every step)
    }
    double total = 0;
    for (uint32_t s = 0; s < GetNStepsFor(n); ++s)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            GetSends(n, r, s, bytes, m_sends);
            for (const auto& send : m_sends)
            {
                if (!channels->IsIntraServer(LinkOf(r, send.peer)))
                {
                    total += static_cast<double>(send.bytes);
                }
            }
        }
    }
    return total;
}

uint32_t
ScheduledCollective::LinkOf(uint32_t rank, uint32_t peer) const
{
    // a rank's peers are few (ring 1, halving-doubling log2 N, all-to-all
    // N - 1): a binary search over them, no hashing
    const auto& from = m_linksFrom[rank];
    const auto it = std::lower_bound(from.begin(), from.end(), std::make_pair(peer, uint32_t{0}));
    NS_ABORT_MSG_IF(it == from.end() || it->first != peer,
                    "ScheduledCollective: no link from rank " << rank << " to " << peer);
    return it->second;
}

void
ScheduledCollective::DoPost(uint32_t rank, uint32_t step, uint32_t chunk)
{
    const uint32_t n = GetNRanks();
    GetSends(n, rank, step, m_bytes, m_sends);
    const uint32_t i = chunk / m_pieces;
    const uint32_t j = chunk % m_pieces;
    const Send send = m_sends[i];
    const auto nSends = static_cast<uint32_t>(m_sends.size());
    const uint64_t bytes = PieceBytes(send.bytes, j);
    m_bytesPosted[rank] += bytes;
    SendMessage(LinkOf(rank, send.peer), bytes, step, chunk);
    if (chunk + 1 == nSends * m_pieces && GetNReceives(n, rank, step) == 0)
    {
        RecordEnd(rank, step); // a step that only sends ends with its last piece
    }
}

bool
ScheduledCollective::AdvanceReceives(uint32_t rank, uint32_t piece)
{
    const uint32_t n = GetNRanks();
    uint32_t& cursor = m_recvCursor[rank * m_pieces + piece];
    const uint32_t from = cursor;
    while (cursor < m_steps &&
           m_recvCount[(static_cast<std::size_t>(cursor) * n + rank) * m_pieces + piece] ==
               GetNReceives(n, rank, cursor))
    {
        ++cursor;
    }
    if (cursor == from)
    {
        return false;
    }
    Pump(rank); // the data the next steps forward is there
    const uint32_t run = m_run;
    const uint32_t to = cursor;
    for (uint32_t s = from; s < to && m_run == run; ++s)
    {
        if (++m_stepPieces[static_cast<std::size_t>(s) * n + rank] < m_pieces)
        {
            continue;
        }
        if (GetNReceives(n, rank, s) > 0)
        {
            RecordEnd(rank, s);
        }
        else
        {
            GetSends(n, rank, s, m_bytes, m_sends);
            if (m_sends.empty())
            {
                RecordIdle(rank, s);
            }
        }
    }
    return m_run == run;
}

void
ScheduledCollective::MessageReceived(uint32_t link)
{
    const RankChannels::Link& ends = GetChannels()->GetLink(link);
    const uint64_t m = m_linkArrived[link]++;
    // (whole messages, the usual case, need no division)
    const uint64_t k = m_pieces == 1 ? m : m / m_pieces;
    const auto piece = static_cast<uint32_t>(m - k * m_pieces);
    const uint32_t step = m_linkSteps[k * m_nLinks + link];
    const uint32_t rank = ends.dst;
    ++m_recvCount[(static_cast<std::size_t>(step) * GetNRanks() + rank) * m_pieces + piece];
    if (m_recvCursor[rank * m_pieces + piece] == step)
    {
        AdvanceReceives(rank, piece);
    }
}

void
ScheduledCollective::RunComplete()
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
