"""Block-scaled MMA scale factors as CuTe and CUTLASS build them (sm100_blockscaled_layout.hpp's
Sm1xxBlockScaledConfig, mma_traits_sm100.hpp's tmem_sf_frg, copy_traits_sm100.hpp's make_utccp_copy).

A scale factor (SF, one byte: ue8m0 or ue4m3) scales VS consecutive elements of one row of A (or column of B) along
K.  CuTe indexes every SF tensor by the operand's own coordinates (mn, k), the VS elements a factor covers sharing it
through a stride-0 mode.  The facts, in CuTe's own vocabulary:

- the SF block: 128 rows x 4 factors in 512 bytes, row r's four factors one 32-bit word at byte 16 (r % 32) + 4 (r / 32)
      SfKMajorAtom = ((32,4),(VS,4)):((16,4),(0,1))            // (mn, k) -> SF byte of one block
- the global SF tensor: blocks tiled K first, then MN (tile_atom_to_shape_SFA / SFB, Step<_2,_1>)
- the shared SF tile of one stage (deduce_smem_layoutSFA / SFB): per MMA, MN/128 blocks of the MMA's rows (SFB: N
  rounded up to a multiple of 128) and its K/VS factors; a block holds 4 factors of each row, so 4/NSF MMAs share
  one block, then KA = TileK / (4 VS) blocks along K
      ((((32,4),MB),(VS,NSF)),1,(4/NSF,KA)):((((16,4),512),(0,1)),0,(NSF,512 MB))   // ((mn,k),1,kblk) -> SF byte
  and a stage mode of 512 MB KA bytes;
- the tensor-memory SF tile (tmem_sf_frg::make over the shared atom's shape): row r at lane r % 32 of each of the
  four 32-lane sub-partitions (the replica mode), column r / 32, the block's factor j at byte j % 4 (4x1 data path)
      ((((32,MN/32),4),(VS,NSF)),1,(4/NSF,KA)) -> lane << 18 | byte column      // a TMEM address of uint8 elements
  the factors of one MMA at byte NSF (kb % (4/NSF)) of the word, the next block MN/32 columns on;
- the smem -> TMEM copy (make_utccp_copy): tcgen05.cp.32x128b.warpx4 (SM100_UTCCP_4x32dp128bit_1cta / _2cta), one
  instruction per 512-byte block: 32 rows of 16 bytes to 32 lanes x 4 columns, multicast to the four sub-partitions;
  its shared-memory source a no-swizzle K-major descriptor (get_utccp_smem_desc_tensor).

A TMEM address of uint8 elements (CuTe's tmem_ptr<uint8_t>): element offset e = lane << 18 | byte column, the
32-bit address rotr(e, 2): lane << 16 | column, the byte index in address bits 30-31 (which the MMA takes as its
scale factor ID).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..algebra import functions as F
from ..algebra.inttuple import AlgebraError, product
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import coalesce, right_inverse
from ..algebra.tiling import logical_product, tile_to_shape, zipped_divide
from ..specfile.model import UTCCP_COPIES
from .copy import CopyAtom, TiledCopy
from .tensor import Tensor

SF_BLOCK_ROWS = 128            # rows (of A) or columns (of B) one SF block holds
SF_BLOCK_FACTORS = 4           # factors of each row one block holds: one 32-bit TMEM word
SF_BLOCK_BYTES = SF_BLOCK_ROWS * SF_BLOCK_FACTORS
SUBPARTITION_LANES = 32        # lanes of one TMEM sub-partition (the lanes a warp may access)
REPLICAS = 4                   # sub-partitions: the MMA needs every factor in each
SF_BITS = 8
TMEM_LANE_UNIT = 1 << 18       # one TMEM lane in uint8 element units (TMEM::DP<uint8_t>)
TMEM_ADDRESS_LANE = 1 << 16    # one TMEM lane in a 32-bit address
BYTES_PER_COLUMN = 4
UTCCP_ROWS, UTCCP_ROW_BYTES = 32, 16     # tcgen05.cp.32x128b: 32 rows of 128 bits


TWO_BY_TWO_CTAS = 2              # SFB's 2x2 data path: an MMA of a CTA pair (tmem_sf_frg's N_SM == 2)


class SfAlloc(str, Enum):
    """UMMA::TmemAllocMode of an SF tile: the data path its MMA uses."""
    DUPLICATED_4BY1 = "4x1"      # ScaleFactorDuplicated4by1: every row in all four sub-partitions (SFA; SFB of a
                                 # 4x1 MMA: M = 128 on one CTA, M = 256 on a pair)
    DUPLICATED_2BY2 = "2x2"      # ScaleFactorDuplicated2by2: SFB of a 2x2 MMA (M = 128 on a CTA pair)


@dataclass(frozen=True)
class SfShape:
    """What one SF tile is made of: its rows per MMA (MN, a multiple of 128 for SFB), the MMA's K, the vector size
    VS, the CTA tile's K."""
    mn: int
    k_mma: int
    vs: int
    tile_k: int

    @property
    def nsf(self) -> int:
        """Factors one MMA reads for a row (K / VS): 1, 2 or 4."""
        return self.k_mma // self.vs

    @property
    def blocks_mn(self) -> int:
        return self.mn // SF_BLOCK_ROWS

    @property
    def blocks_k(self) -> int:
        """KA: SF blocks along the tile's K."""
        return self.tile_k // (SF_BLOCK_FACTORS * self.vs)

    @property
    def mmas_per_block(self) -> int:
        return SF_BLOCK_FACTORS // self.nsf

    @property
    def stage_bytes(self) -> int:
        return SF_BLOCK_BYTES * self.blocks_mn * self.blocks_k

    @property
    def tmem_columns(self) -> int:
        """TMEM columns the tile takes (find_tmem_tensor_col_offset): MN / 32 a block of 4 factors."""
        return self.mn // SUBPARTITION_LANES * self.blocks_k

    def problem(self) -> str | None:
        """Why CUTLASS's layouts do not exist for this shape (its static_asserts and divisibility), or None."""
        if self.vs <= 0 or self.k_mma % self.vs or self.nsf not in (1, 2, 4):
            return f"the MMA's K = {self.k_mma} is not 1, 2 or 4 vectors of {self.vs}"
        if self.mn <= 0 or self.mn % SF_BLOCK_ROWS:
            return f"{self.mn} rows are not whole {SF_BLOCK_ROWS}-row SF blocks"
        if self.tile_k <= 0 or self.tile_k % (SF_BLOCK_FACTORS * self.vs):
            return f"the tile's K = {self.tile_k} is not whole blocks of {SF_BLOCK_FACTORS} x {self.vs} elements"
        return None


