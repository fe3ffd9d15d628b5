#!/usr/bin/env python3
"""What `--jobs 2` loses to work done twice: the catalog proved by two workers (as `prove --jobs 2` hands out
files: verifier/schedule.py), then each worker's share of files proved again alone in a
fresh process, one after the other, and all files in one fresh process.

The shares' sum minus the single process is the work the two workers duplicate (imports, atom libraries parsed
twice, atom theorems and obligations decided by both); the parallel wall time minus the larger share is what
running side by side costs on this machine. No cache. Not a test: prints numbers.

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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from verifier import prove_cmd  # noqa: E402
from verifier.schedule import run_with_affinity  # noqa: E402
from verifier.symbolic.procedure import Settings  # noqa: E402

# proves the files named on its command line in one fresh process, as a worker does, and prints the seconds
ALONE = ("import sys, time\n"
         "t0 = time.perf_counter()\n"
         "from verifier import prove_cmd\n"
         "from verifier.symbolic.procedure import Settings\n"
         "for f in sys.argv[1:]:\n"
         "    prove_cmd._load_and_prove(prove_cmd._FileJob(f, False, (), Settings(), None))\n"
         "print(time.perf_counter() - t0)\n")


def _prove_file(path: str) -> tuple[int, list[str]]:
    """The worker's pid, and the files it loaded."""
    loaded = prove_cmd._load_and_prove(prove_cmd._FileJob(path, False, (), Settings(), None))
    return os.getpid(), loaded.closure


def alone(files: list[str]) -> float:
    out = subprocess.run([sys.executable, "-c", ALONE, *files], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    return float(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "specs")])
    args = ap.parse_args()
    files = prove_cmd._discover(args.paths) or []
    rows: dict[str, list[float]] = {k: [] for k in ("parallel", "larger share", "smaller share", "shares' sum",
                                                     "one process")}
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        by_pid: dict[int, list[str]] = {}
        with ProcessPoolExecutor(max_workers=2) as pool:
            for i, (pid, _) in run_with_affinity(files, 2, lambda i: pool.submit(_prove_file, files[i]),
                                                 lambda done: done[1]):
                by_pid.setdefault(pid, []).append(files[i])
        rows["parallel"].append(time.perf_counter() - t0)
        shares = list(by_pid.values())
        seconds = sorted((alone(share) for share in shares), reverse=True) + [0.0]
        rows["larger share"].append(seconds[0])
        rows["smaller share"].append(seconds[1])
        rows["shares' sum"].append(seconds[0] + seconds[1])
        rows["one process"].append(alone(files))
    print(f"{len(files)} spec files; {args.rounds} rounds, medians; no cache")
    print(f"| {'measure':<58} | median (s) |")
    print(f"|{'-' * 60}|------------|")
    notes = {"parallel": "two workers, side by side (as --jobs 2)",
             "larger share": "the larger worker's files, alone in a fresh process",
             "smaller share": "the smaller worker's files, alone in a fresh process",
             "shares' sum": "both shares, one after the other",
             "one process": "every file in one fresh process (as --jobs 1)"}
    for key, values in rows.items():
        print(f"| {notes[key]:<58} | {statistics.median(values):>10.3f} |")


if __name__ == "__main__":
    main()
