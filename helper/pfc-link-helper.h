/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PFC_LINK_HELPER_H
#define PFC_LINK_HELPER_H

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <string>

namespace ns3
{

class Node;
class NetDevice;

/**
 * \ingroup flux-helper
 * \brief Builds PFC-capable Ethernet links: two PfcNetDevices joined by a
 * PfcChannel, in the manner of PointToPointHelper.
 *
 * Each device gets a fresh MAC address (Mac48Address::Allocate()) and is
 * added to its node. Pcap traces are Ethernet (DLT_EN10MB), so Wireshark and
 * tshark decode the 802.1Q tag, PFC frames and RoCEv2. ASCII traces
 * (EnableAscii, EnableAsciiAll) write one line per frame in ns-3's format:
 * "-" a frame put on the line (MacTx), "r" a frame received (MacRx), "d" a
 * frame lost by the receive error model (PhyRxDrop). A port has no device
 * queue (frames wait in the switch's MMU or the NIC), so there is no "+";
 * the switches' Enqueue, Dequeue and Drop traces give the queueing.
 */
class PfcLinkHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    PfcLinkHelper();
    ~PfcLinkHelper() override;

    /**
     * \brief Set an attribute of the devices created by Install()
     * (ns3::PfcNetDevice: DataRate, Mtu, PfcEnabled, PauseQuanta, ...).
     * \param name the attribute
     * \param value its value
     */
    void SetDeviceAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Set an attribute of the channels created by Install()
     * (ns3::PfcChannel: Delay).
     * \param name the attribute
     * \param value its value
     */
    void SetChannelAttribute(std::string name, const AttributeValue& value);

    /**
     * \brief Join two nodes with a link.
     * \param a one node
     * \param b the other node
     * \return the two devices, a's first
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \brief Join the two nodes of a container with a link.
     * \param c exactly two nodes
     * \return the two devices, in the container's order
     */
    NetDeviceContainer Install(NodeContainer c);

    /**
     * \brief What later EnablePcap() calls capture.
     * \param snapLen bytes kept of each frame (the pcap's snap length;
     *        65535: whole frames)
     * \param start frames sent or received before this time are left out
     * \param stop frames from this time on are left out (zero: none)
     */
    void SetPcapCapture(uint32_t snapLen, Time start, Time stop);

    /**
     * \brief Timestamps of later EnablePcap() calls in nanoseconds (pcap
     * magic 0xa1b23c4d, which Wireshark and tshark read), the default: at
     * 100 Gb/s a 1 KB frame lasts 80 ns, so microseconds would give many
     * frames one time. False: microseconds, as ns-3's PcapFileWrapper
     * writes by default.
     * \param nanoseconds true for nanosecond timestamps
     */
    void SetPcapNanoseconds(bool nanoseconds);

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< makes the devices
    ObjectFactory m_channelFactory; //!< makes the channels
    uint32_t m_snapLen{65535};      //!< bytes kept per captured frame
    Time m_captureStart;            //!< start of the capture window
    Time m_captureStop;             //!< end of the capture window (zero: none)
    bool m_nanoseconds{true};       //!< nanosecond pcap timestamps
};

} // namespace ns3

#endif /* PFC_LINK_HELPER_H */
