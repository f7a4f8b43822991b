/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALLREDUCE_H
#define RING_ALLREDUCE_H

#include "collective.h"

#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

class RdmaQueuePair;

/**
 * \ingroup flux-workload
 * \brief Ring allreduce over RDMA: N-1 reduce-scatter then N-1 all-gather steps.
 *
 * The buffer of S bytes is cut into N chunks. In reduce-scatter step k rank
 * r sends chunk (r - k) mod N to rank r+1; in all-gather step k it sends
 * chunk (r + 1 - k) mod N. A rank sends step k+1 only with the data of step
 * k received (the reduction depends on it), so one slow link slows the
 * whole ring. With PipelineBytes set, each step's chunk travels as several
 * messages and a rank forwards piece j of step k+1 as soon as piece j of
 * step k arrived, as NCCL's pipelined ring does.
 *
 * Each rank sends 2(N-1)/N x S bytes per run over one RC queue pair to its
 * successor; the queue pairs persist across runs.
 */
class RingAllreduce : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllreduce();
    ~RingAllreduce() override;

    void Setup(const std::vector<Ptr<RdmaNic>>& nics, uint8_t prio, uint16_t srcPorts) override;
    void Start(uint64_t bytes, DoneCallback done) override;
    uint32_t GetNSteps() const override;
    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    std::vector<Ptr<RdmaQueuePair>> GetQueuePairs() const override;
    std::vector<Connection> GetConnections() const override;

  protected:
    void DoDispose() override;
    void DoPost(uint32_t rank, uint32_t step, uint32_t chunk) override;
    void RunComplete() override;

  private:
    /**
     * \brief Bytes of one chunk of the buffer.
     * \param chunk chunk index
     * \return its size
     */
    uint64_t ChunkBytes(uint32_t chunk) const;

    /**
     * \brief Chunk a rank sends in a step.
     * \param rank the rank
     * \param step the step
     * \return the chunk index
     */
    uint32_t ChunkOf(uint32_t rank, uint32_t step) const;

    /**
     * \brief Bytes of one piece of a step's chunk.
     * \param rank sending rank
     * \param step the step
     * \param piece piece index
     * \return its size
     */
    uint64_t PieceBytes(uint32_t rank, uint32_t step, uint32_t piece) const;

    /**
     * \brief Hand one piece of a step to Submit().
     * \param rank sending rank
     * \param step the step
     * \param piece piece index
     */
    void Post(uint32_t rank, uint32_t step, uint32_t piece);

    /**
     * \brief A rank received one message from its predecessor.
     * \param self the collective
     * \param rank the receiving rank
     * \param qp the queue pair
     * \param seq message sequence number
     * \param bytes message bytes
     */
    static void Received(RingAllreduce* self,
                         uint32_t rank,
                         Ptr<RdmaQueuePair> qp,
                         uint64_t seq,
                         uint64_t bytes);

    /**
     * \brief A rank's send queue pair completed a message in error.
     * \param self the collective
     * \param rank the sending rank
     * \param qp the queue pair
     * \param seq message sequence number
     * \param bytes message bytes
     * \param status completion status
     */
    static void SendFailed(RingAllreduce* self,
                           uint32_t rank,
                           Ptr<RdmaQueuePair> qp,
                           uint64_t seq,
                           uint64_t bytes,
                           RdmaQueuePair::WcStatus status);

    uint64_t m_pipelineBytes;                 //!< piece size, 0 = whole chunk
    std::vector<Ptr<RdmaQueuePair>> m_sendQp; //!< rank r -> r+1
    std::vector<Ptr<RdmaQueuePair>> m_recvQp; //!< rank r <- r-1
    std::vector<uint64_t> m_received;         //!< messages received by each rank this run
    uint64_t m_bytes;                         //!< buffer bytes of this run
    uint32_t m_pieces;                        //!< pieces per step
    bool m_running;                           //!< a run is in progress
    DoneCallback m_done;                      //!< completion of this run
};

} // namespace ns3

#endif /* RING_ALLREDUCE_H */
