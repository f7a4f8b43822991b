/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Runs the module's ns-3 TestSuites in a standalone build (an installed ns-3
// has no test-runner of its own). It takes the options of ns-3's test-runner,
// e.g.
//
//   flux-test-runner --print-test-name-list
//   flux-test-runner --test-name=flux-headers --verbose
//
// and is stricter than it in two ways, so that a typing error cannot pass as
// a successful run: an option ns-3's runner does not know, and a suite name
// that no linked suite has, are errors (ns-3's runner prints its help and
// exits 0 on the first).

#include "ns3/test.h"

#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{

/**
 * Whether an argument is one that ns-3's test-runner understands.
 *
 * \param arg The argument.
 * \return True if ns3::TestRunner::Run knows it.
 */
bool
IsKnownOption(const std::string& arg)
{
    static const std::set<std::string> flags = {"--assert-on-failure",
                                                "--stop-on-failure",
                                                "--verbose",
                                                "--print-temp-dir",
                                                "--update-data",
                                                "--help",
                                                "--print-test-name-list",
                                                "--list",
                                                "--print-test-types",
                                                "--print-test-type-list",
                                                "--append",
                                                "--xml"};
    static const std::vector<std::string> valued = {"--test-type=",
                                                    "--test-name=",
                                                    "--suite=",
                                                    "--tempdir=",
                                                    "--out=",
                                                    "--fullness=",
                                                    "--only-fullness="};
    if (flags.count(arg) != 0)
    {
        return true;
    }
    for (const auto& prefix : valued)
    {
        if (arg.compare(0, prefix.size(), prefix) == 0)
        {
            return true;
        }
    }
    return false;
}

/**
 * The names of all TestSuites linked into this program, as ns-3's runner
 * lists them.
 *
 * \param program The program name (argv[0]).
 * \return The suite names.
 */
std::set<std::string>
ListSuites(const std::string& program)
{
    std::string arg0 = program;
    std::string arg1 = "--print-test-name-list";
    std::vector<char*> args = {arg0.data(), arg1.data(), nullptr};

    std::ostringstream captured;
    std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
    ns3::TestRunner::Run(2, args.data());
    std::cout.rdbuf(saved);

    std::set<std::string> names;
    std::istringstream lines(captured.str());
    std::string line;
    while (std::getline(lines, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        const auto last = line.find_last_not_of(" \t\r");
        if (first != std::string::npos)
        {
            names.insert(line.substr(first, last - first + 1));
        }
    }
    return names;
}

} // namespace

int
main(int argc, char** argv)
{
    const std::string program = argc > 0 ? argv[0] : "flux-test-runner";
    std::vector<std::string> requested;
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (!IsKnownOption(arg))
        {
            std::cerr << program << ": unknown option '" << arg
                      << "' (see --help for the options of ns-3's test-runner)" << std::endl;
            return 2;
        }
        for (const std::string prefix : {"--test-name=", "--suite="})
        {
            if (arg.compare(0, prefix.size(), prefix) == 0)
            {
                requested.push_back(arg.substr(prefix.size()));
            }
        }
    }

    if (!requested.empty())
    {
        const auto suites = ListSuites(program);
        for (const auto& name : requested)
        {
            if (suites.count(name) == 0)
            {
                std::cerr << program << ": no TestSuite named '" << name
                          << "'; available:" << std::endl;
                for (const auto& suite : suites)
                {
                    std::cerr << "  " << suite << std::endl;
                }
                return 1;
            }
        }
    }

    return ns3::TestRunner::Run(argc, argv);
}
