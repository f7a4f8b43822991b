/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_TRACE_FILES_H
#define CHAKRA_TRACE_FILES_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief The files of a Chakra trace, `<prefix>.<rank>.et` or `.et.gz`.
 * \param prefix path and name before `.<rank>.et`
 * \return per rank 0 .. N-1, its file (N - 1 is the highest rank found)
 * \throws ScenarioError when there is no file, a rank below the highest
 *         has none, or a rank has two
 */
std::vector<std::string> ListChakraRankFiles(const std::string& prefix);

/**
 * \ingroup flux-workload
 * \brief Read ASTRA-sim's communication-group file, `{"<pg_name>": [ranks...]}`.
 * \param file the JSON file
 * \param ranks the trace's rank count
 * \return pg_name -> its ranks, ascending
 * \throws ScenarioError naming the file and group: not a regular file,
 *         unreadable or not such an object, a group empty, larger than the
 *         trace, naming a rank twice or a rank outside 0 .. ranks-1
 */
std::map<std::string, std::vector<uint32_t>> ReadChakraCommGroups(const std::string& file,
                                                                  uint32_t ranks);

} // namespace ns3

#endif /* CHAKRA_TRACE_FILES_H */
