/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_PLUGIN_H
#define FLUX_PLUGIN_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief What a plugin library added when it was loaded.
 */
struct FluxPlugin
{
    std::string path;                    //!< the library, as loaded (absolute)
    std::vector<std::string> policies;   //!< policies it registered (FLUX_REGISTER_POLICY)
    std::vector<std::string> algorithms; //!< congestion controls it registered (FLUX_REGISTER_CC)
    bool loadedBefore{false};            //!< it was loaded before: nothing was added
};

/**
 * \ingroup flux-scenario
 * \brief Load a shared library of one's own policies or congestion
 * controls, built against the module, into the running program.
 *
 * The library's static initialisation registers its classes
 * (FLUX_REGISTER_POLICY, FLUX_REGISTER_CC), so scenarios, --list-policies
 * and --describe-policy see them from then on, as if they were built in.
 * It is loaded with RTLD_LOCAL and stays loaded: a process loads a file
 * once, and refuses it again once it has changed on disk.
 *
 * Throws ScenarioError naming \p field when the path is not a regular file,
 * the dynamic loader refuses it (its message: not a library, an undefined
 * symbol of another build), or a class it registers has a name already
 * taken (policy or congestion control), a TypeId name another class has,
 * the class of another registration (one C++ name in two libraries built
 * without -fvisibility=hidden), no constructor, or the wrong base class.
 * A library refused after it registered classes has them unregistered. An
 * exception out of its static initialisation cannot pass the dynamic
 * loader: the program ends there.
 *
 * \param path the library (a relative path is from the current folder)
 * \param field the option or variable that named it, for messages
 * \return what it registered
 */
FluxPlugin LoadFluxPlugin(const std::string& path, const std::string& field);

/**
 * \ingroup flux-scenario
 * \brief Load the libraries of the FLUX_PLUGINS environment variable
 * (paths separated by ':'), in order, with LoadFluxPlugin().
 * \return what each registered; none when the variable is unset or empty
 */
std::vector<FluxPlugin> LoadFluxPluginsFromEnvironment();

/**
 * \ingroup flux-scenario
 * \return the libraries LoadFluxPlugin() loaded, in order, each once (what
 *         a results cache must take into account beside the module's own)
 */
std::vector<std::string> GetLoadedFluxPlugins();

/**
 * \ingroup flux-scenario
 * \brief Check that no plugin loaded has changed on disk since: a process
 * that runs one build of it while its workers, or a cache, would take
 * another. Throws ScenarioError (field "plugin") naming the first changed.
 */
void CheckFluxPluginsUnchanged();

} // namespace ns3

#endif /* FLUX_PLUGIN_H */
