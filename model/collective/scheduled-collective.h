/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULED_COLLECTIVE_H
#define SCHEDULED_COLLECTIVE_H

#include "collective.h"

#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief A collective given as a schedule: in each step, each rank sends
 * some messages to some peers and receives some messages.
 *
 * Subclasses say, per rank and step, what the rank sends (GetSends) and how
 * many messages it receives (GetNReceives); this class runs it. A rank
 * sends step k+1 only once it has received all its messages of steps 0..k
 * (the data of step k+1 depends on them). With PipelineBytes set, every
 * message is cut into P pieces and piece j of step k+1 goes as soon as
 * piece j of every earlier step has arrived, as NCCL's pipelined
 * algorithms do; a rank posts its pieces in step order, so that each link
 * carries its messages in the order of the steps that use it.
 *
 * Every send goes through Collective::Submit() (gate, JobStepTag: chunk
 * i*P + j is piece j of the rank's i-th message of the step). A rank's step
 * ends (Collective::RecordEnd) when all its messages of the step have
 * arrived; a step in which it only sends ends when its last piece is
 * posted; a step in which it does nothing is idle (RecordIdle).
 *
 * The links are the rank pairs of the schedule, in the order they first
 * appear (by step, then by sending rank, then in send order).
 */
class ScheduledCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ScheduledCollective();
    ~ScheduledCollective() override;

    void Setup(const std::vector<Ptr<RdmaNic>>& nics, uint8_t prio, uint16_t srcPorts) override;
    void Start(uint64_t bytes, DoneCallback done) override;
    uint32_t GetNSteps() const override;

    /** \return bytes posted by each rank so far, over every link */
    const std::vector<uint64_t>& GetBytesPosted() const;

    double GetNetworkBytes(uint64_t bytes) const override;

  protected:
    /// One message of a step.
    struct Send
    {
        uint32_t peer;  //!< the receiving rank
        uint64_t bytes; //!< its size
    };

    /**
     * \brief The messages a rank sends in a step; the peers must not depend
     * on the buffer size (the links are made at Setup()).
     * \param n ranks
     * \param rank the rank
     * \param step the step
     * \param bytes buffer bytes of the run (Start())
     * \param sends cleared, then filled with the messages, at most one per peer
     */
    virtual void GetSends(uint32_t n,
                          uint32_t rank,
                          uint32_t step,
                          uint64_t bytes,
                          std::vector<Send>& sends) const = 0;

    /**
     * \param n ranks
     * \param rank a rank
     * \param step a step
     * \return the number of messages the rank receives in the step
     */
    virtual uint32_t GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const = 0;

    /**
     * \param n ranks
     * \return steps of one run with n ranks
     */
    virtual uint32_t GetNStepsFor(uint32_t n) const = 0;

    /**
     * \param bytes buffer bytes of the run
     * \return how many pieces each message is cut into (PipelineBytes over
     *         the buffer's 1/N share, at least 1; 1 without PipelineBytes)
     */
    virtual uint32_t GetPieces(uint64_t bytes) const;

    /** \return the PipelineBytes attribute */
    uint64_t GetPipelineBytes() const;

    std::vector<RankChannels::Link> GetLinks(uint32_t nRanks) const override;
    void DoDispose() override;
    void DoPost(uint32_t rank, uint32_t step, uint32_t chunk) override;
    void MessageReceived(uint32_t link) override;
    void RunComplete() override;

  private:
    /**
     * \brief Post what a rank may post now, in step order.
     * \param rank the rank
     */
    void Pump(uint32_t rank);

    /**
     * \brief Move a rank's receive cursor of a piece past complete steps;
     *        end the steps all of whose pieces are through.
     * \param rank the rank
     * \param piece the piece
     * \return false when the run completed meanwhile
     */
    bool AdvanceReceives(uint32_t rank, uint32_t piece);

    /**
     * \param total a message's bytes
     * \param piece a piece
     * \return the bytes of that piece
     */
    uint64_t PieceBytes(uint64_t total, uint32_t piece) const;

    /**
     * \param rank a rank
     * \param peer a rank it sends to in the schedule
     * \return the link from rank to peer
     */
    uint32_t LinkOf(uint32_t rank, uint32_t peer) const;

    uint64_t m_pipelineBytes; //!< piece size, 0 = whole messages
    /// (k, link): the step of the link's k-th message of a run, k-major so
    /// that the links' lookups at one instant fall close together
    std::vector<uint32_t> m_linkSteps;
    uint32_t m_nLinks; //!< links between the ranks
    /// per rank: (peer, link) of its outgoing links, by peer
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> m_linksFrom;
    // (step, rank) arrays are step-major: the ranks of a collective are at
    // about the same step at any one time, so what they touch is a few
    // cache lines rather than a line per rank.
    std::vector<uint16_t> m_recvCount;   //!< (step, rank, piece): arrived
    std::vector<uint32_t> m_recvCursor;  //!< (rank, piece): first incomplete step
    std::vector<uint32_t> m_stepPieces;  //!< (step, rank): pieces through
    std::vector<uint32_t> m_postStep;    //!< rank: step it posts next
    std::vector<uint32_t> m_postPiece;   //!< rank: piece it posts next
    std::vector<uint64_t> m_linkArrived; //!< link: messages arrived this run
    std::vector<uint64_t> m_bytesPosted; //!< rank: bytes posted, all runs
    mutable std::vector<Send> m_sends;   //!< scratch for GetSends
    uint64_t m_bytes;                    //!< buffer bytes of this run
    uint32_t m_pieces;                   //!< pieces per message this run
    uint32_t m_steps;                    //!< steps per run
    bool m_running;                      //!< a run is in progress
    DoneCallback m_done;                 //!< completion of this run
};

} // namespace ns3

#endif /* SCHEDULED_COLLECTIVE_H */
