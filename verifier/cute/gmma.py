"""What CuTe builds for the Hopper data path: the GMMA shared-memory layout atoms, the wgmma descriptor of an
operand slice (as make_gmma_desc reads it off the layout), and the 2-D TMA boxes that fill a tile.  Blackwell's
UMMA reuses the same atoms (CuTe's UMMA::Layout_* are GMMA's, plus one MN-major 32-byte-atomic atom): its side,
make_umma_desc and that atom, is in cute/umma.py, which this module never imports at its top (a Hopper check loads
no Blackwell model; only the UMMA atom's name, when a layout names it, loads cute/umma.py).

The layout atoms are facts (CuTe's `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, given in bits and
upcast to T, checked against CuTe's own prints in the oracle).  The descriptor and box derivations read the
strides off the layout the way the canonical forms of the PTX ISA define them.  What make_gmma_desc /
make_umma_desc and make_tma_copy refuse to build (their static_asserts on the canonical forms and the swizzle) is
computed here too (`canonical_refusal`, `builder_swizzle_rules`): the theorems report such a configuration refused;
a descriptor or box a kernel gives itself is read as given, and refuted with a witness where it reads wrong.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, Swizzle
from ..hardware.smem_operand import GmmaSwizzle, Major
from .operand import Operand

if TYPE_CHECKING:     # make_gmma_desc's result: the wgmma descriptor model loads with a Hopper check
    from ..hardware.gmma_desc import Descriptor

ATOM_MAJORS = re.compile(r"Major::(K|MN)\s*,\s*(?:(?:cute::)?(?:(?:SM90::)?GMMA|UMMA)::)?Major::(K|MN)")
SWIZZLE_OF_BITS = {0: GmmaSwizzle.NONE, 1: GmmaSwizzle.B32, 2: GmmaSwizzle.B64, 3: GmmaSwizzle.B128}
# CUTLASS's SM90 collectives' static_assert on their pipeline (the RS, mixed-input and sparse mainloops' words)
MIN_STAGES = 2
STAGES_RULE = "Specialization requires Stages set to value 2 or more."
# the register-sourced (RS) mainloops' (sm90_mma_tma_gmma_rs_warpspecialized.hpp, its multistage and mixed-input
# forms): at class scope the atom, in the TMA form's mma() the k-blocks
RS_ATOM_RULE = "MMA atom must source A from rmem and B operand from smem_desc for this mainloop."
RS_MIN_K_BLOCKS = 3
RS_K_BLOCKS_RULE = "RS loops require more than 2 MMA k-iterations for correctness."


def rs_mainloop_refusal(stages: int, a_from_shared: bool, k_blocks: int, min_k_blocks: int = RS_MIN_K_BLOCKS,
                        k_blocks_rule: str = RS_K_BLOCKS_RULE) -> tuple[str, str, str] | None:
    """The first of an RS mainloop's static_asserts that fails, in source order, as (rule, what it was given, the
    check field it reads: smem for the stages, mma for the atom, tile for the k-blocks); None when they hold.
    `a_from_shared`: the atom's A is a shared-memory descriptor (an SS wgmma); `k_blocks`: the tiled MMA's k-blocks
    of a k-tile, at least `min_k_blocks` (0: a form whose mma() asserts none)."""
    if stages < MIN_STAGES:
        return STAGES_RULE, f"{stages} stage(s)", "smem"
    if a_from_shared:
        return RS_ATOM_RULE, "an SS wgmma atom (A through a shared-memory descriptor)", "mma"
    if k_blocks < min_k_blocks:
        return k_blocks_rule, f"{k_blocks} k-blocks a k-tile, fewer than {min_k_blocks}", "tile"
    return None


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
    def swizzle_bits(self) -> int:
        """B of the byte swizzle: log2 of the chunks in one span-wide row (3, 2, 1; 2 for 32-byte chunks of 128)."""
        span = self.swizzle.span
        return (span // self.chunk_bytes).bit_length() - 1 if span else 0

    @property
    def byte_swizzle(self) -> Swizzle:
        """The swizzle on byte addresses: Sw<B,4,3> (16-byte chunks) or Sw<2,5,2> (32-byte chunks)."""
        chunk = self.chunk_bytes.bit_length() - 1
        return Swizzle(self.swizzle_bits, chunk, 7 - chunk)

    @property
    def repeat(self) -> int:
        """Bytes after which the swizzle pattern repeats (0: none): 2^B rows of 128 bytes."""
        bits = self.swizzle_bits
        return (1 << bits) * 128 if bits else 0

    @property
    def stages(self) -> int:
        return int(self.inner.mode(2).size()) if self.inner.rank() > 2 else 1

    @property
    def extent(self) -> tuple[int, int]:
        return int(self.inner.mode(0).size()), int(self.inner.mode(1).size())

    @cached_property
    def mode_offsets(self) -> tuple[list[int], ...]:
        """Each top-level mode's offsets, [mode(0), mode(1), ...] (mn, k, stage): an integer coordinate's offset is
        the sum of its modes' (crd2idx adds them), so a tile read at many points walks each mode once."""
        return tuple(self.inner.mode(r).values() for r in range(self.inner.rank()))

    def offset(self, mn: Any, k: Any, stage: Any = 0) -> Any:
        """The element offset of (mn, k, stage) before the swizzle (ints or expressions)."""
        from ..symbolic.layouts import layout_expr
        tables = self.mode_offsets
        coord = (mn, k, stage) if len(tables) > 2 else (mn, k)
        if all(isinstance(c, int) for c in coord):
            if len(tables) == len(coord) and all(0 <= c < len(t) for c, t in zip(coord, tables)):
                return sum(t[c] for c, t in zip(coord, tables))
            offset = self.inner(coord)        # a coordinate past a mode's extent: CuTe's crd2idx extends it
            assert not isinstance(offset, Layout)      # an integer coordinate: an offset, never a slice
            return int(offset)
        return layout_expr(self.inner, coord)


