/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DCQCN_PROFILE_H
#define DCQCN_PROFILE_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief A named set of DCQCN parameters as a source publishes them: the
 * reaction point's (DcqcnCongestionControl), the notification point's CNP
 * pacing (RdmaNic CnpInterval) and the switches' ECN marking.
 *
 * Where the source scales a parameter with the link rate (the HPCC
 * simulator scales increase steps and marking thresholds by BW / 25 Gb/s),
 * the profile does too; the other parameters are taken as published.
 */
struct DcqcnProfile
{
    std::string name;            //!< the name scenarios use
    std::string source;          //!< where the values come from
    double g;                    //!< alpha EWMA gain
    double alphaIntervalUs;      //!< alpha update period, us
    double decreaseIntervalUs;   //!< minimum time between rate cuts, us
    double increaseIntervalUs;   //!< recovery timer, us
    uint64_t byteCounter;        //!< recovery byte counter, bytes (0: none)
    uint32_t fastRecoveryStages; //!< F
    double aiMbps;               //!< additive increase step at 25 Gb/s (or as published)
    double haiMbps;              //!< hyper increase step at 25 Gb/s (or as published)
    double minRateMbps;          //!< floor of the rate
    bool clampTargetRate;        //!< target = current rate at every cut
    bool clampAfterTimer;        //!< ... at a cut after a timer recovery step
    double initialAlpha;         //!< alpha at the first CNP
    bool releaseAtLineRate;      //!< line rate resets the reaction point (next CNP: initial alpha)
    double cnpIntervalUs;        //!< notification point: minimum time between CNPs per QP
    double kminKb;               //!< ECN Kmin at 25 Gb/s (or as published), KB
    double kmaxKb;               //!< ECN Kmax at 25 Gb/s (or as published), KB
    double pmax;                 //!< ECN marking probability at Kmax
    bool scaleSteps;             //!< increase steps scale by link rate / 25 Gb/s
    bool scaleMarking;           //!< Kmin and Kmax scale by link rate / 25 Gb/s
    double windowBdp{0};         //!< window in largest BDPs of the topology (0: none)
    bool variableWindow{true};   //!< the window follows the rate

    /** \return the profiles, the default first */
    static const std::vector<DcqcnProfile>& All();

    /**
     * \param name a profile name
     * \return the profile, or nullptr when there is none of that name
     */
    static const DcqcnProfile* Find(const std::string& name);

    /** \return the name of the default profile */
    static const std::string& DefaultName();

    /**
     * \param linkGbps the link rate, Gb/s
     * \return Kmin in KB at that rate
     */
    double KminKb(double linkGbps) const;

    /**
     * \param linkGbps the link rate, Gb/s
     * \return Kmax in KB at that rate
     */
    double KmaxKb(double linkGbps) const;

    /**
     * \brief The ns-3 attribute defaults that realise the profile's host
     * side (reaction and notification points).
     * \param linkGbps the host link rate, Gb/s
     * \return pairs of "ns3::Type::Attribute" and value
     */
    std::vector<std::pair<std::string, std::string>> HostAttributes(double linkGbps) const;
};

} // namespace ns3

#endif /* DCQCN_PROFILE_H */
