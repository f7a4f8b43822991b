/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-version.h"

// Both come from the build (CMakeLists.txt, wscript): the VERSION file, and
// the ns-3 that the build found.
#if !defined(FLUX_VERSION) || !defined(FLUX_NS3_VERSION)
#error "the build defines FLUX_VERSION and FLUX_NS3_VERSION"
#endif

namespace ns3
{

const char*
GetFluxVersion()
{
    return FLUX_VERSION;
}

const char*
GetFluxNs3Version()
{
    return FLUX_NS3_VERSION;
}

} // namespace ns3
