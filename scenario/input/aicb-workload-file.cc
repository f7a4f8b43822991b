/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "aicb-workload-file.h"

#include "ns3/log.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AicbWorkloadFile");

namespace aicb
{

namespace
{

constexpr uint64_t kMaxBytes = 1ULL << 50;           //!< larger sizes are absurd (1 PiB)
constexpr uint64_t kMaxTimeNs = 1000000000000000ULL; //!< longer is absurd (11.6 days)
constexpr uint64_t kMaxRanks = 1 << 20;              //!< larger jobs are absurd
constexpr uint64_t kMaxLayers = 1 << 22;             //!< longer files are absurd
constexpr size_t kColumns = 12;                      //!< columns of a layer line

/// Parses the file's lines.
class AicbParser
{
  public:
    explicit AicbParser(const std::string& file)
        : m_file(file)
    {
    }

    [[noreturn]] void Fail(size_t line, const std::string& problem) const
    {
        throw ScenarioError(m_file + " line " + std::to_string(line), problem);
    }

    /// A whole non-negative number (a decimal fraction is cut when \p fraction).
    uint64_t Number(const std::string& token,
                    size_t line,
                    const std::string& what,
                    uint64_t max,
                    bool fraction = false) const
    {
        if (!token.empty() && token[0] == '-')
        {
            Fail(line, what + " " + token + " is negative");
        }
        size_t digits = 0;
        uint64_t v = 0;
        while (digits < token.size() && token[digits] >= '0' && token[digits] <= '9')
        {
            const uint64_t d = token[digits] - '0';
            if (v > (max - d) / 10)
            {
                Fail(line, what + " " + token + " is larger than " + std::to_string(max));
            }
            v = v * 10 + d;
            ++digits;
        }
        size_t end = digits;
        if (fraction && end < token.size() && token[end] == '.')
        {
            ++end;
            while (end < token.size() && token[end] >= '0' && token[end] <= '9')
            {
                ++end;
            }
        }
        if (digits == 0 || end != token.size())
        {
            Fail(line, what + " \"" + token + "\" is not a whole number");
        }
        return v;
    }

    Header ParseHeader(const std::vector<std::string>& words) const;
    Comm ParseComm(const std::string& type,
                   const std::string& bytes,
                   GroupKind plain,
                   size_t line,
                   const std::string& what) const;
    Layer ParseLayer(const std::vector<std::string>& words, size_t line) const;

