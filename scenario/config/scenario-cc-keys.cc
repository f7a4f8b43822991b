/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-cc-keys.h"

#include "scenario-config.h"
#include "scenario-reader.h"

#include "ns3/rdma-congestion-control.h"

#include <algorithm>

namespace ns3
{
namespace scenario
{

namespace
{

/// The section with keys of its own (DcqcnProfile), not read here.
const std::string kOwnKeysSection = "dcqcn";

/**
 * \param name an algorithm's name
 * \return how "transport.<name>" keys map to its attributes
 */
AttributeKeyRules
CcRules(const std::string& name)
{
    AttributeKeyRules r;
    r.section = "transport." + name;
    r.root = RdmaCongestionControl::GetTypeId();
    return r;
}

} // namespace

std::vector<std::string>
GetCcSections()
{
    std::vector<std::string> out;
    for (const auto& [name, type] : RdmaCongestionControl::GetAlgorithms())
    {
        if (name != kOwnKeysSection)
        {
            out.push_back(name);
        }
    }
    return out;
}

std::vector<AttributeKey>
GetCcKeys(const std::string& algorithm)
{
    const std::string type = RdmaCongestionControl::GetAlgorithmTypeName(algorithm);
    if (type.empty() || algorithm == kOwnKeysSection)
    {
        return {};
    }
    return GetAttributeKeys(TypeId::LookupByName(type), CcRules(algorithm));
}

void
ParseCcSections(const ObjectReader& r, ScenarioConfig& cfg)
{
    auto& settings = cfg.transport.ccSettings;
    settings.clear();
    for (const auto& name : GetCcSections())
    {
        if (!r.Has(name))
        {
            continue;
        }
        const TypeId tid = TypeId::LookupByName(RdmaCongestionControl::GetAlgorithmTypeName(name));
        const AttributeKeyRules rules = CcRules(name);
        const nlohmann::json& v = r[name];
        ObjectReader section(v, r.Path(name), GetAttributeKeySpellings(tid, rules));
        std::vector<ScenarioConfig::CcSetting> own;
        for (auto it = v.begin(); it != v.end(); ++it)
        {
            const std::string& key = it.key();
            ResolvedKey res;
            const bool found = ResolveAttributeKey(tid, rules, key, res);
            NS_ASSERT_MSG(found, "cc key " << key << " passed ObjectReader");
            for (const auto& s : own)
            {
                if (s.attribute == res.owner.GetName() + "::" + res.info.name)
                {
                    Fail(section.Path(key),
                         "sets the same attribute as " + Quote(s.key) + "; give one");
                }
            }
            ScenarioConfig::CcSetting s;
            s.algorithm = name;
            s.key = key;
            s.attribute = res.owner.GetName() + "::" + res.info.name;
            s.value = ConvertAttributeKey(*it, section.Path(key), key, rules, res, s.number);
            own.push_back(s);
        }
        if (name == cfg.transport.cc)
        {
            settings.insert(settings.end(), own.begin(), own.end());
        }
    }
}

} // namespace scenario
} // namespace ns3
