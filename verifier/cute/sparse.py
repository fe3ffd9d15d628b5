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
from ..algebra.inttuple import Underscore, flatten_to_tuple, product
from ..algebra.layout import Layout, make_ordered_layout
from ..algebra.ops import right_inverse
from .copy import TiledCopy, TypedCopyAtom
from .mma import TiledMMA, make_fragment_like

ATOM_M = 64                     # TensorEAtomM: four 16-row blocks, one wgmma's M
MAX_ATOM_K = 128                # MinTileShapeK = min(TileK, 128)
BLOCK_K_BITS = 512              # BlockK = 512 / bits(A)
TMA_ELEMENT_BITS = 64           # make_tma_copy_A_sm90<uint64_t>: "use uint64_t to get the largest loading box"
TMA_BOX_LIMIT = 256             # coalesce_256: the largest box extent, in uint64
TMA_RANK_LIMIT = 5
BASIS = 1 << 32                 # a marker base: leaf i of the global tensor is stride BASIS**i (no two leaves merge)
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


def tensor_e_atom(a_bits: int, tile_k: int) -> Layout | str:
    """Sm90GemmSparseConfig::TensorEAtom for A of `a_bits` bits and a CTA tile of K `tile_k` (logical elements of E:
    (m, k) -> offset), or why CUTLASS refuses it (its static_assert)."""
    fmt = FORMATS.get(a_bits)
    if fmt is None:
        return f"no SM90 sparse GEMM takes {a_bits}-bit A (Sm90GemmSparseConfig: \"Ambiguous Input Type Config\")"
    min_k = min(tile_k, MAX_ATOM_K)
    if min_k % fmt.block_k:
        return (f"MinTileShapeK {min_k} is no multiple of BlockK {fmt.block_k} (static_assert \"MinTileShapeK must be "
                "a multiple of BlockK\")")
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

@dataclass(frozen=True)
class MetaTma:
    """The tensor map CuTe encodes for a stage of E: box and global extents in uint64, innermost first, global
    strides in bytes (dimension 0's is the element, 8)."""
    box: tuple[int, ...]
    global_dim: tuple[int, ...]
    global_strides: tuple[int, ...]      # bytes, one per dimension
    elements_per_word: int               # logical elements of E in one uint64

    @property
    def rank(self) -> int:
        return len(self.box)

    @property
    def box_words(self) -> int:
        return int(product(self.box))


def _leaves(layout: Layout) -> list[tuple[int, int]]:
    return [(int(s), int(d)) for s, d in zip(flatten_to_tuple(layout.shape), flatten_to_tuple(layout.stride))]


def _marked(layout: Layout) -> Layout:
    """The layout with leaf i's stride replaced by BASIS**i: CuTe's basis strides (E<i,j..>), which coalesce only
    within one leaf of the global tensor."""
    shape = layout.shape
    count = [0]

    def mark(s: object) -> object:
        if isinstance(s, tuple):
            return tuple(mark(e) for e in s)
        count[0] += 1
        return BASIS ** (count[0] - 1)
    return Layout(shape, mark(shape))


def _unmark(stride: int) -> tuple[int, int]:
    """(leaf, basis value) of a marked stride."""
    leaf = 0
    while stride >= BASIS ** (leaf + 1):
        leaf += 1
    return leaf, stride // BASIS ** leaf


def _coalesce_256(modes: list[tuple[int, int, int]]) -> list[tuple[int, int, list[int]]]:
    """CuTe's coalesce_256 of (shape, stride, leaf) modes: merge a mode into the last while the strides chain and
    the product stays at most 256 (shape-1 modes skipped); each result keeps the leaves merged into it."""
    out: list[tuple[int, int, list[int]]] = []
    for shape, stride, leaf in modes:
        if shape == 1:
            continue
        if out and out[-1][0] * out[-1][1] == stride and shape * out[-1][0] <= TMA_BOX_LIMIT:
            s, d, leaves = out[-1]
            out[-1] = (s * shape, d, leaves + [leaf])
        else:
            out.append((shape, stride, [leaf]))
    return out


