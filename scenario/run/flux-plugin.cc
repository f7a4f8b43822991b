/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-plugin.h"

#include "ns3/job-scheduler.h"
#include "ns3/named-type-registry.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>

namespace ns3
{

namespace
{

/**
 * \param list a registry's list
 * \return its names
 */
std::vector<std::string>
NamesOf(const std::vector<std::pair<std::string, std::string>>& list)
{
    std::vector<std::string> names;
    for (const auto& entry : list)
    {
        names.push_back(entry.first);
    }
    return names;
}

/**
 * \param before the names listed before the library was loaded
 * \param after the names listed after
 * \return those of after that are not in before, in after's order
 */
std::vector<std::string>
Added(const std::vector<std::string>& before, const std::vector<std::string>& after)
{
    std::vector<std::string> added;
    for (const auto& name : after)
    {
        if (std::find(before.begin(), before.end(), name) == before.end())
        {
            added.push_back(name);
        }
    }
    return added;
}

/// \return the libraries loaded, in order, each once
std::vector<std::string>&
Loaded()
{
    static std::vector<std::string> loaded;
    return loaded;
}

} // namespace

FluxPlugin
LoadFluxPlugin(const std::string& path, const std::string& field)
{
    namespace fs = std::filesystem;
    if (path.empty())
    {
        throw ScenarioError(field, "expected the path of a shared library");
    }
    std::error_code ec;
    if (!fs::exists(path, ec))
    {
        throw ScenarioError(field, path + ": no such file");
    }
    RequireRegularFile(path, "a shared library", field);
    FluxPlugin plugin;
    // dlopen searches the library path for a name without a slash: the
    // absolute path makes it the file named
    plugin.path = fs::absolute(path, ec).lexically_normal().string();

    const auto policies = NamesOf(JobScheduler::GetPolicies());
    const auto algorithms = NamesOf(RdmaCongestionControl::GetAlgorithms());
    dlerror();
    if (!dlopen(plugin.path.c_str(), RTLD_NOW | RTLD_GLOBAL))
    {
        const char* why = dlerror();
        throw ScenarioError(field, why ? why : path + ": the dynamic loader refused it");
    }
    if (std::find(Loaded().begin(), Loaded().end(), plugin.path) == Loaded().end())
    {
        Loaded().push_back(plugin.path);
    }
    const auto refusedPolicies = JobScheduler::GetPolicyRegistry().TakeRefused();
    const auto refusedAlgorithms = RdmaCongestionControl::GetAlgorithmRegistry().TakeRefused();
    if (!refusedPolicies.empty())
    {
        throw ScenarioError(field,
                            path + ": registers the policy \"" + refusedPolicies.front() +
                                "\", a name already taken (see --list-policies)");
    }
    if (!refusedAlgorithms.empty())
    {
        throw ScenarioError(field,
                            path + ": registers the congestion control \"" +
                                refusedAlgorithms.front() +
                                "\", a name already taken (see --list-cc)");
    }
    plugin.policies = Added(policies, NamesOf(JobScheduler::GetPolicies()));
    plugin.algorithms = Added(algorithms, NamesOf(RdmaCongestionControl::GetAlgorithms()));
    return plugin;
}

std::vector<std::string>
GetLoadedFluxPlugins()
{
    return Loaded();
}

std::vector<FluxPlugin>
LoadFluxPluginsFromEnvironment()
{
    std::vector<FluxPlugin> loaded;
    const char* value = std::getenv("FLUX_PLUGINS");
    if (!value)
    {
        return loaded;
    }
    const std::string paths = value;
    for (std::size_t from = 0; from <= paths.size();)
    {
        const std::size_t colon = std::min(paths.find(':', from), paths.size());
        if (colon > from)
        {
            loaded.push_back(LoadFluxPlugin(paths.substr(from, colon - from), "FLUX_PLUGINS"));
        }
        from = colon + 1;
    }
    return loaded;
}

} // namespace ns3
