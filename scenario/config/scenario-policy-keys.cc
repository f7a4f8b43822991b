/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-policy-keys.h"

#include "scenario-attribute-keys.h"
#include "scenario-keys.h"
#include "scenario-reader.h"
#include "scenario-sections.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/integer.h"
#include "ns3/job-scheduler.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/scenario-json.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioPolicyKeys");

namespace scenario
{

using json = nlohmann::json;

namespace
{

/// \return how "scheduler" keys map to a policy's attributes
const AttributeKeyRules&
PolicyRules()
{
    static const AttributeKeyRules rules = [] {
        AttributeKeyRules r;
        r.section = "scheduler";
        r.root = JobScheduler::GetTypeId();
        // older shapes: "replan_us" is ReplanInterval; "granularity" ("step" |
        // "chunk") sets PerChunk
        r.stemAliases = {{"replan", "ReplanInterval"}};
        r.choiceKey = "granularity";
        r.choiceAttribute = "PerChunk";
        r.choiceValues = kGranularities;
        return r;
    }();
    return rules;
}

/// \return the registered policies' TypeIds, in GetPolicies() order
std::vector<TypeId>
PolicyTypeIds()
{
    std::vector<TypeId> tids;
    for (const auto& entry : JobScheduler::GetPolicies())
    {
        tids.push_back(TypeId::LookupByName(entry.second));
    }
    return tids;
}

} // namespace

std::vector<PolicyKey>
GetPolicyKeys(const std::string& policy)
{
    const std::string type = JobScheduler::GetPolicyTypeName(policy);
    if (type.empty())
    {
        return {};
    }
    // JobScheduler's own attributes, where the policy uses them
    ObjectFactory factory(type);
    const Ptr<JobScheduler> probe = factory.Create<JobScheduler>();
    std::vector<PolicyKey> keys;
    for (auto& k : GetAttributeKeys(TypeId::LookupByName(type), PolicyRules()))
    {
        if (probe->UsesAttribute(k.attribute))
        {
            keys.push_back(std::move(k));
        }
    }
    probe->Dispose();
    return keys;
}

void
ParsePolicy(const json& v, ScenarioConfig& cfg)
{
    const std::vector<TypeId> tids = PolicyTypeIds();
    const AttributeKeyRules& rules = PolicyRules();
    // Every key of every policy is known here; which policy takes it is
    // decided below.
    std::vector<std::string> known{"policy"};
    for (const TypeId& tid : tids)
    {
        for (const auto& k : GetAttributeKeySpellings(tid, rules))
        {
            if (std::find(known.begin(), known.end(), k) == known.end())
            {
                known.push_back(k);
            }
        }
    }
    auto& sc = cfg.scheduler;
    // The policy before the keys: an unknown policy's keys are unknown too,
    // and the policy is the mistake to name.
    if (v.is_object() && v.contains("policy"))
    {
        const std::string path = "scheduler.policy";
        const std::string policy = ToString(v["policy"], path);
        if (JobScheduler::GetPolicyTypeName(policy).empty())
        {
            Fail(path,
                 NotKnown(policy,
                          ScenarioConfig::AvailablePolicies(),
                          "policy",
                          "a plugin's once it is loaded"));
        }
        sc.policy = policy;
    }
    ObjectReader r(v, "scheduler", known);
    const TypeId chosen = TypeId::LookupByName(JobScheduler::GetPolicyTypeName(sc.policy));
    sc.settings.clear();
    for (auto it = v.begin(); it != v.end(); ++it)
    {
        const std::string& key = it.key();
        if (key == "policy")
        {
            continue;
        }
        // the chosen policy's attribute, else the first policy's that has it
        ResolvedKey res;
        bool found = ResolveAttributeKey(chosen, rules, key, res);
        for (std::size_t i = 0; !found && i < tids.size(); ++i)
        {
            found = ResolveAttributeKey(tids[i], rules, key, res);
        }
        NS_ASSERT_MSG(found, "scheduler key " << key << " of no policy passed ObjectReader");
        for (const auto& s : sc.settings)
        {
            if (s.attribute == res.info.name)
            {
                Fail(r.Path(key), "sets the same attribute as " + Quote(s.key) + "; give one");
            }
        }
        ScenarioConfig::SchedulerSetting s;
        s.key = key;
        s.attribute = res.info.name;
        s.value = ConvertAttributeKey(*it, r.Path(key), key, rules, res, s.number);
        s.written = it->dump();
        sc.settings.push_back(s);
    }
}

} // namespace scenario
} // namespace ns3
