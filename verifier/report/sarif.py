"""SARIF 2.1.0 for code-scanning UIs: one result per check whose verdict is not the documented one (per operand path
for prescreen-cutlass's kernels, which are made of paths: `_paths_results`).

Each result is located where a reader would fix it: the spec line of the field the refutation suspects,
or, for an atom imported from CUTLASS's headers, the C++ header line it came from (the spec line is then
a related location).  Rules are the theorems, and one more: a finding about an atom field the configuration never
reads (level warning, whatever the check's verdict).
"""
from __future__ import annotations

import json
import re
from typing import Any

from .. import __version__
from ..outcome import Outcome, Status, Verdict
from ..specfile.model import Loc
from ..theorems.catalog import THEOREMS, TheoremId
from ..theorems.result import CheckResult
from . import text
from .by_path import by_failing_path, first_named
from .failures import Failure, failure_json, failures, findings, safe

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULE_INDEX = {t.id: i for i, t in enumerate(THEOREMS)}
FINDING_RULE = "finding.unread_atom_field"
FINDING_RULE_INDEX = len(THEOREMS)


def _physical(path: str, line: int, column: int = 1) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": path.replace("\\", "/")},
                                 "region": {"startLine": max(1, line), "startColumn": max(1, column)}}}


def _header(source: str | None) -> tuple[str, int] | None:
    m = re.fullmatch(r"(.+):(\d+)", source or "")
    return (m.group(1), int(m.group(2))) if m else None


def _result(r: CheckResult) -> dict[str, Any]:
    fs = failures(r)
    first = fs[0] if fs else None
    name = safe(r.name)
    not_proved = next((t for t in r.theorems if t.status is not Status.PROVED), None)
    rule: TheoremId = first.theorem.id if first else (not_proved.id if not_proved else TheoremId.END_TO_END)
    if r.verdict is Verdict.VERIFIED:
        msg = f"check '{name}' is documented as {r.expect.value} but every theorem was proved"
    elif first is None:
        msg = f"check '{name}' was not decided: {text.verdict_phrase(r)}"
    else:
        w = first.witness
        msg = (f"check '{name}': theorem {first.number} {rule.value} "
               + ("refused by CuTe: " + first.item.reason if first.refused else f"refuted: {first.item.title}") + ". "
               + (f"Smallest counterexample {w.point}; " if w.point else "")
               + (f"actual {w.actual}, expected {w.expected}; " if w.actual is not None else "")
               + (f"suspect {w.suspect.what}." if w.suspect else ""))
    suspect = first.witness.suspect if first else None
    loc: Loc = suspect.loc if suspect is not None and suspect.loc is not None else r.loc
    locations = [_physical(loc.file, loc.line, loc.column)]
    related = [{"id": 0, **_physical(r.loc.file, r.loc.line, r.loc.column), "message": {"text": f"check '{name}'"}}]
    header = _header(suspect.source if suspect is not None else None)
    if header is not None:
        related.append({"id": 1, **locations[0], "message": {"text": "the atom's entry in the spec"}})
        locations = [_physical(header[0], header[1])]
    level = "error" if r.outcome in (Outcome.WRONG, Outcome.ERROR) else "warning"
    out: dict[str, Any] = {
        "ruleId": rule.value, "ruleIndex": RULE_INDEX[rule], "level": level, "message": {"text": msg},
        "locations": locations, "relatedLocations": related,
        "partialFingerprints": {"check": f"{safe(r.spec_name)}/{name}/{rule.value}"},
        "properties": {"spec": r.spec_path, "check": r.name, "verdict": r.verdict.value, "expect": r.expect.value,
                       "outcome": r.outcome.value}}
    if first is not None:
        out["properties"]["counterexample"] = failure_json(first)
    return out


