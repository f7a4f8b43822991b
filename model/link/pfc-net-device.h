/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_NET_DEVICE_H
#define PFC_NET_DEVICE_H

#include "ethernet-ipv4-header.h"
#include "pfc-egress.h"
#include "pfc-ipv4-receiver.h"
#include "pfc-watchdog.h"

#include "ns3/compact-fifo.h"
#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-class.h"

#include <array>
#include <memory>
#include <typeinfo>

namespace ns3
{

class Ipv4QueueDiscItem;
class PfcChannel;
class Node;

/**
 * \ingroup flux-link
 * \brief A point-to-point Ethernet port with 802.1Q priorities and 802.1Qbb PFC.
 *
 * Frames are Ethernet II with an 802.1Q tag whose PCP carries the priority
 * (TrafficClass::ToPcp of the DSCP class selector of the IPv4 packet). PFC frames are MAC-control
 * frames (EtherType 0x8808, opcode 0x0101) that pause priorities for a number
 * of 512-bit-time quanta. A priority paused by the peer is not served while
 * the others are; a pause ends when its quanta expire or a frame with zero
 * quanta arrives.
 *
 * The device does not queue data: when the line is free it sends its own
 * PFC frames first, then pulls the next item from its PfcEgress, passing the
 * mask of paused priorities. Received IPv4 packets go to the Ipv4RxCallback
 * (with their IPv4 header apart, read in one pass with the link header) or
 * else to the RxCallback (packet from its IPv4 header on), with their
 * priority. Serialisation time counts the 20 bytes of preamble, SFD and
 * inter-frame gap and the 4-byte FCS on top of the frame.
 *
 * Frames are built with one EthernetIpv4Header (the link header and, for
 * IPv4 items whose header is still apart, the IPv4 header) and read the
 * same way: the bytes are those of the two headers.
 *
 * A PfcWatchdog installed with SetWatchdog() (none by default) watches the
 * priorities the peer pauses and makes the device ignore the pauses of a
 * stormed priority (IgnorePause) until it restores it (HonourPause).
 */
class PfcNetDevice : public NetDevice
{
  public:
    /**
     * \brief Receive handler: the device, the packet (starting at its IPv4
     * header) and its priority.
     */
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, uint8_t> RxCallback;

    /**
     * \brief Receive handler with the IPv4 header apart: the device, the
     * packet (after its IPv4 header), the IPv4 header (the handler may change
     * it: the device discards it afterwards) and the priority.
     */
    typedef Callback<void, Ptr<PfcNetDevice>, Ptr<Packet>, Ipv4Header&, uint8_t> Ipv4RxCallback;

    /// Number of 802.1p priorities (TrafficClass::N_CLASSES).
    static constexpr uint8_t N_PRIORITIES = TrafficClass::N_CLASSES;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcNetDevice();
    ~PfcNetDevice() override;

    /**
     * \brief Connect the device to a link.
     * \param ch the channel
     * \return true
     */
    bool Attach(Ptr<PfcChannel> ch);

    /**
     * \brief Set where the device pulls data frames from.
     * \param egress the egress
     */
    void SetEgress(Ptr<PfcEgress> egress);

    /** \return the egress */
    Ptr<PfcEgress> GetEgress() const;

    /**
     * \brief Set the handler of received IPv4 packets.
     * \param cb the handler
     */
    void SetRxCallback(RxCallback cb);

    /**
     * \brief Set the handler of received IPv4 packets that takes their IPv4
     * header apart (it has precedence over the RxCallback).
     * \param cb the handler (a null callback removes it)
     */
    void SetIpv4RxCallback(Ipv4RxCallback cb);

    /**
     * \brief Set the receiver of IPv4 packets, called directly (it has
     * precedence over both callbacks).
     * \param receiver the receiver, not owned: it must call
     *        SetIpv4Receiver(nullptr) before it goes (null removes it)
     */
    void SetIpv4Receiver(PfcIpv4Receiver* receiver);

    /**
     * \brief Start a transmission if the line is free and something may be sent.
     *
     * Called by the egress when it gets new work.
     */
    void Wake();

    /**
     * \brief Pause or resume the peer's transmissions on one priority.
     *
     * Pausing sends a PFC frame with the PauseQuanta attribute's quanta and
     * refreshes it before it expires; resuming sends a frame with zero quanta.
     * Does nothing when PFC is disabled or the state does not change.
     *
     * \param prio the priority
     * \param pause true to pause, false to resume
     */
    void SetPauseUpstream(uint8_t prio, bool pause);

    /** \return bit p set while this device pauses its peer's priority p */
    uint8_t GetUpstreamPausedMask() const;

    /** \return bit p set while the peer pauses this device's priority p */
    uint8_t GetPausedMask() const;

    /**
     * \brief Install a PFC watchdog on the device's priorities.
     *
     * The device owns it (one watchdog per device: do not share one).
     * \param watchdog the watchdog, or nullptr to remove it
     */
    void SetWatchdog(Ptr<PfcWatchdog> watchdog);

