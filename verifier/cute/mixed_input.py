"""CUTLASS's SM90 mixed-input scales and zero points as CuTe computes them (sm90_mma_tma_gmma_rs_warpspecialized_
mixed_input.hpp with cutlass/detail/collective/mixed_input_utils.hpp; ConversionMode ConvertAndScale[WithZero]).

A of `cute::tuple<Narrow, Scale[, Zero]>`: every element A(m, k) is converted to B's type and multiplied by
scale(m, k / group) (plus zero(m, k / group)).  The collective keeps one scale column a k-tile:

- the scale tensor is MN-major, (M, scale_k, L) with stride (1, M, M scale_k), scale_k = ceil(K / group_size);
- SmemLayoutScale = tile_to_shape(Layout<Shape<size<0>(SmemLayoutAtomA), _1>>, (BLK_M, 1, Stages), Step<_2,_1,_3>)
  (`size<1>(SmemLayoutAtomScale) must be 1`); the zero points share it;
- load(): make_tma_copy<TmaElementScale>(SM90_TMA_LOAD, the scale tensor, SmemLayoutScale(_,_,0), (BLK_M, 1)) brings
  column k_tile / reload_factor of the CTA's rows into the k-tile's stage, reload_factor = ceil(group_size / BLK_K);
- mma(): tCsS = thr_mma.partition_A(sS) (the K mode of one column is a stride-0 broadcast), tCrS a register tensor of
  partition_fragment_A(sS(_,_,0))'s layout, copied at k-block 0 of each k-tile through make_tiled_copy_A(Copy_Atom<
  AutoVectorizingCopy, ElementScale>, tiled_mma)'s retile_D(tCrS) (one flat index for source and destination: CuTe's
  AutoVectorizingCopy copies element i to element i); dequantize_A_kblock multiplies element i of the k-block's
  fragment tCrA_mma(_,_,k_block) by element i of tCrS(_,_,k_block) (zipped_divide of both by one vector length).

Lookup-table scales (UseScaleLookupTable: ConvertAndScale with ElementScale = cutlass::Array<Wide, 8>, the generator's
int4 x e4m3 / e5m2 kernels): the same path brings one 8-entry table a (row, group) into tCrS_neg (partition_fragment_A
of sS(_,_,0), the copy above); tCrS_pos has its layout.  dequantize_A_kblock then cuts the k-block's load buffer, the
fragment and tCrS_neg / tCrS_pos into chunks of NumValPerSrcReg = min(size(src(_,0)), 32 / 4) values (zipped_divide),
at k-block 0 derives every positive table from the negative one of its register (over filter(tCrS_neg(_,_,0))), and
converts chunk c with lookup_table_convert(src_vm(_,c), dst_vm(_,c), scales_neg_vm(_,c), scales_pos_vm(_,c)): the
value at position p of the chunk takes table filter(scales_vm(_,c))(p / 4) (cute/convert.py).

Here are the layouts of that path; the kind (kinds/mixed_scale) proves what they deliver.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra.inttuple import Underscore, product
from ..algebra.layout import Layout
from ..algebra.ops import filter_layout
from ..algebra.tiling import tile_to_shape, zipped_divide
from ..algebra.types import type_bits
from . import convert as LUT
from .copy import TiledCopy, TypedCopyAtom, make_tiled_copy_for
from .gmma import rs_mainloop_refusal
from .mma import TiledMMA
from .tensor import Tensor

SCALE_COLUMNS_PER_STAGE = 1          # size<1>(SmemLayoutAtomScale): "size<1>(SmemLayoutAtomScale) must be 1."
MN_MAJOR_ORDER = (2, 1, 3)           # Step<_2,_1,_3>: StrideScale = Stride<_1, int64_t, int64_t> is MN-major
SCALE_STAGE_ALIGN = 128              # "Each scale stage must be 128B aligned." (compute_tma_transaction_bytes_extra)
# the mixed-input mainloop's mma() asserts 4 k-blocks a k-tile (A's copy and conversion run two k-blocks ahead);
# its stage and atom asserts are the RS mainloops' (gmma.py)
MIN_K_BLOCKS = 4
K_BLOCKS_RULE = "Consider increasing TileShapeK"


def scale_smem(atom_rows: int, tile_m: int, stages: int) -> Layout:
    """SmemLayoutScale: tile_to_shape(Layout<Shape<atom_rows, _1>>, (BLK_M, 1, Stages), Step<_2,_1,_3>)
    // (m, 0, stage) -> slot."""
    return tile_to_shape(Layout((atom_rows, SCALE_COLUMNS_PER_STAGE)), (tile_m, SCALE_COLUMNS_PER_STAGE, stages),
                         MN_MAJOR_ORDER)


