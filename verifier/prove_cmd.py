"""`python -m verifier prove` and `explain`: load specs, prove their checks, report, choose the exit code.

Exit codes: 0 every check's verdict is the one its `expect` documents; 1 a check's verdict differs
(a counterexample where a proof was expected, or a proof where a counterexample was documented);
2 bad input (spec or command line); 3 the solver could not decide some check (never reported as proved).
"""
from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path
from typing import TextIO

from .spec import SpecError, load_specs
from .theorems.runner import CheckResult, TheoremResult, run_check

FORMATS = ("text", "json", "markdown", "junit", "sarif")


def _select(specs, names: list[str] | None):
    pairs = [(s, c) for s in specs for c in s.checks.values()]
    if not names:
        return pairs
    known = {c.name for _, c in pairs}
    missing = [n for n in names if n not in known]
    if missing:
        raise SpecError(None, f"no check named {', '.join(repr(m) for m in missing)} "
                              f"(checks: {', '.join(sorted(known)) or 'none'})")
    return [(s, c) for s, c in pairs if c.name in names]


def _safe_run(spec, check, timeout: float, debug: bool) -> CheckResult:
    try:
        return run_check(spec, check, timeout)
    except Exception as e:  # an internal error must not pass as a verdict, nor hide the other checks
        if debug:
            traceback.print_exc()
        r = CheckResult(spec, check)
        r.theorems = [TheoremResult("end_to_end", "unknown", [], f"internal error: {type(e).__name__}: {e}")]
        r.verdict = "unknown"
        return r


def _portable(r: CheckResult) -> CheckResult:
    """What crosses a process boundary: counterexamples described here, the unpicklable setup dropped."""
    from .report.counterexample import failures
    if r.verdict == "refuted":
        failures(r)
    r.setup = None
    return r


def _run_one(args) -> CheckResult:
    spec, check, timeout = args
    return _portable(_safe_run(spec, check, timeout, False))


def run_all(selected, timeout: float, jobs: int, debug: bool) -> list[CheckResult]:
    """Prove the checks, in `jobs` processes when more than one; a progress line on a terminal."""
    progress = sys.stderr.isatty()
    n = len(selected)

    def tick(i: int, r: CheckResult) -> None:
        if progress:
            sys.stderr.write(f"\r[{i}/{n}] {r.check.name[:60]:<60}")
            sys.stderr.flush()
    results: list[CheckResult] = []
    if jobs <= 1 or n <= 1:
        for i, (s, c) in enumerate(selected, 1):
            results.append(_safe_run(s, c, timeout, debug))
            tick(i, results[-1])
    else:
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for i, r in enumerate(pool.map(_run_one, [(s, c, timeout) for s, c in selected]), 1):
                results.append(r)
                tick(i, r)
    if progress:
        sys.stderr.write("\r" + " " * 72 + "\r")
    return results


def exit_code(results: list[CheckResult]) -> int:
    if any(r.outcome == "fail" for r in results):
        return 1
    if any(r.outcome == "unknown" for r in results):
        return 3
    return 0


def render(results: list[CheckResult], fmt: str, seconds: float, verbose: bool = False) -> str:
    from .report import formats, text
    if fmt == "text":
        return text.render(results, seconds, verbose)
    if fmt == "json":
        return formats.to_json(results, seconds)
    if fmt == "junit":
        return formats.to_junit(results, seconds)
    if fmt == "markdown":
        return formats.to_markdown(results, seconds)
    if fmt == "sarif":
        from .report.sarif import to_sarif
        return to_sarif(results, seconds)
    raise ValueError(fmt)


def prove_main(paths: list[str], fmt: str, output: str | None, checks: list[str] | None, timeout: float,
               verbose: bool = False, debug: bool = False, out: TextIO = sys.stdout, jobs: int = 1) -> int:
    t0 = time.perf_counter()
    try:
        specs = load_specs(paths)
        selected = _select(specs, checks)
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    results = run_all(selected, timeout, jobs, debug)
    seconds = time.perf_counter() - t0
    report = render(results, fmt, seconds, verbose)
    if output:
        try:
            Path(output).write_text(report)
        except OSError as e:
            sys.stderr.write(f"error: cannot write {output}: {e.strerror}\n")
            return 2
        if fmt != "text":
            out.write(render(results, "text", seconds, verbose))
    else:
        out.write(report)
    return exit_code(results)


def explain_main(path: str, check: str, lane: int, value: int, instance: list[int], base: int,
                 out: TextIO = sys.stdout) -> int:
    from .algebra.inttuple import AlgebraError
    from .report.chain import chain_for
    from .theorems.setup import SetupError, build_tiled
    try:
        spec = load_specs([path])[0]
        if check not in spec.checks:
            raise SpecError(None, f"no check named '{check}' in {path} (checks: {', '.join(spec.checks)})")
        c = spec.checks[check]
        if c.kind != "tiled":
            raise SpecError(c.loc, f"check '{check}' has no copy and MMA to trace (it is an atom-only check)")
        setup = build_tiled(c, spec.mma_atoms[c.mma], spec.copy_atoms[c.copy])
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except (SetupError, AlgebraError) as e:
        sys.stderr.write(f"error: CuTe would not build check '{check}': {e}\n")
        return 2
    nthr = setup.tiled_copy.num_threads
    nval = setup.typed.num_val_src if setup.is_store else setup.typed.num_val_dst
    inst_shape = setup.instance_shape()
    if not 0 <= lane < nthr or not 0 <= value < nval:
        sys.stderr.write(f"error: lane must be in [0,{nthr}) and value in [0,{nval}) for check '{check}'\n")
        return 2
    if len(instance) > len(inst_shape) or any(not 0 <= i < n for i, n in zip(instance, inst_shape)):
        sys.stderr.write(f"error: --instance must be within {tuple(inst_shape)}\n")
        return 2
    chain = chain_for(setup, lane, value, tuple(instance), base)
    out.write(f"{path}: check {check}: {c.mma} {setup.operand} <- {c.copy} on {c.value_type.name if c.value_type else ''}"
              f", smem {c.smem}\n")
    out.write(f"{chain.title}\n")
    width = max(len(s.label) for s in chain.steps)
    for s in chain.steps:
        out.write(f"  {s.label:<{width}}  {s.text}\n")
    return 0
