"""The mixed-input scale kind, registered: an SM90 mixed-input GEMM's scales (or zero points), from the global tensor
through TMA, shared memory and the k-block 0 copy into registers, to the converted A element each multiplies (is
added to) (theorems 31, 32), with the MMA atom's own theorems 1, 2 and 11."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..atom.kind import MMA_VIEW, MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..conversion import CONVERSION_KEY
from ..base import Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import MIXED_SCALES_KEY, MixedScaleCheck, read_mixed_scale_check, reads_mixed_scale_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from .setup import MixedScaleSetup

T = TheoremId
MIXED_SCALE_ORDER = (T.MIXED_SCALE_LOAD, T.MIXED_SCALE_READ)
MIXED_SCALE_PRECEDENCE = 0    # asked first: `mixed_scales:` makes a mixed-input scale check whatever else it names
MIXED_SCALE_KEYS = (MIXED_SCALES_KEY, "tile", "problem_k", "group_size", "register_copy", "reader_atom_layout",
                    CONVERSION_KEY)
SCALES_VIEW = View.SCALES.value   # the slots, one thread's scale registers and the groups of K (views.py)
PIPELINE_ASSUMED = ("the stage a k-tile's scales are copied into registers from is the one the producer's TMA filled "
                    "for that k-tile (CUTLASS's PipelineTmaAsync orders them)")
A_REGISTERS_ASSUMED = ("A register x of a k-block holds the A element the RS wgmma reads there (the check of A's load "
                       "and conversion into registers proves it)")


def build_setup(spec: Spec, check: MixedScaleCheck) -> MixedScaleSetup:
    from .setup import build
    return build(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.register_copy])


class MixedScaleKind(MmaPictures):
    """Theorems 1, 2 and 11 on the MMA atom, then 31 and 32 on the scales (zero points) of A."""
    name = CheckKind.MIXED_SCALE.value
    precedence = MIXED_SCALE_PRECEDENCE
    keys: tuple[str, ...] = MIXED_SCALE_KEYS
    summary_line = ("a mixed-input GEMM's scales or zero points, global memory -> TMA -> shared memory -> registers -> "
                    "the converted A element they multiply (31, 32)")
    needs_result_to_draw = True          # the scales view outlines the counterexample
    # views drawn at a bounded size: the scale tile (BLK_M x stages), one thread's k-blocks, a few k-tiles; the atom's
    scaled_views = (SCALES_VIEW, MMA_VIEW)

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_mixed_scale_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        check = read_mixed_scale_check(fields, named, mma, atoms)
        check.assumes = tuple(dict.fromkeys(check.assumes + (PIPELINE_ASSUMED, A_REGISTERS_ASSUMED)))
        return check

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, MixedScaleCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)

        def build() -> Planned:
            from . import theorems as MT
            from .chain import MixedScaleChain
            setup = build_setup(spec, check)
            suspects = context.suspects
            plans: dict[TheoremId, PlanOf] = {T.MIXED_SCALE_LOAD: lambda: MT.scale_load(setup, suspects),
                                              T.MIXED_SCALE_READ: lambda: MT.scale_read(setup, suspects)}
            return Planned(plans, MixedScaleChain(setup))

        return [atom_theorems, Group(MIXED_SCALE_ORDER, build)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--coord M,0 [--stage S] [--instance TILE_M,COLUMN]: one scale from its global element to the registers
        that read it; --lane THREAD --value X [--instance K_BLOCK] [--stage S]: element X of a k-block's A fragment
        and the scale register it is multiplied by."""
        from .chain import MixedScaleChain
        assert isinstance(check, MixedScaleCheck)
        name = safe(check.name)
        setup = build_setup(spec, check)
        if setup.layout_problem is not None:
            raise ExplainError(f"check '{name}': {setup.layout_problem}")
        if not 0 <= request.stage < setup.stages:
            raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
        chain = MixedScaleChain(setup)
        if request.coord is not None:
            m, k = (tuple(request.coord) + (0, 0))[:2]
            tile, column = (tuple(request.instance) + (0, 0))[:2]
            if len(request.coord) != 2 or k != 0 or not 0 <= m < setup.tile_m \
                    or not (0 <= tile < setup.tiles_m and 0 <= column < setup.columns):
                raise ExplainError(f"check '{name}' is a mixed-input scale check: give --coord M,0 with M in "
                                   f"[0,{setup.tile_m}) (and --instance TILE_M,COLUMN within {setup.tiles_m}x"
                                   f"{setup.columns})")
            title, lines = chain.scale_lines(m, request.stage, tile, column)
        elif request.lane is not None and request.value is not None and setup.registers is not None:
            kb = (tuple(request.instance) + (0,))[0]
            values = setup.a_fragment[0] * setup.a_fragment[1]
            if not (0 <= request.lane < setup.threads and 0 <= request.value < values
                    and 0 <= kb < setup.a_fragment[2]):
                raise ExplainError(f"check '{name}': --lane is a thread in [0,{setup.threads}), --value an element of "
                                   f"a k-block's A fragment in [0,{values}), --instance a k-block in "
                                   f"[0,{setup.a_fragment[2]})")
            title, lines = chain.value_lines(request.lane, request.value, kb, request.stage)
        else:
            raise ExplainError(f"check '{name}' is a mixed-input scale check: give --coord M,0 or --lane THREAD "
                               "--value X")
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (SCALES_VIEW, *super().views(check))

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .views import scales_figure
        assert isinstance(check, MixedScaleCheck)
        out = [scales_figure(build_setup(spec, check), result)] if SCALES_VIEW in views else []
        return out + super().figures(spec, check, tuple(v for v in views if v != SCALES_VIEW), result)

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        scales = (SCALES_VIEW,) if failed & set(MIXED_SCALE_ORDER) else ()
        return scales + (super().report_views(check, result) if failed - set(MIXED_SCALE_ORDER) else ())

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        return iter(())


MIXED_SCALE = register(MixedScaleKind())
