/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-scheduler.h"

#include "ns3/object-factory.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

namespace ns3
{

Ptr<JobScheduler>
CreateScheduler(const ScenarioConfig& cfg)
{
    ObjectFactory factory;
    factory.SetTypeId(JobScheduler::GetPolicyTypeName(cfg.scheduler.policy));
    const TypeId tid = factory.GetTypeId();
    for (const auto& s : cfg.scheduler.settings)
    {
        // a key of another policy (checked against that one's attribute), or
        // a value this policy's attribute of the same name does not take
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(s.attribute, &info))
        {
            continue;
        }
        const Ptr<AttributeValue> value = info.checker->Create();
        if (value->DeserializeFromString(s.value, info.checker) && info.checker->Check(*value))
        {
            factory.Set(s.attribute, *value);
        }
    }
    Ptr<JobScheduler> scheduler = factory.Create<JobScheduler>();
    const std::string err = scheduler->AssignClasses(cfg.BackgroundClasses());
    if (!err.empty())
    {
        throw ScenarioError("scheduler.classes",
                            "policy " + scenario::Quote(cfg.scheduler.policy) + ": " + err);
    }
    return scheduler;
}

void
CheckScenario(const ScenarioConfig& cfg)
{
    CreateScheduler(cfg);
}

} // namespace ns3
