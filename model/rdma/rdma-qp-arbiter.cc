/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-qp-arbiter.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQpArbiter");

NS_OBJECT_ENSURE_REGISTERED(RdmaQpArbiter);

TypeId
RdmaQpArbiter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaQpArbiter").SetParent<Object>().SetGroupName("Flux");
    return tid;
}

RdmaQpArbiter::RdmaQpArbiter() = default;

RdmaQpArbiter::~RdmaQpArbiter() = default;

bool
RdmaQpArbiter::HasActive() const
{
    return true;
}

void
RdmaQpArbiter::NotifySent(RdmaQueuePair* /* qp */, uint32_t /* bytes */)
{
}

} // namespace ns3