@dataclass(frozen=True)
class WideSwizzle:
    """A byte swizzle of wider chunks than GMMA's 16 bytes that another engine's descriptor reads (tcgen05's
    128B_BASE32B, cute/umma.py): the tile parser accepts it when the caller names it."""
    byte_swizzle: tuple[int, int, int]   # (B, M, S) of Sw<B,M,S> on byte addresses
    swizzle: GmmaSwizzle                 # its span, in GMMA naming
    chunk_bytes: int
    mention: str                         # what the refusal of any other swizzle adds


def smem_tile(layout: Any, elem_bits: int, absolute: bool, wide: WideSwizzle | None = None) -> SmemTile | str:
    """The tile of a check's smem layout (position-independent form, element units); a reason when the layout's
    swizzle is not one the tensor core and TMA know (Sw<B,4,3> on bytes; with `wide`, also that one)."""
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
    if wide is not None and (sw.B, sw.M + shift, sw.S) == wide.byte_swizzle:
        return SmemTile(layout.b, wide.swizzle, e, absolute, chunk_bytes=wide.chunk_bytes)
    if sw.M + shift != 4 or sw.S != 3 or sw.B not in SWIZZLE_OF_BITS:
        return (f"the swizzle {sw} of {elem_bits}-bit elements is Sw<{sw.B},{sw.M + shift},{sw.S}> on bytes; the "
                "tensor core and TMA swizzle 16-byte chunks only: Sw<1|2|3,4,3>"
                + (wide.mention if wide is not None else ""))
    return SmemTile(layout.b, SWIZZLE_OF_BITS[sw.B], e, absolute)


# --- make_gmma_desc ---------------------------------------------------------------------------------------------

UNUSED_FIELD = 16     # what a stride the instruction never reads is set to (one 16-byte unit)