def _finding(r: CheckResult, f: Failure) -> dict[str, Any]:
    name, w = safe(r.name), f.witness
    msg = (f"check '{name}': theorem {f.number} {f.theorem.id.value} refuted about a field the configuration never "
           f"reads: {f.item.title}. " + (f"actual {w.actual}, expected {w.expected}; " if w.actual is not None else "")
           + (f"suspect {w.suspect.what}." if w.suspect else ""))
    loc: Loc = w.suspect.loc if w.suspect is not None and w.suspect.loc is not None else r.loc
    return {"ruleId": FINDING_RULE, "ruleIndex": FINDING_RULE_INDEX, "level": "warning", "message": {"text": msg},
            "locations": [_physical(loc.file, loc.line, loc.column)],
            "relatedLocations": [{"id": 0, **_physical(r.loc.file, r.loc.line, r.loc.column),
                                  "message": {"text": f"check '{name}'"}}],
            "partialFingerprints": {"check": f"{safe(r.spec_name)}/{name}/{FINDING_RULE}/{f.theorem.id.value}"},
            "properties": {"spec": r.spec_path, "check": r.name, "theorem": f.theorem.id.value,
                           "verdict": r.verdict.value, "counterexample": failure_json(f)}}


PATH_EXAMPLES = 10     # checks named in an operand path's result (`--format json` lists every check with its paths)


def _paths_results(results: list[CheckResult]) -> list[dict[str, Any]]:
    """Results made of operand paths (prescreen-cutlass's kernels and families) that are not as expected, as one
    result per path that is not verified (`by_failing_path`) -- located at the path's spec field, which is where
    every check made of it would be located -- counting and naming the checks made of it.  A check not as expected
    none of whose paths is (prescreen-cutlass makes none) is its own result."""
    failing, alone = by_failing_path(results)
    out = []
    for failure in failing:
        path, checks = failure.path, [results[i] for i in failure.checks]
        found = _result(path)
        shown = first_named([c.name for c in checks], PATH_EXAMPLES, lambda n: f"'{safe(n)}'")
        found["message"]["text"] = (f"{len(checks)} check(s) made of operand path '{safe(path.name)}' are not as "
                                    f"expected ({shown}): " + found["message"]["text"])
        found["properties"]["checks"] = len(checks)
        found["properties"]["examples"] = [c.name for c in checks[:PATH_EXAMPLES]]
        out.append(found)
    return out + [_result(results[i]) for i in alone]


def to_sarif(results: list[CheckResult], seconds: float) -> str:
    rules = [{"id": t.id.value, "name": t.title.replace(" ", ""), "shortDescription": {"text": t.title},
              "fullDescription": {"text": t.statement},
              "defaultConfiguration": {"level": "error"}, "properties": {"number": t.number}} for t in THEOREMS]
    rules.append({"id": FINDING_RULE, "name": "UnreadAtomField",
                  "shortDescription": {"text": "Atom field the configuration never reads"},
                  "fullDescription": {"text": "a theorem about a field of an atom (e.g. a copy atom's DstLayout when "
                                              "loads retile through RefLayout) is refuted, but the configuration "
                                              "never reads that field: the atom's own check carries the refutation"},
                  "defaultConfiguration": {"level": "warning"}})
    plain = [r for r in results if not r.paths]
    # checks made of operand paths are reported by their paths (`_paths_results`), each path's findings and internal
    # error once
    paths = list({id(p): p for r in results for p in r.paths}.values())
    errors = [r for r in plain + paths if r.outcome is Outcome.ERROR] + \
        [r for r in results if r.paths and r.outcome is Outcome.ERROR and
         not any(p.outcome is Outcome.ERROR for p in r.paths)]
    log = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cute-layout-verifier", "version": __version__, "rules": rules}},
            "invocations": [{"executionSuccessful": not errors,
                             "toolExecutionNotifications": [
                                 {"level": "error", "message": {"text": f"internal error in check '{safe(r.name)}': "
                                                                        f"{text.verdict_phrase(r)}"}}
                                 for r in errors],
                             "properties": {"checks": len(results), "seconds": round(seconds, 3)}}],
            "results": [_result(r) for r in plain if r.outcome is not Outcome.AS_EXPECTED]
                       + _paths_results([r for r in results if r.paths])
                       + [_finding(r, f) for r in plain + paths for f in findings(r)],
        }],
    }
    return json.dumps(log, indent=2) + "\n"
