/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_LIBRARY_H
#define COLLECTIVE_LIBRARY_H

#include "collective-type.h"

#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief The algorithms flux has for each collective operation, by name, as
 * NCCL_ALGO chooses them: "ring", "direct", "halving-doubling",
 * "hierarchical".
 *
 * GetTypeId(type, algorithm) gives the Collective subclass to create (with
 * an ObjectFactory, or TrainingJobHelper::SetCollective by its name). Every
 * collective created from it reports the same type and algorithm
 * (Collective::GetCollectiveType, Collective::GetAlgorithmName).
 */
class CollectiveLibrary
{
  public:
    /**
     * \param type a collective operation
     * \param algorithm an algorithm's name
     * \return the TypeId of the Collective that runs it; aborts, listing
     *         the valid names, for an unknown pair (Find() does not)
     */
    static TypeId GetTypeId(CollectiveType type, const std::string& algorithm);

    /**
     * \param type a collective operation
     * \param algorithm an algorithm's name
     * \param tid set to its TypeId when there is one
     * \return whether the library has that algorithm for that operation
     */
    static bool Find(CollectiveType type, const std::string& algorithm, TypeId& tid);

    /**
     * \param type a collective operation
     * \return the names of its algorithms, the default first
     */
    static std::vector<std::string> GetAlgorithms(CollectiveType type);

    /**
     * \param type a collective operation
     * \return the name of its default algorithm ("ring", or "direct" for all-to-all)
     */
    static std::string GetDefault(CollectiveType type);

    /**
     * \param type a collective operation
     * \param algorithm one of its algorithms
     * \param nRanks ranks of a group
     * \return why the algorithm cannot run on that many ranks (empty: it
     *         can), as the collective's GetRanksProblem() says with every
     *         rank a server of its own ("hierarchical" also needs servers
     *         of equal size: ask the collective once its servers are set)
     */
    static std::string CheckRanks(CollectiveType type,
                                  const std::string& algorithm,
                                  uint32_t nRanks);
};

} // namespace ns3

#endif /* COLLECTIVE_LIBRARY_H */
