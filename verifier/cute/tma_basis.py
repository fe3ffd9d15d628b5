"""construct_tma_gbasis, as CuTe's make_tma_copy derives the box of one shared stage from the global tensor: the
shared element -> tile coordinate inverse composed with the tile's global coordinates, kept while it runs along
whole leaves of the global tensor, recast to the TMA element and coalesced up to 256 a dimension; the leaves the tile
does not reach appended as extent-1 dimensions (fill_tma_gmem_shape_stride gives each its extent and stride); more
than five dimensions grouped into the last (CuTe's group<4,-1>).  Shared by the sparse metadata E (uint64_t) and the
value-shuffled A (uint8_t or the narrow type)."""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra import functions as F
from ..algebra.inttuple import flatten_to_tuple, product
from ..algebra.layout import Layout
from ..algebra.ops import right_inverse

# CuTe's to_CUtensorMapDataType (cute/arch/copy_sm90_desc.hpp): the tensor map data type make_tma_copy encodes for
# an element type (named as hardware/tma.py names them); any other type is its static_assert UNKNOWN_TMA_FORMAT
TMA_DATA_TYPES = {"int8_t": "uint8", "uint8_t": "uint8", "float_e4m3_t": "uint8", "float_e5m2_t": "uint8",
                  "float_ue8m0_t": "uint8", "uint16_t": "uint16", "uint32_t": "uint32", "uint64_t": "uint64",
                  "int32_t": "int32", "int64_t": "int64", "half_t": "float16", "float": "float32",
                  "double": "float64", "bfloat16_t": "bfloat16", "tfloat32_t": "tfloat32"}
UNKNOWN_TMA_FORMAT = "Unknown TMA Format!"
TMA_BOX_LIMIT = 256             # coalesce_256: the largest box extent, in TMA elements
TMA_RANK_LIMIT = 5
BASIS = 1 << 32                 # a marker base: leaf i of the global tensor is stride BASIS**i (no two leaves merge)
BYTE = 8


# construct_tma_gbasis's static_asserts (copy_traits_sm90_tma.hpp; upcast's in layout.hpp under its recast)
NO_VECTORIZATION_RULE = "Could not find a common tile-gmem vectorization. Does the Tile select out major GMEM modes?"
DIVISIBILITY_RULE = "Divisibility condition"


@dataclass(frozen=True)
class TmaRefused:
    """make_tma_copy's compile-time refusal of a stage (a static_assert): CuTe's rule and what it met."""
    rule: str
    detail: str


@dataclass(frozen=True)
class TmaBasis:
    """The tensor map CuTe encodes for a stage: box and global extents in TMA elements, innermost first, global
    strides in bytes (dimension 0's is the element)."""
    box: tuple[int, ...]
    global_dim: tuple[int, ...]
    global_strides: tuple[int, ...]      # bytes, one per dimension
    elements_per_word: int               # logical elements in one TMA element
    word_bits: int                       # bits of the TMA element

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


def construct_tma_gbasis(gmem: Layout, blk_m: int, blk_k: int, stage: Layout, elem_bits: int, word_bits: int,
                         tile: str = "tile") -> TmaBasis | TmaRefused | str:
    """The box CuTe derives for one stage (`stage`: smem element -> m + blk_m k) of the global tensor `gmem` over
    (M, K), in TMA elements of `word_bits` over logical elements of `elem_bits`; its static_assert when the stage
    starts with no unit step of a global mode or a run splits a TMA element (TmaRefused); a reason (naming the
    shared `tile`) when its box is no tensor map the hardware takes (the first dimension's stride not 1: the host's
    run-time assert)."""
    n = max(1, word_bits // elem_bits)
    marked = _marked(gmem)
    gleaves = _leaves(gmem)
    inv = right_inverse(stage)                                         # smem element -> m + BLK_M k
    tiled = F.composition(marked, (Layout(blk_m), Layout(blk_k)))      # the CTA tile's (m, k) -> global leaves
    sidx2g = F.coalesce(F.composition(tiled, inv))
    kept: list[tuple[int, int, int]] = []
    for shape, stride in _leaves(sidx2g):
        if shape == 1:
            continue
        leaf, value = _unmark(stride)
        if value != 1:             # "no starting in the middle of gmodes": the box ends here
            break
        kept.append((shape, gleaves[leaf][1], leaf))
    if not kept:                   # smem_rank == 0: no mode of unit basis value to start the box
        return TmaRefused(NO_VECTORIZATION_RULE, f"construct_tma_gbasis: the shared {tile}'s first run steps no "
                                                 f"global mode by one element ({sidx2g})")
    if kept[0][1] != 1:
        return (f"Could not find a common tile-gmem vectorization (construct_tma_gbasis): the shared {tile} does not "
                f"start with a run of the global tensor's contiguous elements ({sidx2g})")
    # recast to the TMA element: upcast each mode by n logical elements (CuTe's upcast, leaf by leaf)
    recast: list[tuple[int, int, int]] = []
    for shape, stride, leaf in kept:
        if stride % n and n % stride:  # upcast<n> of the run, under construct_tma_gbasis's recast
            return TmaRefused(DIVISIBILITY_RULE, f"construct_tma_gbasis: a run of {shape} elements at stride {stride} "
                                                 f"is no whole number of {word_bits}-bit TMA elements")
        recast.append((-(-shape // -(-n // stride)), -(-stride // n), leaf))
    dims = _coalesce_256(recast)
    if not dims:
        return f"the stage's {tile} is less than one {word_bits}-bit TMA element"
    covered = {leaf for _, _, leaves in dims for leaf in leaves}
    words = [_recast_leaf(s, d, n) for s, d in gleaves]
    box, gdim, gstride = [], [], []
    for shape, _, leaves in dims:
        extent, step = _gmem_extent([words[i] for i in leaves])
        box.append(shape)
        gdim.append(extent)
        gstride.append(step * word_bits // BYTE)
    for i, (s, d) in enumerate(words):
        if i in covered or s == 1 or d == 0:
            continue
        box.append(1)
        gdim.append(s)
        gstride.append(d * word_bits // BYTE)
    if len(box) > TMA_RANK_LIMIT:   # group the trailing modes (CuTe's group<4,-1>): one dimension of their product
        tail = len(box) - TMA_RANK_LIMIT + 1
        box = box[:TMA_RANK_LIMIT - 1] + [int(product(tuple(box[TMA_RANK_LIMIT - 1:])))]
        extent, step = _gmem_extent(list(zip(gdim[-tail:], [g * BYTE // word_bits for g in gstride[-tail:]])))
        gdim = gdim[:TMA_RANK_LIMIT - 1] + [extent]
        gstride = gstride[:TMA_RANK_LIMIT - 1] + [step * word_bits // BYTE]
    return TmaBasis(tuple(box), tuple(gdim), tuple(gstride), n, word_bits)


__all__ = ["TmaBasis", "TmaRefused", "construct_tma_gbasis", "TMA_RANK_LIMIT", "TMA_BOX_LIMIT"]
