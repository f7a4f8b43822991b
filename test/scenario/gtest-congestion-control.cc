/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Congestion controls against their formulas, one signal at a time
 * (TIMELY: an RTT above T_high, below T_low, a rising RTT, hyperactive
 * increase; DCTCP: one marked ACK; Swift: an RTT above and below its target,
 * pacing below one packet), the signals the NIC delivers to OnAck, and a
 * congestion control defined in this file alone: listed, configurable from
 * the scenario (transport.reno-test) and run. The class is the example of
 * doc/congestion-control.rst ("Adding an algorithm").
 */

#include "ns3/dcqcn.h"
#include "ns3/dctcp.h"
#include "ns3/double.h"
#include "ns3/rdma-congestion-control.h"
#include "ns3/scenario-cc-keys.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-json.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/swift.h"
#include "ns3/timely.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

namespace ns3
{

/// What the NIC delivered to the test algorithm, over all its queue pairs.
struct RenoTestLog
{
    uint64_t acks{0};       //!< OnAck calls
    uint64_t ackedBytes{0}; //!< sum of AckEvent::ackedBytes
    uint64_t eces{0};       //!< ACKs with ECN-echo
    uint64_t timed{0};      //!< ACKs with an RTT
    double minRttUs{1e9};   //!< smallest RTT, us
    uint8_t maxHops{0};     //!< most switches crossed
    uint64_t sent{0};       //!< OnSent calls
    uint64_t cuts{0};       //!< window cuts
};

/// The log of the test algorithm (one run at a time).
RenoTestLog g_renoLog;

// --- the example of doc/congestion-control.rst: begin ---
/// Window AIMD on ECN-echo: +1 MTU per window of ACKs, x Decrease once per window on marks.
class RenoTestCongestionControl : public RdmaCongestionControl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::RenoTestCongestionControl")
                .SetParent<RdmaCongestionControl>()
                .AddConstructor<RenoTestCongestionControl>()
                .AddAttribute("Decrease",
                              "Factor of the window on a marked window.",
                              DoubleValue(0.5),
                              MakeDoubleAccessor(&RenoTestCongestionControl::m_decrease),
                              MakeDoubleChecker<double>(0.01, 1))
                .AddAttribute("InitialWindow",
                              "Window at start, bytes.",
                              UintegerValue(65536),
                              MakeUintegerAccessor(&RenoTestCongestionControl::m_initial),
                              MakeUintegerChecker<uint64_t>(4096, 1 << 24));
        return tid;
    }

    bool UsesRtt() const override
    {
        return true;
    } // AckEvent::rtt wanted

    void Init(DataRate lineRate) override
    {
        RdmaCongestionControl::Init(lineRate);
        m_window = m_initial;
    }

    void OnAck(const AckEvent& ack) override
    {
        Log(ack);
        m_marked = m_marked || ack.ece;
        if (ack.nextPsn <= m_windowEnd)
        {
            return; // once per window of data
        }
        m_windowEnd = ack.sndNxt;
        m_window = m_marked ? std::max<uint64_t>(m_window * m_decrease, m_mtu) : m_window + m_mtu;
        m_marked = false;
    }

    void OnSent(uint32_t /* bytes */) override
    {
        ++g_renoLog.sent;
    }

  private:
    void Log(const AckEvent& ack); // the test's record, not part of the example

    double m_decrease;
    uint64_t m_initial;
    uint64_t m_windowEnd{0};
    bool m_marked{false};
};

FLUX_REGISTER_CC("reno-test", RenoTestCongestionControl, RdmaCongestionControl::CC_RANK_OTHER);

// --- the example of doc/congestion-control.rst: end ---

void
RenoTestCongestionControl::Log(const AckEvent& ack)
{
    ++g_renoLog.acks;
    g_renoLog.ackedBytes += ack.ackedBytes;
    g_renoLog.eces += ack.ece ? 1 : 0;
    if (!ack.rtt.IsNegative())
    {
        ++g_renoLog.timed;
        g_renoLog.minRttUs = std::min(g_renoLog.minRttUs, ack.rtt.GetMicroSeconds() * 1.0);
    }
    g_renoLog.maxHops = std::max(g_renoLog.maxHops, ack.hops);
    if (ack.nextPsn > m_windowEnd && (m_marked || ack.ece))
    {
        ++g_renoLog.cuts;
    }
}

} // namespace ns3

