/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup flux-link
 * \brief A full-duplex point-to-point Ethernet link between two PfcNetDevices.
 *
 * The channel only models propagation: the sending device accounts for
 * serialisation and hands over the frame when its first bit leaves; the
 * peer receives it one serialisation time plus the propagation delay later.
 *
 * A link can be taken down and up again (a cable cut, a failed optic):
 * while it is down, every frame handed to it is lost and counted, and so is
 * every frame that was on the wire (its first bit sent, its last not yet
 * arrived) when it went down. Both devices are told of each change through
 * their link change callbacks (NetDevice::AddLinkChangeCallback).
 *
 * Under MPI (FabricRanks) the two ends may belong to two processes: a
 * frame to the other end then travels as an MPI message and is delivered
 * there at the same time as on one process. The propagation delay is the
 * lookahead of ns-3's distributed simulator. Arrivals are keyed by the
 * receiving port for the OrderedScheduler, so that simultaneous arrivals run
 * in the same order however the fabric is split.
 */
class PfcChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcChannel();
    ~PfcChannel() override;

    /**
     * \brief Attach a device to one end of the link.
     * \param device the device; at most two may be attached
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Start sending a frame to the device at the other end.
     * \param p the frame, starting at its Ethernet header
     * \param src the sending device
     * \param txTime the frame's serialisation time
     */
    void TransmitStart(Ptr<Packet> p, Ptr<PfcNetDevice> src, Time txTime);

    /**
     * \param i index 0 or 1
     * \return the attached PfcNetDevice at end i
     */
    Ptr<PfcNetDevice> GetPfcDevice(std::size_t i) const;

    /**
     * \param device one end of the link
     * \return the device at the other end
     */
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> device) const;

    /** \return the one-way propagation delay */
    Time GetDelay() const;

    /**
     * \brief Take the link down or bring it back up.
     * \param up true for up
     */
    void SetLinkUp(bool up);

    /** \return whether the link is up */
    bool IsLinkUp() const;

    /** \return frames lost because the link was down, or went down under them */
    uint64_t GetLostFrames() const;

    // Channel interface
    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * \brief The arrival of one frame at a device: a reusable event.
     *
     * Fired events go back to one free list shared by all channels, and
     * the latest fired is reused first, by whichever channel sends next:
     * its memory is still in the cache (a list per channel would hand out
     * an event last touched one frame time ago on that link, which on a
     * large fabric is long gone from the cache). The list holds one
     * reference to each free event; a pending one is the simulator's.
     */
    class ArrivalEvent : public EventImpl
    {
      public:
        /**
         * \brief Load the event with a frame (before scheduling it).
         * \param channel the channel the frame is on
         * \param dst the receiving device
         * \param frame the frame
         * \param downs the link's down count when the frame was sent
         */
        void Load(PfcChannel* channel, PfcNetDevice* dst, Ptr<Packet> frame, uint32_t downs);

        ArrivalEvent* m_nextFree{nullptr}; //!< the next one on the free list

      protected:
        void Notify() override;

      private:
        // Raw pointers: channels and devices live until Simulator::Destroy,
        // which releases pending events without running them.
        PfcChannel* m_channel{nullptr}; //!< the channel the frame is on
        PfcNetDevice* m_dst{nullptr};   //!< the receiving device
        Ptr<Packet> m_frame;            //!< the frame
        uint32_t m_downs{0};            //!< the link's down count when the frame was sent
    };

    /**
     * \return an arrival event that is not pending (a new one if all are),
     * with the free list's reference, which passes to the simulator
     */
    static ArrivalEvent* TakeArrivalEvent();

    static ArrivalEvent* s_freeArrivals; //!< arrival events not pending, the latest fired first

    /**
     * \brief Schedule the arrival of a frame at end to.
     * \param to the receiving end
     * \param delay from now
     * \param frame the frame
     * \param downs the link's down count when the frame was sent
     */
    void ScheduleArrival(std::size_t to, Time delay, const Ptr<Packet>& frame, uint32_t downs);

    /**
     * \brief Send a frame to an end that another process simulates.
     * \param to the receiving end
     * \param frame the frame
     * \param txTime its serialisation time
     */
    void SendRemote(std::size_t to, Ptr<Packet> frame, Time txTime);

    /**
     * \brief A frame from the other process, one tick after the lookahead:
     *        schedule its arrival at the local end.
     * \param frame the frame, with its RemoteFrameTag
     */
    void ReceiveRemote(Ptr<Packet> frame);

    // What every frame touches first, in as few cache lines as may be.
    uint32_t m_downs{0};         //!< times the link went down
    bool m_up{true};             //!< the link carries frames
    bool m_local[2]{true, true}; //!< per end: simulated by this process
    uint32_t m_context[2];       //!< per end: its node's id (the receive events' context)
    uint32_t m_key[2];           //!< per end: its arrivals' OrderedScheduler key (its port)
    Time m_delay;                //!< one-way propagation delay
    Ptr<PfcNetDevice> m_dev[2];  //!< the two ends
    uint64_t m_lost{0};          //!< frames lost while down
    std::size_t m_nDevices{0};   //!< number of attached devices (0 once disposed)
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */
