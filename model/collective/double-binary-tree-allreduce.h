/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DOUBLE_BINARY_TREE_ALLREDUCE_H
#define DOUBLE_BINARY_TREE_ALLREDUCE_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup flux-collective
 * \brief Double binary tree all-reduce, as NCCL's tree algorithm: two
 * binary trees over the N ranks, each carrying half the buffer, reduced up
 * to the root and broadcast back down, in pipelined chunks.
 *
 * Tree 0 is an in-order binary tree over the ranks in which rank r sits at
 * the level of the lowest set bit of r + 1, so the even ranks are its
 * leaves; tree 1 is the same tree over the ranks shifted by one, whose
 * leaves are the odd ranks. Every rank is an inner node of at most one
 * tree, and sends and receives about as much as any other. With D the larger of the two trees'
 * heights and h(v) a rank's height in a tree (leaves 0), the rank sends its half up to its parent
 * in step h(v) (after its children's halves arrived) and down to its children in step 2D - 1 - h(v)
 * (after its parent's arrived): 2D steps. Messages are cut into chunks of ChunkBytes (of the half,
 * S/2), and chunk j of a step goes as soon as chunk j of the earlier steps has arrived, so the way
 * up and the way down overlap.
 *
 * Each rank sends its half up once in each tree where it is not the root
 * and down twice where it has two children: at most 2 S in all.
 */
class DoubleBinaryTreeAllreduce : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DoubleBinaryTreeAllreduce();
    ~DoubleBinaryTreeAllreduce() override;

    /**
     * \param bytes each rank's buffer
     * \return the most any rank sends (a rank's sends in both trees)
     */
    uint64_t GetBytesSentPerRank(uint64_t bytes) const override;
    JobStepTag::Phase GetPhase(uint32_t step) const override;

    /// One rank's place in one tree.
    struct Node
    {
        uint32_t parent{UINT32_MAX};    //!< its parent (UINT32_MAX: the root)
        std::vector<uint32_t> children; //!< its children (none: a leaf)
        uint32_t height{0};             //!< 0 for a leaf, else 1 + its children's most
    };

    /**
     * \brief The tree over n ranks whose in-order positions are shifted by
     * shift (position i, from 1, is rank (i - 1 + shift) mod n).
     * \param n ranks
     * \param shift 0 for tree 0, 1 for tree 1
     * \return each rank's node
     */
    static std::vector<Node> BuildTree(uint32_t n, uint32_t shift);

  protected:
    uint32_t GetNStepsFor(uint32_t n) const override;
    void GetSends(uint32_t n,
                  uint32_t rank,
                  uint32_t step,
                  uint64_t bytes,
                  std::vector<Send>& sends) const override;
    uint32_t GetNReceives(uint32_t n, uint32_t rank, uint32_t step) const override;
    uint32_t GetPieces(uint64_t bytes) const override;

  private:
    /**
     * \brief Make the two trees for n ranks if they are not made yet.
     * \param n ranks
     */
    void Build(uint32_t n) const;

    uint64_t m_chunkBytes;                //!< chunk of a half, bytes
    mutable uint32_t m_builtFor{0};       //!< ranks the trees are made for
    mutable std::vector<Node> m_trees[2]; //!< the two trees
    mutable uint32_t m_depth{0};          //!< D, the larger height
};

} // namespace ns3

#endif /* DOUBLE_BINARY_TREE_ALLREDUCE_H */
