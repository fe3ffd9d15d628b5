"""What CUTLASS 4.2 builds for the value-shuffled narrow A of its SM90 mixed-input GEMM (the generator's `_shfl`
kernels), as CuTe computes it.

- the reordering atom (`compute_memory_reordering_atom<Wide, Layout<Shape<_1,_1>>, ValueShuffle>()`,
  tools/util/include/cutlass/util/mixed_dtype_utils.hpp): one warp's 16 x 16 share of the RS wgmma's A fragment
  (GMMA::ALayout_64x16, 16-bit B), inverted to (m, k) -> (thread, value), each thread's 8 values stored
  contiguously, value v at ValueShuffle(v) ((2,4):(4,1) for a 4-bit A, (2,2):(2,1) for an 8-bit one, as
  gemm_operation.py writes it): (m, k) of a 16 x 16 block -> 8 thread + ValueShuffle(value);
- the global A: `tile_to_shape(atom, (M, K, L))`, whole atoms M first, then K;
- the shared A (`get_smem_layout`, cutlass/detail/collective/mixed_input_utils.hpp, for a layout "stride"): the
  global layout's (BLK_M, BLK_K) tile made compact in the order of its strides (make_layout_like), then the stages;
  the global layout's run-time strides (its K-atom stride, the stages' 0) rank after its static ones, in order;
- the mainloop's registers (sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp): tCsA = partition_A(sA), the
  load buffer make_tensor_like(tCsA(_,_,_,0)) (laid out like the shared partition), copy(tiled_copy, tCsA(_,_,kb,s),
  retile_D(load)(_,_,kb)) with make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, Narrow>), the fragment
  partition_fragment_A, and dequantize_A_kblock's chunks: zipped_divide of the k-block's load and fragment slices by
  NumValPerSrcReg = min(values a thread, 32 / bits(Narrow)), each chunk pair coalesced and converted by
  LayoutAwareConvertImpl (cute/convert.py);
- the TMA box `make_tma_copy_A_sm90<TmaElementA>` derives (construct_tma_gbasis; TmaElementA is uint8_t for a
  sub-byte A, the narrow type otherwise).

Every layout here is in elements of the narrow type; checked against CUTLASS 4.2's own results in
tests/test_sm90_mixed_shuffle.py (tests/data/cute_shuffle.json, tools/cute_dump/shuffle.cu).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra import functions as F
from ..algebra.inttuple import Dyn, compact_order, flatten_to_tuple, unflatten
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import coalesce, right_inverse
from ..algebra.tiling import blocked_product, logical_product, tile_to_shape
from .tma_basis import TmaBasis, TmaRefused, construct_tma_gbasis

WARP = 32
WARPGROUP = 128
# GMMA::ALayout_64x16 (mma_traits_sm90_gmma.hpp): the RS A fragment of a 16-bit wgmma   // (thr,val) -> m + 64 k
ALAYOUT_64X16 = Layout(((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512)))
MMA_MK = (64, 16)                   # the atom rs_op_selector<Wide, Wide, float, Shape<_64,_16,_32>> picks: 64 x 16
# the generator's ValueShuffle (gemm_operation.py), by the narrow A's bits (a 16-bit B)
VALUE_SHUFFLES: dict[int, Layout] = {4: Layout((2, 4), (4, 1)), 8: Layout((2, 2), (2, 1))}
REGISTER_BITS = 32                  # dequantize_A_kblock: "try to make the size of the first mode equal to 32bit"


def reordering_atom(value_shuffle: Layout, atoms: Layout | None = None) -> Layout:
    """compute_memory_reordering_atom<Wide(16 bits), atoms, value_shuffle>(): (m, k) of a 16 x (16 * atoms) block ->
    offset, every thread's values contiguous in value_shuffle's order.   // (m,k) -> offset"""
    atoms = atoms if atoms is not None else Layout((1, 1))
    values = int(ALAYOUT_64X16.mode(1).size())                               # 8
    warp_tv = F.composition(ALAYOUT_64X16, (WARP, values))                    # one warp's (thr,val) -> m + 64 k
    warp_tv = make_layout_like(warp_tv)                                      # ... made compact: m + 16 k
    mk_warp = (MMA_MK[0] // (WARPGROUP // WARP), MMA_MK[1])                  # (16, 16)
    mk_to_tv = _with_shape(right_inverse(warp_tv), mk_warp)                  # (m,k) -> thr + 32 val
    mk_to_tv = blocked_product(mk_to_tv, atoms)
    val_to_offset = logical_product(value_shuffle, Layout(values // int(value_shuffle.size()) * int(atoms.size())))
    thr_to_offset = Layout(int(warp_tv.mode(0).size()))
    product = logical_product(val_to_offset, thr_to_offset)                  # (val, thr) -> offset
    tv_to_offset = make_layout(product.mode(1), product.mode(0))             # select<1,0>: (thr, val) -> offset
    return F.composition(tv_to_offset, mk_to_tv)


def _with_shape(layout: Layout, shape: tuple[int, int]) -> Layout:
    """CuTe's layout.with_shape(shape): composition(layout, make_layout(shape))."""
    return F.composition(layout, Layout(shape))


def make_layout_like(layout: Layout) -> Layout:
    """CuTe's make_layout_like: a compact layout of the same shape whose strides follow the order of `layout`'s
    (static strides by value, run-time ones after them in order; static-zero strides kept 0)."""
    shape, stride = layout.shape, layout.stride
    flat_shape, flat_stride = flatten_to_tuple(shape), flatten_to_tuple(stride)
    filtered = unflatten(tuple(1 if (not isinstance(d, Dyn) and int(d) == 0) else s
                               for s, d in zip(flat_shape, flat_stride)), shape)
    strides = compact_order(filtered, stride)
    flat = tuple(0 if (not isinstance(d, Dyn) and int(d) == 0) else int(c)
                 for c, d in zip(flatten_to_tuple(strides), flat_stride))
    return Layout(shape, unflatten(flat, shape))


def reordered_gmem(atom: Layout, m: int, k: int) -> Layout:
    """The reordered global A over (m, k): tile_to_shape(atom, (M, K)), one batch.   // (m,k) -> element"""
    return tile_to_shape(atom, (m, k))


def shuffled_smem(atom: Layout, blk_m: int, blk_k: int, stages: int) -> Layout:
    """SmemLayoutA of the mixed-input collective for a layout A (get_smem_layout): make_layout_like of the global
    layout's (BLK_M, BLK_K) tile and a stage mode, the global K-atom stride and the stage stride being run-time
    values (the generated kernel's Layout<Shape<int,int,int>, ...> type, default-constructed).
    // (m,k,stage) -> element"""
    rows = int(atom.mode(0).size())
    tiled = tile_to_shape(atom, (blk_m, blk_k))                  # the tile's atoms: M first, K at BLK_M * 16 ...
    m_mode, k_mode = tiled.mode(0), tiled.mode(1)
    k_atoms = blk_k // int(atom.mode(1).size())
    # the global tensor's K-atom stride is M * 16 at run time: mark it dynamic (its value does not matter here)
    k_shape, k_stride = k_mode.shape, k_mode.stride
    assert isinstance(k_shape, tuple) and isinstance(k_stride, tuple)
    k_dyn = (k_shape, k_stride[:-1] + (Dyn(int(k_stride[-1]) if k_atoms > 1 else rows * blk_m),))
    tile = Layout((m_mode.shape, k_dyn[0], stages), (m_mode.stride, k_dyn[1], Dyn(0)))
    return make_layout_like(tile)


def load_layout(tcsa_stage0: Layout) -> Layout:
    """make_tensor_like<Narrow>(tCsA(_,_,_,0)): the register buffer the copy fills, laid out like the shared
    partition.   // (value, m_block, k_block) -> register"""
    return make_layout_like(tcsa_stage0)


def values_per_chunk(values: int, narrow_bits: int) -> int:
    """dequantize_A_kblock's NumValPerSrcReg: min(a thread's values of one wgmma, 32 / bits(Narrow))."""
    return min(values, -(-REGISTER_BITS // narrow_bits))


@dataclass(frozen=True)
class Chunk:
    """One LayoutAwareConvert call of dequantize_A_kblock: k-block, chunk, where its source and destination tensors
    start (register indices) and their coalesced layouts (what picks the converter)."""
    k_block: int
    index: int
    src: int
    dst: int
    src_layout: Layout              # // chunk value -> load register, relative to src
    dst_layout: Layout              # // chunk value -> fragment register, relative to dst


def chunks(load: Layout, fragment: Layout, k_block: int, per_chunk: int) -> list[Chunk]:
    """The chunks of k-block `k_block`: zipped_divide of both (MMA, MMA_M) slices by per_chunk (chunk i: their
    values per_chunk i .. per_chunk (i + 1) - 1, colexicographic), each coalesced."""
    src_kb, src_off = _slice_kb(load, k_block)
    dst_kb, dst_off = _slice_kb(fragment, k_block)
    src_div, dst_div = F.zipped_divide(src_kb, Layout(per_chunk)), F.zipped_divide(dst_kb, Layout(per_chunk))
    src_chunk, dst_chunk = coalesce(src_div.mode(0)), coalesce(dst_div.mode(0))
    return [Chunk(k_block, i, src_off + int(src_div.mode(1)(i)), dst_off + int(dst_div.mode(1)(i)), src_chunk,
                  dst_chunk) for i in range(int(src_div.mode(1).size()))]


def _slice_kb(layout: Layout, k_block: int) -> tuple[Layout, int]:
    """layout(_, _, k_block): the (MMA, MMA_M) layout and its offset."""
    from ..algebra.inttuple import Underscore
    sliced, off = layout.slice_and_offset((Underscore, Underscore, k_block))
    return sliced, int(off)


# --- make_tma_copy_A_sm90<TmaElementA> ---------------------------------------------------------------------------

ShuffleTma = TmaBasis       # the tensor map of a stage of A (TmaElementA elements)


def shuffle_tma(gmem: Layout, blk_m: int, blk_k: int, stage: Layout, elem_bits: int,
                word_bits: int) -> ShuffleTma | TmaRefused | str:
    """The box construct_tma_gbasis derives for one stage of A, in TMA elements of `word_bits` over `elem_bits`
    elements (tma_basis.py); a reason when CuTe finds no such box."""
    return construct_tma_gbasis(gmem, blk_m, blk_k, stage, elem_bits, word_bits)


__all__ = ["reordering_atom", "reordered_gmem", "shuffled_smem", "make_layout_like", "load_layout", "chunks",
           "Chunk", "values_per_chunk", "shuffle_tma", "ShuffleTma", "VALUE_SHUFFLES"]
