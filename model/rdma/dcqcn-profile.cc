/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "dcqcn-profile.h"

#include "ns3/log.h"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DcqcnProfile");

namespace
{

/// A number in the form ns-3's attribute parsers read (DataRate reads no
/// exponent: large values are written out in full).
std::string
Str(double v)
{
    std::ostringstream os;
    if (std::fabs(v) >= 1e12)
    {
        os << std::fixed << std::setprecision(0);
    }
    else
    {
        os.precision(12);
    }
    os << v;
    return os.str();
}

} // namespace

const std::vector<DcqcnProfile>&
DcqcnProfile::All()
{
    // Values as published; see doc/flux.rst, "DCQCN".
    static const std::vector<DcqcnProfile> profiles = {
        // The HPCC simulator's DCQCN (simulation/run.py, --cc dcqcn): t_alpha
        // 1 us, t_dec 4 us, t_inc 300 us, g 1/256, one fast-recovery stage,
        // no target clamping except after a timer step, R_AI 5 Mb/s and
        // R_HAI 50 Mb/s x BW/25G, MinRate 1 Gb/s, no byte counter, a CNP for
        // every marked packet (ACK per packet), marking 100/400 KB x BW/25G.
        {"hpcc-sim", "HPCC simulator, DCQCN at its rate-scaled setting",
         1.0 / 256,  1,
         4,          300,
         0,          1,
         5,          50,
         1000,       false,
         true,       1,
         false,      0,
         100,        400,
         0.2,        true,
         true},
        // NVIDIA ConnectX-4 and later firmware defaults (mlxconfig / sysfs
        // roce_rp and roce_np): DCE_TCP_G 1019 (g = 5/1024), DCE_TCP_RTT 1 us,
        // RATE_REDUCE_MONITOR_PERIOD 4 us, RPG_TIME_RESET 300 us,
        // RPG_BYTE_RESET 32767 B, RPG_THRESHOLD 1, RPG_AI_RATE 5 Mb/s,
        // RPG_HAI_RATE 50 Mb/s, RPG_MIN_RATE 1 Mb/s, CLAMP_TGT_RATE 0,
        // CLAMP_TGT_RATE_AFTER_TIME_INC 1, MIN_TIME_BETWEEN_CNPS 4 us; with
        // the production marking the HPCC authors quote for 100 Gb/s
        // (Kmin 100 KB x BW/25G, Kmax 400 KB x BW/25G, Pmax 0.2).
        {"nvidia",   "NVIDIA ConnectX firmware defaults, production ECN marking",
         5.0 / 1024, 1,
         4,          300,
         32767,      1,
         5,          50,
         1,          false,
         true,       1023.0 / 1024,
         true,       4,
         100,        400,
         0.2,        false,
         true},
        // The DCQCN paper's 40 Gb/s testbed (Zhu et al., SIGCOMM 2015):
        // g 1/256, alpha and timer 55 us, byte counter 10 MB, F = 5,
        // R_AI 40 Mb/s, R_HAI 100 Mb/s, target clamped at every cut, CNPs
        // (and so cuts) at most every 50 us per QP, marking 5 KB / 200 KB / 1 %.
        {"paper",   "DCQCN paper, 40 Gb/s testbed",
         1.0 / 256, 55,
         50,        55,
         10000000,  5,
         40,        100,
         100,       true,
         true,      1,
         true,      50,
         5,         200,
         0.01,      false,
         false},
    };
    return profiles;
}

const DcqcnProfile*
DcqcnProfile::Find(const std::string& name)
{
    for (const auto& p : All())
    {
        if (p.name == name)
        {
            return &p;
        }
    }
    return nullptr;
}

const std::string&
DcqcnProfile::DefaultName()
{
    return All().front().name;
}

double
DcqcnProfile::KminKb(double linkGbps) const
{
    return scaleMarking ? kminKb * linkGbps / 25.0 : kminKb;
}

double
DcqcnProfile::KmaxKb(double linkGbps) const
{
    return scaleMarking ? kmaxKb * linkGbps / 25.0 : kmaxKb;
}

std::vector<std::pair<std::string, std::string>>
DcqcnProfile::HostAttributes(double linkGbps) const
{
    const std::string dcqcn = "ns3::DcqcnCongestionControl::";
    const double scale = scaleSteps ? linkGbps / 25.0 : 1.0;
    return {
        {dcqcn + "G", Str(g)},
        {dcqcn + "AlphaInterval", Str(alphaIntervalUs * 1000) + "ns"},
        {dcqcn + "RateDecreaseInterval", Str(decreaseIntervalUs * 1000) + "ns"},
        {dcqcn + "RateIncreaseInterval", Str(increaseIntervalUs * 1000) + "ns"},
        {dcqcn + "ByteCounter", std::to_string(byteCounter)},
        {dcqcn + "FastRecoveryStages", std::to_string(fastRecoveryStages)},
        {dcqcn + "AdditiveIncrease", Str(aiMbps * scale * 1e6) + "bps"},
        {dcqcn + "HyperIncrease", Str(haiMbps * scale * 1e6) + "bps"},
        {dcqcn + "MinRate", Str(minRateMbps * 1e6) + "bps"},
        {dcqcn + "ClampTargetRate", clampTargetRate ? "true" : "false"},
        {dcqcn + "ClampTargetRateAfterTimeIncrease", clampAfterTimer ? "true" : "false"},
        {dcqcn + "InitialAlpha", Str(initialAlpha)},
        {dcqcn + "ReleaseAtLineRate", releaseAtLineRate ? "true" : "false"},
        {"ns3::RdmaNic::CnpInterval", Str(cnpIntervalUs * 1000) + "ns"},
    };
}

} // namespace ns3
