"""What CUTLASS 4.2 builds for the metadata (E) of its SM100 structured-sparse GEMM (tcgen05.mma.sp), as CuTe computes
it.

- `Sm1xxGemmSparseConfig` (cutlass/gemm/collective/builders/sm1xx_sparse_config.inl): the metadata atom TensorEAtom,
  128 rows by TensorEAtomK logical elements of K (16-bit A: ((8,2,8),(16,2,4)):((128,16,2048),(1,1024,32)); tf32:
  ((8,2,8),(8,2,4)):((64,8,1024),(1,512,16)); 8-bit A: (128,128):(128,1)), in logical elements of E (ValTypeE:
  sparse_elem<8, uint8_t>, one bit a logical element of A; sparse_elem<4, uint8_t> for tf32, two bits), 2048 bytes;
  fill_layoutE (the global E: whole atoms, M fastest, then K) -- cute/sparse.py's fill_layout_e;
- the collective (cutlass/gemm/collective/sm100_sparse_mma_warpspecialized.hpp): UtccpReuseCnt = TensorEAtomK / TileK
  when the CTA tile's K is less than the atom's (then 2: one stage of E holds two k-tiles' metadata), else 1;
  TileShapeE's K = lcm(TileK, TensorEAtomK); SmemLayoutE = UMMA::tile_to_mma_shape(TensorEAtom, (MmaShapeE_MK,
  Stages)) (tile_to_shape of the atom to (BLK_M, BLK_KE, Stages), partitioned into ((128, K_MMA), 1, MMA_K, PIPE));
  TMA of E with make_tma_atom_A_sm100<uint64_t>; the TMEM tile tCtE = make_tensor<FrgTypeE>(((128, K_MMA), 1, MMA_K))
  at the column after the accumulators (set_tmem_offsets); make_utccp_copy(SM100_UTCCP_128dp128bit_{1,2}cta,
  recast<ElementE>(tCtE)) with partition_S of recast<ElementE>(sE) and get_utccp_smem_desc_tensor; each k-block's MMA
  `tiled_mma.with(tCtE(_, _, math_mma_e_stage_idx * UtccpReuseCnt + k_block))`, math_mma_e_stage_idx toggling every
  k-tile when UtccpReuseCnt is 2;
- mma_traits_sm100.hpp: UMMA::tmem_e_frg<a_type>::make (the TMEM atom per MMA, tiled over the MMAs, restrided to
  lane << 21 | bit column: TMEM::DP_b), MMA_Traits<SM100_MMA_*_SS_SPARSE>::mma_unpack (the metadata address's bit 0
  is the sparsity selector id2, the address without it the instruction's [sp-meta-tmem]), tmem_ptr (an element
  offset i is added to the address as rotr(i, log2(32 / bits(T)))).

Every layout of E here is in logical elements of E; the TMEM ones map to TMEM element addresses (lane << 21 | bit
column, over bits(E)), the shared ones to elements of the buffer (bit offset / bits(E)).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import gcd

from ..algebra import functions as F
from ..algebra.inttuple import AlgebraError, product
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import coalesce
from ..hardware.base import Index
from ..specfile.model import METADATA_UTCCP_COPIES
from .copy import CopyAtom, TiledCopy
from .tensor import Tensor

ATOM_M = 128                     # TensorEAtomM: the rows of one MMA's A a CTA holds
TMEM_LANE_BITS = 1 << 21         # TMEM::DP_b: one TMEM lane in bit addressing (lane << 16 of 32-bit cells)
TMEM_COLUMNS_BITS = 16384        # 512 columns of 32 bits
CELL_BITS = 32
TMEM_ADDRESS_LANE = 1 << 16      # one lane in a 32-bit TMEM address
UTCCP_ROWS, UTCCP_ROW_BITS = 128, 128      # tcgen05.cp.128x128b: 128 rows of 128 bits
UTCCP_ROW_BYTES = UTCCP_ROW_BITS // 8
E_ELEMENT_BITS = 8               # ElementE = uint8_t: what make_utccp_copy's tensors are recast to
REUSE_LIMIT = 2                  # static_assert "UTCCP reuse count can only be either one or two"
UTCCP_OPS = {1: METADATA_UTCCP_COPIES[0], 2: METADATA_UTCCP_COPIES[1]}   # by the MMA's CTAs (AtomThrID)


@dataclass(frozen=True)
class MetadataFormat:
    """The metadata of A of one width (Sm1xxGemmSparseConfig, tmem_e_frg): ValTypeE and its bits, TensorEAtom
    ((m, k) -> E element), and the TMEM atom of one MMA ((m, k) -> virtual address: lane + 128 x element column)."""
    a_bits: int
    e_type: str
    e_bits: int
    atom: Layout
    tmem_atom: Layout

    @property
    def atom_k(self) -> int:
        """TensorEAtomK: logical elements of K one atom holds."""
        return int(self.atom.mode(1).size())

    @property
    def k_mma(self) -> int:
        """K of the MMA the TMEM atom is for (N_MMA of tmem_e_frg)."""
        return int(self.tmem_atom.mode(1).size())


FORMATS: dict[int, MetadataFormat] = {
    # TensorEAtom_MMA_F16 / tmem_e_frg's "FP16: 128x32 atom"
    16: MetadataFormat(16, "sparse_elem<8,uint8_t>", 1,
                       Layout(((8, 2, 8), (16, 2, 4)), ((128, 16, 2048), (1, 1024, 32))),
                       Layout(((8, 2, 8), (16, 2)), ((1, 2048, 16), (128, 8)))),
    # TensorEAtom_MMA_TF32 / "TF32: 128x16 atom" (2-bit elements: its restride upcast<2>)
    32: MetadataFormat(32, "sparse_elem<4,uint8_t>", 2,
                       Layout(((8, 2, 8), (8, 2, 4)), ((64, 8, 1024), (1, 512, 16))),
                       Layout(((8, 2, 8), (8, 2)), ((1, 1024, 16), (128, 8)))),
    # TensorEAtom_MMA_S8orF8F6F4 / "S8|Mix.F4/F6/F8: 128x64 atom"
    8: MetadataFormat(8, "sparse_elem<8,uint8_t>", 1, Layout((128, 128), (128, 1)), Layout((128, 64), (1, 128))),
}


def metadata_format(a_bits: int) -> MetadataFormat | str:
    """The metadata format of A of `a_bits` bits, or why CUTLASS's config has none (its static_assert)."""
    fmt = FORMATS.get(a_bits)
    if fmt is None:
        return (f"no SM100 sparse GEMM this module models takes {a_bits}-bit A (Sm1xxGemmSparseConfig: \"Ambiguous "
                "Input Type Config\"; 4-bit .kind::mxf4 A is not modelled)")
    return fmt


