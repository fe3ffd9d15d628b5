"""The operand-fills kind, registered: the threads' fills of an MMA's shared A and B tiles from the block's global
tiles (theorem 45 alone), for a gemm whose products another check proves (a tiled check of a tensor-core or
UniversalFMA TiledMMA's register fragments).  The C++ reader writes one where it follows the copies into the tiles."""
from __future__ import annotations

from ...specfile.fields import AtomTable, Fields
from ...specfile.model import CheckSpec, MMAAtomSpec, Spec
from ...theorems.catalog import TheoremId
from ..base import Context, Group, PlanOf, Planned, WithoutPictures
from ..registry import register
from .config import (OPERAND_FILLS_KEYS, OPERAND_FILLS_KIND, OperandFillsCheck, read_operand_fills_check,
                     reads_operand_fills_check)

OPERAND_FILLS_PRECEDENCE = 0     # asked first: `fills:` makes an operand-fills check whatever else it names
OPERAND_FILLS_THEOREMS = (TheoremId.GEMM_SHARED_FILL,)


class OperandFillsKind(WithoutPictures):
    """Theorem 45 on the fills of an MMA's shared operand tiles."""
    explain_what = ("an operand-fills check: its report gives the copy's thread and value that puts an element at "
                    "another coordinate, or the tile taken at another block than C's")
    name = OPERAND_FILLS_KIND
    precedence = OPERAND_FILLS_PRECEDENCE
    keys: tuple[str, ...] = OPERAND_FILLS_KEYS
    summary_line = ("the threads fill an MMA's shared tiles with the block's global tiles' elements (45), once for "
                    "every k-tile (46)")
    needs_result_to_draw = False
    atomless = True          # its check names no atom: the copies' partitions as index maps

    def recognises(self, fields: Fields, mma: MMAAtomSpec | None) -> bool:
        return reads_operand_fills_check(fields)

    def read(self, fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None, atoms: AtomTable) -> CheckSpec:
        return read_operand_fills_check(fields, named)

    def plan(self, spec: Spec, check: CheckSpec, context: Context) -> list[Group]:
        assert isinstance(check, OperandFillsCheck)
        loop = check.k_loop

        def build() -> Planned:
            from .theorems import fill_items, k_tile_loop
            plans: dict[TheoremId, PlanOf] = {
                TheoremId.GEMM_SHARED_FILL: lambda: fill_items(check.threads, check.tile_at, list(check.fills), loop)}
            if loop is not None:
                plans[TheoremId.GEMM_K_TILE_LOOP] = lambda: k_tile_loop(loop)
            return Planned(plans)
        return [Group(OPERAND_FILLS_THEOREMS + ((TheoremId.GEMM_K_TILE_LOOP,) if loop is not None else ()), build)]


OPERAND_FILLS = register(OperandFillsKind())
