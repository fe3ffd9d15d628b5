"""The atom kinds, registered: an MMA atom checked alone and a copy atom checked alone."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec, SpecError
from ..base import Context, ExplainRequest, Group, Neighbour, Planned
from ..registry import register
from .config import CopyAtomCheck, MmaAtomCheck, read_atom_check
from .plans import ALL_OPERANDS, atom_group, copy_plan

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult

MMA_VIEW = View.MMA.value
COPY_VIEW = View.COPY.value
ATOM_PRECEDENCE = 30          # asked last: a check that names one atom and none of another kind's keys


def no_chain(check: CheckSpec) -> SpecError:
    return SpecError(check.loc, f"check '{safe(check.name)}' has no copy and MMA to trace (it is an atom-only check)")


def mma_view(spec: Spec, check: CheckSpec, result: CheckResult | None = None) -> Figure:
    """The tiled MMA's A, B and C TV layouts (an atom check's tiled MMA is the atom itself unless tiled); with
    `result`, the atom's counterexamples (theorems 1 and 2) outlined, when the tiled MMA is the atom alone."""
    from ...cute.mma import TiledMMA
    from ...draw.views import mma_figure
    from ..cute_objects import mma_atom, thread_layout
    from .views import atom_marks
    assert check.mma is not None
    atom = spec.mma_atoms[check.mma]
    tiled = TiledMMA(mma_atom(atom), thread_layout(check.atom_layout), check.permutation)
    marks, captions = atom_marks(atom, result)
    # the atom's (thread, value) and coordinates are the tiled MMA's first atom's when nothing permutes the tile
    first_atom = check.permutation is None or all(p is None for p in check.permutation)
    fig = mma_figure(check.name, tiled, marks if first_atom else None)
    fig.caption += captions if first_atom else [c.replace("outlined: ", "(in the atom) ") for c in captions]
    return fig


class MmaPictures:
    """The pictures of a check whose tile is its tiled MMA's: the A, B and C TV layouts (the `mma` view)."""

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (MMA_VIEW,)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        return [mma_view(spec, check, result) for view in views if view == MMA_VIEW]

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return (MMA_VIEW,)


class MmaAtomKind(MmaPictures):
    """An MMA atom alone: theorems 1, 2 and 11 on A, B and C (or the check's one operand)."""
    name = CheckKind.MMA.value
    precedence = ATOM_PRECEDENCE
    keys: tuple[str, ...] = ()
    summary_line = "an MMA atom alone: theorems 1, 2, 11"
    needs_result_to_draw = True           # its counterexample is outlined

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return fields.has("mma") and not fields.has("copy")

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_atom_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, MmaAtomCheck)
        return [atom_group(spec, check.mma, (check.operand,) if check.operand else ALL_OPERANDS, context)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        raise no_chain(check)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


class CopyAtomKind:
    """A copy atom alone, with the value type it moves: theorem 3."""
    name = CheckKind.COPY.value
    precedence = ATOM_PRECEDENCE
    keys: tuple[str, ...] = ()
    summary_line = "a copy atom alone: theorem 3"
    needs_result_to_draw = True           # its counterexample is outlined

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return fields.has("copy") and not fields.has("mma")

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_atom_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        from ...theorems.catalog import TheoremId
        assert check.copy is not None
        plans = {TheoremId.COPY_ROUTING: copy_plan(spec, check, check.copy, context)}
        return [Group(tuple(plans), lambda: Planned(plans))]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        raise no_chain(check)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (COPY_VIEW,)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .views import copy_atom_figure
        assert isinstance(check, CopyAtomCheck) and check.copy is not None
        return [copy_atom_figure(check.name, spec.copy_atoms[check.copy], check.value_type.bits, result)
                for view in views if view == COPY_VIEW]

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        return (COPY_VIEW,)

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


MMA_ATOM = register(MmaAtomKind())
COPY_ATOM = register(CopyAtomKind())
