"""ldmatrix, stmatrix and movmatrix (.m8n8, .b16): the warp-wide 8x8 matrix movers.

PTX ISA, "Warp-level matrix load instruction: ldmatrix" / "stmatrix" / "movmatrix":
- an 8x8 matrix of 16-bit elements is held by the warp with lane l holding row l / 4, columns
  2*(l % 4) and 2*(l % 4) + 1 in the low and high half of one 32-bit register ("fragment" layout);
- .x1/.x2/.x4 move 1, 2 or 4 matrices; register j holds matrix j;
- the memory side is 8 rows of 16 bytes per matrix; lanes 8*j .. 8*j+7 give the row addresses of
  matrix j, each 16-byte aligned;
- .trans moves the transpose: lane l receives column l / 4, rows 2*(l % 4) + {0, 1}.

The family registered below parses every ldmatrix / stmatrix / movmatrix string (qualifiers compared as a set);
the 8-bit shapes of sm_100a (.m16n16, .m8n16, .m16n8) are parsed and modelled by matrix_copy_sm100, imported
only for them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from ..symbolic.expr import Expr
from .base import CopyModel
from .registry import COPY_FAMILIES, Instruction, InstructionFamily, ModelQuery

ROW_BYTES = 16
ELEM_BITS = 16
LDMATRIX = "ldmatrix"
STMATRIX = "stmatrix"
MOVMATRIX = "movmatrix"
TRANS = "trans"
SYNC_ALIGNED = frozenset({"sync", "aligned"})
# qualifiers that say neither the shape nor the element format: .sync.aligned, .trans, the state space, .num
NOT_SHAPE_OR_FORMAT = SYNC_ALIGNED | {TRANS, "shared", "shared::cta"}
M8N8_B16 = frozenset({"m8n8", "b16"})
MOVMATRIX_QUALIFIERS = SYNC_ALIGNED | {"m8n8", TRANS, "b16"}
_NUM = re.compile(r"x[124]")


class MatrixShape(str, Enum):
    M8N8 = "m8n8"         # .b16: this module
    M16N16 = "m16n16"     # ldmatrix, 8-bit (sm_100a): matrix_copy_sm100
    M8N16 = "m8n16"       # ldmatrix, unpacked sub-byte rows (sm_100a): matrix_copy_sm100
    M16N8 = "m16n8"       # stmatrix, 8-bit (sm_100a): matrix_copy_sm100


@dataclass(frozen=True)
class MatrixCopyForm:
    """One ldmatrix / stmatrix / movmatrix form."""
    opcode: str           # LDMATRIX, STMATRIX or MOVMATRIX
    shape: MatrixShape
    num: int              # .x1 / .x2 / .x4: matrices moved (movmatrix: 1)
    trans: bool
    src_fmt: str = ""     # ldmatrix's padded sub-byte row format (.b4x16_p64, .b6x16_p32); "" for .b8 / .b16


def _fragment_position(lane: Expr, half: Expr, trans: bool) -> tuple[Expr, Expr]:
    """(row, column) in the stored 8x8 matrix of the element a lane's register half holds."""
    if trans:
        return 2 * (lane % 4) + half, lane // 4
    return lane // 4, 2 * (lane % 4) + half


def _holder(row: Expr, col: Expr, trans: bool) -> tuple[Expr, Expr]:
    """(lane, half) whose register holds stored element (row, col)."""
    if trans:
        return 4 * col + row // 2, row % 2
    return 4 * row + col // 2, col % 2


