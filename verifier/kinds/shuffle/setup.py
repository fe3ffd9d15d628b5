"""The concrete objects of a shuffle check, built once: the RS wgmma's A fragment (hardware/wgmma.py), the tiled MMA
and CuTe's partitions of the shared tile over it (partition_A, make_tensor_like, make_tiled_copy_A and retile_D,
partition_fragment_A, dequantize_A_kblock's chunks: cute/shuffle.py), the converter LayoutAwareConvert picks for each
chunk (cute/convert.py), and the box make_tma_copy_A_sm90<TmaElementA> derives.

Every per-thread layout of these partitions is the same for every thread (only its offset moves): they are kept as
tables, the offsets per thread.  Problems CuTe would meet, or the models do not cover, are kept as data for the
theorem to report.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Hashable

from ...algebra.inttuple import AlgebraError, Underscore
from ...algebra.layout import Layout
from ...cute import mixed_input as MI
from ...cute import shuffle as SH
from ...cute.convert import CONTIGUOUS_SRC_RULE, ChunkConverter, layout_aware_converter
from ...cute.copy import make_tiled_copy_for
from ...cute.mma import MMAAtom, TiledMMA, operand_projection
from ...cute.tensor import Tensor
from ...cute.tma_basis import TmaRefused
from ...hardware import tma as TMA
from ...hardware.base import MMAModel
from ...hardware.registry import Instruction
from ...hardware.wgmma import parse_wgmma, wgmma_model
from ...specfile.model import CopyAtomSpec, MMAAtomSpec, ValueType
from ..base import per_atom
from ..cute_objects import copy_atom, mma_atom, wgmma_a_from_shared
from .config import ShuffleCheck

if TYPE_CHECKING:
    from numpy import ndarray

BYTE = 8
TMA_BYTE_TYPE = "uint8"           # TmaElementA = uint8_t for a sub-byte A
TMA_DTYPES = {8: "uint8"}         # an 8-bit A: its own type, one byte


# (lane, value) -> the (m, k) the RS wgmma reads there (the PTX ISA's A fragment)
HardwareA = tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True)
class ShuffleSide:
    """What a shuffle check's build and theorem read of its RS atom (`shuffle_side`): `build` reads the atom through
    this alone, and the theorem reads `ShuffleSetup.atom` only to name it where the atom is no RS atom -- so two
    checks whose atoms agree here (an RS A of any N) and whose own fields agree decide alike (the kind's shared
    group)."""
    atom: MMAAtom                          # CuTe's atom projected on A (cute/mma.py's operand_projection)
    a_type: ValueType | None               # the MMA's A type: what the registers convert to
    hardware_a: HardwareA | None           # the RS wgmma's A fragment for every lane and value of the atom's A
    model_problem: str | None              # why there is none
    a_from_shared: bool = False            # an SS wgmma atom: A through a shared-memory descriptor

    def key(self) -> tuple[Hashable, ...]:
        """The side as a `Group.shared` key."""
        from ..base import content_key
        return content_key(self.atom, ()), self.a_type, self.hardware_a, self.model_problem, self.a_from_shared


@per_atom
def shuffle_side(atom: MMAAtomSpec) -> ShuffleSide:
    """What `build` reads of `atom` (`ShuffleSide`), made once for each atom definition."""
    model, problem = _rs_model(atom)
    cute = mma_atom(atom)
    lanes, values = int(cute.thr_id.size()), int(cute.thrval_to_mk.mode(1).size())
    table = None if model is None else tuple(tuple(tuple(int(x) for x in model.a.coord(lane, i))
                                                   for i in range(values)) for lane in range(lanes))
    return ShuffleSide(operand_projection(cute, "A"), atom.types.get("a"), table, problem, wgmma_a_from_shared(atom))


@dataclass
class ShuffleSetup:
    check: ShuffleCheck
    atom: MMAAtomSpec                      # named where it is no RS atom: what is read of it is `side`
    side: ShuffleSide
    narrow_bits: int
    mma: TiledMMA
    blk_m: int
    blk_k: int
    stages: int
    tiles: tuple[int, int]                 # CTA tiles of the global tensor along (M, K)
    tile_problem: str | None = None
    mainloop: tuple[str, str, str] | None = None   # the mainloop's pipeline refused: (rule, what it was given, field)
    tma: SH.ShuffleTma | None = None
    tma_problem: str | None = None
    tma_refusal: TmaRefused | None = None   # make_tma_copy's static_assert on the stage (construct_tma_gbasis)
    tensor_map: TMA.TensorMapND | None = None
    cute_refusal: str | None = None
    dequantize_refusal: tuple[str, str] | None = None   # dequantize_A_kblock's static_asserts: the rule, the chunk
    # per thread (same layout for every thread, the offset moves): the shared partition and the registers
    reads: Layout | None = None            # tCsA: (value, m_block, k_block, stage) -> shared element, minus offset
    read_offset: list[int] = field(default_factory=list)        # thread -> tCsA's offset
    coords: Layout | None = None           # partition_A of the tile: (value, m_block, k_block) -> m + BLK_M k
    coord_offset: list[int] = field(default_factory=list)       # thread -> its offset
    load: Layout | None = None             # make_tensor_like(tCsA(_,_,_,0)): (value, m_block, k_block) -> register
    view: Layout | None = None             # retile_D(load): (copy value, copy m, k_block) -> register
    fragment: Layout | None = None         # partition_fragment_A: (value, m_block, k_block) -> register
    per_chunk: int = 0
    chunks: list[SH.Chunk] = field(default_factory=list)
    converters: list[ChunkConverter] = field(default_factory=list)   # one a chunk

    @property
    def threads(self) -> int:
        return self.mma.num_threads()

    @cached_property
    def shared(self) -> ndarray[Any, Any]:
        """SmemLayoutA's every value: (m, k[, stage]) colexicographic -> narrow element of the buffer."""
        return self.check.smem.values_array()

    @property
    def stage_stride(self) -> int:
        smem = self.check.smem
        if smem.rank() < 3 or self.stages < 2:
            return 0
        per_stage = int(smem.mode(0).size()) * int(smem.mode(1).size())
        return int(self.shared[per_stage] - self.shared[0])


