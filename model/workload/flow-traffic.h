/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_TRAFFIC_H
#define FLOW_TRAFFIC_H

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/traced-callback.h"

#include <string>
#include <vector>

namespace ns3
{

class RdmaNic;

/**
 * \ingroup flux-workload
 * \brief A tenant that sends flows over RDMA: each flow is one message on a
 * fresh, connected pair of queue pairs, torn down once acknowledged.
 *
 * Subclasses decide when flows start and between which hosts. A flow's FCT
 * runs from its start to the arrival of its last byte at the receiver.
 */
class FlowTraffic : public Object
{
  public:
    /// One finished flow.
    struct FlowRecord
    {
        uint32_t src;     //!< sending host index
        uint32_t dst;     //!< receiving host index
        uint64_t bytes;   //!< size
        Time start;       //!< when it was posted
        Time fct;         //!< flow completion time
        uint16_t srcPort; //!< UDP source port (the flow's ECMP entropy)
        uint64_t id{0};   //!< the tenant's count of flows started before it
    };

    /// Called for every finished flow.
    typedef Callback<void, const FlowRecord&> FlowCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FlowTraffic();
    ~FlowTraffic() override;

    /**
     * \brief Give the tenant its name and the NICs of all hosts, by host index.
     * \param name tenant name
     * \param nics every host's NIC
     */
    void Setup(const std::string& name, const std::vector<Ptr<RdmaNic>>& nics);

    /** \brief Begin generating flows. */
    virtual void Start() = 0;

    /** \brief Generate no more flows (those started run to completion). */
    virtual void StopArrivals();

    /** \return true once no more flows will start */
    virtual bool ArrivalsOver() const = 0;

    /** \param cb called for every finished flow */
    void SetFlowCallback(FlowCallback cb);

    /**
     * \param cb called when a flow's sender has the ACK of its last byte,
     *        with FlowRecord::fct the time from its start to then (the FCT
     *        as the HPCC simulator measures it)
     */
    void SetFlowAckedCallback(FlowCallback cb);

    /** \return the tenant's name */
    const std::string& GetName() const;
    /** \return flows started */
    uint64_t GetFlowsStarted() const;
    /** \return flows finished */
    uint64_t GetFlowsFinished() const;
    /** \return flows whose sender's queue pair failed (retries exhausted) */
    uint64_t GetFlowsFailed() const;
    /** \return transport counters over the tenant's queue pairs, past and present */
    RdmaQueuePair::Counters GetCounters() const;

    /// A flow whose sender's queue pair is still connected.
    struct ActiveFlow
    {
        uint32_t src;          //!< sending host
        uint32_t dst;          //!< receiving host
        Ptr<RdmaQueuePair> tx; //!< the sender's queue pair
        uint64_t id;           //!< the tenant's count of flows started before it
    };

    /** \return the flows not yet torn down, in start order */
    std::vector<ActiveFlow> GetActiveFlows() const;

    /** \param cb called for every failed flow, with its id (FlowRecord::id) */
    void SetFlowFailedCallback(Callback<void, uint64_t> cb);
    /** \return bytes of the flows started */
    uint64_t GetBytesStarted() const;

    /**
     * \brief Use fixed random streams.
     * \param stream first stream index
     * \return the number of streams used
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for finished flows.
     * \param [in] src sending host index
     * \param [in] dst receiving host index
     * \param [in] bytes size
     * \param [in] fct flow completion time
     */
    typedef void (*FlowTracedCallback)(uint32_t src, uint32_t dst, uint64_t bytes, Time fct);

    /**
     * TracedCallback signature for started flows.
     * \param [in] tx the sender's queue pair
     * \param [in] rx the receiver's queue pair
     */
    typedef void (*FlowStartTracedCallback)(Ptr<RdmaQueuePair> tx, Ptr<RdmaQueuePair> rx);

  protected:
    void DoDispose() override;

    /**
     * \brief Start one flow now.
     * \param src sending host index
     * \param dst receiving host index
     * \param bytes size
     */
    void StartFlow(uint32_t src, uint32_t dst, uint64_t bytes);

    std::vector<Ptr<RdmaNic>> m_nics;  //!< NIC of each host
    Ptr<UniformRandomVariable> m_port; //!< UDP source ports (ECMP entropy)
    uint8_t m_prio;                    //!< traffic class

  private:
    /// Bookkeeping of one flow in flight.
    struct Flow
    {
        uint32_t src;          //!< sending host
        uint32_t dst;          //!< receiving host
        uint64_t bytes;        //!< size
        Time start;            //!< post time
        uint16_t port;         //!< UDP source port
        Ptr<RdmaQueuePair> tx; //!< sender's queue pair
        Ptr<RdmaQueuePair> rx; //!< receiver's queue pair
        bool received;         //!< the last byte arrived
    };

    /**
     * \brief The receiver got the last byte.
     * \param self the tenant
     * \param id flow id
     * \param qp queue pair
     * \param seq message number
     * \param bytes message bytes
     */
    static void Received(FlowTraffic* self,
                         uint64_t id,
                         Ptr<RdmaQueuePair> qp,
                         uint64_t seq,
                         uint64_t bytes);

    /**
     * \brief The sender got the last ACK: tear the connection down.
     * \param self the tenant
     * \param id flow id
     * \param qp queue pair
     * \param seq message number
     * \param bytes message bytes
     */
    static void Acked(FlowTraffic* self,
                      uint64_t id,
                      Ptr<RdmaQueuePair> qp,
                      uint64_t seq,
                      uint64_t bytes);

    /**
     * \brief The sender's queue pair failed: count the flow and tear it down.
     * \param self the tenant
     * \param id flow id
     * \param qp queue pair
     * \param seq message number
     * \param bytes message bytes
     * \param status completion status
     */
    static void Failed(FlowTraffic* self,
                       uint64_t id,
                       Ptr<RdmaQueuePair> qp,
                       uint64_t seq,
                       uint64_t bytes,
                       RdmaQueuePair::WcStatus status);

    /**
     * \brief Keep a flow's counters and destroy its queue pairs.
     * \param f the flow
     */
    void TearDown(Flow& f);

    std::string m_name;                        //!< tenant name
    std::vector<Flow> m_flows;                 //!< flows by id (slots reused never)
    uint64_t m_started;                        //!< flows started
    uint64_t m_finished;                       //!< flows finished
    uint64_t m_failed;                         //!< flows failed
    uint64_t m_firstActive;                    //!< no flow before this id is active
    RdmaQueuePair::Counters m_closedCounters;  //!< counters of torn-down queue pairs
    Callback<void, uint64_t> m_failedCallback; //!< per failed flow, with its id
    uint64_t m_bytesStarted;                   //!< bytes started
    FlowCallback m_flowCallback;               //!< per-flow report
    FlowCallback m_ackedCallback;              //!< per flow acknowledged in full
    TracedCallback<uint32_t, uint32_t, uint64_t, Time> m_flowTrace;          //!< finished flows
    TracedCallback<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>> m_flowStartTrace; //!< started flows
};

} // namespace ns3

#endif /* FLOW_TRAFFIC_H */
