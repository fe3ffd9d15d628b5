"""dp4a / dp2a (SM61 and later): one thread's four- or two-term integer dot product, as an MMA of one thread.

Written from the PTX ISA, "Integer Arithmetic Instructions: dp4a" and "dp2a", and checked on an H200 (sm_90,
driver 580.159.04, nvcc 13.0: dp4a of bytes 1,2,3,4 and 10,20,30,40 gives 300; dp2a.lo of halves 513, 1027 and
bytes 10, 20 gives 25670, dp2a.hi with bytes 30, 40 gives 56470):
- `dp4a.atype.btype d, a, b, c`: d = c + sum over i < 4 of byte i of a times byte i of b (signed or unsigned as
  .s32 / .u32 say) — an MMA of shape 1x1x4: A(0, k) is byte k of a, B(0, k) byte k of b, D(0, 0) = d;
- `dp2a.mode.atype.btype d, a, b, c`: d = c + sum over i < 2 of half i of a times byte (i, or i + 2 for .hi) of
  b — an MMA of shape 1x1x2 whose A elements are 16 bits and whose B elements are 8 bits (bytes 0-1, or 2-3).
`evaluate` is that arithmetic (tests/test_hw_dot_product.py compares it with the captured table).  `.mode` (.lo / .hi)
  is required: ptxas rejects `dp2a.s32.s32` ("'.hi/.lo' modifier required for instruction 'dp2a'", observed).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Sequence

from .base import Index, MMAModel, OperandFragment

SECTION = "PTX ISA, Integer Arithmetic Instructions: dp4a, dp2a"
SIGNS = {"s32": "s", "u32": "u"}
DP2A_MODES = ("lo", "hi")


def _row(elements: int, bits: int, what: str) -> OperandFragment:
    def coord(lane: Index, i: Index) -> tuple[Index, Index]:
        return lane * 0, i          # (m or n = 0, k = i): one thread holds the whole row of K
    return OperandFragment(elements, bits, coord, lambda lane, i: {what: i})


def _accumulator() -> OperandFragment:
    return OperandFragment(1, 32, lambda lane, i: (lane * 0, i * 0), lambda lane, i: {"register": "d"})


def _parse(op: str, qualifiers: Sequence[str]) -> tuple[str | None, str, str] | None:
    """(dp2a's mode or None, atype, btype) of dp4a.atype.btype or dp2a[.mode].atype.btype; None for other text."""
    q = list(qualifiers)
    mode = q.pop(0) if op == "dp2a" and q and q[0] in DP2A_MODES else None
    if op not in ("dp4a", "dp2a") or len(q) != 2 or any(t not in SIGNS for t in q):
        return None
    return mode, q[0], q[1]


@lru_cache(maxsize=None)
def dot_product_model(op: str, qualifiers: tuple[str, ...]) -> MMAModel | None:
    """dp4a.atype.btype or dp2a[.mode].atype.btype; a dp2a without .lo / .hi is no instruction (`invalid`)."""
    parsed = _parse(op, qualifiers)
    if parsed is None:
        return None
    mode, *q = parsed
    if op == "dp4a":
        return MMAModel(f"dp4a.{q[0]}.{q[1]}", (1, 1, 4), 1, _row(4, 8, "byte of a"), _row(4, 8, "byte of b"),
                        _accumulator(), section=SECTION)
    name = f"dp2a.{mode + '.' if mode else ''}{q[0]}.{q[1]}"
    model = MMAModel(name, (1, 1, 2), 1, _row(2, 16, "half of a"), _row(2, 8, "byte of b"), _accumulator(),
                     section=SECTION)
    if mode is None:
        return dataclasses.replace(model, invalid="dp2a needs .lo or .hi (which two bytes of b it reads); ptxas "
                                                  "rejects it without", invalid_in="instruction")
    return model


def _element(word: int, index: int, bits: int, signed: bool) -> int:
    x = (word >> (index * bits)) & ((1 << bits) - 1)
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def evaluate(instruction: str, a: int, b: int, c: int) -> int:
    """What the instruction computes on 32-bit words a, b, c (the ISA's formula; wraps to s32 like d)."""
    op, *qualifiers = instruction.split(".")
    parsed = _parse(op, qualifiers)
    if parsed is None:
        raise ValueError(f"not a dp4a / dp2a instruction: {instruction}")
    mode, ta, tb = parsed
    sa, sb = SIGNS[ta] == "s", SIGNS[tb] == "s"
    if op == "dp4a":
        total = c + sum(_element(a, i, 8, sa) * _element(b, i, 8, sb) for i in range(4))
    else:
        first = 2 if mode == "hi" else 0
        total = c + sum(_element(a, i, 16, sa) * _element(b, first + i, 8, sb) for i in range(2))
    total &= 0xFFFFFFFF
    return total - (1 << 32) if total >> 31 else total


def dot_product_types(op: str, qualifiers: tuple[str, ...]) -> dict[str, str] | None:
    """The PTX element types {a, b, c, d}: bytes (dp4a's a and b, dp2a's b) and halves (dp2a's a), signed or not."""
    parsed = _parse(op, qualifiers)
    if parsed is None:
        return None
    _, ta, tb = parsed
    a_bits = 8 if op == "dp4a" else 16
    return {"a": f"{SIGNS[ta]}{a_bits}", "b": f"{SIGNS[tb]}8", "c": "s32", "d": "s32"}
