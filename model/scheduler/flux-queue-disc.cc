/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flux-queue-disc.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/ecn-marking.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FluxQueueDisc");

NS_OBJECT_ENSURE_REGISTERED(FluxQueueDisc);

TypeId
FluxQueueDisc::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FluxQueueDisc")
            .SetParent<PfcAwareQueueDisc>()
            .SetGroupName("Flux")
            .AddConstructor<FluxQueueDisc>()
            .AddAttribute("MaxSize",
                          "The most the queue disc holds, all classes together.",
                          QueueSizeValue(QueueSize("100000p")),
                          MakeQueueSizeAccessor(&QueueDisc::SetMaxSize, &QueueDisc::GetMaxSize),
                          MakeQueueSizeChecker())
            .AddAttribute("Classes",
                          "Number of data classes K: data class c is queued in class "
                          "min(c, K-1); the control class always has its own queue.",
                          UintegerValue(TrafficClass::N_CLASSES),
                          MakeUintegerAccessor(&FluxQueueDisc::m_nClasses),
                          MakeUintegerChecker<uint32_t>(1, TrafficClass::N_CLASSES))
            .AddAttribute(
                "Order",
                "Service order of the data classes, highest precedence first: "
                "space-separated class numbers; classes not listed follow in "
                "descending class number (empty: descending class number).",
                StringValue(""),
                MakeStringAccessor(&FluxQueueDisc::SetOrderString, &FluxQueueDisc::GetOrderString),
                MakeStringChecker())
            .AddAttribute("FlowsPerClass",
                          "Flow queues per class (DRR among them); read at initialisation.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&FluxQueueDisc::m_flowsPerClass),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("Quantum",
                          "Bytes a flow may send per DRR round (at most 10^9: the "
                          "deficit counters are 32-bit).",
                          UintegerValue(4200),
                          MakeUintegerAccessor(&FluxQueueDisc::m_quantum),
                          MakeUintegerChecker<uint32_t>(1, 1000000000))
            .AddAttribute("Perturbation",
                          "Perturbation of the flow hash.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluxQueueDisc::m_perturbation),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MinShare",
                          "Starvation guard: share of the bytes sent that a backlogged, "
                          "unpaused data class gets at least (0: off).",
                          DoubleValue(FluxQueueDisc::DEFAULT_MIN_SHARE),
                          MakeDoubleAccessor(&FluxQueueDisc::m_minShare),
                          MakeDoubleChecker<double>(0.0, 0.5))
            .AddAttribute("MaxWait",
                          "Starvation guard: a class whose head packet waited longer is "
                          "served ahead of the order (0: off).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FluxQueueDisc::m_maxWait),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("EcnKminBytes",
                          "Per-class ECN Kmin of every class, bytes left in the class.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluxQueueDisc::SetDefaultEcnKmin,
                                               &FluxQueueDisc::GetDefaultEcnKmin),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnKmaxBytes",
                          "Per-class ECN Kmax of every class, bytes left in the class "
                          "(0: no per-class marking).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluxQueueDisc::SetDefaultEcnKmax,
                                               &FluxQueueDisc::GetDefaultEcnKmax),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("EcnPmax",
                          "Per-class ECN marking probability at Kmax, every class.",
                          DoubleValue(0.0),
                          MakeDoubleAccessor(&FluxQueueDisc::SetDefaultEcnPmax,
                                             &FluxQueueDisc::GetDefaultEcnPmax),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("FlowEcnBytes",
                          "Per-flow ECN: an item leaving a flow queue that still holds at "
                          "least this many bytes is marked CE (0: no per-flow marking).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FluxQueueDisc::m_flowEcnBytes),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FlowEcnShare",
                          "Per-flow ECN: and at least this many times the mean of the "
                          "class's active flow queues (above 1: a flow queue alone in "
                          "its class is never marked; 0: the bytes alone decide).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&FluxQueueDisc::m_flowEcnShare),
                          MakeDoubleChecker<double>(0, 1000))
            .AddAttribute("DirectPath",
                          "On a switch port, take the direct path: the flows hold their "
                          "items themselves and the port hands them past QueueDisc's "
                          "Enqueue and Dequeue, whose counters and traces then stay silent "
                          "(false: every item through internal queues).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FluxQueueDisc::m_directPath),
                          MakeBooleanChecker())
            .AddTraceSource("GuardActivation",
                            "The starvation guard served a class ahead of the order.",
                            MakeTraceSourceAccessor(&FluxQueueDisc::m_guardTrace),
                            "ns3::FluxQueueDisc::GuardTracedCallback");
    return tid;
}

