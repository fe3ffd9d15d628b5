"""The refutations of a check as a report shows them, and names made safe for every format."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..outcome import Status
from ..theorems.catalog import BY_ID
from ..theorems.claims import ItemResult, TheoremResult, Witness
from ..theorems.result import CheckResult

NAME_LIMIT = 120
INFO_LIMIT = 400     # a line of information (the tool's words around a few names)


def safe(text: str, limit: int = NAME_LIMIT) -> str:
    """A user-given name as every format can show it: non-printable characters escaped, long names cut."""
    shown = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= limit else shown[:limit] + "…"


@dataclass(frozen=True)
class Failure:
    """The first refuting item of a refuted or refused theorem."""
    theorem: TheoremResult
    item: ItemResult

    @property
    def witness(self) -> Witness:
        return self.item.witness or Witness()

    @property
    def number(self) -> int:
        return BY_ID[self.theorem.id].number

    @property
    def refused(self) -> bool:
        return self.theorem.status is Status.REFUSED


def _first_failures(theorems: list[TheoremResult]) -> list[Failure]:
    return [Failure(t, item) for t in theorems for item in [t.first_failure()] if item is not None]


def failures(r: CheckResult) -> list[Failure]:
    return _first_failures(r.theorems)


def findings(r: CheckResult) -> list[Failure]:
    """The refutations about atom fields the configuration never reads: warnings, not its verdict."""
    return _first_failures(r.findings)


def witness_json(w: Witness) -> dict[str, Any]:
    s = w.suspect
    return {
        "point": w.point, "smallest": w.smallest, "failing": w.failing, "failing_exact": w.failing_exact,
        "domain_size": w.counted_size,
        "actual": w.actual, "expected": w.expected, "values": w.values, "closed_forms": w.closed_forms,
        "suspect": s.what if s else None, "suspect_location": str(s.loc) if s and s.loc else None,
        "suspect_source": s.source if s else None,
        "chain": [{"step": c.label, "text": c.text} for c in w.chain] or None, "chain_at": w.chain_title or None,
        "description_error": w.description_error or None,
    }


def failure_json(f: Failure) -> dict[str, Any]:
    th = BY_ID[f.theorem.id]
    out = {"theorem": th.id.value, "number": th.number, "title": th.title, "statement": th.statement,
           "status": f.theorem.status.value, "obligation": f.item.title, "domain": f.item.domain,
           "procedure": f.item.procedure.value if f.item.procedure else None, "note": f.item.note}
    out.update(witness_json(f.witness))
    return out
