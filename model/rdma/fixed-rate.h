/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FIXED_RATE_H
#define FIXED_RATE_H

#include "rdma-congestion-control.h"

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief No congestion control, a fixed pacing rate: the smaller of the line
 * rate and Rate, whatever the network signals. For tests and benchmarks of
 * pacing and arbitration; choose it by its TypeId name
 * (RdmaHelper::SetCongestionControl("ns3::FixedRateCongestionControl")).
 */
class FixedRateCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FixedRateCongestionControl();
    ~FixedRateCongestionControl() override;

    void Init(DataRate lineRate) override;

  private:
    DataRate m_fixed; //!< the rate asked for
};

} // namespace ns3

#endif /* FIXED_RATE_H */
