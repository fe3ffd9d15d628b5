"""The transpose kind, registered: operand B of a register-sourced wgmma that CUTLASS transposes in shared memory —
written MN-major by TMA or cp.async, moved by AsyncTranspositionOperandB to the K-major tile the descriptor reads
(theorem 34) — with the smem_mma kind's theorems on both tiles (9, 12-15) and the MMA atom's own (1, 2, 11)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, TextIO

from ...report.failures import safe
from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckKind, CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..atom.kind import MMA_VIEW, MmaPictures
from ..atom.plans import ALL_OPERANDS, atom_group
from ...draw.figure import View
from ..base import Context, DrawError, ExplainError, ExplainRequest, Group, Neighbour, PlanOf, Planned, write_chain
from ..registry import register
from .config import TRANSPOSE_KEY, TRANSPOSED_SMEM_KEY, TransposeCheck, read_transpose_check, reads_transpose_check

if TYPE_CHECKING:
    from ...draw.figure import Figure
    from ...theorems.result import CheckResult
    from .setup import TransposeSetup

T = TheoremId
# the theorems after the atom's, in the order they are decided: TMA's (13, 14) only when TMA writes the tile
TMA_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR,
             T.GMMA_TRANSPOSE)
THROUGH_LAYOUT_ORDER = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.GMMA_DESCRIPTOR, T.GMMA_TRANSPOSE)
TRANSPOSE_PRECEDENCE = 0      # asked first: `transpose:` makes a transpose check whatever else it names
TRANSPOSE_KEYS = (TRANSPOSE_KEY, TRANSPOSED_SMEM_KEY)
TRANSPOSE_VIEW = View.TRANSPOSE.value


def build_setup(spec: Spec, check: TransposeCheck) -> TransposeSetup:
    from .setup import build_transpose
    writer = None if check.by_tma else spec.copy_atoms.get(check.copy)
    return build_transpose(check, spec.mma_atoms[check.mma], writer)


class TransposeKind(MmaPictures):
    """Theorems 1, 2 and 11 on the MMA atom, then 9, 12-15 on the two tiles and 34 on the transposition."""
    name = CheckKind.TRANSPOSE.value
    precedence = TRANSPOSE_PRECEDENCE
    keys: tuple[str, ...] = TRANSPOSE_KEYS
    summary_line = ("wgmma's B transposed in shared memory by CUTLASS (AsyncTranspositionOperandB): written MN-major "
                    "by TMA or cp.async, read K-major through the descriptor (1, 2, 9, 11-15, 34)")
    needs_result_to_draw = True          # a counterexample's element is outlined in the transpose view
    scaled_views = (MMA_VIEW,)           # the atom's A, B and C: their size is the atom's

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_transpose_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_transpose_check(fields, named, mma)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, TransposeCheck)
        atom_theorems = atom_group(spec, check.mma, ALL_OPERANDS, context)
        order = TMA_ORDER if check.by_tma else THROUGH_LAYOUT_ORDER

        def build() -> Planned:
            from . import theorems as TT
            from .chain import TransposeChain
            setup = build_setup(spec, check)
            suspects = context.suspects
            plans: dict[TheoremId, PlanOf] = {T.SMEM_INJECTIVE: lambda: TT.smem_injective(setup, suspects),
                                              T.COPY_VALUE_TYPE: lambda: TT.value_type(setup, suspects),
                                              T.TMA_ENCODABLE: lambda: TT.tma_encodable(setup, suspects),
                                              T.TMA_PLACEMENT: lambda: TT.tma_placement(setup, suspects),
                                              T.GMMA_DESCRIPTOR: lambda: TT.gmma_descriptor(setup, suspects),
                                              T.GMMA_TRANSPOSE: lambda: TT.transpose(setup, suspects)}
            return Planned({tid: plans[tid] for tid in order}, TransposeChain(setup))

        return [atom_theorems, Group(order, build)]

    def explain(self, spec: Spec, check: CheckSpec, request: ExplainRequest, out: TextIO) -> None:
        """--coord N,K [--stage S] [--base ADDR]: element (n, k) of a stage through the transposition."""
        from ...cute.transpose import Transposition
        from .chain import TransposeChain
        assert isinstance(check, TransposeCheck)
        name = safe(check.name)
        setup = build_setup(spec, check)
        t = setup.transposition
        if not isinstance(t, Transposition):
            raise ExplainError(f"check '{name}': no transposition to trace: {getattr(t, 'rule', t)}")
        n_extent, k_extent = setup.extent
        coord = request.coord
        if coord is None or len(coord) != 2 or not (0 <= coord[0] < n_extent and 0 <= coord[1] < k_extent):
            raise ExplainError(f"check '{name}' is a transpose check: give --coord N,K within {n_extent}x{k_extent} "
                               "(and --stage)")
        if not 0 <= request.stage < setup.stages:
            raise ExplainError(f"--stage must be in [0,{setup.stages}) for check '{name}'")
        if request.base % setup.align:
            raise ExplainError(f"--base must be a multiple of {setup.align} for check '{name}'")
        w = t.warp_tile
        within = (coord[0] % w) + w * (coord[1] % w)
        lane, value = next((lane, v) for lane in range(t.lanes) for v in range(t.values)
                           if t.coord_of(lane, v) == within)
        title, lines = TransposeChain(setup).element_lines(request.base, request.stage, coord[0] // w, coord[1] // w,
                                                           lane, value)
        out.write(f"{request.path}: check {name}: {check.summary()}\n")
        write_chain(out, title, lines)

    def views(self, check: CheckSpec) -> tuple[str, ...]:
        return super().views(check) + (TRANSPOSE_VIEW,)

    def figures(self, spec: Spec, check: CheckSpec, views: tuple[str, ...],
                result: CheckResult | None) -> list[Figure]:
        from .views import transpose_figure
        assert isinstance(check, TransposeCheck)
        out = super().figures(spec, check, tuple(v for v in views if v != TRANSPOSE_VIEW), result)
        if TRANSPOSE_VIEW in views:
            fig = transpose_figure(build_setup(spec, check), result)
            if isinstance(fig, str):
                raise DrawError(f"check '{safe(check.name)}' cannot be drawn: {fig}")
            out.append(fig)
        return out

    def report_views(self, check: CheckSpec, result: CheckResult) -> tuple[str, ...]:
        failed = {t.id for t in result.failures()}
        order = set(TMA_ORDER)
        views = super().report_views(check, result) if failed - order else ()
        return views + ((TRANSPOSE_VIEW,) if T.GMMA_TRANSPOSE in failed else ())

    def neighbours(self, spec: Spec, check: CheckSpec) -> Iterator[Neighbour]:
        from .neighbours import transpose_changes
        assert isinstance(check, TransposeCheck)
        return transpose_changes(check)


TRANSPOSE = register(TransposeKind())
