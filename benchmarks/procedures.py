#!/usr/bin/env python3
"""Where does exhaustive enumeration stop being cheaper than Z3?  Prints a table; not a test.

Collects every distinct obligation that proving the catalog (`specs/`) hands to a decision procedure and that
both procedures can decide (at most 2^22 points, no division by a non-power of two, no injectivity form),
then decides each one with Z3 bit-vectors and with numpy enumeration, alternating the two in interleaved
rounds, and prints per domain size (rounded up to a power of two) the median total time of each procedure and
their ratio.  `verifier/symbolic/decide.py`'s SMALL_DOMAIN (below it: enumeration) is set from this table.

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

from verifier import cli  # noqa: E402
from verifier.symbolic import decide as decide_module  # noqa: E402
from verifier.symbolic.decide import (ENUMERATION_LIMIT, Procedure, enumerable,  # noqa: E402
                                      enumerate_obligation, has_non_power_of_two_division)
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


def enumeration_seconds(ob: Obligation) -> float:
    t0 = time.perf_counter()
    enumerate_obligation(ob)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("specs", nargs="*", default=["specs/"])
    args = ap.parse_args()
    obligations = collect(args.specs)
    by_bits: dict[int, list[Obligation]] = collections.defaultdict(list)
    for ob in obligations:
        by_bits[max(0, math.ceil(math.log2(ob.domain_size())))].append(ob)
    times: dict[tuple[int, Procedure], list[float]] = collections.defaultdict(list)
    for _ in range(args.rounds):
        for bits, group in sorted(by_bits.items()):
            times[bits, Procedure.Z3].append(sum(z3_seconds(ob) for ob in group))
            times[bits, Procedure.ENUMERATION].append(sum(enumeration_seconds(ob) for ob in group))
    print(f"{len(obligations)} distinct obligations both procedures decide, from {' '.join(args.specs)}; "
          f"{args.rounds} interleaved rounds, medians")
    print(f"| {'points':>7} | {'obligations':>11} | {'Z3 (s)':>8} | {'enumeration (s)':>15} | {'Z3 / enum':>9} |")
    print(f"|{'-' * 9}|{'-' * 13}|{'-' * 10}|{'-' * 17}|{'-' * 11}|")
    for bits, group in sorted(by_bits.items()):
        z3_s = statistics.median(times[bits, Procedure.Z3])
        enum_s = statistics.median(times[bits, Procedure.ENUMERATION])
        ratio = f"{z3_s / enum_s:.2f}" if enum_s > 0 else "-"
        print(f"| {'2^' + str(bits):>7} | {len(group):>11} | {z3_s:>8.4f} | {enum_s:>15.4f} | {ratio:>9} |")


if __name__ == "__main__":
    main()
