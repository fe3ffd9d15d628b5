"""CUTLASS's blockwise scaling as CuTe computes it (cutlass/detail/blockwise_scale_layout.hpp, the SM90 collective
sm90_mma_[array_]tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp and the SM100 collective
sm100_mma_array_warpspecialized_blockwise_scaling.hpp): the shared and global scale layouts, the CTA tile of the global
tensor, the per-thread partitions a scale loader's copy_if walks (filter_zeros'd), the box make_tma_copy derives for a
TMA-loaded SFA, the broadcast views the readers partition, and the accumulator's TMEM layout (UMMA::tmem_frg).

A scale covers a block of gMN x gK elements of A (rows m) or B (columns n) and K; every layout here maps an element
coordinate (mn, k) to the scale's element (global) or slot (shared), its granularity modes stride 0 — the layouts of
CUTLASS's Sm1xxBlockwiseScaleConfig, whose shape is ((gMN, MN / gMN), (gK, K / gK)).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..algebra import functions as F
from ..algebra.inttuple import AlgebraError, IntTuple, flatten_to_tuple, product
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import coalesce, filter_zero_strides, right_inverse
from .copy import TiledCopy

MN_MAJOR, K_MAJOR = "MN", "K"          # UMMA::Major of SFA / SFB: which block index is contiguous
MAJORS = (MN_MAJOR, K_MAJOR)
SCALE_BITS = 32                        # ElementBlockScale = the accumulator's float
SCALE_BYTES = SCALE_BITS // 8
TMA_SCALE_TYPE = "float32"             # make_tma_copy(SM90_TMA_LOAD, Tensor<float const*>): the tensor map's type
TMA_BOX_LIMIT = 256
TMEM_LANE = 1 << 16                    # TMEM::DP<float>: one TMEM lane in 32-bit-cell addressing (lane << 16 | column)
TMEM_SUBPARTITION_LANES = 32


def scale_atom(g_mn: int, g_k: int, tile_mn: int, tile_k: int, major: str = MN_MAJOR) -> Layout:
    """smem_atom_layoutSFA / SFB of a CTA tile: ((gMN, MN/gMN), (gK, K/gK)) -> slot   // (mn, k) -> slot
    (MN-major: the MN block index contiguous)."""
    blocks_mn, blocks_k = -(-tile_mn // g_mn), -(-tile_k // g_k)
    stride = ((0, 1), (0, blocks_mn)) if major == MN_MAJOR else ((0, blocks_k), (0, 1))
    return Layout(((g_mn, blocks_mn), (g_k, blocks_k)), stride)


def scale_smem(atom: Layout, stages: int) -> Layout:
    """SmemLayoutSFA / SFB: the atom with a PIPE mode, the stages size(filter_zeros(atom)) slots apart
    // (mn, k, stage) -> slot."""
    return Layout(atom.shape + (stages,), atom.stride + (int(filter_zero_strides(atom).size()),))


