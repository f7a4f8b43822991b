/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_SIZE_CDF_H
#define FLOW_SIZE_CDF_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-workload
 * \brief An empirical flow-size distribution given as a piecewise-linear CDF.
 *
 * The distribution is a list of points (size in bytes, cumulative percent)
 * with sizes strictly increasing, percents non-decreasing, within [0, 100],
 * and the last percent exactly 100. Between two points the CDF is linear;
 * below the first point it is 0, so when the first percent is above 0 that
 * share of flows has exactly the first size.
 *
 * Text form: one `size percent` pair per line, separated by blanks; empty
 * lines and lines starting with `#` are ignored. This is the format of the
 * published CDF files used by the RDMA simulation literature.
 *
 * Builtin distributions (the published points are compiled into the library):
 *  - "websearch":  DCTCP web search (SIGCOMM 2010)
 *  - "hadoop":     Facebook Hadoop cluster (Roy et al., SIGCOMM 2015)
 *  - "alistorage": Alibaba storage 2019
 *  - "googlerpc":  Google RPC 2008
 *
 * Errors (unreadable file, malformed content, unknown builtin name) are
 * reported by throwing std::runtime_error whose message says what and where.
 */
class FlowSizeCdf
{
  public:
    /// One CDF point: (size in bytes, cumulative percent).
    using Point = std::pair<double, double>;

    /// An empty CDF; use one of the factory functions to get a usable one.
    FlowSizeCdf() = default;

    /**
     * \brief Build a CDF from points, validating them.
     * \param points the points, in order
     * \param source a name for error messages (file name, builtin name)
     * \return the CDF
     */
    static FlowSizeCdf FromPoints(std::vector<Point> points, const std::string& source = "cdf");

    /**
     * \brief Parse the text form.
     * \param text the file content
     * \param source a name for error messages, e.g. the file name
     * \return the CDF
     */
    static FlowSizeCdf FromText(const std::string& text, const std::string& source);

    /**
     * \brief Read and parse a CDF file.
     * \param path the file
     * \return the CDF
     */
    static FlowSizeCdf LoadFile(const std::string& path);

    /**
     * \brief One of the builtin distributions.
     * \param name a name listed by BuiltinNames()
     * \return the CDF
     */
    static FlowSizeCdf Builtin(const std::string& name);

    /**
     * \param name a name
     * \return whether name is a builtin distribution
     */
    static bool IsBuiltin(const std::string& name);

    /// \return the names of the builtin distributions
    static std::vector<std::string> BuiltinNames();

    /**
     * \brief Inverse CDF, linearly interpolated between the points.
     * \param u a probability in [0, 1] (clamped)
     * \return the flow size in bytes with CDF u (not rounded)
     */
    double Quantile(double u) const;

    /**
     * \brief Draw a flow size from a uniform random number.
     * \param u a uniform random number in [0, 1)
     * \return Quantile (u) rounded to the nearest byte, at least 1
     */
    uint64_t Sample(double u) const;

    /**
     * \brief The CDF itself.
     * \param bytes a flow size
     * \return the fraction (in [0, 1]) of flows of at most that size
     */
    double Cdf(double bytes) const;

    /// \return the mean flow size in bytes of the piecewise-linear distribution
    double Mean() const;

    /// \return the largest flow size, in bytes
    double Max() const;

    /// \return the points of the distribution
    const std::vector<Point>& GetPoints() const;

    /// \return the source the distribution came from (builtin name or file)
    const std::string& GetSource() const;

    /// \return whether the CDF has points (false for a default-constructed one)
    bool IsValid() const;

  private:
    /// A builtin table: name and points.
    struct BuiltinTable
    {
        const char* name;    //!< the builtin name
        const char* origin;  //!< the publication it comes from
        const Point* points; //!< the points
        size_t count;        //!< number of points
    };

    /// \return the builtin tables (defined in flow-size-cdf-tables.cc)
    static const std::vector<BuiltinTable>& BuiltinTables();

    std::vector<Point> m_points; //!< (bytes, cumulative percent), validated
    std::string m_source;        //!< where the points came from
    double m_mean{0.0};          //!< mean flow size in bytes
};

} // namespace ns3

#endif /* FLOW_SIZE_CDF_H */