using namespace ns3;
using json = nlohmann::json;

namespace
{

/// An ACK of bytes newly acknowledged, with an RTT (negative: none) and ECN-echo.
RdmaCongestionControl::AckEvent
Ack(uint64_t nextPsn, uint64_t sndNxt, uint64_t bytes, Time rtt, bool ece = false, uint8_t hops = 1)
{
    RdmaCongestionControl::AckEvent a{};
    a.nextPsn = nextPsn;
    a.sndNxt = sndNxt;
    a.ackedBytes = bytes;
    a.inFlightBytes = 0;
    a.rtt = rtt;
    a.intHeader = nullptr;
    a.hops = hops;
    a.nak = false;
    a.ece = ece;
    return a;
}

/// \return an algorithm at 100 Gb/s with 4 KB packets, initialised
template <typename T>
Ptr<T>
Make100G(std::initializer_list<std::pair<std::string, std::string>> attributes = {})
{
    ObjectFactory f;
    f.SetTypeId(T::GetTypeId());
    for (const auto& [name, value] : attributes)
    {
        f.Set(name, StringValue(value));
    }
    Ptr<T> cc = f.Create<T>();
    cc->SetMtu(4096);
    cc->Init(DataRate("100Gb/s"));
    return cc;
}

/// \return the error message of parsing s ("" when it parses)
std::string
ParseError(const json& s)
{
    try
    {
        ParseScenario(s, ".");
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// \return an N:1 incast of long flows on one 100 Gb/s switch under cc
json
Incast(const std::string& cc, uint32_t n, uint64_t bytes)
{
    json s = json::parse(R"({"seed": 1, "stop_ms": 200,
      "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 3},
      "background": [{"name": "incast", "pattern": "incast", "receiver": 0,
                      "senders": [1, 2], "bytes": 1000000}]})");
    s["topology"]["hosts_per_leaf"] = n + 1;
    std::vector<uint32_t> senders;
    for (uint32_t i = 1; i <= n; ++i)
    {
        senders.push_back(i);
    }
    s["background"][0]["senders"] = senders;
    s["background"][0]["bytes"] = bytes;
    s["transport"]["cc"] = cc;
    return s;
}

} // namespace

// ---------------------------------------------------------------------------
// TIMELY: R += delta below T_low; R *= 1 - beta (1 - T_high / rtt) above
// T_high; R *= 1 - beta g for a rising RTT; N delta after N falling samples.
// ---------------------------------------------------------------------------

TEST(Timely, OneRttAboveTHighCutsByItsFormula)
{
    Ptr<TimelyCongestionControl> cc = Make100G<TimelyCongestionControl>();
    cc->Update(MicroSeconds(100)); // the first sample only sets the reference
    EXPECT_DOUBLE_EQ(cc->GetRateBps(), 100e9);
    cc->Update(MicroSeconds(600));
    EXPECT_NEAR(cc->GetRateBps(), 100e9 * (1 - 0.8 * (1 - 500.0 / 600)), 1);
}

TEST(Timely, RttBelowTLowAddsDelta)
{
    Ptr<TimelyCongestionControl> cc = Make100G<TimelyCongestionControl>({{"MinRate", "1Gb/s"}});
    cc->Update(MicroSeconds(600));
    cc->Update(MicroSeconds(600)); // 0.8 x (1 - 5/6): R = 86.67 Gb/s
    const double r = cc->GetRateBps();
    cc->Update(MicroSeconds(30)); // below T_low: + delta, 100 Mb/s at 100 Gb/s
    EXPECT_NEAR(cc->GetRateBps(), r + 100e6, 1);
}

TEST(Timely, RisingRttCutsByTheNormalisedGradient)
{
    Ptr<TimelyCongestionControl> cc = Make100G<TimelyCongestionControl>();
    cc->Update(MicroSeconds(100));
    cc->Update(MicroSeconds(104)); // diff 4 us: EWMA 0.875 x 4 = 3.5 us, g = 3.5 / 20
    const double g = 0.875 * 4.0 / 20;
    EXPECT_NEAR(cc->GetGradient(), g, 1e-9);
    EXPECT_NEAR(cc->GetRateBps(), 100e9 * (1 - 0.8 * g), 1);
}

TEST(Timely, FiveFallingSamplesIncreaseByFiveDelta)
{
    Ptr<TimelyCongestionControl> cc = Make100G<TimelyCongestionControl>();
    cc->Update(MicroSeconds(600));
    cc->Update(MicroSeconds(600)); // a cut above T_high, so that increases are visible
    double r = cc->GetRateBps();
    for (int i = 1; i <= 5; ++i)
    {
        cc->Update(MicroSeconds(451 - i)); // falling: gradient < 0
        const double step = i < 5 ? 100e6 : 500e6;
        EXPECT_NEAR(cc->GetRateBps(), r + step, 1) << "sample " << i;
        r = cc->GetRateBps();
    }
}

TEST(Timely, OneSamplePerRttByDefault)
{
    Ptr<TimelyCongestionControl> cc = Make100G<TimelyCongestionControl>();
    cc->OnAck(Ack(1, 20, 4096, MicroSeconds(100))); // the first sample; next after PSN 20
    for (uint64_t psn = 2; psn <= 20; ++psn)
    {
        cc->OnAck(Ack(psn, 40, 4096, MicroSeconds(700))); // within the RTT: ignored
    }
    EXPECT_DOUBLE_EQ(cc->GetRateBps(), 100e9);
    cc->OnAck(Ack(21, 40, 4096, MicroSeconds(700)));
    EXPECT_NEAR(cc->GetRateBps(), 100e9 * (1 - 0.8 * (1 - 5.0 / 7)), 1);
}

TEST(Timely, SamplesArePerSegmentOfAcknowledgedBytes)
{
    Ptr<TimelyCongestionControl> cc =
        Make100G<TimelyCongestionControl>({{"SegmentBytes", "65536"}});
    // 64 KB per sample: 15 ACKs of 4 KB say nothing, the 16th is a sample
    for (int i = 0; i < 16; ++i)
    {
        cc->OnAck(Ack(i + 1, 100, 4096, MicroSeconds(100)));
    }
    for (int i = 0; i < 16; ++i)
    {
        cc->OnAck(Ack(i + 17, 100, 4096, MicroSeconds(700)));
        EXPECT_DOUBLE_EQ(cc->GetRateBps(), i < 15 ? 100e9 : 100e9 * (1 - 0.8 * (1 - 5.0 / 7)));
    }
}

// ---------------------------------------------------------------------------
// DCQCN with a window (DCQCN+w): bytes in flight at most Window, or with
// VariableWindow Window x Rc / line rate.
// ---------------------------------------------------------------------------

TEST(Dcqcn, TheWindowFollowsTheRate)
{
    Ptr<DcqcnCongestionControl> cc = Make100G<DcqcnCongestionControl>({{"Window", "150000"}});
    EXPECT_EQ(cc->GetWindowBytes(), 150000u); // at line rate, the whole window
    cc->OnCnp();                              // alpha 1: the rate halves
    EXPECT_DOUBLE_EQ(cc->GetRateBps(), 50e9);
    EXPECT_EQ(cc->GetWindowBytes(), 75000u);
    Simulator::Destroy();
}

TEST(Dcqcn, AFixedWindowOrNone)
{
    Ptr<DcqcnCongestionControl> fixed =
        Make100G<DcqcnCongestionControl>({{"Window", "150000"}, {"VariableWindow", "false"}});
    fixed->OnCnp();
    EXPECT_DOUBLE_EQ(fixed->GetRateBps(), 50e9);
    EXPECT_EQ(fixed->GetWindowBytes(), 150000u);
    Ptr<DcqcnCongestionControl> none = Make100G<DcqcnCongestionControl>({});
    none->OnCnp();
    EXPECT_EQ(none->GetWindowBytes(), 0u); // rate only, as DCQCN is specified
    Simulator::Destroy();
}

// ---------------------------------------------------------------------------
// DCTCP: once per window, alpha <- (1 - g) alpha + g F and W <- W (1 - alpha/2)
// when marked, W + 1 MTU otherwise; paced at W / BaseRtt.
// ---------------------------------------------------------------------------

TEST(Dctcp, OneMarkedAckCutsTheWindowByHalfAlpha)
{
    Ptr<DctcpCongestionControl> cc =
        Make100G<DctcpCongestionControl>({{"BaseRtt", "10us"}, {"InitialAlpha", "0"}});
    const double w0 = 100e9 * 10e-6 / 8; // one BDP, 125 000 bytes
    EXPECT_NEAR(cc->GetWindow(), w0, 1e-6);
    cc->OnAck(Ack(1, 30, 4096, Time(-1))); // opens the first window (up to PSN 30)
    cc->OnAck(Ack(20, 30, 4096 * 19, Time(-1)));
    cc->OnAck(Ack(31, 40, 4096 * 11, Time(-1), true)); // one marked ACK ends it
    // F = marked / acked in the window (the opening ACK's packet included) = 11 / 31
    const double alpha = 1.0 / 16 * (11.0 / 31);
    EXPECT_NEAR(cc->GetAlpha(), alpha, 1e-12);
    EXPECT_NEAR(cc->GetWindow(), w0 * (1 - alpha / 2), 1e-6);
    EXPECT_NEAR(cc->GetRateBps(), cc->GetWindow() * 8 / 10e-6, 1e-3);
    EXPECT_EQ(cc->GetWindowBytes(), static_cast<uint64_t>(cc->GetWindow()));
}

TEST(Dctcp, AnUnmarkedWindowAddsOneMtuAndDecaysAlpha)
{
    Ptr<DctcpCongestionControl> cc = Make100G<DctcpCongestionControl>({{"BaseRtt", "10us"}});
    cc->OnAck(Ack(1, 10, 4096, Time(-1)));
    cc->OnAck(Ack(11, 20, 4096 * 10, Time(-1), true)); // marked: alpha = 1 - g + g F, W cut
    const double alpha1 = (1 - 1.0 / 16) * 1 + 1.0 / 16 * (10.0 / 11);
    EXPECT_NEAR(cc->GetAlpha(), alpha1, 1e-12);
    const double w1 = cc->GetWindow();
    EXPECT_NEAR(w1, 125000 * (1 - alpha1 / 2), 1e-6);
    cc->OnAck(Ack(21, 30, 4096 * 10, Time(-1))); // unmarked window
    EXPECT_NEAR(cc->GetAlpha(), (1 - 1.0 / 16) * alpha1, 1e-12);
    EXPECT_NEAR(cc->GetWindow(), w1 + 4096, 1e-6);
    // an ACK inside the window changes nothing
    cc->OnAck(Ack(25, 40, 4096 * 4, Time(-1), true));
    EXPECT_NEAR(cc->GetWindow(), w1 + 4096, 1e-6);
}

// ---------------------------------------------------------------------------
// Swift: target = base + hops h + fs(cwnd); below it cwnd += ai / cwnd per
// packet acknowledged; above it cwnd *= max(1 - beta (d - t) / d, 1 - max_mdf)
// once per RTT; below one packet, one packet paced per rtt / cwnd.
// ---------------------------------------------------------------------------

TEST(Swift, TargetScalesWithHopsAndFlows)
{
    Ptr<SwiftCongestionControl> cc = Make100G<SwiftCongestionControl>({{"MaxCwnd", "100"}});
    // cwnd 100 = fs_max_cwnd: no flow scaling; 20 us + 2 x 20 / 6.55 us
    EXPECT_NEAR(cc->GetTargetDelay(2).GetSeconds(), 20e-6 + 2 * 20e-6 / 6.55, 1e-9);
    Ptr<SwiftCongestionControl> small = Make100G<SwiftCongestionControl>({{"MaxCwnd", "0.1"}});
    // cwnd 0.1 = fs_min_cwnd: the whole range, 5 x 20 us
    EXPECT_NEAR(small->GetTargetDelay(0).GetSeconds(), 20e-6 + 100e-6, 1e-9);
}

TEST(Swift, OneRttAboveTargetCutsOnce)
{
    Ptr<SwiftCongestionControl> cc = Make100G<SwiftCongestionControl>({{"MaxCwnd", "100"}});
    const double t = cc->GetTargetDelay(1).GetSeconds();
    const double rtt = t * 1.25;
    cc->OnAck(Ack(1, 10, 4096, Seconds(rtt)));
    const double cut = std::max(1 - 0.8 * (rtt - t) / rtt, 0.5);
    // (the target in ns, as GetTargetDelay gives it: within 1e-3 packets)
    EXPECT_NEAR(cc->GetCwnd(), 100 * cut, 1e-3);
    EXPECT_NEAR(cc->GetWindowBytes(), 100 * cut * 4096, 8);
    // a second one in the same RTT (no simulated time passed) does not cut again
    const double once = cc->GetCwnd();
    cc->OnAck(Ack(2, 10, 4096, Seconds(rtt)));
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), once);
    // a large excess cuts by max_mdf at most
    Ptr<SwiftCongestionControl> far = Make100G<SwiftCongestionControl>({{"MaxCwnd", "100"}});
    far->OnAck(Ack(1, 10, 4096, MilliSeconds(1)));
    EXPECT_NEAR(far->GetCwnd(), 50, 1e-9);
}

