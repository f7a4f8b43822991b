"""Plugins: a policy built outside the module, as the manual shows it (its
example class and its g++ command), loaded by flux-run --plugin, by
FLUX_PLUGINS and by ns3flux.load_plugin, and runs as a built-in policy;
bad libraries are refused with one line and exit 2."""

import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import pytest

import ns3flux
from conftest import ROOT, _flux_run_path

SCENARIO = os.path.join(ROOT, "examples", "scenarios", "contended-two-equal.json")

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")


def _manual():
    with open(os.path.join(ROOT, "doc", "flux.rst")) as fh:
        return fh.read()


def _example():
    """The manual's example policy (Writing a Policy) as a file of its own:
    with the header it uses and the class in namespace ns3, as its *As a
    plugin* paragraph says."""
    code = re.search(r"Writing a Policy\n~+\n(?:.*\n)*?\.\. code-block:: c\+\+\n\n"
                     r"((?:    .*\n|\n)+)", _manual())
    assert code, "the manual's example policy"
    body = "\n".join(line[4:] for line in code.group(1).splitlines())
    return '#include "ns3/job-scheduler.h"\n\nnamespace ns3\n{\n' + body + "\n} // namespace ns3\n"


def _variant(policy="stagger", type_name="ns3::StaggerScheduler", cls="StaggerScheduler"):
    """The example with another policy name, TypeId name or class name."""
    text = _example().replace('"ns3::StaggerScheduler"', f'"{type_name}"')
    return text.replace('"stagger"', f'"{policy}"').replace("StaggerScheduler", cls)


def _compile(source, library, hidden=True):
    """Build source (text) into the library with the manual's *As a plugin*
    command, run as written from the project folder (without
    -fvisibility=hidden when hidden is false); the CompletedProcess."""
    block = re.search(r"\*As a plugin\*(?:.*\n)*?.*with::\n\n((?:   .*\n)+)", _manual())
    assert block, "the manual's plugin command"
    library = os.fspath(library)
    cc = library[:-3] + ".cc"
    with open(cc, "w") as fh:
        fh.write(source)
    build = os.path.dirname(_flux_run_path())
    command = " ".join(line.strip().rstrip("\\") for line in block.group(1).splitlines())
    args = [build + "/include" if a == "build/include" else build if a == "build" else
            cc if a == "my-policy.cc" else library if a == "libmy-policy.so" else a
            for a in shlex.split(command) if hidden or a != "-fvisibility=hidden"]
    assert args[0] == "g++" and library in args and "-fvisibility=hidden" in command, args
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """libmy-policy.so: the manual's example policy built by the manual's
    command."""
    library = tmp_path_factory.mktemp("plugin") / "libmy-policy.so"
    p = _compile(_example(), library)
    assert p.returncode == 0, p.stderr
    return library


def _flux_run(*args, env=None):
    return subprocess.run([_flux_run_path(), *map(str, args)], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, **(env or {})))


def test_flux_run_lists_describes_and_runs_a_plugin_policy(plugin, tmp_path):
    """--plugin makes the library's policy one like the built-in ones: listed
    after them, its attribute a scheduler key, and run with its effect (job
    j held j x offset at its first gate), at both levels."""
    p = _flux_run("--plugin", plugin, "--list-policies")
    assert p.returncode == 0, p.stderr
    names = p.stdout.split()
    assert names[:4] == ["fifo", "cassini", "crux", "flux"] and names[-1] == "stagger"
    p = _flux_run("--plugin", plugin, "--describe-policy", "stagger")
    assert p.returncode == 0 and "offset_us" in p.stdout, p.stderr
    for backend in ("flow", "packet"):
        out = tmp_path / f"{backend}.json"
        p = _flux_run("--plugin", plugin, SCENARIO, "--policy", "stagger", "--set",
                      "scheduler.offset_us=500", "--backend", backend, "--out", out, "--quiet")
        assert p.returncode == 0, p.stderr
        r = json.loads(out.read_text())
        assert r["policy"] == "stagger" and r["sim"]["plugins"] == [str(plugin)]
        assert [j["gate_wait_ms"] for j in r["jobs"]] == pytest.approx([0, 0.5], abs=1e-9)
    # without the plugin the name is unknown, and the message says why it may be
    p = _flux_run(SCENARIO, "--policy", "stagger", "--check")
    assert p.returncode == 2 and p.stderr.startswith(
        'flux-run: scheduler.policy: "stagger" is not a known policy (known: fifo, ')
    assert p.stderr.endswith("; a plugin's once it is loaded)\n")


