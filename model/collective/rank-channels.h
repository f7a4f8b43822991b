/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RANK_CHANNELS_H
#define RANK_CHANNELS_H

#include "ns3/data-rate.h"
#include "ns3/job-step-tag.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/rdma-queue-pair.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup flux-collective
 * \brief The links a collective's ranks send messages over.
 *
 * A link joins a sending rank to a receiving rank. Two ranks of the same
 * server talk over the server's GPU interconnect (NVLink-like), modelled as
 * alpha-beta: a message of B bytes leaves its GPU after the GPU's earlier
 * messages (one egress per GPU, whatever the peer), takes B / rate, and
 * arrives the latency later; messages of a link arrive in order. Such
 * traffic never reaches a NIC. Every other pair talks over RDMA RC queue
 * pairs between the two ranks' NICs (several ranks may share a NIC): with
 * K channels, K queue pairs per link, and each message is cut into K parts,
 * one per queue pair (NCCL's channels). A message is delivered once all its
 * parts have arrived.
 *
 * The RDMA connections are numbered link by link, channel by channel
 * (connection i is link i / K's channel i % K, in the order of the
 * inter-server links) and connection i uses UDP source port srcPorts + i.
 */
class RankChannels : public Object
{
  public:
    /// A directed pair of ranks a collective sends over.
    struct Link
    {
        uint32_t src; //!< the sending rank
        uint32_t dst; //!< the receiving rank
    };

    /// Called when a whole message of a link has arrived at its destination (the link).
    typedef Callback<void, uint32_t> ReceiveCallback;

    /// Called when a queue pair of a link exhausted its retries (the link, the queue pair).
    typedef Callback<void, uint32_t, Ptr<RdmaQueuePair>> FailureCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RankChannels();
    ~RankChannels() override;

    /**
     * \param links the links
     * \param servers the server of each rank
     * \param channels queue pairs per inter-server link
     * \return the number of RDMA connections (source ports) Connect() uses
     */
    static uint32_t CountConnections(const std::vector<Link>& links,
                                     const std::vector<uint32_t>& servers,
                                     uint32_t channels);

    /**
     * \brief Create the links.
     * \param nics the NIC of each rank (a NIC may serve several ranks)
     * \param servers the server of each rank
     * \param links the links, in the order the collective names them
     * \param prio traffic class of the RDMA data
     * \param srcPorts UDP source port of connection 0
     * \param channels queue pairs per inter-server link (K >= 1)
     * \param intraRate the GPU interconnect's rate per GPU
     * \param intraLatency its latency
     */
    void Connect(const std::vector<Ptr<RdmaNic>>& nics,
                 const std::vector<uint32_t>& servers,
                 const std::vector<Link>& links,
                 uint8_t prio,
                 uint16_t srcPorts,
                 uint32_t channels,
                 DataRate intraRate,
                 Time intraLatency);

    /** \param cb called for every message delivered */
    void SetReceiveCallback(ReceiveCallback cb);

    /** \param cb called when a queue pair fails */
    void SetFailureCallback(FailureCallback cb);

    /**
     * \brief Send one message over a link.
     * \param link the link
     * \param bytes message bytes
     * \param tag the JobStepTag its packets carry
     */
    void Send(uint32_t link, uint64_t bytes, const JobStepTag& tag);

    /** \return the number of links */
    uint32_t GetNLinks() const;

    /**
     * \param link a link
     * \return its two ranks
     */
    const Link& GetLink(uint32_t link) const;

    /**
     * \param link a link
     * \return whether it joins two ranks of one server
     */
    bool IsIntraServer(uint32_t link) const;

    /** \return the number of RDMA connections */
    uint32_t GetNConnections() const;

    /**
     * \param i an RDMA connection
     * \return its link
     */
    uint32_t GetConnectionLink(uint32_t i) const;

    /**
     * \param i an RDMA connection
     * \return its queue pair at the sending rank
     */
    Ptr<RdmaQueuePair> GetSender(uint32_t i) const;

    /**
     * \param i an RDMA connection
     * \return its queue pair at the receiving rank
     */
    Ptr<RdmaQueuePair> GetReceiver(uint32_t i) const;

    /** \return bytes sent over the GPU interconnect so far */
    uint64_t GetIntraServerBytes() const;

  protected:
    void DoDispose() override;

  private:
    /// State of one link.
    struct LinkState
    {
        Link ends;                     //!< its ranks
        bool intra{false};             //!< over the GPU interconnect
        uint32_t firstConnection{0};   //!< its first RDMA connection (K of them)
        uint64_t delivered{0};         //!< whole messages delivered
        std::vector<uint64_t> arrived; //!< parts arrived per channel
    };

    /**
     * \brief A part arrived on a queue pair.
     * \param self the channels
     * \param connection the RDMA connection
     * \param qp the queue pair
     * \param seq message sequence number
     * \param bytes message bytes
     */
    static void PartReceived(RankChannels* self,
                             uint32_t connection,
                             Ptr<RdmaQueuePair> qp,
                             uint64_t seq,
                             uint64_t bytes);

    /**
     * \brief A send queue pair completed a message in error.
     * \param self the channels
     * \param connection the RDMA connection
     * \param qp the queue pair
     * \param seq message sequence number
     * \param bytes message bytes
     * \param status completion status
     */
    static void SendFailed(RankChannels* self,
                           uint32_t connection,
                           Ptr<RdmaQueuePair> qp,
                           uint64_t seq,
                           uint64_t bytes,
                           RdmaQueuePair::WcStatus status);

    /**
     * \brief A message over the GPU interconnect arrives.
     * \param link the link
     */
    void IntraArrived(uint32_t link);

    std::vector<LinkState> m_links;              //!< every link
    std::vector<uint32_t> m_connectionLink;      //!< link of each RDMA connection
    std::vector<Ptr<RdmaQueuePair>> m_senders;   //!< sending queue pair of each connection
    std::vector<Ptr<RdmaQueuePair>> m_receivers; //!< receiving queue pair of each connection
    std::vector<Time> m_egressFree;              //!< per rank: its GPU egress is free from then
    uint32_t m_channels;                         //!< queue pairs per inter-server link
    DataRate m_intraRate;                        //!< GPU interconnect rate per GPU
    Time m_intraLatency;                         //!< GPU interconnect latency
    uint64_t m_intraBytes;                       //!< bytes sent over the GPU interconnect
    ReceiveCallback m_receive;                   //!< message delivery
    FailureCallback m_failure;                   //!< queue pair failure
};

} // namespace ns3

#endif /* RANK_CHANNELS_H */
