"""Jobs that replay workload files (Chakra traces, AICB model files): each
Chakra microbenchmark alone takes its collective's alpha-beta time, the
results report every operation the file holds, an AICB file's compute is
replayed exactly and its communication takes its alpha-beta sum, two real workloads share a fabric under every policy
(deterministic per seed), and bad workload keys exit 2 naming the field."""

import json
import os
import subprocess

import pytest
from conftest import ROOT, strip_wall

import ns3flux

SCENARIOS = os.path.join(ROOT, "examples", "scenarios")
WORKLOADS = os.path.join(ROOT, "test", "data", "workloads")
CHAKRA = os.path.join(WORKLOADS, "chakra-microbenchmarks")
LLAMA = os.path.join(WORKLOADS, "aicb", "model_workload",
                     "L7B-M1-C04_Llama7B_megatron_tp2_pp1_mbs1_A100.txt")

MTU = 4096
WIRE_OVERHEAD = 86  # Ethernet+VLAN 18, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4, preamble+IFG 20
GBPS = 100
DELAY_S = 1e-6


#: a step's latency on one switch (doc/collectives.rst): two link delays and
#: one frame's store-and-forward
ALPHA_S = 2 * DELAY_S + (MTU + WIRE_OVERHEAD) * 8 / (GBPS * 1e9)


def alpha_beta_ms(kind, n, size):
    """alpha-beta time of one collective of `size` bytes on n ranks of one
    100 Gb/s switch (doc/collectives.rst): alpha = two link delays and one
    frame's store-and-forward per step, beta = line rate times goodput."""
    b_eff = GBPS * 1e9 / 8 * MTU / (MTU + WIRE_OVERHEAD)
    steps, sent = {
        "all-reduce": (2 * (n - 1), 2 * (n - 1) / n * size),
        "all-gather": (n - 1, (n - 1) / n * size),
        "reduce-scatter": (n - 1, (n - 1) / n * size),
        "all-to-all": (1, (n - 1) / n * size),
    }[kind]
    return 1e3 * (steps * ALPHA_S + sent / b_eff)


@pytest.fixture(scope="module")
def microbenchmarks():
    return ns3flux.run(os.path.join(SCENARIOS, "chakra-microbenchmarks.json"))


def test_each_chakra_microbenchmark_takes_its_alpha_beta_time(microbenchmarks):
    for job in microbenchmarks["jobs"]:
        assert job["status"] == "completed", job["name"]
        expected = alpha_beta_ms(job["name"], 16, 1 << 20)
        for ms in job["iteration_ms"]:
            assert ms == pytest.approx(expected, rel=0.05), job["name"]


def test_results_report_every_operation_of_the_trace(microbenchmarks):
    for job in microbenchmarks["jobs"]:
        w = job["workload"]
        assert list(w["operations"]) == [job["name"]]
        op = w["operations"][job["name"]]
        assert op["count"] == 2  # one per iteration
        assert op["bytes"] == 2 * (1 << 20)
        # each operation lasts its iteration: nothing else is in the trace
        assert op["time_ms"] == pytest.approx(sum(job["iteration_ms"]), rel=1e-6)
        assert w["compute_ms"] == 0
        assert w["exposed_comm_ms"] == pytest.approx(w["comm_ms"], rel=1e-9)


def _aicb_compute_ms(path):
    """Compute per iteration of an AICB model file, read here on its own:
    per layer the forward, input-gradient and weight-gradient columns, and
    the update column where the layer has a weight-gradient collective (as
    SimAI runs it), in ns."""
    with open(path) as f:
        lines = [line.split() for line in f.read().splitlines()[2:] if line.strip()]
    return sum(int(c[2]) + int(c[5]) + int(c[8]) + (int(c[11]) if c[9] != "NONE" else 0)
               for c in lines) / 1e6


def _llama(policy="fifo", iterations=1, spines=2, scale=1e-4):
    return {
        "seed": 1,
        "stop_ms": 10000,
        "topology": {"kind": "rail-optimized", "rail_groups": 1, "servers_per_rail_group": 4,
                     "spines": spines, "servers": {"gpus": 8, "nics": 8}},
        "scheduler": {"policy": policy},
        "jobs": [{"name": "llama", "ranks": 32,
                  "workload": {"aicb": LLAMA, "bytes_scale": scale},
                  "iterations": iterations}],
    }


