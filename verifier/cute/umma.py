"""What CuTe builds for Blackwell's tcgen05.mma (UMMA) operands in shared memory: the atom's per-CTA operand shape
and make_umma_desc's descriptor of an operand slice (cute/arch/mma_sm100_desc.hpp, read to understand).

The shared-memory layout atoms are GMMA's (cute/gmma.py: UMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom are
`using` declarations of them) plus UMMA::Layout_MN_SW128_32B_Atom, MN-major only.  make_umma_desc reads LBO and SBO
off the layout exactly as make_gmma_desc does for the 16-byte-atomic layouts (the same canonical forms; the
descriptor differs in its encoding only, hardware/umma_desc.py); for 128B_BASE32B it divides the MN-major layout
into (8 x 16-byte, n) along M/N and (4, k) along K: LBO the stride between 128-byte M/N blocks, SBO the stride
between 4-row K groups.

The UMMA-only pieces of the tile live here, not in cute/gmma.py (whose Hopper users never load this module):
UMMA::Layout_MN_SW128_32B_Atom, the 128B_BASE32B swizzle the tile parser accepts for tcgen05, and the layout type a
tile is for the tcgen05 descriptor.
"""
from __future__ import annotations

import re
from typing import Any

from ..hardware.smem_operand import GmmaSwizzle, Major
from ..hardware.umma_desc import BASE32B_K_ROWS, UmmaDescriptor, UmmaLayoutType
from ..specfile.model import UMMA_INSTRUCTION, MMAAtomSpec
from ..algebra.layout import Layout
from .gmma import (GMMA_SWIZZLES, K_ROWS, UNUSED_FIELD, U128_BITS, CanonicalForm, Refused, SmemTile, WideSwizzle,
                   canonical_refusal, canonical_strides, slice_start, slice_step, smem_tile)
from .operand import Operand

CTA_GROUP = re.compile(r"\.cta_group::(\d)")
ELEMENT_BITS_PER_K = 256            # an instruction's K is 256 bits of A / B: K = 256 / bits(T) (32 bytes)
# tcgen05's 128B_BASE32B: Sw<2,5,2> on bytes, 32-byte chunks in 128-byte rows
BASE32B_SWIZZLE = WideSwizzle((2, 5, 2), GmmaSwizzle.B128, 32,
                              " (or tcgen05's 32-byte chunks of 128B_BASE32B: Sw<2,5,2>)")
UMMA_SWIZZLES = GMMA_SWIZZLES + (BASE32B_SWIZZLE.byte_swizzle,)   # the byte swizzles make_umma_desc's layout_type takes
BASE32B_K_RULE = "SWIZZLE_128B_BASE32B is invalid for Major-K"   # make_umma_desc<Major::K>'s static_assert


def umma_smem_tile(layout: Any, elem_bits: int, absolute: bool) -> SmemTile | str:
    """The tile of a tcgen05 operand's smem layout: GMMA's (cute/gmma.py smem_tile) or 128B_BASE32B's."""
    return smem_tile(layout, elem_bits, absolute, BASE32B_SWIZZLE)


def layout_type(tile: SmemTile) -> UmmaLayoutType:
    """The tcgen05 descriptor's layout type this tile's swizzle is."""
    return UmmaLayoutType.B128_BASE32B if tile.chunk_bytes == 32 else UmmaLayoutType.of_gmma(tile.swizzle)


def is_umma(atom: MMAAtomSpec) -> bool:
    """The atom issues tcgen05.mma (any kind, either CTA group): its operands are read through the UMMA descriptor."""
    return (atom.instruction or "").strip().startswith(UMMA_INSTRUCTION)


def cta_group(atom: MMAAtomSpec) -> int:
    """1 or 2: how many CTAs (SMs) one instruction spans (`.cta_group::2` and CuTe's ThrID Layout<_2>)."""
    m = CTA_GROUP.search(atom.instruction or "")
    return int(m.group(1)) if m else int(atom.thr_id.size())


def operand_rows(atom: MMAAtomSpec, operand: Operand) -> int:
    """The M (A) or N (B) rows one CTA's descriptor covers: with `.cta_group::2` each CTA reads half of M for A and
    half of N for B from its own shared memory."""
    m, n, _ = atom.shape_mnk
    return (m if operand is Operand.A else n) // cta_group(atom)


def umma_descriptor(tile: SmemTile, major: Major, origin: tuple[int, int], stage: int, shape: tuple[int, int],
                    base: int = 0) -> UmmaDescriptor:
    """What make_umma_desc builds for the (rows x k) slice at `origin` of `stage`; `base` is the tile's byte address.
    The version field is 1, the leading-dimension mode relative and the base offset 0, as CuTe sets them."""
    layout = layout_type(tile)
    start = slice_start(tile, origin, stage, base)
    if layout is not UmmaLayoutType.B128_BASE32B:     # the canonical forms make_gmma_desc reads, too
        lbo, sbo = canonical_strides(tile, major, origin, stage, shape)
        return UmmaDescriptor(start, lbo, sbo, 0, layout)
    if major is Major.K:   # CuTe static_asserts; the descriptor's field_problem says why
        return UmmaDescriptor(start, UNUSED_FIELD, slice_step(tile, origin, stage, (8, 0), shape), 0, layout)
    block = layout.span // tile.elem_bytes          # elements of one 128-byte M/N block
    lbo = slice_step(tile, origin, stage, (block, 0), shape)
    sbo = slice_step(tile, origin, stage, (0, BASE32B_K_ROWS), shape)
    return UmmaDescriptor(start, lbo, sbo, 0, layout)


def umma_desc_refusal(slice_layout: Layout, elem_bits: int, major: Major, tile: SmemTile) -> Refused | None:
    """The static_assert with which make_umma_desc refuses the slice it is given (cute/gmma.py canonical_refusal:
    the forms are make_gmma_desc's without its K-size asserts, 128B_BASE32B's MN-major atom (8, 4) units and no
    K-major form), and what it met; None when it builds the descriptor."""
    layout = layout_type(tile)
    if layout is UmmaLayoutType.B128_BASE32B:
        if major is Major.K:
            return BASE32B_K_RULE, f"a {major.value}-major read of the 128B_BASE32B tile {tile.inner}"
        form = CanonicalForm("UMMA", major, layout.span * 8 // U128_BITS, BASE32B_K_ROWS)
    else:
        form = CanonicalForm("UMMA", major, max(1, layout.span * 8 // U128_BITS), K_ROWS)
    return canonical_refusal(slice_layout, elem_bits, form)


UTCCP_SOURCE_FORM = CanonicalForm("UMMA", Major.K, 1, K_ROWS)     # SWIZZLE_NONE, K-major: a tcgen05.cp source
BYTE_BITS = 8


def utccp_source_refusal(vec_bytes: Layout, rows: int, row_bytes: int) -> Refused | None:
    """get_utccp_smem_desc_tensor's make_umma_desc<K> of a tcgen05.cp's shared source: the copy's value mode in
    bytes (layout<0> of the partitioned tensor, the same for every copy), flattened and reshaped to the atom's core
    matrices (rows, row_bytes) (CuTe's with_shape: a composition), must be the unswizzled K-major canonical form;
    its static_assert and what it met, or None."""
    from ..algebra import functions as F
    from ..algebra.inttuple import AlgebraError
    try:
        block = F.composition(vec_bytes.flatten(), Layout((rows, row_bytes)))
    except AlgebraError as e:
        return e.rule, f"the tcgen05.cp source {vec_bytes} as {rows} rows of {row_bytes} bytes"
    return canonical_refusal(block, BYTE_BITS, UTCCP_SOURCE_FORM)
