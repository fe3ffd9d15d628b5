"""What CuTe builds for the Hopper data path: the GMMA shared-memory layout atoms, the wgmma descriptor of an
operand slice (as make_gmma_desc reads it off the layout), and the 2-D TMA boxes that fill a tile.  Blackwell's
UMMA reuses the same atoms (CuTe's UMMA::Layout_* are GMMA's, plus one MN-major 32-byte-atomic atom): its side,
make_umma_desc, is in cute/umma.py.

The layout atoms are facts (CuTe's `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, given in bits and
upcast to T, checked against CuTe's own prints in the oracle).  The descriptor and box derivations read the
strides off the layout the way the canonical forms of the PTX ISA define them; a layout that is not one of those
forms yields a descriptor or box that the theorems then refute with a witness.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..algebra import functions as F
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, SmemPtrFlag, Swizzle, compose3
from ..hardware.gmma_desc import Descriptor, GmmaSwizzle, Major
from ..hardware.umma_desc import UmmaLayoutType
from .operand import Operand

# (major, swizzle) -> (B of Swizzle<B,4,3>, shape in bits, stride in bits): MN-major atoms are (MN, K)
GMMA_ATOMS_BITS: dict[tuple[str, str], tuple[int, tuple[int, int], tuple[int, int]]] = {
    ("K", "INTER"): (0, (8, 128), (128, 1)),
    ("K", "SW32"): (1, (8, 256), (256, 1)),
    ("K", "SW64"): (2, (8, 512), (512, 1)),
    ("K", "SW128"): (3, (8, 1024), (1024, 1)),
    ("MN", "INTER"): (0, (128, 8), (1, 128)),
    ("MN", "SW32"): (1, (256, 8), (1, 256)),
    ("MN", "SW64"): (2, (512, 8), (1, 512)),
    ("MN", "SW128"): (3, (1024, 8), (1, 1024)),
}
# UMMA::Layout_MN_SW128_32B_Atom<T> (cute/atom/mma_traits_sm100.hpp): Sw<2,5,2> o smem_ptr o (1024,4):(1,1024) bits
SW128_32B = "SW128_32B"
UMMA_SW128_32B_BITS: tuple[Swizzle, tuple[int, int], tuple[int, int]] = (Swizzle(2, 5, 2), (1024, 4), (1, 1024))
# GMMA::Layout_* (UMMA:: names the same atoms), or UMMA's own MN-major 128-byte swizzle with 32-byte atomicity
ATOM_NAME = re.compile(r"^(?:cute::)?(?:(?:(?:SM90::)?GMMA::|UMMA::)?Layout_(K|MN)_(INTER|SW32|SW64|SW128)_Atom"
                       r"|(?:UMMA::)?Layout_(MN)_(SW128_32B)_Atom)$")
ATOM_MAJORS = re.compile(r"Major::(K|MN)\s*,\s*(?:(?:cute::)?(?:(?:SM90::)?GMMA|UMMA)::)?Major::(K|MN)")
SWIZZLE_OF_BITS = {0: GmmaSwizzle.NONE, 1: GmmaSwizzle.B32, 2: GmmaSwizzle.B64, 3: GmmaSwizzle.B128}


def gmma_layout_atom(major: str, swizzle: str, value_bits: int) -> ComposedLayout:
    """GMMA::Layout_<major>_<swizzle>_Atom<T>: Sw<B,4,3> o smem_ptr[T bits] o upcast<bits(T)>(the bit layout)."""
    b, shape, stride = GMMA_ATOMS_BITS[(major, swizzle)]
    inner = F.upcast(Layout(shape, stride), value_bits)
    return compose3(Swizzle(b, 4, 3), SmemPtrFlag(value_bits), inner)


def umma_sw128_32b_atom(value_bits: int) -> ComposedLayout:
    """UMMA::Layout_MN_SW128_32B_Atom<T>: Sw<2,5,2> o smem_ptr[T bits] o upcast<bits(T)>((1024,4):(1,1024))."""
    swizzle, shape, stride = UMMA_SW128_32B_BITS
    return compose3(swizzle, SmemPtrFlag(value_bits), F.upcast(Layout(shape, stride), value_bits))


def atom_from_name(name: str, value_bits: int) -> ComposedLayout | None:
    m = ATOM_NAME.match(name)
    if m is None:
        return None
    if m.group(4) == SW128_32B:
        return umma_sw128_32b_atom(value_bits)
    return gmma_layout_atom(m.group(1), m.group(2), value_bits)


def atom_major(atom_name: str, operand: Operand) -> Major | None:
    """The major-ness CuTe's GMMA atom name gives the operand: `..._SS<GMMA::Major::K,GMMA::Major::MN>`; the
    `_TN` atoms (tf32, 8-bit) are K-major for both; None when the name does not say."""
    m = ATOM_MAJORS.search(atom_name)
    if m:
        return Major(m.group(1) if operand is Operand.A else m.group(2))
    if re.search(r"_TN\b|_TN<", atom_name):
        return Major.K
    return None


# --- the layout of a tile, as the two engines see it -------------------------------------------------------------

@dataclass(frozen=True)
class SmemTile:
    """A shared-memory operand tile: (MN, K[, PIPE]) -> element offset, and how its swizzle reads addresses."""
    inner: Layout                 # (mn, k[, stage]) -> element offset before the swizzle
    swizzle: GmmaSwizzle          # the byte-address swizzle (Sw<B,4,3>), GMMA/TMA naming
    elem_bytes: int
    absolute: bool                # True: the swizzle reads absolute addresses (a GMMA smem_ptr layout);
                                  # False: offsets relative to the buffer (composition(Swizzle, layout))
    chunk_bytes: int = 16         # the swizzle's atomicity: 32 for UMMA's 128B_BASE32B (Sw<2,5,2>, swizzle B128)

    @property
    def layout_type(self) -> UmmaLayoutType:
        """The tcgen05 descriptor's layout type this tile's swizzle is."""
        return UmmaLayoutType.B128_BASE32B if self.chunk_bytes == 32 else UmmaLayoutType.of_gmma(self.swizzle)

    @property
    def byte_swizzle(self) -> Swizzle:
        """The swizzle on byte addresses: Sw<B,4,3> (16-byte chunks) or Sw<2,5,2> (32-byte chunks)."""
        chunk = self.chunk_bytes.bit_length() - 1
        return Swizzle(self.layout_type.bits, chunk, 7 - chunk)

    @property
    def repeat(self) -> int:
        """Bytes after which the swizzle pattern repeats (0: none)."""
        return self.layout_type.repeat

    @property
    def stages(self) -> int:
        return int(self.inner.mode(2).size()) if self.inner.rank() > 2 else 1

    @property
    def extent(self) -> tuple[int, int]:
        return int(self.inner.mode(0).size()), int(self.inner.mode(1).size())

    def offset(self, mn: Any, k: Any, stage: Any = 0) -> Any:
        """The element offset of (mn, k, stage) before the swizzle (ints or expressions)."""
        from ..symbolic.layouts import layout_expr
        coord = (mn, k, stage) if self.inner.rank() > 2 else (mn, k)
        if all(isinstance(c, int) for c in coord):
            return int(self.inner(coord))
        return layout_expr(self.inner, coord)


def smem_tile(layout: Any, elem_bits: int, absolute: bool, umma: bool = False) -> SmemTile | str:
    """The tile of a check's smem layout (position-independent form, element units); a reason when the layout's
    swizzle is not one the tensor core and TMA know (Sw<B,4,3> on bytes; with `umma`, also tcgen05's
    128B_BASE32B, Sw<2,5,2> on bytes)."""
    if elem_bits % 8:
        return f"{elem_bits}-bit elements: TMA and wgmma move whole bytes"
    e = elem_bits // 8
    if isinstance(layout, Layout):
        return SmemTile(layout, GmmaSwizzle.NONE, e, absolute)
    if not isinstance(layout, ComposedLayout) or not isinstance(layout.a, Swizzle) or int(layout.offset) != 0:
        return f"the layout {layout} is not a swizzle over a plain layout"
    sw = layout.a
    shift = e.bit_length() - 1                       # the element-level swizzle is Sw<B, 4 - log2 E, 3>
    if sw.B == 0:
        return SmemTile(layout.b, GmmaSwizzle.NONE, e, absolute)
    if umma and (sw.B, sw.M + shift, sw.S) == (2, 5, 2):
        return SmemTile(layout.b, GmmaSwizzle.B128, e, absolute, chunk_bytes=32)
    if sw.M + shift != 4 or sw.S != 3 or sw.B not in SWIZZLE_OF_BITS:
        return (f"the swizzle {sw} of {elem_bits}-bit elements is Sw<{sw.B},{sw.M + shift},{sw.S}> on bytes; the "
                "tensor core and TMA swizzle 16-byte chunks only: Sw<1|2|3,4,3>"
                + (" (or tcgen05's 32-byte chunks of 128B_BASE32B: Sw<2,5,2>)" if umma else ""))
    return SmemTile(layout.b, SWIZZLE_OF_BITS[sw.B], e, absolute)


# --- make_gmma_desc ---------------------------------------------------------------------------------------------

UNUSED_FIELD = 16     # what a stride the instruction never reads is set to (one 16-byte unit)


def gmma_descriptor(tile: SmemTile, major: Major, origin: tuple[int, int], stage: int, shape: tuple[int, int],
                    base: int = 0) -> Descriptor:
    """The descriptor of the instruction's (rows x k) slice at `origin` (mn0, k0) of `stage`, read off the layout
    the way the canonical forms define LBO and SBO; `base` is the tile's byte address."""
    e, span = tile.elem_bytes, tile.swizzle.span
    per16 = 16 // e
    extent = shape

    def step(dmn: int, dk: int, limit: tuple[int, int]) -> int:
        return slice_step(tile, origin, stage, (dmn, dk), limit)

    if major is Major.K:
        sbo = step(8, 0, extent)
        lbo = step(0, per16, extent) if not span else UNUSED_FIELD
    elif not span:
        sbo, lbo = step(per16, 0, extent), step(0, 8, extent)
    else:
        lbo, sbo = step(span // e, 0, extent), step(0, 8, extent)
    return Descriptor(slice_start(tile, origin, stage, base), lbo, sbo, 0, tile.swizzle)


def slice_step(tile: SmemTile, origin: tuple[int, int], stage: int, delta: tuple[int, int],
               extent: tuple[int, int]) -> int:
    """Bytes from the slice's element `origin` to origin + delta (dmn, dk): a stride as a descriptor field holds it;
    UNUSED_FIELD when the step leaves the slice (the instruction never reads that stride)."""
    (mn0, k0), (dmn, dk) = origin, delta
    if dmn >= extent[0] or dk >= extent[1]:
        return UNUSED_FIELD
    return (tile.offset(mn0 + dmn, k0 + dk, stage) - tile.offset(mn0, k0, stage)) * tile.elem_bytes


def slice_start(tile: SmemTile, origin: tuple[int, int], stage: int, base: int = 0) -> int:
    """The byte address of the slice's first element (before any swizzle): the descriptor's start address."""
    return base + tile.offset(origin[0], origin[1], stage) * tile.elem_bytes


# --- make_tma_copy ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TmaBoxes:
    """The 2-D boxes covering one stage of a tile: box (inner, outer) elements and their origins (mn, k)."""
    box: tuple[int, int]
    inner_mode: int                       # 0: the box's inner dimension runs along MN, 1: along K
    origins: tuple[tuple[int, int], ...]  # (mn, k) of each box's first element

    def box_of(self, mn: Any, k: Any) -> tuple[Any, Any, Any, Any]:
        """(inner index, outer index) of (mn, k) inside its box, and the box's index along each mode."""
        inner, outer = (mn, k) if self.inner_mode == 0 else (k, mn)
        return inner % self.box[0], outer % self.box[1], inner // self.box[0], outer // self.box[1]


def tma_boxes(tile: SmemTile, inner_mode: int, limit: int = 256) -> TmaBoxes:
    """The box make_tma_copy can use: as many elements as are contiguous along the global tensor's contiguous mode
    (at most one swizzle span, at most `limit`), and as many rows as follow at the box's row pitch."""
    e, span = tile.elem_bytes, tile.swizzle.span
    extent = tile.extent
    outer_mode = 1 - inner_mode

    def at(i: int, j: int) -> int:   # i along the inner mode, j along the outer one
        c = [0, 0]
        c[inner_mode], c[outer_mode] = i, j
        return tile.offset(c[0], c[1], 0)

    origin = at(0, 0)
    n0 = 1
    cap = min(limit, extent[inner_mode], span // e if span else limit)
    while n0 < cap and at(n0, 0) == origin + n0:
        n0 += 1
    pitch = span // e if span else n0
    n1 = 1
    while n1 < min(limit, extent[outer_mode]) and at(0, n1) == origin + n1 * pitch:
        n1 += 1
    origins = []
    for j in range(0, extent[outer_mode], n1):
        for i in range(0, extent[inner_mode], n0):
            c = [0, 0]
            c[inner_mode], c[outer_mode] = i, j
            origins.append((c[0], c[1]))
    return TmaBoxes((n0, n1), inner_mode, tuple(origins))
