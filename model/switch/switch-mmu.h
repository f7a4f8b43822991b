/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traffic-class.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-switch
 * \brief The shared-buffer memory manager of a FabricSwitch: admission,
 * 802.1Qbb PFC thresholds with headroom, and RED-like ECN marking.
 *
 * The buffer (BufferSize bytes) is split into three parts:
 * - a reserve of ReservedBytes for every (ingress port, priority);
 * - PFC headroom: for every ingress port, its headroom (SetHeadroom) for
 *   each lossless priority. It absorbs what is still on the way after an
 *   XOFF was sent: about 2 x rate x delay of the link plus a few frames
 *   (FabricTopologyHelper computes it). Headroom exists only when Lossless
 *   is true;
 * - the shared pool: the rest.
 *
 * Every packet is charged to its (ingress port, priority) and to its
 * (egress port, priority). Within the ingress queue, bytes fill the reserve
 * first, then the shared pool.
 *
 * Lossless priorities (Lossless true and the priority's bit set in
 * LosslessPriorities): the ingress queue may use the shared pool up to the
 * dynamic threshold T = PfcAlpha x (shared pool - shared bytes in use). A
 * packet that would take the queue's shared bytes beyond T goes to the
 * port's headroom for that priority. The port pauses the priority (XOFF)
 * when the queue holds headroom bytes or its shared bytes reach T, and
 * resumes it (XON) when its headroom is empty and its shared bytes are zero
 * or have fallen ResumeOffset below T. A lossless packet is dropped only
 * when even the headroom is full: a headroom violation, which a correctly
 * sized headroom never has.
 *
 * Lossy priorities (the others, and all of them when Lossless is false):
 * a packet that does not fit the reserve and the shared pool is dropped.
 *
 * ECN: the switch asks ShouldMarkEcn() for each admitted ECN-capable packet
 * before it joins its egress queue. With q the bytes charged to the egress
 * queue (egress port, priority), this packet included, the marking probability is 0 up to Kmin,
 * Pmax x (q - Kmin) / (Kmax - Kmin) between Kmin and Kmax, and 1 above Kmax. Draws come from a
 * uniform random variable whose stream AssignStreams() fixes. Kmin, Kmax and
 * Pmax are set per egress queue (port, priority); the per-port setter sets
 * all priorities of a port alike.
 *
 * Configuration is checked by CheckConfiguration(), which returns a message
 * naming the parameter at fault (empty when the configuration is usable).
 */
class SwitchMmu : public Object
{
  public:
    /// Number of 802.1p priorities (TrafficClass::N_CLASSES).
    static constexpr uint8_t N_PRIORITIES = TrafficClass::N_CLASSES;

    /// Outcome of an admission request.
    enum Verdict : uint8_t
    {
        ADMITTED = 0,          //!< the packet is in the buffer
        DROP_BUFFER_FULL,      //!< lossy packet: no room in reserve or shared pool
        DROP_HEADROOM_EXCEEDED //!< lossless packet: even the headroom is full
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMmu();
    ~SwitchMmu() override;

    // Configuration

    /**
     * \brief Add a port, with the DefaultHeadroom and the default ECN thresholds.
     * \return the index of the new port
     */
    uint32_t AddPort();

    /**
     * \brief Give back the memory that adding ports one by one set aside
     *        for more (called by FabricSwitch when the simulation starts).
     */
    void ShrinkToFit();

    /** \return the number of ports */
    uint32_t GetNPorts() const;

    /**
     * \brief Set the PFC headroom of a port, for each of its lossless priorities.
     * \param port the port
     * \param bytes the headroom
     */
    void SetHeadroom(uint32_t port, uint32_t bytes);

    /**
     * \param port the port
     * \return the PFC headroom of the port, per lossless priority
     */
    uint32_t GetHeadroom(uint32_t port) const;

    /**
     * \brief Set the ECN marking thresholds of all egress queues of a port
     * (every priority).
     * \param port the port
     * \param kmin bytes below which nothing is marked
     * \param kmax bytes above which everything is marked
     * \param pmax marking probability just below kmax
     */
    void SetEcnThresholds(uint32_t port, uint32_t kmin, uint32_t kmax, double pmax);

    /**
     * \brief Set the ECN marking thresholds of one egress queue (port, priority).
     * \param port the port
     * \param prio the priority (traffic class)
     * \param kmin bytes below which nothing is marked
     * \param kmax bytes above which everything is marked
     * \param pmax marking probability just below kmax
     */
    void SetEcnThresholds(uint32_t port, uint8_t prio, uint32_t kmin, uint32_t kmax, double pmax);

