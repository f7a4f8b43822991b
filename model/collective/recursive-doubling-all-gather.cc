/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-doubling-all-gather.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RecursiveDoublingAllGather);

TypeId
RecursiveDoublingAllGather::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RecursiveDoublingAllGather")
                            .SetParent<RecursiveExchange>()
                            .SetGroupName("Flux")
                            .AddConstructor<RecursiveDoublingAllGather>();
    return tid;
}

RecursiveDoublingAllGather::RecursiveDoublingAllGather()
    : RecursiveExchange(false)
{
}

RecursiveDoublingAllGather::~RecursiveDoublingAllGather() = default;

} // namespace ns3