def _aicb_alpha_beta_ms(path, scale, tp, dp):
    """One rank's communication in an AICB file as the sum of its
    collectives' alpha-beta times (doc/collectives.rst), read here on its
    own: forward and input-gradient collectives in the rank's tensor-parallel
    group (tp GPUs of one server: NVLink at the scenario's 3600 Gb/s and
    0.05 us), weight-gradient collectives in its data-parallel group (dp
    ranks, one per NIC-crossing ring edge at most: the NIC's goodput, and a
    rail-optimised path of four links)."""
    frame = (MTU + WIRE_OVERHEAD) * 8 / (GBPS * 1e9)
    links = {"tp": (3600e9 / 8, 0.05e-6, tp),
             "dp": (GBPS * 1e9 / 8 * MTU / (MTU + WIRE_OVERHEAD), 4 * (DELAY_S + frame), dp)}
    total = 0.0
    with open(path) as f:
        lines = [line.split() for line in f.read().splitlines()[2:] if line.strip()]
    for c in lines:
        for kind, size, group in ((c[3], c[4], "tp"), (c[6], c[7], "tp"), (c[9], c[10], "dp")):
            if kind == "NONE":
                continue
            rate, alpha, n = links[group]
            s = int(int(size) * scale)
            steps, sent = {"ALLREDUCE": (2 * (n - 1), 2 * (n - 1) / n * s),
                           "ALLGATHER": (n - 1, (n - 1) / n * s),
                           "REDUCESCATTER": (n - 1, (n - 1) / n * s),
                           "BROADCAST": (n - 1, s)}[kind]
            total += steps * alpha + sent / rate
    return total * 1e3


def test_aicb_file_replays_its_compute_exactly():
    r = ns3flux.run(_llama(iterations=2))
    job = r["jobs"][0]
    assert job["status"] == "completed"
    expected = _aicb_compute_ms(LLAMA)
    assert job["workload"]["compute_ms"] == pytest.approx(2 * expected, rel=1e-9)
    # the iteration lasts at least its compute, and exposes some communication
    for ms in job["iteration_ms"]:
        assert ms >= expected
    assert 0 < job["workload"]["exposed_comm_ms"] <= job["workload"]["comm_ms"]


def test_aicb_communication_takes_its_alpha_beta_sum():
    # Llama-7B (TP 2 x DP 16) on a non-blocking rail-optimised fabric, with
    # paths placed for every collective of the job (ecmp-aware): each rank's
    # communication equals the alpha-beta sum of its collectives. Under the
    # hash (fifo) the two data-parallel rings collide on spine links.
    scale = 0.01
    expected = _aicb_alpha_beta_ms(LLAMA, scale, tp=2, dp=16)
    placed = ns3flux.run(_llama("ecmp-aware", spines=4, scale=scale))
    w = placed["jobs"][0]["workload"]
    assert w["comm_ms"] == pytest.approx(expected, rel=0.05)
    hashed = ns3flux.run(_llama("fifo", spines=4, scale=scale))
    assert hashed["jobs"][0]["workload"]["comm_ms"] > 1.2 * expected