    /**
     * \param port the port
     * \return the ECN Kmin in bytes of its priority 0 (of all its priorities
     * unless set per priority)
     */
    uint32_t GetEcnKmin(uint32_t port) const;
    /** \param port the port \return the ECN Kmax in bytes of its priority 0 */
    uint32_t GetEcnKmax(uint32_t port) const;
    /** \param port the port \return the ECN Pmax of its priority 0 */
    double GetEcnPmax(uint32_t port) const;
    /** \param port the port \param prio the priority \return its ECN Kmin in bytes */
    uint32_t GetEcnKmin(uint32_t port, uint8_t prio) const;
    /** \param port the port \param prio the priority \return its ECN Kmax in bytes */
    uint32_t GetEcnKmax(uint32_t port, uint8_t prio) const;
    /** \param port the port \param prio the priority \return its ECN Pmax */
    double GetEcnPmax(uint32_t port, uint8_t prio) const;

    /** \param bytes total buffer size */
    void SetBufferSize(uint64_t bytes);
    /** \return the total buffer size in bytes */
    uint64_t GetBufferSize() const;
    /** \param bytes reserve per (ingress port, priority) */
    void SetReservedBytes(uint32_t bytes);
    /** \return the reserve per (ingress port, priority) in bytes */
    uint32_t GetReservedBytes() const;
    /** \param lossless true to run PFC on the lossless priorities */
    void SetLossless(bool lossless);
    /** \return true when PFC protects the lossless priorities */
    bool GetLossless() const;
    /** \param mask bit p set when priority p is lossless while Lossless is true */
    void SetLosslessPriorities(uint8_t mask);
    /** \return bit p set when priority p is lossless while Lossless is true */
    uint8_t GetLosslessPriorities() const;

    /**
     * \param prio a priority
     * \return true when packets of that priority are protected by PFC
     */
    bool IsLossless(uint8_t prio) const;

    /**
     * \brief Check that the configuration can work.
     * \return an empty string, or one message naming the parameter at fault
     */
    std::string CheckConfiguration() const;

    /**
     * \brief Fix the random stream used for ECN marking.
     * \param stream first stream index to use
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    // Data path

    /**
     * \brief Ask for buffer space for a packet and account it if granted.
     * \param inPort ingress port
     * \param outPort egress port
     * \param prio priority
     * \param bytes bytes to charge
     * \return ADMITTED, or why the packet must be dropped
     */
    Verdict Admit(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);

    /**
     * \brief After an admission: should the ingress port pause the priority now?
     * \param inPort ingress port
     * \param prio priority
     * \return true when XOFF must be sent now (the state becomes paused)
     */
    bool CheckXoff(uint32_t inPort, uint8_t prio);

    /**
     * \brief Give back the space of a packet that left (sent or dropped).
     * \param inPort ingress port it was charged to
     * \param outPort egress port it was charged to
     * \param prio priority
     * \param bytes bytes it was charged
     */
    void Release(uint32_t inPort, uint32_t outPort, uint8_t prio, uint32_t bytes);

    /**
     * \brief After a release: should the ingress port resume the priority now?
     * \param inPort ingress port
     * \param prio priority
     * \return true when XON must be sent now (the state becomes resumed)
     */
    bool CheckXon(uint32_t inPort, uint8_t prio);

    /**
     * \brief Draw whether to mark an ECN-capable packet about to join an egress queue.
     * \param outPort egress port
     * \param prio priority
     * \return true to set CE (counted as an ECN mark)
     */
    bool ShouldMarkEcn(uint32_t outPort, uint8_t prio);

    /**
     * \brief Draw whether to mark an ECN-capable packet, with the egress
     * queue's thresholds, from a queue length the caller gives (the bytes
     * the port sends while a packet waited, when its queue disc reorders).
     * \param outPort egress port
     * \param prio priority
     * \param bytes the queue length to judge
     * \return true to set CE (counted as an ECN mark)
     */
    bool ShouldMarkEcn(uint32_t outPort, uint8_t prio, uint64_t bytes);

    // State

    /**
     * \param inPort ingress port
     * \param prio priority
     * \return true while the port pauses the priority at its peer
     */
    bool IsPaused(uint32_t inPort, uint8_t prio) const;
    /** \return bytes of the shared pool (buffer minus reserves and headroom) */
    uint64_t GetSharedPoolSize() const;
    /** \return bytes of the shared pool in use */
    uint64_t GetSharedUsed() const;
    /** \return the current dynamic PFC threshold T in bytes */
    uint64_t GetPfcThreshold() const;
    /**
     * \param port ingress port
     * \param prio priority
     * \return bytes charged to the queue's reserve and shared pool
     */
    uint64_t GetIngressBytes(uint32_t port, uint8_t prio) const;
    /**
     * \param port ingress port
     * \param prio priority
     * \return bytes charged to the queue's headroom
     */
    uint64_t GetHeadroomUsed(uint32_t port, uint8_t prio) const;
    /**
     * \param port egress port
     * \param prio priority
     * \return bytes in the egress queue
     */
    uint64_t GetEgressBytes(uint32_t port, uint8_t prio) const;
    /** \return all bytes in the buffer */
    uint64_t GetTotalUsed() const;

