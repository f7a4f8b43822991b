"""The documentation's diagrams are drawn from their text sources in
doc/figures/*.dot: the committed pictures are what those sources draw
(scripts/gen-doc-figures.sh --check)."""

import os
import shutil
import subprocess

import pytest
from conftest import ROOT


def test_diagrams_match_their_sources():
    if shutil.which("dot") is None:
        pytest.skip("graphviz's dot is not installed (scripts/install-deps.sh installs it)")
    proc = subprocess.run([os.path.join(ROOT, "scripts", "gen-doc-figures.sh"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_every_diagram_is_in_the_manual():
    with open(os.path.join(ROOT, "doc", "flux.rst")) as f:
        manual = f.read()
    for name in os.listdir(os.path.join(ROOT, "doc", "figures")):
        if name.endswith(".dot"):
            assert "figures/" + name[:-4] + ".png" in manual, name
