"""Machine and CI formats: JSON (for tools), JUnit XML (CI test reports), Markdown (pull-request comments)."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from ..theorems.catalog import BY_ID
from ..theorems.runner import CheckResult
from . import text
from .counterexample import failures


def _verdict_json(v) -> dict:
    ob = v.obligation
    return {"obligation": ob.title, "domain": ob.domain_text(), "status": v.status,
            "seconds": round(v.seconds, 6), "bit_width": v.width, "counterexample": v.counterexample,
            "failing": v.failing, "reason": v.reason or None}


def to_json(results: list[CheckResult], seconds: float) -> str:
    checks = []
    for r in results:
        checks.append({
            "spec": r.spec.path, "spec_name": r.spec.name, "check": r.check.name,
            "location": str(r.check.loc), "expect": r.check.expect, "verdict": r.verdict,
            "outcome": r.outcome, "seconds": round(r.seconds, 6),
            "theorems": [{"id": t.id, "number": t.number, "title": t.title, "status": t.status,
                          "reason": t.reason or None, "seconds": round(t.seconds, 6),
                          "obligations": [_verdict_json(v) for v in t.verdicts]} for t in r.theorems],
            "counterexamples": [f.to_json() for f in failures(r)] if r.verdict == "refuted" else [],
        })
    summary = {"checks": len(results), "pass": sum(r.outcome == "pass" for r in results),
               "fail": sum(r.outcome == "fail" for r in results),
               "unknown": sum(r.outcome == "unknown" for r in results), "seconds": round(seconds, 6)}
    return json.dumps({"version": 1, "summary": summary, "checks": checks}, indent=2) + "\n"


def to_junit(results: list[CheckResult], seconds: float) -> str:
    root = ET.Element("testsuites", name="cute-layout-verifier", tests=str(len(results)),
                      failures=str(sum(r.outcome != "pass" for r in results)), time=f"{seconds:.3f}")
    by_spec: dict[str, list[CheckResult]] = {}
    for r in results:
        by_spec.setdefault(r.spec.path, []).append(r)
    for path, rs in by_spec.items():
        suite = ET.SubElement(root, "testsuite", name=rs[0].spec.name, file=path, tests=str(len(rs)),
                              failures=str(sum(r.outcome != "pass" for r in rs)),
                              time=f"{sum(r.seconds for r in rs):.3f}")
        for r in rs:
            case = ET.SubElement(suite, "testcase", classname=r.spec.name, name=r.check.name,
                                 file=path, line=str(r.check.loc.line), time=f"{r.seconds:.3f}")
            body = "\n".join(text.render_check(r, verbose=True))
            if r.outcome == "fail":
                kind = "counterexample" if r.verdict == "refuted" else "unexpected-proof"
                msg = (f"expected {r.expected}, got {r.verdict}: " + text.verdict_phrase(r))
                ET.SubElement(case, "failure", message=msg, type=kind).text = body
            elif r.outcome == "unknown":
                ET.SubElement(case, "failure", message=text.verdict_phrase(r), type="undecided").text = body
            else:
                ET.SubElement(case, "system-out").text = body
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def to_markdown(results: list[CheckResult], seconds: float) -> str:
    out = ["## CuTe layout verification", "", text.summary(results, seconds), "",
           "| | check | spec | verdict | expected | time |", "|---|---|---|---|---|---|"]
    mark = {"pass": "✅", "fail": "❌", "unknown": "❔"}
    for r in results:
        out.append(f"| {mark[r.outcome]} | `{r.check.name}` | `{r.spec.path}` | {text.verdict_phrase(r)} | "
                   f"{r.check.expect} | {r.seconds:.2f}s |")
    refuted = [r for r in results if r.verdict == "refuted"]
    for r in refuted:
        out += ["", f"### `{r.check.name}` — {'refuted as documented' if r.ok else 'counterexample'}", ""]
        for f in failures(r):
            out.append(f"**Theorem {f.number} `{f.theorem}`** ({BY_ID[f.theorem].title}): {f.obligation}")
            out.append("")
            if f.note:
                out.append(f"- {f.note}")
            if f.point and "n" not in f.point:
                pt = ", ".join(f"`{k}={v}`" for k, v in f.point.items())
                out.append(f"- smallest counterexample: {pt} ({f.failing} failing of {f.domain_size} points)")
                if f.actual is not None:
                    out.append(f"- actual `{f.actual}`, expected `{f.expected}`")
                for k, v in f.closed_forms.items():
                    out.append(f"- {k}: `{v}`")
            out.append(f"- suspect: {f.suspect}" + (f" (`{f.suspect_loc}`)" if f.suspect_loc else ""))
            if f.chain is not None:
                out += ["", "<details><summary>the chain at " + f.chain.title + "</summary>", "", "```"]
                width = max(len(s.label) for s in f.chain.steps)
                out += [f"{s.label:<{width}}  {s.text}" for s in f.chain.steps]
                out += ["```", "", "</details>"]
            out.append("")
    undecided = [r for r in results if r.outcome == "unknown"]
    if undecided:
        out += ["", "### Undecided", ""]
        out += [f"- `{r.check.name}`: {text.verdict_phrase(r)}" for r in undecided]
    return "\n".join(out).rstrip() + "\n"
