"""Sorts `perf report --sort dso,symbol` lines of fabric-bench's two modes
into groups of the ns-3 machinery and prints CPU time per packet-hop per
group (bench/run-hop-profile.sh runs it).

    python3 bench/hop-profile.py WORK_DIR "fabric-bench options"

WORK_DIR holds flux.report, baseline.report (perf's lines) and flux.line,
baseline.line (fabric-bench's result line)."""

import os
import re
import sys

# First match wins: the order settles symbols that two patterns would take
# (Packet::AddHeader is header work, not packet-object work).
GROUPS = [
    ("logging checks", re.compile(r"LogComponent")),
    ("headers and buffers", re.compile(
        r"Header|Trailer|Serializ|Deserializ|Buffer::|PacketMetadata|ItemIterator")),
    ("event scheduling", re.compile(
        r"Simulator|Scheduler|EventImpl|EventId|MakeEvent|ArrivalEvent|Timer|"
        r"^libns3[.-]\d*\.?\d*-?core[^ ]* +0x")),
    ("callbacks and traces", re.compile(r"Callback|TracedValue|Trace|_Function_handler")),
    ("time arithmetic", re.compile(
        r"int64x64|Time::|DataRate::|CalculateBytesTxTime|CalculateBitsTxTime|__fixunsxfti|"
        r"__udivmodti4|__divti3|__multi3")),
    ("packets and memory", re.compile(
        r"Packet::|Ptr<|Object|SimpleRefCount|QueueItem|QueueDiscItem|Tag|Address|TypeId|"
        r"malloc|free|_int_|operator new|operator delete|unlink_chunk|cfree")),
]
MODEL = re.compile(r"libns3-flux|libns3[.-]?\d*\.?\d*-?(point-to-point|internet|traffic-control|"
                   r"network|bridge)|fabric-bench")
ORDER = [g for g, _ in GROUPS] + ["model", "other"]


def group_of(dso, symbol):
    text = f"{dso} {symbol}"
    for name, pattern in GROUPS:
        if pattern.search(text):
            return name
    return "model" if MODEL.search(dso) else "other"


def shares(path):
    """Per group, the share of the samples (0..1)."""
    out = {g: 0.0 for g in ORDER}
    line_re = re.compile(r"^\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)$")
    with open(path) as f:
        for line in f:
            m = line_re.match(line)
            if m:
                out[group_of(m.group(2), m.group(3).strip())] += float(m.group(1)) / 100
    return out


def fields(path):
    with open(path) as f:
        return dict(kv.split("=", 1) for kv in f.read().split() if "=" in kv)


def main():
    work, options = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    per_hop, total = {}, {}
    for mode in ("flux", "baseline"):
        run = fields(os.path.join(work, f"{mode}.line"))
        total[mode] = float(run["cpu_us_per_hop"])
        s = shares(os.path.join(work, f"{mode}.report"))
        covered = sum(s.values()) or 1.0
        per_hop[mode] = {g: total[mode] * v / covered for g, v in s.items()}
    print(f"fabric-bench {options}: CPU time per packet-hop by group, ns (perf samples)")
    print(f"{'group':<22} {'flux':>8} {'baseline':>9}")
    for g in ORDER:
        print(f"{g:<22} {per_hop['flux'][g] * 1000:8.0f} {per_hop['baseline'][g] * 1000:9.0f}")
    print(f"{'total':<22} {total['flux'] * 1000:8.0f} {total['baseline'] * 1000:9.0f}")


if __name__ == "__main__":
    main()
