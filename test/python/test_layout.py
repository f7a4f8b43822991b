"""The module's layers, as the folders show them: model/ (the simulation
models), helper/ (ns-3 builders on the model), scenario/ (the scenario
application of flux-run and ns3flux: input/ (readers of the scenario
file and of the files it names, and the error naming a bad field), config/, run/, results/). A layer
includes only the layers below it (inside model/ too: MODEL_LAYERS), the
files of the module include one another without cycles, and the scenario application's files stay small
enough to read at once."""

import os
import re
import subprocess
import sys

from conftest import ROOT

INCLUDE = re.compile(r'^\s*#\s*include\s*"(?:ns3/)?([^"/]+\.h)"', re.M)
FOLDERS = ["model", "helper", "scenario"]
# What each folder may include besides itself (and ns-3), and model/'s own
# layers: one declaration, which the architecture figure is drawn from too.
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from layers import FOLDERS as ALLOWED, MODEL_LAYERS  # noqa: E402

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
    for f in _test_sources():
        with open(os.path.join(ROOT, "test", f)) as fh:
            for name in decl.findall(fh.read()):
                if name in seen and seen[name] != f:
                    twice.append(f"{name}: {seen[name]} and {f}")
                seen.setdefault(name, f)
    assert not twice, "classes defined in two test files:\n" + "\n".join(twice)


def _test_sources():
    """The C++ files of test/ and test/scenario/, relative to test/."""
    out = []
    for sub in ("", "scenario"):
        d = os.path.join(ROOT, "test", sub)
        out += sorted(os.path.join(sub, f) for f in os.listdir(d) if f.endswith((".cc", ".h")))
    return out


# What only the scenario application may use: its own headers and the two
# libraries it adds to ns-3 (the model links ns-3 alone).
SCENARIO_ONLY = re.compile(r'^\s*#\s*include\s*[<"](?:nlohmann/|google/protobuf/|chakra-et\.pb\.h)', re.M)


def test_the_model_and_its_tests_need_neither_json_nor_protobuf():
    """libns3-flux (model/, helper/) builds and links without nlohmann-json
    and Protobuf, and so do the tests in test/ (the scenario application's
    tests are in test/scenario/): none of these files includes a header of
    those libraries or of scenario/, directly or through a test helper."""
    files = _files()
    scenario = {n for n, (layer, _) in files.items() if layer.startswith("scenario")}
    test_dir = os.path.join(ROOT, "test")
    helpers = {f: os.path.join(test_dir, f) for f in os.listdir(test_dir) if f.endswith(".h")}
    paths = [p for n, (layer, p) in files.items() if not layer.startswith("scenario")]
    paths += [os.path.join(test_dir, f) for f in _test_sources() if os.sep not in f]
    offenders = []
    for path in paths:
        with open(path) as fh:
            text = fh.read()
        if SCENARIO_ONLY.search(text):
            offenders.append(f"{os.path.relpath(path, ROOT)} includes nlohmann-json or Protobuf")
        for inc in INCLUDE.findall(text):
            if inc in scenario:
                offenders.append(f"{os.path.relpath(path, ROOT)} includes {inc} (scenario/)")
    assert not offenders, "\n".join(offenders)
    assert not any(SCENARIO_ONLY.search(open(p).read()) for p in helpers.values())


def test_the_model_library_holds_no_json_code():
    """The built model library exports no nlohmann-json or Protobuf symbol:
    those are the scenario application's (libns3-flux-scenario)."""
    import shutil
    import subprocess

    import pytest

    import ns3flux

    lib, scenario = ns3flux._ns3flux.library_paths()
    if not shutil.which("nm"):
        pytest.skip("no nm (binutils)")
    assert os.path.basename(lib) == "libns3-flux.so", lib
    assert os.path.basename(scenario) == "libns3-flux-scenario.so", scenario
    symbols = subprocess.run(["nm", "-DC", lib], capture_output=True, text=True, check=True).stdout
    assert symbols.count("\n") > 1000, "nm listed too few symbols to judge"
    leaked = [s for s in symbols.splitlines() if "nlohmann" in s or "google::protobuf" in s]
    assert not leaked, "\n".join(leaked[:10])
    symbols = subprocess.run(["nm", "-DC", scenario], capture_output=True, text=True, check=True).stdout
    assert "nlohmann" in symbols, "the check would not see nlohmann-json's symbols"


def test_the_architecture_figure_is_drawn_from_the_declaration():
    """doc/figures/architecture.dot is what scripts/gen-architecture draws
    from scripts/layers.py and the sources' includes: a layer or an include
    between layers that changes without the figure fails here."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen-architecture"),
                           "--check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
