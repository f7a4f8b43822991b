/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_WATCHDOG_H
#define PFC_WATCHDOG_H

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/queue-item.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>
#include <string>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup flux-link
 * \brief PFC storm detection and recovery for the egress queues of one
 * PfcNetDevice, one per priority, as production switches run it (SONiC,
 * Arista and Cisco "PFC watchdog").
 *
 * Detection: a priority that the peer has kept paused without a break for
 * DetectionTime while the device's egress holds packets of it
 * (PfcEgress::HasQueued) is declared stormed. A pause storm from a
 * malfunctioning peer and a PFC deadlock (a cycle of queues pausing one
 * another) both look so.
 *
 * Mitigation, while the queue is stormed: the device ignores the pause
 * frames it receives for the priority and
 * - with Action "drop" discards the queue's packets, those waiting and
 *   those arriving (PfcEgress::DequeueForDiscard: a switch port counts them
 *   as FabricSwitch::DROP_PFC_WATCHDOG), and sends the priority's packets no
 *   more;
 * - with Action "forward" sends them as if nothing were paused (the peer,
 *   whose ingress is full, may then drop them).
 *
 * Restoration: when no pause frame for the priority has arrived for
 * RestorationTime, the queue honours pauses again.
 *
 * The watchdog costs nothing while no pause lasts: the device calls it only
 * when a priority becomes paused (one timer per DetectionTime at most per
 * priority) and, during a storm, for the stormed priority's frames. Install
 * it with PfcNetDevice::SetWatchdog (FabricSwitch does so on all its ports
 * when its PfcWatchdog attribute is true).
 */
class PfcWatchdog : public Object
{
  public:
    /// Number of priorities watched (TrafficClass::N_CLASSES).
    static constexpr uint8_t N_PRIORITIES = TrafficClass::N_CLASSES;

    /// What a stormed queue does with its packets.
    enum Action : uint8_t
    {
        DROP = 0, //!< discard them
        FORWARD   //!< send them, ignoring the peer's pauses
    };

    /// What the watchdog did, summed over its priorities.
    struct Counters
    {
        uint64_t storms{0};        //!< storms detected
        uint64_t restorations{0};  //!< stormed queues restored
        uint64_t drops{0};         //!< packets discarded (Action "drop")
        uint64_t forwarded{0};     //!< packets sent while their queue was stormed ("forward")
        uint64_t ignoredPauses{0}; //!< pause frames ignored for stormed queues

        /**
         * \param o counters to add
         * \return this
         */
        Counters& operator+=(const Counters& o);
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcWatchdog();
    ~PfcWatchdog() override;

    /**
     * \param name an action's name
     * \return true for "drop" and "forward"
     */
    static bool IsActionName(const std::string& name);

    /**
     * \brief Set the action by name.
     * \param name "drop" or "forward" (anything else aborts: check with IsActionName)
     */
    void SetActionName(const std::string& name);

    /** \return the action's name */
    std::string GetActionName() const;

    /** \return the action */
    Action GetAction() const;

    /** \return the detection time */
    Time GetDetectionTime() const;

    /** \return the restoration time */
    Time GetRestorationTime() const;

    /**
     * \brief Watch a device (called by PfcNetDevice::SetWatchdog).
     * \param dev the device (not owned: it owns the watchdog), or nullptr
     */
    void SetDevice(PfcNetDevice* dev);

    /** \return bit p set while priority p is stormed */
    uint8_t GetStormedMask() const;

    /** \return the counters */
    const Counters& GetCounters() const;

    // Called by the device

    /**
     * \brief The peer paused a priority that was not paused.
     * \param prio the priority
     */
    void PauseStarted(uint8_t prio);

    /**
     * \brief A pause frame arrived for a stormed priority and was ignored.
     * \param prio the priority
     */
    void PauseIgnored(uint8_t prio);

    /**
     * \brief A packet of a stormed queue was discarded (Action "drop").
     * \param item the packet
     */
    void Discarded(Ptr<const QueueDiscItem> item);

    /**
     * \brief A packet of a stormed queue was sent (Action "forward").
     * \param prio its priority
     */
    void Forwarded(uint8_t prio);

    /**
     * TracedCallback signature for storm events.
     * \param [in] prio the priority
     */
    typedef void (*StormTracedCallback)(uint8_t prio);

    /**
     * TracedCallback signature for discarded packets.
     * \param [in] item the packet
     */
    typedef void (*DropTracedCallback)(Ptr<const QueueDiscItem> item);

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief Is the priority stormed now? Declare it, or look again later.
     * \param prio the priority
     */
    void CheckStorm(uint8_t prio);

    /**
     * \brief Has the priority been free of pauses long enough? Restore it,
     * or look again later.
     * \param prio the priority
     */
    void CheckRestore(uint8_t prio);

    PfcNetDevice* m_device;                           //!< the watched device
    Time m_detectionTime;                             //!< pause length that makes a storm
    Time m_restorationTime;                           //!< pause-free time that ends a storm
    Action m_action;                                  //!< what stormed queues do
    uint8_t m_stormed;                                //!< bit p: priority p is stormed
    std::array<Time, N_PRIORITIES> m_pausedSince;     //!< start of the current pause
    std::array<Time, N_PRIORITIES> m_lastPause;       //!< last pause frame of a stormed queue
    std::array<EventId, N_PRIORITIES> m_checkStorm;   //!< pending detection check
    std::array<EventId, N_PRIORITIES> m_checkRestore; //!< pending restoration check
    Counters m_counters;                              //!< counters

    TracedCallback<uint8_t> m_stormDetectedTrace;         //!< a storm was detected
    TracedCallback<uint8_t> m_stormRestoredTrace;         //!< a stormed queue was restored
    TracedCallback<Ptr<const QueueDiscItem>> m_dropTrace; //!< a packet was discarded
};

} // namespace ns3

#endif /* PFC_WATCHDOG_H */