def sf_block(vs: int) -> Layout:
    """SfKMajorAtom: ((32,4),(VS,4)):((16,4),(0,1))   // (mn, k) -> SF byte of one 512-byte block."""
    return Layout(((32, 4), (vs, SF_BLOCK_FACTORS)), ((16, 4), (0, 1)))


def sf_global(mn: int, k: int, vs: int) -> Layout:
    """tile_atom_to_shape_SFA / SFB over an (MN, K) operand (Step<_2,_1>: blocks along K first)   // (mn, k) -> SF
    byte."""
    return tile_to_shape(sf_block(vs), (mn, k), (2, 1))


def sf_smem_atom(shape: SfShape) -> Layout:
    """deduce_smem_layoutSFA / SFB: one stage of the shared SF tile   // ((mn, k), 1, kblk) -> SF byte."""
    mb, nsf = shape.blocks_mn, shape.nsf
    mma = Layout((((32, 4), mb), (shape.vs, nsf)), (((16, 4), SF_BLOCK_BYTES), (0, 1)))
    kblk = Layout((shape.mmas_per_block, shape.blocks_k), (nsf, SF_BLOCK_BYTES * mb))
    return make_layout(mma, Layout(1, 0), kblk)


def sf_smem(shape: SfShape, stages: int) -> Layout:
    """SmemLayoutSFA / SFB: the atom with CUTLASS's stage mode appended   // ((mn, k), 1, kblk, stage) -> SF byte."""
    atom = sf_smem_atom(shape)
    return make_layout(*atom.modes(), Layout(stages, shape.stage_bytes))


