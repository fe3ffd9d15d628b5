"""`python -m verifier diff OLD.yaml NEW.yaml` (or `diff SPEC_OR_DIR --git REV`): which checks change verdict.

The report a pull-request author reads: checks that newly fail (with their counterexamples), checks that now
pass, added and removed checks.  Against a git revision, every spec under the path that is, or includes, a
file that changed is proved in both versions (its includes at that revision too); the others are unchanged.
Exit 1 when a check that was as documented no longer is; 4 on an internal error.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TextIO

from ..outcome import ExitCode, Outcome
from ..engine.cache import ProofCache
from ..engine.proving import run_all
from ..report import text
from ..report.failures import failure_json, failures, safe
from ..specfile import Spec, SpecError, load_specs
from ..specfile.affected import fingerprint, git_root
from ..symbolic.procedure import Settings
from ..theorems.result import CheckResult

Pair = tuple[CheckResult, CheckResult]


@dataclass
class Changes:
    newly_failing: list[Pair] = field(default_factory=list)
    fixed: list[Pair] = field(default_factory=list)
    changed: list[Pair] = field(default_factory=list)
    added: list[CheckResult] = field(default_factory=list)
    removed: list[CheckResult] = field(default_factory=list)
    unchanged: int = 0
    qualified: bool = False            # several specs: name checks by spec and check

    def name(self, r: CheckResult) -> str:
        return f"{r.spec_name}/{safe(r.name)}" if self.qualified else safe(r.name)


def _key(r: CheckResult, root: Path | None) -> tuple[str, str]:
    """Checks are matched by name, and by their spec's path inside the repository when comparing revisions."""
    if root is None:
        return ("", r.name)
    p = Path(r.spec_path).resolve()
    return (str(p.relative_to(root)) if p.is_relative_to(root) else r.spec_path, r.name)


def _prove(specs: list[Spec], settings: Settings, jobs: int, root: Path | None,
           cache: ProofCache | None = None) -> dict[tuple[str, str], CheckResult]:
    results = run_all([(s, c) for s in specs for c in s.checks.values()], settings, jobs, cache=cache)
    return {_key(r, root): r for r in results}


def _materialise(root: Path, rev: str, tmp: Path) -> None:
    """Every YAML file git tracks in `root` as it was at `rev`, under `tmp`."""
    listing = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "-z", "--name-only", rev],
                             capture_output=True)
    if listing.returncode != 0:
        raise SpecError(None, f"unknown git revision '{safe(rev)}': {listing.stderr.decode(errors='replace').strip()}")
    for name in listing.stdout.decode(errors="replace").split("\0"):
        if not name.endswith((".yaml", ".yml")):
            continue
        blob = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{name}"], capture_output=True)
        out = tmp / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(blob.stdout)
    # the old tree's root is the repository's: its specs include `../` files as they do in the checkout
    (tmp / ".git").touch()


Keyed = dict[tuple[str, str], CheckResult]   # (spec path inside the repository, check name) -> result


def _changes(old: Keyed, new: Keyed, unchanged: int) -> Changes:
    ch = Changes(unchanged=unchanged, qualified=len({k[0] for k in list(old) + list(new)}) > 1)
    for key, r in new.items():
        o = old.get(key)
        if o is None:
            ch.added.append(r)
        elif o.ok and not r.ok:
            ch.newly_failing.append((o, r))
        elif not o.ok and r.ok:
            ch.fixed.append((o, r))
        elif o.verdict is not r.verdict or o.expect is not r.expect:
            ch.changed.append((o, r))
        else:
            ch.unchanged += 1
    ch.removed = [o for key, o in old.items() if key not in new]
    return ch


def _render_text(ch: Changes, old_label: str, new_label: str) -> str:
    out = [f"diff {old_label} -> {new_label}"]
    for o, r in ch.newly_failing:
        out.append(f"  NEWLY FAILING  {ch.name(r)}: was {o.verdict.value} (expect {o.expect.value}), now "
                   f"{text.verdict_phrase(r)}")
        for f in failures(r):
            out += text.render_failure(f, indent="      ")
    for o, r in ch.fixed:
        out.append(f"  FIXED          {ch.name(r)}: was {text.verdict_phrase(o)}, now {r.verdict.value}")
    for o, r in ch.changed:
        out.append(f"  CHANGED        {ch.name(r)}: {o.verdict.value} (expect {o.expect.value}) -> {r.verdict.value} "
                   f"(expect {r.expect.value})")
    for r in ch.added:
        out.append(f"  ADDED          {ch.name(r)}: {text.verdict_phrase(r)} ({r.outcome.value})")
        if not r.ok:
            for f in failures(r):
                out += text.render_failure(f, indent="      ")
    for o in ch.removed:
        out.append(f"  REMOVED        {ch.name(o)} (was {o.verdict.value})")
    out.append(f"{len(ch.newly_failing)} newly failing, {len(ch.fixed)} fixed, {len(ch.changed)} changed, "
               f"{len(ch.added)} added, {len(ch.removed)} removed, {ch.unchanged} unchanged")
    return "\n".join(out) + "\n"