def test_flux_plugins_loads_for_every_run(plugin, tmp_path):
    """FLUX_PLUGINS (paths separated by ':') loads libraries before --plugin:
    a script that starts flux-run sees the policy without a new option."""
    p = _flux_run("--list-policies", env={"FLUX_PLUGINS": f":{plugin}:"})
    assert p.returncode == 0, p.stderr
    assert "stagger" in p.stdout.split()
    # the same library again adds nothing, silently (an option given twice),
    # also through a link to it
    p = _flux_run("--plugin", plugin, "--list-policies", env={"FLUX_PLUGINS": str(plugin)})
    assert p.returncode == 0 and p.stdout.split().count("stagger") == 1 and not p.stderr
    link = tmp_path / "liblink.so"
    link.symlink_to(plugin)
    out = tmp_path / "r.json"
    p = _flux_run("--plugin", plugin, "--plugin", link, SCENARIO, "--policy", "stagger",
                  "--backend", "flow", "--out", out, "--quiet")
    assert p.returncode == 0 and not p.stderr, p.stderr
    assert json.loads(out.read_text())["sim"]["plugins"] == [str(plugin)]
    # the bound records the plugins too
    p = _flux_run("--plugin", plugin, SCENARIO, "--policy", "stagger", "--bound", "--out",
                  out, "--quiet")
    assert p.returncode == 0, p.stderr
    assert json.loads(out.read_text())["sim"]["plugins"] == [str(plugin)]


def test_a_library_without_a_registration_is_warned_of(tmp_path):
    """A library that registers nothing (the registration line forgotten)
    loads, with a warning that says what is missing."""
    library = tmp_path / "libnothing.so"
    source = _example()
    p = _compile(source[:source.index("FLUX_REGISTER_POLICY")] + "} // namespace ns3\n",
                 library)
    assert p.returncode == 0, p.stderr
    p = _flux_run("--plugin", library, "--list-policies")
    assert p.returncode == 0 and "stagger" not in p.stdout.split()
    assert re.fullmatch(r"flux-run: warning: .*libnothing.so registers no policy nor "
                        r"congestion control \(no FLUX_REGISTER_POLICY or FLUX_REGISTER_CC "
                        r"line\?\)\n", p.stderr), p.stderr