FluxQueueDisc::FluxQueueDisc()
    : PfcAwareQueueDisc(QueueDiscSizePolicy::MULTIPLE_QUEUES),
      m_nClasses(TrafficClass::N_CLASSES),
      m_flowsPerClass(16),
      m_quantum(4200),
      m_perturbation(0),
      m_minShare(FluxQueueDisc::DEFAULT_MIN_SHARE),
      m_maxWait(Seconds(0)),
      m_defaultKmin(0),
      m_defaultKmax(0),
      m_defaultPmax(0),
      m_nFlows(0),
      m_directPath(true),
      m_nonEmpty(0),
      m_guardActivations(0)
{
    NS_LOG_FUNCTION(this);
    m_uniform = CreateObject<UniformRandomVariable>();
    RebuildOrder();
}

FluxQueueDisc::~FluxQueueDisc() = default;

void
FluxQueueDisc::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_flows.clear();
    for (ClassState& cs : m_class)
    {
        cs.head = cs.tail = NO_FLOW;
        cs.packets = cs.bytes = cs.flows = 0;
    }
    m_nonEmpty = 0;
    m_heldPackets = 0;
    m_heldBytes = 0;
    m_uniform = nullptr;
    PfcAwareQueueDisc::DoDispose();
}

uint8_t
FluxQueueDisc::GetQueueClass(uint8_t cls) const
{
    cls &= 7u;
    if (cls == TrafficClass::CONTROL)
    {
        return cls;
    }
    return static_cast<uint8_t>(std::min<uint32_t>(cls, m_nClasses - 1));
}

void
FluxQueueDisc::SetClassOrder(const std::vector<uint8_t>& order)
{
    NS_LOG_FUNCTION(this << order.size());
    for (uint8_t c : order)
    {
        NS_ABORT_MSG_IF(c >= TrafficClass::N_CLASSES,
                        "FluxQueueDisc: class " << +c << " in the order is not 0..7");
    }
    m_requestedOrder = order;
    RebuildOrder();
}

void
FluxQueueDisc::RebuildOrder()
{
    // Every data class 0..6 appears once, so that a class holding packets is
    // always reachable, whatever Classes is; unused classes stay empty.
    uint8_t seen = 0;
    std::size_t n = 0;
    for (uint8_t c : m_requestedOrder)
    {
        const uint8_t q = GetQueueClass(c);
        if (q == TrafficClass::CONTROL || (seen & TrafficClass::Bit(q)))
        {
            continue;
        }
        seen |= TrafficClass::Bit(q);
        m_order[n++] = q;
    }
    for (int c = TrafficClass::MAX_DATA; c >= 0; --c)
    {
        if (!(seen & TrafficClass::Bit(c)))
        {
            m_order[n++] = static_cast<uint8_t>(c);
        }
    }
    NS_ASSERT(n == m_order.size());
}

std::vector<uint8_t>
FluxQueueDisc::GetClassOrder() const
{
    std::vector<uint8_t> order;
    for (uint8_t c : m_order)
    {
        if (c < m_nClasses)
        {
            order.push_back(c);
        }
    }
    return order;
}

