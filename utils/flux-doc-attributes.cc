/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * \ingroup flux
 * flux-doc-attributes: print the attributes and trace sources of every flux
 * TypeId (group name "Flux") as reStructuredText tables.
 *
 *     flux-doc-attributes [--group NAME]
 *
 * One section per TypeId, sorted by name: a table of its own attributes
 * (name, the value's underlying type, initial value, help) and one of its
 * trace sources (name, help). Obsolete attributes and trace sources are
 * left out. scripts/gen-doc-attributes writes the output to
 * doc/attributes.rst.inc, which the manual includes.
 */

#include "ns3/attribute.h"
#include "ns3/type-id.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * Escapes what reStructuredText would read as markup, and doubles the
 * quotes of a csv-table cell.
 * \param text plain text
 * \return the text, safe inside a quoted csv-table cell
 */
std::string
Escape(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '\\' || c == '*' || c == '`' || c == '|' || c == '_')
        {
            out += '\\';
        }
        if (c == '"')
        {
            out += '"';
        }
        out += (c == '\n') ? ' ' : c;
    }
    return out;
}

/**
 * \param value an attribute's initial value as a string
 * \return the value as an inline literal, or empty
 */
std::string
Literal(const std::string& value)
{
    if (value.empty())
    {
        return "";
    }
    std::string out = "``";
    for (char c : value)
    {
        out += (c == '"') ? std::string("\"\"") : std::string(1, c);
    }
    return out + "``";
}

/**
 * \param info an attribute
 * \return the type of its value: the checker's underlying type, or the
 *         value class's name
 */
std::string
TypeName(const TypeId::AttributeInformation& info)
{
    if (!info.checker->HasUnderlyingTypeInformation())
    {
        return info.checker->GetValueTypeName();
    }
    std::string type = info.checker->GetUnderlyingTypeInformation();
    // A range that is the whole type's says nothing.
    for (const std::string full : {" +0ns:+9.22337e+18ns",
                                   " -9.22337e+18ns:+9.22337e+18ns",
                                   " 0:255",
                                   " 0:65535",
                                   " 0:4294967295",
                                   " 0:18446744073709551615",
                                   " -2147483648:2147483647",
                                   " -1.79769e+308:1.79769e+308"})
    {
        const std::size_t at = type.size() >= full.size() ? type.size() - full.size() : 0;
        if (type.size() > full.size() && type.compare(at, full.size(), full) == 0)
        {
            type.erase(at);
        }
    }
    return type;
}

/**
 * Prints the tables of one TypeId.
 * \param tid the TypeId
 */
void
PrintTypeId(TypeId tid)
{
    std::vector<TypeId::AttributeInformation> attributes;
    for (std::size_t i = 0; i < tid.GetAttributeN(); ++i)
    {
        TypeId::AttributeInformation info = tid.GetAttribute(i);
        if (info.supportLevel != TypeId::OBSOLETE)
        {
            attributes.push_back(info);
        }
    }
    std::vector<TypeId::TraceSourceInformation> traces;
    for (std::size_t i = 0; i < tid.GetTraceSourceN(); ++i)
    {
        TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
        if (info.supportLevel != TypeId::OBSOLETE)
        {
            traces.push_back(info);
        }
    }
    if (attributes.empty() && traces.empty())
    {
        return;
    }
    const std::string name = tid.GetName();
    std::cout << name << "\n" << std::string(name.size(), '~') << "\n\n";
    if (!attributes.empty())
    {
        std::cout << ".. csv-table:: Attributes of " << name << "\n"
                  << "   :header: \"Attribute\", \"Type\", \"Initial value\", \"Description\"\n"
                  << "   :widths: 20 15 15 50\n\n";
        for (const auto& info : attributes)
        {
            std::cout << "   \"" << Escape(info.name) << "\", \"" << Escape(TypeName(info))
                      << "\", \"" << Literal(info.initialValue->SerializeToString(info.checker))
                      << "\", \"" << Escape(info.help) << "\"\n";
        }
        std::cout << "\n";
    }
    if (!traces.empty())
    {
        std::cout << ".. csv-table:: Trace sources of " << name << "\n"
                  << "   :header: \"Trace source\", \"Description\"\n"
                  << "   :widths: 25 75\n\n";
        for (const auto& info : traces)
        {
            std::cout << "   \"" << Escape(info.name) << "\", \"" << Escape(info.help) << "\"\n";
        }
        std::cout << "\n";
    }
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string group = "Flux";
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if (arg == "--group" && i + 1 < argc)
        {
            group = argv[++i];
        }
        else
        {
            std::cerr << "usage: flux-doc-attributes [--group NAME]\n";
            return 2;
        }
    }
    std::vector<TypeId> tids;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId tid = TypeId::GetRegistered(i);
        if (tid.GetGroupName() == group)
        {
            tids.push_back(tid);
        }
    }
    std::sort(tids.begin(), tids.end(), [](TypeId a, TypeId b) {
        return a.GetName() < b.GetName();
    });
    std::cout << ".. Generated by scripts/gen-doc-attributes from the TypeIds of group \"" << group
              << "\"; do not edit.\n\n";
    for (TypeId tid : tids)
    {
        PrintTypeId(tid);
    }
    return 0;
}