def test_a_plugin_of_another_build_is_refused_before_it_loads(plugin, tmp_path):
    """A plugin that needs a flux (or ns-3 core) library this program has not
    loaded was built against another build (an ns-3 tree's against the
    standalone one): loading it would bring a second ns-3 into the process,
    which ends it. It is refused, naming the library, before it loads."""
    other = tmp_path / "libns3.37-flux.so"
    p = subprocess.run(["g++", "-shared", "-fPIC", "-x", "c++", "-", "-o", str(other)],
                       input="int marker() { return 1; }\n", capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    build = os.path.dirname(_flux_run_path())
    library = tmp_path / "libforeign.so"
    p = subprocess.run(["g++", "-shared", "-fPIC", "-o", str(library), "-L", str(tmp_path),
                        "-Wl,--no-as-needed", "-lns3.37-flux", "-L", build, "-lns3-flux",
                        "-x", "c++", "-"], input="int plugin() { return 2; }\n",
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    p = _flux_run("--plugin", library, "--list-policies",
                  env={"LD_LIBRARY_PATH": f"{tmp_path}:{build}"})
    assert p.returncode == 2
    assert p.stderr == (f"flux-run: --plugin: {library}: needs libns3.37-flux.so, which this "
                        "program does not run: it was built against another build of ns-3 or "
                        "flux; build it against this one\n")
    # the module's own libraries, and the plugin built against them, pass
    assert _flux_run("--plugin", plugin, "--list-policies").returncode == 0


def test_python_loads_what_flux_run_loads(tmp_path):
    """A library with no registration, whose ns-3 symbols the linker took
    from no library of its own, loads in Python as in flux-run (the module's
    libraries are global to plugins in both)."""
    library = tmp_path / "libnothing.so"
    source = _example()
    assert _compile(source[:source.index("FLUX_REGISTER_POLICY")] + "} // namespace ns3\n",
                    library).returncode == 0
    loaded = _python("import json\nimport ns3flux\n"
                     f"print(json.dumps(ns3flux.load_plugin({str(library)!r})))\n", tmp_path)
    assert loaded == {"path": str(library), "policies": [], "congestion_controls": []}


def test_a_registration_of_a_class_of_the_wrong_kind_does_not_compile(tmp_path):
    """FLUX_REGISTER_POLICY of a class that is no JobScheduler (here a
    congestion control) stops the compiler, naming the class."""
    source = _example().replace("FLUX_REGISTER_POLICY(\"stagger\", StaggerScheduler",
                                "FLUX_REGISTER_POLICY(\"stagger\", RdmaCongestionControl")
    source = source.replace('#include "ns3/job-scheduler.h"',
                            '#include "ns3/job-scheduler.h"\n#include "ns3/rdma-congestion-control.h"')
    p = _compile(source, tmp_path / "libwrong.so")
    assert p.returncode != 0
    assert "RdmaCongestionControl does not derive from JobScheduler" in p.stderr


@pytest.mark.parametrize("case", ["type-name-taken", "wrong-kind", "class-of-another"])
def test_a_class_that_would_run_other_code_is_refused(plugin, tmp_path, case):
    """A registration whose class is not what its name promises is refused
    with one line and exit 2, where it would run other code or crash: a
    TypeId name another class has (ns-3 keeps the first), a class that is
    no policy (registered by hand, past the macro's check), and, without
    -fvisibility=hidden, a second library with a class of the first one's
    C++ name (the two share its TypeId)."""
    first = []
    if case == "type-name-taken":
        source = _variant(policy="myfifo", type_name="ns3::FifoScheduler", cls="MyFifo")
        expect = '"myfifo" has the TypeId name ns3::FifoScheduler, which another class has'
    elif case == "wrong-kind":
        source = _example().replace(
            'FLUX_REGISTER_POLICY("stagger", StaggerScheduler, JobScheduler::POLICY_RANK_OTHER);',
            "static const bool g_registered [[maybe_unused]] = JobScheduler::RegisterPolicy("
            '"notapolicy", &Object::GetTypeId, JobScheduler::POLICY_RANK_OTHER);')
        expect = '"notapolicy" is a ns3::Object, not a ns3::JobScheduler'
    else:
        other = tmp_path / "libfirst.so"
        assert _compile(_example(), other, hidden=False).returncode == 0
        source = _variant(policy="second", type_name="ns3::Second")
        first = ["--plugin", other]
        expect = ('"second" is the class of the policy "stagger" (ns3::StaggerScheduler): two '
                  "libraries define a class of one C++ name (build with -fvisibility=hidden)")
    library = tmp_path / "libbad.so"
    p = _compile(source, library, hidden=case != "class-of-another")
    assert p.returncode == 0, p.stderr
    p = _flux_run(*first, "--plugin", library, SCENARIO, "--check")
    assert p.returncode == 2, p.stderr
    assert p.stderr == f"flux-run: --plugin: {library}: the policy {expect}\n"
    # built with -fvisibility=hidden, the second library keeps its own class
    if case == "class-of-another":
        assert _compile(source, library).returncode == 0
        p = _flux_run(*first, "--plugin", library, "--describe-policy", "second")
        assert p.returncode == 0 and p.stdout.startswith("second (ns3::Second)"), p.stderr


@pytest.mark.parametrize("case", ["missing", "folder", "not-a-library", "name-taken", "env",
                                  "throws"])
def test_a_bad_plugin_is_one_line_and_exit_2(plugin, tmp_path, case):
    """A library that cannot be loaded, or registers a name already taken
    (a second copy of one), stops flux-run before anything is written: one
    line naming the option or variable, exit 2, no results file."""
    out = tmp_path / "r.json"
    env = None
    if case == "missing":
        args, expect = ["--plugin", tmp_path / "none.so"], "--plugin: .*none.so: no such file"
    elif case == "folder":
        args, expect = ["--plugin", tmp_path], "--plugin: .*: is a folder, not a shared library"
    elif case == "not-a-library":
        args, expect = ["--plugin", SCENARIO], "--plugin: .*contended-two-equal.json: .*ELF"
    elif case == "name-taken":
        copy = tmp_path / "libcopy.so"
        shutil.copy(plugin, copy)
        args = ["--plugin", plugin, "--plugin", copy]
        expect = '--plugin: .*libcopy.so: registers the policy "stagger", a name already taken'
    elif case == "throws":
        library = tmp_path / "libthrows.so"
        source = _example().replace(
            "} // namespace ns3\n",
            "static const int g_boom [[maybe_unused]] = [] {\n"
            '    throw std::runtime_error("boom");\n    return 0;\n}();\n} // namespace ns3\n')
        assert _compile("#include <stdexcept>\n" + source, library).returncode == 0
        args = ["--plugin", library]
        expect = ("--plugin: .*libthrows.so: its static initialisation threw: boom "
                  "\\(start a new process before loading another\\)")
    else:
        args, expect = [], "FLUX_PLUGINS: .*none.so: no such file"
        env = {"FLUX_PLUGINS": str(tmp_path / "none.so")}
    p = _flux_run(*args, SCENARIO, "--out", out, "--backend", "flow", "--quiet", env=env)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match("flux-run: " + expect, lines[0]), p.stderr
    assert not out.exists()


def _python(script, tmp_path):
    """Run a Python script in a process of its own (so that this one's
    policies stay the built-in ones); its last line of output, as JSON."""
    path = tmp_path / "script.py"
    path.write_text(script)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    env.pop("FLUX_PLUGINS", None)
    p = subprocess.run(["/usr/bin/python3", str(path)], capture_output=True, text=True,
                       timeout=300, env=env, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout.splitlines()[-1])


def test_python_loads_a_plugin_and_sweeps_with_it(plugin, tmp_path):
    """ns3flux.load_plugin returns what the library registered; run() and a
    sweep's spawned workers then run the policy; the cache keys on it; a name
    already taken raises ScenarioError naming load_plugin."""
    copy = tmp_path / "libcopy.so"
    shutil.copy(plugin, copy)
    alone, swept, taken = _python(
        "import json, sys\n"
        "import ns3flux\n"
        "engine = ns3flux.cache.engine_id()\n"
        f"loaded = ns3flux.load_plugin({str(plugin)!r})\n"
        "assert loaded['policies'] == ['stagger'] and loaded['congestion_controls'] == []\n"
        f"assert ns3flux.loaded_plugins() == [{str(plugin)!r}]\n"
        "assert ns3flux.cache.engine_id() != engine\n"
        "assert ns3flux.load_plugin(loaded['path'])['policies'] == []\n"
        f"s = {SCENARIO!r}\n"
        "r = ns3flux.run(s, policy='stagger', backend='flow')\n"
        "runs = ns3flux.sweep_runs(s, ['stagger'], [1, 2], max_workers=2, cache=False,\n"
        "                          backend='flow')\n"
        "try:\n"
        f"    ns3flux.load_plugin({str(copy)!r})\n"
        "    taken = None\n"
        "except ns3flux.ScenarioError as e:\n"
        "    taken = [e.field, e.problem]\n"
        "print(json.dumps([[j['gate_wait_ms'] for j in r['jobs']],\n"
        "                  [[j['gate_wait_ms'] for j in x.results['jobs']] for x in runs],\n"
        "                  taken]))\n", tmp_path)
    assert alone == pytest.approx([0, 0.1]) and swept == [alone, alone]
    assert taken[0] == "load_plugin" and 'registers the policy "stagger"' in taken[1]


def test_a_refused_library_leaves_nothing_registered(tmp_path):
    """A library refused after it registered a policy (its second one has a
    name taken) leaves neither that policy nor itself among the loaded, so
    later runs and sweeps are as before it."""
    library = tmp_path / "libhalf.so"
    source = _example().replace(
        "} // namespace ns3\n",
        "static const bool g_again [[maybe_unused]] = JobScheduler::RegisterPolicy(\n"
        '    "fifo", &StaggerScheduler::GetTypeId, JobScheduler::POLICY_RANK_OTHER);\n'
        "} // namespace ns3\n")
    assert _compile(source, library).returncode == 0
    before, problem, after, loaded = _python(
        "import json\n"
        "import ns3flux\n"
        "before = ns3flux.policies()\n"
        "try:\n"
        f"    ns3flux.load_plugin({str(library)!r})\n"
        "    problem = None\n"
        "except ns3flux.ScenarioError as e:\n"
        "    problem = e.problem\n"
        "print(json.dumps([before, problem, ns3flux.policies(), ns3flux.loaded_plugins()]))\n",
        tmp_path)
    assert 'registers the policy "fifo", a name already taken' in problem
    assert after == before and "stagger" not in after and loaded == []


def test_a_plugin_changed_on_disk_is_refused_not_mixed(plugin, tmp_path):
    """Once a loaded library is rebuilt, the process (which keeps running
    the build it loaded) refuses it: loading it again, listing the loaded
    libraries (what sweeps give their workers), the cache key, a run and a
    bound all raise, rather than giving the old build's results as the new
    one's or mixing the two."""
    library = tmp_path / "libmine.so"
    shutil.copy(plugin, library)
    rebuilt = tmp_path / "librebuilt.so"
    assert _compile(_variant(cls="Rebuilt"), rebuilt).returncode == 0
    problems = _python(
        "import json, os, shutil\n"
        "import ns3flux\n"
        f"ns3flux.load_plugin({str(library)!r})\n"
        f"shutil.copy({str(rebuilt)!r}, {str(library)!r} + '.new')\n"
        f"os.replace({str(library)!r} + '.new', {str(library)!r})\n"
        "problems = []\n"
        "for call in (lambda: ns3flux.load_plugin(" + repr(str(library)) + "),\n"
        "             ns3flux.loaded_plugins, ns3flux.cache.engine_id,\n"
        f"             lambda: ns3flux.run({SCENARIO!r}, policy='stagger', backend='flow'),\n"
        f"             lambda: ns3flux.bound({SCENARIO!r}, policy='stagger')):\n"
        "    try:\n"
        "        call()\n"
        "        problems.append(None)\n"
        "    except ns3flux.ScenarioError as e:\n"
        "        problems.append([e.field, e.problem])\n"
        "print(json.dumps(problems))\n", tmp_path)
    assert problems[0][0] == "load_plugin"
    assert [p[0] for p in problems[1:]] == ["plugin"] * 4, problems
    assert all("changed since it was loaded" in p[1] for p in problems), problems


def test_a_policys_own_counts_reach_the_results(tmp_path):
    """What a policy counts with CountPolicy appears, by name, in the
    results' scheduler.counters (empty for a policy that counts nothing), at
    both levels."""
    library = tmp_path / "libcounting.so"
    source = _example().replace(
        "void Start() override\n    {\n",
        'void Start() override\n    {\n        CountPolicy("staggered", GetNJobs() - 1);\n')
    assert "CountPolicy" in source
    assert _compile(source, library).returncode == 0
    for backend in ("flow", "packet"):
        counts = {}
        for policy in ("stagger", "fifo"):
            out = tmp_path / f"{policy}-{backend}.json"
            p = _flux_run("--plugin", library, SCENARIO, "--policy", policy, "--backend",
                          backend, "--out", out, "--quiet")
            assert p.returncode == 0, p.stderr
            counts[policy] = json.loads(out.read_text())["scheduler"]["counters"]
            columns = ns3flux.frames.runs(ns3flux.load_results(str(out)))
            assert [c for c in columns if c.startswith("counter_")] == (
                ["counter_staggered"] if policy == "stagger" else [])
        assert counts == {"stagger": {"staggered": 1}, "fifo": {}}
