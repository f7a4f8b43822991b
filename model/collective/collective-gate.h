/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_GATE_H
#define COLLECTIVE_GATE_H

#include "ns3/job-step-tag.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

class Collective;

/**
 * \ingroup flux-workload
 * \brief The hook a scheduler puts in front of a collective: asked before a
 * rank posts a ring step (or one chunk of it), it decides when it goes.
 *
 * A collective with a gate queues the sends of each rank in order; for the
 * first one not yet released it calls Ask(), and the rank waits until the gate
 * calls Collective::Release() for it (at once, inside Ask(), or later). With
 * STEP granularity one release lets every chunk of that step go; with CHUNK
 * granularity each chunk is asked for. The collective records, per rank and
 * step, when the step was ready, released and done
 * (Collective::StepRecord), so that time held at the gate is reported apart
 * from time on the network.
 */
class CollectiveGate : public Object
{
  public:
    /// What one release lets go.
    enum Granularity : uint8_t
    {
        STEP = 0, //!< a whole ring step
        CHUNK = 1 //!< one chunk (pipelined piece) of a step
    };

    /// A rank asks to send.
    struct Request
    {
        uint32_t run;            //!< run of the collective (its Start() count)
        uint32_t iteration;      //!< the job's iteration
        uint32_t rank;           //!< the rank
        uint32_t step;           //!< the ring step
        uint32_t chunk;          //!< the chunk (0 for STEP granularity)
        uint64_t bytes;          //!< bytes of the step (STEP) or the chunk (CHUNK)
        JobStepTag::Phase phase; //!< reduce-scatter or all-gather
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveGate();
    ~CollectiveGate() override;

    /** \return what one release lets go */
    Granularity GetGranularity() const;

    /**
     * \brief A rank wants to send; call collective->Release(req.rank) when it may.
     * \param collective the collective
     * \param req the request
     */
    virtual void Ask(Ptr<Collective> collective, const Request& req) = 0;

    /**
     * \brief A run of the collective began (before any Ask of it).
     * \param collective the collective
     * \param bytes buffer bytes per rank of the run
     */
    virtual void RunStarted(Ptr<Collective> collective, uint64_t bytes);

    /**
     * \brief A run of the collective finished on every rank.
     * \param collective the collective
     */
    virtual void RunFinished(Ptr<Collective> collective);

  private:
    bool m_perChunk; //!< CHUNK granularity
};

} // namespace ns3

#endif /* COLLECTIVE_GATE_H */