void
FluxQueueDisc::SetOrderString(std::string order)
{
    NS_LOG_FUNCTION(this << order);
    std::vector<uint8_t> classes;
    NS_ABORT_MSG_IF(!TrafficClass::ParseOrder(order, classes),
                    "FluxQueueDisc: Order \"" << order << "\" is not class numbers 0..7");
    SetClassOrder(classes);
}

std::string
FluxQueueDisc::GetOrderString() const
{
    return TrafficClass::FormatOrder(m_requestedOrder);
}

void
FluxQueueDisc::SetEcnThresholds(uint8_t cls, uint32_t kmin, uint32_t kmax, double pmax)
{
    NS_LOG_FUNCTION(this << +cls << kmin << kmax << pmax);
    NS_ABORT_MSG_IF(cls >= TrafficClass::N_CLASSES, "FluxQueueDisc: no class " << +cls);
    NS_ABORT_MSG_IF(kmax != 0 && kmin > kmax,
                    "FluxQueueDisc: ECN Kmin " << kmin << " above Kmax " << kmax);
    NS_ABORT_MSG_IF(pmax < 0 || pmax > 1, "FluxQueueDisc: ECN Pmax " << pmax << " not in [0, 1]");
    ClassState& cs = m_class[GetQueueClass(cls)];
    cs.kmin = kmin;
    cs.kmax = kmax;
    cs.pmax = pmax;
}

void
FluxQueueDisc::SetDefaultEcnKmin(uint32_t kmin)
{
    m_defaultKmin = kmin;
    for (ClassState& cs : m_class)
    {
        cs.kmin = kmin;
    }
}

uint32_t
FluxQueueDisc::GetDefaultEcnKmin() const
{
    return m_defaultKmin;
}

void
FluxQueueDisc::SetDefaultEcnKmax(uint32_t kmax)
{
    m_defaultKmax = kmax;
    for (ClassState& cs : m_class)
    {
        cs.kmax = kmax;
    }
}

uint32_t
FluxQueueDisc::GetDefaultEcnKmax() const
{
    return m_defaultKmax;
}

void
FluxQueueDisc::SetDefaultEcnPmax(double pmax)
{
    m_defaultPmax = pmax;
    for (ClassState& cs : m_class)
    {
        cs.pmax = pmax;
    }
}

double
FluxQueueDisc::GetDefaultEcnPmax() const
{
    return m_defaultPmax;
}

int64_t
FluxQueueDisc::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

bool
FluxQueueDisc::ServesClassInOrder() const
{
    return m_flowsPerClass <= 1;
}

uint32_t
FluxQueueDisc::GetClassPackets(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].packets : 0;
}

uint32_t
FluxQueueDisc::GetClassBytes(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].bytes : 0;
}

uint64_t
FluxQueueDisc::GetClassPacketsServed(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].packetsServed : 0;
}

uint64_t
FluxQueueDisc::GetClassBytesServed(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].bytesServed : 0;
}

uint64_t
FluxQueueDisc::GetClassMarks(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].marks : 0;
}

uint64_t
FluxQueueDisc::GetFlowMarks(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].flowMarks : 0;
}

uint64_t
FluxQueueDisc::GetGuardActivations(uint8_t cls) const
{
    return cls < N_CLASSES ? m_class[cls].guardServed : 0;
}

uint64_t
FluxQueueDisc::GetGuardActivations() const
{
    return m_guardActivations;
}

bool
FluxQueueDisc::StartDirect()
{
    NS_LOG_FUNCTION(this);
    m_direct = m_directPath && GetNInternalQueues() == 0 && m_flows.empty();
    return m_direct;
}

bool
FluxQueueDisc::EnqueueDirect(Ptr<QueueDiscItem> item)
{
    NS_ASSERT(m_direct);
    // what QueueDisc::Enqueue() stamps (MaxWait reads it)
    item->SetTimeStamp(Simulator::Now());
    return DoEnqueue(item);
}

Ptr<QueueDiscItem>
FluxQueueDisc::DequeueDirect()
{
    NS_ASSERT(m_direct);
    return DoDequeue();
}

