"""Running a user's CuTe DSL compile with its IR kept (the library behind `dsl SCRIPT.py` and `verify`).

The DSL reads its settings from the environment once, when it starts: CUTE_DSL_KEEP=ir makes every compile leave
its module as text (`*_clean.mlir`) in CUTE_DSL_DUMP_DIR, CUTE_DSL_ARCH names the target, and CUTE_DSL_NO_CACHE /
CUTE_DSL_DISABLE_FILE_CACHING make a compile happen even when an earlier one was cached."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ARCHES = ("sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_103a", "sm_120a")
KEEP, DUMP_DIR, ARCH = "CUTE_DSL_KEEP", "CUTE_DSL_DUMP_DIR", "CUTE_DSL_ARCH"
NO_CACHE = {"CUTE_DSL_NO_CACHE": "1", "CUTE_DSL_DISABLE_FILE_CACHING": "1"}
IR_SUFFIX = "_clean.mlir"
MAX_STDERR_LINES = 12


class ScriptError(Exception):
    """The script could not be run, failed, or left no IR: one line, exit status 2."""


def ir_environment(directory: Path, arch: str | None, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a DSL compile leaves its IR under: `directory`, `arch` (default: the environment's)."""
    env = dict(os.environ if base is None else base)
    tokens = [t for t in env.get(KEEP, "").split(",") if t.strip()]
    if "ir" not in tokens and "all" not in tokens:
        tokens.append("ir")
    env[KEEP] = ",".join(tokens)
    env[DUMP_DIR] = str(directory)
    env.update(NO_CACHE)
    if arch is not None:
        env[ARCH] = arch
    return env


def ir_files(directory: Path) -> list[Path]:
    return sorted(directory.rglob("*" + IR_SUFFIX))


def run_script(script: Path, args: list[str], directory: Path, arch: str | None, timeout_s: float) -> list[Path]:
    """Run `python SCRIPT ARGS` (in the script's own directory's terms: the working directory is kept) with the IR
    kept in `directory`; the IR files it left."""
    if not script.is_file():
        raise ScriptError(f"{script}: no such file")
    try:
        done = subprocess.run([sys.executable, str(script), *args], env=ir_environment(directory, arch),
                              capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise ScriptError(f"{script}: still running after {timeout_s:.0f} s (a compile with fake arguments takes "
                          "seconds; does the script run its kernel?)") from None
    except OSError as e:
        raise ScriptError(f"{script}: cannot run it: {e.strerror}") from None
    if done.returncode != 0:
        last = [line for line in done.stderr.strip().splitlines() if line.strip()][-MAX_STDERR_LINES:]
        why = last[-1] if last else f"status {done.returncode}"
        raise ScriptError(f"{script}: the script failed (status {done.returncode}): {why}")
    files = ir_files(directory)
    if not files:
        raise ScriptError(f"{script}: the script compiled nothing that left IR (it must call cute.compile; with "
                          "fake tensors and a fake stream no GPU is needed)")
    return files
