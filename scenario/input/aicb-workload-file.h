/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef AICB_WORKLOAD_FILE_H
#define AICB_WORKLOAD_FILE_H

#include "ns3/workload-trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// The contents of an AICB/SimAI workload file, as written (see ReadAicbWorkload).
namespace aicb
{

/// The groups a collective runs in.
enum GroupKind : uint8_t
{
    TP,            //!< tensor parallel: consecutive ranks
    DP,            //!< data parallel: stride TP*PP
    EP,            //!< expert parallel: EP consecutive DP indices
    DP_EP,         //!< expert data parallel: DP indices equal modulo EP
    N_GROUP_KINDS, //!< the number of kinds
};

/// One collective column pair of a layer.
struct Comm
{
    bool present{false};                             //!< NONE: false
    CollectiveType type{CollectiveType::ALL_REDUCE}; //!< which collective
    GroupKind group{TP};                             //!< where it runs
    uint64_t bytes{0};                               //!< its size per rank
};

/// One layer line.
struct Layer
{
    std::string name;     //!< column 1
    uint64_t fwdNs{0};    //!< forward compute
    Comm fwd;             //!< forward collective
    uint64_t igNs{0};     //!< input-gradient compute
    Comm ig;              //!< input-gradient collective
    uint64_t wgNs{0};     //!< weight-gradient compute
    Comm wg;              //!< weight-gradient collective
    uint64_t updateNs{0}; //!< update after the weight-gradient collective
};

/// The first line (options not given keep these values).
struct Header
{
    std::string kind;    //!< parallelism kind
    uint64_t tp{1};      //!< model_parallel_NPU_group
    uint64_t ep{1};      //!< ep
    uint64_t pp{1};      //!< pp
    uint64_t ga{1};      //!< ga
    uint64_t allGpus{0}; //!< all_gpus (0: not given)
    uint64_t ppComm{0};  //!< pp_comm
};

/// A parsed file.
struct File
{
    Header header;             //!< line 1
    std::vector<Layer> layers; //!< the layer lines, in order
};

/**
 * \ingroup flux-workload
 * \brief Parse an AICB workload file (SimAI's text format).
 * \param file the file
 * \return its header and layers
 * \throws ScenarioError naming the file and line of the first problem
 */
File ParseFile(const std::string& file);

} // namespace aicb
} // namespace ns3

#endif /* AICB_WORKLOAD_FILE_H */
