/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "output-file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace ns3
{

std::string
TemporaryOutputPath(const std::string& path)
{
    return path + ".tmp-" + std::to_string(::getpid());
}

std::string
OutputPathProblem(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
    {
        return "\"" + path + "\" is a folder";
    }
    // (a device, a pipe or a socket would be replaced by a plain file)
    if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    {
        return "\"" + path + "\" is not a regular file";
    }
    std::string dir = fs::path(path).parent_path().string();
    if (dir.empty())
    {
        dir = ".";
    }
    if (!fs::is_directory(dir, ec))
    {
        return "folder \"" + dir + "\" does not exist";
    }
    if (::access(dir.c_str(), W_OK) != 0)
    {
        return "folder \"" + dir + "\" is not writable";
    }
    const std::string probe = TemporaryOutputPath(path);
    if (!std::ofstream(probe, std::ios::binary))
    {
        return "cannot write \"" + path + "\": " + std::strerror(errno);
    }
    std::remove(probe.c_str());
    return "";
}

} // namespace ns3
