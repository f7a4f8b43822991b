/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "output-file.h"

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace ns3
{

std::string
TemporaryOutputPath(const std::string& path)
{
    return path + ".tmp-" + std::to_string(::getpid());
}

namespace
{

/// Write content to a new file; throws std::runtime_error.
void
WriteNewFile(const std::string& path, const std::string& content)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
    {
        throw std::runtime_error(path + ": cannot create the file (" + std::strerror(errno) + ")");
    }
    size_t done = 0;
    while (done < content.size())
    {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0)
        {
            if (errno == EINTR)
            {
                continue;
            }
            const int err = errno;
            ::close(fd);
            throw std::runtime_error(path + ": cannot write (" + std::strerror(err) + ")");
        }
        done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 && errno != EINVAL)
    {
        const int err = errno;
        ::close(fd);
        throw std::runtime_error(path + ": cannot write (" + std::strerror(err) + ")");
    }
    if (::close(fd) != 0)
    {
        throw std::runtime_error(path + ": cannot write (" + std::strerror(errno) + ")");
    }
}

} // namespace

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

void
WriteOutputFiles(const std::vector<std::pair<std::string, std::string>>& files)
{
    std::vector<std::string> temps;
    auto removeTemps = [&temps]() {
        for (const auto& t : temps)
        {
            std::remove(t.c_str());
        }
    };
    try
    {
        for (const auto& [path, content] : files)
        {
            temps.push_back(TemporaryOutputPath(path));
            WriteNewFile(temps.back(), content);
        }
    }
    catch (...)
    {
        removeTemps();
        throw;
    }
    for (size_t i = 0; i < files.size(); ++i)
    {
        if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0)
        {
            const int err = errno;
            temps.erase(temps.begin(), temps.begin() + static_cast<std::ptrdiff_t>(i));
            removeTemps();
            throw std::runtime_error(files[i].first + ": cannot write (" + std::strerror(err) +
                                     ")");
        }
    }
}

} // namespace ns3
