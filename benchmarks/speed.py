#!/usr/bin/env python3
"""How fast the verifier is at every size: one table.

Sections (each measured in this run, against a baseline measured in the same run, interleaved rounds, medians):
  start     `prove specs/sm80_f16.yaml` with an empty and with a warm proof cache, vs `python -c "import z3"`
  catalog   `prove specs/` with an empty cache at --jobs 1 and --jobs 2, and with a warm cache; and what two
            processes can gain on this machine now: a pure-Python loop run whole in one process and split
            between two, interleaved with the catalog's rounds (a shared machine's cores are not always idle);
            the CPU seconds of each command: how much more --jobs 2 uses than --jobs 1, against how much more
            the loop uses split than whole (the same work: the machine's share of the growth)
  scaling   one A-operand check per tile size, row pitch and warp count (16x16 ... 4096x4096; pitches that are
            powers of two and padded ones: 648, 2008, 4008; 1-8 warps), in-process seconds from the JSON report
  cutlass   `import-cutlass` on a CUTLASS include/ directory and proving what it wrote (with --cutlass DIR)

Bytecode: the package is byte-compiled (compileall) before timing and the commands run with
PYTHONDONTWRITEBYTECODE unset, as after `pip install`; every command also runs once, untimed, before the rounds.
Not a test: prints numbers, asserts nothing.

    python benchmarks/speed.py [--rounds 5] [--sections start,catalog,scaling,cutlass] [--cutlass DIR]
                               [--baseline-rev REV]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from revision import unpacked

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
SECTIONS = ("start", "catalog", "scaling", "cutlass")

# (rows, cols, row pitch) of the K-major A tile; warps as the tiled MMA's atom layout along N (A's tile stays 16x16,
# so every size is a whole number of operand tiles)
SCALING_TILES = ((16, 16, 16), (64, 64, 64), (256, 256, 256), (1024, 1024, 1024), (4096, 4096, 4096),
                 (768, 640, 648), (2000, 2000, 2008), (4000, 4000, 4008))
SCALING_WARPS = (1, 2, 4, 8)

# the machine's parallel capacity: the same work (dict stores and integer arithmetic, like the prover's) done by
# one process, or split between two running at once; each started by one launcher process, like --jobs workers
REFERENCE_ITERATIONS = 8_000_000
REFERENCE_LOOP = "d = {{}}\nfor i in range({n}):\n    d[i & 4095] = i * 3 + (i >> 2)\n"
REFERENCE_LAUNCHER = ("import subprocess, sys\n"
                      "ps = [subprocess.Popen([sys.executable, '-c', sys.argv[2]]) for _ in range(int(sys.argv[1]))]\n"
                      "sys.exit(max(p.wait() for p in ps))\n")


@dataclass
class Row:
    section: str
    measure: str
    median_s: float
    baseline: str = ""
    ratio: float | None = None
    note: str = ""


Command = tuple[list[str], Path]          # argv and the directory it runs in (which `verifier` it imports)


def wall(cmd: list[str], cwd: Path = ROOT, cpu: list[float] | None = None) -> float:
    """Seconds `cmd` takes; a command that fails on its input (exit 2) or internally (4) times nothing.  With `cpu`,
    the CPU seconds (user and system) that it and the processes it waited for used are appended to it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False, env=ENV,
                       text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode in (2, 4):
        raise SystemExit(f"{' '.join(cmd)} (in {cwd}) exited {p.returncode}: {p.stderr[-500:]}")
    if cpu is not None:
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return seconds


