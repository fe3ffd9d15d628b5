"""Tensor-memory copies as CuTe builds them: make_tmem_copy (make_cotiled_copy over TMEM addresses).

A TMEM tensor's layout maps a tile coordinate to a TMEM address in units of its 32-bit element: lane << 16 |
column (CuTe's `TMEM::DP<uint32_t>` = 1 << 16 per lane).  make_tmem_copy puts the four warps of a warpgroup
on the four lane quarters — `atom_t_layout = (32,4):(0, 32 * DP)`, every thread of a warp at the same address —
and the atom's values where its ValID says (the instruction's tile: data bit -> TMEM bit address), then lets
make_cotiled_copy find, through `left_inverse` of the tensor's layout, which tile coordinate each (thread, value)
is.  That inverse is where a TMEM layout that is not a compact image of its coordinates goes wrong (CUTLASS #2094):
the theorems (theorems/tmem_theorems.py) compare what it yields with what the instruction reads.
"""
from __future__ import annotations

from ..algebra import functions as F
from ..algebra.inttuple import AlgebraError, product_each
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import coalesce, filter_layout, left_inverse
from ..hardware.tmem_copy import CELL_BITS, TmemForm, WARP_LANE_QUARTER
from .copy import TiledCopy, TypedCopyAtom

MEMORY_NOT_IN_DATA = "The memory pointed to by AtomTVLayout does not exist in the DataLayout."
DP_BITS = 1 << 21                   # one TMEM lane in bit addressing (lane << 16 of 32-bit cells)
DP_CELLS = 1 << 16                  # one TMEM lane in 32-bit-cell addressing (TMEM::DP<uint32_t>)
WARPS = 4                           # make_tmem_copy spans one warpgroup


def val_id(form: TmemForm) -> Layout:
    """The instruction's tile as TMEM bit addresses: data bit (lane-major, `bits_per_lane` per lane) -> address
    bit.  Packed 16-bit forms keep each 16-bit value in the low half of its own 32-bit column."""
    if form.packed:
        return Layout(((16, form.bits_per_lane // 16), form.shape.lanes), ((1, CELL_BITS), DP_BITS))
    return Layout((form.bits_per_lane, form.shape.lanes), (1, DP_BITS))


def make_cotiled_copy(atom: TypedCopyAtom, atom_tv_to_addr: Layout, coord_to_addr: Layout) -> TiledCopy:
    """CuTe's make_cotiled_copy: the TiledCopy whose (thread, value) are the tile coordinates the atom's addresses
    name, found through left_inverse(coord_to_addr)."""
    addr_to_coord = make_layout(left_inverse(coord_to_addr), Layout(1, 0))      # addr -> coord (1:0 off the end)
    tv_to_coord = F.composition(addr_to_coord, atom_tv_to_addr)                # (thr, val) -> coord
    # CuTe's check: the atom's values' addresses, mapped to coordinates and back, are the addresses themselves
    round_trip = coalesce(F.composition(make_layout(coord_to_addr, Layout(1, 0)), tv_to_coord.mode(1)))
    if round_trip != coalesce(atom_tv_to_addr.mode(1)):
        raise AlgebraError(MEMORY_NOT_IN_DATA, f"the atom's values reach {coalesce(atom_tv_to_addr.mode(1))}, "
                                               f"the TMEM tensor {coord_to_addr} gives back {round_trip}")
    flat_shape = product_each(coord_to_addr.shape)
    rank = len(flat_shape) if isinstance(flat_shape, tuple) else 1
    shape = flat_shape if isinstance(flat_shape, tuple) else (flat_shape,)
    tiler = []
    for i in range(rank):
        unit = tuple(1 if j == i else 0 for j in range(rank))
        tiler.append(filter_layout(F.composition(Layout(shape, unit), tv_to_coord)))
    tile_to_coord = F.composition(Layout(shape), tuple(tiler))                   # tile coord -> coord
    layout_tv = F.composition(left_inverse(tile_to_coord), tv_to_coord)          # (thr, val) -> tile coord
    return TiledCopy(atom, layout_tv, tuple(tiler))


def make_tmem_copy(atom: TypedCopyAtom, form: TmemForm, coord_to_addr: Layout) -> TiledCopy:
    """make_tmem_copy(Copy_Atom<Op, uint32_t-wide T>, tmem_tensor) for a TMEM tensor of 32-bit elements."""
    thr_to_addr = Layout((32, WARPS), (0, WARP_LANE_QUARTER * DP_CELLS))          # // (lane, warp) -> addr
    val_to_addr = coalesce(F.upcast(val_id(form), atom.value_bits))             # // value -> addr
    return make_cotiled_copy(atom, make_layout(thr_to_addr, val_to_addr), coord_to_addr)
