/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

class NamedTypeRegistry;

class IntHeader;

/**
 * \ingroup flux-rdma
 * \brief Sender-side congestion control of one RDMA queue pair: the one
 * interface every algorithm implements.
 *
 * The NIC paces each queue pair at GetRateBps() and, when GetWindowBytes() is
 * not zero, keeps its unacknowledged bytes below that window. An algorithm
 * sets either or both (SetRateBps(), m_window) in reaction to every event the
 * NIC sees for its queue pair:
 * - OnAck(): each ACK or NAK, with the bytes it newly acknowledges, its
 *   ECN-echo bit, the RTT measured from the send timestamp it echoes (when
 *   UsesRtt()), the INT records it echoes (when UsesInt()) and the switches it
 *   crossed;
 * - OnCnp(): each congestion notification packet;
 * - OnSent(): each data packet put on the wire;
 * - timers of its own (Simulator::Schedule on its own methods, cancelled in
 *   Stop() and DoDispose()).
 *
 * An algorithm is one class derived from this one, with a TypeId whose
 * attributes are its parameters, and one registration in its .cc file:
 * FLUX_REGISTER_CC("name", Class, rank). Registered algorithms are listed by
 * GetAlgorithms() (the scenario's transport.cc, RdmaHelper, flux-run
 * --list-cc), and their attributes are scenario keys under
 * transport.<name>. This base class is the "none" algorithm: always line
 * rate, no window.
 */
