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

namespace
{

/**
 * \param tid the chosen policy's TypeId
 * \param s a scheduler key of the scenario
 * \return its value for the policy's attribute; null for a key of another
 *         policy (checked against that one's attribute), or a value this
 *         policy's attribute of the same name does not take
 */
Ptr<AttributeValue>
ValueFor(TypeId tid, const ScenarioConfig::SchedulerSetting& s)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(s.attribute, &info))
    {
        return nullptr;
    }
    const Ptr<AttributeValue> value = info.checker->Create();
    if (value->DeserializeFromString(s.value, info.checker) && info.checker->Check(*value))
    {
        return value;
    }
    return nullptr;
}

} // namespace

bool
PolicyTakes(Ptr<const JobScheduler> scheduler, const ScenarioConfig::SchedulerSetting& setting)
{
    return ValueFor(scheduler->GetInstanceTypeId(), setting) &&
           scheduler->UsesAttribute(setting.attribute);
}

Ptr<JobScheduler>
CreateScheduler(const ScenarioConfig& cfg)
{
    ObjectFactory factory;
    factory.SetTypeId(JobScheduler::GetPolicyTypeName(cfg.scheduler.policy));
    const TypeId tid = factory.GetTypeId();
    for (const auto& s : cfg.scheduler.settings)
    {
        if (const Ptr<AttributeValue> value = ValueFor(tid, s))
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
