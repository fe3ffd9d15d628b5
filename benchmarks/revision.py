"""A git revision of this repository unpacked to run beside the working tree: what a benchmark's --baseline-rev
measures in the same run (imported by the benchmarks beside it)."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def unpacked(rev: str, scratch: Path, paths: tuple[str, ...] = ("verifier", "specs")) -> Path:
    """`paths` of the repository as they were at `rev` (git archive), under a new directory of `scratch`, returned:
    run the verifier from it (cwd and PYTHONPATH) and it reads that revision's package and atom library."""
    where = scratch / f"baseline-{rev}"
    where.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *paths], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
    return where
