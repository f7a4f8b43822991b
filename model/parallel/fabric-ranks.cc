/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-ranks.h"

#include "ordered-scheduler.h"

#include "ns3/channel.h"
#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/node-list.h"
#include "ns3/object-factory.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <cstdlib>
#include <cstring>

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRanks");

namespace
{
/// The notice listeners, by topic.
std::vector<FabricRanks::NoticeCallback> g_topics;
/// Per process: the node id of its mailbox.
std::vector<uint32_t> g_mailbox;
/// Lookahead plus one time step.
Time g_noticeDelay;
#ifdef NS3_MPI
/// The null-message synchroniser was chosen.
bool g_nullMessage = false;
#endif

/**
 * \brief A notice arrived (MpiReceiver callback of the mailbox).
 * \param p the notice: topic, word count, words
 */
void
DeliverNotice(Ptr<Packet> p)
{
    std::vector<uint8_t> bytes(p->GetSize());
    p->CopyData(bytes.data(), bytes.size());
    NS_ABORT_MSG_IF(bytes.size() < 8, "FabricRanks: a truncated notice");
    uint32_t header[2];
    std::memcpy(header, bytes.data(), 8);
    NS_ABORT_MSG_IF(header[0] >= g_topics.size() || bytes.size() != 8 + 8 * header[1],
                    "FabricRanks: a notice for an unknown topic");
    std::vector<uint64_t> words(header[1]);
    std::memcpy(words.data(), bytes.data() + 8, 8 * words.size());
    g_topics[header[0]](words);
}
} // namespace

bool
FabricRanks::IsAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

bool
FabricRanks::IsEnabled()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled();
#else
    return false;
#endif
}

uint32_t
FabricRanks::GetRank()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSystemId() : 0;
#else
    return 0;
#endif
}

uint32_t
FabricRanks::GetNRanks()
{
#ifdef NS3_MPI
    return MpiInterface::IsEnabled() ? MpiInterface::GetSize() : 1;
#else
    return 1;
#endif
}

bool
FabricRanks::IsLocal(const Node& node)
{
#ifdef NS3_MPI
    return !MpiInterface::IsEnabled() || node.GetSystemId() == MpiInterface::GetSystemId();
#else
    return true;
#endif
}

std::string
FabricRanks::Enable(int* argc, char*** argv, bool nullMessage)
{
#ifdef NS3_MPI
    // FLUX_MPI_SYNC=null-message chooses the null-message synchroniser too
    const char* sync = std::getenv("FLUX_MPI_SYNC");
    g_nullMessage = nullMessage || (sync && std::string(sync) == "null-message");
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(g_nullMessage ? "ns3::NullMessageSimulatorImpl"
                                                : "ns3::DistributedSimulatorImpl"));
    // Open MPI's memory patcher (for the registration caches of RDMA
    // interconnects) hooks the allocator's unmapping: it made a 1024-host
    // run 1.7 times slower. Off unless the user sets the parameter.
    setenv("OMPI_MCA_memory", "^patcher", 0);
    MpiInterface::Enable(argc, argv);
    SelectSimulator();
    return "";
#else
    (void)argc;
    (void)argv;
    (void)nullMessage;
    return "this build of flux has no MPI: build ns-3 with --enable-mpi and flux in contrib/ "
           "(scripts/build-in-tree.sh --mpi 3.37)";
#endif
}

void
FabricRanks::SelectSimulator()
{
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled())
    {
        return;
    }
    // One process needs no synchronisation: ns-3's default simulator runs
    // the same events in the same order, without a window per time step.
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(MpiInterface::GetSize() == 1 ? "ns3::DefaultSimulatorImpl"
                                  : g_nullMessage              ? "ns3::NullMessageSimulatorImpl"
                                                               : "ns3::DistributedSimulatorImpl"));
    // Results must not depend on the number of processes.
    ObjectFactory scheduler;
    scheduler.SetTypeId(OrderedScheduler::GetTypeId());
    Simulator::SetScheduler(scheduler);
#endif
}

bool
FabricRanks::LaunchedByMpirun()
{
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    {
        if (std::getenv(var))
        {
            return true;
        }
    }
    return false;
}

void
FabricRanks::Disable()
{
#ifdef NS3_MPI
    g_topics.clear();
    g_mailbox.clear();
    if (MpiInterface::IsEnabled())
    {
        MpiInterface::Disable();
    }
#endif
}

void
FabricRanks::SendFrame(Ptr<Packet> frame, Time rxTime, uint32_t node, uint32_t ifIndex)
{
#ifdef NS3_MPI
    MpiInterface::SendPacket(frame, rxTime, node, ifIndex);
#else
    (void)frame;
    (void)rxTime;
    (void)node;
    (void)ifIndex;
    NS_FATAL_ERROR("FabricRanks::SendFrame without MPI");
#endif
}

void
FabricRanks::InstallReceiver(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> cb)
{
#ifdef NS3_MPI
    Ptr<MpiReceiver> receiver = device->GetObject<MpiReceiver>();
    if (!receiver)
    {
        receiver = CreateObject<MpiReceiver>();
        device->AggregateObject(receiver);
    }
    receiver->SetReceiveCallback(cb);
#else
    (void)device;
    (void)cb;
#endif
}