  private:
    std::string m_file; //!< the file, for messages
};

Header
AicbParser::ParseHeader(const std::vector<std::string>& words) const
{
    Header h;
    if (words.empty())
    {
        Fail(1, "empty: the first line names the parallelism kind");
    }
    h.kind = words[0];
    if (h.kind != "DATA" && h.kind != "MICRO" && h.kind != "MODEL" &&
        h.kind != "HYBRID_TRANSFORMER" && h.kind != "HYBRID_TRANSFORMER_FWD_IN_BCKWD")
    {
        Fail(1,
             "parallelism kind \"" + h.kind +
                 "\" is not one flux reads (DATA, MICRO, MODEL, HYBRID_TRANSFORMER, "
                 "HYBRID_TRANSFORMER_FWD_IN_BCKWD)");
    }
    const std::map<std::string, uint64_t*> counts{{"model_parallel_NPU_group:", &h.tp},
                                                  {"ep:", &h.ep},
                                                  {"pp:", &h.pp},
                                                  {"ga:", &h.ga},
                                                  {"all_gpus:", &h.allGpus}};
    uint64_t ignored = 0;
    std::set<std::string> given;
    for (size_t i = 1; i < words.size(); ++i)
    {
        const std::string& key = words[i];
        if (key.back() != ':' && key != "pp_comm")
        {
            Fail(1, "\"" + key + "\" is not an option (\"<name>: <value>\")");
        }
        if (!given.insert(key == "pp_comm" ? "pp_comm:" : key).second)
        {
            Fail(1, "option " + key + " is given twice");
        }
        if (i + 1 >= words.size())
        {
            Fail(1, "option " + key + " has no value");
        }
        const std::string& value = words[++i];
        if (key == "pp_comm" || key == "pp_comm:")
        {
            h.ppComm = Number(value, 1, key, kMaxBytes, true);
        }
        else if (key == "checkpoints:" || key == "checkpoint_initiates:")
        {
            // the layers of the recomputation: N, then N layer numbers
            const uint64_t n = Number(value, 1, key, kMaxLayers);
            for (uint64_t k = 0; k < n; ++k)
            {
                if (++i >= words.size())
                {
                    Fail(1, "option " + key + " announces " + value + " layers");
                }
                Number(words[i], 1, key, kMaxLayers);
            }
        }
        else if (auto it = counts.find(key); it != counts.end())
        {
            *it->second = Number(value, 1, key, kMaxRanks);
            if (*it->second == 0)
            {
                Fail(1, key + " is 0");
            }
        }
        else
        {
            // vpp: and options of later versions: they do not change the replay
            Number(value, 1, key, std::numeric_limits<uint64_t>::max(), true);
            ++ignored;
        }
    }
    NS_LOG_LOGIC(m_file << ": " << h.kind << " tp " << h.tp << " ep " << h.ep << " pp " << h.pp
                        << " ga " << h.ga << " all_gpus " << h.allGpus << ", " << ignored
                        << " options without effect");
    return h;
}

Comm
AicbParser::ParseComm(const std::string& type,
                      const std::string& bytes,
                      GroupKind plain,
                      size_t line,
                      const std::string& what) const
{
    Comm c;
    const uint64_t size = Number(bytes, line, what + " bytes", kMaxBytes);
    if (type == "NONE")
    {
        return c;
    }
    std::string base = type;
    c.group = plain;
    for (const auto& [suffix, group] : {std::pair<std::string, GroupKind>{"_DP_EP", DP_EP},
                                        std::pair<std::string, GroupKind>{"_EP", EP}})
    {
        if (base.size() > suffix.size() &&
            base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        {
            base.resize(base.size() - suffix.size());
            c.group = group;
            break;
        }
    }
    static const std::map<std::string, CollectiveType> types{
        {"ALLREDUCE", CollectiveType::ALL_REDUCE},
        {"ALLGATHER", CollectiveType::ALL_GATHER},
        {"REDUCESCATTER", CollectiveType::REDUCE_SCATTER},
        {"ALLTOALL", CollectiveType::ALL_TO_ALL},
        {"BROADCAST", CollectiveType::BROADCAST},
    };
    auto it = types.find(base);
    if (it == types.end())
    {
        Fail(line,
             what + " collective \"" + type +
                 "\" is not one flux reads (NONE, ALLREDUCE, ALLGATHER, REDUCESCATTER, "
                 "ALLTOALL, BROADCAST, each also with _EP or _DP_EP)");
    }
    c.present = true;
    c.type = it->second;
    c.bytes = size;
    return c;
}

Layer
AicbParser::ParseLayer(const std::vector<std::string>& w, size_t line) const
{
    if (w.size() != kColumns)
    {
        Fail(line,
             std::to_string(w.size()) +
                 " columns, a layer has 12: name, dependency, forward time, collective, bytes, "
                 "input-gradient time, collective, bytes, weight-gradient time, collective, "
                 "bytes, update time");
    }
    Layer l;
    l.name = w[0];
    const std::string& dep = w[1];
    Number(dep[0] == '-' ? dep.substr(1) : dep, line, "dependency", kMaxLayers);
    l.fwdNs = Number(w[2], line, "forward compute time", kMaxTimeNs);
    l.fwd = ParseComm(w[3], w[4], TP, line, "forward");
    l.igNs = Number(w[5], line, "input-gradient compute time", kMaxTimeNs);
    l.ig = ParseComm(w[6], w[7], TP, line, "input-gradient");
    l.wgNs = Number(w[8], line, "weight-gradient compute time", kMaxTimeNs);
    l.wg = ParseComm(w[9], w[10], DP, line, "weight-gradient");
    l.updateNs = Number(w[11], line, "update time", kMaxTimeNs);
    return l;
}

} // namespace

File
ParseFile(const std::string& file)
{
    NS_LOG_FUNCTION(file);
    RequireRegularFile(file, "an AICB workload file");
    std::ifstream in(file);
    if (!in)
    {
        throw ScenarioError(file, "cannot be read: " + std::string(std::strerror(errno)));
    }
    const AicbParser parser(file);
    Header header;
    uint64_t declared = 0;
    size_t declaredLine = 0;
    std::vector<Layer> layers;
    std::string text;
    for (size_t line = 1; std::getline(in, text); ++line)
    {
        if (line == 1 && text.compare(0, 3, "\xEF\xBB\xBF") == 0)
        {
            text.erase(0, 3); // a UTF-8 byte-order mark (editors on Windows write one)
        }
        if (text.find('\0') != std::string::npos)
        {
            parser.Fail(line, "a NUL character (not a text file)");
        }
        std::istringstream split(text);
        std::vector<std::string> words;
        std::string w;
        while (split >> w)
        {
            words.push_back(w);
        }
        if (line == 1)
        {
            header = parser.ParseHeader(words);
        }
        else if (words.empty())
        {
            continue;
        }
        else if (declaredLine == 0)
        {
            if (words.size() != 1)
            {
                parser.Fail(line, "the second line is the number of layers alone");
            }
            declared = parser.Number(words[0], line, "layer count", kMaxLayers);
            declaredLine = line;
        }
        else if (layers.size() == declared)
        {
            parser.Fail(line,
                        "a layer beyond the " + std::to_string(declared) + " of line " +
                            std::to_string(declaredLine));
        }
        else
        {
            layers.push_back(parser.ParseLayer(words, line));
        }
    }
    if (declaredLine == 0)
    {
        parser.Fail(2, "no layer count");
    }
    if (declared == 0)
    {
        parser.Fail(declaredLine, "declares no layers: a workload has at least one");
    }
    if (layers.size() != declared)
    {
        parser.Fail(declaredLine,
                    "declares " + std::to_string(declared) + " layers, the file lists " +
                        std::to_string(layers.size()));
    }
    return File{header, std::move(layers)};
}

} // namespace aicb
} // namespace ns3
