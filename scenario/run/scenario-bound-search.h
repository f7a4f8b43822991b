/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCENARIO_BOUND_SEARCH_H
#define SCENARIO_BOUND_SEARCH_H

#include "scenario-bound.h"
#include "scenario-runner.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace scenario
{

/// Thrown between runs when the computation of a bound is cancelled.
struct BoundCancelled
{
};

/**
 * \ingroup flux-scenario
 * \brief One computation of ComputeBound: its runs (scenario-bound.cc) and
 * its search over schedules (scenario-bound-search.cc).
 */
class BoundSearch
{
  public:
    /**
     * \param cfg the scenario
     * \param opts the options
     */
    BoundSearch(const ScenarioConfig& cfg, const BoundOptions& opts)
        : m_cfg(cfg),
          m_opts(opts)
    {
    }

    /** \return the bound (see ComputeBound) */
    BoundResult Compute();

  private:
    /**
     * \param r a run's results
     * \return its mean JCT and worst iteration (NaN when a job did not complete)
     */
    static BoundResult::Outcome Summarise(const RunResults& r);
    /**
     * \param a a mean JCT
     * \param b another
     * \return true when a is known and better than b (b may be unknown)
     */
    static bool Better(double a, double b);
    /**
     * \brief One flow-level run; throws BoundCancelled when cancelled.
     * \param cfg the scenario
     * \param ports RunOptions::portBases
     * \param layout RunOptions::layout
     * \param shared RunOptions::fluidShared
     * \return its results
     */
    RunResults Run(const ScenarioConfig& cfg,
                   const std::vector<uint16_t>& ports,
                   RunLayout* layout,
                   bool shared = true);

    /// Link directions that every path between some hosts crosses, as one.
    struct Cut
    {
        std::string name;            //!< a link's name, or "<switch> uplinks|downlinks"
        std::vector<uint32_t> links; //!< its link directions (RunLayout::links indices)
    };

    /**
     * \param links the fabric's link directions
     * \return the cuts whose bits do not depend on the paths: each host's
     *         links, and (except on rings) each edge switch's links up and
     *         down
     */
    std::vector<Cut> Cuts(const std::vector<RunLayout::Link>& links) const;

    /// Run each job alone and compute the lower bounds.
    void LowerBound();
    /// The classes the search gives jobs: below every background class.
    void FreeClasses();
    /**
     * \brief Try a schedule (once per distinct assignment of classes), on the
     * hashed paths and on paths chosen to spread the jobs.
     * \param classes per job, scenario order
     * \param schedule "priority", "fair" or "scenario"
     * \param hashKnown the hashed paths' run is known (recorded): run only the other
     * \return the better mean JCT of the two (NaN when a job did not complete)
     */
    double Try(const std::vector<uint8_t>& classes,
               const std::string& schedule,
               bool hashKnown = false);
    /**
     * \brief Count a schedule that ran, and keep it when it is the best.
     * \param classes per job, scenario order
     * \param schedule "priority", "fair" or "scenario"
     * \param o its outcome
     */
    void Record(const std::vector<uint8_t>& classes,
                const std::string& schedule,
                const BoundResult::Outcome& o);
    /**
     * \param order job indices, highest precedence first
     * \return their classes, scenario order
     */
    std::vector<uint8_t> ClassesOf(const std::vector<uint32_t>& order) const;
    /**
     * \param classes per job
     * \return what makes two assignments the same schedule
     */
    std::vector<uint8_t> Key(const std::vector<uint8_t>& classes) const;
    /// The search over orders.
    void Search();
    /**
     * \brief Report progress (BoundOptions::progress).
     * \param stage the stage
     * \param done runs of the stage done
     * \param total their number
     */
    void Report(const std::string& stage, uint32_t done, uint32_t total) const;

    const ScenarioConfig& m_cfg;   //!< the scenario
    const BoundOptions& m_opts;    //!< the options
    BoundResult m_bound;           //!< what is found
    std::vector<uint16_t> m_ports; //!< per job: its source port base
    std::vector<uint8_t> m_free;   //!< the classes the search gives jobs, highest first
    std::map<std::vector<uint8_t>, double> m_tried; //!< schedule key -> mean JCT
    uint32_t m_total{0};                            //!< schedules the search may run
};

} // namespace scenario
} // namespace ns3

#endif /* SCENARIO_BOUND_SEARCH_H */
