"""What a hardware model is: the instruction's data movement, written from the PTX ISA, not from CuTe.

Conventions shared with CuTe's Copy_Traits (they are the ABI of copy_unpack, not layouts):
- a lane's register operands are numbered in order; bit b of a lane's register side is bit b % 32 of
  register b // 32 (packed elements low bits first);
- a lane's memory side is the bytes at the address it provides: bit b is bit b % 8 of byte b // 8.
All model functions take and return expressions (`verifier.symbolic.expr`), so the same formula is
proved by Z3, evaluated on integers for reports, and compared with tables captured on the GPU.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..cute.operand import Operand
from ..symbolic.expr import Expr

Index = Any   # an Expr, a Python int, or a numpy array of them: the formulas evaluate on all three
Coord = tuple[Index, Index]   # of the same kind as the lane and element they are computed from


@dataclass(frozen=True)
class CopyModel:
    """A warp-level (or per-thread) copy: which source bit feeds each destination bit."""
    instruction: str                 # canonical instruction text
    family: str                      # "ldmatrix" | "stmatrix" | "movmatrix" | "vector"
    direction: str                   # "load" (memory -> registers), "store", "registers", "memory"
    lanes: int                       # threads taking part (32 for warp instructions, 1 per-thread copies)
    src_bits: int                    # bits per lane on the source side
    dst_bits: int                    # bits per lane on the destination side
    dst_lanes: int                   # lanes 0..dst_lanes-1 receive data
    source_of: Callable[[Expr, Expr], tuple[Expr, Expr]]   # (dst lane, dst bit) -> (src lane, src bit)
    describe: Callable[[int, int], dict[str, Any]] = field(default=lambda lane, bit: {})  # report: hardware names
    row_bytes: int = 0               # memory side: contiguous bytes each address-providing lane names
    align_bytes: int = 0             # memory side: required alignment of those addresses
    address_lanes: int = 0           # lanes that provide addresses on the memory side
    section: str = ""                # where in the PTX ISA this comes from
    invalid: str = ""                # set when the instruction does not exist in this form (the reason)
    element_wise: bool = False       # moves one value of the copy's value type per thread (any width)
    base_align_bytes: int = 1        # alignment of the tile's base address the copy assumes
    data_bits_per_byte: int = 8      # unpacking loads: only the low N bits of each destination byte carry
                                     # memory data (the rest is container padding); 8: every bit does

    @property
    def memory_side(self) -> str | None:
        return {"load": "src", "store": "dst", "memory": "both"}.get(self.direction)

    @property
    def register_side(self) -> str | None:
        return {"load": "dst", "store": "src", "registers": "both"}.get(self.direction)


@dataclass(frozen=True)
class OperandFragment:
    """One operand of mma.sync: element i of lane l holds matrix coordinate coord(l, i)."""
    elements: int                    # elements per lane
    elem_bits: int
    coord: Callable[[Index, Index], Coord]   # (lane, element) -> CuTe operand coordinate (A: (m,k), B: (n,k), C: (m,n))
    describe: Callable[[int, int], dict[str, Any]] = field(default=lambda lane, i: {})

    def coords(self, lanes: list[int], values: int) -> list[list[tuple[int, int]]]:
        """coords[t][v]: the coordinate element v of thread t holds, on integers, for threads that are the given
        lanes (an atom's thr_id) and `values` elements each."""
        return [[(int(c0), int(c1)) for c0, c1 in (self.coord(lane, v) for v in range(values))] for lane in lanes]


@dataclass(frozen=True)
class MMAModel:
    instruction: str
    shape_mnk: tuple[int, int, int]
    lanes: int
    a: OperandFragment
    b: OperandFragment
    c: OperandFragment
    section: str = ""
    invalid: str = ""                # set when the PTX ISA has no instruction of this shape / these types (why)
    invalid_in: str = "shape"        # what the reason is about: "shape", "types" (D's; "types.a": A's type, ...)
                                     # or "instruction" (its qualifiers)
    unsettled: str = ""              # set when the PTX ISA text and CUTLASS disagree on whether the instruction
                                     # exists in this form (why): the atom is neither proved nor refuted

    def operand(self, name: str) -> OperandFragment:
        return {Operand.A: self.a, Operand.B: self.b, Operand.C: self.c}[Operand.of(name)]

    def extent(self, name: str) -> tuple[int, int]:
        m, n, k = self.shape_mnk
        return Operand.of(name).pick((m, n, k))
