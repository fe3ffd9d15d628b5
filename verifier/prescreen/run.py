"""Proving every GEMM kernel CUTLASS's generator emits for an architecture (the library behind
`prescreen-cutlass`): the distinct operand paths as specs, proved once each, a verdict per kernel."""
from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from ..outcome import Expect, Status, Verdict, check_verdict
from ..specfile.model import CheckKind, Loc, SpecError
from ..symbolic.procedure import Settings
from ..theorems.claims import TheoremResult
from ..theorems.result import CheckResult
from .blockwise import BlockwiseScaleCheck
from .builders import EXTRA_COPY_ATOMS, Mapped, OperandCheck, PathCheck, ScaleFactorCheck, Unmapped, map_kernel
from .path_classes import PathClass, fold
from .sm90_sparse import SparsePathCheck
from .sm90_mixed_scales import MixedScalePathCheck
from .sm90_shuffle import ShufflePathCheck
from .sm90_transpose import TransposePathCheck
from .space import KernelConfig, gc_paused, kernels

FORMATS = ("text", "json", "junit", "sarif", "markdown", "job-summary")
# the atom library files a space's checks name atoms from (SM90's GMMA and SM100's UMMA atoms are written into the
# spec itself)
ATOM_FILES: dict[int, tuple[str, ...]] = {80: ("sm75.yaml", "sm80_f16.yaml", "sm80_tf32.yaml", "sm80_int8.yaml",
                                               "sm80_f64.yaml", "generic.yaml"),
                                          90: ("sm80_copy.yaml", "generic.yaml"),
                                          100: ("sm80_copy.yaml", "sm100_tmem.yaml")}   # blockwise: scales' copies
# sm80: generic.yaml for the SIMT kernels' UniversalFMA and DefaultCopy; sm90: the cp.async mainloops' atoms, and
# AutoVectorizingCopy (the RS mainloops' copy of A into registers, the sparse kernels' copy of the metadata)
SHOWN_NOT_VERIFIED = 25          # kernels listed by name in the text report (all of them in the other formats)
# operand paths a spec file holds: with the atoms they define, well under the loader's YAML node limit (a large
# --level's space is written as several files)
PATHS_PER_SPEC = 400


def _yaml(value: object) -> str:
    import json
    return json.dumps(value) if isinstance(value, str) else str(value)


