/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLUX_QUEUE_DISC_H
#define FLUX_QUEUE_DISC_H

#include "ns3/compact-fifo.h"
#include "ns3/nstime.h"
#include "ns3/pfc-aware-queue-disc.h"
#include "ns3/traced-callback.h"
#include "ns3/traffic-class.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup flux-scheduler
 * \brief The queue discipline of the Flux scheduler: per-class queues served
 * in a controller-set order, deficit round robin among the flows of a class,
 * a starvation guard, optional per-class ECN marking, and PFC awareness.
 *
 * Classification: an item's class is its DS field >> 5 (the DSCP class
 * selector, TrafficClass::FromDsField; 0 for items without a DS field).
 * With K = attribute Classes (1..8), a data class c is queued in class
 * min(c, K − 1), and the control class (TrafficClass::CONTROL, ACK/NAK/CNP)
 * always has its own queue. K = 8 and K = 7 are therefore the same (every
 * class its own queue); K = 1 puts all data in class 0. All statistics and
 * the service order refer to these queue classes.
 *
 * Within a class, items are spread over FlowsPerClass flow queues by the
 * hash of their 5-tuple (QueueDiscItem::Hash(Perturbation) modulo
 * FlowsPerClass) and the class serves its active flows with deficit round
 * robin (Quantum bytes per round; the active flows are an intrusive ring,
 * as in Linux sch_drr). Flows sharing a flow queue share its FIFO.
 *
 * Service order at each Dequeue(), among the classes that hold packets and
 * are not paused by PFC (PfcAwareQueueDisc::SetPausedMask):
 * 1. the control class, strictly first;
 * 2. the starvation guard (below), if it picks a class;
 * 3. the first class of the current order (SetClassOrder() or attribute
 *    Order: highest precedence first; classes not listed follow in
 *    descending class number). Order changes take effect at the next
 *    Dequeue().
 *
 * Starvation guard, two independent knobs, each disabled by 0:
 * - MaxWait (ageing): a class whose head packet (the packet its DRR would
 *   send next) has waited longer than MaxWait is served ahead of the order.
 * - MinShare (byte credit): every data class that holds packets and is not
 *   paused earns MinShare × the bytes of each packet the queue disc sends
 *   (whichever class sends it) and spends the bytes it sends itself; a
 *   class whose credit covers its head packet is served ahead of the order.
 *   A permanently backlogged class thus gets at least MinShare of the bytes,
 *   short by less than its head packet plus MinShare × one packet, and
 *   never more through the guard. Credit never falls below 0 and is
 *   forgotten when the class empties.
 * Among several classes picked by the guard, ageing comes first, and the
 * order decides between classes of the same kind. A guard activation is a
 * dequeue in which the guard served a class other than the one the order
 * would have chosen (counted per class, trace source GuardActivation).
 *
 * The switch's MMU marks ECN from the bytes queued in a class. Since a
 * class's flows are served in turn (with more than one flow per class), a
 * packet waits for its own flow's backlog and for the classes served
 * first, not for the class's bytes (ServesClassInOrder() false): with
 * FabricSwitch::WaitEcn the switch also marks a packet from the bytes the
 * port sends while it waited.
 *
 * Per-class ECN (off by default): when a class's Kmax is not 0, an item
 * leaving it is marked CE with probability 0 while the bytes left in the
 * class are at most Kmin, Pmax × (q − Kmin) / (Kmax − Kmin) up to Kmax and
 * 1 above Kmax (as SwitchMmu does at dequeue). Only ECN-capable items are
 * marked (and counted, per class and in the QueueDisc Mark statistics). The
 * attributes EcnKminBytes, EcnKmaxBytes and EcnPmax set all classes at
 * once; SetEcnThresholds() sets one.
 *
 * Per-flow ECN (off by default): when FlowEcnBytes is not 0, an item
 * leaving a flow queue that still holds at least FlowEcnBytes, and at
 * least FlowEcnShare times the mean backlog of its class's active flow
 * queues, is marked CE (reason FLOW_ECN_MARK; an item the per-class
 * marking marked is not marked twice). Round robin serves every flow of a
 * class alike, so a flow queue grows only when its senders send faster
 * than their turn: the mark slows them, and not the class's other flows.
 * With FlowEcnShare above 1 a flow queue alone in its class is never
 * marked. Counted per class (GetFlowMarks()).
 *
 * PFC: a paused class is never served; the others are. Peek() runs the
 * same selection as Dequeue() (it may advance the DRR round of the class
 * it picks, which Dequeue() would do the same way) and shows the item
 * Dequeue() returns next, as long as the paused mask, the time and the
 * queue do not change in between. An item requeued by QueueDisc::Run()
 * (device refused it) is returned by Dequeue() first but not shown by
 * Peek().
 *
 * Size: MaxSize limits the queue disc as a whole; an item beyond it is
 * dropped before enqueue (reason LIMIT_EXCEEDED_DROP). The internal queues
 * (FlowsPerClass per class, 8 classes, created at initialisation unless
 * exactly that many are added before) have no limit of their own.
 *
 * Direct path (attribute DirectPath, on by default): on a FabricSwitch
 * port the queue disc takes PfcAwareQueueDisc's direct path. Its flows then
 * hold their items in FIFOs of their own, no internal queue is created, and
 * the port hands items in and out past QueueDisc's Enqueue() and Dequeue():
 * QueueDisc's packet counters and its Enqueue, Dequeue, PacketsInQueue,
 * BytesInQueue and SojournTime traces stay silent, while drops, marks, the
 * class statistics below and the service order are those of the ns-3 path.
 * A queue disc with internal queues added by the user, or with DirectPath
 * false, stays on the ns-3 path.
 *
 * Hot path: Enqueue/Dequeue/Peek do no allocation of their own (the
 * internal DropTailQueues store items in their std::list; the direct
 * path's FIFOs are vectors that keep their capacity), no string work and
 * scan at most the 8 classes; DRR visits only active flows.
 *
 * FlowsPerClass is read when the queue disc is initialised.
 */
class FluxQueueDisc : public PfcAwareQueueDisc
{
  public:
    /// Number of class slots (one per traffic class).
    static constexpr uint8_t N_CLASSES = TrafficClass::N_CLASSES;
    /// MinShare's default: the starvation guard's least share of a port's bytes.
    static constexpr double DEFAULT_MIN_SHARE = 0.05;

    // Reasons are short enough (< 16 characters) for QueueDisc's per-reason
    // statistics to count them without allocating.

    /// Drop reason: the queue disc is full (MaxSize).
    static constexpr const char* LIMIT_EXCEEDED_DROP = "Overlimit drop";
    /// Mark reason: the class's queue exceeded its ECN threshold.
    static constexpr const char* CLASS_ECN_MARK = "Class ECN mark";
    /// Mark reason: the item's flow queue exceeded FlowEcnBytes (and FlowEcnShare).
    static constexpr const char* FLOW_ECN_MARK = "Flow ECN mark";

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /** \brief Constructor: eight classes in descending order, no ECN. */
    FluxQueueDisc();
    ~FluxQueueDisc() override;

    /**
     * \brief Set the service order of the data classes.
     *
     * Classes are folded as items are (see the class description); the
     * control class and repeated classes are ignored; classes not listed
     * follow in descending class number. Takes effect at the next Dequeue().
     *
     * \param order class numbers (0..7), highest precedence first
     */
    void SetClassOrder(const std::vector<uint8_t>& order);

    /**
     * \return the current service order of the data classes (after the
     *         control class), highest precedence first
     */
    std::vector<uint8_t> GetClassOrder() const;

    /**
     * \brief Set the per-class ECN marking of one class.
     * \param cls the class (0..7; folded as items are)
     * \param kmin bytes left in the class up to which nothing is marked
     * \param kmax bytes left in the class above which every ECN-capable item
     *        is marked; 0 disables marking in this class
     * \param pmax marking probability at kmax (0..1)
     */
    void SetEcnThresholds(uint8_t cls, uint32_t kmin, uint32_t kmax, double pmax);

    /**
     * \brief Assign a fixed random variable stream number to the random
     *        variable used by this model.
     * \param stream first stream index to use
     * \return the number of stream indices assigned (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// \return false with more than one flow queue per class (round robin)
    bool ServesClassInOrder() const override;

    bool StartDirect() override;
    bool EnqueueDirect(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DequeueDirect() override;

    /**
     * \param cls a traffic class (0..7)
     * \return the class whose queue holds items of that class
     */
    uint8_t GetQueueClass(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the packets queued in it
     */
    uint32_t GetClassPackets(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the bytes queued in it
     */
    uint32_t GetClassBytes(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the packets it has sent
     */
    uint64_t GetClassPacketsServed(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the bytes it has sent
     */
    uint64_t GetClassBytesServed(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the items the per-class ECN marking marked in it
     */
    uint64_t GetClassMarks(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the items the per-flow ECN marking marked in it
     */
    uint64_t GetFlowMarks(uint8_t cls) const;

    /**
     * \param cls the class
     * \return the dequeues in which the starvation guard served it ahead of
     *         the order
     */
    uint64_t GetGuardActivations(uint8_t cls) const;

    /** \return the starvation guard's activations, all classes */
    uint64_t GetGuardActivations() const;

    /**
     * TracedCallback signature of a guard activation.
     * \param cls the class served ahead of the order
     */
    typedef void (*GuardTracedCallback)(uint8_t cls);

  protected:
    void DoDispose() override;

  private:
    bool DoEnqueue(Ptr<QueueDiscItem> item) override;
    Ptr<QueueDiscItem> DoDequeue() override;
    Ptr<const QueueDiscItem> DoPeek() override;
    bool CheckConfig() override;
    void InitializeParams() override;

    /// Index meaning "no flow".
    static constexpr uint16_t NO_FLOW = 0xffff;

    /// A flow queue of a class.
    struct Flow
    {
        InternalQueue* queue{nullptr};         //!< its FIFO (owned by QueueDisc; ns-3 path)
        CompactFifo<Ptr<QueueDiscItem>> items; //!< its FIFO on the direct path
        int32_t deficit{0};                    //!< DRR deficit, bytes
        uint32_t bytes{0};                     //!< bytes queued
        uint16_t next{NO_FLOW};                //!< next active flow of the class
        bool active{false};                    //!< in its class's active ring
    };

    /**
     * \brief Append an item to a flow's FIFO.
     * \param flow the flow
     * \param item the item
     * \return false when the internal queue refused it (and traced the drop)
     */
    bool PushItem(Flow& flow, Ptr<QueueDiscItem> item);

    /**
     * \param flow a flow that holds items
     * \return its head item
     */
    Ptr<const QueueDiscItem> HeadItem(Flow& flow) const;

    /**
     * \param flow a flow that holds items
     * \return its head item, removed
     */
    Ptr<QueueDiscItem> PopItem(Flow& flow);

    /**
     * \param flow a flow
     * \return whether it holds no item
     */
    bool IsFlowEmpty(const Flow& flow) const;

    /// The state of a class.
    struct ClassState
    {
        uint16_t head{NO_FLOW};    //!< first active flow (served next)
        uint16_t tail{NO_FLOW};    //!< last active flow
        uint32_t packets{0};       //!< packets queued
        uint32_t bytes{0};         //!< bytes queued
        uint32_t flows{0};         //!< active flows
        uint64_t packetsServed{0}; //!< packets sent
        uint64_t bytesServed{0};   //!< bytes sent
        uint64_t marks{0};         //!< per-class ECN marks
        uint64_t flowMarks{0};     //!< per-flow ECN marks
        uint64_t guardServed{0};   //!< guard activations
        double credit{0};          //!< MinShare byte credit
        uint32_t kmin{0};          //!< ECN Kmin, bytes
        uint32_t kmax{0};          //!< ECN Kmax, bytes (0: no marking)
        double pmax{0};            //!< ECN Pmax
    };

    /**
     * \brief Per-flow ECN: whether an item leaving a flow queue is marked.
     * \param flow the flow queue, its bytes without the item
     * \param cs its class, its active flows still counting the flow
     * \param classBytes the bytes left in the class without the item
     * \return whether FlowEcnBytes and FlowEcnShare call for a mark
     */
    bool FlowEcnDue(const Flow& flow, const ClassState& cs, uint32_t classBytes) const;

    /**
     * \brief Choose the class to serve and make its next flow the head of
     *        its active ring.
     * \param [out] guard true when the starvation guard chose the class
     * \return the class, or -1 when none may be served
     */
    int SelectClass(bool& guard);

    /**
     * \brief Run the DRR round of a non-empty class until its head flow may
     *        send its head packet.
     * \param cls the class
     * \return the head packet of the class
     */
    Ptr<const QueueDiscItem> SelectFlow(uint8_t cls);

    /** \brief Recompute the effective service order from the requested one. */
    void RebuildOrder();

    /**
     * \brief Attribute setter of Order.
     * \param order space-separated class numbers
     */
    void SetOrderString(std::string order);

    /** \return the requested order, space-separated */
    std::string GetOrderString() const;

    /**
     * \brief Attribute setter of EcnKminBytes (all classes).
     * \param kmin bytes
     */
    void SetDefaultEcnKmin(uint32_t kmin);
    /** \return the attribute EcnKminBytes */
    uint32_t GetDefaultEcnKmin() const;
    /**
     * \brief Attribute setter of EcnKmaxBytes (all classes).
     * \param kmax bytes
     */
    void SetDefaultEcnKmax(uint32_t kmax);
    /** \return the attribute EcnKmaxBytes */
    uint32_t GetDefaultEcnKmax() const;
    /**
     * \brief Attribute setter of EcnPmax (all classes).
     * \param pmax probability
     */
    void SetDefaultEcnPmax(double pmax);
    /** \return the attribute EcnPmax */
    double GetDefaultEcnPmax() const;

    uint32_t m_nClasses;         //!< attribute Classes (K)
    uint32_t m_flowsPerClass;    //!< attribute FlowsPerClass
    uint32_t m_quantum;          //!< attribute Quantum, bytes
    uint32_t m_flowEcnBytes{0};  //!< attribute FlowEcnBytes (0: off)
    double m_flowEcnShare{0};    //!< attribute FlowEcnShare
    uint32_t m_perturbation;     //!< attribute Perturbation (flow hash)
    double m_minShare;           //!< attribute MinShare
    Time m_maxWait;              //!< attribute MaxWait
    uint32_t m_defaultKmin;      //!< attribute EcnKminBytes
    uint32_t m_defaultKmax;      //!< attribute EcnKmaxBytes
    double m_defaultPmax;        //!< attribute EcnPmax
    uint32_t m_nFlows;           //!< flow queues per class in use (set at initialisation)
    bool m_directPath;           //!< attribute DirectPath
    bool m_direct{false};        //!< on the direct path (StartDirect())
    bool m_limitInPackets{true}; //!< MaxSize counts packets (else bytes)
    uint64_t m_limit{0};         //!< MaxSize in its unit

    std::vector<uint8_t> m_requestedOrder;              //!< order as requested
    std::array<uint8_t, TrafficClass::CONTROL> m_order; //!< effective order of classes 0..6
    std::array<ClassState, N_CLASSES> m_class;          //!< per-class state
    std::vector<Flow> m_flows;                          //!< flow cls × FlowsPerClass + f
    uint8_t m_nonEmpty;                                 //!< bit c set when class c holds packets
    uint64_t m_guardActivations;                        //!< guard activations, all classes
    Ptr<UniformRandomVariable> m_uniform;               //!< ECN marking draws
    TracedCallback<uint8_t> m_guardTrace;               //!< trace source GuardActivation
};

} // namespace ns3

#endif /* FLUX_QUEUE_DISC_H */