def test_bad_workload_keys_name_the_field(flux_run, tmp_path):
    base = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 16}}
    prefix = os.path.join(CHAKRA, "all_reduce", "4npus_1MB", "all_reduce")
    bad_groups = tmp_path / "groups.json"
    bad_groups.write_text(json.dumps({"a": [0, 9]}))  # the trace has ranks 0..3
    cases = [
        ({"name": "j", "workload": {"chakra": "/nonexistent/x"}, "iterations": 1},
         "jobs[0].workload.chakra"),
        ({"name": "j", "workload": {"chakra": prefix}, "bytes": 1000, "iterations": 1},
         "jobs[0].bytes"),
        ({"name": "j", "workload": {"chakra": prefix}, "ranks": 8, "iterations": 1},
         "jobs[0].ranks"),
        ({"name": "j", "workload": {"chakra": prefix, "aicb": LLAMA}, "iterations": 1},
         "jobs[0].workload"),
        ({"name": "j", "workload": {"chakra": prefix, "bytes_scale": 0}, "iterations": 1},
         "jobs[0].workload.bytes_scale"),
        ({"name": "j", "ranks": 4, "bytes": 1000000, "iterations": 1,
          "algorithm": {"all-reduce": "telepathy"}}, "jobs[0].algorithm.all-reduce"),
        ({"name": "j", "ranks": 6, "bytes": 1000000, "iterations": 1,
          "collective": "all-reduce", "algorithm": {"all-reduce": "halving-doubling"}},
         "jobs[0].algorithm.all-reduce"),
        ({"name": "j", "workload": {"chakra": prefix, "comm_groups": "/nonexistent.json"},
          "iterations": 1}, "jobs[0].workload.comm_groups"),
        ({"name": "j", "workload": {"chakra": prefix, "comm_groups": str(tmp_path)},
          "iterations": 1}, "jobs[0].workload.comm_groups"),
        ({"name": "j", "workload": {"chakra": prefix, "comm_groups": str(bad_groups)},
          "iterations": 1}, "jobs[0].workload.comm_groups"),
        ({"name": "j", "workload": {"aicb": LLAMA, "comm_groups": "groups.json"},
          "iterations": 1}, "jobs[0].workload.comm_groups"),
        ({"name": "j", "workload": {"aicb": str(tmp_path)}, "iterations": 1},
         "jobs[0].workload.aicb"),
    ]
    for job, field in cases:
        path = tmp_path / "s.json"
        out = tmp_path / "r.json"
        path.write_text(json.dumps(dict(base, jobs=[job])))
        p = flux_run(str(path), "--out", str(out), "--quiet")
        assert p.returncode == 2, (job, p.stderr)
        assert p.stderr.startswith(f"flux-run: {field}: "), (field, p.stderr)
        assert len(p.stderr.splitlines()) == 1, p.stderr
        assert not out.exists()


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_hierarchical_on_unequal_servers_is_refused(flux_run, tmp_path, backend):
    """Six ranks packed on servers of four GPUs (4 + 2): the hierarchical
    all-reduce needs servers of equal size. Exit 2 naming the job's
    algorithm, one line, no results (it aborted the process before)."""
    scenario = {"stop_ms": 10,
                "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 2,
                             "servers": {"gpus": 4, "nics": 1}},
                "jobs": [{"name": "h", "ranks": 6, "bytes": 1 << 20, "iterations": 1,
                          "collective": "all-reduce",
                          "algorithm": {"all-reduce": "hierarchical"}}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet", "--backend", backend)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("flux-run: jobs[0].algorithm.all-reduce: "), proc.stderr
    assert proc.stderr.strip().endswith(
        'all-reduce: all-reduce by "hierarchical" on 6 ranks: the server of rank 4 has 2 ranks '
        "but the server of rank 0 has 4 (every server needs the same number)"), proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.json").exists()
    with pytest.raises(ns3flux.ScenarioError, match="jobs\\[0\\].algorithm.all-reduce"):
        ns3flux.run(scenario, backend=backend)


def test_replayed_all_reduce_takes_the_chosen_algorithm():
    """jobs[].algorithm applies to a replayed trace's all-reduces: the
    Chakra 8-rank all-reduce by halving-doubling takes 2 log2 8 = 6 steps
    in place of the ring's 14 for the same bytes: 8 step latencies less."""
    prefix = os.path.join(CHAKRA, "all_reduce", "8npus_1MB", "all_reduce")

    def comm_ms(algorithm):
        job = {"name": "j", "workload": {"chakra": prefix}, "iterations": 1}
        if algorithm:
            job["algorithm"] = {"all-reduce": algorithm}
        scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                                 "hosts_per_leaf": 8, "link_delay_us": 1},
                    "jobs": [job]}
        result = ns3flux.run(scenario)["jobs"][0]
        assert result["status"] == "completed", algorithm
        return result["workload"]["comm_ms"]

    ring = comm_ms(None)
    assert comm_ms("ring") == ring
    saved = (14 - 6) * ALPHA_S * 1e3
    assert ring - comm_ms("halving-doubling") == pytest.approx(saved, rel=0.1)


