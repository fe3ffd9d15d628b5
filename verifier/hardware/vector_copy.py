"""Per-thread copies: UniversalCopy<uintN> (a plain N-bit load/store), cp.async (N = 32, 64, 128), and the
element-wise copies DefaultCopy / AutoVectorizingCopy[WithAssumedAlignment<N>].

Each thread moves its own bits: destination bit b of thread t is source bit b of thread t.
- UniversalCopy<uintN> and cp.async move N contiguous bits whose address is naturally aligned (N/8
  bytes): PTX ISA "ld"/"st" vector alignment, and "cp.async": cp-size bytes, address aligned to cp-size.
- DefaultCopy (= AutoVectorizingCopyWithAssumedAlignment<8>) and AutoVectorizingCopy (<128>) are
  element-wise: each application moves one value of the copy's value type, whatever its width (CuTe's
  traits write this as one unit per thread, `(1,1):(0,0)`).  CuTe's copy algorithm may merge contiguous
  values into wider accesses, but only up to the alignment it can prove from the layouts under the assumed
  alignment of N bits of the base pointer; so the contract is natural alignment of every value, for every
  base aligned to N bits.
"""
from __future__ import annotations

from functools import lru_cache

from ..symbolic.expr import Expr
from .base import CopyModel

VECTOR_SECTION = "PTX ISA, ld/st (vector alignment) and cp.async (cp-size alignment)"
ELEMENT_SECTION = "CuTe copy(AutoVectorizingCopyWithAssumedAlignment<N>): element-wise, vectorised only where aligned"


def _identity(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
    return dst_lane, dst_bit


def _describe(lane: int, bit: int) -> dict:
    return {"thread": lane, "byte": bit // 8}


@lru_cache(maxsize=None)
def vector_copy(bits: int, name: str, direction: str = "memory") -> CopyModel:
    nbytes = max(1, bits // 8)
    return CopyModel(name, "vector", direction, 1, bits, bits, 1, _identity, _describe,
                     row_bytes=nbytes, align_bytes=nbytes, address_lanes=1, section=VECTOR_SECTION)


@lru_cache(maxsize=None)
def element_copy(assumed_alignment_bits: int, value_bits: int, name: str, direction: str = "memory") -> CopyModel:
    """One value of `value_bits` per thread per application; the traits' unit is one value."""
    return CopyModel(name, "element", direction, 1, 1, 1, 1, _identity, _describe,
                     row_bytes=max(1, value_bits // 8), align_bytes=max(1, value_bits // 8), address_lanes=1,
                     section=ELEMENT_SECTION, element_wise=True,
                     base_align_bytes=max(1, assumed_alignment_bits // 8))
