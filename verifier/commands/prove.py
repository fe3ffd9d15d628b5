"""`python -m verifier prove` and `explain`: load specs, prove their checks, report, choose the exit code.

Exit codes (outcome.ExitCode): 0 every check's verdict is the one its `expect` documents; 1 a check's verdict
differs (a counterexample where a proof was expected, or a proof where a mistake is documented); 2 bad input
(spec or command line); 3 a check could not be decided (solver gave up, or no model); 4 an internal error.
"""
from __future__ import annotations

import difflib
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, TextIO

from ..engine.cache import ProofCache, default_dir
from ..outcome import ExitCode, Verdict, exit_code
from ..report import text
from ..specfile import CheckSpec, Spec, SpecError
from ..symbolic.procedure import Settings
from ..specfile.model import CheckKind
from ..theorems.result import CheckResult

if TYPE_CHECKING:     # the loader module is imported where a spec is loaded (a warm run loads none)
    from ..specfile.loader import SpecLoader

Renderer = Callable[[list[CheckResult], float], str]


def renderer(fmt: str) -> Renderer:
    """The report of format `fmt`, its module imported when asked for (the text report, a warm run's usual one,
    imports neither the XML nor the SARIF writer)."""
    if fmt == "text":
        return text.render
    from ..report import formats, sarif
    table: dict[str, Renderer] = {"json": formats.to_json, "markdown": formats.to_markdown,
                                  "junit": formats.to_junit, "sarif": sarif.to_sarif}
    return table[fmt]
Selected = list[tuple[Spec, CheckSpec]]
CACHED_VERDICTS = (Verdict.VERIFIED, Verdict.REFUTED, Verdict.UNSUPPORTED)   # undecided and errors: proved again


def select(specs: Iterable[Spec], names: list[str] | None) -> Selected:
    """The checks to prove: all, or those named (an unknown name is bad input, with a suggestion)."""
    pairs = [(s, c) for s in specs for c in s.checks.values()]
    if names:
        require_known(names, [c.name for _, c in pairs])
        return [(s, c) for s, c in pairs if c.name in names]
    return pairs


def require_known(names: list[str], checks: list[str]) -> None:
    """Every name is a check's name, or bad input with a suggestion."""
    known = sorted(set(checks))
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else f" ({len(known)} checks)"
            raise SpecError(None, f"no check named {text.safe(name)!r}{hint}")


def prove_check(spec: Spec, check: CheckSpec, settings: Settings, cache: ProofCache | None = None,
                debug: bool = False) -> CheckResult:
    """One check's result: from the cache when its inputs were proved before, else proved (and kept)."""
    from ..engine.runner import run_check
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
class _Job:
    """What a worker process needs to prove one check: where it is, not the spec itself."""
    spec_path: str
    check: str
    allow_outside: bool
    settings: Settings
    cache_dir: str | None


_WORKER_SPECS: dict[tuple[str, bool], Spec] = {}
BATCH = 24              # at most this many checks of one spec file go to a worker together


def _work(batch: list[_Job]) -> list[CheckResult]:
    out = []
    for job in batch:
        spec = _worker_spec(job.spec_path, job.allow_outside)
        cache = ProofCache(Path(job.cache_dir)) if job.cache_dir else None
        out.append(prove_check(spec, spec.checks[job.check], job.settings, cache))
    return out


def _batch_label(batch: list[_Job]) -> str:
    names = ", ".join(text.safe(job.check, 40) for job in batch[:3]) + (", ..." if len(batch) > 3 else "")
    return f"{batch[0].spec_path} (checks {names})"


def _batches(work: list[_Job]) -> list[list[int]]:
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
            sys.stderr.write(f"\r[{i}/{n}] {text.safe(r.name, 60):<60}")
            sys.stderr.flush()
    results: list[CheckResult] = []
    if jobs <= 1 or n <= 1:
        for i, (s, c) in enumerate(selected, 1):
            results.append(prove_check(s, c, settings, cache, debug))
            tick(i, results[-1])
    else:
        from ..engine.workers import DirectedPool
        # the parent loaded and checked every file (its includes' places too): forked workers inherit the loaded
        # specs, spawned ones reload the files by name
        for s, _ in selected:
            _WORKER_SPECS[(s.path, True)] = s
        work = [_Job(s.path, c.name, True, settings, str(cache.directory) if cache else None) for s, c in selected]
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
class _Loaded:
    """What a worker did with one spec file: what the parent needs to check the run as a sequential load would,
    and the results of the file's selected checks."""
    path: str
    checks: list[str]
    read: list[str]          # the file and its direct includes (what --output must not overwrite)
    closure: list[str]       # the file and everything it includes
    results: list[CheckResult]
    error: str | None = None  # the SpecError's line, when the file is bad input