class RdmaCongestionControl : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief The registered algorithms (FLUX_REGISTER_CC), name and TypeId
     * name, by rank and then by name: "dcqcn", "hpcc", "none", then the
     * others.
     * \return (name, TypeId name) pairs
     */
    static const std::vector<std::pair<std::string, std::string>>& GetAlgorithms();

    /**
     * \param name an algorithm's name (GetAlgorithms)
     * \return its TypeId name, or "" when the name is unknown
     */
    static std::string GetAlgorithmTypeName(const std::string& name);

    /**
     * \brief Register an algorithm; FLUX_REGISTER_CC calls it during static
     * initialisation of the algorithm's own file (or of a plugin library,
     * when it is loaded), so an algorithm is one class plus that one line.
     *
     * \param name the algorithm's name (transport.cc)
     * \param getTypeId the class's GetTypeId
     * \param rank where GetAlgorithms() lists it: 0 dcqcn, 1 hpcc, 2 none;
     *        others CC_RANK_OTHER (100) or above, equal ranks by name
     * \return true, or false for a name already registered (a fatal error
     *         at the next GetAlgorithms() unless a loader takes it first:
     *         NamedTypeRegistry)
     */
    static bool RegisterAlgorithm(const std::string& name, TypeId (*getTypeId)(), uint32_t rank);

    /// \return the registry of algorithms, which GetAlgorithms() lists
    static NamedTypeRegistry& GetAlgorithmRegistry();

    /// The rank of algorithms other than the three first ones (RegisterAlgorithm()).
    static constexpr uint32_t CC_RANK_OTHER = 100;

    /**
     * \brief One ACK or NAK, as the sender's NIC sees it. Built on the
     * stack for each ACK; the pointers are valid during OnAck() only.
     */
    struct AckEvent
    {
        uint64_t nextPsn;           //!< oldest PSN not acknowledged after it (64-bit)
        uint64_t sndNxt;            //!< next PSN the queue pair will send (64-bit)
        uint64_t ackedBytes;        //!< payload bytes it newly acknowledges
        uint64_t inFlightBytes;     //!< payload bytes sent and not acknowledged after it
        Time rtt;                   //!< now minus the echoed send time; negative when none
        const IntHeader* intHeader; //!< the INT records it echoes, or nullptr
        uint8_t hops;               //!< switches it crossed (IPv4 TTL consumed)
        bool nak;                   //!< a NAK (sequence error) rather than an ACK
        bool ece;                   //!< ECN-echo: CE-marked data since the receiver's last ACK
    };

    RdmaCongestionControl();
    ~RdmaCongestionControl() override;

    /**
     * \brief Start at line rate. The NIC calls it once, after SetMtu().
     * \param lineRate the rate of the NIC's port
     */
    virtual void Init(DataRate lineRate);

    /**
     * \brief Set the path MTU, payload bytes per packet (before Init()).
     * \param bytes the NIC's path MTU
     */
    void SetMtu(uint32_t bytes)
    {
        m_mtu = bytes;
    }

    /** \return the current sending rate in bit/s */
    double GetRateBps() const;

    /// The algorithm's state at one instant, for traces and samples.
    struct State
    {
        double rateBps;     //!< current rate, bit/s
        double targetBps;   //!< target rate, bit/s (the rate when there is none)
        double alpha;       //!< congestion estimate (DCQCN's and DCTCP's alpha, HPCC's U,
                            //!< TIMELY's RTT gradient, Swift's delay), NaN when none
        double windowBytes; //!< window, bytes, NaN when none
    };

    /** \return the state now (base class: the rate, no alpha, no window) */
    virtual State GetState();

    /** \brief A CNP arrived for this queue pair. */
    virtual void OnCnp();

    /**
     * \brief Bytes were put on the wire by this queue pair.
     * \param bytes frame bytes
     */
    virtual void OnSent(uint32_t bytes);

    /** \brief Stop timers; the queue pair has no more to send for now. */
    virtual void Stop();

    /**
     * \param cb called whenever the rate goes up, so that the sender can
     *        apply it to a packet already waiting for its pacing time
     */
    void SetRateIncreaseCallback(Callback<void> cb);

    /**
     * \return true when the queue pair's data packets must carry INT and its
     * ACKs echo it (default false); a property of the algorithm's type, not
     * of its attributes (a NIC asks one object per type)
     */
    virtual bool UsesInt() const;

    /// An attribute whose value cannot work, and why (GetSettingsProblem()).
    struct SettingsProblem
    {
        std::string attribute; //!< its name ("TLow"); empty when there is no problem
        std::string why;       //!< why, in a sentence fragment
    };

    /**
     * \brief Check the attributes against each other and the link.
     *
     * A scenario asks a probe before the run, so that a value that would
     * quietly switch the algorithm off (a floor above the line rate, an
     * inverted pair of thresholds) is refused naming its key.
     *
     * \param lineRate the NIC's line rate
     * \return the first problem found (base class: none)
     */
    virtual SettingsProblem GetSettingsProblem(DataRate lineRate) const;

    /**
     * \return true when the queue pair's data packets must ask for their send
     * timestamp back, so that AckEvent::rtt is measured (default false; it
     * costs a packet tag per ACK)
     */
    virtual bool UsesRtt() const;

    /**
     * \brief An ACK or NAK arrived (every one, whatever it carries).
     * \param ack what it says
     */
    virtual void OnAck(const AckEvent& ack);

    /**
     * \brief Scale the algorithm's increase steps (DCQCN's additive and hyper
     * increase, HPCC's additive increase) by a factor, as MLTCP does with
     * the bytes a job sent in its iteration. The default, 1, leaves the
     * algorithm as published; the base algorithm ("none") has no steps.
     * \param factor the factor, >= 0
     */
    void SetAggressiveness(double factor)
    {
        m_aggressiveness = factor;
    }

    /** \return the factor of the increase steps (SetAggressiveness()) */
    double GetAggressiveness() const
    {
        return m_aggressiveness;
    }

    /** \return the window in bytes in flight; 0 for no window */
    uint64_t GetWindowBytes() const
    {
        return m_window;
    }

    /**
     * TracedCallback signature for rate changes.
     * \param [in] oldRate previous rate in bit/s
     * \param [in] newRate new rate in bit/s
     */
    typedef void (*RateTracedCallback)(double oldRate, double newRate);

  protected:
    /**
     * \param minRate a rate floor (a MinRate attribute)
     * \param lineRate the line rate
     * \return a problem with "MinRate" when the floor is above the line rate
     */
    static SettingsProblem MinRateProblem(DataRate minRate, DataRate lineRate);

    /**
     * \brief Change the rate, firing the RateChange trace.
     * \param bps the new rate in bit/s
     */
    void SetRateBps(double bps);

    double m_lineRate;          //!< line rate, bit/s
    uint32_t m_mtu{4096};       //!< path MTU, payload bytes per packet
    double m_rate;              //!< current rate, bit/s
    uint64_t m_window;          //!< window, bytes in flight (0: none)
    double m_aggressiveness{1}; //!< factor of the increase steps (SetAggressiveness)

  private:
    TracedCallback<double, double> m_rateTrace; //!< rate changes
    Callback<void> m_rateUp;                    //!< rate increases
};

} // namespace ns3

/**
 * \ingroup flux-rdma
 * \brief Register a congestion control, in the .cc file of its class (inside
 * namespace ns3): FLUX_REGISTER_CC("dctcp", DctcpCongestionControl,
 * RdmaCongestionControl::CC_RANK_OTHER); see
 * RdmaCongestionControl::RegisterAlgorithm(). The class needs a TypeId with a
 * constructor; its attributes become scenario keys under transport.<name>.
 * \param name the algorithm's name
 * \param type the class (derived from RdmaCongestionControl)
 * \param rank its place in RdmaCongestionControl::GetAlgorithms()
 */
#define FLUX_REGISTER_CC(name, type, rank)                                                         \
    static_assert(std::is_base_of<::ns3::RdmaCongestionControl, type>::value,                      \
                  "FLUX_REGISTER_CC: " #type " does not derive from RdmaCongestionControl");       \
    static const bool g_fluxCcRegistered##type [[maybe_unused]] =                                  \
        ::ns3::RdmaCongestionControl::RegisterAlgorithm(name, &type::GetTypeId, rank)

#endif /* RDMA_CONGESTION_CONTROL_H */
