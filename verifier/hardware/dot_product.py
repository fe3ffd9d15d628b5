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
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from .base import Index, MMAModel, OperandFragment
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

SECTION = "PTX ISA, Integer Arithmetic Instructions: dp4a, dp2a"
SIGNS = {"s32": "s", "u32": "u"}
DP4A, DP2A = "dp4a", "dp2a"
DP2A_MODES = ("lo", "hi")
DP2A_HIGH = "hi"


@dataclass(frozen=True)
class DotProductForm:
    """dp4a.atype.btype or dp2a[.mode].atype.btype."""
    opcode: str                       # DP4A or DP2A
    mode: str | None                  # dp2a's .lo / .hi; None when not written (then it is no instruction)
    atype: str                        # .s32 / .u32
    btype: str


def _row(elements: int, bits: int, what: str) -> OperandFragment:
    def coord(lane: Index, i: Index) -> tuple[Index, Index]:
        return lane * 0, i          # (m or n = 0, k = i): one thread holds the whole row of K
    return OperandFragment(elements, bits, coord, lambda lane, i: {what: i})


def _accumulator() -> OperandFragment:
    return OperandFragment(1, 32, lambda lane, i: (lane * 0, i * 0), lambda lane, i: {"register": "d"})


def parse_form(op: str, qualifiers: Sequence[str]) -> DotProductForm | None:
    """The form of dp4a.atype.btype or dp2a[.mode].atype.btype (qualifiers after the opcode); None for other text."""
    q = list(qualifiers)
    mode = q.pop(0) if op == DP2A and q and q[0] in DP2A_MODES else None
    if op not in (DP4A, DP2A) or len(q) != 2 or any(t not in SIGNS for t in q):
        return None
    return DotProductForm(op, mode, q[0], q[1])


def dot_product_model(op: str, qualifiers: tuple[str, ...]) -> MMAModel | None:
    """dp4a.atype.btype or dp2a[.mode].atype.btype; a dp2a without .lo / .hi is no instruction (`invalid`)."""
    form = parse_form(op, qualifiers)
    return model_of_form(form) if form is not None else None


@lru_cache(maxsize=None)
def model_of_form(form: DotProductForm) -> MMAModel:
    """The model of a parsed dp4a / dp2a (one model object per form)."""
    if form.opcode == DP4A:
        return MMAModel(f"dp4a.{form.atype}.{form.btype}", (1, 1, 4), 1, _row(4, 8, "byte of a"),
                        _row(4, 8, "byte of b"), _accumulator(), section=SECTION)
    name = f"dp2a.{form.mode + '.' if form.mode else ''}{form.atype}.{form.btype}"
    model = MMAModel(name, (1, 1, 2), 1, _row(2, 16, "half of a"), _row(2, 8, "byte of b"), _accumulator(),
                     section=SECTION)
    if form.mode is None:
        return dataclasses.replace(model, invalid="dp2a needs .lo or .hi (which two bytes of b it reads); ptxas "
                                                  "rejects it without", invalid_in="instruction")
    return model


def _element(word: int, index: int, bits: int, signed: bool) -> int:
    x = (word >> (index * bits)) & ((1 << bits) - 1)
    return x - (1 << bits) if signed and x >> (bits - 1) else x


def evaluate(instruction: str, a: int, b: int, c: int) -> int:
    """What the instruction computes on 32-bit words a, b, c (the ISA's formula; wraps to s32 like d)."""
    op, *qualifiers = instruction.split(".")
    form = parse_form(op, qualifiers)
    if form is None:
        raise ValueError(f"not a dp4a / dp2a instruction: {instruction}")
    sa, sb = SIGNS[form.atype] == "s", SIGNS[form.btype] == "s"
    if op == DP4A:
        total = c + sum(_element(a, i, 8, sa) * _element(b, i, 8, sb) for i in range(4))
    else:
        first = 2 if form.mode == DP2A_HIGH else 0
        total = c + sum(_element(a, i, 16, sa) * _element(b, first + i, 8, sb) for i in range(2))
    total &= 0xFFFFFFFF
    return total - (1 << 32) if total >> 31 else total


def types_of_form(form: DotProductForm) -> OperandTypes:
    """The PTX element types {a, b, c, d}: bytes (dp4a's a and b, dp2a's b) and halves (dp2a's a), signed or not."""
    a_bits = 8 if form.opcode == DP4A else 16
    return {"a": f"{SIGNS[form.atype]}{a_bits}", "b": f"{SIGNS[form.btype]}8", "c": "s32", "d": "s32"}


def dot_product_types(op: str, qualifiers: tuple[str, ...]) -> dict[str, str] | None:
    """types_of_form of dp4a.atype.btype or dp2a[.mode].atype.btype; None for other text."""
    form = parse_form(op, qualifiers)
    return types_of_form(form) if form is not None else None


def _parse_dot_product(instruction: Instruction) -> DotProductForm | None:
    return parse_form(instruction.opcode, instruction.qualifiers)


def _build_dot_product(form: DotProductForm, query: ModelQuery) -> MMAModel:
    return model_of_form(form)


DOT_PRODUCT_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "dp4a / dp2a", _parse_dot_product, _build_dot_product, ptx_opcodes=frozenset({DP4A, DP2A}),
    operand_types=types_of_form))