_WORKER_LOADERS: dict[bool, SpecLoader] = {}   # by allow_outside: includes parsed once per worker, not per file


def _worker_spec(path: str, allow_outside: bool) -> Spec:
    key = (path, allow_outside)
    if key not in _WORKER_SPECS:
        from ..specfile.loader import SpecLoader
        if allow_outside not in _WORKER_LOADERS:
            _WORKER_LOADERS[allow_outside] = SpecLoader(allow_outside)
        loader = _WORKER_LOADERS[allow_outside]
        _WORKER_SPECS[key] = loader.load(path)
    return _WORKER_SPECS[key]


@dataclass(frozen=True)
class _FileJob:
    path: str
    allow_outside: bool
    names: tuple[str, ...]   # the checks to prove ((): all)
    settings: Settings
    cache_dir: str | None


def _load_and_prove(job: _FileJob) -> _Loaded:
    try:
        spec = _worker_spec(job.path, job.allow_outside)
    except SpecError as e:
        return _Loaded(job.path, [], [], [], [], str(e))
    cache = ProofCache(Path(job.cache_dir)) if job.cache_dir else None
    results = [prove_check(spec, c, job.settings, cache) for c in spec.checks.values()
               if not job.names or c.name in job.names]
    return _Loaded(job.path, list(spec.checks), [spec.path, *spec.includes], spec.closure or [spec.path], results)


def _path_of(job: _FileJob) -> str:
    return job.path


def _prove_in_parallel(files: list[str], names: list[str] | None, settings: Settings, jobs: int,
                       cache: ProofCache | None, allow_outside: bool, output: str | None
                       ) -> tuple[list[CheckResult], list[str], list[str]]:
    """Load and prove in `jobs` workers, a spec file each at a time (verifier/engine/schedule.py): parsing, a tenth of a
    catalog run, is spread too.  The parent then judges what they found exactly as a sequential load would (the
    first bad file in order is the error, then unknown check names, then --output onto a spec) before reporting
    anything.  Returns the results, the files --output must not be, and the files to record."""
    from ..engine.schedule import run_with_affinity
    from ..engine.workers import DirectedPool
    work = [_FileJob(f, allow_outside, tuple(names or ()), settings, str(cache.directory) if cache else None)
            for f in files]
    progress = sys.stderr.isatty()
    by_index: dict[int, _Loaded] = {}
    with DirectedPool(jobs, _load_and_prove, label=_path_of) as pool:
        for i, item in run_with_affinity(files, jobs, lambda slot, i: pool.send(slot, i, work[i]), pool.answers,
                                         lambda item: item.closure):
            by_index[i] = item
            if progress:
                sys.stderr.write(f"\r[{len(by_index)}/{len(work)} files] {text.safe(item.path, 56):<56}")
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
        _refuse_overwriting_specs(output, read)
    return [r for item in loaded for r in item.results], read, [p for item in loaded for p in item.closure]


def _discover(paths: list[str]) -> list[str] | None:
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


def max_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def _refuse_overwriting_specs(output: str, read: list[str]) -> None:
    target = Path(output).resolve()
    for path in read:
        if Path(path).resolve() == target:
            raise SpecError(None, f"--output {output} is a spec file this run reads; refusing to overwrite it")


def make_cache(cache_dir: str | None, no_cache: bool) -> ProofCache | None:
    if no_cache:
        return None
    return ProofCache(Path(cache_dir) if cache_dir else default_dir())


@dataclass
class FileDigest:
    path: str            # as the loader named it (its realpath is hashed too)
    sha256: str


@dataclass
class RunRecord:
    """A whole run's results, and every file it read with its digest: a later identical run whose files all
    still have these digests reports these results without loading a spec (the warm start)."""
    read: list[FileDigest]
    results: list[CheckResult]

    def files(self) -> list[str]:
        return [d.path for d in self.read]


