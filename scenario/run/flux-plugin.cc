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
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <tuple>

namespace ns3
{

namespace
{

/// What tells one build of a file from another: device, inode, size, time.
using FileStamp = std::tuple<dev_t, ino_t, off_t, long long, long long>;

/**
 * \param path a file
 * \return its stamp (all zero when it cannot be examined)
 */
FileStamp
StampOf(const std::string& path)
{
    struct stat st = {};
    if (stat(path.c_str(), &st) != 0)
    {
        return FileStamp{};
    }
    return FileStamp{st.st_dev,
                     st.st_ino,
                     st.st_size,
                     static_cast<long long>(st.st_mtim.tv_sec),
                     static_cast<long long>(st.st_mtim.tv_nsec)};
}

/**
 * \param path a shared library
 * \return the libraries it names as needed (DT_NEEDED), or none when it is
 *         no 64-bit little-endian ELF file (the dynamic loader then says why)
 */
std::vector<std::string>
NeededLibraries(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> needed;
    Elf64_Ehdr eh;
    if (data.size() < sizeof(eh))
    {
        return needed;
    }
    std::memcpy(&eh, data.data(), sizeof(eh));
    if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shoff > data.size() || eh.e_shnum > (data.size() - eh.e_shoff) / sizeof(Elf64_Shdr))
    {
        return needed;
    }
    const auto section = [&data, &eh](std::size_t i) {
        Elf64_Shdr sh;
        std::memcpy(&sh, data.data() + eh.e_shoff + i * sizeof(sh), sizeof(sh));
        return sh;
    };
    for (std::size_t i = 0; i < eh.e_shnum; ++i)
    {
        const Elf64_Shdr dyn = section(i);
        if (dyn.sh_type != SHT_DYNAMIC || dyn.sh_link >= eh.e_shnum ||
            dyn.sh_offset > data.size() || dyn.sh_size > data.size() - dyn.sh_offset)
        {
            continue;
        }
        const Elf64_Shdr str = section(dyn.sh_link);
        if (str.sh_offset > data.size() || str.sh_size > data.size() - str.sh_offset)
        {
            continue;
        }
        for (std::size_t k = 0; k < dyn.sh_size / sizeof(Elf64_Dyn); ++k)
        {
            Elf64_Dyn d;
            std::memcpy(&d, data.data() + dyn.sh_offset + k * sizeof(d), sizeof(d));
            if (d.d_tag == DT_NULL)
            {
                break;
            }
            if (d.d_tag == DT_NEEDED && d.d_un.d_val < str.sh_size)
            {
                const char* name = data.data() + str.sh_offset + d.d_un.d_val;
                needed.emplace_back(name, strnlen(name, str.sh_size - d.d_un.d_val));
            }
        }
    }
    return needed;
}

/**
 * \param path a plugin library
 * \return the first flux or ns-3 core library it needs that this program
 *         has not loaded (a plugin built against another build, whose
 *         second copy of ns-3 would end the program), or ""
 */
std::string
ForeignNs3Library(const std::string& path)
{
    for (const auto& name : NeededLibraries(path))
    {
        // (other ns-3 modules of this program's ns-3 may load beside it)
        if (name.rfind("libns3", 0) != 0 ||
            (name.find("flux") == std::string::npos && name.find("core") == std::string::npos))
        {
            continue;
        }
        // (RTLD_NOLOAD finds a library already loaded under that name)
        void* handle = dlopen(name.c_str(), RTLD_LAZY | RTLD_NOLOAD);
        if (!handle)
        {
            return name;
        }
        dlclose(handle);
    }
    return "";
}

/**
 * \brief Put the module's libraries (and ns-3's, which they need) in the
 * global scope, as they are in a program linked with them: a plugin finds
 * their symbols whether flux-run or Python (whose extension modules are
 * loaded locally) loads it.
 */
void
PromoteFluxLibraries()
{
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&LoadFluxPlugin), &info) && info.dli_fname)
    {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    }
}

/// A library loaded, and its stamp then.
struct LoadedLibrary
{
    std::string path; //!< absolute
    FileStamp stamp;  //!< when it was loaded
};

/// \return the libraries loaded, in order, each once
std::vector<LoadedLibrary>&
Loaded()
{
    static std::vector<LoadedLibrary> loaded;
    return loaded;
}

/**
 * \param registry a registry
 * \return its names, as listed
 */
