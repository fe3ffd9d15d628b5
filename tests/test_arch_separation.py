"""A Hopper check loads no Blackwell module, and a Blackwell check no Hopper one.

Each case runs in a fresh interpreter: it loads one catalog spec, proves one of its checks (and evaluates the
chain `explain` prints for it), then lists the modules in sys.modules whose names say the other architecture.  A
hook on the import system records, for each such module, the line that imported it first, so that a failure
names the import to change.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent

# run in the child: argv = spec path, the patterns the other architecture's module names have
CHILD = r'''
import importlib.abc, json, re, sys, traceback

spec_path, patterns = sys.argv[1], json.loads(sys.argv[2])
forbidden = re.compile("|".join(patterns))
first = {}


class Recorder(importlib.abc.MetaPathFinder):
    """Remembers the first line that imports each forbidden module (finds nothing itself)."""
    def find_spec(self, name, path, target=None):
        if name not in first and forbidden.search(name):
            frames = [f for f in traceback.extract_stack()[:-1]
                      if "importlib" not in f.filename and not f.filename.startswith("<")]
            first[name] = f"{frames[-1].filename}:{frames[-1].lineno}: {frames[-1].line}" if frames else "?"
        return None


sys.meta_path.insert(0, Recorder())
from verifier.engine.runner import run_check
from verifier.specfile import load_spec
from verifier.kinds.smem_mma.chain import Sm90Chain
from verifier.kinds.smem_mma.setup import build_sm90

spec = load_spec(spec_path)
check = next(iter(spec.checks.values()))
result = run_check(spec, check)
chain = Sm90Chain(build_sm90(check, spec.mma_atoms[check.mma]))
title, lines = chain.element_lines(0, 0, 1, 1)
loaded = sorted(m for m in sys.modules if forbidden.search(m))
print(json.dumps({"check": check.name, "verdict": str(result.verdict), "chain": len(lines),
                  "loaded": {m: first.get(m, "?") for m in loaded}}))
'''

# a dotted name's component starting with the word (so that e.g. `summary` is not `umma`)
BLACKWELL = [r"(^|[._])umma", r"(^|[._])tcgen05", r"(^|[._])tmem", r"(^|[._])sm100"]
HOPPER = [r"(^|[._])wgmma", r"(^|[._])gmma_desc", r"smem_mma\.sm90"]
# the kind registry (verifier/kinds/registry.py) imports every built-in kind's registration, its kind.py and the
# configuration reader it asks whether a check is of its kind, to read any spec: the tensor-memory kind's are loaded
# by every check by design.  They hold no model (their theorems, chains and views load with a tmem check).
KIND_REGISTRATIONS = frozenset({"verifier.kinds.tmem", "verifier.kinds.tmem.kind", "verifier.kinds.tmem.config"})
# the one Hopper module a Blackwell check reads, on purpose: tcgen05's shared-memory descriptor (hardware/umma_desc.py)
# has wgmma's fields and canonical layouts for its SWIZZLE_NONE/32B/64B/128B modes and computes their addresses with
# wgmma's descriptor model (one model of one ISA fact); its own 128B_BASE32B mode is its own
SHARED_DESCRIPTOR_MODEL = frozenset({"verifier.hardware.gmma_desc"})


def _imports(spec: str, patterns: list[str]) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / spec), json.dumps(patterns)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    out: dict[str, object] = json.loads(run.stdout.strip().splitlines()[-1])
    return out


def _explain(loaded: dict[str, str]) -> str:
    return "\n".join(f"  {module}  <- {line}" for module, line in loaded.items())


@pytest.mark.parametrize("spec,patterns,other", [
    ("specs/catalog/sm90_gmma.yaml", BLACKWELL, "Blackwell"),
    ("specs/catalog/sm100_umma.yaml", HOPPER, "Hopper"),
], ids=["hopper_loads_no_blackwell", "blackwell_loads_no_hopper"])
def test_a_check_loads_no_module_of_the_other_architecture(spec, patterns, other):
    out = _imports(spec, patterns)
    assert out["chain"], out                      # the chain was evaluated: the descriptor was read
    loaded = out["loaded"]
    assert isinstance(loaded, dict)
    loaded = {m: line for m, line in loaded.items() if m not in KIND_REGISTRATIONS | SHARED_DESCRIPTOR_MODEL}
    assert not loaded, (f"proving {out['check']} of {spec} imported {other} modules (each with the line that "
                        f"imported it first):\n{_explain(loaded)}")
