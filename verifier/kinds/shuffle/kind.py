"""The shuffle kind, registered: the value-shuffled narrow A of an SM90 mixed-input GEMM, from the reordered global
tensor through TMA, shared memory, the copy into registers and LayoutAwareConvert to the RS wgmma's A fragment
(theorem 35), with the MMA atom's own theorems 1, 2 and 11."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..atom.kind import MMA_VIEW, MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..base import (Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, atom_key,
                    configuration_key)
from ..registry import register
from .config import SHUFFLE_KEYS, SHUFFLE_KIND, ShuffleCheck, read_shuffle_check, reads_shuffle_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult

T = TheoremId
SHUFFLE_ORDER = (T.MIXED_SHUFFLED_A,)
SHUFFLE_PRECEDENCE = 0       # asked first: `shuffled:` makes a shuffle check whatever else it names
ARITHMETIC_NOTE = ("the converters are modelled by which source nibble or byte each destination half is made from "
                   "(cutlass/detail/collective/mixed_input_utils.hpp); their arithmetic (the magic-number subtractions "
                   "turning a nibble or byte into its 16-bit value) is not")


class ShuffleKind(MmaPictures):
    """Theorems 1, 2 and 11 on the RS atom, then 35 on the value-shuffled A."""
    name = SHUFFLE_KIND
    precedence = SHUFFLE_PRECEDENCE
    keys: tuple[str, ...] = SHUFFLE_KEYS
    summary_line = ("a mixed-input GEMM's value-shuffled narrow A, global memory -> TMA -> shared memory -> registers "
                    "-> LayoutAwareConvert -> the RS wgmma's A fragment (35)")
    needs_result_to_draw = False
    scaled_views = (MMA_VIEW,)

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_shuffle_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_shuffle_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, ShuffleCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)
        context.info.append(ARITHMETIC_NOTE)

        from .setup import shuffle_side
        side = shuffle_side(spec.mma_atoms[check.mma])

        def build() -> Planned:
            from . import theorems as ST
            from .setup import build as build_shuffle
            setup = build_shuffle(check, spec.mma_atoms[check.mma], spec.copy_atoms.get(check.copy), side)
            plans: dict[TheoremId, PlanOf] = {T.MIXED_SHUFFLED_A: lambda: ST.shuffled_a(setup, context.suspects)}
            return Planned(plans)

        # the group reads the check's configuration, the atom only through `side` and the copy atom: checks
        # agreeing on these (an RS A of any N) decide it once
        shared = ("shuffle", SHUFFLE_ORDER, configuration_key(check, ("mma",)), side.key(),
                  atom_key(spec.copy_atoms.get(check.copy)))
        return [atom_theorems, Group(SHUFFLE_ORDER, build, shared=shared)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        raise ExplainError(f"check '{check.name}' is a shuffle check: its witnesses name the thread, value, M block, "
                           "k-block and stage (or the tile and element) in the report; explain has no trace for it")

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return super().views(check)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        return super().figures(spec, check, views, result)

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        return super().report_views(check, result) if failed - set(SHUFFLE_ORDER) else ()

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


SHUFFLE = register(ShuffleKind())
