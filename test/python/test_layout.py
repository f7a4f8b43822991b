"""The module's layers, as the folders show them: model/ (the simulation
models), helper/ (ns-3 builders on the model), scenario/ (the scenario
application of flux-run and ns3flux: input/ (readers of the files a
scenario names, and the error naming a bad field), config/, run/, results/). A layer
includes only the layers below it (inside model/ too: MODEL_LAYERS), the
files of the module include one another without cycles, and the scenario application's files stay small
enough to read at once."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = re.compile(r'^\s*#\s*include\s*"(?:ns3/)?([^"/]+\.h)"', re.M)
FOLDERS = ["model", "helper", "scenario"]
# What each folder may include besides itself (and ns-3); scenario/ by sub-folder.
ALLOWED = {
    "model": set(),
    "helper": {"model"},
    "scenario/input": {"model"},
    "scenario/results": {"model"},
    "scenario/config": {"model", "scenario/input"},
    "scenario/run": {"model", "helper", "scenario/input", "scenario/config", "scenario/results"},
}
MAX_LINES = 500


def _files():
    """{file name: (layer, path)} of every .h and .cc of the module."""
    out = {}
    for top in FOLDERS:
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            rel = os.path.relpath(d, ROOT)
            layer = rel if top == "scenario" else top
            for f in files:
                if f.endswith((".h", ".cc")):
                    assert f not in out, f"two files named {f}"
                    out[f] = (layer, os.path.join(d, f))
    return out


def _includes(path):
    with open(path) as fh:
        return INCLUDE.findall(fh.read())


def test_layers_include_only_the_layers_below():
    files = _files()
    assert {layer for layer, _ in files.values()} == set(ALLOWED), "the folders changed"
    offenders = []
    for name, (layer, path) in files.items():
        for inc in _includes(path):
            if inc not in files:
                continue  # ns-3 or the standard library
            other = files[inc][0]
            if other != layer and other not in ALLOWED[layer]:
                offenders.append(f"{os.path.relpath(path, ROOT)} ({layer}) includes {inc} ({other})")
    assert not offenders, "\n".join(offenders)


# model/'s own layers, lowest first: a file includes files of its own
# layer and of the layers before it only. The first holds what every layer
# uses: traffic classes, wire sizes and ECN marking (model/ itself), the
# statistics, and the MPI event ordering.
MODEL_LAYERS = [
    {".", "stats", "parallel"},
    {"link"},
    {"switch"},
    {"rdma"},
    {"collective"},
    {"workload"},
    {"flow"},
    {"scheduler"},
]


def test_model_sub_layers_include_only_the_layers_below():
    """Inside model/ the links know nothing of switches, the switches
    nothing of RDMA (in-band telemetry is the transport's, on the switch's
    egress hook), RDMA nothing of collectives, collectives nothing of
    workloads, and only the scheduling policies see everything below."""
    rank = {sub: i for i, layer in enumerate(MODEL_LAYERS) for sub in layer}
    model = os.path.join(ROOT, "model")
    files = {}
    for d, _, names in os.walk(model):
        sub = os.path.relpath(d, model)
        assert sub in rank, f"model/{sub} is in no layer of MODEL_LAYERS"
        for f in names:
            if f.endswith((".h", ".cc")):
                files[f] = (sub, os.path.join(d, f))
    upward = []
    for name, (sub, path) in files.items():
        for inc in _includes(path):
            if inc in files and rank[files[inc][0]] > rank[sub]:
                upward.append(f"model/{sub}/{name} includes {inc} (model/{files[inc][0]})")
    assert not upward, "\n".join(upward)


def test_headers_include_one_another_without_cycles():
    files = _files()
    graph = {n: [i for i in _includes(p) if i in files and i.endswith(".h")]
             for n, (_, p) in files.items() if n.endswith(".h")}
    state = {}

    def visit(n, stack):
        state[n] = "open"
        for m in graph.get(n, []):
            if state.get(m) == "open":
                raise AssertionError("include cycle: " + " -> ".join(stack + [n, m]))
            if m not in state:
                visit(m, stack + [n])
        state[n] = "done"

    for n in graph:
        if n not in state:
            visit(n, [])


def test_scenario_application_files_are_small():
    big = []
    for name, (layer, path) in _files().items():
        if layer.startswith("scenario"):
            with open(path) as fh:
                lines = sum(1 for _ in fh)
            if lines > MAX_LINES:
                big.append(f"{os.path.relpath(path, ROOT)}: {lines} lines")
    assert not big, f"files over {MAX_LINES} lines:\n" + "\n".join(big)


def test_test_classes_have_unique_names():
    """The test suites link into one runner: two classes of the same name
    in two files (outside an anonymous namespace) break the one-definition
    rule, and one file's test case then silently runs the other's DoRun.
    Every class and struct at the start of a line in test/ is unique, in
    an anonymous namespace or not (one name, one meaning for the reader)."""
    decl = re.compile(r"^(?:class|struct)\s+([A-Za-z_]\w*)\b(?!\s*;)", re.M)
    seen = {}
    twice = []
    test_dir = os.path.join(ROOT, "test")
    for f in sorted(os.listdir(test_dir)):
        if not f.endswith((".cc", ".h")):
            continue
        with open(os.path.join(test_dir, f)) as fh:
            for name in decl.findall(fh.read()):
                if name in seen and seen[name] != f:
                    twice.append(f"{name}: {seen[name]} and {f}")
                seen.setdefault(name, f)
    assert not twice, "classes defined in two test files:\n" + "\n".join(twice)
