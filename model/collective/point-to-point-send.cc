/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "point-to-point-send.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PointToPointSend");

NS_OBJECT_ENSURE_REGISTERED(PointToPointSend);

TypeId
PointToPointSend::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PointToPointSend")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Flux")
                            .AddConstructor<PointToPointSend>();
    return tid;
}

PointToPointSend::PointToPointSend()
{
    NS_LOG_FUNCTION(this);
    SetKind(CollectiveType::BROADCAST, "send");
}

PointToPointSend::~PointToPointSend() = default;

std::string
PointToPointSend::GetRanksProblem(uint32_t nRanks) const
{
    return nRanks != 2 ? "a send joins two ranks, not " + std::to_string(nRanks) : "";
}

uint32_t
PointToPointSend::GetNStepsFor(uint32_t /* n */) const
{
    return 1;
}

JobStepTag::Phase
PointToPointSend::GetPhase(uint32_t /* step */) const
{
    return JobStepTag::ALL_GATHER;
}

uint64_t
PointToPointSend::GetBytesSentPerRank(uint64_t bytes) const
{
    return bytes; // by the sender
}

void
PointToPointSend::GetSends(uint32_t /* n */,
                           uint32_t rank,
                           uint32_t /* step */,
                           uint64_t bytes,
                           std::vector<Send>& sends) const
{
    sends.clear();
    if (rank == 0)
    {
        sends.push_back(Send{1, bytes});
    }
}

uint32_t
PointToPointSend::GetNReceives(uint32_t /* n */, uint32_t rank, uint32_t /* step */) const
{
    return rank == 1 ? 1 : 0;
}

uint32_t
PointToPointSend::GetPieces(uint64_t bytes) const
{
    const uint64_t piece = GetPipelineBytes();
    return piece == 0 ? 1
                      : static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + piece - 1) / piece));
}

} // namespace ns3
