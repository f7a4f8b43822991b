/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-channel.h"

#include "pfc-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcChannel");

NS_OBJECT_ENSURE_REGISTERED(PfcChannel);

TypeId
PfcChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Flux")
                            .AddConstructor<PfcChannel>()
                            .AddAttribute("Delay",
                                          "One-way propagation delay of the link.",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&PfcChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

PfcChannel::PfcChannel()
    : m_nDevices(0),
      m_up(true),
      m_lost(0),
      m_downs(0)
{
    NS_LOG_FUNCTION(this);
}

PfcChannel::~PfcChannel() = default;

void
PfcChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

void
PfcChannel::Attach(Ptr<PfcNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "PfcChannel: a point-to-point link has two ends");
    m_dev[m_nDevices++] = device;
}

void
PfcChannel::TransmitStart(Ptr<Packet> p, Ptr<PfcNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    if (!m_up)
    {
        ++m_lost;
        return;
    }
    Ptr<PfcNetDevice> dst = (m_dev[0] == src) ? m_dev[1] : m_dev[0];
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   txTime + m_delay,
                                   &PfcChannel::Deliver,
                                   this,
                                   dst,
                                   p,
                                   m_downs);
}

void
PfcChannel::Deliver(Ptr<PfcNetDevice> dst, Ptr<Packet> p, uint32_t downs)
{
    if (downs != m_downs)
    {
        // the link went down while the frame was on the wire
        ++m_lost;
        return;
    }
    dst->Receive(p);
}

void
PfcChannel::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_up)
    {
        return;
    }
    m_up = up;
    if (!up)
    {
        ++m_downs;
    }
    for (std::size_t i = 0; i < m_nDevices; ++i)
    {
        m_dev[i]->NotifyLinkChange();
    }
}

bool
PfcChannel::IsLinkUp() const
{
    return m_up;
}

uint64_t
PfcChannel::GetLostFrames() const
{
    return m_lost;
}

Ptr<PfcNetDevice>
PfcChannel::GetPfcDevice(std::size_t i) const
{
    return i < m_nDevices ? m_dev[i] : nullptr;
}

Ptr<PfcNetDevice>
PfcChannel::GetPeer(Ptr<const PfcNetDevice> device) const
{
    if (m_nDevices < 2)
    {
        return nullptr;
    }
    return (m_dev[0] == device) ? m_dev[1] : m_dev[0];
}

Time
PfcChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
PfcChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
PfcChannel::GetDevice(std::size_t i) const
{
    return GetPfcDevice(i);
}

} // namespace ns3