bool
FluxQueueDisc::PushItem(Flow& flow, Ptr<QueueDiscItem> item)
{
    if (m_direct)
    {
        flow.items.push_back(std::move(item));
        return true;
    }
    return flow.queue->Enqueue(item);
}

Ptr<const QueueDiscItem>
FluxQueueDisc::HeadItem(Flow& flow) const
{
    if (m_direct)
    {
        return flow.items.front();
    }
    return flow.queue->Peek();
}

Ptr<QueueDiscItem>
FluxQueueDisc::PopItem(Flow& flow)
{
    if (!m_direct)
    {
        return flow.queue->Dequeue();
    }
    Ptr<QueueDiscItem> item = std::move(flow.items.front());
    flow.items.pop_front();
    return item;
}

bool
FluxQueueDisc::IsFlowEmpty(const Flow& flow) const
{
    return m_direct ? flow.items.empty() : flow.queue->IsEmpty();
}

bool
FluxQueueDisc::DoEnqueue(Ptr<QueueDiscItem> item)
{
    NS_LOG_FUNCTION(this << item);
    // The limit in the unit MaxSize counts, without building QueueSize objects
    const uint32_t size = item->GetSize();
    const bool full = m_limitInPackets ? m_heldPackets + 1 > m_limit : m_heldBytes + size > m_limit;
    if (full)
    {
        NS_LOG_LOGIC("Queue disc full: " << GetCurrentSize() << " of " << GetMaxSize());
        DropBeforeEnqueue(item, LIMIT_EXCEEDED_DROP);
        return false;
    }
    const uint8_t cls = GetQueueClass(GetItemPriority(item));
    const uint32_t index = cls * m_nFlows + item->Hash(m_perturbation) % m_nFlows;
    Flow& flow = m_flows[index];
    // A failed enqueue is reported as a drop by the internal queue itself.
    if (!PushItem(flow, std::move(item)))
    {
        return false;
    }
    ClassState& cs = m_class[cls];
    flow.bytes += size;
    ++cs.packets;
    cs.bytes += size;
    ++m_heldPackets;
    m_heldBytes += size;
    m_nonEmpty |= TrafficClass::Bit(cls);
    if (!flow.active)
    {
        // A flow joins at the tail of its class's ring with a full quantum.
        flow.active = true;
        ++cs.flows;
        flow.deficit = static_cast<int32_t>(m_quantum);
        flow.next = NO_FLOW;
        const uint16_t f = static_cast<uint16_t>(index);
        if (cs.tail == NO_FLOW)
        {
            cs.head = f;
        }
        else
        {
            m_flows[cs.tail].next = f;
        }
        cs.tail = f;
    }
    NS_LOG_LOGIC("Class " << +cls << " flow " << index % m_nFlows << ": " << cs.packets
                          << " packets");
    return true;
}

Ptr<const QueueDiscItem>
FluxQueueDisc::SelectFlow(uint8_t cls)
{
    ClassState& cs = m_class[cls];
    NS_ASSERT(cs.head != NO_FLOW);
    while (true)
    {
        Flow& flow = m_flows[cs.head];
        Ptr<const QueueDiscItem> head = HeadItem(flow);
        if (flow.deficit >= static_cast<int32_t>(head->GetSize()))
        {
            return head;
        }
        // Not enough deficit: a new quantum, and the next flow's turn.
        flow.deficit += static_cast<int32_t>(m_quantum);
        if (cs.head != cs.tail)
        {
            const uint16_t f = cs.head;
            cs.head = flow.next;
            flow.next = NO_FLOW;
            m_flows[cs.tail].next = f;
            cs.tail = f;
        }
    }
}

