/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_RETH_HEADER_H
#define IB_RETH_HEADER_H

#include "ns3/header.h"
#include "ns3/traffic-class.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup flux-rdma
 *
 * \brief InfiniBand RDMA Extended Transport Header (RETH), 16 bytes after the
 * BTH of the first (or only) packet of an RDMA WRITE
 * (IbBthHeader::HasReth()).
 *
 * \verbatim
   bytes  0..7   virtual address of the target buffer
   bytes  8..11  remote key (R_Key) of the target memory region
   bytes 12..15  DMA length: bytes of the whole RDMA WRITE message
   \endverbatim
 */
class IbRethHeader : public Header
{
  public:
    static constexpr uint32_t SIZE = WireBytes::RETH; //!< Serialized size in bytes

    /**
     * \brief Construct a RETH with all fields zero.
     */
    IbRethHeader();

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * \param va virtual address of the target buffer
     */
    void SetVirtualAddress(uint64_t va);
    /**
     * \return the virtual address of the target buffer
     */
    uint64_t GetVirtualAddress() const;
    /**
     * \param rkey remote key of the target memory region
     */
    void SetRKey(uint32_t rkey);
    /**
     * \return the remote key of the target memory region
     */
    uint32_t GetRKey() const;
    /**
     * \param length bytes of the whole RDMA WRITE message
     */
    void SetDmaLength(uint32_t length);
    /**
     * \return the bytes of the whole RDMA WRITE message
     */
    uint32_t GetDmaLength() const;

  private:
    uint64_t m_va;        //!< Virtual address
    uint32_t m_rkey;      //!< Remote key
    uint32_t m_dmaLength; //!< DMA length in bytes
};

} // namespace ns3

#endif /* IB_RETH_HEADER_H */