def _rs_model(atom: MMAAtomSpec) -> tuple[MMAModel | None, str | None]:
    form = parse_wgmma(Instruction.parse(atom.instruction)) if atom.instruction else None
    if form is None or form.sparse or not form.a_in_registers(atom.name):
        return None, (f"{atom.name} issues {atom.instruction or 'no instruction'}: the converted A is the A fragment "
                      "of a wgmma RS atom (wgmma.mma_async with A from registers)")
    model = wgmma_model(form.shape, form.dtype, form.atype, form.btype, True)
    if model is None:
        return None, f"no model of {atom.instruction}"
    return model, None


def build(check: ShuffleCheck, atom: MMAAtomSpec, copy_spec: CopyAtomSpec | None,
          side: ShuffleSide | None = None) -> ShuffleSetup:
    """The check's objects, the atom read through `side` (made from `atom` when not given)."""
    side = side or shuffle_side(atom)
    assert check.value_type is not None
    bits = check.value_type.bits
    mma = TiledMMA(side.atom, check.atom_layout if check.atom_layout is not None else (1, 1, 1),
                   check.permutation)
    smem = check.smem
    blk_m, blk_k = int(smem.mode(0).size()), int(smem.mode(1).size())
    stages = int(smem.mode(2).size()) if smem.rank() > 2 else 1
    g = check.gmem
    g_m, g_k = int(g.mode(0).size()), int(g.mode(1).size())
    s = ShuffleSetup(check, atom, side, bits, mma, blk_m, blk_k, stages,
                     (max(1, g_m // blk_m), max(1, g_k // blk_k)))
    s.mainloop = MI.mainloop_refusal(stages, side.a_from_shared, blk_k // mma.tile_size(2))
    if g_m % blk_m or g_k % blk_k:
        s.tile_problem = f"the global A's {g_m} x {g_k} is no whole number of {blk_m} x {blk_k} tiles"
        return s
    tile_m, tile_k = mma.tile_size(0), mma.tile_size(2)
    if blk_m % tile_m or blk_k % tile_k:
        s.tile_problem = (f"the {blk_m} x {blk_k} tile is no whole number of the tiled MMA's {tile_m} x {tile_k} "
                          "(M, K) tiles")
        return s
    word_bits = max(BYTE, bits)                     # TmaElementA: uint8_t (sub-byte), else the narrow type
    stage0 = smem.slice((Underscore, Underscore, 0)) if smem.rank() > 2 else smem
    found = SH.shuffle_tma(g, blk_m, blk_k, stage0, bits, word_bits)
    if isinstance(found, SH.ShuffleTma):
        s.tma = found
        s.tensor_map = TMA.TensorMapND(TMA_DTYPES.get(word_bits, TMA_BYTE_TYPE), found.box, found.global_dim,
                                       found.global_strides[1:])
    elif isinstance(found, TmaRefused):
        s.tma_refusal = found
    else:
        s.tma_problem = found
    if copy_spec is None or side.hardware_a is None:
        return s
    try:
        _partitions(s, copy_spec)
    except AlgebraError as e:          # CuTe's own rule (a static_assert of make_tiled_copy / the divides)
        s.cute_refusal = str(e)
    return s


def _partitions(s: ShuffleSetup, copy_spec: CopyAtomSpec) -> None:
    check = s.check
    assert check.value_type is not None
    smem = check.smem if check.smem.rank() > 2 else Layout(check.smem.shape + (1,), check.smem.stride + (0,))
    ident = Layout((s.blk_m, s.blk_k))                                  # (m, k) -> m + BLK_M k
    tCsA = s.mma.partitions(Tensor(0, smem), "A", range(s.threads))    # (MMA, MMA_M, MMA_K, PIPE) a thread
    tCcA = s.mma.partitions(Tensor(0, ident), "A", range(s.threads))
    for part, coords in zip(tCsA, tCcA):
        assert isinstance(part.layout, Layout) and isinstance(coords.layout, Layout)
        if s.reads is None:
            s.reads, s.coords = part.layout, coords.layout
        elif part.layout != s.reads or coords.layout != s.coords:
            raise AlgebraError("the threads' partitions differ in layout", "partition_A")
        s.read_offset.append(int(part.offset))
        s.coord_offset.append(int(coords.offset))
    assert s.reads is not None
    stage0 = s.reads.slice((Underscore, Underscore, Underscore, 0))
    s.load = SH.load_layout(stage0)
    fragment = s.mma.partition_fragment(Tensor(0, smem.slice((Underscore, Underscore, 0))), "A", 0)
    assert isinstance(fragment.layout, Layout)
    s.fragment = fragment.layout
    typed = copy_atom(copy_spec).with_value_bits(check.value_type.bits)
    tiled = make_tiled_copy_for(typed, s.mma, "A")
    s.view = tiled.retile(s.load)
    a_type = s.side.a_type
    assert a_type is not None
    values = int(s.load.mode(0).size())
    if values != int(s.load.mode(0).cosize()):
        s.dequantize_refusal = (CONTIGUOUS_SRC_RULE, f"dequantize_A_kblock: a thread's {values} values of one wgmma "
                                                     f"in its register buffer {s.load.mode(0)} span "
                                                     f"{s.load.mode(0).cosize()} registers")
        return
    s.per_chunk = SH.values_per_chunk(values, s.narrow_bits)
    for kb in range(int(s.load.mode(2).size())):
        for c in SH.chunks(s.load, s.fragment, kb, s.per_chunk):
            s.chunks.append(c)
            converter = layout_aware_converter(check.value_type.name, a_type.name, c.src_layout, c.dst_layout)
            s.converters.append(converter)
            if converter.refusal is not None and s.dequantize_refusal is None:
                s.dequantize_refusal = (converter.refusal, f"dequantize_A_kblock's chunk {c.index} of k-block "
                                                           f"{c.k_block}: {converter.name}")
