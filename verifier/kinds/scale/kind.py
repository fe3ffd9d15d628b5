"""The scale kind, registered: a block-scaled tcgen05.mma's scale factors for operand A or B, from the global SF
tensor through TMA, shared memory and tcgen05.cp to the tensor-memory bytes the MMA multiplies by (theorems 24-26),
with the MMA atom's own theorems 1, 2 and 11."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...draw.figure import View
from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...specfile.vocabulary import SCALE_KEYS
from ...theorems.catalog import TheoremId
from ..atom.kind import MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ..base import Context, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import ScaleCheck, read_scale_check, reads_scale_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from .setup import ScaleSetup

T = TheoremId
SCALE_ORDER = (T.SCALE_TMA, T.SCALE_COPY, T.SCALE_READ)
SCALE_PRECEDENCE = 0          # asked first with TMEM's: `scale_factors:` makes a scale check whatever else it names
FACTORS_VIEW = View.FACTORS.value   # the SF tile of a stage: shared byte, TMEM cell, k-block (views.py)



def built_setup(spec: Spec, check: ScaleCheck) -> ScaleSetup:
    """The setup of a configuration CuTe builds a TMEM SF tile for, for `draw` and `explain`: tmem_sf_frg's refusal
    of the allocation raised as such (no tile to draw or trace; a tile make_utccp_copy refuses is drawn, its MMA
    read being said at theorem 26)."""
    from ..cute_objects import ConfigurationRefused
    from .setup import build as build_scale
    setup = build_scale(check, spec.mma_atoms[check.mma])
    refused = setup.tmem_refused
    if refused is not None:
        raise ConfigurationRefused(refused.rule, refused.detail, "tmem_sf_frg", refused.field)
    return setup

class ScaleKind(MmaPictures):
    """Theorems 1, 2 and 11 on the block-scaled atom, then 24-26 on the scale factors of one operand."""
    name = CheckKind.SCALE.value
    precedence = SCALE_PRECEDENCE
    keys: tuple[str, ...] = SCALE_KEYS
    summary_line = "a block-scaled tcgen05.mma's scale factors, global memory -> TMA -> tcgen05.cp -> the MMA (24-26)"
    needs_result_to_draw = True          # the factors view outlines the counterexample
    scaled_views = (FACTORS_VIEW,)       # a factor a cell, one stage: at most 256 x 64 cells

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_scale_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_scale_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, ScaleCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)

        def build() -> Planned:
            from . import theorems as ST
            from .chain import ScaleChain
            from .setup import build as build_scale
            setup = build_scale(check, spec.mma_atoms[check.mma])
            suspects = context.suspects
            plans: dict[TheoremId, PlanOf] = {T.SCALE_TMA: lambda: ST.scale_tma(setup, suspects),
                                              T.SCALE_COPY: lambda: ST.scale_copy(setup, suspects),
                                              T.SCALE_READ: lambda: ST.scale_read(setup, suspects)}
            return Planned(plans, ScaleChain(setup))

        return [atom_theorems, Group(SCALE_ORDER, build)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--coord MN,K [--stage S]: the factor's chain from the global tensor to the MMA."""
        from .chain import ScaleChain
        assert isinstance(check, ScaleCheck)
        name = safe(check.name)
        setup = built_setup(spec, check)
        coord = request.coord
        if coord is None or len(coord) != 2 or not (0 <= coord[0] < setup.mn and 0 <= coord[1] < setup.tile_k):
            raise ExplainError(f"check '{name}' is a scale check: give --coord MN,K within {setup.mn}x{setup.tile_k} "
                               f"(and --stage in [0,{setup.stages}))")
        if not 0 <= request.stage < setup.stages:
            raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
        title, lines = ScaleChain(setup).factor_lines(coord[0], coord[1], request.stage, (0, 0))
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return (FACTORS_VIEW, *super().views(check))

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .views import factors_figure
        assert isinstance(check, ScaleCheck)
        out = []
        if FACTORS_VIEW in views:
            out.append(factors_figure(built_setup(spec, check), result))
        return out + super().figures(spec, check, tuple(v for v in views if v != FACTORS_VIEW), result)

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        scale = (FACTORS_VIEW,) if failed & set(SCALE_ORDER) else ()
        return scale + (super().report_views(check, result) if failed - set(SCALE_ORDER) else ())

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import scale_changes
        assert isinstance(check, ScaleCheck)
        return scale_changes(spec, check)


SCALE = register(ScaleKind())
