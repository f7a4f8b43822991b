/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class IntHeader;

/**
 * \ingroup flux-rdma
 * \brief Sender-side congestion control of one RDMA queue pair.
 *
 * The NIC paces each queue pair at GetRate() and, when GetWindowBytes() is
 * not zero, keeps its unacknowledged bytes below that window. Algorithms
 * react to the events the NIC reports: congestion notifications (CNPs),
 * ACKs echoing in-band telemetry (for algorithms whose UsesInt() is true),
 * and sent bytes. This base class is the "none" algorithm: always line
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
     * \brief The algorithms known by name: "dcqcn", "hpcc" and "none", with
     * the TypeId name of each, in that order.
     * \return (name, TypeId name) pairs
     */
    static const std::vector<std::pair<std::string, std::string>>& GetAlgorithms();

    /**
     * \param name an algorithm's name (GetAlgorithms)
     * \return its TypeId name, or "" when the name is unknown
     */
    static std::string GetAlgorithmTypeName(const std::string& name);

    RdmaCongestionControl();
    ~RdmaCongestionControl() override;

    /**
     * \brief Start at line rate.
     * \param lineRate the rate of the NIC's port
     */
    virtual void Init(DataRate lineRate);

    /** \return the current sending rate in bit/s */
    double GetRateBps() const;

    /// The algorithm's state at one instant, for traces and samples.
    struct State
    {
        double rateBps;     //!< current rate, bit/s
        double targetBps;   //!< target rate, bit/s (the rate when there is none)
        double alpha;       //!< congestion estimate (DCQCN's alpha, HPCC's U), NaN when none
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
     * ACKs echo it (default false)
     */
    virtual bool UsesInt() const;

    /**
     * \brief An ACK or NAK echoing INT arrived (only for UsesInt()).
     * \param nextPsn the oldest PSN not acknowledged after this ACK (64-bit)
     * \param sndNxt the next PSN the queue pair will send (64-bit)
     * \param intHeader the INT records the receiver echoed
     */
    virtual void OnAck(uint64_t nextPsn, uint64_t sndNxt, const IntHeader& intHeader);

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
     * \brief Change the rate, firing the RateChange trace.
     * \param bps the new rate in bit/s
     */
    void SetRateBps(double bps);

    double m_lineRate;          //!< line rate, bit/s
    double m_rate;              //!< current rate, bit/s
    uint64_t m_window;          //!< window, bytes in flight (0: none)
    double m_aggressiveness{1}; //!< factor of the increase steps (SetAggressiveness)

  private:
    TracedCallback<double, double> m_rateTrace; //!< rate changes
    Callback<void> m_rateUp;                    //!< rate increases
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
