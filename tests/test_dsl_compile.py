"""The CuTe DSL path end to end, the DSL compiling our own tile kernel (tests/dsl_tile_kernel.py) inside the test:
`dsl SCRIPT.py`, the `verify` entry for pytest users, and import-dsl of a fresh compile.  Skipped, with the reason,
where the `dsl` extra (nvidia-cutlass-dsl) is not installed."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.outcome import ExitCode

pytestmark = pytest.mark.skipif(importlib.util.find_spec("cutlass") is None,
                                reason="the CuTe DSL is not installed (pip install -e '.[dsl]')")
TESTS = Path(__file__).parent
KERNEL = TESTS / "dsl_tile_kernel.py"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, timeout=900,
                          cwd=TESTS.parent)


def test_dsl_command_proves_the_tile_kernel():
    done = run("dsl", str(KERNEL), "--arch", "sm_80")
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    assert "6 checks: 6 as expected (6 verified" in done.stdout


def test_dsl_command_refutes_a_reader_without_the_swizzle(tmp_path: Path):
    spec = tmp_path / "kept.yaml"
    done = run("dsl", str(KERNEL), "--arch", "sm_80", "-o", str(spec), "--", "reader_swizzle=(0,4,3)")
    assert done.returncode == ExitCode.WRONG, done.stdout + done.stderr
    assert "REFUTED (buffer.agreement)" in done.stdout
    assert "buffer:" in spec.read_text(encoding="utf-8")


def test_dsl_command_on_a_failing_script_is_one_line_and_exit_2(tmp_path: Path):
    script = tmp_path / "broken.py"
    script.write_text("raise SystemExit('no kernel here')\n", encoding="utf-8")
    done = run("dsl", str(script), "--arch", "sm_80")
    assert done.returncode == ExitCode.BAD_INPUT
    assert len(done.stderr.strip().splitlines()) == 1 and "the script failed" in done.stderr
    idle = tmp_path / "idle.py"
    idle.write_text("print('compiles nothing')\n", encoding="utf-8")
    done = run("dsl", str(idle))
    assert done.returncode == ExitCode.BAD_INPUT and "compiled nothing" in done.stderr


def test_verify_entry_returns_the_results_the_reports_use(tmp_path: Path):
    script = tmp_path / "use_verify.py"
    script.write_text(f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
import verifier.dsl.api as vdsl
vdsl.keep_ir(arch="sm_80")                 # before cutlass is imported
from dsl_tile_kernel import build
from verifier.theorems.result import CheckResult
good = vdsl.verify(*(lambda h, a: (h, *a))(*build({{}})))
assert good.ok and all(isinstance(r, CheckResult) for r in good.results), good.report()
bad = vdsl.verify(*(lambda h, a: (h, *a))(*build({{"a_copy_for": "B"}})))
assert not bad.ok and any(r.verdict.value == "refuted" for r in bad.results)
print(len(good.results), "checks verified;", sum(r.verdict.value == "refuted" for r in bad.results), "refuted")
""", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900,
                          cwd=TESTS.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 checks verified; 1 refuted" in done.stdout


def test_verify_refuses_a_dsl_started_without_its_ir(tmp_path: Path):
    script = tmp_path / "late.py"
    script.write_text("import cutlass\nimport verifier.dsl.api as vdsl\n"
                      "try:\n    vdsl.keep_ir()\nexcept vdsl.DslSetupError as e:\n    print('refused:', e)\n",
                      encoding="utf-8")
    env_free = {k: v for k, v in __import__("os").environ.items() if not k.startswith("CUTE_DSL_")}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env_free)
    assert "refused: cutlass is already imported without CUTE_DSL_KEEP=ir" in done.stdout, done.stderr
