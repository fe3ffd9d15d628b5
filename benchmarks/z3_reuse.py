#!/usr/bin/env python3
"""Does reusing a Z3 solver across obligations pay?  Prints a table; not a test.

Collects every distinct obligation that proving `specs/` (default settings, no cache) hands to Z3, then decides
all of them in interleaved rounds with three strategies and prints the median total time of each and its ratio
to the first:

  fresh      a new QF_BV solver per obligation, its script read by `from_string`, in Z3's main context (what
             `verifier/symbolic/decide.py` did before it kept contexts)
  push/pop   one solver for the whole run: push, read the script, check, pop (a solver's parser keeps what
             `from_string` declared across pops, so each script's names get the obligation's own prefix:
             without it the second script is refused as redeclaring e0, e1, ... with other widths)
  context/N  a new Z3 context every N obligations, a new solver per obligation inside it (what decide.py does,
             with N = its CONTEXT_OBLIGATIONS)

Every strategy must reach the same status on every obligation (the table says so); timings are of deciding
only (the SMT-LIB text is built once, before the rounds).

    python benchmarks/z3_reuse.py [--rounds 3] [--per-context 200] [SPEC ...]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import z3

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.commands import cli  # noqa: E402
from verifier.symbolic import decide as decide_module  # noqa: E402
from verifier.symbolic.backends import SMT2  # noqa: E402
from verifier.symbolic.decide import (CONTEXT_OBLIGATIONS, DEFAULT_SETTINGS, Procedure, choose,  # noqa: E402
                                      has_non_power_of_two_division)
from verifier.symbolic.obligation import Obligation  # noqa: E402

Strategy = Callable[[list[str]], list[z3.CheckSatResult]]


def collect(specs: list[str]) -> list[Obligation]:
    """The distinct obligations a default run of `prove specs --no-cache` decides with Z3, in the order met."""
    seen: dict[tuple, Obligation] = {}
    original = decide_module._decide

    def recording(ob: Obligation, settings: decide_module.Settings):
        if choose(ob, DEFAULT_SETTINGS) is Procedure.Z3:
            seen.setdefault((tuple((v.name, v.size) for v in ob.variables), ob.premise, ob.claim), ob)
        return original(ob, settings)

    decide_module._decide = recording
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            sys.argv = ["verifier", "prove", *specs, "--no-cache"]
            cli.main()
    finally:
        decide_module._decide = original
    return list(seen.values())


def fresh(scripts: list[str]) -> list[z3.CheckSatResult]:
    out = []
    for text in scripts:
        solver = z3.SolverFor("QF_BV")
        solver.from_string(text)
        out.append(solver.check())
    return out


_VARIABLE = re.compile(r"\|([^|]*)\|")
_DEFINED = re.compile(r"\be(\d+)\b")


def renamed(text: str, prefix: str) -> str:
    """The script with every declared and defined name prefixed."""
    return _DEFINED.sub(lambda m: f"{prefix}e{m.group(1)}", _VARIABLE.sub(lambda m: f"|{prefix}{m.group(1)}|", text))


def push_pop(scripts: list[str]) -> list[z3.CheckSatResult]:
    solver = z3.SolverFor("QF_BV")
    out = []
    for text in scripts:      # renamed (see `renamed`) before the rounds
        solver.push()
        solver.from_string(text)
        out.append(solver.check())
        solver.pop()
    return out


def context_every(n: int) -> Strategy:
    def run(scripts: list[str]) -> list[z3.CheckSatResult]:
        out: list[z3.CheckSatResult] = []
        ctx = z3.Context()
        for i, text in enumerate(scripts):
            if i and i % n == 0:
                ctx = z3.Context()
            solver = z3.SolverFor("QF_BV", ctx=ctx)
            solver.from_string(text)
            out.append(solver.check())
        return out
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--per-context", type=int, default=CONTEXT_OBLIGATIONS)
    ap.add_argument("specs", nargs="*", default=["specs/"])
    args = ap.parse_args()
    obligations = collect(args.specs)
    scripts = [SMT2(ob.width()).script(ob.variables, ob.premise, ob.claim) for ob in obligations]
    own_names = [renamed(text, f"o{i}_") for i, text in enumerate(scripts)]   # push/pop's input, not timed
    division = sum(map(has_non_power_of_two_division, obligations))
    strategies: dict[str, Strategy] = {"fresh": fresh, "push/pop": push_pop,
                                       f"context/{args.per_context}": context_every(args.per_context)}
    times: dict[str, list[float]] = {name: [] for name in strategies}
    results: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for name, strategy in strategies.items():
            t0 = time.perf_counter()
            statuses = strategy(own_names if strategy is push_pop else scripts)
            times[name].append(time.perf_counter() - t0)
            results[name] = [str(r) for r in statuses]
    agree = all(r == results["fresh"] for r in results.values())
    print(f"{len(scripts)} distinct obligations decided by Z3 in a default run of prove {' '.join(args.specs)} "
          f"({division} with a division by a non-power of two); {args.rounds} interleaved rounds, medians; "
          f"z3 {z3.get_version_string()}; "
          f"statuses {'agree' if agree else 'DISAGREE'} across strategies")
    base = statistics.median(times["fresh"])
    print(f"| {'strategy':<12} | {'total (s)':>9} | {'ms / obligation':>15} | {'vs fresh':>8} |")
    print(f"|{'-' * 14}|{'-' * 11}|{'-' * 17}|{'-' * 10}|")
    for name in strategies:
        m = statistics.median(times[name])
        per = 1000 * m / max(1, len(scripts))
        print(f"| {name:<12} | {m:>9.3f} | {per:>15.2f} | {m / base:>7.2f}x |")


if __name__ == "__main__":
    main()
