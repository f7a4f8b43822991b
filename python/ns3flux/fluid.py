"""The DCQCN fluid model (Zhu et al., "ECN or Delay: Lessons Learnt from
Analysis of DCQCN and TIMELY", CoNEXT 2016), for N flows sharing one
bottleneck: its fixed point (the queue the flows settle around) and its
trajectories (how long a joining flow takes to reach its fair share).

    from ns3flux import fluid
    p = fluid.params("hpcc-sim", link_gbps=100)
    fp = fluid.fixed_point(n=4, params=p)            # fp["queue_kb"], fp["alpha"], ...
    tr = fluid.trajectory(n=4, params=p, join_us=0)  # tr["convergence_us"]

The model follows the paper's equations for the reaction point (rate
cut at most once per cut interval tau when a CNP arrived in it, alpha
updated every tau', recovery by the timer T and the byte counter B, F
fast-recovery stages before additive increase), with one addition: timer
steps past F + 1 without a mark increase the target by R_HAI (hyper
increase; the paper leaves it out, but without a byte counter it is most
of the recovery), with the RED marking of the switch and a queue fed by the N
flows. Rates are in packets per second of the wire packet size. Parameters
come from the same profiles as the simulator's (transport.dcqcn).
"""

import math

import numpy as np

from . import _ns3flux


def wire(payload):
    """Wire bytes of one RoCEv2 SEND packet of `payload` bytes: headers,
    ICRC, FCS, preamble and gap, sized as the model's (traffic-class.h)."""
    w = _ns3flux.wire_bytes()
    return payload + sum(w[k] for k in ("l2", "ip_udp", "bth", "icrc", "fcs", "preamble_ifg"))


# Wire bytes of one 4096-byte RoCEv2 packet (payload, headers, preamble, IFG).
WIRE_4K = wire(4096)

# The profiles of model/rdma/dcqcn-profile.cc, in the units used here.
PROFILES = {
    "hpcc-sim": dict(g=1 / 256, alpha_interval_us=1, decrease_interval_us=4,
                     increase_interval_us=300, byte_counter=0, fast_recovery=1, ai_mbps=5,
                     hai_mbps=50, cnp_interval_us=0, kmin_kb=100, kmax_kb=400, pmax=0.2,
                     scale_steps=True, scale_marking=True),
    "nvidia": dict(g=5 / 1024, alpha_interval_us=1, decrease_interval_us=4,
                   increase_interval_us=300, byte_counter=32767, fast_recovery=1, ai_mbps=5,
                   hai_mbps=50, cnp_interval_us=4, kmin_kb=100, kmax_kb=400, pmax=0.2,
                   scale_steps=False, scale_marking=True),
    "paper": dict(g=1 / 256, alpha_interval_us=55, decrease_interval_us=50,
                  increase_interval_us=55, byte_counter=10_000_000, fast_recovery=5, ai_mbps=40,
                  hai_mbps=100, cnp_interval_us=50, kmin_kb=5, kmax_kb=200, pmax=0.01,
                  scale_steps=False, scale_marking=False),
}


def params(profile="hpcc-sim", link_gbps=100.0, **overrides):
    """The model's parameters for a profile at a link rate (SI units inside:
    seconds, bits per second, bytes), with overrides in the profile's units."""
    if profile not in PROFILES:
        raise ValueError(f"profile: {profile!r} is not one of {', '.join(sorted(PROFILES))}")
    p = dict(PROFILES[profile])
    unknown = sorted(set(overrides) - set(p))
    if unknown:
        raise TypeError(f"params: unknown override {unknown[0]!r} (the profile's keys: "
                        f"{', '.join(sorted(p))})")
    p.update(overrides)
    steps = link_gbps / 25 if p["scale_steps"] else 1.0
    marking = link_gbps / 25 if p["scale_marking"] else 1.0
    return {
        "link_bps": link_gbps * 1e9,
        "g": p["g"],
        # tau: a cut happens at most once per decrease interval, and only
        # when a CNP came in it (CNPs themselves spaced by the NP interval)
        "tau": max(p["decrease_interval_us"], p["cnp_interval_us"]) * 1e-6,
        "tau_alpha": p["alpha_interval_us"] * 1e-6,
        "timer": p["increase_interval_us"] * 1e-6,
        "byte_counter": p["byte_counter"],
        "f": p["fast_recovery"],
        "ai_bps": p["ai_mbps"] * 1e6 * steps,
        "hai_bps": p["hai_mbps"] * 1e6 * steps,
        "kmin": p["kmin_kb"] * 1e3 * marking,
        "kmax": p["kmax_kb"] * 1e3 * marking,
        "pmax": p["pmax"],
    }