@lru_cache(maxsize=None)
def ldmatrix(num: int, trans: bool) -> CopyModel:
    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        matrix = dst_bit // 32
        half = (dst_bit % 32) // 16
        row, col = _fragment_position(dst_lane, half, trans)
        return 8 * matrix + row, ELEM_BITS * col + dst_bit % 16

    def describe(lane: int, bit: int) -> dict[str, Any]:
        matrix, half = bit // 32, (bit % 32) // 16
        row, col = (2 * (lane % 4) + half, lane // 4) if trans else (lane // 4, 2 * (lane % 4) + half)
        return {"matrix": matrix, "row": row, "column": col, "address lane": 8 * matrix + row,
                "register": matrix, "half": "high" if half else "low"}

    name = f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16"
    return CopyModel(name, "ldmatrix", "load", 32, 128, 32 * num, 32, source_of, describe,
                     row_bytes=ROW_BYTES, align_bytes=16, address_lanes=8 * num,
                     section="PTX ISA, Warp-level matrix load instruction: ldmatrix (fragment figures for .m8n8)")


@lru_cache(maxsize=None)
def stmatrix(num: int, trans: bool) -> CopyModel:
    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        matrix = dst_lane // 8
        row = dst_lane % 8
        col = dst_bit // ELEM_BITS
        lane, half = _holder(row, col, trans)
        return lane, 32 * matrix + 16 * half + dst_bit % 16

    def describe(lane: int, bit: int) -> dict[str, Any]:
        matrix, row, col = lane // 8, lane % 8, bit // 16
        src_lane, half = (4 * col + row // 2, row % 2) if trans else (4 * row + col // 2, col % 2)
        return {"matrix": matrix, "row": row, "column": col, "address lane": lane, "source lane": src_lane,
                "register": matrix, "half": "high" if half else "low"}

    name = f"stmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16"
    return CopyModel(name, "stmatrix", "store", 32, 32 * num, 128, 8 * num, source_of, describe,
                     row_bytes=ROW_BYTES, align_bytes=16, address_lanes=8 * num,
                     section="PTX ISA, Warp-level matrix store instruction: stmatrix (fragment figures for .m8n8)")


@lru_cache(maxsize=None)
def movmatrix() -> CopyModel:
    """movmatrix.sync.aligned.m8n8.trans.b16: the fragment of M in, the fragment of M^T out."""
    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        half = dst_bit // 16
        row_t, col_t = dst_lane // 4, 2 * (dst_lane % 4) + half   # element (row_t, col_t) of M^T ...
        lane, src_half = _holder(col_t, row_t, False)            # ... is element (col_t, row_t) of M
        return lane, 16 * src_half + dst_bit % 16

    def describe(lane: int, bit: int) -> dict[str, Any]:
        half = bit // 16
        return {"row of M^T": lane // 4, "column of M^T": 2 * (lane % 4) + half, "half": "high" if half else "low"}

    return CopyModel("movmatrix.sync.aligned.m8n8.trans.b16", "movmatrix", "registers", 32, 32, 32, 32,
                     source_of, describe,
                     section="PTX ISA, Warp-level matrix transpose instruction: movmatrix (.m8n8 figures)")


def parse_matrix_copy(instruction: Instruction) -> MatrixCopyForm | None:
    """The form of `ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16` (qualifiers in any order), of movmatrix, or of
    the sm_100a shapes; None for any other text."""
    qualifier_set = instruction.qualifier_set
    if instruction.opcode == MOVMATRIX:
        return MatrixCopyForm(MOVMATRIX, MatrixShape.M8N8, 1, True) if qualifier_set == MOVMATRIX_QUALIFIERS else None
    nums = [q for q in instruction.qualifiers if _NUM.fullmatch(q)]
    if not SYNC_ALIGNED <= qualifier_set or len(nums) != 1:
        return None
    num, trans = int(nums[0][1]), TRANS in qualifier_set
    shape_and_format = qualifier_set - NOT_SHAPE_OR_FORMAT - {nums[0]}
    if shape_and_format == M8N8_B16:
        return MatrixCopyForm(instruction.opcode, MatrixShape.M8N8, num, trans)
    from . import matrix_copy_sm100 as sm100
    shape_and_src_fmt = sm100.parse_8bit_form(instruction.opcode == LDMATRIX, shape_and_format)
    if shape_and_src_fmt is None:
        return None
    shape, src_fmt = shape_and_src_fmt
    return MatrixCopyForm(instruction.opcode, MatrixShape(shape), num, trans, src_fmt)


def _build_matrix_copy(form: MatrixCopyForm, query: ModelQuery) -> CopyModel | None:
    if form.shape is not MatrixShape.M8N8:
        from . import matrix_copy_sm100 as sm100
        return sm100.model_of_8bit_form(form.shape.value, form.num, form.trans, form.src_fmt, query.atom_name)
    if form.opcode == MOVMATRIX:
        return movmatrix()
    return ldmatrix(form.num, form.trans) if form.opcode == LDMATRIX else stmatrix(form.num, form.trans)


MATRIX_COPY_FAMILY = COPY_FAMILIES.register(InstructionFamily(
    "ldmatrix / stmatrix / movmatrix", parse_matrix_copy, _build_matrix_copy,
    ptx_opcodes=frozenset({LDMATRIX, STMATRIX, MOVMATRIX})))
