"""The concrete objects of a mixed-input scale check, built once: the shared scale tile against CUTLASS's rules, the
CTA tiles of the global scale tensor, the scale TMA's box and tensor map, the group sizes the check covers, and mma()'s
scale path (the reading tiled MMA's partition_A of the scale tile, the register fragment tCrS, the k-block 0 copy's
retile_D view) with the RS wgmma that reads the converted A (the kernel's tiled MMA and its PTX ISA fragment).

What CuTe or CUTLASS would refuse, or the models do not cover, is kept as data (`*_problem`, `*_rule`) for the
theorems to report.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...algebra.inttuple import AlgebraError, Underscore, product
from ...algebra.layout import Layout
from ...algebra.ops import filter_zero_strides
from ...cute import blockwise as BW
from ...cute import mixed_input as MI
from ...cute.mma import TiledMMA
from ...cute.tma_basis import TMA_DATA_TYPES, TmaRefused, construct_tma_gbasis
from ...hardware import tma as TMA
from ...hardware.base import MMAModel
from ...specfile.model import CopyAtomSpec, MMAAtomSpec
from ..cute_objects import copy_atom, mma_atom, mma_model_for, wgmma_a_from_shared
from .config import ZERO, MixedScaleCheck

WARPGROUP = 128
BYTE = 8
# the tensor map's data type of the scales (make_tma_copy<TmaElementScale = uint_bit_t<bits>>) and of the zero points
# (make_tma_copy of a Tensor<ElementZero>: CuTe's to_CUtensorMapDataType of the element type)
SCALE_TMA_TYPES = {bits: TMA_DATA_TYPES[f"uint{bits}_t"] for bits in (8, 16, 32, 64)}
STAGE_SIZE_RULE = "Each scale stage must be 128B aligned."            # compute_tma_transaction_bytes_extra
COLUMN_RULE = "size<1>(SmemLayoutAtomScale) must be 1."                # the collective's static_assert
TILE_RULE = "SmemLayoutAtomScale must equal the tile shape."          # (size<0>(TileShape) % size<0>(atom)) == 0


@dataclass
class MixedScaleSetup:
    check: MixedScaleCheck
    atom: MMAAtomSpec
    tile_m: int
    tile_k: int
    elem_bytes: int
    layout_problem: str | None = None      # the shared tile is not CUTLASS's (BLK_M, 1) a stage
    layout_rule: str | None = None         # ... refused by the collective's static_assert
    format_problem: str | None = None      # the TMA element has no tensor map format (CuTe's UNKNOWN_TMA_FORMAT)
    mainloop: tuple[str, str, str] | None = None   # the mainloop's pipeline refused: (rule, what it was given, field)
    tiles_m: int = 1                       # CTA tiles of the global tensor along M
    global_problem: str | None = None
    tma: BW.ScaleTma | None = None
    tensor_map: TMA.TensorMapND | None = None
    writer_problem: str | None = None
    tma_refusal: TmaRefused | None = None  # make_tma_copy's static_assert on the stage (construct_tma_gbasis)
    groups: tuple[int, ...] = ()           # the group sizes the check covers
    group_problem: str | None = None       # partial k-tiles
    compute: TiledMMA | None = None        # the kernel's tiled MMA: whose wgmma reads the converted A
    reading: TiledMMA | None = None        # the tiled MMA the scales are partitioned and copied with
    model: MMAModel | None = None
    registers: MI.ScaleRegisters | None = None
    register_problem: str | None = None
    register_rule: str | None = None       # CuTe's static_assert when it refuses the scale copy
    a_slices: Layout | None = None         # compute's thrfrg_A  // ((ThrV,(ThrM,ThrK)),(FrgV,Rest)) -> m + M k
    a_fragment: tuple[int, int, int] = (0, 0, 0)   # tCrA_mma's shape: (values of one wgmma, MMA_M, k-blocks)
    # the lookup-table mode (`conversion: lookup_table`): the load buffer's k-block and the chunks dequantize_A_kblock
    # converts
    a_load: Layout | None = None           # tCrA_load(_,_,0)   // (value of one wgmma, MMA_M) -> register
    lookup: MI.LookupTableChunks | None = None
    lookup_problem: str | None = None
    lookup_rule: str | None = None         # CuTe's rule when it refuses a divide

    @property
    def stages(self) -> int:
        return self.check.stages

    @property
    def stage0(self) -> Layout:
        """// (m, 0) -> slot of stage 0."""
        return self.check.smem.slice((Underscore, Underscore, 0))

    @property
    def stage_mode(self) -> Layout:
        """// stage -> the stage's first slot."""
        return self.check.smem.mode(2)

    def stage_offset(self, stage: int) -> int:
        """The first slot of stage `stage` (SmemLayoutScale(0, 0, stage) - SmemLayoutScale(0, 0, 0))."""
        value = self.stage_mode(stage)
        assert isinstance(value, int)
        return value

    @property
    def slots(self) -> int:
        """The scales of one stage (size of filter_zeros of the stage)."""
        return int(filter_zero_strides(self.stage0).size())

    @property
    def columns(self) -> int:
        """The scale tensor's columns (scale_k of the smallest group size)."""
        return int(product(self.check.gmem.mode(1).shape))

    @property
    def k_tiles(self) -> int:
        return self.check.problem_k // self.tile_k

    @property
    def threads(self) -> int:
        assert self.compute is not None
        return self.compute.num_threads()

    @property
    def tensor(self) -> str:
        return self.check.tensor

    @property
    def tma_type(self) -> str | None:
        vt = self.check.value_type
        assert vt is not None
        return TMA_DATA_TYPES.get(vt.name) if self.tensor == ZERO else SCALE_TMA_TYPES.get(vt.bits)

    def slot(self, m: int, stage: int) -> int:
        value = self.check.smem(m, 0, stage)
        assert isinstance(value, int)
        return value


