/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_TEST_TRAFFIC_H
#define FABRIC_TEST_TRAFFIC_H

// Test-only traffic for the switch and topology suites: a host egress that
// sends RoCEv2-like UDP/4791 packets at line rate, and a receiver that
// counts them and checks the order within each flow.

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-queue-disc-item.h"
#include "ns3/packet.h"
#include "ns3/pfc-aware-queue-disc.h"
#include "ns3/pfc-egress.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"
#include "ns3/traffic-class.h"
#include "ns3/udp-header.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{
namespace fluxtest
{

/// Bytes of IPv4 and UDP headers in an item's size.
constexpr uint32_t ITEM_HEADERS = 28;

/**
 * \param cls the traffic class
 * \param srcPort the UDP source port (the flow)
 * \param size the item's size, IPv4 header included
 * \param ecn the ECN field
 * \param seq an identification number
 * \return an IPv4/UDP item
 */
inline Ptr<Ipv4QueueDiscItem>
MakeItem(uint8_t cls,
         uint16_t srcPort = 1000,
         uint32_t size = 128,
         Ipv4Header::EcnType ecn = Ipv4Header::ECN_NotECT,
         uint16_t seq = 0)
{
    Ptr<Packet> p = Create<Packet>(size - ITEM_HEADERS);
    UdpHeader udp;
    udp.SetSourcePort(srcPort);
    udp.SetDestinationPort(4791);
    p->AddHeader(udp);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(TrafficClass::ToDscp(cls)));
    ip.SetEcn(ecn);
    ip.SetIdentification(seq);
    ip.SetPayloadSize(p->GetSize());
    return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
}

/**
 * \param item an item
 * \return its traffic class
 */
inline uint8_t
ClassOf(Ptr<const QueueDiscItem> item)
{
    return PfcAwareQueueDisc::GetItemPriority(item);
}

/**
 * \param item an IPv4 item (MakeItem's, or a fabric's data packet)
 * \return its ECN codepoint
 */
inline Ipv4Header::EcnType
EcnOf(Ptr<const QueueDiscItem> item)
{
    return static_cast<const Ipv4QueueDiscItem*>(PeekPointer(item))->GetHeader().GetEcn();
}

/**
 * A host egress that sends IPv4/UDP packets to port 4791, round robin over
 * its flows, whenever the line is free and the flow's priority is not
 * paused. Each packet's IPv4 identification is its sequence number within
 * its flow.
 */
class TrafficEgress : public PfcEgress
{
  public:
    /// One flow.
    struct Flow
    {
        Ipv4Address dst;      //!< destination
        uint16_t srcPort;     //!< UDP source port (ECMP entropy)
        uint8_t tos;          //!< DS field (DSCP << 2 | ECN)
        uint8_t ttl;          //!< IPv4 TTL
        uint32_t packetsLeft; //!< packets still to send
        uint16_t nextSeq;     //!< identification of the next packet
    };

    /**
     * \param dev the host's port (the egress installs itself on it)
     * \param src the host's address
     * \param payload UDP payload bytes per packet
     */
    TrafficEgress(Ptr<PfcNetDevice> dev, Ipv4Address src, uint32_t payload)
        : m_dev(dev),
          m_src(src),
          m_payload(payload)
    {
    }

    /**
     * \brief Add a flow.
     * \param dst destination
     * \param srcPort UDP source port
     * \param packets packets to send
     * \param prio priority (DSCP class selector), ECT(0)
     * \param ttl IPv4 TTL
     */
    void AddFlow(Ipv4Address dst,
                 uint16_t srcPort,
                 uint32_t packets,
                 uint8_t prio = 3,
                 uint8_t ttl = 64)
    {
        const uint8_t tos = static_cast<uint8_t>((prio << 5) | Ipv4Header::ECN_ECT0);
        m_flows.push_back({dst, srcPort, tos, ttl, packets, 0});
    }

    /**
     * \brief Install on the device and start sending at a time.
     * \param at when to start
     */
    void Start(Time at)
    {
        m_dev->SetEgress(this);
        Simulator::Schedule(at, &PfcNetDevice::Wake, m_dev);
    }

