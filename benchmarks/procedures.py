#!/usr/bin/env python3
"""Where does exhaustive enumeration stop being cheaper than Z3, and numpy than plain Python?  Prints a table; not
a test.

Collects every distinct obligation that proving the catalog (`specs/`) hands to a decision procedure and that
both procedures can decide (at most 2^22 points, no division by a non-power of two, no injectivity form),
then decides each one with Z3 bit-vectors, with numpy enumeration and (up to 2^16 points) with the plain-Python
loop nest, interleaved rounds, and prints per domain size (rounded up to a power of two) the median total time
of each and the ratios.  `verifier/symbolic/decide.py`'s SMALL_DOMAIN (below it: enumeration) and PYTHON_POINTS
(below it, until numpy is imported: plain Python) are set from this table; numpy's import is not in it.

    python benchmarks/procedures.py [--rounds 3] [SPEC ...]
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import io
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.commands import cli  # noqa: E402
from verifier.symbolic import decide as decide_module  # noqa: E402
from verifier.symbolic.decide import (ENUMERATION_LIMIT, Procedure, enumerable,  # noqa: E402
                                      failures_in_python, failures_with_numpy, has_non_power_of_two_division)
from verifier.symbolic.obligation import Obligation  # noqa: E402


def collect(specs: list[str]) -> list[Obligation]:
    """The distinct obligations proving `specs` decides, in the order met."""
    seen: dict[tuple, Obligation] = {}
    original = decide_module._decide

    def recording(ob: Obligation, settings: decide_module.Settings):
        key = (tuple((v.name, v.size) for v in ob.variables), ob.premise, ob.claim, ob.distinct)
        seen.setdefault(key, ob)
        return original(ob, settings)

    decide_module._decide = recording
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            sys.argv = ["verifier", "prove", *specs, "--no-cache", "--procedure", "z3"]
            cli.main()
    finally:
        decide_module._decide = original
    return [ob for ob in seen.values()
            if ob.distinct is None and not enumerable(ob, ENUMERATION_LIMIT)
            and not has_non_power_of_two_division(ob)]


def z3_seconds(ob: Obligation) -> float:
    t0 = time.perf_counter()
    status, *_ = decide_module._z3(ob, 60.0)
    assert status.value in ("proved", "refuted"), status
    return time.perf_counter() - t0


def numpy_seconds(ob: Obligation) -> float:
    t0 = time.perf_counter()
    failures_with_numpy(ob)
    return time.perf_counter() - t0


def python_seconds(ob: Obligation) -> float:
    t0 = time.perf_counter()
    failures_in_python(ob)
    return time.perf_counter() - t0


PYTHON_UP_TO = 16    # bits: larger domains are not timed in plain Python


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("specs", nargs="*", default=["specs/"])
    args = ap.parse_args()
    obligations = collect(args.specs)
    by_bits: dict[int, list[Obligation]] = collections.defaultdict(list)
    for ob in obligations:
        by_bits[max(0, math.ceil(math.log2(ob.domain_size())))].append(ob)
    times: dict[tuple[int, str], list[float]] = collections.defaultdict(list)
    for _ in range(args.rounds):
        for bits, group in sorted(by_bits.items()):
            times[bits, Procedure.Z3.value].append(sum(z3_seconds(ob) for ob in group))
            times[bits, "numpy"].append(sum(numpy_seconds(ob) for ob in group))
            if bits <= PYTHON_UP_TO:
                times[bits, "python"].append(sum(python_seconds(ob) for ob in group))
    print(f"{len(obligations)} distinct obligations both procedures decide, from {' '.join(args.specs)}; "
          f"{args.rounds} interleaved rounds, medians")
    print(f"| {'points':>7} | {'obligations':>11} | {'Z3 (s)':>8} | {'numpy (s)':>9} | {'Python (s)':>10} | "
          f"{'Z3 / numpy':>10} | {'Python / numpy':>14} |")
    print(f"|{'-' * 9}|{'-' * 13}|{'-' * 10}|{'-' * 11}|{'-' * 12}|{'-' * 12}|{'-' * 16}|")
    for bits, group in sorted(by_bits.items()):
        z3_s = statistics.median(times[bits, Procedure.Z3.value])
        np_s = statistics.median(times[bits, "numpy"])
        py = times.get((bits, "python"))
        py_s = statistics.median(py) if py else None
        ratio = f"{z3_s / np_s:.2f}" if np_s > 0 else "-"
        py_ratio = f"{py_s / np_s:.2f}" if py_s is not None and np_s > 0 else "-"
        py_text = f"{py_s:>10.4f}" if py_s is not None else f"{'-':>10}"
        print(f"| {'2^' + str(bits):>7} | {len(group):>11} | {z3_s:>8.4f} | {np_s:>9.4f} | {py_text} | {ratio:>10} | "
              f"{py_ratio:>14} |")


if __name__ == "__main__":
    main()
