"""`prove --format html`: the whole report as one self-contained page, the pictures of refuted checks inline."""
from __future__ import annotations

from html import escape

from ..draw.html import SCRIPT, STYLE
from ..draw.svg import render as render_svg
from ..outcome import Outcome
from ..theorems.result import CheckResult
from . import text
from .failures import failures
from .pictures import Picture

MARK = {Outcome.AS_EXPECTED: "PASS", Outcome.WRONG: "FAIL", Outcome.UNDECIDED: "UNDECIDED", Outcome.ERROR: "ERROR"}
TABLE_STYLE = "table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 2px 8px; }"


def to_html(results: list[CheckResult], seconds: float, pictures: list[Picture]) -> str:
    by_check: dict[str, list[Picture]] = {}
    for p in pictures:
        by_check.setdefault(p.check, []).append(p)
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>CuTe layout verification</title>", f"<style>{STYLE}{TABLE_STYLE}</style>",
             f"<script>{SCRIPT}</script>", "</head>", "<body>", "<h1>CuTe layout verification</h1>",
             '<div id="info">hover a cell</div>', f"<p>{escape(text.summary(results, seconds))}</p>",
             "<table><tr><th></th><th>check</th><th>spec</th><th>verdict</th><th>expected</th><th>time</th></tr>"]
    for r in results:
        parts.append(f"<tr><td>{MARK[r.outcome]}</td><td><code>{escape(r.name)}</code></td>"
                     f"<td><code>{escape(r.spec_path)}</code></td><td>{escape(text.verdict_phrase(r))}</td>"
                     f"<td>{r.expect.value}</td><td>{r.seconds:.2f}s</td></tr>")
    parts.append("</table>")
    for r in results:
        fs = failures(r)
        if not fs:
            continue
        parts.append(f"<section><h2><code>{escape(r.name)}</code>: "
                     f"{'refuted as documented' if r.ok else 'counterexample'}</h2>")
        lines = [line for f in fs for line in text.render_failure(f, indent="")]
        parts.append(f"<pre>{escape(chr(10).join(lines))}</pre>")
        for p in by_check.get(r.name, []):
            parts.append(render_svg(p.figure) if p.figure is not None else f"<p><em>{escape(p.note)}</em></p>")
        parts.append("</section>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
