/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// NamedTypeRegistry: the list by rank then name, a second registration of a
// name refused and kept for a loader, and fatal if nobody takes it.

#include "ns3/job-scheduler.h"
#include "ns3/named-type-registry.h"
#include "ns3/rdma-congestion-control.h"

#include <gtest/gtest.h>

using ns3::NamedTypeRegistry;
using ns3::TypeId;

namespace
{

TypeId
SchedulerTypeId()
{
    return ns3::JobScheduler::GetTypeId();
}

TypeId
CcTypeId()
{
    return ns3::RdmaCongestionControl::GetTypeId();
}

} // namespace

// List() orders by rank, then by name, whatever the registration order.
TEST(NamedTypeRegistry, ListsByRankThenName)
{
    NamedTypeRegistry registry("thing");
    EXPECT_TRUE(registry.Register("zeta", &CcTypeId, 100));
    EXPECT_TRUE(registry.Register("alpha", &SchedulerTypeId, 100));
    EXPECT_TRUE(registry.Register("first", &CcTypeId, 0));
    const auto& list = registry.List();
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0].first, "first");
    EXPECT_EQ(list[1].first, "alpha");
    EXPECT_EQ(list[1].second, "ns3::JobScheduler");
    EXPECT_EQ(list[2].first, "zeta");
    EXPECT_EQ(list[2].second, "ns3::RdmaCongestionControl");
    // a registration after a List() is listed by the next one
    EXPECT_TRUE(registry.Register("beta", &CcTypeId, 100));
    EXPECT_EQ(registry.List().size(), 4u);
    EXPECT_EQ(registry.List()[2].first, "beta");
}

// A name registered again is refused, the first registration kept, and the
// refused name handed once to the loader that asks.
TEST(NamedTypeRegistry, RefusesANameTakenAndHandsItToTheLoader)
{
    NamedTypeRegistry registry("thing");
    EXPECT_TRUE(registry.Register("one", &SchedulerTypeId, 0));
    EXPECT_FALSE(registry.Register("one", &CcTypeId, 1));
    EXPECT_EQ(registry.TakeRefused(), std::vector<std::string>{"one"});
    EXPECT_TRUE(registry.TakeRefused().empty());
    const auto& list = registry.List();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].second, "ns3::JobScheduler");
}

// A refusal nobody took (two files of one build registering one name) stops
// the program at the next List(), naming the kind and the name.
TEST(NamedTypeRegistry, ARefusalNobodyTookIsFatal)
{
    NamedTypeRegistry registry("JobScheduler: policy");
    registry.Register("twice", &SchedulerTypeId, 0);
    registry.Register("twice", &SchedulerTypeId, 0);
    EXPECT_DEATH(registry.List(), "JobScheduler: policy \"twice\" is registered twice");
}

// GetTypeIdOf() asks the function registered; Remove() forgets names, and
// the next List() no longer has them.
TEST(NamedTypeRegistry, GivesAClassesTypeIdAndForgetsRemovedNames)
{
    NamedTypeRegistry registry("thing");
    registry.Register("one", &SchedulerTypeId, 0);
    registry.Register("two", &CcTypeId, 1);
    EXPECT_EQ(registry.List().size(), 2u);
    EXPECT_EQ(registry.GetTypeIdOf("two"), ns3::RdmaCongestionControl::GetTypeId());
    registry.Remove({"two"});
    const auto& list = registry.List();
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].first, "one");
    EXPECT_TRUE(registry.Register("two", &SchedulerTypeId, 1)); // (the name is free again)
}