std::vector<std::string>
NamesOf(NamedTypeRegistry& registry)
{
    std::vector<std::string> names;
    for (const auto& entry : registry.List())
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

/**
 * \brief Check the classes a library registered in one registry.
 * \param registry the registry
 * \param added the names the library added to it
 * \param what their kind ("policy")
 * \param base the TypeId they must derive from
 * \return the problem with the first that is wrong, or ""
 */
std::string
ClassProblem(NamedTypeRegistry& registry,
             const std::vector<std::string>& added,
             const std::string& what,
             TypeId base)
{
    for (const auto& name : added)
    {
        const TypeId own = registry.GetTypeIdOf(name);
        const std::string type = own.GetName();
        const std::string of = "the " + what + " \"" + name + "\" ";
        TypeId found;
        if (!TypeId::LookupByNameFailSafe(type, &found) || found != own)
        {
            // (ns-3 keeps the first class of a name and, in its optimised
            // builds, says nothing of the second)
            return of + "has the TypeId name " + type + ", which another class has";
        }
        for (const auto& [other, otherType] : registry.List())
        {
            if (other != name && otherType == type)
            {
                // (an inline GetTypeId's static TypeId is one object per
                // process for one C++ name, whatever the library)
                return of + "is the class of the " + what + " \"" + other + "\" (" + type +
                       "): two libraries define a class of one C++ name (build with "
                       "-fvisibility=hidden)";
            }
        }
        if (!own.IsChildOf(base))
        {
            return of + "is a " + type + ", not a " + base.GetName();
        }
        if (!own.HasConstructor())
        {
            return of + "has no constructor (AddConstructor in its TypeId)";
        }
    }
    return "";
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
    // absolute path makes it the file named (and a link, the file it names)
    plugin.path = fs::canonical(path, ec).string();
    if (ec)
    {
        plugin.path = fs::absolute(path, ec).lexically_normal().string();
    }
    for (const auto& library : Loaded())
    {
        if (library.path == plugin.path)
        {
            if (library.stamp != StampOf(plugin.path))
            {
                throw ScenarioError(field,
                                    path + ": changed since it was loaded (rebuilt or "
                                           "touched): a process keeps the build it loaded; "
                                           "start a new one to load it again");
            }
            plugin.loadedBefore = true;
            return plugin;
        }
    }

    NamedTypeRegistry& policyRegistry = JobScheduler::GetPolicyRegistry();
    NamedTypeRegistry& ccRegistry = RdmaCongestionControl::GetAlgorithmRegistry();
    const auto policiesBefore = NamesOf(policyRegistry);
    const auto algorithmsBefore = NamesOf(ccRegistry);
    const FileStamp stamp = StampOf(plugin.path);
    std::string problem;
    if (const std::string foreign = ForeignNs3Library(plugin.path); !foreign.empty())
    {
        throw ScenarioError(field,
                            path + ": needs " + foreign +
                                ", which this program does not run: it was built against "
                                "another build of ns-3 or flux; build it against this one");
    }
    PromoteFluxLibraries();
    dlerror();
    try
    {
        // (through a pointer the compiler cannot see through: glibc declares
        // dlopen noexcept, so a direct call has no handler, but an exception
        // out of the library's static initialisation does pass through it)
        void* (*volatile open)(const char*, int) = &dlopen;
        if (!open(plugin.path.c_str(), RTLD_NOW | RTLD_LOCAL))
        {
            const char* why = dlerror();
            // (its message names the file when the file itself is refused,
            // a library it needs otherwise)
            problem = !why ? path + ": the dynamic loader refused it"
                      : std::string(why).rfind(plugin.path + ": ", 0) == 0 ? why
                                                                           : path + ": " + why;
        }
    }
    catch (const std::exception& e)
    {
        // (the dynamic loader did not finish: its own state may be left
        // half-done, which only a new process clears)
        problem = path + ": its static initialisation threw: " + e.what() +
                  " (start a new process before loading another)";
    }
    const auto refusedPolicies = policyRegistry.TakeRefused();
    const auto refusedAlgorithms = ccRegistry.TakeRefused();
    plugin.policies = Added(policiesBefore, NamesOf(policyRegistry));
    plugin.algorithms = Added(algorithmsBefore, NamesOf(ccRegistry));
    if (problem.empty() && !refusedPolicies.empty())
    {
        problem = path + ": registers the policy \"" + refusedPolicies.front() +
                  "\", a name already taken (see --list-policies)";
    }
    if (problem.empty() && !refusedAlgorithms.empty())
    {
        problem = path + ": registers the congestion control \"" + refusedAlgorithms.front() +
                  "\", a name already taken (see --list-cc)";
    }
    if (problem.empty())
    {
        problem =
            ClassProblem(policyRegistry, plugin.policies, "policy", JobScheduler::GetTypeId());
        if (problem.empty())
        {
            problem = ClassProblem(ccRegistry,
                                   plugin.algorithms,
                                   "congestion control",
                                   RdmaCongestionControl::GetTypeId());
        }
        if (!problem.empty())
        {
            problem = path + ": " + problem;
        }
    }
    if (!problem.empty())
    {
        // (the library stays mapped: ns-3 may hold its TypeIds' functions)
        policyRegistry.Remove(plugin.policies);
        ccRegistry.Remove(plugin.algorithms);
        throw ScenarioError(field, problem);
    }
    Loaded().push_back(LoadedLibrary{plugin.path, stamp});
    return plugin;
}

std::vector<std::string>
GetLoadedFluxPlugins()
{
    std::vector<std::string> paths;
    for (const auto& library : Loaded())
    {
        paths.push_back(library.path);
    }
    return paths;
}

void
CheckFluxPluginsUnchanged()
{
    for (const auto& library : Loaded())
    {
        const FileStamp now = StampOf(library.path);
        if (now == FileStamp{})
        {
            throw ScenarioError("plugin",
                                library.path + ": gone since it was loaded: a process keeps "
                                               "the build it loaded; start a new one");
        }
        if (library.stamp != now)
        {
            throw ScenarioError("plugin",
                                library.path + ": changed since it was loaded (rebuilt or "
                                               "touched): a process keeps the build it "
                                               "loaded; start a new one to use it");
        }
    }
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