def gmma_descriptor(tile: SmemTile, major: Major, origin: tuple[int, int], stage: int, shape: tuple[int, int],
                    base: int = 0) -> Descriptor:
    """The descriptor of the instruction's (rows x k) slice at `origin` (mn0, k0) of `stage`, read off the layout
    the way the canonical forms define LBO and SBO; `base` is the tile's byte address."""
    from ..hardware.gmma_desc import Descriptor
    lbo, sbo = canonical_strides(tile, major, origin, stage, shape)
    return Descriptor(slice_start(tile, origin, stage, base), lbo, sbo, 0, tile.swizzle)


def canonical_strides(tile: SmemTile, major: Major, origin: tuple[int, int], stage: int,
                      shape: tuple[int, int]) -> tuple[int, int]:
    """(LBO, SBO) in bytes of the (rows x k) slice at `origin` of `stage` in the PTX ISA's canonical forms of the
    16-byte-atomic layouts (none, 32B, 64B, 128B), which wgmma's and tcgen05's descriptors share."""
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
    return lbo, sbo


def slice_step(tile: SmemTile, origin: tuple[int, int], stage: int, delta: tuple[int, int],
               extent: tuple[int, int]) -> int:
    """Bytes from the slice's element `origin` to origin + delta (dmn, dk): a stride as a descriptor field holds it;
    UNUSED_FIELD when the step leaves the slice (the instruction never reads that stride)."""
    (mn0, k0), (dmn, dk) = origin, delta
    if dmn >= extent[0] or dk >= extent[1]:
        return UNUSED_FIELD
    step: int = (tile.offset(mn0 + dmn, k0 + dk, stage) - tile.offset(mn0, k0, stage)) * tile.elem_bytes
    return step


def slice_start(tile: SmemTile, origin: tuple[int, int], stage: int, base: int = 0) -> int:
    """The byte address of the slice's first element (before any swizzle): the descriptor's start address."""
    start: int = base + tile.offset(origin[0], origin[1], stage) * tile.elem_bytes
    return start


# --- what make_gmma_desc and make_umma_desc accept: their static_asserts ------------------------------------------

U128_BITS = 128        # both builders recast the slice to uint128_t (16-byte units) before reading it
LAYOUT_SWIZZLE_RULE = "Unsupported layout swizzle"      # layout_type's static_assert (make_gmma_desc, make_umma_desc)
TMA_SWIZZLE_RULE = "Unsupported layout swizzle."        # make_tma_copy's (get_tma_swizzle_bits / _base)
# a composition(Swizzle, Layout) tile: layout_type takes a tensor whose swizzle is in its smem pointer and a plain
# Layout; for a composed layout there is no overload, a hard error of the compiler rather than a static_assert
COMPOSED_RULE = 'no instance of function template "layout_type" matches the argument list'
COMPOSED_DETAIL = ("{builder} reads the swizzle from the shared-memory pointer (GMMA::Layout_*_Atom, Sw<B,4,3> o "
                   "smem_ptr o layout); a composition(Swizzle, Layout) tile has its swizzle in the layout, which no "
                   "layout_type overload takes")
CANONICAL = "Not a canonical {engine}_{major} Layout: "
MN_K_SIZE = ("Expected K-size 256/sizeof_bits<T> for dense or (128|512)/sizeof_bits<T> for sparse.")
K_K_SIZE = "Expected K-size 2 for dense or 4 for sparse (in units of uint128_t)."
MN_SIZE = "Expected MN-size multiple of 8."
PROFILE, STRIDE = "Expected profile failure.", "Expected stride failure."
K_ROWS = 8             # a K-major canonical form: 8 rows of 16-byte units, then SBO
K_UNITS = (2, 4)       # ... and 2 (dense) or 4 (sparse) 16-byte units along K (make_gmma_desc's K-size)
Refused = tuple[str, str]   # a builder's static_assert (CuTe's message) and what it met, in words


