#!/usr/bin/env python3
"""What `--jobs 2` loses to work done twice, under two ways of handing out files: largest first to whichever
worker is free, and by affinity (verifier/engine/schedule.py, what `prove --jobs 2` does).  Each round proves the
catalog with two workers under each schedule, then each worker's share of files again alone in a fresh process, one
after the other, and all files in one fresh process.

The shares' sum minus the single process is the work the two workers duplicate (imports, atom libraries parsed
twice, atom theorems and obligations decided by both); the parallel wall time minus the larger share is what
running side by side costs on this machine.  The obligations decided (by the workers together, by both, by one
process) count the duplicated decisions exactly, whatever the machine's noise.  No cache.  Not a test: prints
numbers.

    python benchmarks/jobs_split.py [--rounds 3] [PATH ...]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier.engine import proving  # noqa: E402
from verifier.engine.schedule import run_with_affinity  # noqa: E402
from verifier.engine.workers import DirectedPool  # noqa: E402
from verifier.symbolic import decide  # noqa: E402
from verifier.symbolic.procedure import Settings  # noqa: E402

# proves the files named on its command line in one fresh process, as a worker does, and prints the seconds and
# how many distinct obligations it decided (as the workers count them)
ALONE = ("import sys, time\n"
         "t0 = time.perf_counter()\n"
         "from verifier.engine import proving\n"
         "from verifier.symbolic import decide\n"
         "from verifier.symbolic.procedure import Settings\n"
         "made = set()\n"
         "real = decide._decide\n"
         "def counted(ob, settings):\n"
         "    made.add((tuple((v.name, v.size) for v in ob.variables), ob.premise, ob.claim, ob.distinct))\n"
         "    return real(ob, settings)\n"
         "decide._decide = counted\n"
         "for f in sys.argv[1:]:\n"
         "    proving.load_and_prove(proving.FileJob(f, False, (), Settings(), None))\n"
         "print(time.perf_counter() - t0, len(made))\n")
SCHEDULES = ("largest first", "affinity")

_decided: set[int] = set()       # in a worker: the obligations it decided (hashes; a forked pool shares the seed)


def _counting(decide_one: Callable[..., Any]) -> Callable[..., Any]:
    def counted(ob: Any, settings: Any) -> Any:
        _decided.add(hash((tuple((v.name, v.size) for v in ob.variables), ob.premise, ob.claim, ob.distinct)))
        return decide_one(ob, settings)
    return counted


def _prove_file(path: str) -> tuple[int, list[str], frozenset[int]]:
    """The worker's pid, the files it loaded, and every obligation it decided so far."""
    loaded = proving.load_and_prove(proving.FileJob(path, False, (), Settings(), None))
    return os.getpid(), loaded.closure, frozenset(_decided)


def alone(files: list[str]) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", ALONE, *files], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.split()
    return float(out[0]), int(out[1])


def in_parallel(files: list[str], schedule: str) -> tuple[float, list[list[str]], list[frozenset[int]]]:
    """Two workers prove `files`: the wall time, each worker's files, and the obligations each decided."""
    by_pid: dict[int, list[str]] = {}
    decided: dict[int, frozenset[int]] = {}
    t0 = time.perf_counter()
    if schedule == "affinity":     # as prove --jobs 2 does
        with DirectedPool(2, _prove_file) as directed:
            for i, (pid, _, seen) in run_with_affinity(
                    files, 2, lambda slot, i: directed.send(slot, i, files[i]), directed.answers, lambda r: r[1]):
                by_pid.setdefault(pid, []).append(files[i])
                decided[pid] = decided.get(pid, frozenset()) | seen
    else:                          # every file queued largest first; a free worker takes the next
        with ProcessPoolExecutor(max_workers=2) as pool:
            order = sorted(range(len(files)), key=lambda i: -os.path.getsize(files[i]))
            for i, (pid, _, seen) in zip(order, pool.map(_prove_file, [files[i] for i in order])):
                by_pid.setdefault(pid, []).append(files[i])
                decided[pid] = decided.get(pid, frozenset()) | seen
    return time.perf_counter() - t0, list(by_pid.values()), list(decided.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "specs")])
    args = ap.parse_args()
    files = proving.discover(args.paths) or []
    decide._decide = _counting(decide._decide)     # inherited by the forked workers
    measures = ("parallel", "larger share", "smaller share", "shares' sum", "decided", "decided by both")
    rows: dict[str, dict[str, list[float]]] = {m: {s: [] for s in SCHEDULES} for m in measures}
    one: dict[str, list[float]] = {"seconds": [], "decided": []}
    for _ in range(args.rounds):
        for schedule in SCHEDULES:
            wall, shares, decided = in_parallel(files, schedule)
            rows["parallel"][schedule].append(wall)
            seconds = sorted((alone(share)[0] for share in shares), reverse=True) + [0.0]
            rows["larger share"][schedule].append(seconds[0])
            rows["smaller share"][schedule].append(seconds[1])
            rows["shares' sum"][schedule].append(seconds[0] + seconds[1])
            rows["decided"][schedule].append(sum(len(d) for d in decided))
            rows["decided by both"][schedule].append(len(frozenset.intersection(*decided)) if len(decided) > 1
                                                     else 0)
        seconds, count = alone(files)
        one["seconds"].append(seconds)
        one["decided"].append(count)
    print(f"{len(files)} spec files; {args.rounds} rounds (the two schedules and one process interleaved), medians; "
          "no cache")
    print(f"| {'measure':<58} | largest first | affinity |")
    print(f"|{'-' * 60}|---------------|----------|")
    notes = {"parallel": "two workers side by side (s)",
             "larger share": "the larger worker's files, alone in a fresh process (s)",
             "smaller share": "the smaller worker's files, alone in a fresh process (s)",
             "shares' sum": "both shares, one after the other (s)",
             "decided": "obligations decided, both workers together",
             "decided by both": "obligations decided by both workers"}
    for m in measures:
        a, b = (statistics.median(rows[m][s]) for s in SCHEDULES)
        shown = (f"{a:>13.3f} | {b:>8.3f}" if m not in ("decided", "decided by both")
                 else f"{a:>13.0f} | {b:>8.0f}")
        print(f"| {notes[m]:<58} | {shown} |")
    print(f"| {'every file in one fresh process (as --jobs 1) (s)':<58} | {statistics.median(one['seconds']):>24.3f} |")
    print(f"| {'obligations decided by one process':<58} | {statistics.median(one['decided']):>24.0f} |")


if __name__ == "__main__":
    main()