TEST(Swift, RttBelowTargetAddsAiPerWindow)
{
    Ptr<SwiftCongestionControl> cc = Make100G<SwiftCongestionControl>({{"MaxCwnd", "1000"}});
    Ptr<SwiftCongestionControl> capped = Make100G<SwiftCongestionControl>({{"MaxCwnd", "100"}});
    // at the cap nothing grows; below it, one ACK of 2 packets adds 2 ai / cwnd
    capped->OnAck(Ack(1, 10, 8192, MicroSeconds(5)));
    EXPECT_DOUBLE_EQ(capped->GetCwnd(), 100);
    cc->OnAck(Ack(1, 10, 4096, MilliSeconds(10))); // cut to 500
    cc->OnAck(Ack(2, 10, 8192, MicroSeconds(5)));
    EXPECT_NEAR(cc->GetCwnd(), 500 + 2.0 / 500, 1e-9);
}

TEST(Swift, BelowOnePacketPacesOnePacketPerRttOverCwnd)
{
    Ptr<SwiftCongestionControl> cc =
        Make100G<SwiftCongestionControl>({{"MaxCwnd", "0.5"}, {"MinCwnd", "0.001"}});
    cc->OnAck(Ack(1, 2, 4096, MicroSeconds(5))); // below target: + ai x 1 packet, capped at 0.5
    EXPECT_DOUBLE_EQ(cc->GetCwnd(), 0.5);
    EXPECT_EQ(cc->GetWindowBytes(), 4096u); // one packet in flight
    EXPECT_NEAR(cc->GetRateBps(), 0.5 * 4096 * 8 / 5e-6, 1e-3);
}