def _marking(q, prm):
    """RED marking probability at queue q (bytes)."""
    if q <= prm["kmin"]:
        return 0.0
    if q >= prm["kmax"]:
        return 1.0
    return prm["pmax"] * (q - prm["kmin"]) / (prm["kmax"] - prm["kmin"])


def _events(rc, p, x):
    """Recovery events per second of a counter that expires after x packets
    without a mark: rc p / ((1 - p)^-x - 1), computed without overflow."""
    if x <= 0:
        return 0.0
    return rc * p / math.expm1(min(700.0, -x * math.log1p(-p)))


def _rates(rc, rt, alpha, p, prm, pkt):
    """dRC/dt and dRT/dt (packets/s^2) of one flow, the paper's eq. (2)-(3)."""
    tau, timer, f = prm["tau"], prm["timer"], prm["f"]
    ai = prm["ai_bps"] / (8 * pkt)
    hai = prm["hai_bps"] / (8 * pkt)
    p = min(max(p, 1e-12), 1 - 1e-12)
    one = 1 - p
    cut = 1 - one ** (tau * rc)  # a CNP arrived within tau
    # recovery events per second: the timer (every T without a mark) and
    # the byte counter (every B bytes without a mark)
    timer_ev = _events(rc, p, timer * rc)
    b = prm["byte_counter"] / pkt if prm["byte_counter"] else 0.0
    byte_ev = _events(rc, p, b)
    # additive increase past F stages, hyper increase past F + 1 (of the
    # timer; the byte counter, when there is one, must be past F as well)
    ai_timer = timer_ev * one ** (f * timer * rc)
    ai_byte = byte_ev * one ** (f * b) if b > 0 else 0.0
    hyper = timer_ev * one ** ((f + 1) * timer * rc) * (one ** (f * b) if b > 0 else 1.0)
    drt = -(rt - rc) / tau * cut + ai * (ai_timer + ai_byte - hyper) + hai * hyper
    drc = -rc * alpha / (2 * tau) * cut + (rt - rc) / 2 * (timer_ev + byte_ev)
    return drc, drt


def fixed_point(n, prm, pkt=WIRE_4K):
    """The fixed point of n flows on one bottleneck of the link rate:
    every flow at C/n, alpha, the marking probability and the queue.

    Returns a dict: rate_gbps, alpha, p, queue_kb (None when the marking
    cannot hold the flows, i.e. the queue would sit above kmax)."""
    c = prm["link_bps"] / (8 * pkt)
    rc = c / n
    ta = prm["tau_alpha"]

    def residual(p):
        # dRT/dt = 0 gives RT - RC; dRC/dt at that RT is the residual
        alpha = 1 - (1 - p) ** (ta * rc)
        pm = min(max(p, 1e-12), 1 - 1e-12)
        cut = 1 - (1 - pm) ** (prm["tau"] * rc)
        drc0, inc = _rates(rc, rc, alpha, p, prm, pkt)
        per_gap = 2 * (_rates(rc, rc + 1.0, alpha, p, prm, pkt)[0] - drc0)
        gap = inc * prm["tau"] / cut
        return drc0 + gap / 2 * per_gap

    lo, hi = 1e-9, prm["pmax"]
    if residual(hi) > 0:
        return {"rate_gbps": rc * 8 * pkt / 1e9, "alpha": None, "p": None, "queue_kb": None}
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if residual(mid) > 0:
            lo = mid
        else:
            hi = mid
    p = math.sqrt(lo * hi)
    q = prm["kmin"] + p / prm["pmax"] * (prm["kmax"] - prm["kmin"])
    return {"rate_gbps": rc * 8 * pkt / 1e9, "alpha": 1 - (1 - p) ** (ta * rc), "p": p,
            "queue_kb": q / 1e3}