uint32_t
FabricRanks::Subscribe(NoticeCallback cb)
{
    if (GetNRanks() < 2)
    {
        return 0; // nothing to hear from
    }
    g_topics.push_back(cb);
    return static_cast<uint32_t>(g_topics.size() - 1);
}

void
FabricRanks::Publish(uint32_t topic, const std::vector<uint64_t>& words)
{
    if (g_mailbox.size() < 2)
    {
        return;
    }
    NS_ABORT_MSG_IF(words.size() > 200, "FabricRanks::Publish: a notice of at most 200 words");
    std::vector<uint8_t> bytes(8 + 8 * words.size());
    const uint32_t header[2] = {topic, static_cast<uint32_t>(words.size())};
    std::memcpy(bytes.data(), header, 8);
    std::memcpy(bytes.data() + 8, words.data(), 8 * words.size());
    const Time at = Simulator::Now() + g_noticeDelay;
    const uint32_t self = GetRank();
    for (uint32_t r = 0; r < g_mailbox.size(); ++r)
    {
        if (r != self)
        {
            SendFrame(Create<Packet>(bytes.data(), bytes.size()), at, g_mailbox[r], 0);
        }
    }
}

Time
FabricRanks::GetNoticeDelay()
{
    return g_noticeDelay;
}

std::string
FabricRanks::Prepare()
{
    g_mailbox.clear();
    g_noticeDelay = Time();
    const uint32_t n = GetNRanks();
    if (n < 2)
    {
        return "";
    }
    std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
    // The lookahead as ns-3's distributed simulator finds it: the least
    // delay of a point-to-point link between two processes (over all of
    // them, so that every process finds the same).
    Time lookahead = Time::Max();
    for (auto it = NodeList::Begin(); it != NodeList::End(); ++it)
    {
        Ptr<Node> node = *it;
        for (uint32_t i = 0; i < node->GetNDevices(); ++i)
        {
            Ptr<NetDevice> dev = node->GetDevice(i);
            Ptr<Channel> ch = dev->GetChannel();
            if (!dev->IsPointToPoint() || !ch || ch->GetNDevices() != 2)
            {
                continue;
            }
            Ptr<NetDevice> peer = ch->GetDevice(0) == dev ? ch->GetDevice(1) : ch->GetDevice(0);
            if (peer->GetNode()->GetSystemId() == node->GetSystemId())
            {
                continue;
            }
            linked[node->GetSystemId()][peer->GetNode()->GetSystemId()] = true;
            TimeValue delay;
            ch->GetAttribute("Delay", delay);
            lookahead = std::min(lookahead, delay.Get());
        }
    }
    if (lookahead == Time::Max() || lookahead.IsZero())
    {
        return "the processes need links between them with a positive delay";
    }
#ifdef NS3_MPI
    for (uint32_t a = 0; g_nullMessage && a < n; ++a)
    {
        for (uint32_t b = a + 1; b < n; ++b)
        {
            if (!linked[a][b])
            {
                return "FLUX_MPI_SYNC=null-message needs a link between every two processes, "
                       "and ranks " +
                       std::to_string(a) + " and " + std::to_string(b) +
                       " have none: use the default synchroniser or fewer processes";
            }
        }
    }
#endif
    g_noticeDelay = lookahead + TimeStep(1);
    // One mailbox per process, after every other node (node ids of the
    // fabric do not change).
    for (uint32_t r = 0; r < n; ++r)
    {
        Ptr<Node> node = CreateObject<Node>(r);
        Ptr<SimpleNetDevice> dev = CreateObject<SimpleNetDevice>();
        node->AddDevice(dev);
        g_mailbox.push_back(node->GetId());
        if (r == GetRank())
        {
            InstallReceiver(dev, MakeCallback(&DeliverNotice));
        }
    }
    return "";
}

std::vector<uint64_t>
FabricRanks::SumToRoot(const std::vector<uint64_t>& values)
{
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled() || MpiInterface::GetSize() == 1)
    {
        return values;
    }
    std::vector<uint64_t> sums(values.size(), 0);
    MPI_Reduce(values.data(),
               sums.data(),
               static_cast<int>(values.size()),
               MPI_UINT64_T,
               MPI_SUM,
               0,
               MpiInterface::GetCommunicator());
    return MpiInterface::GetSystemId() == 0 ? sums : values;
#else
    return values;
#endif
}

std::vector<double>
FabricRanks::GatherToRoot(const std::vector<double>& values)
{
#ifdef NS3_MPI
    if (!MpiInterface::IsEnabled() || MpiInterface::GetSize() == 1)
    {
        return values;
    }
    const int n = static_cast<int>(MpiInterface::GetSize());
    const bool root = MpiInterface::GetSystemId() == 0;
    int mine = static_cast<int>(values.size());
    std::vector<int> counts(root ? n : 0);
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MpiInterface::GetCommunicator());
    std::vector<int> offsets(counts.size(), 0);
    std::vector<double> all;
    if (root)
    {
        int total = 0;
        for (int i = 0; i < n; ++i)
        {
            offsets[i] = total;
            total += counts[i];
        }
        all.resize(total);
    }
    MPI_Gatherv(values.data(),
                mine,
                MPI_DOUBLE,
                all.data(),
                counts.data(),
                offsets.data(),
                MPI_DOUBLE,
                0,
                MpiInterface::GetCommunicator());
    return root ? all : values;
#else
    return values;
#endif
}

} // namespace ns3
