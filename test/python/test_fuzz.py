"""scripts/flux-fuzz: a fixed-seed batch of mutated scenarios never crashes
or hangs flux-run or ns3flux.run, and the fuzzer itself catches what it is
meant to catch."""

import json
import os
import subprocess

import pytest

from conftest import ROOT, _flux_run_path

FUZZ = os.path.join(ROOT, "scripts", "flux-fuzz")


def _fuzz(tmp_path, *args):
    summary = tmp_path / "summary.json"
    proc = subprocess.run(
        ["/usr/bin/python3", FUZZ, "--flux-run", _flux_run_path(), "--save",
         str(tmp_path / "failures"), "--json", str(summary), *map(str, args)],
        capture_output=True, text=True, timeout=900)
    data = json.loads(summary.read_text()) if summary.exists() else None
    return proc, data


def test_fixed_seed_batch_passes(tmp_path):
    """300 flux-run cases and 50 ns3flux.run cases of seed 1: each ends in
    results or in one line naming the field, with no file written (flux-run)
    or a ScenarioError naming the field (ns3flux.run). Both outcomes occur,
    so the batch exercises runs as well as refusals."""
    proc, data = _fuzz(tmp_path, "--seed", 1, "--cases", 300, "--python", 50, "--jobs", 2)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert data["flux_run_cases"] == 300 and data["python_cases"] == 50
    assert data["failures"] == []
    outcomes = data["outcomes"]
    assert set(outcomes) <= {"cli: ok", "cli: refused", "python: ok", "python: refused"}
    assert outcomes.get("cli: ok", 0) >= 20 and outcomes.get("cli: refused", 0) >= 150
    assert outcomes.get("python: refused", 0) >= 20


def test_cases_are_reproducible():
    """Case i of a seed is the same file whatever else runs."""
    code = ("import importlib.machinery, importlib.util, sys;"
            f"loader = importlib.machinery.SourceFileLoader('fz', {FUZZ!r});"
            "spec = importlib.util.spec_from_loader('fz', loader);"
            "fz = importlib.util.module_from_spec(spec); loader.exec_module(fz);"
            "seeds = fz.seed_scenarios();"
            "a = [fz.make_case(seeds, 5, i)[0] for i in (3, 9, 4)];"
            "b = [fz.make_case(seeds, 5, i)[0] for i in (4, 3, 9)];"
            "sys.exit(0 if a == [b[1], b[2], b[0]] and len(set(a)) == 3 else 1)")
    assert subprocess.run(["/usr/bin/python3", "-c", code]).returncode == 0


@pytest.mark.parametrize("program, kind", [
    ("import os, sys; os.abort()", "signal SIGABRT"),
    ("import sys; print('flux-run: no field here', file=sys.stderr); sys.exit(2)",
     "field not named"),
    ("import sys; print('flux-run: seed: bad', file=sys.stderr); "
     "print('second line', file=sys.stderr); sys.exit(2)", "not one line"),
    ("import sys; out = sys.argv[sys.argv.index('--out') + 1]; open(out, 'w').write('{}'); "
     "print('flux-run: seed: bad', file=sys.stderr); sys.exit(2)", "file left"),
    ("import time; time.sleep(30)", "timeout"),
    ("import sys; sys.exit(1)", "status 1"),
])
def test_fuzzer_reports_failures(tmp_path, program, kind):
    """Run against a stand-in runner that misbehaves, the fuzzer reports the
    failure, saves a reproducer and exits 1 (so a passing batch means
    something)."""
    fake = tmp_path / "fake-flux-run"
    fake.write_text(f"#!/usr/bin/python3\n{program}\n")
    fake.chmod(0o755)
    summary = tmp_path / "summary.json"
    proc = subprocess.run(
        ["/usr/bin/python3", FUZZ, "--flux-run", str(fake), "--cases", "2", "--jobs", "1",
         "--timeout", "3", "--save", str(tmp_path / "failures"), "--json", str(summary)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads(summary.read_text())
    assert [f["kind"] for f in data["failures"]] == [kind, kind]
    saved = sorted(os.listdir(tmp_path / "failures"))
    assert saved == ["case-1-0.json", "case-1-0.txt", "case-1-1.json", "case-1-1.txt"]
    assert "FAIL cli case 0" in proc.stdout


def test_field_check():
    """What counts as naming the field: a path through the scenario to a
    value or to a missing key, or the file's path."""
    code = f"""
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader('fz', {FUZZ!r})
spec = importlib.util.spec_from_loader('fz', loader)
fz = importlib.util.module_from_spec(spec); loader.exec_module(fz)
doc = {{"jobs": [{{"name": "a", "a.b": 1}}], "ns3_defaults": {{"ns3::X::Y": 1}}, "topology": {{}}}}
good = ["jobs[0].name: x", "jobs[0].bytes: required", 'jobs[0]["a.b"]: unknown key',
        'ns3_defaults["ns3::X::Y"]: bad', "topology: x", "seed: required", "f.json: line 1",
        "scenario: expected an object"]
bad = ["jobs[1].name: x", "jobs[0].name.x: y", "topology.kind.x: y", "nothing", "jobs[0]x: y",
       "g.json: x"]
ok = all(fz.names_field(m, doc, "f.json") for m in good)
ok = ok and not any(fz.names_field(m, doc, "f.json") for m in bad)
sys.exit(0 if ok else 1)
"""
    assert subprocess.run(["/usr/bin/python3", "-c", code]).returncode == 0


def test_workload_cases_reach_both_readers(tmp_path):
    """The fuzzer's workload cases (a mutated AICB model file or a damaged
    Chakra trace beside a one-job scenario) each end in results or in one
    line naming the job's workload key and the file, and both readers'
    refusals occur among the first cases of a seed."""
    code = f"""
import importlib.machinery, importlib.util, json, os, sys
loader = importlib.machinery.SourceFileLoader('fz', {FUZZ!r})
spec = importlib.util.spec_from_loader('fz', loader)
fz = importlib.util.module_from_spec(spec); loader.exec_module(fz)
seeds = fz.seed_scenarios()
cases = [i for i in range(400) if fz.is_workload_case(3, i)][:16]
messages = []
for i in cases:
    case_dir = os.path.join({str(tmp_path)!r}, f"case-{{i}}")
    os.makedirs(case_dir)
    fz.write_case_files(case_dir, 3, i)
    data, notes, doc, before = fz.make_case(seeds, 3, i)
    outcome, cmd = fz.run_cli({_flux_run_path()!r}, case_dir, "c", data, doc, before,
                              dict(os.environ), 60)
    if not outcome.ok:
        print(i, outcome.kind, outcome.detail, notes)
        sys.exit(1)
    messages.append(outcome.detail)
aicb = [m for m in messages if m.startswith("jobs[0].workload.aicb: ") and "model.txt" in m]
chakra = [m for m in messages if m.startswith("jobs[0].workload.chakra: ") and ".et" in m]
sys.exit(0 if len(cases) == 16 and aicb and chakra else 1)
"""
    proc = subprocess.run(["/usr/bin/python3", "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