def spec_text(arch: int, paths: dict[PathCheck, str], representative: dict[PathCheck, KernelConfig],
              counts: Counter[PathCheck], name: str = "", notes: dict[PathCheck, str] | None = None) -> str:
    """Distinct operand paths of the space as one spec (named `name`, default prescreen_sm<arch>): GMMA and UMMA
    atoms defined in it, SM80 atoms included from the atom library."""
    from ..importer.kernel_spec import ATOM_LIBRARY
    lines = ["version: 2", f"name: {name or f'prescreen_sm{arch}'}",
             f"description: The distinct CuTe operand paths of CUTLASS's generated SM{arch} GEMM kernels "
             "(python -m verifier prescreen-cutlass).",
             "include: [" + ", ".join(_yaml(str(ATOM_LIBRARY / f)) for f in ATOM_FILES[arch]) + "]", ""]
    atoms = {c.mma.name: c.mma for c in paths if c.mma.fields}
    if atoms:
        lines.append("mma_atoms:")
        for a in atoms.values():
            lines.append(f"  {_yaml(a.name)}:")
            lines += [f"    {k}: {v}" for k, v in a.fields]
    extra = sorted({c.copy for c in paths if isinstance(c, OperandCheck) and c.copy in EXTRA_COPY_ATOMS})
    if extra:
        lines.append("copy_atoms:")
        for name in extra:
            lines.append(f"  {_yaml(name)}:")
            lines += [f"    {k}: {v}" for k, v in EXTRA_COPY_ATOMS[name]]
    lines.append("checks:")
    for c, name in paths.items():
        kc = representative[c]
        lines += [f"  {name}:",
                  f"    description: "
                  f"{_yaml(f'{counts[c]} kernels, e.g. {kc.name}: operand {c.operand}' + (notes or {}).get(c, ''))}",
                  f"    mma: {_yaml(c.mma.name)}"]
        if isinstance(c, (SparsePathCheck, ShufflePathCheck, TransposePathCheck,
                          MixedScalePathCheck)):   # their modules' own lines
            lines += c.spec_lines()
            continue
        if isinstance(c, BlockwiseScaleCheck):   # blockwise.py's scale paths too
            lines += c.spec_lines()
            continue
        if isinstance(c, ScaleFactorCheck):
            lines += [f"    scale_factors: {c.scaled}", f"    copy: {c.copy}", f"    value_type: {c.sf_type}",
                      f"    sf_vec_size: {c.vs}", f"    smem: {_yaml(c.smem)}", f"    gmem: {_yaml(c.gmem)}",
                      f"    tmem_base: {c.tmem_base}"]
            continue
        if c.atom_layout is not None:
            lines.append("    atom_layout: " + (_yaml(c.atom_layout) if isinstance(c.atom_layout, str)
                                                else f"[{', '.join(map(str, c.atom_layout))}]"))
        if c.permutation is not None:
            lines.append(f"    permutation: [{', '.join(_yaml(p) for p in c.permutation)}]")
        lines += [f"    operand: {c.operand}", f"    copy: {_yaml(c.copy)}", f"    value_type: {c.value_type}",
                  f"    smem: {_yaml(c.smem)}"]
        if c.gmem is not None:
            lines.append(f"    gmem: {_yaml(c.gmem)}")
        if c.major is not None:
            lines.append(f"    major: {c.major}")
        if c.smem_type is not None:
            lines.append(f"    smem_type: {c.smem_type}")
        if c.smem_partition is not None:
            lines.append(f"    smem_partition: {c.smem_partition}")
        if c.conversion is not None:
            lines.append(f"    conversion: {c.conversion}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class _Paths:
    """What the kernels of one tuple of operand paths share in their report (made once a tuple: many families map to
    the same paths)."""
    verdict: Verdict
    theorems: tuple[TheoremResult, ...]   # a verified path's without their obligations, another path's its own
    named: str                            # the paths by name, each with its spec file where they lie in several
    seconds: float
    info: tuple[str, ...]
    findings: tuple[TheoremResult, ...]


class PathsMemo:
    """What kernel_result makes once a path and once a tuple of paths, for the results of one proof run (keyed by
    the results' identities: a memo lives no longer than the results it was made from)."""

    def __init__(self) -> None:
        self.stripped: dict[int, tuple[TheoremResult, ...]] = {}   # id(path result) -> theorems, no obligations
        self.combined: dict[tuple[int, ...], _Paths] = {}         # ids of a kernel's path results -> what they share

    def strip(self, part: CheckResult) -> tuple[TheoremResult, ...]:
        """A path's theorems with their statuses and no obligations (made once a path, shared by its kernels)."""
        found = self.stripped.get(id(part))
        if found is None:
            found = self.stripped[id(part)] = tuple(replace(t, items=[]) if t.items else t for t in part.theorems)
        return found

    def combine(self, parts: list[CheckResult]) -> _Paths:
        key = tuple(map(id, parts))
        found = self.combined.get(key)
        if found is None:
            verdict = check_verdict(t.status for p in parts for t in p.theorems)
            # every kernel of a path shares its proof: a verified path is reported in a kernel's report by each
            # theorem's status, its obligations being the path's (`--spec-out DIR`, then `prove`), not repeated for
            # thousands of kernels; a path not verified keeps its obligations and counterexample
            theorems = tuple(t for p in parts
                             for t in (self.strip(p) if p.verdict is Verdict.VERIFIED else p.theorems))
            files = {p.spec_path for p in parts}   # a kernel's paths may lie in several spec files (PATHS_PER_SPEC)
            named = ", ".join(f"{p.name} ({os.path.basename(p.spec_path)})" if len(files) > 1 else p.name
                              for p in parts)
            # each line of information once (a scale path and a zero-point path assume alike)
            info = tuple(dict.fromkeys(line for p in parts for line in p.info))
            findings = tuple(t for p in parts for t in p.findings)
            found = self.combined[key] = _Paths(verdict, theorems, named, sum(p.seconds for p in parts), info,
                                                findings)
        return found


def kernel_result(kc: KernelConfig, spec_path: str, parts: list[CheckResult], how: str,
                  memo: PathsMemo | None = None) -> CheckResult:
    """A kernel's result from its operand paths' (`memo`: what the kernels of one proof run share, made once)."""
    shared = (memo or PathsMemo()).combine(parts)
    r = CheckResult(spec_path, f"sm{kc.arch} kernels", kc.name, parts[0].loc, Expect.PASS, parts[0].kind,
                    f"{how}; operand paths {shared.named}", list(shared.theorems))
    r.verdict = shared.verdict
    r.seconds = shared.seconds
    r.info = list(shared.info)
    r.findings = list(shared.findings)
    r.paths = parts
    return r


def _unmapped_result(kc: KernelConfig, reason: str) -> CheckResult:
    r = CheckResult("cutlass_library", f"sm{kc.arch} kernels", kc.name, Loc("cutlass_library", 1, 1),
                    Expect.UNSUPPORTED, CheckKind.TILED, f"not mapped: {reason}")
    r.verdict = Verdict.UNSUPPORTED
    r.info = [f"not mapped to a CuTe configuration: {reason}"]
    return r


def refusal_rule(r: CheckResult) -> str:
    """The CuTe rule a refused kernel is refused by: its first refused theorem's reason."""
    return next((t.reason for t in r.theorems if t.status is Status.REFUSED), "")


def refuting_theorems(r: CheckResult) -> str:
    """The theorems a refuted kernel is refuted at, by number and name (`29 blockwise.load, 35 ...`)."""
    return ", ".join(f"{t.number} {t.id.value}" for t in r.theorems if t.status is Status.REFUTED)


def paths_text(paths: int, decided: int) -> str:
    """How many distinct operand paths were proved, and how many of them decided (the others by their class's)."""
    text = f"{paths} distinct operand paths proved"
    return text if decided == paths else text + f", {decided} of them decided and the others by their class"


def summary_table(arch: int, results: list[CheckResult], mapped: int, paths: tuple[int, int], seconds: float) -> str:
    by = Counter(r.verdict for r in results)
    refused = Counter(refusal_rule(r) for r in results if _refused(r))
    refuted = Counter(refuting_theorems(r) for r in results if r.verdict is Verdict.REFUTED and not _refused(r))
    reasons = Counter(r.summary.removeprefix("not mapped: ") for r in results if r.expect is Expect.UNSUPPORTED)
    missing = Counter(unsupported_reason(r) for r in results
                      if r.verdict is Verdict.UNSUPPORTED and r.expect is not Expect.UNSUPPORTED)
    out = [f"prescreen-cutlass --arch {arch}: {len(results)} GEMM kernels, {mapped} mapped to CuTe configurations "
           f"({paths_text(*paths)}), {seconds:.1f} s", "",
           "| outcome | kernels |", "|---|---|",
           f"| verified | {sum(1 for r in results if r.verdict is Verdict.VERIFIED)} |",
           f"| refuted (a counterexample) | "
           f"{sum(1 for r in results if r.verdict is Verdict.REFUTED and not _refused(r))} |",
           f"| refused by CuTe | {sum(1 for r in results if _refused(r))} |",
           f"| undecided | {by[Verdict.UNDECIDED]} |",
           f"| unsupported (a model is missing) | "
           f"{sum(1 for r in results if r.verdict is Verdict.UNSUPPORTED and r.expect is not Expect.UNSUPPORTED)} |",
           f"| not mapped | {sum(1 for r in results if r.expect is Expect.UNSUPPORTED)} |",
           f"| internal error | {by[Verdict.ERROR]} |"]
    if refuted:
        out += ["", "refuted, by theorem:"] + [f"  {n:5d}  {at}" for at, n in refuted.most_common()]
    if refused:
        out += ["", "refused by CuTe's rule:"] + [f"  {n:5d}  {rule}" for rule, n in refused.most_common()]
    if missing:
        out += ["", "unsupported, by reason:"] + [f"  {n:5d}  {why}" for why, n in missing.most_common()]
    if reasons:
        out += ["", "not mapped, by reason:"] + [f"  {n:5d}  {why}" for why, n in reasons.most_common()]
    return "\n".join(out) + "\n"


UNSUPPORTED_REASON_CHARS = 240      # a reason's length in the summary table


def unsupported_reason(r: CheckResult) -> str:
    """Why a mapped kernel is unsupported: its first unsupported theorem's reason (a model that is missing)."""
    why = next((t.reason for t in r.theorems if t.status is Status.UNSUPPORTED and t.reason), "no reason given")
    return why if len(why) <= UNSUPPORTED_REASON_CHARS else why[:UNSUPPORTED_REASON_CHARS - 1] + "…"


def _refused(r: CheckResult) -> bool:
    return any(t.status is Status.REFUSED for t in r.theorems)


class RuleError(Exception):
    """The prescreen's own rules produced a configuration the spec loader refuses: an internal error."""


def run(arch: int, level: str, jobs: int, spec_out: Path | None) -> tuple[list[CheckResult], int, tuple[int, int],
                                                                         float]:
    t0 = time.perf_counter()
    # by name: CUTLASS's generator emits a space in an order that differs from process to process (it iterates sets
    # of objects hashed by identity); a report, and its paths' numbers, should not
    space = sorted(kernels(arch, level), key=lambda kc: kc.name)
    mapping = [map_kernel(kc) for kc in space]
    results, paths, decided = prove(arch, space, mapping, [1] * len(space), jobs, spec_out)
    mapped = sum(1 for m in mapping if isinstance(m, Mapped))
    return results, mapped, (paths, decided), time.perf_counter() - t0


def _proof_order(c: PathCheck) -> tuple[str, str, str, str]:
    return type(c).__name__, c.mma.name, c.operand, repr(c)


def prove(arch: int, configs: list[KernelConfig], mapping: list[Mapped | Unmapped], weights: list[int], jobs: int,
          spec_out: Path | None) -> tuple[list[CheckResult], int, int]:
    """The verdict of each configuration (mapped as `mapping` says; `weights`: the kernels each stands for), the
    number of distinct operand paths proved, and how many of them were decided (path_classes.py: the others are
    proved by their class's)."""
    # a mapping's paths arrive as one object each per worker's chunk (family_run.map_and_check): tallied by identity
    # first, then each object hashed once (the frozen dataclasses hash every field, each time)
    first_of: dict[int, tuple[PathCheck, KernelConfig]] = {}
    weight_of: Counter[int] = Counter()
    for kc, m, weight in zip(configs, mapping, weights):
        if isinstance(m, Mapped):
            for c in m.checks:
                if id(c) not in first_of:
                    first_of[id(c)] = (c, kc)
                weight_of[id(c)] += weight
    representative: dict[PathCheck, KernelConfig] = {}
    counts: Counter[PathCheck] = Counter()
    for i, (c, kc) in first_of.items():      # in the order the objects first appear: a path's first configuration
        representative.setdefault(c, kc)
        counts[c] += weight_of[i]
    # numbered (and proved, 400 a spec file) in the order of their kind and atom: paths alike share a file, and the
    # obligations they have in common are decided once in its worker
    paths = {c: f"path_{n:04d}_{c.operand.lower()}" for n, c in enumerate(sorted(representative, key=_proof_order), 1)}
    # paths alike (stage counts; operand A's atom N) proved once a class, cross-checked on a second member
    plan = fold(paths, (m.checks for m in mapping if isinstance(m, Mapped)))
    spec_of: dict[PathCheck, Path] = {}
    results: list[CheckResult] = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = spec_out or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        first = set(plan.first_round())
        notes = {cls.representative: _class_note(cls) for cls in plan.distinct()}
        by_name = _prove_paths(arch, {c: n for c, n in paths.items() if c in first}, representative, counts, notes,
                               jobs, folder, f"prescreen_sm{arch}", spec_of, always=True)
        # a class whose representative and cross-check are not both verified alike: every member as its own path
        unfolded = {c for cls in plan.distinct() if not _agree(by_name, paths, cls) for c in cls.members}
        for c in unfolded:
            del plan.classes[c]
        if unfolded:
            by_name.update(_prove_paths(arch, {c: n for c, n in paths.items() if c in unfolded and n not in by_name},
                                        representative, counts, {}, jobs, folder, f"prescreen_sm{arch}_unfolded",
                                        spec_of))
    memo = PathsMemo()
    # a mapping's paths arrive as one object each per worker's chunk (family_run.map_and_check): looked up by
    # identity first, the frozen dataclasses are hashed once an object, not once a use
    of_object: dict[int, tuple[CheckResult, str]] = {}

    def result_of(c: PathCheck) -> tuple[CheckResult, str]:
        found = of_object.get(id(c))
        if found is None:
            cls = plan.classes.get(c)
            proved = cls.representative if cls is not None else c
            found = of_object[id(c)] = (by_name[paths[proved]], str(spec_of[proved]))
        return found
    with gc_paused():        # hundreds of thousands of results, no cycles among them: the collector would walk them
        for kc, m in zip(configs, mapping):
            if isinstance(m, Unmapped):
                results.append(_unmapped_result(kc, m.reason))
            else:
                found = [result_of(c) for c in m.checks]
                results.append(kernel_result(kc, found[0][1], [r for r, _ in found], m.how, memo))
    return results, len(paths), len(by_name)


def _class_note(cls: PathClass) -> str:
    """What a class's representative stands for, in its description."""
    stages = list(cls.stage_counts)
    atoms = sorted({c.mma.name for c in cls.members if isinstance(c, OperandCheck)})
    text = f"; proved once for the {len(cls.members)} operand paths of its class: stage counts {stages}"
    if len(atoms) > 1:
        text += f", atoms {', '.join(atoms)}"
    return text


def _agree(by_name: dict[str, CheckResult], paths: dict[PathCheck, str], cls: PathClass) -> bool:
    """Whether a class's representative and cross-check are both verified, by the same theorems."""
    first = by_name[paths[cls.representative]]
    if first.verdict is not Verdict.VERIFIED:
        return False
    if cls.cross_check is None:
        return True
    second = by_name[paths[cls.cross_check]]
    return second.verdict is Verdict.VERIFIED and \
        [(t.number, t.status) for t in first.theorems] == [(t.number, t.status) for t in second.theorems]


def _prove_paths(arch: int, paths: dict[PathCheck, str], representative: dict[PathCheck, KernelConfig],
                 counts: Counter[PathCheck], notes: dict[PathCheck, str], jobs: int, folder: Path, stem: str,
                 spec_of: dict[PathCheck, Path], always: bool = False) -> dict[str, CheckResult]:
    """`paths` written as spec files (PATHS_PER_SPEC a file, named `stem`, `stem`_2, ...) in `folder` and proved;
    each path's file is recorded in `spec_of` (`always`: a file even for no path).  Returns the results by path
    name."""
    from ..engine.proving import max_jobs, prove_in_parallel, run_all
    from ..specfile.loader import load_specs
    ordered = list(paths.items())
    chunks = [dict(ordered[i:i + PATHS_PER_SPEC]) for i in range(0, len(ordered), PATHS_PER_SPEC)] or \
        ([{}] if always else [])
    spec_files = []
    for number, chunk in enumerate(chunks, 1):
        name = stem + (f"_{number}" if number > 1 else "")
        spec_path = folder / f"{name}.yaml"
        spec_path.write_text(spec_text(arch, chunk, representative, counts, name, notes), encoding="utf-8")
        spec_files.append(str(spec_path))
        spec_of.update(dict.fromkeys(chunk, spec_path))
    if not paths:
        return {}
    workers = min(jobs, max_jobs(), len(spec_files))
    try:
        if workers > 1:     # each worker loads (parses) the files it proves: the parsing is spread too; a worker
            #                 proves runs of consecutive files (paths alike are neighbours)
            # (brief: a verified path is reported by its theorems' statuses alone, `PathsMemo.strip`)
            proved = prove_in_parallel(spec_files, None, Settings(), workers, None, True, None, True, brief=True)[0]
        else:
            specs = load_specs(spec_files, allow_outside=True)
            proved = run_all([(s, c) for s in specs for c in s.checks.values()], Settings(), 1, False, None)
    except SpecError as e:     # the rules wrote it: their mistake, not the user's input
        raise RuleError(f"a prescreen rule (verifier/prescreen/builders.py) wrote a check the loader refuses: "
                        f"{e}") from None
    return {r.name: r for r in proved}