def tmem_sf(atom_shape: SfShape, alloc: SfAlloc = SfAlloc.DUPLICATED_4BY1) -> Layout:
    """tmem_sf_frg::make(shape(SmemLayoutAtomSF)): the SF tile in tensor memory   // (((mn, replica), k), 1, kblk)
    -> lane << 18 | byte column."""
    mn, vs, nsf = atom_shape.mn, atom_shape.vs, atom_shape.nsf
    # "virtual" addressing (lane stride 1, byte-column stride 128), as CuTe writes the atom
    if alloc is SfAlloc.DUPLICATED_4BY1:
        atom = Layout((((SUBPARTITION_LANES, mn // SUBPARTITION_LANES), REPLICAS), (vs, nsf)),
                      (((1, 512), SUBPARTITION_LANES), (0, 128)))
    else:   # the 2x2 data path: each half of the rows in two sub-partitions
        atom = Layout((((SUBPARTITION_LANES, mn // 2 // SUBPARTITION_LANES), 2, 2), (vs, nsf)),
                      (((1, 512), 64, SUBPARTITION_LANES), (0, 128)))
    rest = Layout((1, (atom_shape.mmas_per_block, atom_shape.blocks_k)))
    logical = logical_product(atom, rest)
    logical = make_layout(logical.mode(0), *logical.mode(1).modes())
    restride = Layout((128, 16384), (TMEM_LANE_UNIT, 1))
    out: Layout = F.composition(restride, logical)
    return out


def tmem_fields(element: int) -> tuple[int, int, int]:
    """(lane, column, byte) of a TMEM uint8 element offset (lane << 18 | byte column)."""
    return element // TMEM_LANE_UNIT, (element % TMEM_LANE_UNIT) // BYTES_PER_COLUMN, element % BYTES_PER_COLUMN


def tmem_address(element: int) -> int:
    """The 32-bit address CuTe's tmem_ptr<uint8_t> hands an instruction: rotr(e, 2)."""
    lane, column, byte = tmem_fields(element)
    return (byte << 30) | (lane * TMEM_ADDRESS_LANE) | column


# --- the (mn, k) views the theorems quantify over ------------------------------------------------------------

def mn_k_view(partitioned: Layout, mn_mma: int, k_mma: int, replicas: int = 1) -> Layout:
    """A layout over CuTe's MMA-partitioned coordinates ((MN_MMA, K_MMA), n_mn, n_k[, stage]) read at the operand's
    own coordinates   // (mn, [replica,] k[, stage]) -> what `partitioned` holds; `replicas` > 1 for the TMEM tile,
    whose MN mode holds the rows once per sub-partition (outermost)."""
    n_mn = int(product(partitioned.mode(1).shape))
    n_k = int(product(partitioned.mode(2).shape))
    mode0 = mn_mma * replicas * k_mma
    mn = Layout((mn_mma, n_mn), (1, mode0))
    k = Layout((k_mma, n_k), (mn_mma * replicas, mode0 * n_mn))
    modes = [mn] + ([Layout(replicas, mn_mma)] if replicas > 1 else []) + [k]
    if partitioned.rank() > 3:
        modes.append(Layout(int(product(partitioned.mode(3).shape)), mode0 * n_mn * n_k))
    out: Layout = F.composition(partitioned, make_layout(*modes))
    return out


# --- make_tma_copy of the SF tile ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SfTma:
    """The TMA CuTe builds for one stage of the SF tile (make_tma_atom_A / B_sm100<uint16_t>): box dimensions,
    innermost first, with their global byte strides (dimension 0's stride is the element)."""
    elem_bytes: int
    box: tuple[int, ...]
    global_strides: tuple[int, ...]    # bytes, one per dimension (dimension 0: the element size)

    @property
    def rank(self) -> int:
        return len(self.box)


TMA_SF_ELEMENT_BYTES = 2          # the SF TMA moves uint16_t: a 512-byte block is 256 elements, one box dimension
TMA_BOX_LIMIT = 256               # elements of one box dimension (cuTensorMapEncodeTiled)


def sf_tma(tile_global: Layout, stage_smem: Layout) -> SfTma | str:
    """make_tma_copy's box for one stage: the smem byte -> global byte map composition(gmem, right_inverse(smem)),
    coalesced, read as uint16 dimensions (CuTe's construct_tma_gbasis); a reason when it is no TMA box (a
    non-contiguous first dimension, a dimension of an odd number of bytes)."""
    smem_to_global = coalesce(F.composition(tile_global, right_inverse(stage_smem)))
    run_shapes = smem_to_global.shape if isinstance(smem_to_global.shape, tuple) else (smem_to_global.shape,)
    run_strides = smem_to_global.stride if isinstance(smem_to_global.stride, tuple) else (smem_to_global.stride,)
    dims = [(int(s), int(d)) for s, d in zip(run_shapes, run_strides) if int(s) > 1]
    e = TMA_SF_ELEMENT_BYTES
    if not dims or dims[0][1] != 1 or dims[0][0] % e:
        return (f"the shared SF tile's bytes map to global bytes as {smem_to_global}: no contiguous run of whole "
                f"{e}-byte elements to make the box's first dimension")
    elements = [(dims[0][0] // e, e)] + dims[1:]
    box: list[int] = []
    strides: list[int] = []
    for size, stride in elements:       # a run longer than a box dimension takes two (construct_tma_gbasis keeps the
        while size > TMA_BOX_LIMIT:     # SF block, 256 uint16, as one mode and the blocks after it as the next)
            part = max(d for d in range(1, TMA_BOX_LIMIT + 1) if size % d == 0)
            if part == 1:
                return f"a run of {size} elements along the box has no divisor up to {TMA_BOX_LIMIT}"
            box.append(part)
            strides.append(stride)
            size, stride = size // part, stride * part
        box.append(size)
        strides.append(stride)
    return SfTma(e, tuple(box), tuple(strides))


def tile_of(global_layout: Layout, tile_mn: int, tile_k: int) -> tuple[Layout, Layout]:
    """zipped_divide of the global SF tensor by the CTA tile: (tile-local (mn, k) -> byte, tile index -> the tile's
    first byte)."""
    divided = zipped_divide(global_layout, (tile_mn, tile_k))
    return divided.mode(0), divided.mode(1)


# --- make_utccp_copy ---------------------------------------------------------------------------------------------

UTCCP_ATOMS = {name: 2 if name.endswith("_2cta") else 1 for name in UTCCP_COPIES}   # name -> CTAs (ThrID)


def utccp_atom(name: str) -> CopyAtom:
    """Copy_Traits<SM100_UTCCP_4x32dp128bit_*>: one thread (two for _2cta, both on the same addresses); the source
    32 rows x 128 bits broadcast four times, the destination the TMEM bits   // (thr, bit) -> bit."""
    ctas = UTCCP_ATOMS[name]
    return CopyAtom(name, Layout(ctas, 0), Layout((ctas, (UTCCP_ROWS, 128, REPLICAS)), (0, (1, UTCCP_ROWS, 0))),
                    Layout((ctas, 16384), (0, 1)), Layout((ctas, 16384), (0, 1)))


def utccp_value_to_tmem() -> Layout:
    """The atom's values in TMEM uint8 elements: (row, byte, replica) -> lane << 18 | byte column   // ValID upcast to
    bytes: (32,16,4):(DP,1,32 DP)."""
    return Layout((UTCCP_ROWS, UTCCP_ROW_BYTES, REPLICAS), (TMEM_LANE_UNIT, 1, SUBPARTITION_LANES * TMEM_LANE_UNIT))


@dataclass(frozen=True)
class UtccpCopy:
    """One tcgen05.cp of a stage's SF tile, as CuTe's partitions hand it out: its shared source (byte offset of the
    first row, relative to the stage) and stride between 8-row groups, and its TMEM destination (uint8 element)."""
    index: int
    smem_start: int
    sbo: int
    lbo: int
    tmem_element: int


def utccp_copies(name: str, smem_stage: Layout, tmem_tile: Layout) -> tuple[TiledCopy, list[UtccpCopy]]:
    """make_utccp_copy over the VS-compacted TMEM tile, its partitions of the stage's shared tile and of the TMEM
    tile, and each copy's descriptor as get_utccp_smem_desc_tensor reads it off the shared partition (the start:
    row 0, byte 0; SBO: row 8 - row 0; LBO: 16, unused by a one-chunk row); AlgebraError (CuTe's rule) where
    make_cotiled_copy or that descriptor's make_umma_desc<K> refuses the tiles."""
    from .tmem import make_cotiled_copy      # Blackwell's TMEM module: loaded by the scale checks that copy only
    from .umma import utccp_source_refusal
    atom = utccp_atom(name).with_value_bits(SF_BITS)
    thr = Layout(UTCCP_ATOMS[name], 0)
    tiled = make_cotiled_copy(atom, make_layout(thr, coalesce(utccp_value_to_tmem())), compact(tmem_tile))
    src = tiled.partition_S(Tensor(0, compact(smem_stage)), 0)
    dst = tiled.partition_D(Tensor(0, compact(tmem_tile)), 0)
    src_layout, dst_layout = src.layout, dst.layout
    assert isinstance(src_layout, Layout) and isinstance(dst_layout, Layout)
    refused = utccp_source_refusal(src_layout.mode(0), UTCCP_ROWS, UTCCP_ROW_BYTES)
    if refused is not None:          # get_utccp_smem_desc_tensor's make_umma_desc<K> does not compile
        raise AlgebraError(*refused)
    values = int(product(src_layout.mode(0).shape))
    copies = int(src_layout.size()) // values
    out = []
    for c in range(copies):
        s0 = int(src_layout(c * values))
        row8 = int(src_layout(c * values + 8)) if values > 8 else s0
        out.append(UtccpCopy(c, s0, row8 - s0, UTCCP_ROW_BYTES, int(dst_layout(c * values))))
    return tiled, out


def value_at(layout: Layout, *coord: int) -> int:
    """layout(coord) for a coordinate without `_`: an offset."""
    out = layout(*coord)
    assert isinstance(out, int), out
    return out


def compact(layout: Layout) -> Layout:
    """filter_zeros of a layout's shape where its stride is 0 (the VS mode): CUTLASS's `*_compact` tensors."""
    def walk(shape: object, stride: object) -> tuple[object, object]:
        if isinstance(shape, tuple):
            pairs = [walk(s, d) for s, d in zip(shape, stride)]  # type: ignore[call-overload]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return (1, 0) if int(stride) == 0 else (shape, stride)   # type: ignore[call-overload]
    shape, stride = walk(layout.shape, layout.stride)
    return Layout(shape, stride)


# --- CUTLASS's glue for an MMA N that is no multiple of 128 (sm100_blockscaled_mma_warpspecialized.hpp) -----------

ODD_TILE_COLUMNS = 2          # the odd N tiles' scale-B address moves 2 TMEM columns (64 rows of B) on
ODD_TILE_ROWS = ODD_TILE_COLUMNS * SUBPARTITION_LANES
CTA_N_GLUE = (64, 192)        # IsCtaN64, IsCtaN192
CTA_N = (64, 128, 192, 256)   # the block-scaled collective's static_assert on its CTA tile's N (the MMA's N)
CTA_N_RULE = "Cta N should be one of 64/128/192/256"
# MMA_Traits<SM100_MMA_MXF4_SS>'s static_assert, which every MXF4 collective meets through its TiledMMA_SF (the
# traits' MMA_ScaleFactor: the 1-SM atom, whatever the CTA group of the GEMM's own)
MXF4_ATOM_PREFIX = "SM100_MMA_MXF4_"
MXF4_VS32 = 32
MXF4_VS32_OPERANDS = ("float_e2m1_t", "type_erased_dynamic_float4_t")
MXF4_VS32_SF = "float_ue8m0_t"
MXF4_VS32_RULE = ("2x mode (VectorSize=32) only supports a_type and b_type=float_e2m1_t or "
                  "cutlass::type_erased_dynamic_float4_t and sf_type=ue8m0_t")


def mxf4_vs32_refusal(atom_name: str, a_type: str, b_type: str, sf_type: str, vs: int) -> str | None:
    """Why MMA_Traits<SM100_MMA_MXF4_SS> refuses an MXF4 atom of these types and VS (32: e2m1 operands and ue8m0
    factors only), or None."""
    if not atom_name.startswith(MXF4_ATOM_PREFIX) or vs != MXF4_VS32:
        return None
    if a_type in MXF4_VS32_OPERANDS and b_type in MXF4_VS32_OPERANDS and sf_type == MXF4_VS32_SF:
        return None
    return f"{atom_name}: VS {vs} with {a_type} x {b_type} operands and {sf_type} factors"


def cta_n_remap(global_layout: Layout, mma_n: int) -> Layout | None:
    """The coordinate tensor CUTLASS's collective loads SFB through when the CTA's N is 192 or 64 (None otherwise):
    the global SF tensor's N mode ((32,4), blocks):((s0,s1), x) rewritten so that N tile t of the rounded-up SF tile
    (256 or 128 rows) reads the 128-row blocks holding the tile's rows —
        N = 192: ((32,4),((2,2),y)):((s0,s1),((x,x),3x))   tile 2j: blocks 3j, 3j+1; 2j+1: 3j+1, 3j+2
        N = 64:  ((32,4),(2,blocks)):((s0,s1),(0,x))        tiles 2j, 2j+1: block j
    and its odd tiles' MMA reads the tile from row 64 on (ODD_TILE_ROWS)   // (n', k) -> SF byte.
    CUTLASS sizes y = ceil(blocks / 4); CuTe evaluates a coordinate past a layout's last mode linearly, so the last
    CTA tile may index past it: y here is large enough for every CTA tile of the tensor (ceil(MN / 192) tiles)."""
    if mma_n not in CTA_N_GLUE or global_layout.rank() != 2 or global_layout.mode(0).rank() != 2:
        return None
    n_mode, k_mode = global_layout.mode(0), global_layout.mode(1)
    inner, blocks = n_mode.mode(0), n_mode.mode(1)
    if int(inner.size()) != SF_BLOCK_ROWS or not isinstance(blocks.shape, int):   # not Sm1xxBlkScaledConfig's
        return None
    x, count = int(blocks.stride), int(blocks.size())
    if mma_n == 192:
        cta_tiles = -(-count * SF_BLOCK_ROWS // mma_n)
        outer = Layout(((2, 2), max(-(-count // 4), -(-cta_tiles // 2))), ((x, x), 3 * x))
    else:
        outer = Layout((2, count), (0, x))
    return make_layout(make_layout(inner, outer), k_mode)