def metadata_tma(gmem: Layout, blk_m: int, blk_k: int, stage: Layout, e_bits: int) -> MetaTma | str:
    """The box CuTe's make_tma_copy_A_sm90<uint64_t> derives for one stage of E (construct_tma_gbasis): the smem
    element -> tile coordinate inverse composed with the tile's global coordinates, kept while it runs along whole
    leaves of the global tensor, recast to uint64 and coalesced up to 256; the leaves of the global tensor the tile
    does not reach are appended as extent-1 dimensions (fill_tma_gmem_shape_stride gives each its extent and
    stride).  A reason when CuTe finds no such box (its static_assert)."""
    n = TMA_ELEMENT_BITS // e_bits
    marked = _marked(gmem)
    gleaves = _leaves(gmem)
    inv = right_inverse(stage)                                         # smem element -> m + BLK_M k
    tile = F.composition(marked, (Layout(blk_m), Layout(blk_k)))       # the CTA tile's (m, k) -> global leaves
    sidx2g = F.coalesce(F.composition(tile, inv))
    kept: list[tuple[int, int, int]] = []
    for shape, stride in _leaves(sidx2g):
        if shape == 1:
            continue
        leaf, value = _unmark(stride)
        if value != 1:             # "no starting in the middle of gmodes": the box ends here
            break
        kept.append((shape, gleaves[leaf][1], leaf))
    if not kept or kept[0][1] != 1:
        return ("Could not find a common tile-gmem vectorization (construct_tma_gbasis): the shared E tile does not "
                f"start with a run of the global tensor's contiguous elements ({sidx2g})")
    # recast<uint64_t>: upcast each mode by n logical elements (CuTe's upcast, leaf by leaf)
    recast: list[tuple[int, int, int]] = []
    for shape, stride, leaf in kept:
        if stride % n and n % stride:
            return (f"a run of {shape} E elements at stride {stride} is no whole number of uint64 (Divisibility "
                    "condition)")
        recast.append((-(-shape // -(-n // stride)), -(-stride // n), leaf))
    dims = _coalesce_256(recast)
    if not dims:
        return "the stage's E tile is less than one uint64"
    covered = {leaf for _, _, leaves in dims for leaf in leaves}
    words = [_recast_leaf(s, d, n) for s, d in gleaves]
    box, gdim, gstride = [], [], []
    for shape, _, leaves in dims:
        extent, step = _gmem_extent([words[i] for i in leaves])
        box.append(shape)
        gdim.append(extent)
        gstride.append(step * TMA_ELEMENT_BITS // 8)
    for i, (s, d) in enumerate(words):
        if i in covered or s == 1 or d == 0:
            continue
        box.append(1)
        gdim.append(s)
        gstride.append(d * TMA_ELEMENT_BITS // 8)
    if len(box) > TMA_RANK_LIMIT:   # group the trailing modes (CuTe's group<4,-1>): one dimension of their product
        tail = len(box) - TMA_RANK_LIMIT + 1
        box = box[:TMA_RANK_LIMIT - 1] + [int(product(tuple(box[TMA_RANK_LIMIT - 1:])))]
        extent, step = _gmem_extent(list(zip(gdim[-tail:], [g * 8 // TMA_ELEMENT_BITS for g in gstride[-tail:]])))
        gdim = gdim[:TMA_RANK_LIMIT - 1] + [extent]
        gstride = gstride[:TMA_RANK_LIMIT - 1] + [step * TMA_ELEMENT_BITS // 8]
    return MetaTma(tuple(box), tuple(gdim), tuple(gstride), n)


def _recast_leaf(shape: int, stride: int, n: int) -> tuple[int, int]:
    """A leaf of the global tensor recast to uint64 (CuTe's upcast<n>(shape, stride))."""
    if stride == 0:
        return shape, 0
    return -(-shape // -(-n // stride)), -(-stride // n)


def _gmem_extent(leaves: list[tuple[int, int]]) -> tuple[int, int]:
    """fill_tma_gmem_shape_stride's recurrence over the leaves one TMA dimension covers: the stride their gcd, the
    extent (s_i - 1) * (d_i / gcd) summed, plus 1."""
    from math import gcd
    stride = 0
    extent = 1
    for s, d in leaves:
        old = stride
        stride = gcd(stride, d)
        if stride:
            extent = (extent - 1) * (old // stride if old else 0) + (s - 1) * (d // stride) + 1
        else:
            extent = s
    return extent, stride
