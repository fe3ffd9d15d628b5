"""What a verdict may rest on (../DESIGN.md, "Outcomes"): the typed outcomes of obligations, theorems and checks.

A theorem ends in exactly one Status.  A check is VERIFIED only when every theorem is PROVED; it is
REFUTED only by a REFUTED or REFUSED theorem; an ERROR anywhere makes the check an ERROR (never a proof,
never a refutation); otherwise it is UNDECIDED (the solver gave up) or UNSUPPORTED (no model).
"""
from __future__ import annotations

from enum import Enum
from typing import Iterable


class Status(str, Enum):
    """The outcome of one obligation or theorem."""
    PROVED = "proved"            # the whole domain was covered
    REFUTED = "refuted"          # a concrete witness, re-checked on integers
    REFUSED = "refused"          # CuTe itself refuses the configuration (its rule, the spec location)
    UNSUPPORTED = "unsupported"  # no model for an instruction or feature (which one is said)
    UNDECIDED = "undecided"      # the solver timed out or answered unknown
    ERROR = "error"              # an internal error of the tool

    @property
    def refutes(self) -> bool:
        return self in (Status.REFUTED, Status.REFUSED)


class Verdict(str, Enum):
    """The outcome of one check."""
    VERIFIED = "verified"
    REFUTED = "refuted"
    UNDECIDED = "undecided"
    UNSUPPORTED = "unsupported"
    ERROR = "error"


class Expect(str, Enum):
    """What a spec documents for a check (`expect:`)."""
    PASS = "pass"                  # verified
    FAIL = "fail"                  # a documented mistake: refuted (or refused) with its witness
    UNDECIDED = "undecided"        # documented as beyond the solver
    UNSUPPORTED = "unsupported"    # documented as not modelled yet

    @property
    def verdict(self) -> Verdict:
        return {Expect.PASS: Verdict.VERIFIED, Expect.FAIL: Verdict.REFUTED, Expect.UNDECIDED: Verdict.UNDECIDED,
                Expect.UNSUPPORTED: Verdict.UNSUPPORTED}[self]


class Outcome(str, Enum):
    """A check's verdict against its `expect`."""
    AS_EXPECTED = "pass"
    WRONG = "fail"                 # a definite verdict other than the documented one
    UNDECIDED = "undecided"        # undecided or unsupported where a verdict was expected
    ERROR = "error"                # an internal error: never a pass


class ExitCode(int, Enum):
    OK = 0
    WRONG = 1
    BAD_INPUT = 2
    UNDECIDED = 3
    INTERNAL_ERROR = 4


def check_verdict(statuses: Iterable[Status]) -> Verdict:
    ss = list(statuses)
    if not ss:
        return Verdict.UNSUPPORTED
    if Status.ERROR in ss:
        return Verdict.ERROR
    if any(s.refutes for s in ss):
        return Verdict.REFUTED
    if Status.UNDECIDED in ss:
        return Verdict.UNDECIDED
    if Status.UNSUPPORTED in ss:
        return Verdict.UNSUPPORTED
    return Verdict.VERIFIED


def outcome(verdict: Verdict, expect: Expect) -> Outcome:
    if verdict is Verdict.ERROR:
        return Outcome.ERROR
    if verdict is expect.verdict:
        return Outcome.AS_EXPECTED
    if verdict in (Verdict.UNDECIDED, Verdict.UNSUPPORTED):
        return Outcome.UNDECIDED
    return Outcome.WRONG


def exit_code(outcomes: Iterable[Outcome]) -> ExitCode:
    os_ = set(outcomes)
    if Outcome.ERROR in os_:
        return ExitCode.INTERNAL_ERROR
    if Outcome.WRONG in os_:
        return ExitCode.WRONG
    if Outcome.UNDECIDED in os_:
        return ExitCode.UNDECIDED
    return ExitCode.OK
