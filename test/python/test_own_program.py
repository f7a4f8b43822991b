"""A program of one's own, built outside the project against the standalone
build: with the manual's g++ command, and with CMake's find_package(flux).
Each gives what the project's own build of the same source gives."""

import json
import os
import re
import shlex
import shutil
import subprocess

import pytest

from conftest import ROOT

EXAMPLE = os.path.join(ROOT, "examples", "flux-ring-allreduce-example.cc")
SCENARIO = os.path.join(ROOT, "examples", "scenarios", "contended-two-equal.json")

pytestmark = pytest.mark.skipif(shutil.which("g++") is None or shutil.which("cmake") is None,
                                reason="needs g++ and cmake")


def _summary(output):
    """The example's summary lines (JCT, allreduce time, pauses...)."""
    return output[output.index("Summary"):]


def test_the_manuals_compile_command_builds_a_program(flux_run, tmp_path):
    """The g++ command of doc/flux.rst (*Your own program*), run as written
    from the project folder with the example as my-sim.cc, builds a program
    whose summary is the project-built example's."""
    build = os.path.dirname(flux_run.path)
    with open(os.path.join(ROOT, "doc", "flux.rst")) as fh:
        manual = fh.read()
    block = re.search(r"compile against the standalone build::\n\n((?:   .*\n)+)", manual)
    assert block, "the manual's compile command"
    command = " ".join(line.strip().rstrip("\\") for line in block.group(1).splitlines())
    args = [a.replace("$PWD/build", build) for a in shlex.split(command)]
    args = [build + "/include" if a == "build/include" else build if a == "build" else a
            for a in args]
    args = [EXAMPLE if a == "my-sim.cc" else str(tmp_path / "my-sim") if a == "my-sim" else a
            for a in args]
    assert args[0] == "g++" and EXAMPLE in args, args
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    ours = subprocess.run([str(tmp_path / "my-sim")], capture_output=True, text=True, timeout=300)
    theirs = subprocess.run([os.path.join(build, "examples", "flux-ring-allreduce-example")],
                            capture_output=True, text=True, timeout=300)
    assert ours.returncode == 0 and theirs.returncode == 0, ours.stderr
    assert _summary(ours.stdout) == _summary(theirs.stdout)


def test_find_package_flux_builds_a_scenario_runner(flux_run, tmp_path):
    """A CMake project with find_package(flux) and -Dflux_DIR=<build> links
    flux::ns3-flux-scenario, and its program runs a scenario through the C++
    scenario API to the JCTs flux-run writes for it."""
    build = os.path.dirname(flux_run.path)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\n"
        "project(my-sim CXX)\n"
        "set(CMAKE_CXX_STANDARD 17)\n"
        "find_package(flux CONFIG REQUIRED)\n"
        "add_executable(my-sim my-sim.cc)\n"
        "target_link_libraries(my-sim PRIVATE flux::ns3-flux-scenario)\n")
    (tmp_path / "my-sim.cc").write_text(
        '#include "ns3/scenario-config.h"\n'
        '#include "ns3/scenario-runner.h"\n'
        "#include <cstdio>\n"
        "int main(int, char** argv)\n"
        "{\n"
        "    ns3::RunOptions opts;\n"
        "    opts.quiet = true;\n"
        "    for (const auto& job : ns3::RunScenario(ns3::LoadScenarioFile(argv[1]), opts).jobs)\n"
        '        std::printf("%s %.6f\\n", job.name.c_str(), job.jctMs);\n'
        "}\n")
    for step in (["cmake", "-S", tmp_path, "-B", tmp_path / "b", f"-Dflux_DIR={build}"],
                 ["cmake", "--build", tmp_path / "b"]):
        p = subprocess.run([str(a) for a in step], capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stdout + p.stderr
    ours = subprocess.run([str(tmp_path / "b" / "my-sim"), SCENARIO], capture_output=True,
                          text=True, timeout=300)
    assert ours.returncode == 0, ours.stderr
    out = tmp_path / "r.json"
    assert flux_run(SCENARIO, "--out", out, "--quiet").returncode == 0
    jobs = json.loads(out.read_text())["jobs"]
    got = {name: float(ms) for name, ms in (line.split() for line in ours.stdout.splitlines())}
    assert got == pytest.approx({j["name"]: j["jct_ms"] for j in jobs}, abs=1e-6)