@dataclass
class RunRecordKey:
    """Where a run's record lives: the settings, the check names, the spec files the paths name (found as the
    loader finds them, each with its digest and the repository it belongs to, which decides what it may
    include), and --allow-outside."""
    cache: ProofCache
    key: str

    @staticmethod
    def of(cache: ProofCache, paths: list[str], files: list[str], checks: list[str] | None, settings: Settings,
           allow_outside: bool) -> "RunRecordKey | None":
        from ..specfile.files import repository_root
        parts = [repr(settings), repr(sorted(set(checks or []))), repr(allow_outside), repr(list(paths))]
        for f in files:
            digest = cache.file_digest(f)
            if digest is None:
                return None
            parts.append(f"{f}\0{digest}\0{repository_root(f)}")
        return RunRecordKey(cache, cache.key("run", *parts))

    def lookup(self) -> RunRecord | None:
        record = self.cache.get(self.key, RunRecord)
        if record is None or any(self.cache.file_digest(d.path) != d.sha256 for d in record.read):
            return None
        return record

    def keep(self, closure: list[str], results: list[CheckResult]) -> None:
        """Record `results` with the digest of every file of `closure` (the specs and all they include)."""
        if any(r.verdict not in CACHED_VERDICTS for r in results):
            return
        digests = [FileDigest(p, self.cache.file_digest(p) or "") for p in dict.fromkeys(closure)]
        if all(d.sha256 for d in digests):
            self.cache.put(self.key, RunRecord(digests, results))


def prove_main(paths: list[str], fmt: str, output: str | None, checks: list[str] | None, settings: Settings,
               verbose: bool = False, debug: bool = False, out: TextIO | None = None, jobs: int = 1,
               allow_outside: bool = False, changed: list[str] | None = None, cache: ProofCache | None = None,
               suggest: bool = False) -> int:
    out = out or sys.stdout
    t0 = time.perf_counter()
    # pictures are drawn from the specs, and suggestions are searched around them
    needs_specs = fmt == "html" or (fmt == "markdown" and output is not None) or suggest
    files = None if changed else _discover(paths)       # None: --changed, or bad paths the load will report
    run = None if cache is None or files is None or needs_specs or debug else RunRecordKey.of(
        cache, paths, files, checks, settings, allow_outside)
    recorded = run.lookup() if run is not None else None
    jobs = min(jobs, max_jobs())
    # workers load a spec file each when that keeps them busy (two files a worker); otherwise the parent loads
    # and the workers share batches of the checks (a single large spec is proved in parallel too)
    parallel_load = (recorded is None and files is not None and jobs > 1 and len(files) >= 2 * jobs
                     and not needs_specs and not debug)
    selected: Selected = []
    if recorded is not None:
        results, read = recorded.results, recorded.files()
    elif parallel_load:
        from ..engine.workers import WorkerFailed
        try:
            results, read, closure = _prove_in_parallel(files or [], checks, settings, jobs, cache, allow_outside,
                                                        output)
        except SpecError as e:
            sys.stderr.write(f"error: {e}\n")
            return ExitCode.BAD_INPUT
        except WorkerFailed as e:
            sys.stderr.write(f"internal error: {e}\n")
            return ExitCode.INTERNAL_ERROR
        if run is not None:
            run.keep(closure, results)
    else:
        try:
            if changed:
                specs = _affected_specs(paths, changed, allow_outside)
            else:
                from ..specfile.loader import load_specs
                specs = load_specs(paths, allow_outside=allow_outside)
            if changed and not specs:
                out.write(f"no spec is, or includes, one of the {len(changed)} changed files\n")
                return ExitCode.OK
            selected = select(specs, checks)
        except SpecError as e:
            sys.stderr.write(f"error: {e}\n")
            return ExitCode.BAD_INPUT
        read = [path for s in specs for path in [s.path, *s.includes]]
    if output:
        try:
            _refuse_overwriting_specs(output, read)
        except SpecError as e:
            sys.stderr.write(f"error: {e}\n")
            return ExitCode.BAD_INPUT
    if recorded is None and not parallel_load:
        from ..engine.workers import WorkerFailed
        try:
            results = run_all(selected, settings, jobs, debug, cache)
        except WorkerFailed as e:
            sys.stderr.write(f"internal error: {e}\n")
            return ExitCode.INTERNAL_ERROR
        if run is not None:
            run.keep([p for s in specs for p in (s.closure or [s.path])], results)
    if suggest:
        _add_suggestions(selected, results, settings)
    seconds = time.perf_counter() - t0
    report: Renderer
    if fmt == "html":
        from ..report.html_report import to_html
        from ..report.pictures import pictures
        drawn = pictures(selected, results)
        report = lambda rs, s: to_html(rs, s, drawn)   # noqa: E731
    elif fmt == "markdown" and output:
        report = _markdown_with_pictures(selected, results, output)
    elif fmt == "text":
        report = lambda rs, s: text.render(rs, s, verbose)   # noqa: E731
    else:
        report = renderer(fmt)
    if output:
        try:
            Path(output).write_text(report(results, seconds), encoding="utf-8")
        except OSError as e:
            sys.stderr.write(f"error: cannot write {output}: {e.strerror}\n")
            return ExitCode.BAD_INPUT
        if fmt != "text":
            out.write(text.render(results, seconds, verbose))
    else:
        out.write(report(results, seconds))
    return exit_code(r.outcome for r in results)


