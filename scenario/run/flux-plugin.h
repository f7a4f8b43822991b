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
};

/**
 * \ingroup flux-scenario
 * \brief Load a shared library of one's own policies or congestion
 * controls, built against the module, into the running program.
 *
 * The library's static initialisation registers its classes
 * (FLUX_REGISTER_POLICY, FLUX_REGISTER_CC, NS_OBJECT_ENSURE_REGISTERED), so
 * scenarios, --list-policies and --describe-policy see them from then on,
 * as if they were built in. It is loaded with RTLD_GLOBAL and stays loaded.
 * Loading one file twice adds nothing the second time.
 *
 * Throws ScenarioError naming \p field when the path is not a regular file,
 * the dynamic loader refuses it (its message: not a library, an undefined
 * symbol of another build), or it registers a policy or congestion control
 * under a name already taken (the library then stays loaded, with its
 * other classes). A TypeId name already taken stops ns-3 itself.
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

} // namespace ns3

#endif /* FLUX_PLUGIN_H */
