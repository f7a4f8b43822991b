/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_VERSION_H
#define FLUX_VERSION_H

namespace ns3
{

/**
 * \ingroup flux-scenario
 * \brief flux's release, from the VERSION file of the source tree (e.g. "0.1.0").
 * \return the release
 */
const char* GetFluxVersion();

/**
 * \ingroup flux-scenario
 * \brief The ns-3 release the scenario application was built against (e.g. "3.37").
 * \return the release
 */
const char* GetFluxNs3Version();

} // namespace ns3

#endif // FLUX_VERSION_H
