"""What CuTe builds for Blackwell's tcgen05.mma (UMMA) operands in shared memory: the atom's per-CTA operand shape
and make_umma_desc's descriptor of an operand slice (cute/arch/mma_sm100_desc.hpp, read to understand).

The shared-memory layout atoms are GMMA's (cute/gmma.py: UMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom are
`using` declarations of them) plus UMMA::Layout_MN_SW128_32B_Atom, MN-major only.  make_umma_desc reads LBO and SBO
off the layout exactly as make_gmma_desc does for the 16-byte-atomic layouts (the same canonical forms; the
descriptor differs in its encoding only, hardware/umma_desc.py); for 128B_BASE32B it divides the MN-major layout
into (8 x 16-byte, n) along M/N and (4, k) along K: LBO the stride between 128-byte M/N blocks, SBO the stride
between 4-row K groups.
"""
from __future__ import annotations

import re

from ..hardware.gmma_desc import Major
from ..hardware.umma_desc import BASE32B_K_ROWS, UmmaDescriptor, UmmaLayoutType
from ..specfile.model import UMMA_INSTRUCTION, MMAAtomSpec
from .gmma import UNUSED_FIELD, SmemTile, gmma_descriptor, slice_start, slice_step
from .operand import Operand

CTA_GROUP = re.compile(r"\.cta_group::(\d)")
ELEMENT_BITS_PER_K = 256            # an instruction's K is 256 bits of A / B: K = 256 / bits(T) (32 bytes)


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
    layout = tile.layout_type
    if layout is not UmmaLayoutType.B128_BASE32B:
        g = gmma_descriptor(tile, major, origin, stage, shape, base)
        return UmmaDescriptor(g.start, g.lbo, g.sbo, g.base_offset, UmmaLayoutType.of_gmma(g.swizzle))
    start = slice_start(tile, origin, stage, base)
    if major is Major.K:   # CuTe static_asserts; the descriptor's field_problem says why
        return UmmaDescriptor(start, UNUSED_FIELD, slice_step(tile, origin, stage, (8, 0), shape), 0, layout)
    block = layout.span // tile.elem_bytes          # elements of one 128-byte M/N block
    lbo = slice_step(tile, origin, stage, (block, 0), shape)
    sbo = slice_step(tile, origin, stage, (0, BASE32B_K_ROWS), shape)
    return UmmaDescriptor(start, lbo, sbo, 0, layout)