int
FluxQueueDisc::SelectClass(bool& guard)
{
    guard = false;
    const uint8_t ready = m_nonEmpty & ~m_pausedMask;
    if (ready == 0)
    {
        return -1;
    }
    if (ready & TrafficClass::Bit(TrafficClass::CONTROL))
    {
        SelectFlow(TrafficClass::CONTROL);
        return TrafficClass::CONTROL;
    }
    // The class the order chooses, and after it the ones the guard may prefer.
    std::size_t first = 0;
    while (!(ready & TrafficClass::Bit(m_order[first])))
    {
        ++first;
    }
    if (!m_maxWait.IsZero())
    {
        const Time now = Simulator::Now();
        for (std::size_t i = first + 1; i < m_order.size(); ++i)
        {
            const uint8_t c = m_order[i];
            if ((ready & TrafficClass::Bit(c)) && now - SelectFlow(c)->GetTimeStamp() > m_maxWait)
            {
                guard = true;
                return c;
            }
        }
    }
    if (m_minShare > 0)
    {
        for (std::size_t i = first + 1; i < m_order.size(); ++i)
        {
            const uint8_t c = m_order[i];
            if ((ready & TrafficClass::Bit(c)) && m_class[c].credit >= SelectFlow(c)->GetSize())
            {
                guard = true;
                return c;
            }
        }
    }
    SelectFlow(m_order[first]);
    return m_order[first];
}

bool
FluxQueueDisc::FlowEcnDue(const Flow& flow, const ClassState& cs, uint32_t classBytes) const
{
    // A flow queue well above its class's mean is one whose senders send
    // faster than the round robin serves them: marking it slows them, and
    // not the class's other flows, as the class's bytes would.
    return m_flowEcnBytes != 0 && flow.bytes >= m_flowEcnBytes &&
           static_cast<double>(flow.bytes) * cs.flows >= m_flowEcnShare * classBytes;
}

Ptr<QueueDiscItem>
FluxQueueDisc::DoDequeue()
{
    NS_LOG_FUNCTION(this);
    const uint8_t ready = m_nonEmpty & ~m_pausedMask;
    bool guard = false;
    const int selected = SelectClass(guard);
    if (selected < 0)
    {
        NS_LOG_LOGIC("Nothing to serve: non-empty " << +m_nonEmpty << " paused " << +m_pausedMask);
        return nullptr;
    }
    const uint8_t cls = static_cast<uint8_t>(selected);
    ClassState& cs = m_class[cls];
    Flow& flow = m_flows[cs.head];
    Ptr<QueueDiscItem> item = PopItem(flow);
    const uint32_t size = item->GetSize();
    flow.deficit -= static_cast<int32_t>(size);
    flow.bytes -= size;
    // (judged before the flow may leave the active ring: cs.flows counts it)
    const bool flowMark = FlowEcnDue(flow, cs, cs.bytes - size);
    if (IsFlowEmpty(flow))
    {
        flow.active = false;
        --cs.flows;
        cs.head = flow.next;
        flow.next = NO_FLOW;
        if (cs.head == NO_FLOW)
        {
            cs.tail = NO_FLOW;
        }
    }
    --cs.packets;
    cs.bytes -= size;
    --m_heldPackets;
    m_heldBytes -= size;
    ++cs.packetsServed;
    cs.bytesServed += size;

    if (m_minShare > 0)
    {
        // Every waiting data class earns its share of the bytes sent; the
        // class served spends them.
        const double earned = m_minShare * size;
        for (unsigned m = ready & ~TrafficClass::Bit(TrafficClass::CONTROL); m; m &= m - 1)
        {
            m_class[__builtin_ctz(m)].credit += earned;
        }
        cs.credit = std::max(0.0, cs.credit - size);
    }
    if (cs.packets == 0)
    {
        m_nonEmpty &= ~TrafficClass::Bit(cls);
        cs.credit = 0;
    }
    if (guard)
    {
        ++cs.guardServed;
        ++m_guardActivations;
        NS_LOG_LOGIC("Starvation guard serves class " << +cls);
        m_guardTrace(cls);
    }

    // Kmax 0: no per-class marking
    if (cs.kmax != 0 && EcnShouldMark(cs.bytes, cs.kmin, cs.kmax, cs.pmax, *m_uniform) &&
        Mark(item, CLASS_ECN_MARK))
    {
        ++cs.marks;
    }
    else if (flowMark && Mark(item, FLOW_ECN_MARK))
    {
        ++cs.flowMarks;
    }
    return item;
}

