"""Machine and CI formats: JSON (for tools), JUnit XML (CI test reports), Markdown (pull-request comments)."""
from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from typing import Any

from ..outcome import Outcome, Verdict
from ..theorems.claims import ItemResult, TheoremResult
from ..theorems.result import CheckResult
from . import text
from .by_path import by_failing_path, first_named
from .failures import failure_json, failures, findings, safe

JSON_VERSION = 2
# characters XML 1.0 does not allow, even escaped
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _item_json(i: ItemResult) -> dict[str, Any]:
    cc = i.cross_check
    return {"obligation": i.title, "subject": i.subject or None, "status": i.status.value,
            "procedure": i.procedure.value if i.procedure else None, "domain": i.domain,
            "domain_size": i.domain_size, "seconds": round(i.seconds, 6), "bit_width": i.width,
            "reason": i.reason or None, "note": i.note or None,
            "cross_check": None if cc is None else {"procedure": cc.procedure.value,
                                                    "status": cc.status.value if cc.status else None,
                                                    "seconds": round(cc.seconds, 6), "note": cc.note or None},
            "counterexample": i.witness.point if i.witness else None}


def _theorem_json(t: TheoremResult, made: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A theorem's JSON, made once for each result object (`made`, by identity)."""
    found = made.get(id(t))
    if found is None:
        found = made[id(t)] = {"id": t.id.value, "number": t.number, "title": t.title, "status": t.status.value,
                               "reason": t.reason or None, "seconds": round(t.seconds, 6),
                               "obligations": [_item_json(i) for i in t.items]}
    return found


def check_json(r: CheckResult, made: dict[int, dict[str, Any]] | None = None,
               path_keys: dict[int, str] | None = None) -> dict[str, Any]:
    """One check's JSON; `made`: theorems already made, by the identity of their result (prescreen-cutlass's
    kernels share their paths' theorem results: each is made once a report).  A result made of operand paths
    (`r.paths`) names them by their keys in the document's `paths` (`path_keys`, by identity) instead of holding their
    theorems, counterexamples, findings and information."""
    if made is None:
        made = {}
    out: dict[str, Any] = {
        "spec": r.spec_path, "spec_name": r.spec_name, "check": r.name, "location": str(r.loc),
        "summary": r.summary, "expect": r.expect.value, "verdict": r.verdict.value, "outcome": r.outcome.value,
        "seconds": round(r.seconds, 6)}
    if r.paths:
        keys = path_keys if path_keys is not None else _path_keys([r])[0]
        out["paths"] = [keys[id(p)] for p in r.paths]
    else:
        out["theorems"] = [_theorem_json(t, made) for t in r.theorems]
        out["counterexamples"] = [failure_json(f) for f in failures(r)]
        out["findings"] = [failure_json(f) for f in findings(r)]
        out["info"] = list(r.info)
    out.update({"suggestion": list(r.suggestion) or None, "member": r.member or None})
    return out


def _path_keys(results: list[CheckResult]) -> tuple[dict[int, str], list[tuple[str, CheckResult]]]:
    """The operand paths the results are made of, each once (by identity), keyed by its name -- by its name and spec
    file where two paths share a name, by a number after that where those are alike too: (key by the path's
    identity, (key, path) in the order first met)."""
    keys: dict[int, str] = {}
    ordered: list[tuple[str, CheckResult]] = []
    taken: set[str] = set()
    for r in results:
        for p in r.paths:
            if id(p) in keys:
                continue
            key = p.name
            if key in taken:
                key = f"{p.name} ({os.path.basename(p.spec_path)})"
            n = 2
            while key in taken:
                key, n = f"{p.name} ({os.path.basename(p.spec_path)}, {n})", n + 1
            taken.add(key)
            keys[id(p)] = key
            ordered.append((key, p))
    return keys, ordered


def summary_json(results: list[CheckResult], seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {"checks": len(results)}
    out.update({o.value: sum(r.outcome is o for r in results) for o in Outcome})
    out["verdicts"] = {v.value: sum(r.verdict is v for r in results) for v in Verdict}
    out["seconds"] = round(seconds, 6)
    return out


# compact: no indentation (the standard library encodes that in C; indented, in Python: six times slower, and a
# prescreen-cutlass report of a high --level's 200,000 families is 1.6 times larger); `jq .` indents it
JSON_SEPARATORS = (",", ":")


def to_json(results: list[CheckResult], seconds: float) -> str:
    made: dict[int, dict[str, Any]] = {}      # the results, hence their theorems' ids, live through the call
    doc: dict[str, Any] = {"version": JSON_VERSION, "summary": summary_json(results, seconds)}
    keys, paths = _path_keys(results)
    if paths:       # prescreen-cutlass: each operand path once, its kernels (families) naming it
        doc["paths"] = {key: check_json(p, made) for key, p in paths}
    doc["checks"] = [check_json(r, made, keys) for r in results]
    return json.dumps(doc, separators=JSON_SEPARATORS) + "\n"


def _xml(s: str) -> str:
    return _XML_ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", s)


def to_junit(results: list[CheckResult], seconds: float) -> str:
    not_passed = sum(r.outcome is not Outcome.AS_EXPECTED for r in results)
    root = ET.Element("testsuites", name="cute-layout-verifier", tests=str(len(results)), failures=str(not_passed),
                      time=f"{seconds:.3f}")
    by_spec: dict[str, list[CheckResult]] = {}
    for r in results:
        by_spec.setdefault(r.spec_path, []).append(r)
    for path, rs in by_spec.items():
        suite = ET.SubElement(root, "testsuite", name=_xml(rs[0].spec_name), file=_xml(path), tests=str(len(rs)),
                              failures=str(sum(r.outcome is Outcome.WRONG or r.outcome is Outcome.UNDECIDED
                                               for r in rs)),
                              errors=str(sum(r.outcome is Outcome.ERROR for r in rs)),
                              time=f"{sum(r.seconds for r in rs):.3f}")
        for r in rs:
            case = ET.SubElement(suite, "testcase", classname=_xml(r.spec_name), name=_xml(r.name), file=_xml(path),
                                 line=str(r.loc.line), time=f"{r.seconds:.3f}")
            # a result made of operand paths (prescreen-cutlass's kernels and families, hundreds of thousands at a
            # high --level): its verdict, information and failures, not the list of every theorem its paths proved
            body = _xml("\n".join(text.render_check(r, verbose=not r.paths) +
                                  ([f"      operand paths: {', '.join(p.name for p in r.paths)}"] if r.paths else [])))
            phrase = _xml(text.verdict_phrase(r))
            if r.outcome is Outcome.ERROR:
                ET.SubElement(case, "error", message=phrase, type="internal-error").text = body
            elif r.outcome is Outcome.WRONG:
                kind = "counterexample" if r.verdict is Verdict.REFUTED else "unexpected-proof"
                ET.SubElement(case, "failure", message=_xml(f"expected {r.expect.verdict.value}, got "
                                                            f"{r.verdict.value}: ") + phrase, type=kind).text = body
            elif r.outcome is Outcome.UNDECIDED:
                ET.SubElement(case, "failure", message=phrase, type=r.verdict.value).text = body
            else:
                ET.SubElement(case, "system-out").text = body
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def md(s: str) -> str:
    """Text for a Markdown table cell or inline code: pipes, backticks and line breaks escaped."""
    return safe(s, 400).replace("\\", "\\\\").replace("|", "\\|").replace("`", "'").replace("\n", " ")


_MD_LINK_SYNTAX = re.compile(r"([\\`\[\]()<>!])")


def md_text(s: str) -> str:
    """Text for Markdown prose or an image's alt text: the marks that open or close a link, an image, code or HTML
    (brackets, parentheses, angle brackets, `!`, backticks, backslashes) backslash-escaped, line breaks made spaces —
    a check's name cannot make a link."""
    return _MD_LINK_SYNTAX.sub(r"\\\1", safe(s, 400).replace("\n", " "))


MARK = {Outcome.AS_EXPECTED: "✅", Outcome.WRONG: "❌", Outcome.UNDECIDED: "❔", Outcome.ERROR: "💥"}


MARKDOWN_LIMIT = 65536      # characters: GitHub's limit for a comment
JOB_SUMMARY_LIMIT = 1000000     # characters of a job summary (GitHub's limit is 1 MiB; a row's mark is 3 bytes)
TABLE_HEAD = ["| | check | spec | verdict | expected | time |", "|---|---|---|---|---|---|"]
FENCE, FENCE_ESCAPED = "```", "'''"


def _row(r: CheckResult) -> str:
    return (f"| {MARK[r.outcome]} | `{md(r.name)}` | `{md(r.spec_path)}` | {md(text.verdict_phrase(r))} | "
            f"{r.expect.value} | {r.seconds:.2f}s |")


PATH_TABLE_HEAD = ["| | operand path | spec | verdict | checks made of it, not as expected |", "|---|---|---|---|---|"]
PATH_EXAMPLE_NAMES = 2       # the checks a path's row names


def _path_row(path: CheckResult, checks: list[CheckResult]) -> str:
    named = first_named([c.name for c in checks], PATH_EXAMPLE_NAMES, lambda n: f"`{md(n)}`")
    return (f"| {MARK[Outcome.WRONG]} | `{md(path.name)}` | `{md(path.spec_path)}` | {md(text.verdict_phrase(path))} "
            f"| {len(checks)}: {named} |")


def _sections(r: CheckResult, pictures: dict[str, list[str]] | None) -> list[str]:
    fs, warnings = failures(r), findings(r)
    out: list[str] = []
    if fs:
        out += ["", f"### `{md(r.name)}` — {'refuted as documented' if r.ok else 'counterexample'}", "", FENCE]
        for f in fs:
            out += [line.replace(FENCE, FENCE_ESCAPED) for line in text.render_failure(f, indent="")]
        out += [FENCE, ""]
    if warnings:
        out += ["", f"### `{md(r.name)}` — finding (a warning, not the verdict)", "", FENCE]
        for f in warnings:
            out += [line.replace(FENCE, FENCE_ESCAPED) for line in text.render_failure(f, indent="")]
        out += [FENCE, ""]
    if fs:
        out += list((pictures or {}).get(r.name, []))
    return out


def to_markdown(results: list[CheckResult], seconds: float, pictures: dict[str, list[str]] | None = None,
                limit: int = MARKDOWN_LIMIT) -> str:
    """The Markdown report, at most `limit` characters: the summary, then every check whose verdict is not the one
    documented (a row each, always), their counterexamples, the documented mistakes' counterexamples and the
    checks as expected as far as they fit — what is left out is counted and said.  `pictures`: Markdown lines
    (image links) to put under a refuted check's counterexample."""
    # checks made of operand paths (prescreen-cutlass's kernels, tens of thousands of them failing at one path at a
    # high --level) are reported by their paths not verified, the paths failing the most checks first
    composed = [r for r in results if r.paths]
    failing, alone = by_failing_path(composed)
    failing.sort(key=lambda f: (-len(f.checks), f.path.name))
    wrong = [r for r in results if r.outcome is not Outcome.AS_EXPECTED and not r.paths] + [composed[i] for i in alone]
    passed = [r for r in results if r.outcome is Outcome.AS_EXPECTED]
    head = ["## CuTe layout verification", "", md(text.summary(results, seconds)), ""]
    if wrong:
        head += ["### Not as expected", ""] + TABLE_HEAD + [_row(r) for r in wrong]
    body: list[str] = []
    used = len("\n".join(head)) + 600          # room for the note of what was left out
    left_out: list[str] = []

    def fits(lines: list[str]) -> bool:
        return used + len("\n".join(lines)) + 1 <= limit

    def add(lines: list[str], what: str) -> None:
        nonlocal used
        if not fits(lines):
            left_out.append(what)
            return
        body.extend(lines)
        used += len("\n".join(lines)) + 1

    def add_table(heading: list[str], rows: list[str], what: str) -> None:
        """A table's rows, as many as fit (halved until they do); the rows left out counted."""
        kept = rows
        while kept and not fits(heading + kept):
            kept = kept[:len(kept) // 2]
        if kept:
            add(heading + kept, "")
        if len(kept) < len(rows):
            left_out.append(f"{len(rows) - len(kept)} of the {len(rows)} rows of {what}")

    if failing:
        add_table(["", f"### Operand paths not verified ({len(failing)}; the checks made of each, not as expected)",
                   "", *PATH_TABLE_HEAD],
                  [_path_row(f.path, [composed[i] for i in f.checks]) for f in failing],
                  "the operand paths not verified")
        for f in failing:
            add(_sections(f.path, pictures), f"the counterexample of operand path `{md(f.path.name)}`")
    for r in wrong:
        add(_sections(r, pictures), f"the counterexample of `{md(r.name)}`")
    for r in passed:
        if failures(r) or findings(r):
            add(_sections(r, pictures), f"the counterexample of `{md(r.name)}`")
    if passed:
        add_table(["", f"### As expected ({len(passed)})", ""] + TABLE_HEAD, [_row(r) for r in passed],
                  "the checks as expected")
    rest = [r for r in results if r.outcome in (Outcome.UNDECIDED, Outcome.ERROR)]
    if rest:
        add(["", "### Undecided, unsupported and internal errors", ""]
            + [f"- `{md(r.name)}`: {md(text.verdict_phrase(r))}" for r in rest], "the list of undecided checks")
    if left_out:
        shown = [x for x in left_out if x][:5]
        body += ["", f"_Left out to stay under {limit:,} characters ({len(left_out)} parts): " + "; ".join(shown)
                 + ("; ..." if len(left_out) > len(shown) else "") + ". Every check whose verdict is not the "
                 "documented one " + ("and is not made of operand paths " if failing else "") + "is in the table "
                 "above" + ("; the operand paths not verified are listed failing the most checks first, as many as "
                 "fit (`--format json` lists every one, and every check made of it)" if failing else "")
                 + "; the whole report: the same command with `--format text` (or `--output report.html`)._"]
    return "\n".join(head + body).rstrip() + "\n"
