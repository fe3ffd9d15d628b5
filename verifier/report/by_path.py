"""Results made of operand paths (prescreen-cutlass's kernels and families, `CheckResult.paths`), grouped by the
paths that are not verified: a path's failure is one failure, however many of the kernels made of it fail with it
(at a high `--level`, tens of thousands fail at one path)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..outcome import Outcome, Verdict
from ..theorems.result import CheckResult


@dataclass
class PathFailure:
    """An operand path not verified, and the results made of it that are not as expected."""
    path: CheckResult
    checks: list[int] = field(default_factory=list)      # indices into the results grouped


def by_failing_path(results: list[CheckResult]) -> tuple[list[PathFailure], list[int]]:
    """The paths not verified that the results not as expected are made of, each once (in the order first met, a
    result under each of its paths not verified), and the indices of the results not as expected none of whose paths
    is (a result not made of paths among them)."""
    found: dict[int, PathFailure] = {}
    alone: list[int] = []
    for i, r in enumerate(results):
        if r.outcome is Outcome.AS_EXPECTED:
            continue
        bad = [p for p in r.paths if p.verdict is not Verdict.VERIFIED]
        if not bad:
            alone.append(i)
        for p in bad:
            found.setdefault(id(p), PathFailure(p)).checks.append(i)
    return list(found.values()), alone


def first_named(names: list[str], shown: int, mark: Callable[[str], str]) -> str:
    """The first `shown` of `names`, each marked (quoted, escaped), and how many more: "'a', 'b' and 3 more"."""
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(mark(n) for n in names[:shown]) + more
