/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "chakra-trace-reader.h"

#include "chakra-et.pb.h"
#include "chakra-integer.h"
#include "chakra-trace-files.h"
#include "workload-graph.h"

#include "ns3/log.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/gzip_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/stubs/logging.h>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <unistd.h>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ChakraTraceReader");

namespace
{

namespace pb = google::protobuf;
using ChakraProtoMsg::AttributeProto;

constexpr uint64_t kMaxBytes = 1ULL << 50;             //!< larger sizes are absurd (1 PiB)
constexpr uint64_t kMaxDurationMicros = 1000000000000; //!< longer is absurd (11.6 days)
constexpr uint32_t kMaxMessageBytes = 64 << 20;        //!< no node is this large

/// An attribute's integer value (any of the integer kinds); nullopt if it has none.
std::optional<ChakraInteger>
ChakraIntegerValue(const AttributeProto& a)
{
    switch (a.value_case())
    {
    case AttributeProto::kInt32Val:
        return ChakraInteger{a.int32_val()};
    case AttributeProto::kInt64Val:
        return ChakraInteger{a.int64_val()};
    case AttributeProto::kUint32Val:
        return ChakraInteger{a.uint32_val()};
    case AttributeProto::kUint64Val:
        return ChakraInteger::Unsigned(a.uint64_val());
    case AttributeProto::kSint32Val:
        return ChakraInteger{a.sint32_val()};
    case AttributeProto::kSint64Val:
        return ChakraInteger{a.sint64_val()};
    case AttributeProto::kFixed32Val:
        return ChakraInteger{a.fixed32_val()};
    case AttributeProto::kFixed64Val:
        return ChakraInteger::Unsigned(a.fixed64_val());
    case AttributeProto::kSfixed32Val:
        return ChakraInteger{a.sfixed32_val()};
    case AttributeProto::kSfixed64Val:
        return ChakraInteger{a.sfixed64_val()};
    default:
        return std::nullopt;
    }
}

/// The attributes of a communication node that flux reads.
struct CommAttributes
{
    std::optional<ChakraInteger> type; //!< comm_type
    std::optional<ChakraInteger> size; //!< comm_size
    std::optional<ChakraInteger> src;  //!< comm_src
    std::optional<ChakraInteger> dst;  //!< comm_dst
    std::optional<ChakraInteger> tag;  //!< comm_tag
    std::optional<std::string> pg;     //!< pg_name
};

/// Reads one rank's file into nodes.
class RankFileReader
{
  public:
    RankFileReader(const std::string& path, uint32_t rank, uint32_t ranks)
        : m_path(path),
          m_rank(rank),
          m_ranks(ranks)
    {
    }

    /// Read the file; dependencies are left as ids in m_depIds.
    void Read(std::vector<WorkloadNode>& nodes,
              const std::map<std::string, std::vector<uint32_t>>* commGroups,
              WorkloadTrace& trace,
              std::unordered_map<std::string, uint32_t>& groupIndex);

  private:
    [[noreturn]] void FailNode(const std::string& problem) const
    {
        throw ScenarioError(m_path + " node " + std::to_string(m_node.id()) +
                                (m_node.name().empty() ? "" : " (" + m_node.name() + ")"),
                            problem);
    }

    uint64_t Bytes(const std::optional<ChakraInteger>& v, const char* what) const;
    uint32_t Rank(const std::optional<ChakraInteger>& v, const char* what) const;
    CommAttributes Attributes() const;
    void Convert(WorkloadNode& out,
                 const std::map<std::string, std::vector<uint32_t>>* commGroups,
                 WorkloadTrace& trace,
                 std::unordered_map<std::string, uint32_t>& groupIndex) const;

