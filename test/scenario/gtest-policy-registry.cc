/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A policy is one class plus its registration: a policy defined in this file
 * alone is listed, takes its attributes as scenario keys (checked by the
 * attributes' checkers) and runs a scenario. The class is the example of
 * doc/flux.rst ("Writing a policy").
 */

#include "ns3/enum.h"
#include "ns3/job-scheduler.h"
#include "ns3/nstime.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"
#include "ns3/scenario-policy-keys.h"
#include "ns3/scenario-runner.h"
#include "ns3/scenario-scheduler.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

namespace ns3
{

/// Delays the first iteration of job j by j x Offset (and holds nothing else).
class StaggerScheduler : public JobScheduler
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::StaggerScheduler")
                                .SetParent<JobScheduler>()
                                .AddConstructor<StaggerScheduler>()
                                .AddAttribute("Offset",
                                              "Delay of job j's first iteration: j x Offset.",
                                              TimeValue(MicroSeconds(100)),
                                              MakeTimeAccessor(&StaggerScheduler::m_offset),
                                              MakeTimeChecker(Seconds(0), MilliSeconds(10)));
        return tid;
    }

    std::string GetPolicyName() const override
    {
        return "stagger";
    }

    void Start() override
    {
        for (uint32_t j = 0; j < GetNJobs(); ++j)
        {
            GetJobInfo(j).job->SetIterationGate(MakeBoundCallback(&Wait, m_offset * j));
        }
    }

  private:
    /**
     * \param delay the job's delay
     * \param iteration the iteration starting
     * \return how long its compute waits
     */
    static Time Wait(Time delay, Ptr<TrainingJob> /* job */, uint32_t iteration)
    {
        return iteration == 0 ? delay : Time();
    }

    Time m_offset; //!< delay step between jobs
};

FLUX_REGISTER_POLICY("stagger", StaggerScheduler, JobScheduler::POLICY_RANK_OTHER);

/**
 * \param member an enum member
 * \return its accessor: ns-3 up to 3.40 deduces the enum, later releases
 *         take it as a template argument
 */
template <typename E, typename C>
auto
EnumAccessor(E C::*member, int) -> decltype(MakeEnumAccessor<E>(member))
{
    return MakeEnumAccessor<E>(member);
}

/// \copydoc EnumAccessor(E C::*, int)
template <typename E, typename C>
auto
EnumAccessor(E C::*member, long) -> decltype(MakeEnumAccessor(member))
{
    return MakeEnumAccessor(member);
}

/// A policy with a choice among names (an Enum attribute); it decides nothing.
class ChoiceScheduler : public JobScheduler
{
  public:
    /// The orders it could take.
    enum Order
    {
        ARRIVAL, //!< by arrival
        SIZE     //!< by size
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::ChoiceScheduler")
                                .SetParent<JobScheduler>()
                                .AddConstructor<ChoiceScheduler>()
                                .AddAttribute("Order",
                                              "The order of the jobs.",
                                              EnumValue(ARRIVAL),
                                              EnumAccessor(&ChoiceScheduler::m_order, 0),
                                              MakeEnumChecker(ARRIVAL, "arrival", SIZE, "size"));
        return tid;
    }

    std::string GetPolicyName() const override
    {
        return "choice";
    }

  private:
    Order m_order{ARRIVAL}; //!< the order
};

FLUX_REGISTER_POLICY("choice", ChoiceScheduler, JobScheduler::POLICY_RANK_OTHER);

} // namespace ns3

using namespace ns3;
using json = nlohmann::json;

namespace
{

/**
 * \param scheduler the "scheduler" object
 * \return two 2-rank jobs on a dumbbell, each crossing the fabric cable
 */
json
TwoJobs(const json& scheduler)
{
    json s = json::parse(R"({
      "topology": {"kind": "dumbbell", "hosts_per_side": 2},
      "jobs": [
        {"name": "a", "ranks": 2, "hosts": [0, 2], "bytes": 1000000, "compute_ms": 0.2,
         "iterations": 2},
        {"name": "b", "ranks": 2, "hosts": [1, 3], "bytes": 1000000, "compute_ms": 0.2,
         "iterations": 2}]})");
    s["scheduler"] = scheduler;
    return s;
}

/**
 * \param s a scenario
 * \return the ScenarioError message of parsing it ("" when it parses)
 */
