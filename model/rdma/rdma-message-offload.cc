/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-message-offload.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RdmaMessageOffload);

TypeId
RdmaMessageOffload::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaMessageOffload").SetParent<Object>().SetGroupName("Flux");
    return tid;
}

RdmaMessageOffload::~RdmaMessageOffload() = default;

void
RdmaMessageOffload::QueuePairDestroyed(RdmaQueuePair* /* qp */)
{
}

} // namespace ns3