    Ptr<QueueDiscItem> DequeueForTransmit(uint8_t pausedMask) override
    {
        for (std::size_t n = 0; n < m_flows.size(); ++n)
        {
            Flow& f = m_flows[(m_next + n) % m_flows.size()];
            if (f.packetsLeft == 0 || ((pausedMask >> (f.tos >> 5)) & 1u))
            {
                continue;
            }
            m_next = (m_next + n + 1) % m_flows.size();
            --f.packetsLeft;
            Ptr<Packet> p = Create<Packet>(m_payload);
            UdpHeader udp;
            udp.SetSourcePort(f.srcPort);
            udp.SetDestinationPort(4791);
            p->AddHeader(udp);
            Ipv4Header ip;
            ip.SetSource(m_src);
            ip.SetDestination(f.dst);
            ip.SetProtocol(17);
            ip.SetTtl(f.ttl);
            ip.SetTos(f.tos);
            ip.SetIdentification(f.nextSeq++);
            ip.SetPayloadSize(p->GetSize());
            ++m_sentPackets;
            m_sentBytes += p->GetSize() + 20;
            return Create<Ipv4QueueDiscItem>(p, Address(), 0x0800, ip);
        }
        return nullptr;
    }

    /** \return packets sent */
    uint64_t GetSentPackets() const
    {
        return m_sentPackets;
    }

    /** \return IPv4 bytes sent */
    uint64_t GetSentBytes() const
    {
        return m_sentBytes;
    }

  private:
    Ptr<PfcNetDevice> m_dev;   //!< the port
    Ipv4Address m_src;         //!< source address
    uint32_t m_payload;        //!< UDP payload per packet
    std::vector<Flow> m_flows; //!< the flows
    std::size_t m_next{0};     //!< next flow to serve
    uint64_t m_sentPackets{0}; //!< packets sent
    uint64_t m_sentBytes{0};   //!< bytes sent
};

/**
 * Receives on a host's port: counts packets and bytes per flow and checks
 * that each flow's identification numbers arrive in order, that the packet
 * is addressed to this host, and records TTLs and CE marks.
 */
class TrafficSink : public SimpleRefCount<TrafficSink>
{
  public:
    /// What one flow delivered.
    struct FlowStats
    {
        uint64_t packets{0};   //!< packets received
        uint16_t nextSeq{0};   //!< expected identification
        uint64_t reordered{0}; //!< packets out of order
    };

    /**
     * \param dev the host's port
     * \param address the host's address
     */
    TrafficSink(Ptr<PfcNetDevice> dev, Ipv4Address address)
        : m_address(address)
    {
        dev->SetRxCallback(MakeCallback(&TrafficSink::Receive, this));
    }

    /**
     * \brief Receive handler.
     * \param dev the port
     * \param p the packet from its IPv4 header
     * \param prio its priority
     */
    void Receive(Ptr<PfcNetDevice> dev, Ptr<Packet> p, uint8_t prio)
    {
        Ipv4Header ip;
        p->RemoveHeader(ip);
        UdpHeader udp;
        p->PeekHeader(udp);
        ++m_packets;
        m_bytes += p->GetSize() + ip.GetSerializedSize();
        m_lastRx = Simulator::Now();
        if (ip.GetDestination() != m_address)
        {
            ++m_misdelivered;
        }
        if (ip.GetEcn() == Ipv4Header::ECN_CE)
        {
            ++m_ceMarked;
        }
        ++m_ttls[ip.GetTtl()];
        const uint64_t key =
            (static_cast<uint64_t>(ip.GetSource().Get()) << 16) | udp.GetSourcePort();
        FlowStats& f = m_flows[key];
        if (ip.GetIdentification() != f.nextSeq)
        {
            ++f.reordered;
            ++m_reordered;
        }
        f.nextSeq = ip.GetIdentification() + 1;
        ++f.packets;
    }

    /**
     * \param src source address
     * \param srcPort UDP source port
     * \return the flow's statistics
     */
    FlowStats GetFlow(Ipv4Address src, uint16_t srcPort) const
    {
        auto it = m_flows.find((static_cast<uint64_t>(src.Get()) << 16) | srcPort);
        return it == m_flows.end() ? FlowStats() : it->second;
    }

    uint64_t m_packets{0};                 //!< packets received
    uint64_t m_bytes{0};                   //!< IPv4 bytes received
    uint64_t m_reordered{0};               //!< packets out of order in their flow
    uint64_t m_misdelivered{0};            //!< packets for another address
    uint64_t m_ceMarked{0};                //!< packets with CE
    Time m_lastRx;                         //!< last arrival
    std::map<uint8_t, uint64_t> m_ttls;    //!< packets per TTL seen
    std::map<uint64_t, FlowStats> m_flows; //!< per (source, source port)

  private:
    Ipv4Address m_address; //!< this host's address
};

} // namespace fluxtest
} // namespace ns3

#endif /* FABRIC_TEST_TRAFFIC_H */
