/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-cc-keys.h"

#include "scenario-config.h"
#include "scenario-reader.h"

#include "ns3/dcqcn-profile.h"
#include "ns3/int-header.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/string.h"

#include <algorithm>
#include <map>

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
            for (const auto& s : own)
            {
                cfg.transport.keyAttributes[s.attribute] = section.Path(s.key);
            }
        }
    }
}

namespace
{

/**
 * \brief An algorithm that reads INT (HPCC) needs link rates the telemetry
 * codes exactly: any other would reach it as the nearest coded rate.
 * \param cfg the scenario
 * \param factory the algorithm's ObjectFactory string
 * \param key the key that chose it
 * \param name the algorithm as that key names it
 */
void
CheckIntRates(const ScenarioConfig& cfg,
              const std::string& factory,
              const std::string& key,
              const std::string& name)
{
    ObjectFactoryValue value;
    if (!value.DeserializeFromString(factory, MakeObjectFactoryChecker()))
    {
        return; // (ns3_defaults names it)
    }
    Ptr<RdmaCongestionControl> probe = value.Get().Create<RdmaCongestionControl>();
    const bool readsInt = probe && probe->UsesInt();
    if (probe)
    {
        probe->Dispose();
    }
    if (!readsInt)
    {
        return;
    }
    const auto& t = cfg.topology;
    std::vector<std::pair<double, std::string>> rates{{t.hostGbps, "topology.host_gbps"},
                                                      {t.fabricGbps, "topology.fabric_gbps"}};
    for (std::size_t i = 0; i < t.links.size(); ++i)
    {
        rates.emplace_back(t.links[i].gbps, "topology.links[" + std::to_string(i) + "].gbps");
    }
    for (const auto& [gbps, rateKey] : rates)
    {
        if (!IntHop::IsCodedLineRate(static_cast<uint64_t>(gbps * 1e9)))
        {
            Fail(key,
                 Quote(name) +
                     " needs link rates its telemetry can code (10, 25, 40, 50, 100, 200, 400 "
                     "or 800 Gb/s), and " +
                     rateKey + " is " + Num(gbps));
        }
    }
}

} // namespace

void
CheckCcSettings(const ScenarioConfig& cfg)
{
    const auto& tr = cfg.transport;
    const std::string type = RdmaCongestionControl::GetAlgorithmTypeName(tr.cc);
    const auto chosen = cfg.ns3Defaults.find("ns3::RdmaNic::CongestionControl");
    if (chosen != cfg.ns3Defaults.end())
    {
        CheckIntRates(cfg,
                      chosen->second,
                      "ns3_defaults.ns3::RdmaNic::CongestionControl",
                      chosen->second);
    }
    else if (!type.empty())
    {
        CheckIntRates(cfg, type, "transport.cc", tr.cc);
    }
    if (type.empty() || chosen != cfg.ns3Defaults.end())
    {
        return; // (a factory's attributes are checked with it)
    }
    const TypeId tid = TypeId::LookupByName(type);
    const DataRate line(static_cast<uint64_t>(cfg.topology.hostGbps * 1e9));
    // The problem of the algorithm with these attribute values.
    auto problemWith = [&tid, &line](const std::map<std::string, std::string>& values) {
        ObjectFactory factory;
        factory.SetTypeId(tid);
        for (TypeId t = tid;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const auto it = values.find(t.GetName() + "::" + t.GetAttribute(i).name);
                if (it != values.end())
                {
                    factory.Set(t.GetAttribute(i).name, StringValue(it->second));
                }
            }
            if (t.GetParent() == t)
            {
                break;
            }
        }
        Ptr<RdmaCongestionControl> probe = factory.Create<RdmaCongestionControl>();
        const auto problem = probe->GetSettingsProblem(line);
        probe->Dispose();
        return problem;
    };
    // what the run sets with no transport keys, then with the scenario's
    // (profile, keys, then ns3_defaults, as the run sets them)
    std::map<std::string, std::string> values;
    for (const auto& [name, value] :
         DcqcnProfile::Find(DcqcnProfile::DefaultName())->HostAttributes(cfg.topology.hostGbps))
    {
        values[name] = value;
    }
    if (!problemWith(values).attribute.empty())
    {
        return; // the defaults' own (a line rate below their floor): not the scenario's doing
    }
    // the fields that set this algorithm's attributes, by attribute name
    std::map<std::string, std::string> fields;
    for (const auto& [name, value] : tr.dcqcn.HostAttributes(cfg.topology.hostGbps))
    {
        values[name] = value;
    }
    for (const auto& s : tr.ccSettings)
    {
        values[s.attribute] = s.value;
    }
    for (const auto& [name, field] : tr.keyAttributes)
    {
        fields[name] = field;
    }
    for (const auto& [name, value] : cfg.ns3Defaults)
    {
        values[name] = value;
        fields[name] = "ns3_defaults[" + Quote(name) + "]";
    }
    const auto problem = problemWith(values);
    if (problem.attribute.empty())
    {
        return;
    }
    // the field that set the attribute at fault, else one that set another
    // of the algorithm's (an inverted pair: the scenario set the other end)
    std::string field;
    for (TypeId t = tid; field.empty(); t = t.GetParent())
    {
        const auto it = fields.find(t.GetName() + "::" + problem.attribute);
        if (it != fields.end())
        {
            field = it->second;
        }
        for (std::size_t i = 0; i < t.GetAttributeN() && field.empty(); ++i)
        {
            const auto other = fields.find(t.GetName() + "::" + t.GetAttribute(i).name);
            if (other != fields.end())
            {
                field = other->second;
            }
        }
        if (t.GetParent() == t)
        {
            break;
        }
    }
    Fail(field.empty() ? "transport.cc" : field,
         type + "::" + problem.attribute + ": " + problem.why);
}

} // namespace scenario
} // namespace ns3
