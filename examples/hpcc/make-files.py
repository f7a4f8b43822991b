#!/usr/bin/python3
"""Write the HPCC-simulator files of the example experiment.

    examples/hpcc/make-files.py [--seed 1] [--flows 300] [--load 0.3]
                                [--cdf websearch|hadoop] [--incast 0]
                                [--incast-senders 15] [--out DIR]

- topology.txt: a k = 4 fat-tree in that simulator's format: 16 hosts
  (nodes 0..15) on 100 Gb/s links, 20 switches (nodes 16..35: 8 edge, 8
  aggregation, 4 core) joined by 400 Gb/s links, 1 us per link;
- flow.txt: FLOWS flows between random pairs of distinct hosts, sizes from
  the WebSearch (default) or FB_Hadoop distribution, Poisson arrivals
  offering LOAD of every host's link, the first at 2 s as that simulator's
  traffic generator starts them;
- with --incast LOAD, incasts beside them as in the HPCC paper's
  experiment (there 60-to-1 at 2 % of the load, 500 KB per sender): at
  Poisson times over the same span, offering LOAD of every host's link,
  INCAST_SENDERS random hosts each send 500 KB to another random host.

The same seed writes the same files. config-hpcc.txt, config-dcqcn.txt and
config-dcqcn-win.txt beside them are written by hand (that simulator's
run.py settings at 100 Gb/s for `--cc hp`, `--cc dcqcn` and DCQCN with a
window, `--cc dcqcn_vwin`: HAS_WIN 1, VAR_WIN 1, ACKs in the data class).
"""

import argparse
import os
import random

# WebSearch (DCTCP, Alizadeh et al., SIGCOMM 2010): (size in bytes, CDF %)
WEBSEARCH = [(0, 0), (10000, 15), (20000, 20), (30000, 30), (50000, 40), (80000, 53),
             (200000, 60), (1000000, 70), (2000000, 80), (5000000, 90), (10000000, 97),
             (30000000, 100)]
# FB_Hadoop (Roy et al., SIGCOMM 2015)
HADOOP = [(0, 0), (100, 1), (200, 2), (300, 5), (350, 15), (400, 20), (500, 30), (600, 40),
          (700, 50), (1000, 60), (2000, 67), (7000, 70), (30000, 72), (50000, 82), (80000, 87),
          (120000, 90), (300000, 95), (1000000, 97.5), (2000000, 99), (10000000, 100)]
CDFS = {"websearch": WEBSEARCH, "hadoop": HADOOP}
HOST_BPS = 100e9
FABRIC_BPS = 400e9
HOSTS = 16
INCAST_BYTES = 500000


def fat_tree_links():
    """(a, b, rate) of a k = 4 fat-tree: hosts 0..15, edge 16..23,
    aggregation 24..31, core 32..35."""
    k, half = 4, 2
    edge, agg, core = 16, 24, 32
    links = []
    for h in range(HOSTS):
        links.append((h, edge + h // half, "100Gbps"))
    for p in range(k):
        for e in range(half):
            for a in range(half):
                links.append((edge + p * half + e, agg + p * half + a, "400Gbps"))
    for p in range(k):
        for a in range(half):
            for c in range(half):
                links.append((agg + p * half + a, core + a * half + c, "400Gbps"))
    return links


def sample_size(rng, cdf):
    u = rng.random() * 100
    for (s0, c0), (s1, c1) in zip(cdf, cdf[1:]):
        if u <= c1 and c1 > c0:
            return max(1, int(s0 + (s1 - s0) * (u - c0) / (c1 - c0)))
    return cdf[-1][0]


def mean_size(cdf):
    return sum((s0 + s1) / 2 * (c1 - c0) / 100 for (s0, c0), (s1, c1) in zip(cdf, cdf[1:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flows", type=int, default=300)
    parser.add_argument("--load", type=float, default=0.3)
    parser.add_argument("--cdf", choices=sorted(CDFS), default="websearch")
    parser.add_argument("--incast", type=float, default=0.0)
    parser.add_argument("--incast-senders", type=int, default=HOSTS - 1)
    parser.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = parser.parse_args()
    rng = random.Random(args.seed)

    links = fat_tree_links()
    with open(os.path.join(args.out, "topology.txt"), "w") as f:
        f.write(f"36 20 {len(links)}\n")
        f.write(" ".join(str(s) for s in range(16, 36)) + "\n")
        for a, b, rate in links:
            f.write(f"{a} {b} {rate} 0.001ms 0\n")

    # arrivals of the whole cluster: HOSTS x load x rate / mean size
    cdf = CDFS[args.cdf]
    per_s = HOSTS * args.load * HOST_BPS / 8 / mean_size(cdf)
    t_ns = 2_000_000_000
    flows = []
    for _ in range(args.flows):
        src = rng.randrange(HOSTS)
        dst = rng.randrange(HOSTS - 1)
        dst += dst >= src
        flows.append((t_ns, src, dst, sample_size(rng, cdf)))
        t_ns += max(1, int(rng.expovariate(per_s) * 1e9))
    if args.incast > 0:
        end_ns = t_ns
        burst = args.incast_senders * INCAST_BYTES
        t_ns = 2_000_000_000 + int(rng.expovariate(HOSTS * args.incast * HOST_BPS / 8 / burst)
                                   * 1e9)
        while t_ns < end_ns:
            dst = rng.randrange(HOSTS)
            for src in rng.sample([h for h in range(HOSTS) if h != dst], args.incast_senders):
                flows.append((t_ns, src, dst, INCAST_BYTES))
            t_ns += max(1, int(rng.expovariate(HOSTS * args.incast * HOST_BPS / 8 / burst)
                               * 1e9))
    flows.sort(key=lambda f: f[0])
    lines = [f"{src} {dst} 3 100 {size} {t / 1e9:.9f}" for t, src, dst, size in flows]
    with open(os.path.join(args.out, "flow.txt"), "w") as f:
        f.write(f"{len(lines)}\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