Ptr<const QueueDiscItem>
FluxQueueDisc::DoPeek()
{
    NS_LOG_FUNCTION(this);
    bool guard = false;
    const int cls = SelectClass(guard);
    if (cls < 0)
    {
        return nullptr;
    }
    return HeadItem(m_flows[m_class[cls].head]);
}

bool
FluxQueueDisc::CheckConfig()
{
    NS_LOG_FUNCTION(this);
    if (GetNQueueDiscClasses() > 0)
    {
        NS_LOG_ERROR("FluxQueueDisc cannot have classes");
        return false;
    }
    if (GetNPacketFilters() > 0)
    {
        NS_LOG_ERROR("FluxQueueDisc classifies by DS field and uses no packet filter");
        return false;
    }
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        if (m_class[c].kmax != 0 && m_class[c].kmin > m_class[c].kmax)
        {
            NS_LOG_ERROR("FluxQueueDisc: ECN Kmin above Kmax in class " << +c);
            return false;
        }
    }
    const std::size_t queues = std::size_t{N_CLASSES} * m_flowsPerClass;
    if (m_direct)
    {
        return GetNInternalQueues() == 0;
    }
    if (GetNInternalQueues() == 0)
    {
        for (std::size_t i = 0; i < queues; ++i)
        {
            Ptr<InternalQueue> q = CreateObject<DropTailQueue<QueueDiscItem>>();
            q->SetMaxSize(QueueSize(QueueSizeUnit::PACKETS, std::numeric_limits<uint32_t>::max()));
            AddInternalQueue(q);
        }
    }
    if (GetNInternalQueues() != queues)
    {
        NS_LOG_ERROR("FluxQueueDisc needs 8 x FlowsPerClass internal queues");
        return false;
    }
    return true;
}

void
FluxQueueDisc::InitializeParams()
{
    NS_LOG_FUNCTION(this);
    // QueueDisc only asserts CheckConfig(), which release builds compile out.
    const std::size_t queues = std::size_t{N_CLASSES} * m_flowsPerClass;
    NS_ABORT_MSG_IF(m_direct ? GetNInternalQueues() != 0 : GetNInternalQueues() != queues,
                    "FluxQueueDisc needs " << queues << " internal queues (8 x FlowsPerClass), has "
                                           << GetNInternalQueues());
    for (uint8_t c = 0; c < N_CLASSES; ++c)
    {
        NS_ABORT_MSG_IF(m_class[c].kmax != 0 && m_class[c].kmin > m_class[c].kmax,
                        "FluxQueueDisc: ECN Kmin " << m_class[c].kmin << " above Kmax "
                                                   << m_class[c].kmax << " in class " << +c);
    }
    m_nFlows = m_flowsPerClass;
    m_limitInPackets = GetMaxSize().GetUnit() == QueueSizeUnit::PACKETS;
    m_limit = GetMaxSize().GetValue();
    m_flows.assign(queues, Flow());
    for (ClassState& cs : m_class)
    {
        cs.head = cs.tail = NO_FLOW;
        cs.packets = cs.bytes = cs.flows = 0;
        cs.credit = 0;
    }
    m_nonEmpty = 0;
    m_heldPackets = 0;
    m_heldBytes = 0;
    for (std::size_t i = 0; !m_direct && i < queues; ++i)
    {
        m_flows[i].queue = PeekPointer(GetInternalQueue(i));
        // Internal queues added by the user must start empty.
        NS_ABORT_MSG_IF(!m_flows[i].queue->IsEmpty(),
                        "FluxQueueDisc: internal queue " << i << " is not empty");
    }
    RebuildOrder();
}

} // namespace ns3