// ---------------------------------------------------------------------------
// A congestion control defined in this file alone is listed, has scenario
// keys checked against its TypeId, runs, and receives every signal.
// ---------------------------------------------------------------------------

TEST(CongestionControlRegistry, ListsTheShippedAndATestFileAlgorithm)
{
    const auto& all = RdmaCongestionControl::GetAlgorithms();
    std::vector<std::string> names;
    for (const auto& entry : all)
    {
        names.push_back(entry.first);
    }
    ASSERT_GE(names.size(), 7u);
    EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 3),
              (std::vector<std::string>{"dcqcn", "hpcc", "none"}));
    EXPECT_TRUE(std::is_sorted(names.begin() + 3, names.end()));
    for (const char* n : {"dctcp", "swift", "timely", "reno-test"})
    {
        EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    }
    EXPECT_EQ(RdmaCongestionControl::GetAlgorithmTypeName("reno-test"),
              "ns3::RenoTestCongestionControl");
    EXPECT_EQ(RdmaCongestionControl::GetAlgorithmTypeName("timely"),
              "ns3::TimelyCongestionControl");
    EXPECT_EQ(RdmaCongestionControl::GetAlgorithmTypeName("magic"), "");
}

TEST(CongestionControlRegistry, AttributesAreTransportKeys)
{
    const auto keys = scenario::GetCcKeys("reno-test");
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0].key, "decrease");
    EXPECT_EQ(keys[0].type, "number");
    EXPECT_EQ(keys[0].range, "[0.01, 1]");
    EXPECT_EQ(keys[1].key, "initial_window");
    const auto timely = scenario::GetCcKeys("timely");
    auto has = [&](const std::string& k) {
        return std::any_of(timely.begin(), timely.end(), [&](const auto& x) { return x.key == k; });
    };
    EXPECT_TRUE(has("t_low_us") && has("t_high_us") && has("additive_increase_mbps") &&
                has("hai_threshold") && has("beta"));
    EXPECT_TRUE(scenario::GetCcKeys("dcqcn").empty()); // its own keys (profiles)

    json s = Incast("reno-test", 2, 1000000);
    s["transport"]["reno-test"] = {{"decrease", 0.8}, {"initial_window", 131072}};
    const ScenarioConfig cfg = ParseScenario(s, ".");
    ASSERT_EQ(cfg.transport.ccSettings.size(), 2u);
    EXPECT_EQ(cfg.transport.ccSettings[0].attribute, "ns3::RenoTestCongestionControl::Decrease");
    EXPECT_EQ(cfg.transport.ccSettings[1].value, "131072");

    // unknown key, wrong type, out of range: one message naming the field
    s["transport"]["reno-test"] = {{"decreas", 0.8}};
    EXPECT_EQ(ParseError(s),
              "transport.reno-test.decreas: unknown key (did you mean \"decrease\"?)");
    // a time key without its unit: the usual unit, not the nearest spelling
    json lowKey = Incast("timely", 2, 1000000);
    lowKey["transport"]["timely"] = {{"t_low", 40}};
    EXPECT_EQ(ParseError(lowKey),
              "transport.timely.t_low: unknown key (did you mean \"t_low_us\"?)");
    // hpcc on a rate its telemetry cannot code names that rate's key
    json h = Incast("hpcc", 2, 1000000);
    h["topology"]["host_gbps"] = 37;
    EXPECT_EQ(ParseError(h),
              "transport.cc: \"hpcc\" needs link rates its telemetry can code (10, 25, 40, 50, "
              "100, 200, 400 or 800 Gb/s), and topology.host_gbps is 37");
    s["transport"]["reno-test"] = {{"decrease", "half"}};
    EXPECT_EQ(ParseError(s), "transport.reno-test.decrease: expected a number, got \"half\"");
    s["transport"]["reno-test"] = {{"decrease", 2}};
    EXPECT_EQ(ParseError(s), "transport.reno-test.decrease: must be in [0.01, 1], got 2");
    s["transport"]["reno-test"] = {{"initial_window", 1}};
    EXPECT_EQ(ParseError(s), "transport.reno-test.initial_window: must be at least 4096, got 1");
    // units: times and rates
    json t = Incast("timely", 2, 1000000);
    t["transport"]["timely"] = {{"t_low_ms", 0.04}, {"additive_increase_gbps", 0.2}};
    const ScenarioConfig tc = ParseScenario(t, "."); // keys in name order
    ASSERT_EQ(tc.transport.ccSettings.size(), 2u);
    EXPECT_EQ(tc.transport.ccSettings[0].attribute,
              "ns3::TimelyCongestionControl::AdditiveIncrease");
    EXPECT_EQ(tc.transport.ccSettings[0].value, "200000000bps");
    EXPECT_EQ(tc.transport.ccSettings[1].value, "40000ns");
    t["transport"]["timely"] = {{"beta", -1}};
    EXPECT_EQ(ParseError(t), "transport.timely.beta: must be in [0, 1], got -1");
    // keys of another algorithm: checked, then left out
    t["transport"]["timely"] = {{"beta", 0.5}};
    t["transport"]["cc"] = "dcqcn";
    EXPECT_TRUE(ParseScenario(t, ".").transport.ccSettings.empty());
}