def _layout(s: MixedScaleSetup) -> None:
    """The collective's static_asserts on SmemLayoutScale, and its stage size."""
    smem = s.check.smem
    vt = s.check.value_type
    assert vt is not None
    bits = vt.bits
    rows, cols = int(smem.mode(0).size()), int(smem.mode(1).size())
    if cols != MI.SCALE_COLUMNS_PER_STAGE:
        s.layout_problem = f"the shared scale tile holds {cols} columns a stage, not one (SmemLayoutScale {smem})"
        s.layout_rule = COLUMN_RULE
    elif rows != s.tile_m:
        s.layout_problem = f"the shared scale tile holds {rows} rows a stage, the CTA tile {s.tile_m}"
        s.layout_rule = TILE_RULE
    elif rows * bits % (MI.SCALE_STAGE_ALIGN * BYTE):     # bits_to_bytes(BLK_M * bits): sub-byte types too
        s.layout_problem = (f"a stage of {rows} scales of {bits} bits is {rows * bits / BYTE:g} bytes, no "
                            f"multiple of {MI.SCALE_STAGE_ALIGN}")
        s.layout_rule = STAGE_SIZE_RULE


def _groups(s: MixedScaleSetup) -> None:
    """The group sizes covered: the check's, or every multiple of BLK_K up to K (R BLK_K for R = 1 .. K / BLK_K, K
    among them: the group sizes can_implement accepts but those larger than K); whole k-tiles only."""
    k, bk = s.check.problem_k, s.tile_k
    if k % bk:
        s.group_problem = (f"K = {k} is no whole number of {bk}-element k-tiles: the last k-tile's partial load (its "
                           "out-of-bounds fill) is not modelled")
        return
    s.groups = (s.check.group_size,) if s.check.group_size is not None else tuple(r * bk for r in range(1, k // bk + 1))


def _writer(s: MixedScaleSetup) -> None:
    g = s.check.gmem
    extent_m = int(product(g.mode(0).shape))
    if extent_m % s.tile_m:
        s.global_problem = (f"the global {s.tensor} tensor has {extent_m} rows, no whole number of {s.tile_m}-row CTA "
                            "tiles: partial tiles are not modelled")
        return
    s.tiles_m = extent_m // s.tile_m
    found = BW.scale_tma(g, s.stage0, s.tile_m, MI.SCALE_COLUMNS_PER_STAGE, s.elem_bytes)
    if isinstance(found, str):
        # no box: CuTe's make_tma_copy (construct_tma_gbasis) static_asserts when the stage's first run steps no
        # global mode by one element; else the box it derives fails at run time (the host's assert), a refutation
        vt = s.check.value_type
        assert vt is not None
        basis = construct_tma_gbasis(g, s.tile_m, MI.SCALE_COLUMNS_PER_STAGE, s.stage0, vt.bits, vt.bits,
                                     tile=f"{s.tensor} stage")
        if isinstance(basis, TmaRefused):
            s.tma_refusal = basis
        s.writer_problem = found
        return
    dtype = s.tma_type
    if dtype is None:        # make_tma_copy's to_CUtensorMapDataType has no format for the element type
        element = (f"uint_bit_t<{s.check.value_type.bits}>" if s.tensor != ZERO and s.check.value_type is not None
                   else str(s.check.value_type))
        s.format_problem = f"make_tma_copy of the {s.tensor}s' {element}: no CUtensorMapDataType"
        return
    s.tma = found
    s.tensor_map = TMA.TensorMapND(dtype, found.box, found.global_dim, found.global_strides)


def _reader(s: MixedScaleSetup, copy_spec: CopyAtomSpec) -> None:
    check = s.check
    atom = mma_atom(s.atom)
    layout = check.atom_layout if check.atom_layout is not None else (1, 1, 1)
    s.compute = TiledMMA(atom, layout)
    s.reading = TiledMMA(atom, check.reader_atom_layout or layout)
    s.model = mma_model_for(s.atom)
    s.a_slices = s.compute.thrfrg(Layout((s.tile_m, s.tile_k)), "A")
    s.a_fragment = MI.a_fragment_shape(s.compute, s.tile_m, s.tile_k)
    vt = check.value_type
    assert vt is not None
    try:
        typed = copy_atom(copy_spec).with_value_bits(vt.bits)
        s.registers = MI.scale_registers(s.reading, s.stage0, typed)
    except AlgebraError as e:       # CuTe's own rule (the copy atom's value type, make_tiled_copy_A, retile)
        s.register_problem, s.register_rule = str(e), e.rule
    if check.lookup_table and s.registers is not None:
        _lookup(s, s.registers)


def _lookup(s: MixedScaleSetup, registers: MI.ScaleRegisters) -> None:
    """The lookup-table mode: the int4 load buffer's k-block and the chunks of it and of tCrS_neg(_,_,k_block)."""
    assert s.compute is not None
    try:
        s.a_load = MI.a_load_kblock(s.compute, s.tile_m, s.tile_k)
        s.lookup = MI.lookup_table_chunks(s.a_load, registers.read_view)
    except AlgebraError as e:       # CuTe's own rule (zipped_divide of a k-block)
        s.lookup_problem, s.lookup_rule = str(e), e.rule


def build(check: MixedScaleCheck, atom: MMAAtomSpec, copy_spec: CopyAtomSpec) -> MixedScaleSetup:
    """Everything the theorems need, read off the check and CuTe's derivations."""
    vt = check.value_type
    assert vt is not None
    s = MixedScaleSetup(check, atom, check.tile[0], check.tile[2], max(1, vt.bits // 8))
    _layout(s)
    _groups(s)
    if s.layout_problem is None:
        _writer(s)
    _reader(s, copy_spec)
    s.mainloop = (MI.tile_atom_refusal(check.tile[0], check.tile[1])
                  or MI.mainloop_refusal(s.stages, wgmma_a_from_shared(atom), s.a_fragment[2]))
    return s
