"""Proving a high `--level`'s kernel space by families (families.py): each family mapped and its operand paths
proved once, for all its kernels; every family's sampled members (its least- and greatest-named) rebuilt through
CUTLASS's real Create and Manifest, which must give the family's configuration (up to the fields the family leaves
out), hence the same operand paths and verdict.

A family is mapped from what its members share (`shared_view`): the fields the family leaves out are blanked, and
the name too unless the kind's rules read it (NAME_READING_KINDS), so the rules cannot tell its members apart and a
member whose configuration is the family's maps as the family does.  A member of a name-reading kind (whose members
share the parts of the name the rules read, not the whole name) is mapped again and compared."""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any
from pathlib import Path

from ..outcome import Expect, Status, Verdict
from ..theorems.result import CheckResult
from .builders import Mapped, Unmapped, map_kernel
from .families import BLANKED, IGNORED_FIELDS, NAME_READING_KINDS, Family, families, sample_config
from .run import paths_text, prove, refusal_rule, refuting_theorems, unsupported_reason
from .space import KernelConfig, SpaceError, gc_paused


class FamilyMismatch(Exception):
    """A sampled member of a family is not built as its family, or maps differently: the grouping is wrong (an
    internal error)."""


@dataclass
class FamilyRun:
    results: list[CheckResult]       # one a family, named by its least-named member
    kernels: list[int]               # the kernels each result stands for (exact)
    paths: int                       # distinct operand paths proved
    samples: int                     # sampled members rebuilt through the per-kernel path and compared
    seconds: float
    phases: tuple[float, float, float] = (0.0, 0.0, 0.0)   # seconds: enumeration, mapping and checks, proofs
    decided: int | None = None       # paths decided (None: all; the others by their class's: path_classes.py)


def shared_view(config: KernelConfig) -> KernelConfig:
    """What the members of `config`'s family share, as a configuration: the fields the family leaves out
    (IGNORED_FIELDS) blanked, and the name unless the kind's rules read it."""
    blank: dict[str, Any] = {f: BLANKED[f] for f in IGNORED_FIELDS.get(config.arch, ())}
    if config.kind not in NAME_READING_KINDS:
        blank["name"] = BLANKED["name"]
    return replace(config, **blank) if blank else config


def map_family(config: KernelConfig) -> Mapped | Unmapped:
    """A family's mapping: its configuration's, from what its members share (`shared_view`)."""
    return map_kernel(shared_view(config))


def _same_mapping(found: Mapped | Unmapped, family: Mapped | Unmapped, member: str, first: str) -> bool:
    if isinstance(found, Unmapped) and isinstance(family, Unmapped):   # a reason may name its kernel
        return found.reason.replace(member, first) == family.reason
    return found == family


def cross_check(arch: int, level: str, fams: list[Family], mapping: list[Mapped | Unmapped]) -> int:
    """Every family's sampled members through the per-kernel path (CUTLASS's Create and Manifest, config_of): the
    member's configuration must be the family's but for its name and the ignored fields -- then it maps as the family
    does (`map_family` reads neither) -- and a member of a kind whose rules read the name is mapped and its mapping
    compared.  Returns how many members were compared; raises FamilyMismatch on the first difference."""
    ignored = IGNORED_FIELDS.get(arch, ())
    compared = 0
    for family, mapped in zip(fams, mapping):
        first = family.config
        for member in family.samples:
            try:
                config = sample_config(member, arch, level)
            except SpaceError as e:          # the member cannot be rebuilt: the recording is wrong
                raise FamilyMismatch(str(e)) from None
            if config.name != member.name or \
                    replace(config, name=first.name, **{f: getattr(first, f) for f in ignored}) != first:
                raise FamilyMismatch(f"{member.name}: its configuration {config} is not its family's {first}")
            if config.kind in NAME_READING_KINDS and \
                    not _same_mapping(map_family(config), mapped, config.name, first.name):
                raise FamilyMismatch(f"{member.name}: maps differently from its family's least-named member "
                                     f"{first.name}")
            compared += 1
    return compared


_FORKED: list[tuple[int, str, list[Family]]] = []     # what map_and_check's forked workers read
CHUNKS_PER_JOB = 16          # families are mapped and checked in this many chunks a worker (the chunks balance)


def _map_and_check_chunk(start: int, stop: int) -> tuple[list[Mapped | Unmapped], int]:
    arch, level, fams = _FORKED[0]
    chunk = fams[start:stop]
    mapping = [map_family(f.config) for f in chunk]
    compared = cross_check(arch, level, chunk, mapping)
    # equal mappings and paths made one object each, so that the answer pickles each once (families share paths)
    same: dict[object, object] = {}

    def one(x: Any) -> Any:
        return same.setdefault(x, x)
    return [one(m if isinstance(m, Unmapped) else Mapped(tuple(one(c) for c in m.checks), m.how))
            for m in mapping], compared