TEST(CongestionControlRegistry, ATestFileAlgorithmRunsAndReceivesEverySignal)
{
    g_renoLog = RenoTestLog{};
    json s = Incast("reno-test", 4, 2000000);
    s["transport"]["reno-test"] = {{"initial_window", 1 << 20}}; // overloads the port: marks
    ScenarioConfig cfg = ParseScenario(s, ".");
    RunOptions opts;
    opts.quiet = true;
    const RunResults r = RunScenario(cfg, opts);
    ASSERT_EQ(r.flows.size(), 4u);
    EXPECT_GT(g_renoLog.acks, 0u);
    // payload bytes acknowledged once each (the last ACKs of a flow may find
    // its queue pair closed by the flow's end at the receiver)
    EXPECT_LE(g_renoLog.ackedBytes, 4u * 2000000);
    EXPECT_GE(g_renoLog.ackedBytes, 0.99 * 4 * 2000000);
    // every ACK timed, no RTT below the unloaded one (2 hops of 1 us each way)
    EXPECT_EQ(g_renoLog.timed, g_renoLog.acks);
    EXPECT_GT(g_renoLog.minRttUs, 4.0);
    EXPECT_EQ(g_renoLog.maxHops, 1); // one switch
    EXPECT_GT(r.network.ecnMarks, 0u);
    EXPECT_GT(g_renoLog.eces, 0u); // marks echoed
    EXPECT_GT(g_renoLog.cuts, 0u);
    EXPECT_GE(g_renoLog.sent, 4u * 2000000 / 4096);
}
