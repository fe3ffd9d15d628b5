#!/usr/bin/env python3
"""Where the empty-cache start of one spec goes.  Prints a table; not a test.

Each round runs in a fresh process (imports are part of what is measured) and times, in order: importing the
verifier's prover modules, loading the spec, proving every check (no cache), within that the deciding of the
obligations and, within that, building and compiling the plain-Python loop nests; then, after the run, what the
numpy evaluator would have cost instead: importing numpy and enumerating the same obligations with it.  It also
says whether the run imported numpy or Z3.  Medians over the rounds; bytecode as the interpreter finds it.

    python benchmarks/start_phases.py [--rounds 5] [SPEC]
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("import the prover", "load the spec", "prove every check", "  of which deciding",
          "    of which building and compiling loop nests", "numpy instead: import numpy",
          "numpy instead: enumerate the same obligations")


def one_round(spec: str) -> dict:
    t0 = time.perf_counter()
    sys.path.insert(0, str(ROOT))
    from verifier.specfile.loader import load_specs
    from verifier.symbolic import decide as decide_module
    from verifier.symbolic import loops
    from verifier.engine.runner import run_check
    t1 = time.perf_counter()
    specs = load_specs([spec])
    t2 = time.perf_counter()
    decided: list = []
    spent = {"deciding": 0.0, "nests": 0.0}
    original_decide, original_nest = decide_module._decide, loops._nest

    def timed_decide(ob, settings):
        s = time.perf_counter()
        out = original_decide(ob, settings)
        spent["deciding"] += time.perf_counter() - s
        decided.append(ob)
        return out

    def timed_nest(*args):
        s = time.perf_counter()
        out = original_nest(*args)
        spent["nests"] += time.perf_counter() - s
        return out

    decide_module._decide, loops._nest = timed_decide, timed_nest
    for s in specs:
        for c in s.checks.values():
            run_check(s, c)
    t3 = time.perf_counter()
    imported = {m: m in sys.modules for m in ("numpy", "z3")}
    import numpy  # noqa: F401
    t4 = time.perf_counter()
    points = 0
    for ob in decided:
        if ob.distinct is not None:
            decide_module.distinct_with_numpy(ob)
            points += ob.distinct.size()
        else:
            decide_module.failures_with_numpy(ob)
            points += ob.domain_size()
    t5 = time.perf_counter()
    return dict(zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, spent["deciding"], spent["nests"], t4 - t3, t5 - t4))) | {
        "obligations": len(decided), "points": points, "imported": imported}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--one-round", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("spec", nargs="?", default=str(ROOT / "specs" / "sm80_f16.yaml"))
    args = ap.parse_args()
    if args.one_round:
        print(json.dumps(one_round(args.spec)))
        return
    rounds = [json.loads(subprocess.run([sys.executable, __file__, "--one-round", args.spec], check=True,
                                        capture_output=True, text=True).stdout) for _ in range(args.rounds)]
    used = ", ".join(f"{m} {'imported' if rounds[0]['imported'][m] else 'not imported'}" for m in ("numpy", "z3"))
    print(f"{Path(args.spec).name}: {rounds[0]['obligations']} obligations decided, {rounds[0]['points']} points "
          f"({used}); {args.rounds} rounds in fresh processes, medians")
    print(f"| {'phase':<46} | {'median (s)':>10} |")
    print(f"|{'-' * 48}|{'-' * 12}|")
    for phase in PHASES:
        print(f"| {phase:<46} | {statistics.median(r[phase] for r in rounds):>10.3f} |")


if __name__ == "__main__":
    main()