def scale_global(extent_m: int, columns: int) -> Layout:
    """The scale (zero) tensor of one batch, make_layout((M, scale_k), dS) with dS MN-major and packed
    // (m, column) -> element."""
    return Layout((extent_m, columns), (1, extent_m))


def reload_factor(group_size: int, tile_k: int) -> int:
    """Params::reload_factor = (group_size + BLK_K - 1) / BLK_K: k-tiles that read one scale column."""
    return -(-group_size // tile_k)


def columns(problem_k: int, group_size: int) -> int:
    """scale_k = ceil_div(K, group_size): the scale tensor's columns."""
    return -(-problem_k // group_size)


def accepted_group(group_size: int, problem_k: int, tile_k: int) -> bool:
    """can_implement's rule: group_size == K, or a (nonzero) multiple of BLK_K."""
    return group_size > 0 and (group_size == problem_k or group_size % tile_k == 0)


@dataclass(frozen=True)
class ScaleRegisters:
    """mma()'s scale path, as layouts (a register fragment's layout is a compile-time type, the same for every thread;
    the threads differ in the offset of their partition only):

    - `partition`: thrfrg_A of the stage-0 scale tile        // ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK))) -> slot
    - `fragment`: tCrS, partition_fragment_A(sS(_,_,0))'s     // (FrgV, RestM, RestK) -> register
    - `copy_view`: retile_D(tCrS) of the scale copy           // ((CPY, CPY rest), CPY_M, CPY_K) -> register"""
    copy: TiledCopy
    partition: Layout
    fragment: Layout
    copy_view: Layout

    @property
    def read_view(self) -> Layout:
        """tCrS(_,_,k_block) without its k offset   // flat index of a k-block slice -> register."""
        return self.fragment.slice((Underscore, Underscore, 0))

    @property
    def k_mode(self) -> Layout:
        """tCrS's K mode: tCrS(_,_,k_block) starts at k_mode(k_block), read past its extent as CuTe indexes it
        // k_block -> register offset."""
        return self.fragment.mode(2)

    @property
    def write_view(self) -> Layout:
        """tCrS_copy_view(_,_,0): the k-block 0 copy's destination   // flat index -> register."""
        return self.copy_view.slice((Underscore, Underscore, 0))

    @property
    def source_values(self) -> int:
        """Elements of tCsS(_,_,0,stage), the k-block 0 copy's source: (FrgV, RestM) of the partition."""
        frg = self.partition.mode(1)
        return int(frg.mode(0).size()) * int(product(frg.mode(1).mode(0).shape))

    @property
    def frg_values(self) -> int:
        """The partition's FrgV: values of one MMA atom."""
        return int(self.partition.mode(1).mode(0).size())


def a_fragment_shape(mma: TiledMMA, tile_m: int, tile_k: int) -> tuple[int, int, int]:
    """The shape of tCrA_mma (partition_fragment_A of the BLK_M x BLK_K tile): (values of one wgmma, MMA_M,
    k-blocks)."""
    frg = mma.thrfrg(Layout((tile_m, tile_k)), "A").mode(1)
    rest = frg.mode(1)
    return int(frg.mode(0).size()), int(product(rest.mode(0).shape)), int(product(rest.mode(1).shape))


GMMA_ATOM_ROWS = 8      # size<0> of every GMMA shared-memory layout atom is a multiple of it
ATOM_DIVIDES_RULE = "SmemLayoutAtom must evenly divide tile shape."


def mainloop_refusal(stages: int, a_from_shared: bool, k_blocks: int) -> tuple[str, str, str] | None:
    """The first of the mixed-input mainloop's static_asserts on its pipeline that fails (`rs_mainloop_refusal`
    with its own k-block rule: `k_blocks` is K_BLOCK_MAX)."""
    return rs_mainloop_refusal(stages, a_from_shared, k_blocks, MIN_K_BLOCKS, K_BLOCKS_RULE)


def tile_atom_refusal(tile_m: int, tile_n: int) -> tuple[str, str, str] | None:
    """The mainloop's "SmemLayoutAtom must evenly divide tile shape." on the tile's M (A's atom) and N (B's), where
    no GMMA layout atom can divide it: every atom's size<0> is a multiple of GMMA_ATOM_ROWS (8 K-major rows, or an
    MN-major span of at least 16 bytes).  (An extent that is a multiple of 8 may still miss the builder's atom: not
    decided here.)"""
    for extent, name in ((tile_m, "M"), (tile_n, "N")):
        if extent % GMMA_ATOM_ROWS:
            return ATOM_DIVIDES_RULE, f"the tile's {name} of {extent}: no GMMA layout atom divides it", "tile"
    return None


def scale_registers(mma: TiledMMA, stage0: Layout, atom: TypedCopyAtom) -> ScaleRegisters:
    """The scale path of `mma` (the tiled MMA partition_A and make_tiled_copy_A are given) for the stage-0 scale tile
    `stage0` (// (m, 0) -> slot), copied with `atom` (Copy_Atom<AutoVectorizingCopy, ElementScale>); raises
    AlgebraError where CuTe refuses a step."""
    partition = mma.thrfrg(stage0, "A")
    fragment = mma.partition_fragment(Tensor(0, stage0), "A", 0).layout
    assert isinstance(fragment, Layout)          # a register fragment is compact: never swizzled
    copy = make_tiled_copy_for(atom, mma, "A")
    return ScaleRegisters(copy, partition, fragment, copy.retile(fragment))


# --- the lookup-table mode: dequantize_A_kblock's chunks ------------------------------------------------------------
LOOKUP_TABLE_NARROW_BITS = type_bits(LUT.LOOKUP_TABLE_NARROW)    # int4b_t: the only A the lookup tables convert


@dataclass(frozen=True)
class LookupTableChunks:
    """dequantize_A_kblock's lookup-table branch for one k-block (every k-block alike, but tCrS's k offset):

    - `values`: NumValPerSrcReg, the values of a chunk
    - `source`: zipped_divide(tCrA_load(_,_,k_block), N), the load buffer (the fragment tCrA_mma has its layout:
      tCrA_load = make_fragment_like<Narrow>(tCrA_mma))        // (e, c) -> register position, k offset aside
    - `scales`: zipped_divide(tCrS_neg(_,_,k_block), N)        // (e, c) -> scale register, k offset aside
    - `tables`: filter of a chunk's scale layout (lookup_table_convert's filter(scales_neg))  // i -> register offset"""
    values: int
    source: Layout
    scales: Layout
    tables: Layout

    @property
    def source_chunk(self) -> Layout:
        """A chunk of the load buffer (LayoutIn of lookup_table_convert)   // e -> position from the chunk's first."""
        return self.source.mode(0)

    @property
    def scale_chunk(self) -> Layout:
        """A chunk of tCrS_neg (LayoutScale of lookup_table_convert)      // e -> scale register from the chunk's."""
        return self.scales.mode(0)

    @property
    def scale_bases(self) -> Layout:
        """// c -> the first scale register of chunk c (scales_neg_vm(_, c)'s offset)."""
        return self.scales.mode(1)

    def table_register(self, x: int) -> int:
        """The register (k offset aside) of the table lookup_table_convert uses for element x of the k-block: chunk
        x / N, position p = source_chunk(x % N), output register p / 4 of the chunk takes table filter(...)(p / 4)."""
        chunk, e = divmod(x, self.values)
        position = int(self.source_chunk(e))
        return int(self.scale_bases(chunk)) + int(self.tables(position // 4))


def a_load_kblock(mma: TiledMMA, tile_m: int, tile_k: int) -> Layout:
    """tCrA_load(_,_,0) // (value of one wgmma, MMA_M) -> register: make_fragment_like of partition_fragment_A, whose
    mode 0 is compact whatever the shared tile's strides (the other modes' order follows them: it moves chunk bases
    only, and the load buffer and the fragment share it)."""
    fragment = mma.partition_fragment(Tensor(0, Layout((tile_m, tile_k))), "A", 0).layout
    assert isinstance(fragment, Layout)
    return fragment.slice((Underscore, Underscore, 0))


def lookup_table_chunks(load_kblock: Layout, scale_kblock: Layout) -> LookupTableChunks:
    """The chunks of a k-block: NumValPerSrcReg = min(size(src(_,0)), 32 / 4) values of the int4 load buffer
    `load_kblock` (// flat index -> register) and of the scale registers `scale_kblock` (tCrS(_,_,k_block), // flat
    index -> register); raises AlgebraError where CuTe refuses the divide."""
    values = min(int(load_kblock.mode(0).size()), LUT.LOOKUP_TABLE_SOURCE_BITS // LOOKUP_TABLE_NARROW_BITS)
    source = zipped_divide(load_kblock, values)
    scales = zipped_divide(scale_kblock, values)
    return LookupTableChunks(values, source, scales, filter_layout(scales.mode(0)))