def _add_suggestions(selected: Selected, results: list[CheckResult], settings: Settings) -> None:
    """--suggest: the smallest proved change of each refuted check (verifier/suggest.py), as lines of its result.
    A suggestion is information: it never changes the check's verdict."""
    from ..suggest import suggest
    for (spec, check), result in zip(selected, results):
        if result.verdict is Verdict.REFUTED:
            result.suggestion = suggest(spec, check, settings).lines()


def _markdown_with_pictures(selected: Selected, results: list[CheckResult], output: str) -> Renderer:
    """Markdown next to its pictures: the SVGs of refuted checks written to <output stem>_pictures/ and linked."""
    from ..draw.svg import render as render_svg
    from ..report.pictures import pictures
    folder = Path(output).with_name(Path(output).stem + "_pictures")
    links: dict[str, list[str]] = {}
    for p in pictures(selected, results):
        if p.figure is None:
            links.setdefault(p.check, []).append(f"_{p.note}_")
            continue
        name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in f"{p.check}_{p.view}") + ".svg"
        try:
            folder.mkdir(exist_ok=True)
            (folder / name).write_text(render_svg(p.figure), encoding="utf-8")
        except OSError as e:
            links.setdefault(p.check, []).append(f"_no picture: {e.strerror}_")
            continue
        links.setdefault(p.check, []).append(f"![{p.check}: {p.view}]({folder.name}/{name})")
    from ..report import formats
    return lambda rs, s: formats.to_markdown(rs, s, links)


def _affected_specs(paths: list[str], changed: list[str], allow_outside: bool) -> list[Spec]:
    """The specs under `paths` (or every spec git tracks in this repository) that are, or include, a changed file."""
    from ..specfile.affected import affected, git_root, tracked_specs
    candidates = paths or tracked_specs(git_root("."))
    from ..specfile.loader import load_specs
    return affected(load_specs(candidates, allow_outside=allow_outside), changed)


def explain_main(path: str, check: str, lane: int | None, value: int | None, instance: list[int], base: int,
                 out: TextIO | None = None, allow_outside: bool = False, coord: list[int] | None = None,
                 stage: int = 0) -> int:
    out = out or sys.stdout
    from ..kinds.tiled.setup import ConfigurationRefused
    try:
        c, spec = _find_check(path, check, allow_outside)
        if c.kind is CheckKind.GMMA:
            return _explain_gmma(path, c, spec, coord, stage, base, out)
        if c.kind is CheckKind.TMEM:
            return _explain_tmem(path, c, spec, lane, value, instance, out)
        if c.kind is not CheckKind.TILED:
            raise SpecError(c.loc, f"check '{text.safe(check)}' has no copy and MMA to trace "
                                   "(it is an atom-only check)")
        if lane is None or value is None or coord is not None:
            raise SpecError(c.loc, f"check '{text.safe(check)}' is a tiled check: give --lane and --value "
                                   "(--coord is for Hopper checks)")
        from ..engine.runner import tiled_chain
        chain = tiled_chain(spec, c)
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    except ConfigurationRefused as e:
        sys.stderr.write(f"error: CuTe would not build check '{text.safe(check)}': {e}\n")
        return ExitCode.BAD_INPUT
    from ..theorems.claims import Trace
    chain.base = base
    trace = Trace.REGISTER_SIDE
    nval = chain.n_reg
    if not 0 <= lane < chain.nthr or not 0 <= value < nval:
        sys.stderr.write(f"error: lane must be in [0,{chain.nthr}) and value in [0,{nval}) for check "
                         f"'{text.safe(check)}'\n")
        return ExitCode.BAD_INPUT
    if len(instance) > len(chain.instance_sizes) or any(not 0 <= i < n for i, n in zip(instance, chain.instance_sizes)):
        sys.stderr.write(f"error: --instance must be within {tuple(chain.instance_sizes)}\n")
        return ExitCode.BAD_INPUT
    point = {chain.t.name: lane, "value": value, **{f"r{i}": x for i, x in enumerate(instance)}}
    title, lines = chain.lines(trace, point)
    if not lines:
        sys.stderr.write(f"error: no destination of the copy receives lane {lane}, value {value}\n")
        return ExitCode.BAD_INPUT
    out.write(f"{path}: check {text.safe(check)}: {c.mma} {chain.setup.operand} <- {c.copy} on "
              f"{c.value_type.name if c.value_type else ''}, smem {c.smem}\n")
    _write_chain(out, title, lines)
    return ExitCode.OK


