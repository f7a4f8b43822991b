/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_COLLECTIVE_H
#define RING_COLLECTIVE_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief The ring algorithms' common part: in every step each rank r sends
 * one message to rank r+1 (mod N) and receives one from rank r-1.
 *
 * The buffer is cut into N chunks (S/N bytes, the first S mod N one byte
 * more); subclasses say how many steps there are and which chunk a rank
 * forwards in a step (ChunkOf), or override the message size. Each rank
 * uses one link, to its successor, and the links are numbered by rank
 * (connection r, UDP source port srcPorts + r, with one channel).
 */
class RingCollective : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingCollective();
    ~RingCollective() override;

  protected:
    /**
     * \param bytes buffer bytes
     * \param n ranks
     * \param chunk chunk index
     * \return bytes of that chunk
     */
    static uint64_t ChunkBytes(uint64_t bytes, uint32_t n, uint32_t chunk);

    /**
     * \param n ranks
     * \param rank a rank
     * \param step a step
     * \return the chunk the rank forwards in the step
     */
    virtual uint32_t ChunkOf(uint32_t n, uint32_t rank, uint32_t step) const = 0;

    /**
     * \param n ranks
     * \param rank a rank
     * \param step a step
     * \param bytes buffer bytes
     * \return the bytes the rank sends in the step (its chunk, by default)
     */
    virtual uint64_t GetStepBytes(uint32_t n, uint32_t rank, uint32_t step, uint64_t bytes) const;

    void GetSends(uint32_t n,
                  uint32_t rank,
                  uint32_t step,
                  uint64_t bytes,
                  std::vector<Send>& sends) const override;
    uint32_t GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_COLLECTIVE_H */
