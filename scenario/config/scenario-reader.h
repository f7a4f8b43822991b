/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_READER_H
#define SCENARIO_READER_H

#include "scenario-keys.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/**
 * \brief Check an integer against its range; integral floats are integers
 * (5e7).
 * \param v the value
 * \param path its field, for messages
 * \param range what it may be
 * \return the value
 */
uint64_t ToInteger(const nlohmann::json& v, const std::string& path, const NumberRange& range);

/**
 * \brief Check a real number or time against its range.
 * \param v the value
 * \param path its field, for messages
 * \param range what it may be
 * \return the value
 */
double ToReal(const nlohmann::json& v, const std::string& path, const NumberRange& range);

/**
 * \param v the value, which must be true or false
 * \param path its field, for messages
 * \return the value
 */
bool ToBool(const nlohmann::json& v, const std::string& path);

/**
 * \param v the value, which must be a string
 * \param path its field, for messages
 * \return the value
 */
std::string ToString(const nlohmann::json& v, const std::string& path);

/**
 * \param v the value, which must be one of known
 * \param path its field, for messages
 * \param known the accepted names
 * \return the value
 */
std::string ToOneOf(const nlohmann::json& v,
                    const std::string& path,
                    const std::vector<std::string>& known);

/**
 * \param v the value, a host index in [0, hostCount)
 * \param path its field, for messages
 * \param hostCount hosts of the topology
 * \return the value
 */
uint32_t ToHost(const nlohmann::json& v, const std::string& path, uint32_t hostCount);

/**
 * \param v the value, an array of distinct host indices
 * \param path its field, for messages
 * \param hostCount hosts of the topology
 * \return the hosts, in the array's order
 */
std::vector<uint32_t> ToHostList(const nlohmann::json& v,
                                 const std::string& path,
                                 uint32_t hostCount);

/**
 * \ingroup flux-scenario
 * The keys of one JSON object: checks the object's type and that it holds
 * only known keys, then gives access to them by name.
 */
class ObjectReader
{
  public:
    /**
     * \param v the value that must be an object
     * \param path its path ("" for the root)
     * \param keys the keys it may have
     * \param otherKeys keys that belong to another variant of the object
     * \param otherNote why they are not accepted here
     */
    ObjectReader(const nlohmann::json& v,
                 std::string path,
                 const std::vector<std::string>& keys,
                 const std::vector<std::string>& otherKeys = {},
                 const std::string& otherNote = "");

    /// \return whether the object has the key
    bool Has(const std::string& key) const;

    /// \return the value of a key that is present
    const nlohmann::json& operator[](const std::string& key) const;

    /// \return the value of a required key
    const nlohmann::json& Required(const std::string& key) const;

    /// \return the path of a key
    std::string Path(const std::string& key) const;

    /**
     * \param key a numeric key with a range in the schema
     * \return its value, checked (required: a missing key is an error)
     */
    uint64_t Integer(const std::string& key) const;

    /**
     * \param key a numeric key with a range in the schema
     * \return its value, checked (required: a missing key is an error)
     */
    double Number(const std::string& key) const;

    /**
     * \brief Read a numeric key, checked against its range in the schema,
     * when the object has it.
     * \param key the key
     * \param out receives the value; unchanged when the key is absent
     * \return whether the object has the key
     */
    bool Read(const std::string& key, uint64_t& out) const;

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, uint32_t& out) const;

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, double& out) const;

    /// \copydoc Read(const std::string&,uint64_t&) const
    bool Read(const std::string& key, std::optional<double>& out) const;

    /**
     * \brief Read a boolean key when the object has it.
     * \param key the key
     * \param out receives the value; unchanged when the key is absent
     * \return whether the object has the key
     */
    bool Read(const std::string& key, bool& out) const;

    /// \return the path of the object
    const std::string& GetPath() const;

  private:
    const nlohmann::json& m_v; //!< the object
    std::string m_path;        //!< its path
};

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_READER_H */