def scale_global(g_mn: int, g_k: int, extent_mn: int, extent_k: int, major: str = MN_MAJOR) -> Layout:
    """tile_atom_to_shape_SFA / SFB over an extent_mn x extent_k problem, one batch (L dropped)
    // (mn, k) -> global scale element."""
    blocks_mn, blocks_k = -(-extent_mn // g_mn), -(-extent_k // g_k)
    stride = ((0, 1), (0, blocks_mn)) if major == MN_MAJOR else ((0, blocks_k), (0, 1))
    return Layout(((g_mn, blocks_mn), (g_k, blocks_k)), stride)


def granularity_of(layout: Layout) -> tuple[int, int]:
    """(size<0,0>, size<1,0>): the granularity CUTLASS's collective reads off a scale layout (ScaleGranularityM/N/K)."""
    out = []
    for i in range(2):
        mode = layout.mode(i)
        first = mode.mode(0) if mode.rank() > 1 else mode
        out.append(int(product(first.shape)))
    return out[0], out[1]


def tile_of(global_layout: Layout, tile_mn: int, tile_k: int) -> tuple[Layout, Layout]:
    """local_tile of the global scale tensor by the CTA tile: (mn, k) of one tile -> element, relative to the tile's
    first   // and (tile along MN, tile along K) -> the tile's first element."""
    divided = F.zipped_divide(global_layout, (tile_mn, tile_k))
    return divided.mode(0), divided.mode(1)


# --- a thread's partition ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ThreadPartition:
    """A TiledCopy's partition of a rank-2 tensor, as one thread sees it: the thread's offset (the full partition's
    thread mode), its unfiltered (CPY, CPY_M, CPY_K) layout and that layout filter_zeros'd (stride-0 leaves size 1,
    the copy_if CUTLASS issues walks this one)."""
    thread: Layout          # // thread -> offset
    values: Layout          # // (CPY, CPY_M, CPY_K) -> offset, relative to the thread's
    filtered: Layout        # // the same, filter_zeros'd

    @property
    def vector(self) -> int:
        """Values of one copy instruction (the CPY mode, filtered)."""
        return int(self.filtered.mode(0).size())

    @property
    def rest(self) -> Layout:
        """copy_if's group_modes<1,R>: the filtered modes after CPY as one mode   // rest index -> offset."""
        modes = [self.filtered.mode(i) for i in range(1, self.filtered.rank())]
        return Layout(tuple(m.shape for m in modes), tuple(m.stride for m in modes))

    @property
    def calls(self) -> int:
        return int(self.rest.size())


def thread_partition(full: Layout) -> ThreadPartition:
    """(thr, val, rest) from tidfrg_S / tidfrg_D, as CuTe's partition slices it: thr(t, _, repeat<R>(_))."""
    val, rest = full.mode(1), full.mode(2)
    rest_modes = rest.modes() if rest.rank() > 1 else [rest]
    values = Layout((val.shape,) + tuple(m.shape for m in rest_modes),
                    (val.stride,) + tuple(m.stride for m in rest_modes))
    return ThreadPartition(full.mode(0), values, filter_zero_strides(values))


@dataclass(frozen=True)
class CopyPartitions:
    """The scale loader's partitions of one CTA tile: the global tile (source), the shared stage (destination) and
    the tile's coordinates (the destination's: (thr, val, rest) -> mn + MN k)."""
    copy: TiledCopy
    src: ThreadPartition
    dst: ThreadPartition
    coords: Layout          # // (thr, val, rest) -> mn + TILE_MN * k: partition_D of the tile's coordinates


def copy_partitions(copy: TiledCopy, tile_global: Layout, stage_smem: Layout, tile_mn: int,
                    tile_k: int) -> CopyPartitions:
    """partition_S of the global tile and partition_D of the shared stage (CUTLASS partitions the tile with its k and
    stage modes; the copy divides mode 0 only, so those modes ride along as offsets)."""
    return CopyPartitions(copy, thread_partition(copy.tidfrg_S(tile_global)),
                          thread_partition(copy.tidfrg_D(stage_smem)), copy.tidfrg_D(Layout((tile_mn, tile_k))))


def leaf_shapes(layout: Layout) -> list[int]:
    return [int(s) for s in flatten_to_tuple(layout.shape)]


# --- TMA (SM90 SFA: IsTmaLoadSFA) -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ScaleTma:
    """The box make_tma_copy(SM90_TMA_LOAD, filter_zeros(layout_SFA), filter_zeros(SmemLayoutSFA)(_,_,0),
    (ScaleMsPerTile, 1)) loads into a stage, and the tensor map's dimensions (the filtered global tensor's leaves of
    extent > 1, by stride; L dropped): box extents, the dimensions' element strides, extents and byte strides."""
    box: tuple[int, ...]
    box_strides: tuple[int, ...]        # global element stride of each dimension
    global_dim: tuple[int, ...]
    global_strides: tuple[int, ...]     # bytes, dimensions 1.. (cuTensorMapEncodeTiled's)


def _runs(layout: Layout) -> list[tuple[int, int]]:
    """(extent, stride) of each leaf of extent > 1."""
    return [(int(s), int(d)) for s, d in zip(flatten_to_tuple(layout.shape), flatten_to_tuple(layout.stride))
            if int(s) > 1]


def scale_tma(global_layout: Layout, stage_smem: Layout, blocks_mn: int, blocks_k: int,
              elem_bytes: int = SCALE_BYTES) -> ScaleTma | str:
    """construct_tma_gbasis for the filtered tensors: the stage's slot -> global element map (the CTA tile of block
    coordinates composed with right_inverse of the filtered stage), coalesced; its runs must be the tensor map's
    dimensions in order, the first the global tensor's stride-1 mode.  A reason when they are not.  `elem_bytes`:
    the bytes of one scale (a float's here; the mixed-input GEMMs' 16-bit scales, cute/mixed_input.py)."""
    fg = filter_zero_strides(global_layout)
    fs = filter_zero_strides(stage_smem)
    mn_runs, k_runs = _runs(fg.mode(0)), _runs(fg.mode(1))
    if len(mn_runs) > 1 or len(k_runs) > 1:
        return f"the filtered global scale tensor {fg} has a hierarchical mode: no modelled TMA basis"
    dims = sorted(mn_runs + k_runs, key=lambda run: run[1])        # the tensor map's dimensions
    mn_stride = mn_runs[0][1] if mn_runs else 0
    k_stride = k_runs[0][1] if k_runs else 0
    tile = Layout((blocks_mn, blocks_k), (mn_stride, k_stride))  # // (block mn, block k) of a tile -> global element
    if int(fs.size()) != blocks_mn * blocks_k:
        return (f"the shared stage {fs} holds {fs.size()} scales, the CTA tile of the TMA ({blocks_mn}, {blocks_k}) "
                f"{blocks_mn * blocks_k}")
    try:
        slot_to_global = coalesce(F.composition(tile, right_inverse(fs)))     # // slot -> global element
    except AlgebraError as e:
        return f"the shared stage {fs} has no right inverse CuTe's TMA can use ({e})"
    runs = _runs(slot_to_global)
    if not runs or runs[0][1] != 1 or not dims:
        return (f"the shared stage's slots map to global scales as {slot_to_global}: no contiguous run along the "
                "global tensor's stride-1 mode to make the box's first dimension")
    if len(runs) > len(dims):
        return f"the stage's slots run along {runs}, more dimensions than the global tensor's {dims}"
    box = []
    for d, (_, stride) in enumerate(dims):
        extent, along = runs[d] if d < len(runs) else (1, stride)
        if along != stride:
            return f"box dimension {d} runs along global stride {along}, the tensor map's dimension {d} along {stride}"
        if extent > TMA_BOX_LIMIT:
            return f"a box dimension of {extent} scales: more than {TMA_BOX_LIMIT}"
        box.append(extent)
    return ScaleTma(tuple(box), tuple(stride for _, stride in dims), tuple(extent for extent, _ in dims),
                    tuple(stride * elem_bytes for _, stride in dims[1:]))


# --- the readers' views -------------------------------------------------------------------------------------------

def sm90_view(smem: Layout, other_extent: int, scaled: str) -> Layout:
    """mma()'s broadcast view of SmemLayoutSFA (SFB): (BLK_M, BLK_N, (BLK_K, PIPE)) -> slot, the other operand's mode
    of extent `other_extent` stride 0   // (m, n, (k, stage)) -> slot."""
    mn, k, pipe = smem.mode(0), smem.mode(1), smem.mode(2)
    rest = Layout((k.shape, pipe.shape), (k.stride, pipe.stride))
    if scaled == "A":
        return make_layout(mn, Layout(other_extent, 0), rest)
    return make_layout(Layout(other_extent, 0), mn, rest)


def sm90_fragment_shape(thrfrg_c: Layout) -> IntTuple:
    """The shape of one thread's partition_C, as the SM90 collective's register tensors take it: thrfrg_C's values
    mode (FrgV, (RestM, RestN[, (k, stage)])) unpacked to (MMA, MMA_M, MMA_N), the view's (k, stage) mode sliced off
    (`make_tensor_like(tCsSFA(_, _, _, _0{}))`; the accumulator's `partition_fragment_C` has no such mode)."""
    values = thrfrg_c.mode(1)
    rest = values.mode(1)
    return (values.mode(0).shape, rest.mode(0).shape, rest.mode(1).shape)


def sm100_view(smem: Layout, other_extent: int, scaled: str) -> Layout:
    """accum()'s view of SmemLayoutScaleA (B): (CTA_M, CTA_N, K, PIPE) -> slot, the other operand's mode stride 0
    // (m, n, k, stage) -> slot."""
    mn, k, pipe = smem.mode(0), smem.mode(1), smem.mode(2)
    if scaled == "A":
        return make_layout(mn, Layout(other_extent, 0), k, pipe)
    return make_layout(Layout(other_extent, 0), mn, k, pipe)


def accumulator_tmem(m: int, n: int) -> Layout:
    """UMMA::tmem_frg_1sm<float> of one M x N accumulator stage (mma_traits_sm100.hpp)   // (m, n) -> lane << 16 |
    column: M = 128 takes every lane, M = 64 the first 16 lanes of each 32-lane sub-partition."""
    if m == 128:
        return Layout((m, n), (TMEM_LANE, 1))
    if m == 64:
        quarter = 16
        return Layout(((quarter, m // quarter), n), ((TMEM_LANE, TMEM_SUBPARTITION_LANES * TMEM_LANE), 1))
    raise AlgebraError("UMMA_1SM M-mode size should be 64 or 128.", f"M = {m}")
