/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fifo-scheduler.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FifoScheduler");

NS_OBJECT_ENSURE_REGISTERED(FifoScheduler);
FLUX_REGISTER_POLICY("fifo", FifoScheduler, 0);

TypeId
FifoScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FifoScheduler")
                            .SetParent<JobScheduler>()
                            .SetGroupName("Flux")
                            .AddConstructor<FifoScheduler>();
    return tid;
}

FifoScheduler::FifoScheduler() = default;

FifoScheduler::~FifoScheduler() = default;

std::string
FifoScheduler::GetPolicyName() const
{
    return "fifo";
}

} // namespace ns3
