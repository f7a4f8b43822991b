/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAKRA_TEST_WRITER_H
#define CHAKRA_TEST_WRITER_H

// Chakra execution-trace files written byte by byte (protobuf wire format,
// field numbers of the Chakra schema), for the reader's tests, benchmark
// and fuzzing corpus: they must be able to write what no well-behaved
// writer would (truncated messages, bad length prefixes, unknown enums).

#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace flux_test
{

/// Append a protobuf varint.
inline void
PutVarint(std::string& out, uint64_t v)
{
    while (v >= 0x80)
    {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

/// Append a varint field.
inline void
PutUint(std::string& out, uint32_t field, uint64_t v)
{
    PutVarint(out, field << 3);
    PutVarint(out, v);
}

/// Append a length-delimited field.
inline void
PutBytes(std::string& out, uint32_t field, const std::string& bytes)
{
    PutVarint(out, (field << 3) | 2);
    PutVarint(out, bytes.size());
    out += bytes;
}

/// One Chakra node, as the test wants to write it.
struct EtNode
{
    uint64_t id{0};                                           //!< Node.id
    std::string name;                                         //!< Node.name
    int type{4};                                              //!< Node.type (4: COMP_NODE)
    std::vector<uint64_t> dataDeps;                           //!< Node.data_deps
    std::vector<uint64_t> ctrlDeps;                           //!< Node.ctrl_deps
    uint64_t durationMicros{0};                               //!< Node.duration_micros
    std::vector<std::pair<std::string, int64_t>> ints;        //!< int64 attributes
    std::vector<std::pair<std::string, uint64_t>> uints;      //!< uint64 attributes
    std::vector<std::pair<std::string, std::string>> strings; //!< string attributes
};

/// Chakra's NodeType and CollectiveCommType values used by the tests.
enum : int
{
    ET_METADATA = 1,
    ET_MEM_LOAD = 2,
    ET_MEM_STORE = 3,
    ET_COMP = 4,
    ET_SEND = 5,
    ET_RECV = 6,
    ET_COLL = 7,
    ET_ALL_REDUCE = 0,
    ET_REDUCE = 1,
    ET_ALL_GATHER = 2,
    ET_ALL_TO_ALL = 6,
    ET_REDUCE_SCATTER = 7,
};

/// A Node message.
inline std::string
EncodeNode(const EtNode& n)
{
    std::string out;
    PutUint(out, 1, n.id);
    if (!n.name.empty())
    {
        PutBytes(out, 2, n.name);
    }
    PutUint(out, 3, static_cast<uint64_t>(static_cast<int64_t>(n.type)));
    for (auto [field, deps] : {std::make_pair(4U, &n.ctrlDeps), std::make_pair(5U, &n.dataDeps)})
    {
        if (!deps->empty())
        {
            std::string packed;
            for (uint64_t d : *deps)
            {
                PutVarint(packed, d);
            }
            PutBytes(out, field, packed);
        }
    }
    PutUint(out, 7, n.durationMicros);
    for (const auto& [name, value] : n.ints)
    {
        std::string attr;
        PutBytes(attr, 1, name);
        PutUint(attr, 9, static_cast<uint64_t>(value)); // int64_val
        PutBytes(out, 10, attr);
    }
    for (const auto& [name, value] : n.uints)
    {
        std::string attr;
        PutBytes(attr, 1, name);
        PutUint(attr, 13, value); // uint64_val
        PutBytes(out, 10, attr);
    }
    for (const auto& [name, value] : n.strings)
    {
        std::string attr;
        PutBytes(attr, 1, name);
        PutBytes(attr, 29, value); // string_val
        PutBytes(out, 10, attr);
    }
    return out;
}

/// A whole rank file: length-delimited GlobalMetadata, then the nodes.
inline std::string
EncodeRankFile(const std::vector<EtNode>& nodes)
{
    std::string out;
    std::string metadata;
    PutBytes(metadata, 1, "0.0.4");
    PutVarint(out, metadata.size());
    out += metadata;
    for (const auto& n : nodes)
    {
        const std::string m = EncodeNode(n);
        PutVarint(out, m.size());
        out += m;
    }
    return out;
}

/// Write bytes to a file.
inline void
WriteFile(const std::string& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

/// Read a file's bytes.
inline std::string
ReadFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// The bytes as a gzip member of stored (uncompressed) deflate blocks.
inline std::string
Gzip(const std::string& data)
{
    uint32_t crc = 0xffffffff;
    for (unsigned char c : data)
    {
        crc ^= c;
        for (int k = 0; k < 8; ++k)
        {
            crc = (crc >> 1) ^ (0xedb88320 & (0 - (crc & 1)));
        }
    }
    crc = ~crc;
    std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
    size_t pos = 0;
    do
    {
        const size_t len = std::min<size_t>(data.size() - pos, 65535);
        out += static_cast<char>(pos + len == data.size() ? 1 : 0);
        out += static_cast<char>(len & 0xff);
        out += static_cast<char>(len >> 8);
        out += static_cast<char>(~len & 0xff);
        out += static_cast<char>((~len >> 8) & 0xff);
        out.append(data, pos, len);
        pos += len;
    } while (pos < data.size());
    for (uint32_t v : {crc, static_cast<uint32_t>(data.size())})
    {
        for (int k = 0; k < 4; ++k)
        {
            out += static_cast<char>((v >> (8 * k)) & 0xff);
        }
    }
    return out;
}

} // namespace flux_test

#endif /* CHAKRA_TEST_WRITER_H */