    /**
     * \brief The MMU's counters, in one place (as ns-3's QueueDisc::Stats).
     *
     * ECN marks are counted where they are applied, in FabricSwitch::Stats:
     * ShouldMarkEcn() only decides.
     */
    struct Stats
    {
        uint64_t nBufferDrops{0};   //!< lossy packets dropped for lack of buffer
        uint64_t nHeadroomDrops{0}; //!< lossless packets dropped: headroom full
        uint64_t nPauses{0};        //!< XOFF decisions (transitions to paused)
        uint64_t nResumes{0};       //!< XON decisions (transitions to resumed)
        uint64_t peakUsedBytes{0};  //!< the largest GetTotalUsed() seen

        /**
         * \param o counters to add (peakUsedBytes: the larger is kept)
         * \return this
         */
        Stats& operator+=(const Stats& o);
    };

    /** \return the counters */
    const Stats& GetStats() const;

  protected:
    void DoDispose() override;

  private:
    /// Recompute the shared pool after a configuration change.
    void UpdateSharedPool();

    /**
     * \param port port
     * \param prio priority
     * \return index of (port, prio) in the per-queue vectors
     */
    static uint32_t Index(uint32_t port, uint8_t prio)
    {
        return port * N_PRIORITIES + prio;
    }

    /**
     * \param port port
     * \param prio priority
     * \return index of (port, prio); out of range (for vector::at) when prio is
     */
    static uint32_t CheckedIndex(uint32_t port, uint8_t prio)
    {
        return prio < N_PRIORITIES ? Index(port, prio) : UINT32_MAX;
    }

    /**
     * \param idx queue index
     * \return shared bytes of the ingress queue
     */
    uint64_t SharedOf(uint32_t idx) const
    {
        const uint64_t q = m_queues[idx].ingressBytes;
        return q > m_reservedBytes ? q - m_reservedBytes : 0;
    }

    /** \return bytes of the shared pool not in use */
    uint64_t FreeShared() const
    {
        return m_sharedPool > m_sharedUsed ? m_sharedPool - m_sharedUsed : 0;
    }

    /** \return the total headroom the configuration sets aside */
    uint64_t TotalHeadroom() const;

    uint64_t m_bufferSize;                //!< total buffer
    uint32_t m_reservedBytes;             //!< reserve per (ingress port, priority)
    uint32_t m_defaultHeadroom;           //!< headroom of new ports
    double m_pfcAlpha;                    //!< dynamic threshold factor
    uint32_t m_resumeOffset;              //!< XON hysteresis
    bool m_lossless;                      //!< PFC on
    uint8_t m_losslessPriorities;         //!< lossless priorities while PFC is on
    uint8_t m_losslessMask;               //!< effective lossless priorities (0 when PFC is off)
    uint32_t m_defaultKmin;               //!< ECN Kmin of new ports
    uint32_t m_defaultKmax;               //!< ECN Kmax of new ports
    double m_defaultPmax;                 //!< ECN Pmax of new ports
    Ptr<UniformRandomVariable> m_uniform; //!< ECN marking draws

    /**
     * The state of one (port, priority): as an ingress queue (what it holds
     * and whether it paused its peer) and as an egress queue (its bytes and
     * ECN thresholds). Kept together, so that a packet's admission and
     * release touch two cache lines, its ingress queue's and its egress
     * queue's, rather than one per field.
     */
    struct Queue
    {
        uint64_t ingressBytes{0}; //!< ingress: reserve + shared bytes
        uint64_t headroomUsed{0}; //!< ingress: headroom bytes
        uint64_t egressBytes{0};  //!< egress: queue bytes
        double pmax{0};           //!< egress: ECN Pmax
        uint32_t kmin{0};         //!< egress: ECN Kmin
        uint32_t kmax{0};         //!< egress: ECN Kmax
        uint8_t paused{0};        //!< ingress: XOFF in force
    };

    std::vector<uint32_t> m_headroom; //!< per port: headroom per lossless priority
    std::vector<Queue> m_queues;      //!< per (port, prio), at Index(port, prio)

    uint64_t m_sharedPool; //!< shared pool size
    uint64_t m_sharedUsed; //!< shared pool bytes in use
    uint64_t m_totalUsed;  //!< all bytes held

    Stats m_stats; //!< the counters
};

} // namespace ns3

#endif /* SWITCH_MMU_H */