    /** \return the watchdog, or nullptr */
    Ptr<PfcWatchdog> GetWatchdog() const;

    /**
     * \brief Stop honouring the peer's pauses of a priority (the watchdog
     * found it stormed): a pause in force ends now, and pause frames for the
     * priority are ignored until HonourPause().
     * \param prio the priority
     * \param discard also discard its packets instead of sending them
     */
    void IgnorePause(uint8_t prio, bool discard);

    /**
     * \brief Honour the peer's pauses of a priority again.
     * \param prio the priority
     */
    void HonourPause(uint8_t prio);

    /** \return bit p set while pauses of priority p are ignored */
    uint8_t GetIgnoredMask() const;

    /** \return true while a frame is being serialised */
    bool IsBusy() const;

    /**
     * \brief Set the line rate.
     * \param bps the rate; must be positive
     */
    void SetDataRate(DataRate bps);

    /** \return the line rate */
    DataRate GetDataRate() const;

    /**
     * \param bytes frame size, from the Ethernet header to the end of payload
     * \return the time the frame occupies the line, with preamble, IFG and FCS
     */
    Time GetFrameTxTime(uint32_t bytes) const;

    /**
     * \param bytes frame size, from the Ethernet header to the end of payload
     * \return GetFrameTxTime in picoseconds, before Time's resolution (ns in
     *         a scenario) rounds it: the line carries the remainder from
     *         frame to frame, so sums of frames must too
     */
    int64_t GetFrameTxPicoSeconds(uint32_t bytes) const;

    /** \return bytes a frame occupies on the line beyond itself (preamble, SFD, IFG, FCS) */
    uint32_t GetWireOverhead() const;

    /** \return bytes put on the line (frames, without preamble, IFG and FCS) */
    uint64_t GetTxBytes() const;

    /** \return frames put on the line */
    uint64_t GetTxFrames() const;

    /**
     * \param cls a traffic class (0..7)
     * \return IPv4 frames of that class put on the line (PFC frames have none)
     */
    uint64_t GetTxFrames(uint8_t cls) const;

    /** \return frames lost by the receive error model */
    uint64_t GetRxErrors() const;

    /** \return the number of PFC frames that paused (quanta > 0) sent */
    uint64_t GetPfcPausesSent() const;

    /** \return the number of PFC frames received that paused a priority */
    uint64_t GetPfcPausesReceived() const;

    /**
     * \brief Called by the channel when a frame has fully arrived.
     * \param p the frame
     */
    void Receive(Ptr<Packet> p);

    /** \return the peer device, or nullptr when unconnected */
    Ptr<PfcNetDevice> GetPeer() const;

    /**
     * \brief Called by the channel when the link goes down or comes back.
     *
     * Down: pauses received from the peer are void (the device drains what
     * its egress gives it into the dead link). Up: the pauses this device
     * holds at its peer are sent again at once. Then the link change
     * callbacks run.
     */
    void NotifyLinkChange();

    // NetDevice interface
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

    /**
     * TracedCallback signature for PFC events.
     * \param [in] prio the priority
     * \param [in] quanta pause quanta (0 = resume)
     */
    typedef void (*PfcTracedCallback)(uint8_t prio, uint16_t quanta);

  protected:
    void DoDispose() override;

  private:
    class FrameTraceAccessor;
    /// Send the next frame if the line is free, or have TransmitComplete()
    /// called when it will be.
    void TryTransmit();
    /**
     * \brief Put a frame on the line, and have TransmitComplete() called at
     * its end if more may be waiting (control frames, the egress).
     * \param frame the frame, from its Ethernet header
     * \param now the current time step
     */
    void TransmitStart(Ptr<Packet> frame, int64_t now);
    /// The line became free while something was waiting for it.
    void TransmitComplete();
    /**
     * \brief Have TransmitComplete() called at the end of the frame on the
     * line (once).
     * \param now the current time step
     */
    void ScheduleCompletion(int64_t now);
    /**
     * \brief Queue a PFC frame.
     * \param classEnable priorities the frame speaks about
     * \param quanta quanta for them (0 = resume)
     */
    void SendPfc(uint8_t classEnable, uint16_t quanta);
    /**
     * \brief Refresh a pause sent to the peer before it expires.
     * \param prio the priority
     */
    void RefreshPause(uint8_t prio);
    /**
     * \brief Handle a received PFC frame.
     * \param frame the frame, after its Ethernet header
     */
    void ReceivePfc(Ptr<Packet> frame);
    /**
     * \brief A pause received from the peer expired.
     * \param prio the priority
     */
    void PauseExpired(uint8_t prio);
    /** \return the duration of the given quanta at the line rate */
    Time QuantaToTime(uint16_t quanta) const;
    /**
     * \param item an item to send
     * \return the item as an Ipv4QueueDiscItem, or null when it is not one
     */
    const Ipv4QueueDiscItem* AsIpv4Item(const QueueDiscItem* item);
    /// Discard what the egress holds of the priorities in m_discardMask.
    void DiscardStormed();