std::string
ParseError(const json& s)
{
    try
    {
        ParseScenario(s, ".");
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

} // namespace

TEST(PolicyRegistry, ATestFilePolicyIsListedAfterTheFirstFour)
{
    const auto policies = ScenarioConfig::AvailablePolicies();
    ASSERT_GE(policies.size(), 5u);
    EXPECT_EQ(std::vector<std::string>(policies.begin(), policies.begin() + 4),
              (std::vector<std::string>{"fifo", "cassini", "crux", "flux"}));
    EXPECT_NE(std::find(policies.begin() + 4, policies.end(), "stagger"), policies.end());
    EXPECT_EQ(JobScheduler::GetPolicyTypeName("stagger"), "ns3::StaggerScheduler");
    // the others are in name order after the first four
    EXPECT_TRUE(std::is_sorted(policies.begin() + 4, policies.end()));
}

TEST(PolicyRegistry, AttributesAreScenarioKeys)
{
    const auto keys = scenario::GetPolicyKeys("stagger");
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(keys[0].key, "offset_us");
    EXPECT_EQ(keys[0].attribute, "Offset");
    EXPECT_EQ(keys[0].type, "time");
    EXPECT_EQ(keys[0].defaultValue, "100");
    // and JobScheduler's, inherited where they apply: stagger gives no
    // classes of its own, flux does
    const auto has = [](const std::vector<scenario::PolicyKey>& ks, const std::string& key) {
        return std::any_of(ks.begin(), ks.end(), [&key](const scenario::PolicyKey& k) {
            return k.key == key;
        });
    };
    EXPECT_FALSE(has(keys, "background_first"));
    EXPECT_TRUE(has(scenario::GetPolicyKeys("flux"), "background_first"));

    const ScenarioConfig cfg =
        ParseScenario(TwoJobs({{"policy", "stagger"}, {"offset_ms", 0.5}}), ".");
    TimeValue offset;
    CreateScheduler(cfg)->GetAttribute("Offset", offset);
    EXPECT_EQ(offset.Get(), MicroSeconds(500));

    EXPECT_EQ(ParseError(TwoJobs({{"policy", "stagger"}, {"offset_ms", 20}})),
              "scheduler.offset_ms: must be at most 10, got 20");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "stagger"}, {"offset_us", -1}})),
              "scheduler.offset_us: must not be negative, got -1");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "stagger"}, {"offset_us", "soon"}})),
              "scheduler.offset_us: expected a number, got \"soon\"");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "stagger"}, {"offset", 1}})),
              "scheduler.offset: unknown key (did you mean \"offset_us\"?)");
    // a key of stagger under another policy: checked, then left out
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "fifo"}, {"offset_ms", 20}})),
              "scheduler.offset_ms: must be at most 10, got 20");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "fifo"}, {"offset_us", 5}})), "");
}

TEST(PolicyRegistry, ATestFilePolicyRuns)
{
    ScenarioConfig cfg = ParseScenario(TwoJobs({{"policy", "stagger"}, {"offset_us", 500}}), ".");
    RunOptions opts;
    opts.quiet = true;
    const RunResults r = RunScenario(cfg, opts);
    EXPECT_EQ(r.policy, "stagger");
    ASSERT_EQ(r.jobs.size(), 2u);
    for (const auto& j : r.jobs)
    {
        EXPECT_EQ(j.iterationMs.size(), 2u) << j.name;
    }
    EXPECT_NEAR(r.jobs[0].gateWaitMs, 0, 1e-9);
    EXPECT_NEAR(r.jobs[1].gateWaitMs, 0.5, 1e-6); // job 1 waited one offset
}

TEST(PolicyRegistry, ASharedKeyMeansTheSameToEveryPolicy)
{
    // A scheduler key of another policy is checked against that policy and
    // ignored, so that a scenario tuned for one policy runs under every
    // --policy: two policies whose attributes share a name must therefore
    // take the same values there (type and range).
    std::map<std::string, std::pair<std::string, std::string>> seen; // name: (policy, type)
    for (const auto& [policy, typeName] : JobScheduler::GetPolicies())
    {
        for (TypeId t = TypeId::LookupByName(typeName); t != JobScheduler::GetTypeId().GetParent();
             t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const TypeId::AttributeInformation info = t.GetAttribute(i);
                const std::string type = info.checker->GetValueTypeName() + " " +
                                         (info.checker->HasUnderlyingTypeInformation()
                                              ? info.checker->GetUnderlyingTypeInformation()
                                              : std::string());
                const auto [it, added] = seen.emplace(info.name, std::make_pair(policy, type));
                EXPECT_TRUE(added || it->second.second == type)
                    << "attribute " << info.name << ": " << it->second.first << " takes "
                    << it->second.second << ", " << policy << " takes " << type;
            }
        }
    }
}

TEST(PolicyRegistry, AChoiceKeyListsItsNames)
{
    // an Enum attribute's key says which names it takes, and so does its refusal
    const auto keys = scenario::GetPolicyKeys("choice");
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(keys[0].key, "order");
    EXPECT_EQ(keys[0].type, "string");
    EXPECT_EQ(keys[0].range, "\"arrival\" | \"size\"");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "choice"}, {"order", "age"}})),
              "scheduler.order: \"age\" is not accepted by ns3::ChoiceScheduler::Order "
              "(expected \"arrival\" | \"size\")");
    EXPECT_EQ(ParseError(TwoJobs({{"policy", "choice"}, {"order", "size"}})), "");
}
