"""Proving a run's checks: the proof cache's per-check entries, one process or `--jobs` workers (a spec file each at
a time, verifier/engine/schedule.py, or batches of one file's checks), and the run's consistency checks (unknown
check names, --output onto a spec file).  Commands call this; it reports nothing."""
from __future__ import annotations

import difflib
import os
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..outcome import Verdict
from ..report.failures import safe
from ..specfile.model import CheckSpec, Spec, SpecError
from ..symbolic.procedure import Settings
from ..theorems.result import CheckResult
from .cache import ProofCache

if TYPE_CHECKING:     # the loader module is imported where a spec is loaded (a warm run loads none)
    from ..specfile.loader import SpecLoader

Selected = list[tuple[Spec, CheckSpec]]
CACHED_VERDICTS = (Verdict.VERIFIED, Verdict.REFUTED, Verdict.UNSUPPORTED)   # undecided and errors: proved again


def select(specs: Iterable[Spec], names: list[str] | None) -> Selected:
    """The checks to prove: all, or those named (an unknown name is bad input, with a suggestion)."""
    specs = list(specs)
    pairs = [(s, c) for s in specs for c in s.checks.values()]
    if names:
        require_known(names, [c.name for _, c in pairs] + [n for s in specs for n in s.unbuilt])
        return [(s, c) for s, c in pairs if c.name in names]
    return pairs


def require_known(names: list[str], checks: list[str]) -> None:
    """Every name is a check's name, or bad input with a suggestion."""
    known = sorted(set(checks))
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else f" ({len(known)} checks)"
            raise SpecError(None, f"no check named {safe(name)!r}{hint}")


def prove_check(spec: Spec, check: CheckSpec, settings: Settings, cache: ProofCache | None = None,
                debug: bool = False) -> CheckResult:
    """One check's result: from the cache when its inputs were proved before, else proved (and kept)."""
    from .runner import run_check
    digests = [cache.file_digest(p) for p in spec.closure or [spec.path]] if cache is not None else []
    if cache is None or None in digests:      # no cache, or a file that cannot be read again: prove, keep nothing
        return run_check(spec, check, settings, debug=debug)
    key = cache.key("check", repr(settings), spec.path, check.name, *(d or "" for d in digests))
    hit = cache.get(key, CheckResult)
    if hit is not None and hit.name == check.name and hit.spec_path == spec.path:
        return hit
    from ..symbolic.decide import obligation_cache
    with obligation_cache(cache):
        result = run_check(spec, check, settings, debug=debug)
    if result.verdict in CACHED_VERDICTS:
        cache.put(key, result)
    return result


@dataclass(frozen=True)
class CheckJob:
    """What a worker process needs to prove one check: where it is, not the spec itself."""
    spec_path: str
    check: str
    allow_outside: bool
    settings: Settings
    cache_dir: str | None


_WORKER_SPECS: dict[tuple[str, bool], Spec] = {}
BATCH = 24              # at most this many checks of one spec file go to a worker together


def _work(batch: list[CheckJob]) -> list[CheckResult]:
    out = []
    for job in batch:
        spec = worker_spec(job.spec_path, job.allow_outside)
        cache = ProofCache(Path(job.cache_dir)) if job.cache_dir else None
        out.append(prove_check(spec, spec.checks[job.check], job.settings, cache))
    return out


def _batch_label(batch: list[CheckJob]) -> str:
    names = ", ".join(safe(job.check, 40) for job in batch[:3]) + (", ..." if len(batch) > 3 else "")
    return f"{batch[0].spec_path} (checks {names})"


def _batches(work: list[CheckJob]) -> list[list[int]]:
    """Indices of `work` in batches of one spec file's checks (which share atoms, so a worker decides their common
    obligations once), at most BATCH each, largest first so that the small ones even out the end."""
    by_file: dict[str, list[int]] = {}
    for i, job in enumerate(work):
        by_file.setdefault(job.spec_path, []).append(i)
    batches = [ids[k:k + BATCH] for ids in by_file.values() for k in range(0, len(ids), BATCH)]
    return sorted(batches, key=len, reverse=True)


def run_all(selected: Selected, settings: Settings, jobs: int = 1, debug: bool = False,
            cache: ProofCache | None = None) -> list[CheckResult]:
    """Prove the checks, in `jobs` processes when more than one (each worker loads the spec files it is given by
    name and returns plain results); a progress line on a terminal."""
    progress = sys.stderr.isatty()
    n = len(selected)

    def tick(i: int, r: CheckResult) -> None:
        if progress:
            sys.stderr.write(f"\r[{i}/{n}] {safe(r.name, 60):<60}")
            sys.stderr.flush()
    results: list[CheckResult] = []
    if jobs <= 1 or n <= 1:
        for i, (s, c) in enumerate(selected, 1):
            results.append(prove_check(s, c, settings, cache, debug))
            tick(i, results[-1])
    else:
        from .workers import DirectedPool
        # the parent loaded and checked every file (its includes' places too): forked workers inherit the loaded
        # specs, spawned ones reload the files by name
        for s, _ in selected:
            _WORKER_SPECS[(s.path, True)] = s
        work = [CheckJob(s.path, c.name, True, settings, str(cache.directory) if cache else None) for s, c in selected]
        batches = _batches(work)
        following = iter(range(len(batches)))       # the next batch goes to the first worker that is done
        done: dict[int, CheckResult] = {}
        try:
            with DirectedPool(min(jobs, len(batches)), _work, label=_batch_label) as pool:
                for slot, b in zip(range(pool.size), following):
                    pool.send(slot, b, [work[i] for i in batches[b]])
                for answer in pool.answers():
                    after = next(following, None)
                    if after is not None:
                        pool.send(answer.slot, after, [work[i] for i in batches[after]])
                    for i, r in zip(batches[answer.key], answer.result):
                        done[i] = r
                        tick(len(done), r)
        finally:
            _WORKER_SPECS.clear()
        results = [done[i] for i in range(n)]
    if progress:
        sys.stderr.write("\r" + " " * 72 + "\r")
    return results