    /// Timers of the pauses received from and sent to the peer.
    struct PauseTimers
    {
        std::array<EventId, N_PRIORITIES> expiry;  //!< end of received pauses
        std::array<EventId, N_PRIORITIES> refresh; //!< refresh of sent pauses
    };

    /** \return the pause timers, made on first use */
    PauseTimers& Timers();

    // What every frame touches comes first, so that sending or receiving
    // one reads few cache lines of the device: a large fabric has
    // thousands of devices, and few of them stay in the caches.
    int64_t m_txEnd{0};              //!< time step at which the frame on the line ends
    bool m_picking{false};           //!< the egress is picking the next frame
    bool m_completionPending{false}; //!< TransmitComplete() is scheduled
    /// a sink was ever connected to MacTx, MacRx or a sniffer trace
    bool m_frameTraced{false};
    uint8_t m_pausedMask{0};         //!< priorities paused by the peer
    uint8_t m_upstreamPausedMask{0}; //!< priorities we pause at the peer
    uint8_t m_ignoredMask{0};        //!< priorities whose pauses are ignored
    uint8_t m_discardMask{0};        //!< priorities whose packets are discarded
    bool m_pfcEnabled{true};         //!< honour and send PFC frames
    /// preamble + SFD + IFG + FCS bytes
    uint32_t m_wireOverhead{WireBytes::PREAMBLE_IFG + WireBytes::FCS};
    uint32_t m_ifIndex{0};               //!< interface index
    double m_psPerByte{80};              //!< picoseconds per byte at the line rate
    int64_t m_txCarryPs{0};              //!< sub-resolution remainder of tx times
    Ptr<PfcChannel> m_channel;           //!< the link
    Ptr<PfcEgress> m_egress;             //!< where data frames come from
    Ptr<EventImpl> m_txCompleteEvent;    //!< TransmitComplete(), made once, scheduled when needed
    Ptr<ErrorModel> m_receiveErrorModel; //!< loss on reception, if any
    PfcIpv4Receiver* m_ipv4Receiver{nullptr}; //!< receiver of IPv4 packets, if any
    /// the last item type found to be an Ipv4QueueDiscItem
    const std::type_info* m_ipv4ItemType{nullptr};
    uint64_t m_addressBits{0}; //!< m_address as EthernetVlanHeader holds it
    /// the link peer's address bits (broadcast while there is none)
    uint64_t m_peerAddressBits{0xffffffffffffULL};
    uint64_t m_txBytes{0};                                //!< bytes sent
    uint64_t m_txFrames{0};                               //!< frames sent
    std::array<uint64_t, N_PRIORITIES> m_txClassFrames{}; //!< IPv4 frames sent per traffic class
    CompactFifo<Ptr<Packet>> m_ctrlQueue;                 //!< PFC frames waiting for the line
    CompactFifo<Ptr<QueueDiscItem>> m_sendQueue;          //!< packets given through Send()
    // The headers of the frame being sent and of the frame being received,
    // reused: a Header object costs its construction and destruction per
    // frame otherwise (each hop has one of each).
    EthernetIpv4Header m_txHeader; //!< link (+ IPv4) header of the frame being sent
    EthernetIpv4Header m_rxHeader; //!< link header of the frame being received
    Ipv4Header m_rxIp;             //!< its IPv4 header (m_rxHeader's sink)

    Ptr<Node> m_node;                                      //!< the node
    Mac48Address m_address;                                //!< MAC address
    uint16_t m_mtu{9000};                                  //!< largest IPv4 packet
    uint16_t m_pauseQuanta{0xffff};                        //!< quanta of the pauses we send
    DataRate m_bps{DataRate("100Gbps")};                   //!< line rate
    Ptr<PfcWatchdog> m_watchdog;                           //!< PFC watchdog, if any
    std::unique_ptr<PauseTimers> m_pauseTimers;            //!< pause timers, once PFC is used
    uint64_t m_pfcPausesSent{0};                           //!< PFC pause frames sent
    uint64_t m_pfcPausesReceived{0};                       //!< PFC pause frames received
    uint64_t m_rxErrors{0};                                //!< frames lost by the error model
    Ipv4RxCallback m_ipv4RxCallback;                       //!< receive handler, IPv4 apart
    RxCallback m_rxCallback;                               //!< receive handler
    NetDevice::ReceiveCallback m_stdRxCallback;            //!< node protocol handler
    NetDevice::PromiscReceiveCallback m_promiscRxCallback; //!< promiscuous handler
    TracedCallback<> m_linkChange;                         //!< link change callbacks

    TracedCallback<Ptr<const Packet>> m_macTxTrace;          //!< frame put on the line
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< frame received
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< pcap (non-promiscuous)
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< pcap (promiscuous)
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;      //!< frame lost on the link
    TracedCallback<uint8_t, uint16_t> m_pfcTxTrace;          //!< PFC frame sent
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;          //!< PFC frame received
};

} // namespace ns3

#endif /* PFC_NET_DEVICE_H */
