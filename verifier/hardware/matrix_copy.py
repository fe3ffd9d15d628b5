"""ldmatrix, stmatrix and movmatrix (.m8n8, .b16): the warp-wide 8x8 matrix movers.

PTX ISA, "Warp-level matrix load instruction: ldmatrix" / "stmatrix" / "movmatrix":
- an 8x8 matrix of 16-bit elements is held by the warp with lane l holding row l / 4, columns
  2*(l % 4) and 2*(l % 4) + 1 in the low and high half of one 32-bit register ("fragment" layout);
- .x1/.x2/.x4 move 1, 2 or 4 matrices; register j holds matrix j;
- the memory side is 8 rows of 16 bytes per matrix; lanes 8*j .. 8*j+7 give the row addresses of
  matrix j, each 16-byte aligned;
- .trans moves the transpose: lane l receives column l / 4, rows 2*(l % 4) + {0, 1}.
"""
from __future__ import annotations

from functools import lru_cache

from ..symbolic.expr import Expr
from .base import CopyModel

ROW_BYTES = 16
ELEM_BITS = 16


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

    def describe(lane: int, bit: int) -> dict:
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

    def describe(lane: int, bit: int) -> dict:
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

    def describe(lane: int, bit: int) -> dict:
        half = bit // 16
        return {"row of M^T": lane // 4, "column of M^T": 2 * (lane % 4) + half, "half": "high" if half else "low"}

    return CopyModel("movmatrix.sync.aligned.m8n8.trans.b16", "movmatrix", "registers", 32, 32, 32, 32,
                     source_of, describe,
                     section="PTX ISA, Warp-level matrix transpose instruction: movmatrix (.m8n8 figures)")
