"""The listing of a high `--level`'s SM90 space as families (verifier/prescreen/families.py: CUTLASS's generator with
its Create calls recorded), against the same listing of a baseline git revision; interleaved rounds, medians, the
ratio to the baseline measured in the same run.  Each round lists the level in a fresh process for each side and
prints the kernel and family counts it found (both sides must agree).  With --jobs J, each side lists through
`families(90, level, jobs=J)` (two parts of the generator's calls at once where a side can: a side whose `families`
takes no jobs lists in one child), the command's own path; without it, `generate_families` in the process itself.
With --floor, a third row times CUTLASS's generator alone at the level, in one process: its loop with both creators
doing nothing (and `to_grouped_schedule` memoized, as the listing has it) -- what no listing of the space through the
generator can go below.

    python benchmarks/listing.py --baseline-rev REV [--level 9999] [--rounds 3] [--jobs 2] [--floor]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from revision import unpacked

ROOT = Path(__file__).resolve().parent.parent
LIST = ("import json, sys; from verifier.prescreen.families import generate_families; "
        "f = generate_families(90, sys.argv[1]); print(json.dumps([len(f), sum(x.kernels for x in f)]))")
LIST_JOBS = ("import inspect, json, sys; from verifier.prescreen.families import families; "
             "jobs = {'jobs': int(sys.argv[2])} if 'jobs' in inspect.signature(families).parameters else {}; "
             "f = families(90, sys.argv[1], **jobs); print(json.dumps([len(f), sum(x.kernels for x in f)]))")

# CUTLASS's generator with its creators doing nothing: the floor of any listing through it
FLOOR = ("import sys; from cutlass_library import generator, library, sm90_utils; "
         "from verifier.prescreen.families import CREATORS; from verifier.prescreen.space import run_generator; "
         "[setattr(generator, c, lambda *a, **k: []) for c in CREATORS]; memo = {}; "
         "original = library.to_grouped_schedule; "
         "grouped = lambda s, g: memo[(id(s), g)] if (id(s), g) in memo else "
         "memo.setdefault((id(s), g), original(s, g)); "
         "[setattr(m, 'to_grouped_schedule', grouped) for m in (generator, library, sm90_utils) "
         "if 'to_grouped_schedule' in m.__dict__]; run_generator(90, sys.argv[1]); print('[0, 0]')")
FLOOR_ROW = "CUTLASS's generator alone (creators doing nothing)"


def one(cwd: Path, level: str, jobs: int, floor: bool = False) -> tuple[float, float, tuple[int, int]]:
    """Wall seconds, CPU seconds (its children's too) and (families, kernels) of one listing in a fresh process run
    from `cwd` (jobs 0: in the process itself; floor: the generator alone, no families counted)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    command = ([sys.executable, "-c", FLOOR, level] if floor else [sys.executable, "-c", LIST_JOBS, level, str(jobs)]
               if jobs else [sys.executable, "-c", LIST, level])
    p = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(cwd)})
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise SystemExit(p.stderr[-2000:])
    families, kernels = json.loads(p.stdout.splitlines()[-1])
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, (families, kernels)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline-rev", required=True, metavar="REV")
    ap.add_argument("--level", default="9999")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="list through families(..., jobs=J), as the command does")
    ap.add_argument("--floor", action="store_true", help="also time CUTLASS's generator alone (creators doing nothing)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        sides = {f"baseline {args.baseline_rev}": unpacked(args.baseline_rev, Path(scratch)), "this tree": ROOT}
        times: dict[str, list[float]] = {name: [] for name in sides}
        cpus: dict[str, list[float]] = {name: [] for name in sides}
        counts: dict[str, set[tuple[int, int]]] = {name: set() for name in sides}
        if args.floor:
            times[FLOOR_ROW], cpus[FLOOR_ROW] = [], []
        for _ in range(args.rounds):
            for name, cwd in sides.items():
                seconds, cpu, found = one(cwd, args.level, args.jobs)
                times[name].append(seconds)
                cpus[name].append(cpu)
                counts[name].add(found)
            if args.floor:
                seconds, cpu, _ = one(ROOT, args.level, 0, floor=True)
                times[FLOOR_ROW].append(seconds)
                cpus[FLOOR_ROW].append(cpu)
    if len({c for found in counts.values() for c in found}) != 1:
        raise SystemExit(f"the sides list different spaces: {counts}")
    families, kernels = next(iter(next(iter(counts.values()))))
    base = statistics.median(times[f"baseline {args.baseline_rev}"])
    print(f"--level {args.level} (SM90): {kernels} kernels in {families} families; {args.rounds} interleaved rounds, "
          "medians, a fresh process each" + (f"; families(..., jobs={args.jobs})" if args.jobs else ""))
    print("| listing | median (s) | median CPU (s) | ratio to the baseline |")
    print("|---|---|---|---|")
    for name in times:
        median = statistics.median(times[name])
        print(f"| {name} | {median:.1f} | {statistics.median(cpus[name]):.1f} | {median / base:.2f} |")


if __name__ == "__main__":
    main()
