/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-halving-reduce-scatter.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(RecursiveHalvingReduceScatter);

TypeId
RecursiveHalvingReduceScatter::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RecursiveHalvingReduceScatter")
                            .SetParent<RecursiveExchange>()
                            .SetGroupName("Flux")
                            .AddConstructor<RecursiveHalvingReduceScatter>();
    return tid;
}

RecursiveHalvingReduceScatter::RecursiveHalvingReduceScatter()
    : RecursiveExchange(true)
{
}

RecursiveHalvingReduceScatter::~RecursiveHalvingReduceScatter() = default;

} // namespace ns3