def _explain_tmem(path: str, c: CheckSpec, spec: Spec, thread: int | None, register: int | None,
                  instance: list[int], out: TextIO) -> int:
    """thread, register, call -> CuTe's coordinate and its cell, the call's address, the cell the instruction
    moves, the warp's lane quarter."""
    from ..theorems.claims import Unsupported
    from ..kinds.tmem.chain import TmemChain
    from ..kinds.tmem.theorems import build_tmem
    name = text.safe(c.name)
    if thread is None or register is None or len(instance) > 1:
        sys.stderr.write(f"error: check '{name}' is a TMEM check: give --lane THREAD (0-127), --value REGISTER and "
                         "optionally --instance CALL\n")
        return ExitCode.BAD_INPUT
    setup = build_tmem(c, spec.copy_atoms[c.copy])   # type: ignore[index]
    if isinstance(setup, Unsupported):
        sys.stderr.write(f"error: check '{name}' cannot be traced: {setup.missing}\n")
        return ExitCode.BAD_INPUT
    call = instance[0] if instance else 0
    if not (0 <= thread < setup.threads and 0 <= register < setup.values and 0 <= call < setup.calls):
        sys.stderr.write(f"error: --lane must be in [0,{setup.threads}), --value in [0,{setup.values}) and "
                         f"--instance in [0,{setup.calls}) for check '{name}'\n")
        return ExitCode.BAD_INPUT
    title, lines = TmemChain(setup).register_lines(thread, register, call)
    out.write(f"{path}: check {name}: {c.copy} on {c.value_type.name if c.value_type else ''}, tmem {c.tmem}\n")
    _write_chain(out, title, lines)
    return ExitCode.OK


def _write_chain(out: TextIO, title: str, lines: list) -> None:
    out.write(f"{title}\n")
    width = max(len(s.label) for s in lines)
    for s in lines:
        out.write(f"  {s.label:<{width}}  {s.text}\n")


def _explain_gmma(path: str, c: CheckSpec, spec: Spec, coord: list[int] | None, stage: int, base: int,
                  out: TextIO) -> int:
    """global (row, col) -> TMA box -> shared byte -> descriptor -> the (mn, k) wgmma reads."""
    from ..engine.runner import gmma_chain
    name = text.safe(c.name)
    if coord is None or len(coord) != 2:
        sys.stderr.write(f"error: check '{name}' is a Hopper check: give --coord MN,K (and --stage)\n")
        return ExitCode.BAD_INPUT
    chain = gmma_chain(spec, c)
    s = chain.setup
    if s.tile is None:
        sys.stderr.write(f"error: check '{name}': {s.tile_problem}\n")
        return ExitCode.BAD_INPUT
    extent = s.extent
    if not (0 <= coord[0] < extent[0] and 0 <= coord[1] < extent[1] and 0 <= stage < s.stages):
        sys.stderr.write(f"error: --coord must be within {extent[0]}x{extent[1]} and --stage in [0,{s.stages}) for "
                         f"check '{name}'\n")
        return ExitCode.BAD_INPUT
    if base % s.align or not 0 <= base < 1 << 18:
        sys.stderr.write(f"error: --base must be a multiple of {s.align} below 2^18 for check '{name}'\n")
        return ExitCode.BAD_INPUT
    title, lines = chain.element_lines(base, stage, coord[0], coord[1])
    out.write(f"{path}: check {name}: {c.mma} {s.operand.value} <- {c.copy} on "
              f"{c.value_type.name if c.value_type else ''}, smem {c.smem}\n")
    _write_chain(out, title, lines)
    return ExitCode.OK


def _find_check(path: str, name: str, allow_outside: bool) -> tuple[CheckSpec, Spec]:
    """A check by name in a spec file or anywhere under a directory of specs."""
    from ..specfile.loader import load_specs
    spec, check = select(load_specs([path], allow_outside=allow_outside), [name])[0]
    return check, spec
