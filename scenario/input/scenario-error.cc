/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scenario-error.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScenarioError");

namespace
{

/**
 * \brief A text as one printable line of valid UTF-8: control characters
 * become spaces (line breaks, tabs) or '?', and so does every byte that is
 * not part of a valid UTF-8 sequence (parser messages quote the bytes they
 * stopped at, which may be anything).
 * \param text the text
 * \return the cleaned text
 */
std::string
OneLine(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    const size_t n = text.size();
    for (size_t i = 0; i < n;)
    {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80)
        {
            out += c == '\n' || c == '\r' || c == '\t' ? ' ' : (c < 0x20 || c == 0x7f ? '?' : c);
            ++i;
            continue;
        }
        // Length and lowest value of the sequence this lead byte starts.
        size_t len = 0;
        uint32_t cp = 0;
        uint32_t least = 0;
        if ((c & 0xe0) == 0xc0)
        {
            len = 2;
            cp = c & 0x1f;
            least = 0x80;
        }
        else if ((c & 0xf0) == 0xe0)
        {
            len = 3;
            cp = c & 0x0f;
            least = 0x800;
        }
        else if ((c & 0xf8) == 0xf0)
        {
            len = 4;
            cp = c & 0x07;
            least = 0x10000;
        }
        bool valid = len > 0 && i + len <= n;
        for (size_t k = 1; valid && k < len; ++k)
        {
            const auto cc = static_cast<unsigned char>(text[i + k]);
            valid = (cc & 0xc0) == 0x80;
            cp = (cp << 6) | (cc & 0x3f);
        }
        valid = valid && cp >= least && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
        if (valid)
        {
            out.append(text, i, len);
            i += len;
        }
        else
        {
            out += '?';
            ++i;
        }
    }
    return out;
}

} // namespace

ScenarioError::ScenarioError(const std::string& field, const std::string& problem)
    : std::runtime_error(OneLine(field) + ": " + OneLine(problem)),
      m_field(OneLine(field)),
      m_problem(OneLine(problem))
{
    NS_LOG_FUNCTION(this);
}

const std::string&
ScenarioError::GetField() const
{
    return m_field;
}

const std::string&
ScenarioError::GetProblem() const
{
    return m_problem;
}

} // namespace ns3
