"""SM70's quad-pair mma.sync.aligned.m8n8k4.{row,col}.{row,col}.{f16,f32}.f16.f16.{f16,f32}.

PTX ISA 9.0, section 9.7.14.5.1 "Matrix Fragments for mma.m8n8k4 with .f16 floating point type"
(Figures 46-52): a warp computes 4 independent m8n8k4 products.  Quad-pair q = (lane / 4) % 4 is
lanes 4q..4q+3 (the low group) and 4q+16..4q+19 (the high group).  Within it, with r = lane % 4 and
h = lane / 16 (0 low, 1 high), the ISA's formulas are
- A .row: a_i at (row r + 4h, col i);        A .col: a_i at (row i + 4h, col r)
- B .row: b_i at (row r, col i + 4h);        B .col: b_i at (row i, col r + 4h)
- C/D .f16: c_i at (row r + 4h, col i)
- C/D .f32: c_i at (row X + 4h, col (i & 4) + (lane & 2) + (i & 1)), X = (lane & 1) + (i & 2)
(A is drawn MxK, B KxN, C MxN.)  Coordinates are those of the quad-pair's own 8x8x4 problem, returned
CuTe-style: A (m, k), B (n, k), C (m, n); the quad-pair index does not appear in them.  CuTe's SM70
atoms name quad-pair 0 with ThrID (4,2):(1,16).
The string is parsed by the mma.sync family (mma_sync.py), which builds this model for the forms
`is_quad_pair_form` names (m8n8k4 with .f16 A; .f64 m8n8k4 is an ordinary mma.sync fragment).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from ..symbolic.expr import Expr
from .base import Coord, MMAModel, OperandFragment

Formula = Callable[[Expr, Expr, Expr, Expr], tuple[Expr, Expr]]   # (r, h, lane, i) -> (row, col) as drawn

QUAD_PAIRS = 4
SECTION = "PTX ISA 9.0, 9.7.14.5.1 Matrix Fragments for mma.m8n8k4 with .f16 floating point type"
QUAD_PAIR_SHAPE = "m8n8k4"
QUAD_PAIR_AB_TYPE = "f16"


def is_quad_pair_form(shape: str, atype: str) -> bool:
    """mma.sync.aligned.m8n8k4 with .f16 A: SM70's quad-pair fragments (this module), not mma_sync's."""
    return shape == QUAD_PAIR_SHAPE and atype == QUAD_PAIR_AB_TYPE


def quad_pair(lane: int) -> int:
    """Which of the 4 independent m8n8k4 products lane takes part in."""
    return (lane // 4) % 4


_A = {"row": lambda r, h, lane, i: (r + 4 * h, i),
      "col": lambda r, h, lane, i: (i + 4 * h, r)}
_B = {"row": lambda r, h, lane, i: (r, i + 4 * h),
      "col": lambda r, h, lane, i: (i, r + 4 * h)}
_C = {"f16": lambda r, h, lane, i: (r + 4 * h, i),
      "f32": lambda r, h, lane, i: (lane % 2 + 2 * ((i // 2) % 2) + 4 * h,
                                    4 * (i // 4) + 2 * ((lane // 2) % 2) + i % 2)}


def _operand(elements: int, bits: int, formula: Formula, operand: str, layout: str = "") -> OperandFragment:
    def coord(lane: Expr, i: Expr) -> Coord:
        row, col = formula(lane % 4, lane // 16, lane, i)
        # the ISA draws B as KxN (row=k, col=n); CuTe indexes B as (n, k)
        return (col, row) if operand == "B" else (row, col)

    per_reg = 32 // bits

    def describe(lane: int, i: int) -> dict[str, Any]:
        row, col = formula(lane % 4, lane // 16, lane, i)  # type: ignore[arg-type]
        d = {"quad_pair": quad_pair(lane), "group": "high" if lane >= 16 else "low",
             "element": f"{operand.lower()}{i}", "register": i // per_reg, "row": row, "col": col}
        if per_reg > 1:
            d["position"] = i % per_reg
        if layout:
            d["layout"] = layout
        return d

    return OperandFragment(elements, bits, coord, describe)


@lru_cache(maxsize=None)
def m8n8k4_model(alayout: str, blayout: str, dtype: str, ctype: str) -> MMAModel | None:
    """mma.sync.aligned.m8n8k4.<alayout>.<blayout>.<dtype>.f16.f16.<ctype>, or None if not a valid form."""
    if alayout not in _A or blayout not in _B or dtype not in _C or ctype not in _C:
        return None
    if dtype != ctype:
        return None   # mixed .f16/.f32 accumulators: C and D fragments differ, one MMAModel.c cannot say it
    bits = {"f16": 16, "f32": 32}[dtype]
    name = f"mma.sync.aligned.m8n8k4.{alayout}.{blayout}.{dtype}.f16.f16.{ctype}"
    return MMAModel(name, (8, 8, 4), 32,
                    _operand(4, 16, _A[alayout], "A", alayout),
                    _operand(4, 16, _B[blayout], "B", blayout),
                    _operand(8, bits, _C[dtype], "C"),
                    section=SECTION)
