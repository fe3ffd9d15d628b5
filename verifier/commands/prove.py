"""`python -m verifier prove`: load specs, prove their checks (verifier/engine), report, choose the exit code.

Exit codes (outcome.ExitCode): 0 every check's verdict is the one its `expect` documents; 1 a check's verdict
differs (a counterexample where a proof was expected, or a proof where a mistake is documented); 2 bad input
(spec or command line); 3 a check could not be decided (solver gave up, or no model); 4 an internal error.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TextIO

from ..engine import proving
from ..engine.cache import ProofCache
from ..engine.proving import Selected
from ..engine.record import RunRecordKey
from ..outcome import ExitCode, Verdict, exit_code
from ..report import text
from ..report.by_format import Renderer, renderer
from ..specfile import Spec, SpecError
from ..symbolic.procedure import Settings
from ..theorems.result import CheckResult


def prove_main(paths: list[str], fmt: str, output: str | None, checks: list[str] | None, settings: Settings,
               verbose: bool = False, debug: bool = False, out: TextIO | None = None, jobs: int = 1,
               allow_outside: bool = False, changed: list[str] | None = None, cache: ProofCache | None = None,
               suggest: bool = False, quiet: bool = False) -> int:
    out = out or sys.stdout
    t0 = time.perf_counter()
    # pictures are drawn from the specs, and suggestions are searched around them
    needs_specs = fmt == "html" or (fmt == "markdown" and output is not None) or suggest
    files = None if changed else proving.discover(paths)       # None: --changed, or bad paths the load will report
    run = None if cache is None or files is None or needs_specs or debug else RunRecordKey.of(
        cache, paths, files, checks, settings, allow_outside)
    recorded = run.lookup() if run is not None else None
    jobs = min(jobs, proving.max_jobs())
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
            results, read, closure = proving.prove_in_parallel(files or [], checks, settings, jobs, cache,
                                                               allow_outside, output)
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
                specs = _affected_specs(paths, changed, allow_outside, checks or None)
            else:
                from ..specfile.loader import load_specs
                specs = load_specs(paths, allow_outside=allow_outside, only=checks or None)
            if changed and not specs:
                out.write(f"no spec is, or includes, one of the {len(changed)} changed files\n")
                return ExitCode.OK
            selected = proving.select(specs, checks)
        except SpecError as e:
            sys.stderr.write(f"error: {e}\n")
            return ExitCode.BAD_INPUT
        read = [path for s in specs for path in [s.path, *s.includes]]
    if output:
        try:
            proving.refuse_overwriting_specs(output, read)
        except SpecError as e:
            sys.stderr.write(f"error: {e}\n")
            return ExitCode.BAD_INPUT
    if recorded is None and not parallel_load:
        from ..engine.workers import WorkerFailed
        try:
            results = proving.run_all(selected, settings, jobs, debug, cache)
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
        report = lambda rs, s: text.render(rs, s, verbose, quiet)   # noqa: E731
    else:
        report = renderer(fmt)
    if output:
        try:
            Path(output).write_text(report(results, seconds), encoding="utf-8")
        except OSError as e:
            sys.stderr.write(f"error: cannot write {output}: {e.strerror}\n")
            return ExitCode.BAD_INPUT
        if fmt != "text":     # the report is in the file: standard output says what went wrong and the summary
            out.write(text.render(results, seconds, verbose, quiet=True))
    else:
        out.write(report(results, seconds))
    if cache is not None:
        cache.prune()           # the least recently used entries, past the cache's limit
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
    from urllib.parse import quote

    from ..draw.svg import render as render_svg
    from ..report import formats
    from ..report.pictures import pictures
    folder = Path(output).with_name(Path(output).stem + "_pictures")
    links: dict[str, list[str]] = {}
    for p in pictures(selected, results):
        if p.figure is None:
            links.setdefault(p.check, []).append(f"_{formats.md_text(p.note or '')}_")
            continue
        name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in f"{p.check}_{p.view}") + ".svg"
        try:
            folder.mkdir(exist_ok=True)
            (folder / name).write_text(render_svg(p.figure), encoding="utf-8")
        except OSError as e:
            links.setdefault(p.check, []).append(f"_{formats.md_text(f'no picture: {e.strerror}')}_")
            continue
        links.setdefault(p.check, []).append(f"![{formats.md_text(f'{p.check}: {p.view}')}]"
                                             f"({quote(folder.name)}/{quote(name)})")
    return lambda rs, s: formats.to_markdown(rs, s, links)


def _affected_specs(paths: list[str], changed: list[str], allow_outside: bool,
                    checks: list[str] | None = None) -> list[Spec]:
    """The specs under `paths` (or every spec git tracks in this repository) that are, or include, a changed file:
    the candidates are read for their includes only (no check built), the affected ones then loaded for proving."""
    from ..specfile.affected import affected, git_root, tracked_specs
    candidates = paths or tracked_specs(git_root("."))
    from ..specfile.loader import load_specs
    hit = affected(load_specs(candidates, allow_outside=allow_outside, only=()), changed)
    return load_specs([s.path for s in hit], allow_outside=allow_outside, only=checks) if hit else []

