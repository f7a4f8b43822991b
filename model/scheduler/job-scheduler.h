/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef JOB_SCHEDULER_H
#define JOB_SCHEDULER_H

#include "ns3/object-factory.h"
#include "ns3/object.h"
#include "ns3/training-job.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ns3
{

class NamedTypeRegistry;

/**
 * \ingroup flux-scheduler
 * \brief Base of the multi-tenant communication schedulers (the policies of
 * scheduler.policy): it decides the traffic classes of the training jobs and
 * when their communication may go.
 *
 * The life of a scheduler, in the order a runner drives it:
 * 1. AssignClasses(), before the network is built: it picks the classes the
 *    jobs may use (Classes of them, avoiding the classes other tenants use),
 *    so that the fabric can make them lossless; GetQueueDiscFactory() and
 *    GetQpArbiterFactory() name what switch ports and NICs must run.
 * 2. SetPathFunction() (JobSchedulerHelper::SetFabric), then AddJob() for
 *    every job, once, when the jobs and their queue pairs exist, with what
 *    the scheduler may know of it: the link directions its ring sends cross
 *    under the fabric's ECMP hashing and their rates.
 * 3. Start(), once, before the simulation runs: the policy installs its
 *    gates, and a path-aware policy chooses the source ports of the jobs'
 *    queue pairs (PlacePaths()) on the fabric's paths; without a path
 *    function it aborts.
 *
 * Policies are found by name (GetPolicies(), Create()), as congestion
 * controls are, and take their parameters as attributes.
 */
class JobScheduler : public Object
{
  public:
    /// What the scheduler knows of a job.
    struct JobInfo
    {
        Ptr<TrainingJob> job;     //!< the job (set up, not started)
        uint32_t index{0};        //!< its index (JobStepTag job id)
        uint8_t scenarioClass{3}; //!< class the scenario gave it
        /// per connection (TrainingJob::GetConnections() order): the link
        /// directions its sends cross
        std::vector<std::vector<uint32_t>> rankLinks;
        std::vector<std::vector<double>>
            rankLinkBps;         //!< their rates, bit/s (parallel to rankLinks)
        double bottleneckBps{0}; //!< rate of one rank's sends alone, bit/s: AddJob sets it to the
                                 //!< least link rate / the job's sends crossing that link
        /// per connection (as rankLinks): its sender's and its receiver's
        /// hosts (for path choice)
        std::vector<std::pair<uint32_t, uint32_t>> connectionHosts;
    };

    /**
     * The link directions a packet from host src to host dst with UDP source
     * port port crosses (the fabric's ECMP choice, FabricTopology::GetPath).
     */
    using PathFunction = std::function<std::vector<uint32_t>(uint32_t, uint32_t, uint16_t)>;

    /// What the scheduler did, for the results.
    struct Counters
    {
        uint64_t decisions{0};    //!< gate requests decided
        uint64_t held{0};         //!< requests held at a gate
        uint64_t replans{0};      //!< plans computed
        uint64_t messages{0};     //!< control messages sent
        uint64_t classChanges{0}; //!< class changes of a job's queue pairs
        uint64_t pathsMoved{0};   //!< connections given another source port (path)
        uint64_t overdue{0};      //!< runs a guard put first, late against fifo's pace
    };

    /// One class change of a job, for the results.
    struct ClassChange
    {
        Time at;     //!< when its queue pairs were asked to change
        uint8_t cls; //!< the new class
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    JobScheduler();
    ~JobScheduler() override;

    /**
     * \return the registered policies (FLUX_REGISTER_POLICY), name and
     *         TypeId name, by rank and then by name: fifo, cassini, crux,
     *         flux, then the others
     */
    static const std::vector<std::pair<std::string, std::string>>& GetPolicies();

    /**
     * \brief Register a policy; FLUX_REGISTER_POLICY calls it during static
     * initialisation of the policy's own file (or of a plugin library, when
     * it is loaded), so a policy is one class plus that one line.
     *
     * \param name the policy's name (scheduler.policy, --policy)
     * \param getTypeId the policy class's GetTypeId
     * \param rank where GetPolicies() lists it: 0 fifo, 1 cassini, 2 crux,
     *        3 flux; others 100 (POLICY_RANK_OTHER) or above, equal ranks by
     *        name
     * \return true, or false for a name already registered (a fatal error
     *         at the next GetPolicies() unless a loader takes it first:
     *         NamedTypeRegistry)
     */
    static bool RegisterPolicy(const std::string& name, TypeId (*getTypeId)(), uint32_t rank);

    /// \return the registry of policies, which GetPolicies() lists
    static NamedTypeRegistry& GetPolicyRegistry();

    /// The rank of policies other than the four first ones (RegisterPolicy()).
    static constexpr uint32_t POLICY_RANK_OTHER = 100;

    /**
     * \param policy a policy name
     * \return the TypeId name of its scheduler, or "" for an unknown name
     */
    static std::string GetPolicyTypeName(const std::string& policy);

    /**
     * \brief Pick the classes of the jobs.
     *
     * Multi-class policies take the Classes highest classes from the lowest
     * class in reservedMask (background tenants; the control class is always
     * reserved) down: the jobs' top class is that lowest background class
     * itself, shared flow by flow, or with BackgroundFirst the class below
     * it; single-class policies keep each job's scenario class.
     *
     * \param reservedMask classes used by other traffic
     * \return an empty string, or why the classes cannot be had
     */
    std::string AssignClasses(uint8_t reservedMask);

    /** \return the classes the jobs may use (each must be lossless) */
    uint8_t GetClassMask() const;

    /** \return the jobs' classes, highest precedence first (empty: scenario classes) */
    const std::vector<uint8_t>& GetJobClasses() const;

    /**
     * \brief The precedence of classes at switch ports and NICs.
     * \param reservedMask classes used by other traffic, served first
     * \return control, then reserved classes (descending), then the jobs'
     *         classes in the scheduler's order
     */
    std::vector<uint8_t> GetClassOrder(uint8_t reservedMask) const;

    /**
     * \return GetClassOrder() of the classes reserved at AssignClasses(), as
     *         the space-separated list the queue discs' and arbiters' Order
     *         attributes take
     */
    std::string GetClassOrderString() const;

    /** \return the classes of other traffic given at AssignClasses(), a bit per class */
    uint8_t GetReservedClasses() const;

    /**
     * \param[out] factory the queue disc switch ports must run
     * \return false when the policy leaves the switches' default
     */
    virtual bool GetQueueDiscFactory(ObjectFactory& factory) const;

    /**
     * \param[out] factory the queue-pair arbiter NICs must run
     * \return false when the policy leaves the NICs' default
     */
    virtual bool GetQpArbiterFactory(ObjectFactory& factory) const;

    /** \return the policy's name */
    virtual std::string GetPolicyName() const = 0;

    /**
     * \return what the policy does that a flow-level run (FluidNetwork, which
     *         has no congestion control) cannot model, as entries the results
     *         add to backend_limits ("scheduler.<what>"); default none
     */
    virtual std::vector<std::string> GetFlowLevelLimits() const;

    /**
     * \brief Let the scheduler see the fabric's paths, so that it can choose
     * them (before AddJob; afterwards it aborts).
     * \param paths the path of a send
     * \param linkBps per link direction: its rate, bit/s
     */
    void SetPathFunction(PathFunction paths, std::vector<double> linkBps);

    /**
     * \brief Learn of a job (after AssignClasses and SetPathFunction, before
     * Start); a job added twice aborts.
     * \param info the job
     */
    void AddJob(const JobInfo& info);

    /**
     * \param job a job index
     * \return its class changes so far (the first entry is its class at the start)
     */
    const std::vector<ClassChange>& GetClassTimeline(uint32_t job) const;

    /// Install the policy's gates and classes; called once before the run.
    virtual void Start();

    /** \return what the scheduler did */
    const Counters& GetCounters() const;

    /** \return what the policy counted of its own (CountPolicy()), by name */
    const std::map<std::string, uint64_t>& GetPolicyCounters() const;

    /**
     * \return true when decisions (and holds) are counted where each rank
     *         asks, by gates in the ranks, rather than once per job: under
     *         MPI the processes' counts then add up, otherwise every process
     *         counts them all
     */
    virtual bool DecidesPerRank() const;

    /**
     * \param job a job index
     * \return the class its data has now
     */
    uint8_t GetCurrentClass(uint32_t job) const;

    /**
     * \param a a job index
     * \param b another
     * \return true when the two jobs, each sending at the rate it gets
     *         alone, would overload a link direction they share
     */
    bool Conflict(uint32_t a, uint32_t b) const;

    /**
     * \brief Whether taking turns beats sharing for two conflicting jobs.
     *
     * Both communicating at once, each gets on every link they share its
     * max-min fair part of the link given the rates they get alone, and
     * runs at the smallest such fraction of its rate alone until the first
     * finishes. Taking turns, `first` communicates alone, then `second`.
     * For runs of equal length alone (which run goes first is the order's
     * business, not this test's), turns pay when their mean completion is
     * the smaller: two rings that halve each other's rate should take
     * turns, but where a shared link limits only one of them (the other's
     * rate is set elsewhere), sharing costs little and holding would idle
     * a ring.
     * \param first the job that would go first
     * \param second the job that would wait
     * \return true when taking turns gives the smaller mean completion
     */
    bool TurnsPay(uint32_t first, uint32_t second) const;

    /**
     * \param job a job index
     * \return the time one run of its collective takes alone on the fabric,
     *         at its bottleneck rate: 2 (N-1) / N x bytes per bucket, per rank
     */
    Time CommTimeAlone(uint32_t job) const;

    /** \return the number of jobs */
    uint32_t GetNJobs() const;

    /**
     * \param job a job index
     * \return what the scheduler knows of it
     */
    const JobInfo& GetJobInfo(uint32_t job) const;

    /**
     * \return true when the policy gives the jobs classes of its own (the
     *         Classes and BackgroundFirst attributes apply only then)
     */
    virtual bool UsesOwnClasses() const;

    /**
     * \return true when the policy chooses the jobs' paths (PlacePaths(); the
     *         PathCandidates attribute applies only then)
     */
    virtual bool ChoosesPaths() const;

    /**
     * \param name an attribute of the policy's TypeId
     * \return false for JobScheduler's own attributes that do not apply to
     *         the policy (Classes and BackgroundFirst without classes of its
     *         own, PathCandidates when it chooses no paths), else true
     */
    bool UsesAttribute(const std::string& name) const;

  protected:
    void DoDispose() override;

    /**
     * \brief Give a job's data a class (its queue pairs change once idle).
     * \param job the job index
     * \param cls the class
     */
    void SetJobClass(uint32_t job, uint8_t cls);

    /**
     * \brief Choose the jobs' paths: the UDP source port of each connection
     * of their collectives (the ECMP entropy of RoCE), so that the most
     * loaded link direction carries as few sends as the fabric allows.
     *
     * The search is PathPlacement's: greedy in the given order (earlier
     * jobs choose first, against the sends already placed), then single
     * moves, ejection chains and a bounded search for paths within every
     * link's capacity. A send's load on a link is its NIC rate over the
     * link's rate.
     * Candidate paths come from PathCandidates source ports per connection;
     * the port the job has is kept on ties. Call it before the run (the queue
     * pairs must be idle); it updates what Conflict() knows.
     *
     * \param order job indices, first chooser first (jobs left out keep their paths)
     * \return the number of connections moved
     */
    uint32_t PlacePaths(const std::vector<uint32_t>& order);

    /// A job's sends over one link direction.
    struct LinkLoad
    {
        uint32_t link;  //!< the link direction
        uint32_t sends; //!< the job's sends crossing it
        double bps;     //!< its rate, bit/s
    };

    /**
     * \param job a job index
     * \return its sends per link direction on its paths now, by link
     */
    const std::vector<LinkLoad>& GetLinkLoads(uint32_t job) const;

    /**
     * \brief Count something the policy does that Counters has no field for
     * (the results' scheduler.counters). Not for every packet: a map
     * lookup. Under MPI the results take process 0's counts: count what
     * every process decides alike.
     * \param name the counter ("skipped_turns")
     * \param by how much to add
     */
    void CountPolicy(const std::string& name, uint64_t by = 1);

    Counters m_counters;         //!< what the scheduler did
    std::vector<JobInfo> m_jobs; //!< the jobs, by index

  private:
    std::map<std::string, uint64_t> m_policyCounters; //!< CountPolicy()'s counts

    /**
     * \param a a job index
     * \param b another
     * \return true when both at their rates alone overload a shared link
     */
    bool Overload(std::size_t a, std::size_t b) const;

    /**
     * \brief Compute a job's link loads and bottleneck rate from its rankLinks,
     * and its conflicts with the other jobs added so far.
     * \param job the job index
     */
    void UpdateLinks(std::size_t job);

    std::vector<std::vector<LinkLoad>> m_links;            //!< per job: its link loads, by link
    std::vector<std::vector<Ptr<RdmaQueuePair>>> m_jobQps; //!< per job: every collective's QPs
    uint32_t m_classes;                                    //!< classes the policy may use
    bool m_backgroundFirst;                                //!< jobs strictly below the background
    uint8_t m_reserved;                                    //!< classes of other traffic
    std::vector<uint8_t> m_jobClasses;                     //!< the jobs' classes, precedence first
    std::vector<uint8_t> m_currentClass;                   //!< per job: its class now
    std::vector<std::vector<bool>> m_conflict; //!< per job pair: a shared link direction
    std::vector<std::vector<ClassChange>> m_classTimeline; //!< per job: its class changes
    PathFunction m_paths;                                  //!< the fabric's paths (may be empty)
    std::vector<double> m_linkBps;                         //!< per link direction: rate, bit/s
    uint32_t m_pathCandidates;                             //!< source ports tried per connection
};

} // namespace ns3

/**
 * \ingroup flux-scheduler
 * \brief Register a scheduling policy, in the .cc file of its class
 * (inside namespace ns3): FLUX_REGISTER_POLICY("fifo", FifoScheduler, 0);
 * see JobScheduler::RegisterPolicy(). The class needs a TypeId with a
 * constructor; its attributes become scenario keys under "scheduler".
 * \param name the policy's name
 * \param type the class (derived from JobScheduler)
 * \param rank its place in JobScheduler::GetPolicies()
 */
#define FLUX_REGISTER_POLICY(name, type, rank)                                                     \
    static_assert(std::is_base_of<::ns3::JobScheduler, type>::value,                               \
                  "FLUX_REGISTER_POLICY: " #type " does not derive from JobScheduler");            \
    static const bool g_fluxPolicyRegistered##type [[maybe_unused]] =                              \
        ::ns3::JobScheduler::RegisterPolicy(name, &type::GetTypeId, rank)

#endif /* JOB_SCHEDULER_H */
