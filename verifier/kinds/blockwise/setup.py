"""The concrete objects of a blockwise check, built once: the granularity against the tile, the CTA tile of the global
scale tensor, the scale loader (the cp.async TiledCopy and its filter_zeros'd partitions, or the TMA box and tensor
map), and the reader (SM90: the tiled MMA's partition_C of the broadcast view and the wgmma accumulator fragment;
SM100: make_tmem_copy's tcgen05.ld over the epilogue tile and its partitions of the accumulator and of the view).

What CuTe would refuse, or the models do not cover, is kept as data (`*_problem`) for the theorems to report.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...algebra import functions as F
from ...algebra.inttuple import AlgebraError, Underscore, flatten_to_tuple, product
from ...algebra.layout import Layout
from ...algebra.ops import filter_zero_strides
from ...algebra.tiling import zipped_divide
from ...cute import blockwise as BW
from ...cute.copy import TiledCopy, make_tiled_copy
from ...cute.mma import TiledMMA
from ...cute.tmem import make_tmem_copy
from ...hardware import tma as TMA
from ...hardware.base import MMAModel
from ...hardware.registry import qualifiers
from ...hardware.tmem_copy import TmemForm, parse_form
from ...specfile.model import CopyAtomSpec, MMAAtomSpec
from ..cute_objects import copy_atom, mma_atom, mma_model_for
from .config import SM90, BlockwiseCheck

WARP = 32                       # the scale-loading warp: lanes 0..31 run load_auxiliary / load_sf
TMEM_WARPS = 4                  # accum()'s tcgen05.ld spans one warpgroup
# GmmaFP8Accumulation::scale_if_needed (fp8_accumulation.hpp), which the SM90 collective's mma() calls with an
# operand's register scales when the tile holds more than one of them: they must have the accumulators' shape
SCALE_SHAPE_RULE = "Accumulator and scale{operand} must have same shape."
SCALE_SHAPE_RULE_ALONE = "Accumulator and scale must have same shape."   # when the other operand has one scale a tile
# the SM90 collective's static_asserts on the granularity, in source order (the first two have no message: their
# condition is what nvcc prints)
SM90_K_TILE = "size<2>(TileShape{}) % ScaleGranularityK == 0"
SM90_K_ATOM = "ScaleGranularityK % size<2>(typename TiledMma::AtomShape_MNK{}) == 0"
SM90_INTERVAL_FOUR = "ScalePromotionInterval must be a multiple of 4."
SM90_INTERVAL_AT_LEAST = "ScalePromotionInterval must be greater than or equal to the number of stages of the MMA atom."
SM90_INTERVAL_MULTIPLE = "ScalePromotionInterval must be a multiple of the number of stages of the MMA atom."
SM90_MN_TILE = "FP8 scaling granularity must evenly divide tile shape along {axis}."
# the SM100 collective's, in source order
SM100_MN_TILE = "Scale Granularity {axis} must divide Tile Shape"
SM100_K_TILE = "Scale Granularity K must divide Tile Shape"
SM100_K_ATOM = "Scale Granularity K must be divisible by MMA_K"
# both collectives' (and the ptr-array ones', which say "value 2 or more"): DispatchPolicy::Stages >= 2
STAGES_RULE = "Specialization requires Stages set to value 1 or more."
MIN_STAGES = 2


@dataclass
class Sm90Reader:
    """mma(): tiled_mma.get_slice(thread).partition_C of the broadcast view, and the wgmma that writes the
    accumulators (thread_mma of the warpgroup partitions A and B; the instruction's D fragment)."""
    mma: TiledMMA                   # the tiled MMA whose partition_C reads the view
    compute: TiledMMA               # the tiled MMA that computes the accumulators
    model: MMAModel | None          # the wgmma instruction (None: no model for it)
    view: Layout                    # // (m, n, (k, stage)) -> slot
    full: Layout                    # // ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,(k, stage)))) -> slot
    a_slices: Layout                # // thrfrg_A of the tile's (m, k): ((ThrV,(ThrM,ThrK)),(FrgV,Rest)) -> m + M k
    b_slices: Layout                # // compute's thrfrg_B of the tile's (n, k)

    @property
    def threads(self) -> int:
        return self.compute.num_threads()

    @property
    def values(self) -> int:
        """Accumulator values of one wgmma a thread holds (the fragment's MMA mode)."""
        return int(self.full.mode(1).mode(0).size())

    @property
    def rest(self) -> tuple[int, int]:
        """The fragment's (MMA_M, MMA_N): wgmmas of a warpgroup along M and N."""
        rest = self.full.mode(1).mode(1)
        return int(rest.mode(0).size()), int(rest.mode(1).size())


@dataclass
class Sm100Reader:
    """accum(): make_tmem_copy(CopyOpT2R, the epilogue tile of the accumulator) and its partitions: partition_S of the
    accumulator (TMEM addresses), partition_D of the epilogue-tiled view (slots)."""
    form: TmemForm
    copy: TiledCopy
    tmem: Layout                    # // (m, n) -> TMEM address of one accumulator stage
    tmem_epi: Layout                # // (EPI_TILE_M, EPI_TILE_N, EPI_M, EPI_N) -> TMEM address
    view_epi: Layout                # // (EPI_TILE_M, EPI_TILE_N, EPI_M, EPI_N, k, stage) -> slot
    tmem_part: Layout               # // (thr, val, (T2R_M, T2R_N, EPI_M, EPI_N)) -> TMEM address
    view_part: Layout               # // (thr, val, (T2R_M, T2R_N, EPI_M, EPI_N, k, stage)) -> slot
    register_problem: str | None = None   # accum()'s compact registers do not give each value its view slot

    @property
    def threads(self) -> int:
        return TMEM_WARPS * WARP

    @property
    def values(self) -> int:
        return int(self.view_part.mode(1).size())

    @property
    def calls(self) -> tuple[int, ...]:
        """(T2R_M, T2R_N, EPI_M, EPI_N): the instruction calls of one thread for one k-block."""
        rest = self.tmem_part.mode(2)
        return tuple(int(rest.mode(i).size()) for i in range(rest.rank()))


@dataclass
class BlockwiseSetup:
    check: BlockwiseCheck
    atom: MMAAtomSpec
    g_mn: int
    g_k: int
    tile_mn: int
    tile_k: int
    granularity_problem: str | None = None   # the granularity against the tile, the atom and the shared layout
    granularity_rule: str | None = None      # the collective's static_assert when it refuses the granularity
    # (or the stages: `stages_refused`)
    tile_global: Layout | None = None        # // (mn, k) of a CTA tile -> global element, relative to the tile's first
    tile_index: Layout | None = None         # // (tile along MN, tile along K) -> the tile's first element
    tiles: tuple[int, int] = (1, 1)
    tile_problem: str | None = None
    copy: TiledCopy | None = None
    parts: BW.CopyPartitions | None = None
    load_tile_problem: str | None = None
    load_tile_rule: str | None = None        # CuTe's static_assert when it refuses SM90 load()'s tile of the scales
    writer_problem: str | None = None
    writer_rule: str | None = None           # CuTe's static_assert when it refuses the loader's copy
    tma: BW.ScaleTma | None = None
    tensor_map: TMA.TensorMapND | None = None
    reader: Sm90Reader | Sm100Reader | None = None
    reader_problem: str | None = None
    reader_rule: str | None = None           # CuTe's static_assert when it refuses the reader's partition
    reader_field: str | None = None          # the check's field that refusal blames (None: the reader's own)

    @property
    def blocks_mn(self) -> int:
        """ScaleMsPerTile (ScaleNsPerTile): scale blocks of the tile along MN."""
        return self.tile_mn // self.g_mn

    @property
    def blocks_k(self) -> int:
        """ScaleKsPerTile: scale blocks of the tile along K."""
        return self.tile_k // self.g_k

    @property
    def stages(self) -> int:
        return self.check.stages

    @property
    def stages_refused(self) -> bool:
        """The collective refuses the shared layout's stage count (not the granularity)."""
        return self.granularity_rule == STAGES_RULE

    @property
    def stage_stride(self) -> int:
        return int(self.check.smem.mode(2).stride) if self.stages > 1 else int(self.stage0.cosize())

    @cached_property
    def stage0(self) -> Layout:
        """// (mn, k) -> slot of stage 0."""
        return self.check.smem.slice((Underscore, Underscore, 0))

    @cached_property
    def slots(self) -> int:
        """The slots of a stage (size of filter_zeros of the atom)."""
        return int(filter_zero_strides(self.stage0).size())

    @property
    def active_lanes(self) -> int:
        """Lanes of the scale warp whose copy_if writes: SM90 `thread_idx < ScaleMsPerTile`, SM100
        `threadIdx.x % 32 < size(scale_copy)`."""
        assert self.copy is not None
        bound = self.blocks_mn if self.check.arch == SM90 else self.copy.num_threads
        return min(WARP, bound)

    def slot(self, mn: int, k: int, stage: int) -> int:
        return value_at(self.check.smem, mn, k, stage)


def value_at(layout: Layout, *coord: Any) -> int:
    """layout(coord) of a full coordinate: an offset."""
    value = layout(*coord)
    assert isinstance(value, int)
    return value


def _whole(n: int, d: int) -> bool:
    return d > 0 and n % d == 0


def _collective_rule(s: BlockwiseSetup) -> tuple[str, str] | None:
    """The first of the collective's static_asserts on the granularity that fails, in source order, as (its message
    or, where it has none, its condition; what it was given); None when all hold.  SM90: sm90_mma_[array_]tma_gmma_ss_
    warpspecialized_fp8_blockwise_scaling.hpp, whose ScalePromotionInterval = gK / MMA_K promotes the accumulators
    every 4k wgmmas and at least once a k-tile; SM100: sm100_mma_[array_]warpspecialized_blockwise_scaling.hpp."""
    check, atom_k = s.check, s.atom.shape_mnk[2]
    axis = "M" if check.scaled == "A" else "N"
    given = f"{s.g_mn} x {s.g_k} elements a scale, a {s.tile_mn} x {s.tile_k} ({axis} x K) tile, MMA_K {atom_k}"
    if check.arch == SM90:
        layout = check.atom_layout if check.atom_layout is not None else (1, 1, 1)
        tiled_k = TiledMMA(mma_atom(s.atom), layout).tile_size(2)     # tile_size<2>(TiledMma)
        k_blocks = s.tile_k // tiled_k                 # the wgmmas of a k-tile ("stages of the MMA atom")
        interval = s.g_k // atom_k                     # ScalePromotionInterval
        given += f", ScalePromotionInterval {interval}, {k_blocks} wgmmas a k-tile"
        rules: tuple[tuple[bool, str], ...] = (
            (_whole(s.tile_k, s.g_k), SM90_K_TILE), (_whole(s.g_k, atom_k), SM90_K_ATOM),
            (interval % 4 == 0, SM90_INTERVAL_FOUR), (interval >= k_blocks, SM90_INTERVAL_AT_LEAST),
            (_whole(interval, k_blocks), SM90_INTERVAL_MULTIPLE),
            (_whole(s.tile_mn, s.g_mn), SM90_MN_TILE.format(axis=axis)))
    else:
        rules = ((_whole(s.tile_mn, s.g_mn), SM100_MN_TILE.format(axis=axis)),
                 (_whole(s.tile_k, s.g_k), SM100_K_TILE), (_whole(s.g_k, atom_k), SM100_K_ATOM))
    failed = next((rule for holds, rule in rules if not holds), None)
    if failed is None and s.stages < MIN_STAGES:
        return STAGES_RULE, f"{s.stages} stage(s) of SmemLayoutSF"
    return None if failed is None else (failed, given)


def _granularity(s: BlockwiseSetup) -> str | None:
    check = s.check
    refused = _collective_rule(s)
    if refused is not None:
        s.granularity_rule = refused[0]
        return f"{refused[1]}: the collective's static_assert \"{refused[0]}\""
    smem_g = BW.granularity_of(check.smem)
    if smem_g != (s.g_mn, s.g_k):
        return (f"the shared layout's blocks are {smem_g[0]} x {smem_g[1]} (size<0,0>, size<1,0>), not {s.g_mn} x "
                f"{s.g_k}")
    return None


def build_writer(s: BlockwiseSetup, copy_spec: CopyAtomSpec | None) -> None:
    check = s.check
    assert s.tile_global is not None
    if check.arch == SM90:
        # the SM90 collective's load() tiles the global scale tensor by the tile's scale count, TMA-loaded or not
        # (local_tile(mSF, make_tile(Int<ScaleMsPerTile / ScaleNsPerTile>{}, Int<1>{}), ...)): CuTe's rules apply
        try:
            zipped_divide(check.gmem, (Layout(s.blocks_mn), Layout(1)))
        except AlgebraError as e:
            s.load_tile_problem, s.load_tile_rule = str(e), e.rule
            return
    if check.tma:
        found = BW.scale_tma(check.gmem, s.stage0, s.blocks_mn, s.blocks_k)
        if isinstance(found, str):
            s.writer_problem = found
            return
        s.tma = found
        s.tensor_map = TMA.TensorMapND(BW.TMA_SCALE_TYPE, found.box, found.global_dim, found.global_strides)
        return
    assert copy_spec is not None and check.copy_layout is not None and check.value_type is not None
    threads, values = check.copy_layout
    try:
        typed = copy_atom(copy_spec).with_value_bits(check.value_type.bits)
        s.copy = make_tiled_copy(typed, Layout(threads), Layout(values))
        s.parts = BW.copy_partitions(s.copy, s.tile_global, s.stage0, s.tile_mn, s.tile_k)
    except AlgebraError as e:         # CuTe's own rule (make_tiled_copy, the partitions' divides)
        s.writer_problem, s.writer_rule = str(e), e.rule


def _check_scale_shape(s: BlockwiseSetup, accumulators: Any, scales: Any) -> None:
    """SM90: mma() hands the thread's scales to GmmaFP8Accumulation::scale_if_needed when the tile holds more than one
    scale of the operand (one is read as a scalar), whose static_assert compares their shape with the accumulators'
    exactly, nesting included: a granularity that splits an accumulator mode (16 columns a scale nest the N values
    as (2,8), not 16) is refused as nvcc refuses it."""
    if s.blocks_mn <= 1 or scales == accumulators:
        return
    operand = s.check.scaled
    s.reader_rule = SCALE_SHAPE_RULE.format(operand=operand)
    s.reader_problem = (f"a thread's scales of {operand} (partition_C of the view, make_tensor_like of stage 0) have "
                        f"the shape {_shape_text(scales)}, its accumulators {_shape_text(accumulators)}: "
                        f"fp8_accumulation.hpp's static_assert \"{s.reader_rule}\" (\"{SCALE_SHAPE_RULE_ALONE}\" "
                        "where the other operand has one scale a tile)")
    s.reader_field = "reader_atom_layout" if s.check.reader_atom_layout is not None else "granularity"


def _shape_text(shape: Any) -> str:
    """An IntTuple as CuTe prints a static shape's values: (2,2,(2,8))."""
    return "(" + ",".join(map(_shape_text, shape)) + ")" if isinstance(shape, tuple) else str(shape)


def _form(spec: CopyAtomSpec) -> TmemForm | None:
    return parse_form(*qualifiers(spec.instruction or ""))


def build_reader(s: BlockwiseSetup, t2r_spec: CopyAtomSpec | None) -> None:
    check, atom = s.check, s.atom
    if check.arch == SM90:
        layout = check.atom_layout if check.atom_layout is not None else (1, 1, 1)
        compute = TiledMMA(mma_atom(atom), layout)
        reading = TiledMMA(mma_atom(atom), check.reader_atom_layout or layout)
        try:
            view = BW.sm90_view(check.smem, check.tile_other, check.scaled)
            full = reading.thrfrg(view, "C")
            m, n, k = check.tile
            s.reader = Sm90Reader(reading, compute, mma_model_for(atom), view, full,
                                  compute.thrfrg(Layout((m, k)), "A"), compute.thrfrg(Layout((n, k)), "B"))
            accumulators = compute.thrfrg(Layout((m, n)), "C")   # // (thr, (FrgV, (RestM, RestN))) -> (m, n)
        except AlgebraError as e:
            s.reader_problem, s.reader_rule = str(e), e.rule
            return
        _check_scale_shape(s, BW.sm90_fragment_shape(accumulators), BW.sm90_fragment_shape(full))
        return
    assert t2r_spec is not None and check.epilogue_tile is not None
    form = _form(t2r_spec)
    if form is None or not form.load:
        s.reader_problem = f"'{t2r_spec.instruction}' is not a tcgen05.ld form the model knows ({t2r_spec.name})"
        return
    if form.packed:
        s.reader_problem = f"{form.instruction}: the packed (.pack::16b) loads of a 32-bit accumulator are not modelled"
        return
    m, n, _ = atom.shape_mnk
    try:
        tmem = check.tmem if check.tmem is not None else BW.accumulator_tmem(m, n)
        em, en = check.epilogue_tile
        tiler = (Layout(em), Layout(en))
        tmem_epi = F.flat_divide(tmem, tiler)
        view = BW.sm100_view(check.smem, check.tile_other, check.scaled)
        view_epi = F.flat_divide(view, tiler)
        typed = copy_atom(t2r_spec).with_value_bits(BW.SCALE_BITS)
        copy = make_tmem_copy(typed, form, tmem_epi.slice((Underscore, Underscore, 0, 0)))
        reader = Sm100Reader(form, copy, tmem, tmem_epi, view_epi, copy.tidfrg_S(tmem_epi), copy.tidfrg_D(view_epi))
    except AlgebraError as e:        # make_tmem_copy's static_assert (the atom reaches cells the tile lacks)
        s.reader_problem, s.reader_rule = str(e), e.rule
        return
    reader.register_problem = _register_problem(reader)
    s.reader = reader


def _register_problem(r: Sm100Reader) -> str | None:
    """accum() copies filter_zeros of the thread's view partition (stage 0) into a compact fragment and reads each
    scale through make_layout(shape(partition), stride(fragment)): every coordinate must read back its own slot.
    Thread-independent (a thread's partition differs from another's by an offset only): decided on thread 0."""
    from ...cute.mma import make_fragment_like
    part = BW.thread_partition(r.view_part).values.slice(tuple([Underscore] * 6) + (0,))
    filtered = filter_zero_strides(part)
    try:
        compact = make_fragment_like(filtered)
        registers = Layout(part.shape, compact.stride)
    except AlgebraError as e:
        return f"make_fragment_like of the filtered scales: {e}"
    if int(registers.cosize()) != int(compact.size()):
        return (f"cosize of the register layout {registers} is {registers.cosize()}, the fragment holds "
                f"{compact.size()} (CUTLASS's CUTE_STATIC_ASSERT_V(cosize(tTR_rSFA_layout) == size(tTR_rSFA_compact)))")
    holder: dict[int, int] = dict(zip(compact.values(), filtered.values()))     # register -> the slot it holds
    for i, (register, slot) in enumerate(zip(registers.values(), part.values())):
        if holder.get(register) != slot:
            return (f"value {i} of a thread's scales reads register {register}, which holds slot "
                    f"{holder.get(register)}, not its own {slot}")
    return None


def build(check: BlockwiseCheck, atom: MMAAtomSpec, copy_spec: CopyAtomSpec | None,
          t2r_spec: CopyAtomSpec | None) -> BlockwiseSetup:
    """Everything the theorems need, read off the check and CuTe's derivations."""
    g_mn, g_k = check.granularity
    s = BlockwiseSetup(check, atom, g_mn, g_k, check.tile_mn, check.tile[2])
    s.granularity_problem = _granularity(s)
    if s.granularity_problem is not None:
        return s
    g = check.gmem
    extent_mn, extent_k = int(product(g.mode(0).shape)), int(product(g.mode(1).shape))
    if extent_mn % s.tile_mn or extent_k % s.tile_k:
        s.tile_problem = (f"the global scale tensor covers {extent_mn} x {extent_k} elements (MN x K), no whole number "
                          f"of {s.tile_mn} x {s.tile_k} tiles: partial tiles' predicates are not modelled")
        return s
    s.tile_global, s.tile_index = BW.tile_of(g, s.tile_mn, s.tile_k)
    s.tiles = (extent_mn // s.tile_mn, extent_k // s.tile_k)
    build_writer(s, copy_spec)
    build_reader(s, t2r_spec)
    return s


def leaf_index(index: Any, shapes: list[int]) -> list[Any]:
    """The leaf coordinates of a 1-D (colexicographic) index over leaves of `shapes`   // index -> (c_0, c_1, ...)."""
    out = []
    run = 1
    for n, size in enumerate(shapes):
        out.append((index // run) % size if n < len(shapes) - 1 else index // run)
        run *= size
    return out


def colex(coords: list[Any], shapes: list[int]) -> Any:
    """The 1-D colexicographic index of leaf coordinates over leaves of `shapes`."""
    out: Any = 0
    run = 1
    for c, size in zip(coords, shapes):
        out = out + c * run
        run *= size
    return out


def leaves(layout: Layout) -> list[int]:
    return [int(x) for x in flatten_to_tuple(layout.shape)]
