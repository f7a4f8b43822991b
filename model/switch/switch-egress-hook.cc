/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "switch-egress-hook.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SwitchEgressHook);

TypeId
SwitchEgressHook::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchEgressHook").SetParent<Object>().SetGroupName("Flux");
    return tid;
}

SwitchEgressHook::~SwitchEgressHook() = default;

} // namespace ns3
