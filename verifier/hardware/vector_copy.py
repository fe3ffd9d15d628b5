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

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..symbolic.expr import Expr
from .base import CopyModel
from .registry import COPY_FAMILIES, Instruction, InstructionFamily, ModelQuery

VECTOR_SECTION = "PTX ISA, ld/st (vector alignment) and cp.async (cp-size alignment)"
ELEMENT_SECTION = "CuTe copy(AutoVectorizingCopyWithAssumedAlignment<N>): element-wise, vectorised only where aligned"


def _identity(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
    return dst_lane, dst_bit


def _describe(lane: int, bit: int) -> dict[str, Any]:
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


# --- the families: CuTe's element-wise and UniversalCopy atoms, and cp.async ---------------------------------------

CUTE_NAMESPACE = "cute::"
AUTO_VECTORIZING_COPY = "AutoVectorizingCopyWithAssumedAlignment"
UNIVERSAL_COPY = "UniversalCopy"
_AUTO_VECTORIZING = re.compile(rf"^(?:cute::)?{AUTO_VECTORIZING_COPY}<\s*(\d+)\s*>$")
_UNIVERSAL = re.compile(rf"^{UNIVERSAL_COPY}<\s*(?:cute::|cutlass::)?(u?int(\d+)_t|uint128_t|[A-Za-z_0-9:]+)\s*>$")
# CuTe's aliases: DefaultCopy assumes 8 bits of alignment, AutoVectorizingCopy 128; the template written without
# arguments (as import-cutlass names it: its layouts do not depend on MaxVecBits) is its default, <128>
ELEMENT_COPY_ALIGNMENT_BITS = {"DefaultCopy": 8, "AutoVectorizingCopy": 128, AUTO_VECTORIZING_COPY: 128}
CP_ASYNC_OPCODE = "cp"
CP_ASYNC = "async"
CP_ASYNC_CG = "cg"
CP_ASYNC_BITS = (32, 64, 128)           # PTX ISA cp.async: cp-size is 4, 8 or 16 bytes ...
CP_ASYNC_CG_BITS = 128                  # ... and .cg allows 16 only
BYTE = 8


# --- cp.async byte by byte (PTX ISA, "cp.async"; captured: tools/gpu/capture_cp_async.cu, tests/data/hw/cp_async) -----
# "cp-size" bytes go from [src] to [dst]; with the optional src-size operand, only the first src-size bytes are
# read from [src] and the remaining cp-size - src-size bytes of the destination are filled with zeros (the form
# CUTLASS's *_ZFILL atoms use, src-size 0 for a predicated-off copy); both addresses must be aligned to cp-size.

def cp_async_sources(cp_size: int, src_size: int | None = None) -> tuple[int | None, ...]:
    """For each destination byte b of one cp.async (0 .. cp-size - 1): the source byte it receives (b), or None
    where it is zero-filled (b >= src-size)."""
    if cp_size * BYTE not in CP_ASYNC_BITS:
        raise ValueError(f"cp.async moves 4, 8 or 16 bytes, not {cp_size}")
    if src_size is not None and not 0 <= src_size <= cp_size:
        raise ValueError(f"src-size {src_size} is not in 0..cp-size ({cp_size})")
    kept = cp_size if src_size is None else src_size
    return tuple(b if b < kept else None for b in range(cp_size))


def cp_async_misaligned(dst: int, src: int, cp_size: int) -> str | None:
    """Why one cp.async's addresses are refused (each must be a multiple of cp-size), or None."""
    bad = [f"{name} {addr}" for name, addr in (("dst", dst), ("src", src)) if addr % cp_size]
    return f"{' and '.join(bad)} not aligned to cp-size {cp_size}" if bad else None


def element_copy_alignment_bits(text: str) -> int | None:
    """Assumed alignment in bits of one spelling of DefaultCopy / AutoVectorizingCopy[WithAssumedAlignment<N>]
    (`cute::` allowed), else None."""
    stripped = text.strip()
    word = stripped.removeprefix(CUTE_NAMESPACE)
    if word in ELEMENT_COPY_ALIGNMENT_BITS:
        return ELEMENT_COPY_ALIGNMENT_BITS[word]
    written = _AUTO_VECTORIZING.match(stripped)
    if written and int(written.group(1)) > 0:
        return int(written.group(1))
    return None


@dataclass(frozen=True)
class ElementCopyForm:
    """DefaultCopy / AutoVectorizingCopy[WithAssumedAlignment<N>]: the base alignment CuTe assumes."""
    assumed_alignment_bits: int


def _parse_element_copy(instruction: Instruction) -> ElementCopyForm | None:
    bits = element_copy_alignment_bits(instruction.text)
    return ElementCopyForm(bits) if bits is not None else None


def _build_element_copy(form: ElementCopyForm, query: ModelQuery) -> CopyModel | None:
    """One value per thread: without the copy's value type there is no unit, and no model."""
    if query.value_bits is None:
        return None
    return element_copy(form.assumed_alignment_bits, query.value_bits, query.instruction.text or query.atom_name)


@dataclass(frozen=True)
class UniversalCopyForm:
    """UniversalCopy<T>: T as written (`uint32_t`, `half_t`, `cutlass::uint128_t` without its namespace)."""
    value_type: str


def _parse_universal_copy(instruction: Instruction) -> UniversalCopyForm | None:
    written = _UNIVERSAL.match(instruction.text)
    return UniversalCopyForm(written.group(1)) if written else None


def _build_universal_copy(form: UniversalCopyForm, query: ModelQuery) -> CopyModel | None:
    from ..algebra.types import type_bits
    try:
        bits = type_bits(form.value_type)
    except KeyError:
        return None
    return vector_copy(bits, f"{UNIVERSAL_COPY}<{form.value_type}>")


@dataclass(frozen=True)
class CpAsyncForm:
    """cp.async.<qualifiers>: its cp-size is the atom's bits per thread, not in the text."""
    qualifiers: tuple[str, ...]          # after `cp.async`, as written (`ca.shared.global.L2::128B`, lower-cased)

    @property
    def cache_global(self) -> bool:
        return CP_ASYNC_CG in self.qualifiers


def _parse_cp_async(instruction: Instruction) -> CpAsyncForm | None:
    if instruction.qualifiers[:1] != (CP_ASYNC,):
        return None
    return CpAsyncForm(instruction.qualifiers[1:])


def _build_cp_async(form: CpAsyncForm, query: ModelQuery) -> CopyModel | None:
    bits = query.bits_per_thread
    if bits is None:
        return None
    model = vector_copy(bits, f"cp.async.{'.'.join(form.qualifiers)} ({bits // 8} bytes)", direction="memory")
    # PTX ISA cp.async: cp-size is 4, 8 or 16 bytes, and .cg allows 16 only
    if bits not in CP_ASYNC_BITS:
        return dataclasses.replace(model, invalid=f"cp.async moves 4, 8 or 16 bytes, not {bits // 8}")
    if form.cache_global and bits != CP_ASYNC_CG_BITS:
        return dataclasses.replace(model, invalid=f"cp.async.cg moves 16 bytes only, not {bits // 8}")
    return model


# the element-wise atoms before UniversalCopy: a DefaultCopy atom name wins over a UniversalCopy instruction
def _assumed_alignment_bits(form: ElementCopyForm) -> int:
    return form.assumed_alignment_bits


ELEMENT_COPY_FAMILY = COPY_FAMILIES.register(InstructionFamily(
    "DefaultCopy / AutoVectorizingCopy", _parse_element_copy, _build_element_copy,
    cute_atoms=frozenset(ELEMENT_COPY_ALIGNMENT_BITS), assumed_alignment_bits=_assumed_alignment_bits))
UNIVERSAL_COPY_FAMILY = COPY_FAMILIES.register(InstructionFamily(
    UNIVERSAL_COPY, _parse_universal_copy, _build_universal_copy, cute_atoms=frozenset({UNIVERSAL_COPY})))
CP_ASYNC_FAMILY = COPY_FAMILIES.register(InstructionFamily(
    "cp.async", _parse_cp_async, _build_cp_async, ptx_opcodes=frozenset({CP_ASYNC_OPCODE})))