def utccp_reuse(tile_k: int, atom_k: int) -> int | str:
    """UtccpReuseCnt: TensorEAtomK / TileK when TileK / TensorEAtomK is 0 (the tile's K is less than the atom's),
    else 1; or the collective's static_assert when it is neither 1 nor 2."""
    reuse = atom_k // tile_k if tile_k // atom_k == 0 else 1
    if reuse not in (1, REUSE_LIMIT):
        return f"UtccpReuseCnt {reuse} (static_assert \"UTCCP reuse count can only be either one or two\")"
    return reuse


def tile_k_e(tile_k: int, atom_k: int) -> int:
    """TileShapeE's K: lcm(TileK, TensorEAtomK)."""
    return tile_k * atom_k // gcd(tile_k, atom_k)


def mk_view(partitioned: Layout, pipe: bool) -> Layout:
    """A layout in the tcgen05 partition form ((MMA_M, MMA_K), REST_M, REST_K, PIPE) (with `pipe` False: without the
    PIPE mode) read at (m, k[, stage]): m = (MMA_M, REST_M), k = (MMA_K, REST_K), the same offsets grouped by
    coordinate; any other layout (an (m, k[, stage]) one) is returned as given."""
    if partitioned.rank() != (4 if pipe else 3) or partitioned.mode(0).rank() != 2:
        return partitioned
    atom, rest_m, rest_k = (partitioned.mode(i) for i in range(3))
    modes = [make_layout(atom.mode(0), rest_m), make_layout(atom.mode(1), rest_k)]
    if pipe:
        modes.append(partitioned.mode(3))
    return make_layout(*modes)