@dataclass(frozen=True)
class CanonicalForm:
    """The canonical layouts one builder accepts for one major-ness (in 16-byte units): MN-major
    ((mn_atom,n),(k_atom,k)):((1,LBO),(mn_atom,SBO)), K-major ((8,n),(2,k)):((mn_atom,SBO),(1,LBO)); a stride the
    interleaved form (mn_atom 1) leaves free is not asserted."""
    engine: str                     # "GMMA" or "UMMA", as the asserts name it
    major: Major
    mn_atom: int                    # 16-byte units of one swizzle row: 1, 2, 4, 8 (none, 32B, 64B, 128B)
    k_atom: int = K_ROWS            # MN-major: rows of one swizzle atom along K (4 for UMMA's 128B_BASE32B)
    k_sizes: tuple[int, ...] = ()   # the K extents of the slice the builder asserts (empty: none asserted)


def canonical_refusal(slice_layout: Layout, elem_bits: int, form: CanonicalForm) -> Refused | None:
    """The static_assert with which the descriptor builder refuses the slice it is given (the element layout of one
    instruction's (MN, K) slice, its swizzle in the pointer), and what it met; None when the slice is canonical.
    The builder recasts the slice to 16-byte units, divides it by the form's atom (logical_divide), and asserts the
    profile ((_,_),(_,_)) and the atom's strides."""
    from ..algebra import functions as F
    from ..algebra.inttuple import AlgebraError, is_tuple
    rule = CANONICAL.format(engine=form.engine, major=form.major.value)
    try:
        units = F.upcast(slice_layout, U128_BITS // elem_bits)
    except AlgebraError as e:                        # recast<uint128_t> itself refuses
        return e.rule, f"recast<uint128_t> of {slice_layout}"
    seen = f"the slice {slice_layout} of {elem_bits}-bit elements is {units} in 16-byte units"
    mn_size, k_size = int(units.mode(0).size()), int(units.mode(1).size())
    if form.major is Major.K and mn_size % K_ROWS:
        return rule + MN_SIZE, seen
    if form.k_sizes and k_size not in form.k_sizes:
        return rule + (K_K_SIZE if form.major is Major.K else MN_K_SIZE), seen
    atom = ((K_ROWS, K_UNITS[0]) if form.major is Major.K else (form.mn_atom, form.k_atom))
    try:
        divided = F.logical_divide(units, (Layout(atom[0], 1), Layout(atom[1], 1)))
    except AlgebraError as e:                        # the atom does not divide the slice
        return e.rule, seen
    seen += f", divided by the atom {atom}: {divided}"
    shape, stride = divided.shape, divided.stride
    if not (is_tuple(shape) and len(shape) == 2
            and all(is_tuple(m) and len(m) == 2 and not any(is_tuple(x) for x in m) for m in shape)):
        return rule + PROFILE, seen
    interleaved = form.mn_atom == 1
    if form.major is Major.MN:
        ok = (interleaved or int(stride[0][0]) == 1) and int(stride[1][0]) == form.mn_atom
    else:
        ok = int(stride[0][0]) == form.mn_atom and (interleaved or int(stride[1][0]) == 1)
    return None if ok else (rule + STRIDE, seen)


def descriptor_slice(smem: Any, rows: int, k: int) -> Layout:
    """The layout a descriptor builder is given (in the check's element units; a swizzle is the pointer's): make_
    fragment_A/B calls it on mode 0 of the operand's partition, one instruction's (rows, k) elements of stage 0.
    An SS atom's value layout is (rows, k):(1, rows) for GMMA and UMMA alike, so that mode is the tile's first
    (rows, k) block, each mode coalesced as the partition's composition leaves it."""
    from ..algebra import functions as F
    from ..algebra.inttuple import Underscore
    from ..algebra.ops import coalesce
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    stage0 = inner(Underscore, Underscore, 0) if inner.rank() > 2 else inner
    assert isinstance(stage0, Layout)
    return coalesce(F.composition(stage0, (Layout(rows, 1), Layout(k, 1))), (1, 1))


def gmma_form(major: Major, swizzle: GmmaSwizzle, elem_bits: int) -> CanonicalForm:
    """make_gmma_desc's canonical form for a tile of this swizzle: its K-size asserts included (MN-major: 256 bits
    of K for a dense operand, 128 or 512 for a sparse A or B; K-major: 2 or 4 16-byte units)."""
    mn_atom = max(1, swizzle.span * 8 // U128_BITS)
    k_sizes = K_UNITS if major is Major.K else tuple(bits // elem_bits for bits in (256, 128, 512))
    return CanonicalForm("GMMA", major, mn_atom, K_ROWS, k_sizes)


def builder_swizzle_rules(layout: Any, elem_bits: int, absolute: bool, accepted: tuple[tuple[int, int, int], ...],
                          builder: str) -> tuple[Refused | None, Refused | None]:
    """(make_tma_copy's, the descriptor builder's) refusal of a swizzled tile's swizzle, None where one accepts it:
    a smem_ptr swizzle (`absolute`) is on byte addresses and must be one of `accepted` (B, M, S) for the builder,
    Sw<0..3,4,3>, Sw<2,5,2> or Sw<2,6,_> for TMA; a plain composition's swizzle is read by make_tma_copy as written,
    in elements, and has no layout_type at all."""
    if not isinstance(layout, ComposedLayout) or not isinstance(layout.a, Swizzle):
        return None, None
    sw = layout.a
    if not absolute:
        tma = (None if _tma_accepts(sw.B, sw.M, sw.S) else
               (TMA_SWIZZLE_RULE, f"make_tma_copy reads the swizzle {sw} of the plain composition {layout} as "
                                  f"written (on {elem_bits}-bit elements, not bytes)"))
        return tma, (COMPOSED_RULE, COMPOSED_DETAIL.format(builder=builder))
    if elem_bits < 8 or elem_bits % 8:
        return None, None                     # sub-byte elements: the tile parser says why
    b, m, s = sw.B, sw.M + (elem_bits // 8).bit_length() - 1, sw.S
    seen = f"the swizzle {sw} of {elem_bits}-bit elements is Sw<{b},{m},{s}> on bytes"
    return (None if _tma_accepts(b, m, s) else (TMA_SWIZZLE_RULE, f"make_tma_copy: {seen}"),
            None if (b, m, s) in accepted else
            (LAYOUT_SWIZZLE_RULE, f"{builder}'s layout_type: {seen}; it takes "
                                  + ", ".join(f"Sw<{x},{y},{z}>" for x, y, z in accepted)))


def _tma_accepts(b: int, m: int, s: int) -> bool:
    """get_tma_swizzle_bits and get_tma_swizzle_base accept Sw<B,M,S>: M 4 with B 0-3 and S 3, M 5 with B 2 and
    S 2, or M 6 with B 2."""
    return (m == 4 and b <= 3 and s == 3) or (m == 5 and b == 2 and s == 2) or (m == 6 and b == 2)


GMMA_SWIZZLES = tuple((b, 4, 3) for b in SWIZZLE_OF_BITS)   # the byte swizzles make_gmma_desc's layout_type takes


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


def tma_boxes(tile: SmemTile, inner_mode: int, limit: int = 256, inner_limit: int | None = None) -> TmaBoxes:
    """The box make_tma_copy can use: as many elements as are contiguous along the global tensor's contiguous mode
    (at most one swizzle span, at most `inner_limit`, default `limit`), and as many rows as follow at the box's row
    pitch (at most `limit`)."""
    e, span = tile.elem_bytes, tile.swizzle.span
    extent = tile.extent
    outer_mode = 1 - inner_mode

    along_inner, along_outer = tile.mode_offsets[inner_mode], tile.mode_offsets[outer_mode]

    def at(i: int, j: int) -> int:   # i along the inner mode, j along the outer one, of stage 0 (stage 0 is offset 0)
        return along_inner[i] + along_outer[j]

    origin = at(0, 0)
    n0 = 1
    first = limit if inner_limit is None else inner_limit
    cap = min(first, extent[inner_mode], span // e if span else first)
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