def interleaved(commands: dict[str, Command], rounds: int, before_each: dict[str, object] | None = None,
                cpu: dict[str, list[float]] | None = None) -> dict[str, list[float]]:
    """Every round runs every command once, in the same order: all see the same machine state.  Returns each
    command's wall seconds per round; fills `cpu`, when given, with its CPU seconds per round."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for cmd, cwd in commands.values():      # bytecode compiled, caches filled where a command fills them
        wall(cmd, cwd)
    for _ in range(rounds):
        for name, (cmd, cwd) in commands.items():
            hook = (before_each or {}).get(name)
            if callable(hook):
                hook()
            times[name].append(wall(cmd, cwd, None if cpu is None else cpu.setdefault(name, [])))
    return times


def baseline_tool(rev: str, scratch: Path) -> Path:
    """The verifier package and its specs as they were at `rev` (git archive), to be run from the returned
    directory (the catalog of that revision is the one it proves: the same checks, as its loader reads them)."""
    where = unpacked(rev, scratch)
    subprocess.run([PY, "-m", "compileall", "-q", str(where / "verifier")], check=True, env=ENV,
                   stdout=subprocess.DEVNULL)
    return where


def no_cache(tool: Path) -> list[str]:
    """`--no-cache` where the tool at `tool` has a proof cache (a baseline revision with one would otherwise read
    the cache a run before it filled, and time a warm start), nothing where it has none."""
    # the command line is verifier/commands/cli.py, verifier/cli.py in older revisions
    clis = [tool / "verifier" / "commands" / "cli.py", tool / "verifier" / "cli.py"]
    return ["--no-cache"] if any(p.is_file() and "--no-cache" in p.read_text() for p in clis) else []


def section_start(rounds: int, scratch: Path, baseline: tuple[str, Path] | None) -> list[Row]:
    spec = str(ROOT / "specs/sm80_f16.yaml")
    shown = "specs/sm80_f16.yaml"
    empty, warm = scratch / "empty-cache", scratch / "warm-cache"
    cmds: dict[str, Command] = {
        'python -c "import z3"': ([PY, "-c", "import z3"], ROOT),
        f"prove {shown}, warm cache": ([PY, "-m", "verifier", "prove", spec, f"--cache-dir={warm}"], ROOT),
        f"prove {shown}, empty cache": ([PY, "-m", "verifier", "prove", spec, f"--cache-dir={empty}"], ROOT),
        f"prove {shown}, --no-cache": ([PY, "-m", "verifier", "prove", spec, "--no-cache"], ROOT),
    }
    if baseline:
        cmds[f"prove {shown}, at {baseline[0]}"] = ([PY, "-m", "verifier", "prove", spec, *no_cache(baseline[1])],
                                                    baseline[1])
    t = interleaved(cmds, rounds, {name: (lambda: shutil.rmtree(empty, ignore_errors=True))
                                   for name in cmds if "empty cache" in name})
    base_name = 'python -c "import z3"'
    base = statistics.median(t[base_name])
    rows = [Row("start", base_name, base, base_name, 1.0)]
    for name in cmds:
        if name != base_name:
            m = statistics.median(t[name])
            rows.append(Row("start", name, m, base_name, m / base))
    return rows


def section_catalog(rounds: int, scratch: Path, baseline: tuple[str, Path] | None) -> list[Row]:
    warm = scratch / "catalog-cache"
    specs = str(ROOT / "specs")
    checks = {ROOT: _checks_proved([specs, f"--cache-dir={warm}"], ROOT)}
    prove = [PY, "-m", "verifier", "prove", specs]
    cmds: dict[str, Command] = {
        "prove specs/ --jobs 1, no cache": (prove + ["--jobs", "1", "--no-cache"], ROOT),
        "prove specs/ --jobs 2, no cache": (prove + ["--jobs", "2", "--no-cache"], ROOT),
        "prove specs/ --jobs 1, warm cache": (prove + ["--jobs", "1", f"--cache-dir={warm}"], ROOT),
    }
    one, two = "reference loop, whole in 1 process", "reference loop, split in 2 processes"
    cmds[one] = ([PY, "-c", REFERENCE_LAUNCHER, "1", REFERENCE_LOOP.format(n=REFERENCE_ITERATIONS)], ROOT)
    cmds[two] = ([PY, "-c", REFERENCE_LAUNCHER, "2", REFERENCE_LOOP.format(n=REFERENCE_ITERATIONS // 2)], ROOT)
    if baseline:
        then = [PY, "-m", "verifier", "prove", str(baseline[1] / "specs"), *no_cache(baseline[1])]
        cmds[f"prove specs/ --jobs 1, at {baseline[0]}"] = (then + ["--jobs", "1"], baseline[1])
        cmds[f"prove specs/ --jobs 2, at {baseline[0]}"] = (then + ["--jobs", "2"], baseline[1])
        checks[baseline[1]] = _checks_proved([str(baseline[1] / "specs")], baseline[1])   # that revision's catalog
    cpu: dict[str, list[float]] = {}
    t = interleaved(cmds, rounds, cpu=cpu)
    base_name, jobs2_name = "prove specs/ --jobs 1, no cache", "prove specs/ --jobs 2, no cache"
    base = statistics.median(t[base_name])
    rows = []
    jobs2 = statistics.median(t[jobs2_name])
    # CPU seconds grow when two processes share a machine's cores (each runs slower: caches, a host's hyperthreads)
    # and when --jobs 2 does more work than --jobs 1 (what both workers parse and decide, the results' pickling,
    # the parent); the loop does the same work whole or split, so its growth is the machine's alone.  Where a
    # core's speed changes from round to round (a host shared with others), both growths are that noise too.
    def growth(split: str, whole: str) -> float:
        return statistics.median(cpu[split]) / statistics.median(cpu[whole])
    jobs2_growth, loop_growth = growth(jobs2_name, base_name), growth(two, one)
    for name, (_, cwd) in cmds.items():
        m = statistics.median(t[name])
        if name == one:
            continue
        if name == two:
            whole = statistics.median(t[one])
            rows.append(Row("catalog", one, whole))
            rows.append(Row("catalog", two, m, one, m / whole,
                            f"two cores now: {whole / m:.2f}x one; --jobs 2: {base / jobs2:.2f}x --jobs 1; "
                            f"CPU {(loop_growth - 1) * 100:+.1f}% split"))
            continue
        n = checks[cwd]
        note = f"{n} checks, {m / n * 1000:.1f} ms/check; CPU {statistics.median(cpu[name]):.2f}s"
        if name == jobs2_name:
            note += (f" ({(jobs2_growth - 1) * 100:+.1f}% on --jobs 1's;"
                     f" the loop split: {(loop_growth - 1) * 100:+.1f}%)")
        rows.append(Row("catalog", name, m, base_name, m / base, note))
    return rows


def _checks_proved(args: list[str], cwd: Path) -> int:
    """How many checks `prove ARGS` proves (its JSON report), with the verifier found in `cwd`."""
    p = subprocess.run([PY, "-m", "verifier", "prove", *args, "--format", "json"], cwd=cwd, capture_output=True,
                       text=True, env=ENV)
    return len(json.loads(p.stdout)["checks"])


def scaling_spec(path: Path) -> list[str]:
    lines = ["version: 2", "name: scaling", "include: [%s, %s]" % (ROOT / "specs/atoms/sm75.yaml",
                                                                 ROOT / "specs/atoms/sm80_f16.yaml"), "checks:"]
    names = []
    for rows_, cols, pitch in SCALING_TILES:
        for warps in SCALING_WARPS:
            name = f"a_{rows_}x{cols}_pitch{pitch}_{warps}warps"
            names.append(name)
            lines += [f"  {name}:", "    mma: SM80_16x8x16_F16F16F16F16_TN", "    operand: A",
                      "    copy: SM75_U32x4_LDSM_N", "    value_type: half_t",
                      f"    atom_layout: [1, {warps}, 1]", f'    smem: "({rows_},{cols}):({pitch},1)"']
    path.write_text("\n".join(lines) + "\n")
    return names


def section_scaling(rounds: int, scratch: Path) -> list[Row]:
    """Each configuration in its own process (no memo shared between configurations), in-process seconds of its
    check from the JSON report; one row per tile and pitch, the slowest warp count as its median."""
    spec = scratch / "scaling.yaml"
    names = scaling_spec(spec)
    seconds: dict[str, list[float]] = {n: [] for n in names}
    verdicts: dict[str, str] = {}
    procedures: dict[str, set[str]] = {}
    for _ in range(rounds):
        for name in names:
            out = subprocess.run([PY, "-m", "verifier", "prove", str(spec), "--check", name, "--allow-outside",
                                  "--no-cache", "--format", "json"], cwd=ROOT, capture_output=True, text=True,
                                 env=ENV).stdout
            (c,) = json.loads(out)["checks"]
            seconds[name].append(c["seconds"])
            verdicts[name] = c["verdict"]
            procedures.setdefault(name, set()).update(o["procedure"] for t in c["theorems"]
                                                      for o in t["obligations"] if o.get("procedure"))
    base_name = names[0]
    base = statistics.median(seconds[base_name])
    rows = []
    for rows_, cols, pitch in SCALING_TILES:
        group = [n for n in names if n.startswith(f"a_{rows_}x{cols}_pitch{pitch}_")]
        med = {n: statistics.median(seconds[n]) for n in group}
        worst = max(med.values())
        per_warp = ", ".join(f"{w}w {med[n]:.3f}" for w, n in zip(SCALING_WARPS, group))
        states = sorted({verdicts[n] for n in group})
        procs = sorted(set().union(*(procedures[n] for n in group)) - {"evaluation"})
        rows.append(Row("scaling", f"A {rows_}x{cols}, pitch {pitch}, 1-8 warps (slowest)", worst,
                        f"A 16x16, 1 warp ({base:.3f} s)", worst / base,
                        f"{per_warp}; {'/'.join(states)}; {' + '.join(procs)}"))
    return rows


def section_cutlass(rounds: int, scratch: Path, cutlass: Path | None, baseline: tuple[str, Path] | None
                    ) -> list[Row]:
    if cutlass is None:
        return [Row("cutlass", "import-cutlass (skipped: no --cutlass DIR)", float("nan"))]
    tools = [("", ROOT)] + ([(f", at {baseline[0]}", baseline[1])] if baseline else [])
    times: dict[str, list[float]] = {}
    for _ in range(rounds):
        for label, cwd in tools:
            out = scratch / f"imported{len(label)}"
            shutil.rmtree(out, ignore_errors=True)
            imp = [PY, "-m", "verifier", "import-cutlass", str(cutlass), "-o", str(out)]
            prove = [PY, "-m", "verifier", "prove", str(out), "--allow-outside", *no_cache(cwd)]
            times.setdefault(f"import-cutlass include/{label}", []).append(wall(imp, cwd))
            times.setdefault(f"prove what it wrote{label}", []).append(wall(prove, cwd))
    rows = []
    for label, _ in tools:
        i = statistics.median(times[f"import-cutlass include/{label}"])
        p = statistics.median(times[f"prove what it wrote{label}"])
        rows += [Row("cutlass", f"import-cutlass include/{label}", i), Row("cutlass", f"prove what it wrote{label}", p),
                 Row("cutlass", f"import + prove{label}", i + p)]
    if baseline:
        by_name = {r.measure: r for r in rows}
        for r in rows[:3]:
            b = by_name[r.measure + tools[1][0]]
            r.baseline, r.ratio = b.measure, r.median_s / b.median_s
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sections", default=",".join(SECTIONS))
    ap.add_argument("--cutlass", type=Path, help="a CUTLASS include/ directory (the cutlass section)")
    ap.add_argument("--baseline-rev", metavar="REV",
                    help="also time the verifier as it was at this git revision (start, catalog, cutlass)")
    args = ap.parse_args()
    wanted = [s for s in args.sections.split(",") if s]
    unknown = set(wanted) - set(SECTIONS)
    if unknown:
        ap.error(f"unknown sections {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "verifier")], check=True, env=ENV,
                   stdout=subprocess.DEVNULL)
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"machine: {os.cpu_count()} cores, {usable} of them this run's; python {sys.version.split()[0]}; "
          f"{args.rounds} rounds, medians; bytecode compiled (compileall), one untimed run of each command first")
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        baseline = (args.baseline_rev, baseline_tool(args.baseline_rev, scratch)) if args.baseline_rev else None
        for s in wanted:
            if s == "start":
                rows += section_start(args.rounds, scratch, baseline)
            elif s == "catalog":
                rows += section_catalog(args.rounds, scratch, baseline)
            elif s == "scaling":
                rows += section_scaling(args.rounds, scratch)
            else:
                rows += section_cutlass(args.rounds, scratch, args.cutlass, baseline)
    print(f"| {'section':<8} | {'measure':<46} | {'median':>9} | {'ratio':>7} | {'baseline / note':<48} |")
    print(f"|{'-' * 10}|{'-' * 48}|{'-' * 11}|{'-' * 9}|{'-' * 50}|")
    for r in rows:
        ratio = f"{r.ratio:.2f}x" if r.ratio is not None else ""
        extra = "; ".join(x for x in (f"vs {r.baseline}" if r.baseline and r.ratio != 1.0 else "", r.note) if x)
        print(f"| {r.section:<8} | {r.measure:<46} | {r.median_s:>8.3f}s | {ratio:>7} | {extra:<48} |")


if __name__ == "__main__":
    main()
