/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NAMED_TYPE_REGISTRY_H
#define NAMED_TYPE_REGISTRY_H

#include "ns3/type-id.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux
 * \brief Classes found by a short name: the scheduling policies
 * (JobScheduler::GetPolicies()) and the congestion controls
 * (RdmaCongestionControl::GetAlgorithms()).
 *
 * A class registers itself during the static initialisation of its own
 * file, or of a plugin library when that is loaded (LoadFluxPlugin()).
 * Only the name, the TypeId function and the rank are stored, so that the
 * order of static initialisation between files does not matter: the
 * TypeIds are asked for when List() is first called after a registration.
 * A name registered a second time is refused and kept aside: a loader takes
 * it with TakeRefused() and reports it; List() aborts if nobody did (two
 * files of one build registering one name).
 */
class NamedTypeRegistry
{
  public:
    /// \param what the kind of class, for messages ("policy")
    explicit NamedTypeRegistry(std::string what);

    /**
     * \param name the class's name
     * \param getTypeId the class's GetTypeId
     * \param rank its place in List(): lower first, equal ranks by name
     * \return true, or false for a name already registered (kept aside)
     */
    bool Register(const std::string& name, TypeId (*getTypeId)(), uint32_t rank);

    /// \return name and TypeId name of every class, by rank and then by name
    const std::vector<std::pair<std::string, std::string>>& List();

    /// \return the names refused since the last call, which it forgets
    std::vector<std::string> TakeRefused();

    /**
     * \param name a registered name
     * \return its class's TypeId, from the function registered (whose name
     *         another class may have taken: TypeId::LookupByName() of it
     *         then gives the other)
     */
    TypeId GetTypeIdOf(const std::string& name);

    /// \param names registered names to forget (a plugin refused after it registered them)
    void Remove(const std::vector<std::string>& names);

  private:
    /// One Register() call.
    struct Entry
    {
        std::string name;      //!< the class's name
        TypeId (*getTypeId)(); //!< its GetTypeId
        uint32_t rank;         //!< its place in the list
    };

    std::string m_what;                                      //!< kind, for messages
    std::vector<Entry> m_entries;                            //!< in registration order
    std::vector<std::string> m_refused;                      //!< names registered again
    std::vector<std::pair<std::string, std::string>> m_list; //!< List()'s answer
    std::size_t m_listed{0};                                 //!< entries m_list holds
    std::mutex m_mutex;                                      //!< guards all the above
};

} // namespace ns3

#endif /* NAMED_TYPE_REGISTRY_H */