    std::string m_path;          //!< the file
    uint32_t m_rank;             //!< its rank
    uint32_t m_ranks;            //!< the trace's rank count
    ChakraProtoMsg::Node m_node; //!< the node being converted (reused)
};

uint64_t
RankFileReader::Bytes(const std::optional<ChakraInteger>& v, const char* what) const
{
    const int64_t n = v->value;
    if (n < 0 || static_cast<uint64_t>(n) > kMaxBytes)
    {
        FailNode(std::string(what) + " " + v->Text() + " is out of range 0.." +
                 std::to_string(kMaxBytes));
    }
    return n;
}

uint32_t
RankFileReader::Rank(const std::optional<ChakraInteger>& v, const char* what) const
{
    if (!v)
    {
        FailNode(std::string("has no ") + what);
    }
    const int64_t n = v->value;
    if (n < 0 || n >= m_ranks || n == m_rank)
    {
        FailNode(std::string(what) + " " + v->Text() + " is not another rank of the " +
                 std::to_string(m_ranks));
    }
    return n;
}

CommAttributes
RankFileReader::Attributes() const
{
    CommAttributes c;
    for (const auto& a : m_node.attr())
    {
        std::optional<ChakraInteger>* slot = nullptr;
        const std::string& name = a.name();
        if (name == "pg_name")
        {
            if (c.pg)
            {
                FailNode("attribute pg_name is given twice");
            }
            if (a.value_case() == AttributeProto::kStringVal)
            {
                c.pg = a.string_val();
            }
            else if (auto v = ChakraIntegerValue(a))
            {
                c.pg = v->Text();
            }
            else
            {
                FailNode("attribute pg_name is neither a string nor an integer");
            }
            continue;
        }
        slot = name == "comm_type"   ? &c.type
               : name == "comm_size" ? &c.size
               : name == "comm_src"  ? &c.src
               : name == "comm_dst"  ? &c.dst
               : name == "comm_tag"  ? &c.tag
                                     : nullptr;
        if (slot)
        {
            if (*slot)
            {
                FailNode("attribute " + name + " is given twice");
            }
            *slot = ChakraIntegerValue(a);
            if (!*slot)
            {
                FailNode("attribute " + name + " is not an integer");
            }
        }
    }
    return c;
}

/// A Chakra collective type as flux's, or nullopt for those flux cannot run.
std::optional<CollectiveType>
MapCollective(int64_t type)
{
    switch (type)
    {
    case ChakraProtoMsg::ALL_REDUCE:
        return CollectiveType::ALL_REDUCE;
    case ChakraProtoMsg::ALL_GATHER:
        return CollectiveType::ALL_GATHER;
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK: // equal blocks: the same traffic
        return CollectiveType::REDUCE_SCATTER;
    case ChakraProtoMsg::ALL_TO_ALL:
        return CollectiveType::ALL_TO_ALL;
    case ChakraProtoMsg::BROADCAST:
        return CollectiveType::BROADCAST;
    case ChakraProtoMsg::BARRIER:
        return CollectiveType::BARRIER;
    default:
        return std::nullopt;
    }
}

void
RankFileReader::Convert(WorkloadNode& out,
                        const std::map<std::string, std::vector<uint32_t>>* commGroups,
                        WorkloadTrace& trace,
                        std::unordered_map<std::string, uint32_t>& groupIndex) const
{
    out.id = m_node.id();
    out.name = m_node.name();
    if (m_node.duration_micros() > kMaxDurationMicros)
    {
        FailNode("duration_micros " + std::to_string(m_node.duration_micros()) + " is beyond " +
                 std::to_string(kMaxDurationMicros));
    }
    out.durationNs = m_node.duration_micros() * 1000;
    const int type = m_node.type();
    switch (type)
    {
    case ChakraProtoMsg::COMP_NODE:
        out.kind = WorkloadNode::Kind::COMPUTE;
        return;
    case ChakraProtoMsg::METADATA_NODE:
        out.kind = WorkloadNode::Kind::COMPUTE; // no work: only passes dependencies on
        out.durationNs = 0;
        return;
    case ChakraProtoMsg::MEM_LOAD_NODE:
    case ChakraProtoMsg::MEM_STORE_NODE:
    case ChakraProtoMsg::STORAGE_NODE:
    case ChakraProtoMsg::CHECKPOINT_NODE:
    case ChakraProtoMsg::BATCH_NODE:
        out.kind = WorkloadNode::Kind::MEMORY;
        return;
    case ChakraProtoMsg::COMM_COLL_NODE:
    case ChakraProtoMsg::COMM_SEND_NODE:
    case ChakraProtoMsg::COMM_RECV_NODE:
        break;
    default:
        FailNode("unknown node type " + std::to_string(type));
    }
    out.durationNs = 0;
    const CommAttributes c = Attributes();
    if (type == ChakraProtoMsg::COMM_COLL_NODE)
    {
        out.kind = WorkloadNode::Kind::COLLECTIVE;
        if (!c.type)
        {
            FailNode("collective has no comm_type");
        }
        const int64_t commType = c.type->value;
        const auto collective = MapCollective(commType);
        if (!collective)
        {
            FailNode("comm_type " + c.type->Text() +
                     (commType >= 0 && commType <= ChakraProtoMsg::CollectiveCommType_MAX
                          ? " (" + ChakraProtoMsg::CollectiveCommType_Name(commType) +
                                ") is not a collective flux runs"
                          : " is not a Chakra collective type"));
        }
        out.collective = *collective;
        if (!c.size && out.collective != CollectiveType::BARRIER)
        {
            FailNode("collective has no comm_size");
        }
        out.bytes = c.size ? Bytes(c.size, "comm_size") : 0;
        std::string key = "";
        if (commGroups && c.pg)
        {
            auto it = commGroups->find(*c.pg);
            if (it == commGroups->end())
            {
                FailNode("pg_name \"" + *c.pg + "\" is not in the communication-group file");
            }
            if (!std::binary_search(it->second.begin(), it->second.end(), m_rank))
            {
                FailNode("rank " + std::to_string(m_rank) + " is not a member of group \"" + *c.pg +
                         "\"");
            }
            key = "pg:" + *c.pg;
        }
        auto [where, added] = groupIndex.emplace(key, trace.groups.size());
        if (added)
        {
            if (key.empty())
            {
                std::vector<uint32_t> all(m_ranks);
                for (uint32_t r = 0; r < m_ranks; ++r)
                {
                    all[r] = r;
                }
                trace.groups.push_back(std::move(all));
            }
            else
            {
                trace.groups.push_back(commGroups->at(*c.pg));
            }
        }
        out.group = where->second;
        return;
    }
    const bool send = type == ChakraProtoMsg::COMM_SEND_NODE;
    out.kind = send ? WorkloadNode::Kind::SEND : WorkloadNode::Kind::RECV;
    out.peer = send ? Rank(c.dst, "comm_dst") : Rank(c.src, "comm_src");
    if (c.tag && (c.tag->value < 0 || c.tag->value > std::numeric_limits<uint32_t>::max()))
    {
        FailNode("comm_tag " + c.tag->Text() + " is out of range");
    }
    out.tag = c.tag ? c.tag->value : 0;
    if (send && !c.size)
    {
        FailNode("send has no comm_size");
    }
    out.bytes = c.size ? Bytes(c.size, "comm_size") : 0;
}

void
RankFileReader::Read(std::vector<WorkloadNode>& nodes,
                     const std::map<std::string, std::vector<uint32_t>>* commGroups,
                     WorkloadTrace& trace,
                     std::unordered_map<std::string, uint32_t>& groupIndex)
{
    RequireRegularFile(m_path, "a Chakra trace file");
    const int fd = open(m_path.c_str(), O_RDONLY);
    if (fd < 0)
    {
        throw ScenarioError(m_path, "cannot be read: " + std::string(std::strerror(errno)));
    }
    pb::io::FileInputStream file(fd);
    file.SetCloseOnDelete(true);
    // gzip is recognised by its magic bytes, whatever the file's name.
    const void* head = nullptr;
    int headSize = 0;
    bool gzip = false;
    if (file.Next(&head, &headSize))
    {
        const auto* b = static_cast<const unsigned char*>(head);
        gzip = headSize >= 2 && b[0] == 0x1f && b[1] == 0x8b;
        file.BackUp(headSize);
    }
    std::unique_ptr<pb::io::GzipInputStream> unzip;
    pb::io::ZeroCopyInputStream* in = &file;
    if (gzip)
    {
        unzip = std::make_unique<pb::io::GzipInputStream>(&file, pb::io::GzipInputStream::GZIP);
        in = unzip.get();
    }
    std::unordered_map<uint64_t, uint32_t> index;
    std::vector<std::vector<uint64_t>> depIds;
    ChakraProtoMsg::GlobalMetadata metadata;
    for (uint64_t message = 0;; ++message)
    {
        // (only for messages: most traces have no problem)
        const auto where = [&]() -> std::string {
            return message == 0 ? "the GlobalMetadata (first message)"
                                : "message " + std::to_string(message + 1) + " (after node " +
                                      std::to_string(m_node.id()) + ")";
        };
        pb::io::CodedInputStream coded(in);
        const void* data = nullptr;
        int size = 0;
        if (!coded.GetDirectBufferPointer(&data, &size))
        {
            if (unzip && unzip->ZlibErrorCode() < 0)
            {
                throw ScenarioError(m_path,
                                    "corrupt gzip data (" +
                                        std::string(unzip->ZlibErrorMessage()
                                                        ? unzip->ZlibErrorMessage()
                                                        : "zlib error") +
                                        ") at " + where());
            }
            if (message == 0)
            {
                throw ScenarioError(m_path, "empty: a trace file starts with a GlobalMetadata");
            }
            break;
        }
        // (read in full: ReadVarint32 would keep the low 32 bits of a larger
        // one, which the bound below then refuses)
        uint64_t length = 0;
        if (!coded.ReadVarint64(&length))
        {
            throw ScenarioError(m_path, "truncated or malformed length prefix of " + where());
        }
        if (length > kMaxMessageBytes)
        {
            throw ScenarioError(m_path,
                                "length prefix of " + where() + " is " + std::to_string(length) +
                                    " bytes, more than " + std::to_string(kMaxMessageBytes));
        }
        const auto limit = coded.PushLimit(static_cast<int>(length));
        const bool parsed = message == 0 ? metadata.ParseFromCodedStream(&coded)
                                         : m_node.ParseFromCodedStream(&coded);
        if (!parsed || !coded.ConsumedEntireMessage() || coded.BytesUntilLimit() != 0)
        {
            throw ScenarioError(m_path,
                                "truncated or malformed protobuf in " + where() + " (" +
                                    std::to_string(length) + " bytes announced)");
        }
        coded.PopLimit(limit);
        if (message == 0)
        {
            continue;
        }
        if (!index.emplace(m_node.id(), nodes.size()).second)
        {
            FailNode("a second node with this id");
        }
        nodes.emplace_back();
        Convert(nodes.back(), commGroups, trace, groupIndex);
        depIds.emplace_back(m_node.data_deps().begin(), m_node.data_deps().end());
        depIds.back().insert(depIds.back().end(),
                             m_node.ctrl_deps().begin(),
                             m_node.ctrl_deps().end());
    }
    for (size_t i = 0; i < nodes.size(); ++i)
    {
        auto& deps = nodes[i].deps;
        deps.reserve(depIds[i].size());
        for (uint64_t id : depIds[i])
        {
            auto it = index.find(id);
            if (it == index.end())
            {
                throw ScenarioError(WorkloadNodeField(m_path, nodes[i]),
                                    "depends on node " + std::to_string(id) +
                                        ", which this file does not have");
            }
            deps.push_back(it->second);
        }
    }
    NS_LOG_LOGIC(m_path << ": " << nodes.size() << " nodes" << (gzip ? " (gzip)" : ""));
}

} // namespace