def tmem_e(fmt: MetadataFormat, mma_k: int) -> Layout:
    """tmem_e_frg<a_type>::make(((128, K_MMA), 1, MMA_K)): the TMEM metadata tile   // ((m, k), 1, k_block) -> TMEM
    element (lane << 21 | bit column, over bits(E)), relative to the tile's first column."""
    logical = F.tiled_product(fmt.tmem_atom, Layout((1, mma_k)))
    restride = F.upcast(Layout((ATOM_M, TMEM_COLUMNS_BITS), (TMEM_LANE_BITS, 1)), fmt.e_bits)
    out: Layout = F.composition(restride, logical)
    return out


def tmem_fields(bit: int) -> tuple[int, int, int]:
    """(lane, column, bit of the 32-bit cell) of a TMEM bit address (lane << 21 | bit column)."""
    return bit // TMEM_LANE_BITS, (bit % TMEM_LANE_BITS) // CELL_BITS, bit % CELL_BITS


def rotr32(x: int, s: int) -> int:
    x &= 0xFFFFFFFF
    s %= 32
    return ((x >> s) | (x << (32 - s))) & 0xFFFFFFFF if s else x


def tmem_address(base: int, element: int, e_bits: int) -> int:
    """The 32-bit address tmem_ptr<ValTypeE> gives element `element` of a tile whose first element is at `base`:
    base + rotr(element, log2(32 / bits(E))) (lane << 16 | column, the sub-word index in the top bits)."""
    shift = (CELL_BITS // e_bits).bit_length() - 1
    return (base + rotr32(element, shift)) & 0xFFFFFFFF


@dataclass(frozen=True)
class MmaMetadata:
    """What the MMA of one k-block is handed (mma_unpack): the 32-bit [sp-meta-tmem] address (the metadata tile's
    address with bit 0 cleared) and the sparsity selector id2 (that bit)."""
    index: int                 # tCtE's k-block the MMA is given (math_mma_e_stage_idx * UtccpReuseCnt + k_block)
    address: int               # what tiled_mma.with() stores: raw_pointer_cast(tCtE(_, _, index).data())
    selector: int              # id2 = address & 1
    sp_meta: int               # tmem_e = address & ~1

    @property
    def column(self) -> int:
        return self.sp_meta % TMEM_ADDRESS_LANE


def mma_metadata(tile: Layout, base_column: int, index: int, e_bits: int) -> MmaMetadata:
    """The address and selector CuTe hands the MMA given tCtE(_, _, index), the tile starting at `base_column`."""
    first = _at(tile, 0, 0, index) if tile.rank() > 2 else _at(tile, 0, index)
    address = tmem_address(base_column, first, e_bits)
    return MmaMetadata(index, address, address & 1, address & ~1 & 0xFFFFFFFF)


def mma_index(k_tile: Index, k_block: Index, reuse: int) -> Index:
    """The tCtE k-block CUTLASS's mma() gives k-block `k_block` of the k-tile `k_tile` after the first one
    (math_mma_e_stage_idx: 0, toggled every k-tile when UtccpReuseCnt is not 1); ints or expressions."""
    stage_idx = k_tile % 2 if reuse != 1 else 0
    return stage_idx * reuse + k_block


# --- make_utccp_copy of E --------------------------------------------------------------------------------------

def utccp_atom(name: str) -> CopyAtom:
    """Copy_Traits<SM100_UTCCP_128dp128bit_1cta / _2cta>: one thread a CTA on the same addresses; source and
    destination the 16384 bits of the instruction   // (thr, bit) -> bit."""
    ctas = 2 if name == UTCCP_OPS[2] else 1
    bits = Layout((ctas, UTCCP_ROWS * UTCCP_ROW_BITS), (0, 1))
    return CopyAtom(name, Layout(ctas, 1), bits, bits, bits)


def utccp_value_to_tmem() -> Layout:
    """The atom's ValID in TMEM bit addresses: (row, bit) -> lane << 21 | bit column   // (128,128):(DP_b,1)."""
    return Layout((UTCCP_ROWS, UTCCP_ROW_BITS), (TMEM_LANE_BITS, 1))


@dataclass(frozen=True)
class UtccpCopy:
    """One tcgen05.cp.128x128b of a stage of E, as CuTe's partitions hand it out: its shared source (the byte of the
    first row, relative to the stage), the descriptor's strides, and its TMEM destination (a uint8 element: lane << 18
    | byte column, relative to the tile's first column)."""
    index: int
    smem_start: int
    sbo: int
    lbo: int
    tmem_element: int


def utccp_copies(name: str, smem_stage: Layout, tmem_tile: Layout, e_bits: int) -> tuple[TiledCopy, list[UtccpCopy]]:
    """make_utccp_copy(Op, recast<uint8_t>(tCtE)), partition_S of recast<uint8_t>(sE)'s stage and partition_D of the
    TMEM tile, and each copy's descriptor as get_utccp_smem_desc_tensor reads it off the shared partition (the start:
    row 0, byte 0; SBO: row 8 - row 0; LBO: 16).  `smem_stage` and `tmem_tile` are in logical elements of E (bits(E)
    each), partitioned ((128, K_MMA), 1, MMA_K)."""
    from .tmem import make_cotiled_copy        # Blackwell's TMEM module: loaded by the SM100 metadata checks only
    from .umma import utccp_source_refusal
    ratio = E_ELEMENT_BITS // e_bits
    atom = utccp_atom(name).with_value_bits(E_ELEMENT_BITS)
    thr = Layout(int(atom.atom.thr_id.size()), 0)
    values = coalesce(F.upcast(utccp_value_to_tmem(), E_ELEMENT_BITS))
    tmem_bytes = F.upcast(tmem_tile, ratio)
    tiled = make_cotiled_copy(atom, make_layout(thr, values), tmem_bytes)
    src = tiled.partition_S(Tensor(0, F.upcast(smem_stage, ratio)), 0)
    dst = tiled.partition_D(Tensor(0, tmem_bytes), 0)
    src_layout, dst_layout = src.layout, dst.layout
    assert isinstance(src_layout, Layout) and isinstance(dst_layout, Layout)
    per_copy = int(product(src_layout.mode(0).shape))
    refused = utccp_source_refusal(src_layout.mode(0), per_copy // UTCCP_ROW_BYTES, UTCCP_ROW_BYTES)
    if refused is not None:          # get_utccp_smem_desc_tensor's make_umma_desc<K> does not compile
        raise AlgebraError(*refused)
    out = []
    for c in range(int(src_layout.size()) // per_copy):
        s0 = _at(src_layout, c * per_copy)
        row8 = _at(src_layout, c * per_copy + 8) if per_copy > 8 else s0
        out.append(UtccpCopy(c, s0, row8 - s0, UTCCP_ROW_BYTES, _at(dst_layout, c * per_copy)))
    return tiled, out


def _at(layout: Layout, *coord: int) -> int:
    """layout(coord) of a whole coordinate: an offset."""
    out = layout(*coord)
    assert isinstance(out, int), out
    return out