def _render_markdown(ch: Changes, old_label: str, new_label: str) -> str:
    from ..report.formats import md
    out = [f"## CuTe layout verification: `{md(old_label)}` → `{md(new_label)}`", ""]
    rows: list[tuple[str, CheckResult, str, str]] = (
        [("❌ newly failing", r, o.verdict.value, r.verdict.value) for o, r in ch.newly_failing]
        + [("✅ fixed", r, o.verdict.value, r.verdict.value) for o, r in ch.fixed]
        + [("↔ changed", r, o.verdict.value, r.verdict.value) for o, r in ch.changed]
        + [("➕ added", r, "—", r.verdict.value) for r in ch.added]
        + [("➖ removed", o, o.verdict.value, "—") for o in ch.removed])
    if not rows:
        return "\n".join(out + ["No check changed verdict."]) + "\n"
    out += ["| | check | before | after |", "|---|---|---|---|"]
    out += [f"| {label} | `{md(ch.name(r))}` | {before} | {after} |" for label, r, before, after in rows]
    for _, r in ch.newly_failing:
        out += ["", f"### `{md(ch.name(r))}`", "", "```"]
        for f in failures(r):
            out += [line.replace("```", "'''") for line in text.render_failure(f, indent="")]
        out.append("```")
    return "\n".join(out) + "\n"


def _render_json(ch: Changes) -> str:
    def one(r: CheckResult) -> dict[str, Any]:
        return {"spec": r.spec_path, "check": r.name, "verdict": r.verdict.value, "expect": r.expect.value,
                "outcome": r.outcome.value, "counterexamples": [failure_json(f) for f in failures(r)]}
    doc: dict[str, Any] = {k: [{"before": one(o), "after": one(r)} for o, r in getattr(ch, k)]
                           for k in ("newly_failing", "fixed", "changed")}
    doc["added"] = [one(r) for r in ch.added]
    doc["removed"] = [one(r) for r in ch.removed]
    doc["unchanged"] = ch.unchanged
    return json.dumps(doc, indent=2) + "\n"


def _versions_at(path: str, rev: str, tmp: Path, allow_outside: bool) -> tuple[list[Spec], list[Spec], Path, int]:
    """(affected specs at `rev`, affected specs now, the repository root, checks in unaffected specs)."""
    root = git_root(path)
    here = Path(path).resolve()
    _materialise(root, rev, tmp)
    rel = here.relative_to(root)
    then = tmp / rel
    if not then.exists():
        raise SpecError(None, f"{rel} does not exist at revision {safe(rev)}")
    new_specs = load_specs([path], allow_outside=allow_outside)
    old_specs = load_specs([str(then)], allow_outside=allow_outside)
    old_by = {Path(s.path).resolve().relative_to(tmp): s for s in old_specs}
    new_by = {Path(s.path).resolve().relative_to(root): s for s in new_specs}
    unchanged, old_keep, new_keep = 0, [], []
    for r in sorted(set(old_by) | set(new_by)):
        o, n = old_by.get(r), new_by.get(r)
        if o is not None and n is not None and fingerprint(o, tmp) == fingerprint(n, root):
            unchanged += len(n.checks)
            continue
        old_keep += [o] if o is not None else []
        new_keep += [n] if n is not None else []
    return old_keep, new_keep, root, unchanged


def diff_main(old: str, new: str | None, git_rev: str | None, fmt: str, output: str | None, settings: Settings,
              jobs: int = 1, out: TextIO | None = None, allow_outside: bool = False,
              cache: ProofCache | None = None) -> int:
    out = out or sys.stdout
    try:
        if git_rev is not None:
            with tempfile.TemporaryDirectory() as d:
                tmp = Path(d).resolve()
                old_specs, new_specs, root, unchanged = _versions_at(old, git_rev, tmp, allow_outside)
                before = _prove(old_specs, settings, jobs, tmp, cache)    # while the old files exist
            after = _prove(new_specs, settings, jobs, root, cache)
            old_label, new_label = f"{old}@{git_rev}", old
        else:
            if new is None:
                raise SpecError(None, "diff needs OLD and NEW spec files, or one spec and --git REV")
            before = _prove(load_specs([old], allow_outside=allow_outside), settings, jobs, None, cache)
            after = _prove(load_specs([new], allow_outside=allow_outside), settings, jobs, None, cache)
            unchanged, old_label, new_label = 0, old, new
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return ExitCode.BAD_INPUT
    ch = _changes(before, after, unchanged)
    renderers: dict[str, Callable[[], str]] = {"text": lambda: _render_text(ch, old_label, new_label),
                                               "markdown": lambda: _render_markdown(ch, old_label, new_label),
                                               "json": lambda: _render_json(ch)}
    render = renderers[fmt]
    if output:
        Path(output).write_text(render(), encoding="utf-8")
        if fmt != "text":
            out.write(_render_text(ch, old_label, new_label))
    else:
        out.write(render())
    if any(r.outcome is Outcome.ERROR for r in list(before.values()) + list(after.values())):
        return ExitCode.INTERNAL_ERROR
    return ExitCode.WRONG if ch.newly_failing or any(not r.ok for r in ch.added) else ExitCode.OK