def trajectory(n, prm, join_us=0.0, duration_us=20000.0, dt_us=0.5, delay_us=4.0,
               pkt=WIRE_4K, tolerance=0.1):
    """Integrate the model: n - 1 flows share the bottleneck from time 0 at
    line rate, the n-th joins at join_us at line rate. The feedback reaches
    the senders delay_us late.

    Returns a dict with time_us, rates_gbps (time x flow), queue_kb, and
    convergence_us: the time from the join until every flow stays within
    tolerance of the fair share to the end (None if never)."""
    c = prm["link_bps"] / (8 * pkt)
    steps = int(duration_us / dt_us)
    dt = dt_us * 1e-6
    lag = max(1, int(delay_us / dt_us))
    rc = np.full(n, c)
    rt = np.full(n, c)
    alpha = np.ones(n)
    marked = np.zeros(n, dtype=bool)  # the flow has seen a mark (alpha starts at 1 then)
    active = np.zeros(n, dtype=bool)
    active[: n - 1] = True
    if join_us <= 0:
        active[:] = True
    q = 0.0
    p_hist = [0.0] * lag
    times, rates, queue = [], [], []
    for k in range(steps):
        t_us = k * dt_us
        if not active[-1] and t_us >= join_us:
            active[-1] = True
        p = p_hist[k % lag]  # marking seen delay_us ago
        for i in range(n):
            if not active[i]:
                continue
            if p > 0 and not marked[i]:
                marked[i] = True
                alpha[i] = 1.0  # the first CNP
            drc, drt = _rates(rc[i], rt[i], alpha[i], p, prm, pkt)
            pm = min(max(p, 1e-12), 1 - 1e-12)
            dalpha = prm["g"] / prm["tau_alpha"] * ((1 - (1 - pm) ** (prm["tau_alpha"] * rc[i])) - alpha[i])
            rc[i] = min(c, max(1e-3 * c, rc[i] + drc * dt))
            rt[i] = min(c, max(rc[i], rt[i] + drt * dt))
            alpha[i] = min(1.0, max(0.0, alpha[i] + dalpha * dt))
        q = max(0.0, q + (rc[active].sum() - c) * dt * pkt)
        p_hist[k % lag] = _marking(q, prm)
        times.append(t_us)
        rates.append(np.where(active, rc * 8 * pkt / 1e9, np.nan))
        queue.append(q / 1e3)
    rates = np.array(rates)
    fair = prm["link_bps"] / 1e9 / n
    ok = np.all(np.abs(rates - fair) <= tolerance * fair, axis=1)
    conv = None
    after = np.array(times) >= join_us
    idx = np.where(after & ~ok)[0]
    if idx.size == 0:
        conv = 0.0
    elif idx[-1] + 1 < len(times):
        conv = times[idx[-1] + 1] - join_us
    return {"time_us": np.array(times), "rates_gbps": rates, "queue_kb": np.array(queue),
            "convergence_us": conv}


def paper_fixed_point(n, prm, pkt=1000):
    """The paper's closed form of the fixed point (Zhu et al., eq. fixedp),
    which takes alpha small and the rate cut once per tau:
    p* = cbrt(R_AI N^2 / (tau' C^2) (1/B + N/(T C))^2) and
    q* = p*/Pmax (Kmax - Kmin) + Kmin, with rates in packets of pkt bytes.

    Returns a dict: p, queue_kb (None when p* exceeds Pmax)."""
    c = prm["link_bps"] / (8 * pkt)
    r_ai = prm["ai_bps"] / (8 * pkt)
    b = prm["byte_counter"] / pkt if prm["byte_counter"] else math.inf
    p = (r_ai * n**2 / (prm["tau_alpha"] * c**2) * (1 / b + n / (prm["timer"] * c)) ** 2) ** (1 / 3)
    if p > prm["pmax"]:
        return {"p": p, "queue_kb": None}
    q = p / prm["pmax"] * (prm["kmax"] - prm["kmin"]) + prm["kmin"]
    return {"p": p, "queue_kb": q / 1e3}
