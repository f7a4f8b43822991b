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
 * \param v the value, a host (or GPU) index in [0, count)
 * \param path its field, for messages
 * \param count hosts (GPUs) of the topology
 * \param what "host" or "GPU", for messages
 * \return the value
 */
uint32_t ToHost(const nlohmann::json& v,
                const std::string& path,
                uint32_t count,
                const std::string& what = "host");

/**
 * \param v the value, an array of distinct host (or GPU) indices
 * \param path its field, for messages
 * \param count hosts (GPUs) of the topology
 * \param what "host" or "GPU", for messages
 * \return the indices, in the array's order
 */
std::vector<uint32_t> ToHostList(const nlohmann::json& v,
                                 const std::string& path,
                                 uint32_t count,
                                 const std::string& what = "host");

/**
 * \param key a key an object does not accept
 * \param keys the keys it accepts
 * \return "unknown key", with the closest accepted key when one is near
 */
std::string UnknownKeyProblem(const std::string& key, const std::vector<std::string>& keys);

/**
 * \ingroup flux-scenario
 * The keys of one JSON object, by name. The scenario is checked against the
 * schema (ValidateScenario) before it is read: types, ranges and names are
 * right, so the reader only extracts values.
 */
class ObjectReader
{
  public:
    /**
     * \param v the object
     * \param path its path ("" for the root)
     */
    ObjectReader(const nlohmann::json& v, std::string path);

    /**
     * \brief A reader that also refuses keys the schema cannot name: those
     * of sections whose keys are registered attributes, and those of
     * another variant of the object.
     * \param v the object
     * \param path its path
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

    /// \return the value of a key that the object's kind requires
    const nlohmann::json& Required(const std::string& key) const;

    /// \return the path of a key
    std::string Path(const std::string& key) const;

    /**
     * \brief Read a key when the object has it.
     * \param key the key
     * \param out receives the value; unchanged when the key is absent
     * \return whether the object has the key
     */
    template <typename T>
    bool Read(const std::string& key, T& out) const
    {
        if (!Has(key))
        {
            return false;
        }
        out = m_v.at(key).get<T>();
        return true;
    }

    /// \copydoc Read
    bool Read(const std::string& key, std::optional<double>& out) const;

    /// \return the object's path
    const std::string& GetPath() const;

  private:
    const nlohmann::json& m_v; //!< the object
    std::string m_path;        //!< its path
};

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_READER_H */