@dataclass
class LoadedFile:
    """What a worker did with one spec file: what the parent needs to check the run as a sequential load would,
    and the results of the file's selected checks."""
    path: str
    checks: list[str]
    read: list[str]          # the file and its direct includes (what --output must not overwrite)
    closure: list[str]       # the file and everything it includes
    results: list[CheckResult]
    error: str | None = None  # the SpecError's line, when the file is bad input


_WORKER_LOADERS: dict[bool, SpecLoader] = {}   # by allow_outside: includes parsed once per worker, not per file


def worker_spec(path: str, allow_outside: bool) -> Spec:
    key = (path, allow_outside)
    if key not in _WORKER_SPECS:
        from ..specfile.loader import SpecLoader
        if allow_outside not in _WORKER_LOADERS:
            _WORKER_LOADERS[allow_outside] = SpecLoader(allow_outside)
        loader = _WORKER_LOADERS[allow_outside]
        _WORKER_SPECS[key] = loader.load(path)
    return _WORKER_SPECS[key]


@dataclass(frozen=True)
class FileJob:
    path: str
    allow_outside: bool
    names: tuple[str, ...]   # the checks to prove ((): all)
    settings: Settings
    cache_dir: str | None
    brief: bool = False      # a verified check's theorems sent without their obligations (`prove_in_parallel`)


def load_and_prove(job: FileJob) -> LoadedFile:
    try:
        spec = worker_spec(job.path, job.allow_outside)
    except SpecError as e:
        return LoadedFile(job.path, [], [], [], [], str(e))
    cache = ProofCache(Path(job.cache_dir)) if job.cache_dir else None
    results = [prove_check(spec, c, job.settings, cache) for c in spec.checks.values()
               if not job.names or c.name in job.names]
    if job.brief:
        results = [brief_result(r) for r in results]
    return LoadedFile(job.path, list(spec.checks), [spec.path, *spec.includes], spec.closure or [spec.path], results)


def brief_result(result: CheckResult) -> CheckResult:
    """`result` as a caller that reports a verified check by its theorems' statuses reads it: a verified check's
    theorems without their obligations (a quarter to a third of the bytes a worker sends); any other result whole."""
    if result.verdict is not Verdict.VERIFIED:
        return result
    return replace(result, theorems=[replace(t, items=[]) for t in result.theorems])


def _path_of(job: FileJob) -> str:
    return job.path


def prove_in_parallel(files: list[str], names: list[str] | None, settings: Settings, jobs: int,
                       cache: ProofCache | None, allow_outside: bool, output: str | None, in_order: bool = False,
                       brief: bool = False) -> tuple[list[CheckResult], list[str], list[str]]:
    """Load and prove in `jobs` workers, a spec file each at a time (verifier/engine/schedule.py; `in_order`: runs of
    consecutive files, for files whose neighbours share the most): parsing, a tenth of a catalog run, is spread
    too.  The parent then judges what they found exactly as a sequential load would (the first bad file in order is
    the error, then unknown check names, then --output onto a spec) before reporting anything.  Returns the results,
    the files --output must not be, and the files to record (`brief`: a verified check's theorems without their
    obligations, `brief_result`)."""
    from .schedule import run_with_affinity
    from .workers import DirectedPool
    work = [FileJob(f, allow_outside, tuple(names or ()), settings, str(cache.directory) if cache else None, brief)
            for f in files]
    progress = sys.stderr.isatty()
    by_index: dict[int, LoadedFile] = {}
    with DirectedPool(jobs, load_and_prove, label=_path_of) as pool:
        for i, item in run_with_affinity(files, jobs, lambda slot, i: pool.send(slot, i, work[i]), pool.answers,
                                         lambda item: item.closure, in_order):
            by_index[i] = item
            if progress:
                sys.stderr.write(f"\r[{len(by_index)}/{len(work)} files] {safe(item.path, 56):<56}")
                sys.stderr.flush()
    if progress:
        sys.stderr.write("\r" + " " * 72 + "\r")
    loaded = [by_index[i] for i in range(len(work))]
    for item in loaded:
        if item.error is not None:
            raise SpecError(None, item.error)
    if names:
        require_known(names, [c for item in loaded for c in item.checks])
    read = [p for item in loaded for p in item.read]
    if output:
        refuse_overwriting_specs(output, read)
    return [r for item in loaded for r in item.results], read, [p for item in loaded for p in item.closure]


def max_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def refuse_overwriting_specs(output: str, read: list[str]) -> None:
    target = Path(output).resolve()
    for path in read:
        if Path(path).resolve() == target:
            raise SpecError(None, f"--output {output} is a spec file this run reads; refusing to overwrite it")


def discover(paths: list[str]) -> list[str] | None:
    """The spec files the paths name, each once, in the order load_specs loads them; None when the paths are bad
    input (the load reports it)."""
    from ..specfile.files import spec_files
    try:
        found = spec_files(paths)
    except SpecError:
        return None
    files: list[str] = []
    seen: set[str] = set()
    for f in found:
        if os.path.realpath(f) not in seen:
            seen.add(os.path.realpath(f))
            files.append(f)
    return files
