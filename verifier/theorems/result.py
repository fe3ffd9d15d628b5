"""A check's result: plain data every report format reads (and the proof cache keeps), importable without the
theorems themselves."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..outcome import Expect, Outcome, Status, Verdict, outcome
from ..specfile.model import Loc
from .claims import TheoremResult, Witness


@dataclass
class CheckResult:
    """Everything a report needs about one check; plain data (it crosses process boundaries)."""
    spec_path: str
    spec_name: str
    name: str
    loc: Loc
    expect: Expect
    kind: str                             # the check's kind, by its registered name (e.g. "tiled")
    summary: str = ""                     # what the check is, in one line
    theorems: list[TheoremResult] = field(default_factory=list)
    verdict: Verdict = Verdict.ERROR
    seconds: float = 0.0
    info: list[str] = field(default_factory=list)   # information that is no verdict (e.g. `banks: report`)
    # theorems about atom fields the configuration never reads (decided, reported as warnings, not in the verdict)
    findings: list[TheoremResult] = field(default_factory=list)
    suggestion: list[str] = field(default_factory=list)   # `prove --suggest`: the smallest proved change, as lines
    member: str = ""        # a family's result: the member its theorems are about ("BM=160, stages=2"), else empty
    # the results this one is made of (prescreen-cutlass: a kernel's, or a family's, operand paths, whose theorems are
    # its theorems): a report that lists results by their paths lists each path once
    paths: list[CheckResult] = field(default_factory=list)

    @property
    def outcome(self) -> Outcome:
        return outcome(self.verdict, self.expect)

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.AS_EXPECTED

    def failures(self) -> list[TheoremResult]:
        return [t for t in self.theorems if t.status.refutes]

    def counterexamples(self) -> list[tuple[TheoremResult, Witness]]:
        """Each refuted theorem (not a refusal) whose first failure has a witness naming a point, with it: what a
        picture can outline."""
        out = []
        for t in self.theorems:
            if t.status is Status.REFUTED:
                item = t.first_failure()
                if item is not None and item.witness is not None and item.witness.point:
                    out.append((t, item.witness))
        return out
