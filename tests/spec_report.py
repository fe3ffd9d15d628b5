"""The JSON report of `prove` on a spec file of documented cases, each check by name (tests of a kind's cases)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from verifier.outcome import ExitCode


def documented_report(spec: Path) -> dict[str, dict[str, object]]:
    """`prove SPEC --format json` in a fresh interpreter, which must find every case as documented (exit 0)."""
    done = subprocess.run([sys.executable, "-m", "verifier", "prove", str(spec), "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr      # every case as documented
    return {str(c["check"]): c for c in json.loads(done.stdout)["checks"]}


def assert_refuted_by(case: dict[str, object], claim: str, witness: str) -> None:
    """A documented case of `documented_report` is refuted, the report naming the claim that fails and its witness."""
    assert case["verdict"] == "refuted", case["verdict"]
    text = json.dumps(case)
    assert claim in text and witness in text, text
