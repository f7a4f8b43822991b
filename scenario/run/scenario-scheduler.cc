/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-scheduler.h"

#include "ns3/object-factory.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"
#include "ns3/uinteger.h"

#include <algorithm>

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
    std::string err = scheduler->AssignClasses(cfg.BackgroundClasses());
    const bool asked = std::any_of(cfg.scheduler.settings.begin(),
                                   cfg.scheduler.settings.end(),
                                   [](const auto& s) { return s.key == "classes"; });
    UintegerValue classes;
    scheduler->GetAttribute("Classes", classes);
    // Unless the scenario asks for a number, a background tenant in a low
    // class leaves the jobs the classes it leaves (at least one).
    for (uint64_t k = classes.Get(); !asked && !err.empty() && k > 1; --k)
    {
        scheduler->SetAttribute("Classes", UintegerValue(k - 1));
        err = scheduler->AssignClasses(cfg.BackgroundClasses());
    }
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