def map_and_check(arch: int, level: str, fams: list[Family], jobs: int) -> tuple[list[Mapped | Unmapped], int]:
    """Each family's mapping, and the number of sampled members cross-checked (`cross_check`), on `jobs` forked
    workers (chunks of families, in order)."""
    if jobs <= 1 or len(fams) < 2:
        mapping = [map_family(f.config) for f in fams]
        return mapping, cross_check(arch, level, fams, mapping)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    step = -(-len(fams) // (jobs * CHUNKS_PER_JOB))
    _FORKED[:] = [(arch, level, fams)]
    try:
        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            # every chunk submitted (the workers start, the collector on in them), then the answers unpickled here
            # with it off
            answers = pool.map(_map_and_check_chunk, range(0, len(fams), step), range(step, len(fams) + step, step))
            with gc_paused():
                parts = list(answers)
    finally:
        _FORKED.clear()
    return [m for part, _ in parts for m in part], sum(n for _, n in parts)


def run_families(arch: int, level: str, jobs: int, spec_out: Path | None) -> FamilyRun:
    import gc
    t0 = time.perf_counter()
    fams = families(arch, level, jobs=jobs)
    t1 = time.perf_counter()
    # the families and their mappings live to the end: kept out of the collector's walks (frozen) while the run
    # builds the rest, back in after
    gc.freeze()
    try:
        configs = [f.config for f in fams]
        mapping, compared = map_and_check(arch, level, fams, jobs)
        gc.freeze()
        t2 = time.perf_counter()
        weights = [f.kernels for f in fams]
        results, paths, decided = prove(arch, configs, mapping, weights, jobs, spec_out)
        for r, f in zip(results, fams):
            r.summary = f"a family of {f.kernels} kernels; {r.summary}"
    finally:
        gc.unfreeze()
    t3 = time.perf_counter()
    return FamilyRun(results, weights, paths, compared, t3 - t0, (t1 - t0, t2 - t1, t3 - t2), decided)


def _refused(r: CheckResult) -> bool:
    return any(t.status is Status.REFUSED for t in r.theorems)


def family_table(arch: int, level: str, run: FamilyRun) -> str:
    """The summary: kernels and families by outcome (kernel counts exact, from the generator's own filters)."""
    rows: dict[str, tuple[int, int]] = {}
    outcomes = ("verified", "refuted (a counterexample)", "refused by CuTe", "undecided",
                "unsupported (a model is missing)", "not mapped", "internal error")
    for outcome in outcomes:
        rows[outcome] = (0, 0)
    reasons: dict[str, int] = {}
    refuted: dict[str, tuple[int, int]] = {}     # theorems -> kernels, families
    refused: dict[str, tuple[int, int]] = {}     # CuTe's rule -> kernels, families
    for r, n in zip(run.results, run.kernels):
        if r.verdict is Verdict.REFUTED:
            tally, key = (refused, refusal_rule(r)) if _refused(r) else (refuted, refuting_theorems(r))
            kernels, families_ = tally.get(key, (0, 0))
            tally[key] = (kernels + n, families_ + 1)
        if r.expect is Expect.UNSUPPORTED:
            outcome = "not mapped"
            why = r.summary.split("not mapped: ", 1)[-1]
            reasons[why] = reasons.get(why, 0) + n
        elif r.verdict is Verdict.VERIFIED:
            outcome = "verified"
        elif _refused(r):
            outcome = "refused by CuTe"
        elif r.verdict is Verdict.REFUTED:
            outcome = "refuted (a counterexample)"
        elif r.verdict is Verdict.UNDECIDED:
            outcome = "undecided"
        elif r.verdict is Verdict.UNSUPPORTED:
            outcome = "unsupported (a model is missing)"
            why = unsupported_reason(r)
            reasons[why] = reasons.get(why, 0) + n
        else:
            outcome = "internal error"
        kernels, families_ = rows[outcome]
        rows[outcome] = (kernels + n, families_ + 1)
    mapped = [(n, r) for r, n in zip(run.results, run.kernels) if r.expect is not Expect.UNSUPPORTED]
    decided = run.paths if run.decided is None else run.decided
    out = [f"prescreen-cutlass --arch {arch} --level {level}: {sum(run.kernels)} GEMM kernels in {len(run.results)} "
           f"families, {sum(n for n, _ in mapped)} kernels ({len(mapped)} families) mapped to CuTe configurations "
           f"({paths_text(run.paths, decided)}; {run.samples} sampled members cross-checked), "
           f"{run.seconds:.1f} s (enumeration {run.phases[0]:.1f} s, mapping and cross-checks {run.phases[1]:.1f} s, "
           f"proofs and report {run.phases[2]:.1f} s)", "",
           "| outcome | kernels | families |", "|---|---|---|"]
    out += [f"| {outcome} | {kernels} | {families_} |" for outcome, (kernels, families_) in rows.items()]
    for title, tally in (("refuted, by theorem (kernels, families):", refuted),
                         ("refused by CuTe's rule (kernels, families):", refused)):
        if tally:
            out += ["", title] + [f"  {k:8d} {f:6d}  {key}" for key, (k, f) in
                                  sorted(tally.items(), key=lambda item: -item[1][0])]
    if reasons:
        out += ["", "unsupported or not mapped, by reason (kernels):"]
        out += [f"  {n:8d}  {why}" for why, n in sorted(reasons.items(), key=lambda item: -item[1])]
    return "\n".join(out) + "\n"
