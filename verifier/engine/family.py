"""Proving a family (`family:`, specfile/family.py): every member, smallest first, each by the procedures its
own check uses; the family is verified when every member is, and otherwise it is what its smallest member that
is not verified is (refuted with that member's counterexample, refused by CuTe's rule, unsupported, undecided or
an internal error) — nothing is claimed for the members after it.  The procedure is an exhaustive enumeration of
the members: it covers the family's whole domain, so a verified family is proved for every member."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable

from ..kinds.family.kind import member_of
from ..outcome import Expect, Verdict, check_verdict
from ..specfile.family import FamilyCheck, Member, point_text
from ..specfile.model import CheckSpec, Spec, SpecError
from ..symbolic.procedure import Settings
from ..theorems.catalog import BY_ID, TheoremId
from ..theorems.claims import TheoremResult
from ..theorems.result import CheckResult

PROCEDURE = "every member enumerated (the family's whole domain), each proved by its own check's procedures"


def domain_lines(family: FamilyCheck) -> list[str]:
    """What the family covers, as the report states it."""
    lines = [f"family: {len(family.members)} members ({family.domain_text()}); {PROCEDURE}"]
    lines += [f"family: {note}" for note in family.notes]
    return lines


def _merged(results: list[CheckResult]) -> list[TheoremResult]:
    """Every theorem some member decided, proved in each member that has it: the largest member's obligations
    (the report's), its time the members' total."""
    seconds: dict[TheoremId, float] = {}
    largest: dict[TheoremId, TheoremResult] = {}
    for r in results:
        for t in r.theorems:
            seconds[t.id] = seconds.get(t.id, 0.0) + t.seconds
            largest[t.id] = t
    return sorted((replace(t, seconds=seconds[t.id]) for t in largest.values()), key=lambda t: BY_ID[t.id].number)


ProveMember = Callable[[Spec, CheckSpec, Settings, bool], CheckResult]


def run_family(spec: Spec, family: FamilyCheck, settings: Settings, prove_member: ProveMember,
               debug: bool = False) -> CheckResult:
    """The family's result: its members proved by `prove_member` (the runner's check prover), smallest first."""
    t0 = time.perf_counter()
    result = CheckResult(spec.path, spec.name, family.name, family.loc, Expect(family.expect), family.kind,
                         family.summary())
    result.info.extend(domain_lines(family))
    proved: list[CheckResult] = []
    for number, member in enumerate(family.members, 1):
        r = prove_member(spec, member.check, settings, debug)
        if r.verdict is not Verdict.VERIFIED:
            result.theorems, result.findings, result.verdict = r.theorems, r.findings, r.verdict
            result.member = point_text(member.point)
            result.summary = f"member {result.member} ({member.shared_bytes} bytes of shared memory): {r.summary}"
            smaller = {1: "it is the smallest member", 2: "the smaller member is verified"}.get(
                number, f"the {number - 1} smaller members are verified")
            result.info.append(f"family: the smallest member not verified is {result.member} (member {number} of "
                               f"{len(family.members)}, smallest first): {r.verdict.value}; {smaller}; nothing is "
                               "claimed for the larger ones")
            result.info.extend(r.info)
            break
        proved.append(r)
    else:
        result.theorems = _merged(proved)
        result.verdict = check_verdict(t.status for t in result.theorems)     # every member's: all proved
        # a finding (a warning about an atom field the configuration never reads) recurs in every member: once
        result.findings = list({t.id: t for r in reversed(proved) for t in r.findings}.values())
        largest = family.members[-1]
        result.info.append(f"family: every member verified; the obligations shown are the largest member's "
                           f"({point_text(largest.point)}, {largest.shared_bytes} bytes)")
        result.info.extend(dict.fromkeys(line for r in proved for line in r.info))
    result.seconds = time.perf_counter() - t0
    return result


def parse_member(text: str) -> dict[str, int]:
    """`--member BM=160,stages=2` as a point (ValueError on anything else)."""
    point: dict[str, int] = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        if not eq or not name.strip() or name.strip() in point:
            raise ValueError(f"--member takes NAME=VALUE,NAME=VALUE (a family's parameters), not {text!r}")
        try:
            point[name.strip()] = int(value.strip())
        except ValueError:
            raise ValueError(f"--member {text!r}: {name.strip()}'s value {value.strip()!r} is not an integer") from None
    return point


def member_check(spec: Spec, family: FamilyCheck, member: str | None, settings: Settings,
                 prove_member: ProveMember, prove: bool = True) -> tuple[Member, CheckResult | None]:
    """The member `draw` and `explain` work on, with its result (with `prove`): the one `--member` names
    (SpecError if none is), else the one the family's result is about (its smallest member not verified, else its
    smallest; the family is proved to know it)."""
    if member is None:
        result = run_family(spec, family, settings, prove_member)
        return member_of(family, result), result
    try:
        point = parse_member(member)
    except ValueError as e:
        raise SpecError(None, str(e)) from None
    found = next((m for m in family.members if m.point == point), None)
    if found is None:
        names = ", ".join(p.name for p in family.parameters)
        raise SpecError(None, f"family '{family.name}' has no member {point_text(point)} (its parameters: {names}; "
                              f"its members: {family.domain_text()})")
    return found, prove_member(spec, found.check, settings, False) if prove else None


__all__ = ["PROCEDURE", "domain_lines", "member_check", "parse_member", "run_family"]