@pytest.mark.parametrize("backend", ["packet", "flow"])
def test_workload_without_communication_is_refused(flux_run, tmp_path, backend):
    """An AICB model whose every collective stays within one rank (groups
    of one) gives the job nothing to send: exit 2 naming the job's
    workload, no results written (it aborted the run before)."""
    rows = "".join(f"layer{i}\t-1\t 1000000\tNONE\t0\t 1000000\tALLGATHER\t4096\t 1\tNONE\t0\t100\n"
                   for i in range(2))
    (tmp_path / "model.txt").write_text(
        "HYBRID_TRANSFORMER_FWD_IN_BCKWD\tmodel_parallel_NPU_group: 1 checkpoints: 0 "
        "checkpoint_initiates: 0\n2\n" + rows)
    scenario = {"stop_ms": 2.0,
                "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 4},
                "jobs": [{"name": "replay", "ranks": 4, "iterations": 1,
                          "workload": {"aicb": "model.txt", "bytes_scale": 0.0001}}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    proc = flux_run(path, "--out", tmp_path / "r.json", "--quiet", "--backend", backend)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("flux-run: jobs[0].workload: no communication between ranks"), \
        proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.json").exists()


def test_flow_backend_and_bound_run_workload_jobs(flux_run, tmp_path):
    """The flow backend replays every job of the microbenchmarks (their
    agreement with the packet level: test_flow_collectives.py), and the
    bound, computed at flow level, is below what fifo gives there."""
    scenario = os.path.join(SCENARIOS, "chakra-microbenchmarks.json")
    out = tmp_path / "r.json"
    p = flux_run(scenario, "--backend", "flow", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    results = json.loads(out.read_text())
    assert [j["status"] for j in results["jobs"]] == ["completed"] * 4
    out = tmp_path / "b.json"
    p = flux_run(scenario, "--bound", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    bound = json.loads(out.read_text())
    assert 0 < bound["lower_bound"]["mean_jct_ms"] <= bound["fifo"]["mean_jct_ms"] + 1e-6


def _two_replays(policy):
    """A Chakra all-reduce (4 ranks) and all-to-all (8 ranks) crossing a
    2:1 oversubscribed leaf-spine, repeated."""
    prefix = os.path.join(CHAKRA, "{0}", "{1}npus_1MB", "{0}")
    return {
        "seed": 3,
        "topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 6,
                     "fabric_gbps": 200},
        "scheduler": {"policy": policy},
        "jobs": [
            {"name": "ar", "workload": {"chakra": prefix.format("all_reduce", 4)},
             "placement": "spread", "iterations": 6},
            {"name": "a2a", "workload": {"chakra": prefix.format("all_to_all", 8)},
             "placement": "spread", "iterations": 6},
        ],
    }


def test_every_policy_runs_replayed_workloads_deterministically():
    for policy in ns3flux.policies():
        first = ns3flux.run(_two_replays(policy))
        assert [j["status"] for j in first["jobs"]] == ["completed", "completed"], policy
        for j in first["jobs"]:
            assert j["jct_ms"] > 0 and len(j["iteration_ms"]) == 6, policy
        assert strip_wall(ns3flux.run(_two_replays(policy))) == strip_wall(first), policy


def test_workload_job_helper_writes_the_job_entry():
    # ns3flux.workload_job builds the same entry as written by hand, and
    # asks for exactly one workload file
    entry = ns3flux.workload_job("llama", aicb=LLAMA, bytes_scale=1e-4, ranks=32, iterations=2)
    assert entry == _llama(iterations=2)["jobs"][0]
    chakra = ns3flux.workload_job("a2a", chakra="DIR/all_to_all", comm_groups="groups.json")
    assert chakra["workload"] == {"chakra": "DIR/all_to_all", "comm_groups": "groups.json"}
    for bad in ({}, {"aicb": LLAMA, "chakra": "x"}):
        with pytest.raises(ValueError):
            ns3flux.workload_job("x", **bad)


@pytest.mark.parametrize("kind", ["all-gather", "reduce-scatter"])
def test_halving_doubling_chosen_per_collective_type(kind):
    # jobs[].algorithm picks recursive doubling / halving for the job's
    # collective: log2 N steps in place of the ring's N-1, the same bytes
    n, size = 8, 1 << 20
    scenario = {"seed": 1, "stop_ms": 100,
                "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                             "hosts_per_leaf": n, "link_delay_us": 1},
                "jobs": [{"name": "j", "ranks": n, "bytes": size, "iterations": 2,
                          "collective": kind, "algorithm": {kind: "halving-doubling"}}]}
    job = ns3flux.run(scenario)["jobs"][0]
    assert job["status"] == "completed"
    ring = alpha_beta_ms(kind, n, size)
    expected = ring - ((n - 1) - 3) * ALPHA_S * 1e3  # 3 = log2 8 steps
    for ms in job["iteration_ms"]:
        assert ms == pytest.approx(expected, rel=0.05)
        assert ms < ring


def test_double_binary_tree_chosen_for_all_reduce():
    # jobs[].algorithm picks NCCL's double binary tree: 8 ranks, trees of
    # height 3, 128 KiB chunks of each half: 2 S beta + 2D (alpha + c beta)
    # with no congestion control (four flows meet at an inner node's NIC,
    # where DCQCN's first cuts would slow the first iteration)
    n, size, chunk, depth = 8, 4000000, 131072, 3
    scenario = {"seed": 1, "stop_ms": 100, "transport": {"cc": "none"},
                "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0,
                             "hosts_per_leaf": n, "link_delay_us": 1},
                "jobs": [{"name": "j", "ranks": n, "bytes": size, "iterations": 2,
                          "collective": "all-reduce",
                          "algorithm": {"all-reduce": "double-binary-tree"}}]}
    job = ns3flux.run(scenario)["jobs"][0]
    assert job["status"] == "completed"
    beta = (MTU + WIRE_OVERHEAD) / MTU * 8 / (GBPS * 1e9)
    expected = 1e3 * (2 * size * beta + 2 * depth * (ALPHA_S + chunk * beta))
    for ms in job["iteration_ms"]:
        assert ms == pytest.approx(expected, rel=0.05)


def test_an_aicb_file_without_all_gpus_needs_the_jobs_ranks(flux_run, tmp_path):
    """An AICB file without all_gpus gives no rank count: the job's ranks
    must, and the message names that field, not the file; an empty
    workload path is refused as empty."""
    (tmp_path / "model.txt").write_text(
        "DATA\n1\nl -1 100 NONE 0 100 NONE 0 100 ALLREDUCE 1000000 100\n")
    scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
                "jobs": [{"name": "a", "workload": {"aicb": "model.txt"}, "iterations": 1}]}
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.validate(scenario, base_dir=str(tmp_path))
    assert err.value.field == "jobs[0].ranks", str(err.value)
    assert "has no all_gpus" in err.value.problem
    scenario["jobs"][0]["ranks"] = 8
    ns3flux.validate(scenario, base_dir=str(tmp_path))
    for kind in ("aicb", "chakra"):
        scenario["jobs"][0]["workload"] = {kind: ""}
        with pytest.raises(ns3flux.ScenarioError, match=f"^jobs\\[0\\].workload.{kind}: must not be empty"):
            ns3flux.validate(scenario, base_dir=str(tmp_path))


def test_a_workload_of_empty_transfers_is_refused_as_one_without(tmp_path):
    """An AICB file whose every collective carries 0 bytes moves nothing
    between ranks: refused naming the workload, as one with no collective
    (compute only) is, rather than run with a JCT of 0."""
    (tmp_path / "zero.txt").write_text(
        "DATA\n1\nl -1 100 NONE 0 100 NONE 0 100 ALLREDUCE 0 100\n")
    scenario = {"topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
                "jobs": [{"name": "a", "workload": {"aicb": "zero.txt"}, "ranks": 8,
                          "iterations": 1}]}
    with pytest.raises(ns3flux.ScenarioError) as err:
        ns3flux.validate(scenario, base_dir=str(tmp_path))
    assert err.value.field == "jobs[0].workload.aicb", str(err.value)
    assert err.value.problem.startswith("no communication between ranks")
    assert err.value.problem.endswith("every collective and send carries 0 bytes")


def test_collectives_of_one_rank_groups_are_named_when_left_out(flux_run, tmp_path):
    """A ZeRO-3 AICB file with a tensor-parallel group of 1 puts its
    parameter all-gathers in one-rank groups, which move no data and are
    left out: flux-run says so once, with the count and the first, and a
    file without such collectives gets no warning."""
    zero3 = os.path.join(WORKLOADS, "aicb", "model_workload",
                         "L7B-D1-C02_Llama7B_deepspeed_zero3_A100.txt")
    expected = 0
    first = None
    with open(zero3) as f:
        tp = int(f.readline().split("model_parallel_NPU_group:")[1].split()[0])
        for line in f.read().splitlines()[1:]:
            cols = line.split()
            for where, c in (("forward", 3), ("input-gradient", 6)):
                if tp == 1 and cols[c] != "NONE":
                    expected += 1
                    first = first or (cols[0], where)
    assert expected > 0 and first
    for path, warned in ((zero3, True), (LLAMA, False)):
        scenario = {"topology": {"kind": "leaf-spine", "leaves": 2, "spines": 1,
                                 "hosts_per_leaf": 8},
                    "jobs": [{"name": "j", "workload": {"aicb": path}, "ranks": 16,
                              "iterations": 1}]}
        (tmp_path / "s.json").write_text(json.dumps(scenario))
        p = flux_run(tmp_path / "s.json", "--check")
        assert p.returncode == 0, p.stderr
        warnings = [l for l in p.stderr.splitlines() if "left out" in l]
        if not warned:
            assert warnings == []
            continue
        assert warnings == [
            f"flux-run: warning: jobs[0].workload.aicb: {expected} collectives of one-rank groups "
            f"move no data and are left out, the first layer {first[0]}'s {first[1]} "
            "all-gather (TP group of 1)"], p.stderr


def test_a_workload_path_that_is_not_a_regular_file_is_refused(flux_run, tmp_path):
    """A FIFO (whose open would block for ever) or a device given as an AICB
    file, a Chakra rank file, a communication-group file or a tenant's CDF
    file: exit 2 at once, one line naming the field and the file."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    (tmp_path / "t").mkdir()
    rank0 = tmp_path / "t" / "ar.0.et"
    os.mkfifo(rank0)
    prefix = os.path.join(CHAKRA, "all_reduce", "4npus_1MB", "all_reduce")
    cases = [
        ({"aicb": str(pipe)}, "aicb", f"{pipe}: is a FIFO"),
        ({"aicb": "/dev/null"}, "aicb", "/dev/null: is a character device"),
        ({"chakra": str(tmp_path / "t" / "ar")}, "chakra", f"{rank0}: is a FIFO"),
        ({"chakra": prefix, "comm_groups": str(pipe)}, "comm_groups", f"{pipe}: is a FIFO"),
    ]
    for workload, key, problem in cases:
        path = tmp_path / "s.json"
        path.write_text(json.dumps({
            "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
            "jobs": [{"name": "j", "workload": workload, "iterations": 1}]}))
        p = subprocess.run([flux_run.path, str(path), "--check"], capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 2, (workload, p.stderr)
        assert p.stderr == (f"flux-run: jobs[0].workload.{key}: {problem}, not a regular file\n")
    # and a background tenant's flow-size CDF file
    path.write_text(json.dumps({
        "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
        "background": [{"name": "t", "cdf": str(pipe), "load": 0.1}]}))
    p = subprocess.run([flux_run.path, str(path), "--check"], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2, p.stderr
    assert p.stderr == f"flux-run: background[0].cdf: {pipe}: is a FIFO, not a regular file\n"


def test_an_aicb_job_larger_than_the_topology_is_refused_before_it_is_built(flux_run, tmp_path):
    """all_gpus 2^20 on 8 hosts: refused for its rank count, as any job
    larger than the topology, before the 2^20 ranks are built (which the
    node bound, 2^24, would refuse: 2 layers make 18 nodes a rank)."""
    (tmp_path / "big.txt").write_text(
        "DATA all_gpus: 1048576\n2\n" + "l -1 100 NONE 0 100 NONE 0 100 ALLREDUCE 1000 100\n" * 2)
    path = tmp_path / "s.json"
    path.write_text(json.dumps({
        "topology": {"kind": "leaf-spine", "leaves": 1, "spines": 0, "hosts_per_leaf": 8},
        "jobs": [{"name": "a", "workload": {"aicb": "big.txt"}, "iterations": 1}]}))
    p = flux_run(path, "--check")
    assert p.returncode == 2, p.stderr
    assert p.stderr == "flux-run: jobs[0].ranks: 1048576 ranks but the topology has 8 hosts\n"
