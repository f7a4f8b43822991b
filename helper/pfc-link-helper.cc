/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-link-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcLinkHelper");

PfcLinkHelper::PfcLinkHelper()
{
    NS_LOG_FUNCTION(this);
    m_deviceFactory.SetTypeId(PfcNetDevice::GetTypeId());
    m_channelFactory.SetTypeId(PfcChannel::GetTypeId());
}

PfcLinkHelper::~PfcLinkHelper() = default;

void
PfcLinkHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
PfcLinkHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

NetDeviceContainer
PfcLinkHelper::Install(Ptr<Node> a, Ptr<Node> b)
{
    NS_LOG_FUNCTION(this << a << b);
    NS_ABORT_MSG_IF(!a || !b || a == b, "PfcLinkHelper::Install: a link joins two nodes");
    NetDeviceContainer devices;
    Ptr<PfcChannel> channel = m_channelFactory.Create<PfcChannel>();
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<PfcNetDevice> dev = m_deviceFactory.Create<PfcNetDevice>();
        dev->SetAddress(Mac48Address::Allocate());
        node->AddDevice(dev);
        dev->Attach(channel);
        devices.Add(dev);
    }
    return devices;
}

NetDeviceContainer
PfcLinkHelper::Install(NodeContainer c)
{
    NS_ABORT_MSG_IF(c.GetN() != 2, "PfcLinkHelper::Install: a link joins exactly two nodes");
    return Install(c.Get(0), c.Get(1));
}

namespace
{

/// Write a frame into the pcap when it passes within [start, stop).
void
WindowSink(Ptr<PcapFileWrapper> file, Time start, Time stop, Ptr<const Packet> p)
{
    const Time now = Simulator::Now();
    if (now >= start && (stop.IsZero() || now < stop))
    {
        file->Write(now, p);
    }
}

} // namespace

void
PfcLinkHelper::EnablePcapInternal(std::string prefix,
                                  Ptr<NetDevice> nd,
                                  bool promiscuous,
                                  bool explicitFilename)
{
    Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("PfcLinkHelper::EnablePcapInternal(): device " << nd
                                                                   << " is not a PfcNetDevice");
        return;
    }
    PcapHelper pcapHelper;
    const std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // A point-to-point port sees all its frames either way. (PcapHelper's
    // CreateFile would take the timestamp resolution from the attribute's
    // default.)
    Ptr<PcapFileWrapper> file =
        CreateObjectWithAttributes<PcapFileWrapper>("NanosecMode", BooleanValue(m_nanoseconds));
    file->Open(filename, std::ios::out);
    NS_ABORT_MSG_IF(file->Fail(), "PfcLinkHelper: cannot open " << filename << " for writing");
    file->Init(PcapHelper::DLT_EN10MB, m_snapLen);
    if (m_captureStart.IsZero() && m_captureStop.IsZero())
    {
        pcapHelper.HookDefaultSink<PfcNetDevice>(device, "PromiscSniffer", file);
        return;
    }
    device->TraceConnectWithoutContext(
        "PromiscSniffer",
        MakeBoundCallback(&WindowSink, file, m_captureStart, m_captureStop));
}

void
PfcLinkHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                   std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool explicitFilename)
{
    Ptr<PfcNetDevice> device = DynamicCast<PfcNetDevice>(nd);
    if (!device)
    {
        NS_LOG_INFO("PfcLinkHelper::EnableAsciiInternal(): device " << nd
                                                                    << " is not a PfcNetDevice");
        return;
    }
    // the default sinks print the frames' headers, as PointToPointHelper's do
    Packet::EnablePrinting();
    AsciiTraceHelper ascii;
    if (!stream)
    {
        // a file of the device's own: lines without context
        const std::string filename =
            explicitFilename ? prefix : ascii.GetFilenameFromDevice(prefix, device);
        Ptr<OutputStreamWrapper> file = ascii.CreateFileStream(filename);
        ascii.HookDefaultDequeueSinkWithoutContext<PfcNetDevice>(device, "MacTx", file);
        ascii.HookDefaultReceiveSinkWithoutContext<PfcNetDevice>(device, "MacRx", file);
        ascii.HookDefaultDropSinkWithoutContext<PfcNetDevice>(device, "PhyRxDrop", file);
        return;
    }
    // a stream shared by several devices: each line names its trace source
    const std::string path = "/NodeList/" + std::to_string(device->GetNode()->GetId()) +
                             "/DeviceList/" + std::to_string(device->GetIfIndex()) +
                             "/$ns3::PfcNetDevice/";
    ascii.HookDefaultDequeueSinkWithContext<PfcNetDevice>(device, path + "MacTx", "MacTx", stream);
    ascii.HookDefaultReceiveSinkWithContext<PfcNetDevice>(device, path + "MacRx", "MacRx", stream);
    ascii.HookDefaultDropSinkWithContext<PfcNetDevice>(device,
                                                       path + "PhyRxDrop",
                                                       "PhyRxDrop",
                                                       stream);
}

void
PfcLinkHelper::SetPcapNanoseconds(bool nanoseconds)
{
    m_nanoseconds = nanoseconds;
}

void
PfcLinkHelper::SetPcapCapture(uint32_t snapLen, Time start, Time stop)
{
    m_snapLen = snapLen;
    m_captureStart = start;
    m_captureStop = stop;
}

} // namespace ns3
