"""SARIF 2.1.0 for code-scanning UIs: one result per check whose verdict is not the documented one.

Each result is located where a reader would fix it: the spec line of the layout the report suspects, or,
for an atom imported from CUTLASS's headers, the C++ header line it came from (the spec line is then a
related location).  Rules are the eight theorems.
"""
from __future__ import annotations

import json
import re

from .. import __version__
from ..spec.model import Loc
from ..theorems.catalog import THEOREMS
from ..theorems.runner import CheckResult
from . import text
from .counterexample import failures

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _physical(path: str, line: int, column: int = 1) -> dict:
    return {"physicalLocation": {"artifactLocation": {"uri": path.replace("\\", "/")},
                                 "region": {"startLine": max(1, line), "startColumn": max(1, column)}}}


def _atom_source(r: CheckResult, theorem: str) -> tuple[str, int] | None:
    """An imported atom records `source: header:line`; results about the atom point there."""
    atom = None
    if theorem.startswith("mma.") and r.check.mma:
        atom = r.spec.mma_atoms.get(r.check.mma)
    elif theorem == "copy.routing" and r.check.copy:
        atom = r.spec.copy_atoms.get(r.check.copy)
    src = getattr(atom, "source", None) if atom is not None else None
    m = re.fullmatch(r"(.+):(\d+)", src or "")
    return (m.group(1), int(m.group(2))) if m else None


def _result(r: CheckResult) -> dict:
    fs = failures(r) if r.verdict == "refuted" else []
    first = fs[0] if fs else None
    rule = first.theorem if first else ("end_to_end" if r.verdict == "unknown" else r.theorems[0].id if r.theorems else
                                        "end_to_end")
    if r.verdict == "verified":
        msg = f"check '{r.check.name}' is documented as failing (expect: {r.check.expect}) but every theorem was proved"
    elif r.verdict == "unknown":
        msg = f"check '{r.check.name}' could not be decided: {text.verdict_phrase(r)}"
    else:
        msg = (f"check '{r.check.name}': theorem {first.number} {first.theorem} refuted: {first.obligation}. "
               + (f"Smallest counterexample {first.point}; " if first.point else "")
               + (f"actual {first.actual}, expected {first.expected}; " if first.actual is not None else "")
               + f"suspect {first.suspect}.")
    loc: Loc = first.suspect_loc if first and first.suspect_loc else r.check.loc
    locations = [_physical(loc.file, loc.line, loc.column)]
    related = [{"id": 0, **_physical(r.check.loc.file, r.check.loc.line, r.check.loc.column),
                "message": {"text": f"check '{r.check.name}'"}}]
    src = _atom_source(r, rule)
    if src is not None:
        related.append({"id": 1, **locations[0], "message": {"text": "the atom's entry in the spec"}})
        locations = [_physical(src[0], src[1])]
    out = {"ruleId": rule, "ruleIndex": [t.id for t in THEOREMS].index(rule),
           "level": "warning" if r.verdict == "unknown" else "error",
           "message": {"text": msg}, "locations": locations, "relatedLocations": related,
           "partialFingerprints": {"check": f"{r.spec.name}/{r.check.name}/{rule}"},
           "properties": {"spec": r.spec.path, "check": r.check.name, "verdict": r.verdict,
                          "expect": r.check.expect}}
    if first is not None:
        out["properties"]["counterexample"] = first.to_json()
    return out


def to_sarif(results: list[CheckResult], seconds: float) -> str:
    rules = [{"id": t.id, "name": t.title.replace(" ", ""), "shortDescription": {"text": t.title},
              "fullDescription": {"text": t.statement},
              "defaultConfiguration": {"level": "error"}, "properties": {"number": t.number}} for t in THEOREMS]
    log = {
        "$schema": SCHEMA, "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cute-layout-verifier", "version": __version__,
                                "rules": rules}},
            "invocations": [{"executionSuccessful": True,
                             "properties": {"checks": len(results), "seconds": round(seconds, 3)}}],
            "results": [_result(r) for r in results if r.outcome != "pass"],
        }],
    }
    return json.dumps(log, indent=2) + "\n"
