"""The family kind, registered: a check for every value of its parameters (`family:`, specfile/family.py).  Its
members are checks of another kind; the engine proves them (engine/family.py), and `explain`, `draw` and the
report's pictures are the member's a result is about (the smallest one not verified, else the smallest)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...specfile.family import FamilyCheck, Member, point_text
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import FAMILY_KEY
from ..base import Context, ExplainRequest, Group, Neighbour
from ..registry import kind_named, register

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult


def member_of(check: CheckSpec, result: CheckResult | None = None) -> Member:
    """The member a family's result is about (the smallest when the result names none)."""
    assert isinstance(check, FamilyCheck)
    if result is not None and result.member:
        for m in check.members:
            if point_text(m.point) == result.member:
                return m
    return check.members[0]


class FamilyKind:
    """A family of checks of one kind, proved member by member."""
    name = CheckKind.FAMILY.value
    precedence = 0
    keys: tuple[str, ...] = (FAMILY_KEY,)
    summary_line = ("a check for every value of its parameters (family:): every member proved, the smallest failing "
                    "one reported")
    needs_result_to_draw = True

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return False      # the loader reads `family:` itself (specfile/family.py), before any kind is asked

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        raise NotImplementedError("a family is read by specfile/family.py")

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        raise NotImplementedError("a family is proved member by member (engine/family.py)")

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        member = member_of(check)
        out.write(f"{request.path}: check {check.name} is a family; its smallest member, "
                  f"{point_text(member.point)}:\n")
        kind_named(member.check.kind).explain(spec, member.check, request, out)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        member = member_of(check)
        return kind_named(member.check.kind).views(member.check)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        member = member_of(check, result)
        figures = kind_named(member.check.kind).figures(spec, member.check, views, result)
        for fig in figures:
            fig.caption.insert(0, f"family {check.name}, member {point_text(member.point)}")
        return figures

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        member = member_of(check, result)
        return kind_named(member.check.kind).report_views(member.check, result)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


FAMILY = register(FamilyKind())
