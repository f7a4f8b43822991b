"""The module's layers: nothing in model/ includes a header of helper/
(helpers build on the model, never the other way round)."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCLUDE = re.compile(r'^\s*#\s*include\s*"(?:ns3/)?([^"/]+\.h)"', re.M)


def _headers(folder):
    out = set()
    for d, _, files in os.walk(os.path.join(ROOT, folder)):
        out.update(f for f in files if f.endswith(".h"))
    return out


def test_model_does_not_include_helper():
    helper = _headers("helper")
    assert helper, "helper/ has headers"
    offenders = []
    for d, _, files in os.walk(os.path.join(ROOT, "model")):
        for f in files:
            if not f.endswith((".h", ".cc")):
                continue
            path = os.path.join(d, f)
            with open(path) as fh:
                for name in INCLUDE.findall(fh.read()):
                    if name in helper:
                        offenders.append(f"{os.path.relpath(path, ROOT)} includes {name}")
    assert not offenders, "\n".join(offenders)
