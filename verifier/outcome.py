"""What a verdict may rest on (README, "Outcomes: what a verdict rests on"): the typed outcomes of obligations,
theorems and checks.

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


# the status that decides, first present wins: an error outranks a refutation, which outranks not knowing
PRECEDENCE = (Status.ERROR, Status.REFUTED, Status.REFUSED, Status.UNDECIDED, Status.UNSUPPORTED)
VERDICT_OF = {Status.ERROR: Verdict.ERROR, Status.REFUTED: Verdict.REFUTED, Status.REFUSED: Verdict.REFUTED,
              Status.UNDECIDED: Verdict.UNDECIDED, Status.UNSUPPORTED: Verdict.UNSUPPORTED,
              Status.PROVED: Verdict.VERIFIED}


def combine(statuses: Iterable[Status]) -> Status:
    """The status of a whole from its parts' (a theorem from its items)."""
    ss = set(statuses)
    return next((s for s in PRECEDENCE if s in ss), Status.PROVED)


def check_verdict(statuses: Iterable[Status]) -> Verdict:
    ss = list(statuses)
    return VERDICT_OF[combine(ss)] if ss else Verdict.UNSUPPORTED


def outcome(verdict: Verdict, expect: Expect) -> Outcome:
    if verdict is Verdict.ERROR:
        return Outcome.ERROR
    if verdict is expect.verdict:
        return Outcome.AS_EXPECTED
    if verdict in (Verdict.UNDECIDED, Verdict.UNSUPPORTED):
        return Outcome.UNDECIDED
    return Outcome.WRONG


EXIT_OF = ((Outcome.ERROR, ExitCode.INTERNAL_ERROR), (Outcome.WRONG, ExitCode.WRONG),
           (Outcome.UNDECIDED, ExitCode.UNDECIDED))


def exit_code(outcomes: Iterable[Outcome]) -> ExitCode:
    seen = set(outcomes)
    return next((code for o, code in EXIT_OF if o in seen), ExitCode.OK)
