"""Per-thread vector copies: UniversalCopy<uintN> (a plain N-bit load/store) and cp.async (N = 32, 64, 128).

Each thread moves its own N bits: destination bit b of thread t is source bit b of thread t.  The
memory side must be naturally aligned (N/8 bytes) — PTX ISA "ld"/"st" vector alignment, and
"cp.async": cp-size bytes, address aligned to cp-size.
"""
from __future__ import annotations

from functools import lru_cache

from ..symbolic.expr import Expr
from .base import CopyModel


@lru_cache(maxsize=None)
def vector_copy(bits: int, name: str, direction: str = "memory") -> CopyModel:
    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        return dst_lane, dst_bit

    def describe(lane: int, bit: int) -> dict:
        return {"thread": lane, "byte": bit // 8}

    nbytes = max(1, bits // 8)
    return CopyModel(name, "vector", direction, 1, bits, bits, 1, source_of, describe,
                     row_bytes=nbytes, align_bytes=nbytes, address_lanes=1,
                     section="PTX ISA, ld/st (vector alignment) and cp.async (cp-size alignment)")
