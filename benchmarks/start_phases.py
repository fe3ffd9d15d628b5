#!/usr/bin/env python3
"""Where the empty-cache start of one spec goes.  Prints a table; not a test.

Each round runs in a fresh process (imports are part of what is measured) and times, in order: importing numpy,
importing the verifier's prover modules, loading the spec, proving every check (no cache), and within that the
deciding of the obligations; then, outside the run, evaluating the same obligations point by point in plain
Python (what skipping numpy would cost).  Medians over the rounds; bytecode as the interpreter finds it.

    python benchmarks/start_phases.py [--rounds 5] [SPEC]
"""
from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("import numpy", "import the prover", "load the spec", "prove every check", "  of which deciding",
          "plain-Python evaluation of the same points")


def one_round(spec: str) -> dict[str, float]:
    t0 = time.perf_counter()
    import numpy  # noqa: F401
    t1 = time.perf_counter()
    sys.path.insert(0, str(ROOT))
    from verifier.spec.loader import load_specs
    from verifier.symbolic import decide as decide_module
    from verifier.symbolic.expr import compile_py
    from verifier.theorems.runner import run_check
    t2 = time.perf_counter()
    specs = load_specs([spec])
    t3 = time.perf_counter()
    decided: list = []
    deciding = 0.0
    original = decide_module._decide

    def timed(ob, settings):
        nonlocal deciding
        s = time.perf_counter()
        out = original(ob, settings)
        deciding += time.perf_counter() - s
        decided.append(ob)
        return out

    decide_module._decide = timed
    for s in specs:
        for c in s.checks.values():
            run_check(s, c)
    t4 = time.perf_counter()
    points = 0
    for ob in decided:
        over = list(ob.distinct.over) if ob.distinct is not None else list(ob.variables)
        fn = compile_py([ob.distinct.value] if ob.distinct is not None else [ob.premise, ob.claim], over)
        for p in itertools.product(*(range(v.size) for v in over)):
            fn(*p)
            points += 1
    t5 = time.perf_counter()
    return dict(zip(PHASES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, deciding, t5 - t4))) | {
        "obligations": len(decided), "points": points}


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
    print(f"{Path(args.spec).name}: {rounds[0]['obligations']} obligations decided, {rounds[0]['points']} points; "
          f"{args.rounds} rounds in fresh processes, medians")
    print(f"| {'phase':<44} | {'median (s)':>10} |")
    print(f"|{'-' * 46}|{'-' * 12}|")
    for phase in PHASES:
        print(f"| {phase:<44} | {statistics.median(r[phase] for r in rounds):>10.3f} |")


if __name__ == "__main__":
    main()
