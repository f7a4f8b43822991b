/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-ranks.h"

#include "ordered-scheduler.h"

#include "ns3/global-value.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"

#include <mpi.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricRanks");

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
    GlobalValue::Bind("SimulatorImplementationType",
                      StringValue(nullMessage ? "ns3::NullMessageSimulatorImpl"
                                              : "ns3::DistributedSimulatorImpl"));
    MpiInterface::Enable(argc, argv);
    // Results must not depend on the number of processes.
    ObjectFactory scheduler;
    scheduler.SetTypeId(OrderedScheduler::GetTypeId());
    Simulator::SetScheduler(scheduler);
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
FabricRanks::Disable()
{
#ifdef NS3_MPI
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

void
FabricRanks::Barrier()
{
#ifdef NS3_MPI
    if (MpiInterface::IsEnabled())
    {
        MPI_Barrier(MpiInterface::GetCommunicator());
    }
#endif
}

} // namespace ns3
