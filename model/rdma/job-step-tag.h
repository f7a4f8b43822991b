/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_STEP_TAG_H
#define JOB_STEP_TAG_H

#include "ns3/tag.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-rdma
 * \brief Packet tag naming the piece of a training job's collective a
 * packet carries: job, iteration, phase, ring step and chunk.
 *
 * A queue pair copies the tag of a message (RdmaQueuePair::PostSend) into
 * every packet of it, retransmissions included, so that queue discs, traces
 * and schedulers can tell whose packet crosses a link and where in its
 * iteration the job is. It is simulation metadata: the wire carries only the
 * packet's traffic class (DSCP and PCP).
 */
class JobStepTag : public Tag
{
  public:
    /// The two phases of a ring allreduce.
    enum Phase : uint8_t
    {
        REDUCE_SCATTER = 0, //!< steps 0 .. N-2
        ALL_GATHER = 1      //!< steps N-1 .. 2N-3
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    JobStepTag();

    /**
     * \param job the job's index
     * \param iteration the job's iteration
     * \param phase reduce-scatter or all-gather
     * \param step the ring step
     * \param chunk the chunk (pipelined piece) of the step
     */
    JobStepTag(uint32_t job, uint32_t iteration, Phase phase, uint16_t step, uint32_t chunk);

    /** \return the job's index */
    uint32_t GetJob() const;
    /** \return the iteration */
    uint32_t GetIteration() const;
    /** \return the phase */
    Phase GetPhase() const;
    /** \return the ring step */
    uint16_t GetStep() const;
    /** \return the chunk of the step */
    uint32_t GetChunk() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

  private:
    uint32_t m_job;       //!< job index
    uint32_t m_iteration; //!< iteration
    uint32_t m_chunk;     //!< chunk of the step
    uint16_t m_step;      //!< ring step
    uint8_t m_phase;      //!< Phase
};

} // namespace ns3

#endif /* JOB_STEP_TAG_H */
