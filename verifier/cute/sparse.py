"""What CUTLASS 4.2 builds for the metadata (E) of its SM90 structured-sparse GEMM, as CuTe computes it.

- `Sm90GemmSparseConfig` (cutlass/gemm/collective/builders/sm90_sparse_config.inl): the metadata atom TensorEAtom
  (BlockK = 512 / bits(A) logical elements, NumK = min(TileK, 128) / BlockK of them; 16-bit and tf32 A reorder the
  atom with make_ordered_layout so that one thread's metadata of consecutive wgmmas is contiguous, 8-bit A is plain
  row-major), and fill_layoutE, the global E tensor: whole atoms, M fastest, then K.
- the collective (cutlass/gemm/collective/sm90_sparse_mma_tma_gmma_ss_warpspecialized.hpp): SmemLayoutE =
  tile_to_shape(SmemLayoutAtomE, (BLK_M, BLK_K, Stages)), the identity swizzle; `thrfrg_E`, `get_layoutE_TV`,
  `partition_E` and `make_tiled_copy_E` over the TiledMMA with MMA_Traits::ELayout; the smem -> register copy
  Copy_Atom<AutoVectorizingCopy, uint32_t> (partition_S of the shared tile, retile_D of the register fragment
  make_fragment_like(tCsE) makes); the box make_tma_copy_A_sm90<uint64_t> reads off SmemLayoutE and LayoutE
  (cute/atom/copy_traits_sm90_tma.hpp: construct_tma_gbasis, coalesce_256, fill_tma_gmem_shape_stride).

Every layout here is in logical elements of E (ElementEMma = sparse_elem<8, uint8_t>: one bit a logical element of A;
sparse_elem<4, uint8_t> for tf32: two bits), the units CUTLASS writes them in; a sparse pointer reads logical offset i
at bit i * bits(E) of the buffer.

The metadata of a row: CUTLASS's compressor (cutlass/transform/kernel/sm90_sparse_gemm_compressor.hpp) writes the
4 bits of chunk c of row m (4 logical elements of A at 2:4, 2 for tf32) at the logical elements of E covering that
chunk, bit q of the chunk's metadata at row bit 4c + q: E's logical element (m, k) holds row bits k*bits(E) ..
(k+1)*bits(E)-1.  `row_bit` is that contract.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra import functions as F
from ..algebra.inttuple import Underscore, product
from ..algebra.layout import Layout, make_ordered_layout
from ..algebra.ops import right_inverse
from ..algebra.types import SPARSE_ELEM
from .copy import TiledCopy, TypedCopyAtom
from .tma_basis import TmaBasis, TmaRefused, construct_tma_gbasis
from .mma import TiledMMA, make_fragment_like

ATOM_M = 64                     # TensorEAtomM: four 16-row blocks, one wgmma's M
MAX_ATOM_K = 128                # MinTileShapeK = min(TileK, 128)
BLOCK_K_BITS = 512              # BlockK = 512 / bits(A)
TMA_ELEMENT_BITS = 64           # make_tma_copy_A_sm90<uint64_t>: "use uint64_t to get the largest loading box"
# the reordered 16-bit / tf32 atom: ((8,2,4),(chunk run, thread-pair half, NumK)) ordered ((3,1,5),(0,4,2))
REORDERED_ORDER = ((3, 1, 5), (0, 4, 2))
CHUNK_RUN = {16: 16, 32: 8}     # the first K mode of the reordered atom: one thread's 16 (tf32: 8) logical elements


@dataclass(frozen=True)
class MetadataFormat:
    """The metadata of A of one width: ElementEMma and the bits a logical element of A takes in E."""
    a_bits: int
    e_type: str                 # MMA_Traits::ValTypeE
    e_bits: int

    @property
    def block_k(self) -> int:
        return BLOCK_K_BITS // self.a_bits


FORMATS: dict[int, MetadataFormat] = {16: MetadataFormat(16, "sparse_elem<8,uint8_t>", 1),
                                      8: MetadataFormat(8, "sparse_elem<8,uint8_t>", 1),
                                      32: MetadataFormat(32, "sparse_elem<4,uint8_t>", 2)}


MIN_TILE_K_RULE = "MinTileShapeK must be a multiple of BlockK"      # Sm90GemmSparseConfig's static_assert


def tensor_e_atom(a_bits: int, tile_k: int) -> Layout | str:
    """Sm90GemmSparseConfig::TensorEAtom for A of `a_bits` bits and a CTA tile of K `tile_k` (logical elements of E:
    (m, k) -> offset), or why CUTLASS refuses it (its static_assert)."""
    fmt = FORMATS.get(a_bits)
    if fmt is None:
        return f"no SM90 sparse GEMM takes {a_bits}-bit A (Sm90GemmSparseConfig: \"Ambiguous Input Type Config\")"
    min_k = min(tile_k, MAX_ATOM_K)
    if min_k % fmt.block_k:
        return f"MinTileShapeK {min_k} is no multiple of BlockK {fmt.block_k} (static_assert \"{MIN_TILE_K_RULE}\")"
    if a_bits == 8:
        return make_ordered_layout((ATOM_M, min_k), (1, 0))
    num_k = min_k // fmt.block_k
    return make_ordered_layout(((8, 2, 4), (CHUNK_RUN[a_bits], 2, num_k)), REORDERED_ORDER)


def atom_extent(atom: Layout) -> tuple[int, int]:
    return int(product(atom.mode(0).shape)), int(product(atom.mode(1).shape))


def fill_layout_e(atom: Layout, m: int, k: int) -> Layout:
    """Sm90GemmSparseConfig::fill_layoutE for a problem of M x K (one batch: the L mode left out): whole atoms, M
    fastest, then K, each extent rounded up to the atom's.   // (m, k) -> E element"""
    atom_m, atom_k = atom_extent(atom)
    m_al, k_al = -(-m // atom_m) * atom_m, -(-k // atom_k) * atom_k
    cosize = int(atom.cosize())
    return Layout(((atom.mode(0).shape, m_al // atom_m), (atom.mode(1).shape, k_al // atom_k)),
                  ((atom.mode(0).stride, cosize), (atom.mode(1).stride, m_al * atom_k)))


def smem_layout_e(atom: Layout, blk_m: int, blk_k: int, stages: int) -> Layout:
    """SmemLayoutE = tile_to_shape(SmemLayoutAtomE, (BLK_M, BLK_K, Stages)) (the atom's swizzle is the identity,
    Swizzle<0,4,3>).   // (m, k, stage) -> E element"""
    return F.tile_to_shape(atom, (blk_m, blk_k, stages))


# --- the collective's partition of E over the TiledMMA --------------------------------------------------------

def thrfrg_e(mma: TiledMMA, layout: Layout, e_layout: Layout) -> Layout:
    """CollectiveMma::thrfrg_E: ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK))) -> the layout's codomain."""
    t = F.logical_divide(layout, (mma.permutation_mnk(0), mma.permutation_mnk(2)))
    atom_m, _, atom_k = mma.atom.shape_mnk
    e_tensor = F.zipped_divide(t, (Layout(atom_m), Layout(atom_k)))              # ((AtomM,AtomK),(RestM,RestK))
    tv = F.composition(e_tensor, (e_layout, Underscore))                         # ((ThrV,FrgV),(RestM,RestK))
    vmnk = mma.thr_layout_vmnk
    thr_tile = (Underscore, (Layout(int(vmnk.mode(1).size())), Layout(int(vmnk.mode(3).size()))))
    out: Layout = F.zipped_divide(tv, thr_tile)                                  # ((ThrV,(ThrM,ThrK)),(FrgV,Rest))
    return out


def layout_e_tv(mma: TiledMMA, e_layout: Layout) -> Layout:
    """CollectiveMma::get_layoutE_TV: (thread index, value) -> m + tile_M k of the TiledMMA's (M, K) tile."""
    ref = Layout((mma.tile_size(0), mma.tile_size(2)))
    tv = thrfrg_e(mma, ref, e_layout)
    vmnk = mma.thr_layout_vmnk
    etile = (Underscore, (Layout((int(vmnk.mode(1).size()), int(vmnk.mode(2).size())), (1, 0)), Underscore))
    tv = F.composition(tv, (etile, Underscore))
    out: Layout = F.composition(tv, (right_inverse(vmnk), Underscore))
    return out


def partition_e(mma: TiledMMA, layout: Layout, e_layout: Layout, thr_idx: int) -> Layout:
    """CollectiveMma::partition_E(thr_mma, tensor): (FrgV, RestM, RestK) of thread `thr_idx`'s slice."""
    thr = thrfrg_e(mma, layout, e_layout)
    v, m, _, k = mma.thr_vmnk(thr_idx)
    return thr.slice(((v, (m, k)), (Underscore, (Underscore, Underscore))))


def tiled_copy_e(mma: TiledMMA, e_layout: Layout, atom: TypedCopyAtom) -> TiledCopy:
    """make_tiled_copy_E(copy_atom, tiled_mma) = make_tiled_copy_impl(atom, get_layoutE_TV, (tile_M, tile_K))."""
    return TiledCopy(atom, layout_e_tv(mma, e_layout), (mma.tile_size(0), mma.tile_size(2)))


def register_fragment(mma: TiledMMA, stage0: Layout, e_layout: Layout, copy: TiledCopy, thr_idx: int) -> Layout:
    """tErE = retile_D(make_fragment_like<ElementEMma>(partition_E(thr_mma, sE(_,_,0)))) for the warpgroup of
    `thr_idx` (its thread_mma is the warpgroup's first thread's): (CPY, CPY_M, CPY_K) -> register element."""
    warpgroup_first = thr_idx - thr_idx % int(mma.atom.thr_id.size())
    frag = make_fragment_like(partition_e(mma, stage0, e_layout, warpgroup_first))
    return copy.retile(frag)


def row_bit(k: int, e_bits: int, sub_bit: int = 0) -> int:
    """The compressor's contract: bit `sub_bit` of E's logical element k of a row is bit k*bits(E) + sub_bit of the
    row's metadata (chunk c's four bits at 4c .. 4c+3)."""
    return k * e_bits + sub_bit


# --- make_tma_copy_A_sm90<uint64_t> of E -----------------------------------------------------------------------

MetaTma = TmaBasis          # the tensor map of a stage of E (uint64_t elements)


# Sm90GemmSparseConfig's and Sm1xxGemmSparseConfig's static_assert on the tiled MMA's ValTypeE
E_NOT_SPARSE_RULE = "ElementEMma MUST be sparse elem"


def metadata_type_refusal(e_type: str | None) -> tuple[str, str] | None:
    """The sparse configs' static_assert on the atom's ValTypeE (`cute::is_sparse`): (rule, what it was given) when
    the type is no sparse_elem<S, T>; None when it is one, or the atom names none."""
    if e_type is None or SPARSE_ELEM.match(e_type):
        return None
    return E_NOT_SPARSE_RULE, f"the atom's ValTypeE is {e_type}, no sparse_elem<S, T>"


def metadata_tma(gmem: Layout, blk_m: int, blk_k: int, stage: Layout, e_bits: int) -> MetaTma | TmaRefused | str:
    """The box CuTe's make_tma_copy_A_sm90<uint64_t> derives for one stage of E (construct_tma_gbasis, tma_basis.py);
    a reason when CuTe finds no such box (its static_assert)."""
    return construct_tma_gbasis(gmem, blk_m, blk_k, stage, e_bits, TMA_ELEMENT_BITS, tile="E tile")