WorkloadTrace
ReadChakraTrace(const std::string& prefix, const std::string& commGroupsFile)
{
    NS_LOG_FUNCTION(prefix << commGroupsFile);
    GOOGLE_PROTOBUF_VERIFY_VERSION;
    // Protobuf would log why a message does not parse (to stderr); the
    // ScenarioError says it, once.
    const google::protobuf::LogSilencer quiet;
    const std::vector<std::string> files = ListChakraRankFiles(prefix);
    WorkloadTrace trace;
    trace.source = prefix;
    trace.ranks = files.size();
    trace.nodes.resize(trace.ranks);
    std::map<std::string, std::vector<uint32_t>> commGroups;
    if (!commGroupsFile.empty())
    {
        commGroups = ReadChakraCommGroups(commGroupsFile, trace.ranks);
    }
    std::unordered_map<std::string, uint32_t> groupIndex;
    for (uint32_t r = 0; r < trace.ranks; ++r)
    {
        RankFileReader reader(files[r], r, trace.ranks);
        reader.Read(trace.nodes[r],
                    commGroupsFile.empty() ? nullptr : &commGroups,
                    trace,
                    groupIndex);
        SortWorkloadNodes(trace.nodes[r], files[r]);
    }
    CheckWorkloadTrace(trace, files);
    return trace;
}

} // namespace ns3
