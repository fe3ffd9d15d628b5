"""`python -m verifier diff OLD.yaml NEW.yaml` (or `diff SPEC --git REV`): which checks change verdict.

The report a pull-request author reads: checks that newly fail (with their counterexamples), checks
that now pass, added and removed checks.  Exit 1 when a check that was as documented no longer is.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from .prove_cmd import run_all
from .report import text
from .report.counterexample import failures
from .spec import SpecError, load_specs
from .theorems.runner import CheckResult


def _prove(path: str, timeout: float, jobs: int) -> dict[str, CheckResult]:
    specs = load_specs([path])
    results = run_all([(s, c) for s in specs for c in s.checks.values()], timeout, jobs, False)
    return {r.check.name: r for r in results}


def _materialise(spec: str, rev: str, tmp: Path) -> str:
    """The spec at git revision `rev`, with the files beside it (its includes) at that revision too."""
    path = Path(spec).resolve()
    top = subprocess.run(["git", "-C", str(path.parent), "rev-parse", "--show-toplevel"], capture_output=True,
                         text=True)
    if top.returncode != 0:
        raise SpecError(None, f"{spec} is not inside a git repository")
    root = Path(top.stdout.strip())
    rel = path.relative_to(root)
    listing = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", rev, "--", str(rel.parts[0])],
                             capture_output=True, text=True)
    if listing.returncode != 0:
        raise SpecError(None, f"unknown git revision '{rev}': {listing.stderr.strip()}")
    names = [n for n in listing.stdout.splitlines() if n.endswith((".yaml", ".yml"))]
    if str(rel) not in names:
        raise SpecError(None, f"{rel} does not exist at revision {rev}")
    for name in names:
        blob = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{name}"], capture_output=True)
        out = tmp / name
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(blob.stdout)
    return str(tmp / rel)


def _changes(old: dict[str, CheckResult], new: dict[str, CheckResult]) -> dict[str, list]:
    ch: dict[str, list] = {"newly_failing": [], "fixed": [], "changed": [], "added": [], "removed": [],
                           "unchanged": []}
    for name, r in new.items():
        if name not in old:
            ch["added"].append(r)
            continue
        o = old[name]
        if o.outcome == "pass" and r.outcome != "pass":
            ch["newly_failing"].append((o, r))
        elif o.outcome != "pass" and r.outcome == "pass":
            ch["fixed"].append((o, r))
        elif o.verdict != r.verdict or o.check.expect != r.check.expect:
            ch["changed"].append((o, r))
        else:
            ch["unchanged"].append(r)
    ch["removed"] = [o for name, o in old.items() if name not in new]
    return ch


def _render_text(ch: dict[str, list], old_label: str, new_label: str) -> str:
    out = [f"diff {old_label} -> {new_label}"]
    for o, r in ch["newly_failing"]:
        out.append(f"  NEWLY FAILING  {r.check.name}: was {o.verdict} (expect {o.check.expect}), now "
                   f"{text.verdict_phrase(r)}")
        for f in failures(r):
            out += text.render_failure(f, indent="      ")
    for o, r in ch["fixed"]:
        out.append(f"  FIXED          {r.check.name}: was {text.verdict_phrase(o)}, now {r.verdict}")
    for o, r in ch["changed"]:
        out.append(f"  CHANGED        {r.check.name}: {o.verdict} (expect {o.check.expect}) -> {r.verdict} "
                   f"(expect {r.check.expect})")
    for r in ch["added"]:
        out.append(f"  ADDED          {r.check.name}: {text.verdict_phrase(r)} ({r.outcome})")
        if r.outcome != "pass":
            for f in failures(r):
                out += text.render_failure(f, indent="      ")
    for o in ch["removed"]:
        out.append(f"  REMOVED        {o.check.name} (was {o.verdict})")
    out.append(f"{len(ch['newly_failing'])} newly failing, {len(ch['fixed'])} fixed, {len(ch['changed'])} changed, "
               f"{len(ch['added'])} added, {len(ch['removed'])} removed, {len(ch['unchanged'])} unchanged")
    return "\n".join(out) + "\n"


def _render_markdown(ch: dict[str, list], old_label: str, new_label: str) -> str:
    out = [f"## CuTe layout verification: `{old_label}` → `{new_label}`", ""]
    rows = [("❌ newly failing", r, o) for o, r in ch["newly_failing"]] + \
           [("✅ fixed", r, o) for o, r in ch["fixed"]] + [("↔ changed", r, o) for o, r in ch["changed"]] + \
           [("➕ added", r, None) for r in ch["added"]] + [("➖ removed", o, o) for o in ch["removed"]]
    if not rows:
        return "\n".join(out + ["No check changed verdict."]) + "\n"
    out += ["| | check | before | after |", "|---|---|---|---|"]
    for label, r, o in rows:
        before = f"{o.verdict}" if o is not None else "—"
        after = f"{r.verdict}" if label != "➖ removed" else "—"
        out.append(f"| {label} | `{r.check.name}` | {before} | {after} |")
    for o, r in ch["newly_failing"]:
        out += ["", f"### `{r.check.name}`", "", "```"]
        for f in failures(r):
            out += text.render_failure(f, indent="")
        out.append("```")
    return "\n".join(out) + "\n"


def _render_json(ch: dict[str, list]) -> str:
    def one(r: CheckResult) -> dict:
        return {"check": r.check.name, "verdict": r.verdict, "expect": r.check.expect, "outcome": r.outcome,
                "counterexamples": [f.to_json() for f in failures(r)] if r.verdict == "refuted" else []}
    doc = {k: ([{"before": one(o), "after": one(r)} for o, r in v] if k in ("newly_failing", "fixed", "changed")
               else [one(r) for r in v]) for k, v in ch.items() if k != "unchanged"}
    doc["unchanged"] = len(ch["unchanged"])
    return json.dumps(doc, indent=2) + "\n"


def diff_main(old: str, new: str | None, git_rev: str | None, fmt: str, output: str | None, timeout: float,
              jobs: int = 1, out: TextIO = sys.stdout) -> int:
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if git_rev is not None:
                spec = old
                old_path, old_label = _materialise(spec, git_rev, Path(tmp)), f"{spec}@{git_rev}"
                new_path, new_label = spec, spec
            else:
                if new is None:
                    raise SpecError(None, "diff needs OLD and NEW spec files, or one spec and --git REV")
                old_path, old_label, new_path, new_label = old, old, new, new
            before = _prove(old_path, timeout, jobs)
        after = _prove(new_path, timeout, jobs)
    except SpecError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    ch = _changes(before, after)
    report = {"text": lambda: _render_text(ch, old_label, new_label),
              "markdown": lambda: _render_markdown(ch, old_label, new_label),
              "json": lambda: _render_json(ch)}[fmt]()
    if output:
        Path(output).write_text(report)
        if fmt != "text":
            out.write(_render_text(ch, old_label, new_label))
    else:
        out.write(report)
    return 1 if ch["newly_failing"] or any(r.outcome == "fail" for r in ch["added"]) else 0
