/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef OUTPUT_FILE_H
#define OUTPUT_FILE_H

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \param path a file a writer makes
 * \return the name the writer gives its content until it renames it onto
 * \p path (`<path>.tmp-<pid>`), so that a reader never sees half a file
 */
std::string TemporaryOutputPath(const std::string& path);

/**
 * \ingroup flux-scenario
 * \brief Why a writer could not make \p path, found before a run rather
 * than after it.
 *
 * The file must not be a folder or a special file (the writer renames a
 * plain file onto it), its folder must exist and be writable, and the
 * writer's temporary file (TemporaryOutputPath) is made and removed, so a
 * name too long or a file system that takes no files fails too.
 *
 * \param path the file
 * \return the problem in a few words, or "" when it can be written
 */
std::string OutputPathProblem(const std::string& path);

/**
 * \ingroup flux-scenario
 * \brief Write files so that none is ever seen half-written.
 *
 * Every file is first written in full (and synced) under its
 * TemporaryOutputPath, then they are renamed into place in the order
 * given, so that the last one's presence means that the others are
 * complete. On failure the temporary files are removed and
 * std::runtime_error is thrown with a one-line message `<path>: <reason>`.
 *
 * \param files (path, content) pairs
 */
void WriteOutputFiles(const std::vector<std::pair<std::string, std::string>>& files);

} // namespace ns3

#endif /* OUTPUT_FILE_H */
