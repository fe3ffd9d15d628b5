"""A report format by its name on the command line: the renderer of `--format FMT`, its module imported when asked
for (the text report, a warm run's usual one, imports neither the XML nor the SARIF writer)."""
from __future__ import annotations

from typing import Callable

from ..theorems.result import CheckResult
from . import text

Renderer = Callable[[list[CheckResult], float], str]


def renderer(fmt: str) -> Renderer:
    """The report of format `fmt` (text, json, markdown — sized for a comment —, job-summary — the same Markdown
    sized for a GitHub job summary —, junit or sarif)."""
    if fmt == "text":
        return text.render
    from . import formats, sarif
    table: dict[str, Renderer] = {"json": formats.to_json, "markdown": formats.to_markdown,
                                  "job-summary": lambda rs, s: formats.to_markdown(rs, s,
                                                                                   limit=formats.JOB_SUMMARY_LIMIT),
                                  "junit": formats.to_junit, "sarif": sarif.to_sarif}
    return table[fmt]
