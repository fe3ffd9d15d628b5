"""CuTe's UniversalFMA<D, A, B, C>: one thread's multiply-add of its own scalars, d = a * b + c, as an MMA of shape
1x1x1 of one thread.

The Op computes in C++ (cute/arch/mma.hpp); what it compiles to is the PTX ISA's scalar arithmetic — `fma.rn` for a
floating-point type ("Floating-Point Instructions: fma"), `mad.lo` for an integer ("Integer Arithmetic
Instructions: mad"), four real multiply-adds for a complex type — every operand of which is a register of the
thread itself.  So there is no fragment to exchange between lanes: the thread's A, B and C are one value each, at
(m, n, k) = (0, 0, 0), and a tiled MMA of UniversalFMA atoms computes with exactly the values CuTe's partitions give
each thread.  What the theorems then have to establish is that the copies deliver those values (a SIMT mainloop's
shared-memory loads), which is where a SIMT kernel's layouts can go wrong.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..algebra.types import ptx_type_of, type_bits
from .base import Index, MMAModel, OperandFragment
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

UNIVERSAL_FMA = "UniversalFMA"
SECTION = ("CuTe's UniversalFMA (d = a * b + c in C++: the PTX ISA's fma.rn / mad.lo on the thread's own registers; "
           "four real ones for a complex type)")
SHAPE = (1, 1, 1)
# UniversalFMA<D, A, B, C>: the template's four types, CuTe's order (D first)
_ARGUMENTS = re.compile(r"^(?:cute::)?UniversalFMA\s*<(.*)>$", re.DOTALL)


@dataclass(frozen=True)
class ScalarFmaForm:
    """UniversalFMA<D, A, B, C>: the types as written (namespaces kept as the atom writes them)."""
    d: str
    a: str
    b: str
    c: str


def _split_arguments(text: str) -> list[str]:
    """Top-level comma-separated template arguments (`complex<float>` stays one)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "<") - (ch == ">")
        if ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return out


def parse_form(text: str) -> ScalarFmaForm | None:
    """The form of `UniversalFMA<D,A,B,C>` (CuTe's default arguments A = B = C = D when fewer are written)."""
    found = _ARGUMENTS.match(text.strip())
    if found is None:
        return None
    args = _split_arguments(found.group(1))
    if not 1 <= len(args) <= 4 or not all(args):
        return None
    d = args[0]
    a = args[1] if len(args) > 1 else d
    b = args[2] if len(args) > 2 else a
    c = args[3] if len(args) > 3 else d
    try:
        for name in (d, a, b, c):
            type_bits(name)
    except (KeyError, ValueError):
        return None                         # a type the verifier does not know: not modelled
    return ScalarFmaForm(d, a, b, c)


def _scalar(bits: int, what: str) -> OperandFragment:
    def coord(lane: Index, i: Index) -> tuple[Index, Index]:
        return lane * 0, i * 0              # the one value, at (0, 0)
    return OperandFragment(1, bits, coord, lambda lane, i: {"register": what})


@lru_cache(maxsize=None)
def model_of_form(form: ScalarFmaForm) -> MMAModel:
    name = f"{UNIVERSAL_FMA}<{form.d},{form.a},{form.b},{form.c}>"
    return MMAModel(name, SHAPE, 1, _scalar(type_bits(form.a), "a"), _scalar(type_bits(form.b), "b"),
                    _scalar(type_bits(form.c), "c"), section=SECTION)


def _ptx_or_width(name: str) -> str:
    """The PTX type of a CuTe type, or its width as `bN` (a complex type has no PTX type of its own)."""
    return ptx_type_of(name) or f"b{type_bits(name)}"


def types_of_form(form: ScalarFmaForm) -> OperandTypes:
    return {"a": _ptx_or_width(form.a), "b": _ptx_or_width(form.b), "c": _ptx_or_width(form.c),
            "d": _ptx_or_width(form.d)}


def _parse(instruction: Instruction) -> ScalarFmaForm | None:
    return parse_form(instruction.text)


def _build(form: ScalarFmaForm, query: ModelQuery) -> MMAModel:
    return model_of_form(form)


SCALAR_FMA_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "UniversalFMA", _parse, _build, cute_atoms=frozenset({UNIVERSAL_FMA}), operand_types=types_of_form))
