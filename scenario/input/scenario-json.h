/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_JSON_H
#define SCENARIO_JSON_H

#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief Parse JSON text, reporting syntax errors and duplicate keys.
 * \param text the JSON text
 * \param source the name used as field in errors (usually the file path)
 * \return the JSON value
 *
 * Throws ScenarioError `<source>: line L, column C: <problem>` on a syntax
 * error and `<path>: duplicate key` when an object repeats a key.
 */
nlohmann::json ParseScenarioText(const std::string& text, const std::string& source);

/**
 * \ingroup flux-scenario
 * \brief Read a scenario file as JSON, without validating it.
 * \param path the file
 * \return the JSON value
 *
 * Throws ScenarioError `<path>: cannot read the file (...)` or the errors of
 * ParseScenarioText.
 */
nlohmann::json ReadScenarioJson(const std::string& path);

/**
 * \ingroup flux-scenario
 * \brief Refuse an input path that is not a regular file, before it is opened.
 * \param path the file
 * \param what what the file should be, for a folder ("an AICB workload file")
 * \param field the field to name; empty: the path itself
 *
 * A FIFO would block the reader, a device such as /dev/zero never ends.
 * Throws ScenarioError `<path>: is a folder, not <what>` or `<path>: is a
 * FIFO, not a regular file` (with \p field: `<field>: <path>: ...`). A path
 * that does not exist passes: opening it says so.
 */
void RequireRegularFile(const std::string& path,
                        const std::string& what,
                        const std::string& field = "");

namespace scenario
{

/**
 * \brief Refuse a field.
 * \param path the field ("jobs[0].bytes")
 * \param problem what is wrong with it
 * \throws ScenarioError always
 */
[[noreturn]] void Fail(const std::string& path, const std::string& problem);

/**
 * \brief Refuse a value of the wrong type: "expected X, got Y".
 * \param path the field
 * \param expected what it must be
 * \param v what it is
 * \throws ScenarioError always
 */
[[noreturn]] void TypeFail(const std::string& path,
                           const std::string& expected,
                           const nlohmann::json& v);

/**
 * \param s a string
 * \return s as a JSON string literal (one line, valid UTF-8)
 */
std::string Quote(const std::string& s);

/**
 * \param v a number
 * \return its text for messages: integral values without exponent
 */
std::string Num(double v);

/**
 * \param v a JSON value
 * \return a short description of it for "got ..." in messages
 */
std::string Describe(const nlohmann::json& v);

/**
 * \param v a JSON number
 * \return its text for "got ..." in messages
 */
std::string Got(const nlohmann::json& v);

/**
 * \param path an object's path ("" for the root)
 * \param key one of its keys
 * \return the key's path; keys that would make it ambiguous are written as
 * JSON strings in brackets (jobs[0]["a.b"])
 */
std::string Child(const std::string& path, const std::string& key);

/**
 * \param path an array's path
 * \param i an index
 * \return the element's path ("jobs[3]")
 */
std::string Index(const std::string& path, size_t i);

/**
 * \param a a string
 * \param b another
 * \return their Levenshtein distance (for "did you mean")
 */
size_t EditDistance(const std::string& a, const std::string& b);

/**
 * \param word a name that is none of \p names
 * \param names the names it may have meant
 * \return the nearest of them within two edits (the first of equals), or ""
 */
std::string NearestName(const std::string& word, const std::vector<std::string>& names);

/**
 * \param word a name that is none of \p names
 * \param names the names known
 * \param what their kind ("policy"), or "" for none
 * \param note said after the names known, or "" for nothing
 * \return the problem: `"fluxx" is not a known policy (did you mean "flux"?;
 *         known: fifo, ...; <note>)`, the suggestion only for a name within
 *         two edits
 */
std::string NotKnown(const std::string& word,
                     const std::vector<std::string>& names,
                     const std::string& what = "",
                     const std::string& note = "");

/**
 * \brief The root of x in a union-find forest, halving the path on the way.
 * \param parent per element its parent (roots are their own)
 * \param x an element
 * \return its set's root
 */
uint32_t SetRoot(std::vector<uint32_t>& parent, uint32_t x);

/**
 * \param items things to print
 * \param sep separator
 * \return the items joined by sep
 */
template <typename T>
std::string
Join(const std::vector<T>& items, const std::string& sep = ", ")
{
    std::ostringstream os;
    for (size_t i = 0; i < items.size(); ++i)
    {
        os << (i ? sep : "") << items[i];
    }
    return os.str();
}

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_JSON_H */
