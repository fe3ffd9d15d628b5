"""A CuTe DSL kernel's operand paths and shared buffers, as checks (the records spec_text writes).

Per kernel (kernel_flow's partitions and uses):
- an operand load into registers: a tiled copy that partitions a shared view as its source and retiles a
  fragment of a tiled MMA's operand (ldmatrix into A / B) -> a tiled check of that operand with the tiled copy
  as the DSL built it (`tiled_copy:`), on the view's first stage;
- a C store from registers: a tiled copy that retiles the accumulator and partitions a shared view as its
  destination (stmatrix), or a copy atom into the MMA's own C partition of a shared view -> a tiled check of C;
- an operand the tensor core reads from shared memory through a descriptor (wgmma), filled by TMA -> a
  descriptor check (the smem_mma kind) of that operand;
- every shared buffer between a writer (cp.async / TMA / a register store) and a reader (ldmatrix, a
  descriptor, a vector load, a TMA store) whose views name the same coordinates -> a buffer check (theorem 23).
Everything the reader meets and does not turn into a check is a Skipped, with the reason.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence, TypeVar

from ..algebra import functions as F
from ..algebra.inttuple import AlgebraError, is_underscore
from ..algebra.layout import Layout, make_layout
from ..algebra.tiling import zipped_divide
from ..algebra.swizzle import ComposedLayout, Swizzle, first_stage
from ..kinds.buffer.config import mode_sizes
from ..specfile.fields import stages_text
from ..hardware.tma import TmaSwizzle
from ..kinds.slice.config import SliceUnit
from ..kinds.store_pipeline import StorePipeline
from ..kinds.slice.coordinate import MAX_LENGTH
from ..specfile.model import TMA_COPIES
from .atom_names import UNPACKED_TYPES, Unnamed, copy_atom_name, cpp_value_type, mma_atom_name, operand_majors
from .cute_types import (ELEMENT_BITS, MemrefType, TiledCopyType, TiledMmaType, TypeTextError, layout_type_text,
                         is_type, layout_of, memref_of, tiled_copy_of, tiled_mma_of)
from .flow import KernelFlow, Partition, Role, SharedView, Skipped
from .mlir_text import Op, Value, Where
from .epilogue_subtiles import subtile_stores
from .transaction_bytes import transactions
from .tmem_subtiles import SubtileOrderRead, read_subtile_order
from .stage_index import StageIndex, StageIndexes, StagesTaken, WaitedStages
from .tmem_stages import AccumulatorStagesRead, TmemStages, cell_layout
from .elementwise import ElementwiseRead, read_elementwise
from ..importer.thread_gemm_read import OperandFillsRead, ThreadGemmRead
from .tma_tensors import TmaTensors, gbasis, mn_tile_indices, other_box, tma_tensors
from .shared_writes import SharedWrites, shared_writes, view_text
from .thread_coordinate import (Untraced, block_threads, coordinate_text, launch_dims, running_condition,
                                static_coordinate)

T = TypeVar("T")
TMA_LOAD_COPY = "SM90_TMA_LOAD"
MAKE_TMEM_COPY = "cute_nvgpu.atom.make_tmem_copy"
# the CuTe objects a kernel holds, by their type's head, in words
CUTE_OBJECTS = {"!cute.tiled_copy<": "tiled copy", "!cute.tiled_mma<": "tiled MMA",
                "!cute_nvgpu.atom.non_exec_tiled_tma": "TMA atom"}
DSL_SMEM_BASE_ALIGN = 1024   # the DSL lowers shared memory to `.extern .shared .align 1024` (its PTX says so)
TMA_LOAD_ATOMS = ("non_exec_tiled_tma_load", "tma_load")
TMA_STORE_ATOMS = ("non_exec_tiled_tma_store", "tma_store")
BYTE = 8
COPY_SIDES = ("src", "dst")     # cute.copy(atom, src, dst): the operands after the atom
PAST_WAIT_SHOWN = 2             # slices past their wait a buffer check's description names (the count of the rest)
UNWRITTEN_SHOWN = 3             # writes of its allocation an unwritten buffer check names (the count of the rest)
OTHER_OPERAND = {"A": "B", "B": "A"}   # an MMA operand's partner, whose tiles it must take at other coordinates


@dataclass
class TiledCopyGiven:
    layout_tv: str
    tiler: str               # as a spec list: "[32, 16]" or '["(8,4,2):(1,16,8)", ...]'


@dataclass
class OperandRecord:
    """A tiled check: an operand of a tiled MMA and the copy that moves it between shared memory and registers."""
    name: str
    where: Where
    what: str
    mma: str
    atom_layout: str
    permutation: str | None
    operand: str
    copy: str
    value_type: str
    smem: str
    tiled_copy: TiledCopyGiven | None = None
    notes: list[str] = field(default_factory=list)
    smem_type: str | None = None     # a C tile converted before it is stored (the view's element type)
    assumes: list[str] = field(default_factory=list)
    tiles: tuple[str, str] | None = None   # (the shared tile the copy reads, the one the fragment was made from)


@dataclass
class DescriptorRecord:
    """A descriptor check: an operand the tensor core reads from shared memory, filled by TMA from `gmem` (or, with
    another `copy`, written by the threads through the tile's layout: `gmem` None)."""
    name: str
    where: Where
    what: str
    mma: str
    atom_layout: str
    operand: str
    value_type: str
    smem: str
    gmem: str | None
    smem_align: int
    notes: list[str] = field(default_factory=list)
    major: str | None = None         # K / MN where the atom's name does not say (tcgen05.mma)
    assumes: list[str] = field(default_factory=list)
    copy: str = TMA_COPIES[0]        # the copy that fills the tile
    tma_box: tuple[int, int] | None = None   # (inner, outer): the TMA atom's own box, where the check states it
    tma_swizzle: str | None = None           # the TMA atom's own swizzle (TmaSwizzle's value), where stated
    tile_type: str | None = None     # the type the tile holds, where it is not the MMA's operand type by name
    tensors: TmaTensors | None = None    # the global tensors the TMA atom's map and its partition's tiles are of


@dataclass
class SideRecord:
    by: str
    at: int
    layout: str
    where: Where
    gmem: str | None = None          # a TMA side: the global tensor its atom copies from or to
    tma_dim0: int | None = None      # ... and the mode of it the atom's dimension 0 runs along (its tma_gbasis)
    taken: StagesTaken | None = None  # every stage index the side is sliced at, where stated
    waited: WaitedStages | None = None    # the stages past the waited one its slices linked to barrier waits take
    tensors: TmaTensors | None = None     # a TMA side: the global tensor of its tensor map, and of the tiles it takes
    stores: tuple[str, ...] | None = None     # a TMA load the tensor core reads: the tensors the kernel's TMA
                                              # stores write
    tiles_at: tuple[tuple[str, ...], tuple[str, ...]] | None = None   # ... the values it takes its M (A) or N
                                              # (B) tiles at, and those the MMA's other operand takes its tiles at


@dataclass
class BufferRecord:
    name: str
    where: Where
    copy: str                # the writer's copy atom (a buffer nothing writes: the reader's, "" for a descriptor)
    value_type: str
    bytes: int
    align: int
    writer: SideRecord | None        # None: nothing the kernel runs writes the reader's bytes (`unwritten` says so)
    reader: SideRecord
    notes: list[str] = field(default_factory=list)
    assumes: list[str] = field(default_factory=list)
    stages: int | None = None        # the stage indices the kernel's pipeline slices the views at, where read
    unwritten: str | None = None     # with no writer: what was read to find that nothing writes the reader's bytes
    mma: str | None = None           # ... and the MMA atom whose descriptor reads them, where that is the reader


@dataclass(frozen=True)
class TmemViewRead:
    """The view of tensor memory a TMEM check's copies move through (its layout), its first column past the
    allocation's base, and the stages of its last mode they take (None: all of it)."""
    layout: str
    column: int
    stages: tuple[int, ...] | None


@dataclass
class TmemRecord:
    """A TMEM check: the tcgen05.ld tiled copy make_tmem_copy built, and the store of its registers to shared memory
    that follows it."""
    name: str
    where: Where
    what: str
    copy: str
    value_type: str
    tmem: str
    tmem_columns: int | None
    store_copy: str | None = None
    store_value_type: str | None = None
    store_smem: str | None = None
    store_tiled_copy: TiledCopyGiven | None = None
    accumulator_stages: AccumulatorStagesRead | None = None   # a load's staged accumulator: the stages each side takes
    tmem_view: TmemViewRead | None = None       # the view the copies move through, where, and the stages they take
    notes: list[str] = field(default_factory=list)
    assumes: list[str] = field(default_factory=list)


@dataclass
class SliceRecord:
    """A thread-slice check: the coordinate every thread of the block hands a tiled copy's get_slice / partition."""
    name: str
    where: Where
    what: str
    copy: str
    value_type: str
    threads: int
    block: int
    coordinate: str
    runs: str | None = None              # the threads that run the copy, where the kernel's conditions say
    unit: SliceUnit = SliceUnit.THREAD   # CTA: the slices of a TMA copy's tile among the CTAs that share it
    assumes: list[str] = field(default_factory=list)


@dataclass
class SubtileRecord:
    """An epilogue-subtile check: the accumulator stored one subtile at a time (theorem 39)."""
    name: str
    where: Where
    what: str
    mma: str
    atom_layout: str
    permutation: str | None
    copy: str
    value_type: str
    tiled_copy: TiledCopyGiven
    accumulator: str                 # (value, m, n) -> register
    shape: tuple[int, int]           # the subtile
    stores: list[tuple[tuple[int, int], tuple[int, ...]]]   # (place, registers) a subtile, in the kernel's order
    pipeline: StorePipeline | None = None    # the TMA stores' reads of the staged subtile, where read
    assumes: list[str] = field(default_factory=list)
    stages: tuple[tuple[int, int], ...] | None = None   # (write, read) a subtile, where a store reads another stage


@dataclass
class TransactionRecord:
    """A transaction check: the bytes a TMA barrier is armed with and the loads that complete on it (theorem 41)."""
    name: str
    where: Where
    what: str
    armed: int
    loads: list[tuple[int, int, str]]      # (tile bytes, CTAs, what) a load
    assumes: list[str] = field(default_factory=list)


@dataclass
class SubtileOrderRecord:
    """A subtile-order check: an epilogue loop's subtiles of a tensor-memory accumulator stage (theorem 42)."""
    name: str
    where: Where
    what: str
    read: SubtileOrderRead
    assumes: list[str] = field(default_factory=list)


@dataclass
class ElementwiseRecord:
    """An element-wise check: a kernel's global tiles loaded, computed lane by lane and stored (theorem 43)."""
    name: str
    where: Where
    what: str
    read: ElementwiseRead
    assumes: list[str] = field(default_factory=list)


@dataclass
class ThreadGemmRecord:
    """A thread-gemm check: a block's GEMM on the threads' own partitions of shared tiles, and their fills (theorems
    44 and 45; the C++ reader writes it)."""
    name: str
    where: Where
    what: str
    read: ThreadGemmRead
    assumes: list[str] = field(default_factory=list)


@dataclass
class OperandFillsRecord:
    """An operand-fills check: the threads' fills of an MMA's shared A and B tiles (theorem 45; the C++ reader writes
    it where a tiled check proves the MMA's register fragments)."""
    name: str
    where: Where
    what: str
    read: OperandFillsRead
    assumes: list[str] = field(default_factory=list)


Record = OperandRecord | DescriptorRecord | BufferRecord | TmemRecord | SliceRecord | SubtileRecord | \
    TransactionRecord | SubtileOrderRecord | ElementwiseRecord | ThreadGemmRecord | OperandFillsRecord


@dataclass
class KernelChecks:
    kernel: str
    records: list[Record] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


# --- text of layouts as a spec writes them ---------------------------------------------------------------------

def spec_layout(text: str) -> str:
    """A DSL-printed layout in the spec's syntax (`S<..>` is `Sw<..>`)."""
    return re.sub(r"\bS<(\d+),(\d+),(\d+)>", r"Sw<\1,\2,\3>", text.strip().strip('"'))


def _swizzle_text(sw: Swizzle) -> str:
    return f"Sw<{sw.B},{sw.M},{sw.S}>"


def view_layout_text(memref: MemrefType, stage: bool, mn_k: bool = False,
                     inner_map: Callable[[Layout], Layout] | None = None) -> str:
    """The view's layout in the spec's syntax: a pointer's swizzle as CuTe's GMMA form (on byte addresses); with
    `stage` False a rank-3 layout keeps its first two modes (stage 0); with `mn_k` a tcgen05.mma partition is
    grouped as (MN, K, PIPE); `inner_map` rewrites the layout under the swizzle (its coordinates)."""
    layout = memref.layout()
    if mn_k:
        layout = mn_k_pipe(layout)
    if not stage:
        layout = first_stage(layout)
    if inner_map is not None:
        if isinstance(layout, ComposedLayout):
            assert isinstance(layout.b, Layout)
            layout = ComposedLayout(layout.a, layout.offset, inner_map(layout.b))
        else:
            assert isinstance(layout, Layout)
            layout = inner_map(layout)
    if isinstance(layout, ComposedLayout):
        inner = layout.b
        assert isinstance(inner, Layout)
        sw = layout.a
        assert isinstance(sw, Swizzle)
        text = f"{_swizzle_text(sw)} o {int(layout.offset)} o {inner.plain()}"
    else:
        assert isinstance(layout, Layout)
        text = layout.plain()
    if memref.ptr_swizzle is not None:
        if isinstance(layout, ComposedLayout):
            raise TypeTextError(f"a swizzled pointer ({memref.ptr_swizzle}) under a swizzled layout ({layout})")
        return f"{_swizzle_text(memref.ptr_swizzle)} o smem_ptr[{memref.bits}b](unset) o {text}"
    return text


def mn_k_pipe(layout: Layout | ComposedLayout, pipe: bool = True) -> Layout | ComposedLayout:
    """A tile in the tcgen05.mma partition form ((MMA_MN, MMA_K), REST_MN, REST_K, PIPE) as (MN, K, PIPE) (with
    `pipe` False: ((MMA_MN, MMA_K), REST_MN, REST_K) as (MN, K)): MN = (MMA_MN, REST_MN), K = (MMA_K, REST_K), the
    same elements grouped by coordinate; other layouts as given."""
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    assert isinstance(inner, Layout)
    if inner.rank() != (4 if pipe else 3) or inner.mode(0).rank() != 2:
        return layout
    atom, rest_mn, rest_k = (inner.mode(i) for i in range(3))
    shape: tuple[Any, ...] = ((atom.shape[0], rest_mn.shape), (atom.shape[1], rest_k.shape))
    stride: tuple[Any, ...] = ((atom.stride[0], rest_mn.stride), (atom.stride[1], rest_k.stride))
    if pipe:
        shape, stride = shape + (inner.mode(3).shape,), stride + (inner.mode(3).stride,)
    grouped = Layout(shape, stride)
    if isinstance(layout, ComposedLayout):
        return ComposedLayout(layout.a, layout.offset, grouped)
    return grouped


def _atom_layout_text(layout: Layout) -> str:
    return '"' + layout.plain() + '"'


def _permutation_text(perm: tuple[Any, ...]) -> str | None:
    if not perm or all(p is None or is_underscore(p) for p in perm):
        return None
    parts = ['"_"' if (p is None or is_underscore(p)) else str(p) if isinstance(p, int) else f'"{p.plain()}"'
             for p in perm]
    return "[" + ", ".join(parts) + "]"


def _tiler_text(tiler: tuple[Any, ...]) -> str:
    return "[" + ", ".join(str(t) if isinstance(t, int) else f'"{t.plain()}"' for t in tiler) + "]"


# --- the reader ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Remap:
    """A copy whose destination was partitioned by another tiled copy than its source: the source coordinate c
    of each tile (its colex index in `tiler`) lands at destination coordinate `moves(c)`."""
    moves: Layout
    tiler: tuple[int, ...]
    why: str


@dataclass(frozen=True)
class BufferSide:
    """One side of a shared buffer: its view, who uses it, and how the writer moves coordinates."""
    view: SharedView
    by: str
    copy: str
    where: Where
    writes: bool
    remap: Remap | None = None
    tma_layout: str | None = None      # a TMA load or store: the shared layout its atom was made from (the type)
    tma_gmem: str | None = None        # ... and the global tensor it was made for (its first two modes), when known
    tma_dim0: int | None = None        # ... and the global mode its dimension 0 runs along (the atom's tma_gbasis)
    stages: StageIndex | None = None   # the stage indices the kernel slices it at, where they are read
    taken: StagesTaken | None = None   # every stage index it is sliced at, where every use is a slice read
    waited: WaitedStages | None = None  # the stages past the waited one its slices linked to barrier waits take
    tensors: TmaTensors | None = None   # a TMA side: the global tensor of its tensor map, and of the tiles it takes
    mma_operand: str | None = None      # a side the MMA reads (its descriptor, or a copy filling its register
                                        # fragment): the operand (A, B)
    mma: Value | None = None            # ... and the tiled MMA whose fragment it is
    mn_tiles: frozenset[Value] = frozenset()    # a TMA load: the values it takes its tiles along M (A) / N (B) at


class _Reader:
    def __init__(self, flow: KernelFlow, prefix: str) -> None:
        self.atom_sides: list[BufferSide] = []
        self.atom_records: set[tuple[str, str]] = set()
        self.remapped: set[Op] = set()       # copies whose coordinate moves a buffer check models
        self.flow = flow
        self.prefix = prefix
        self.out = KernelChecks(flow.function.name)
        self.used: set[Op] = set()
        self.names: set[str] = set()
        self.stage_indexes = StageIndexes(flow)
        self.tmem_stages = TmemStages(flow, self.stage_indexes)

    def skip(self, where: Where, what: str, why: str) -> None:
        self.out.skipped.append(Skipped(where, what, why))

    def name(self, *parts: str) -> str:
        base = "_".join([self.prefix, *parts])
        n, k = base, 2
        while n in self.names:
            n, k = f"{base}_{k}", k + 1
        self.names.add(n)
        return n

    # -- types of actors ------------------------------------------------------------------------------------
    def tiled_copy(self, v: Value) -> TiledCopyType | str:
        return self._typed(v, "!cute.tiled_copy", "tiled copy", tiled_copy_of)

    def tiled_mma(self, v: Value) -> TiledMmaType | str:
        return self._typed(v, "!cute.tiled_mma", "tiled MMA", tiled_mma_of)

    def _typed(self, v: Value, head: str, what: str, read: Callable[[str], T]) -> T | str:
        """The value's CuTe type read by `read`, or why it cannot be."""
        t = self.flow.type_of(v)
        if t is None or not is_type(t, head):
            return f"{v} is not a {what} ({t})"
        try:
            return read(t)
        except TypeTextError as e:
            return str(e)

    def shared_view(self, v: Value) -> SharedView | str | None:
        return self.flow.view(self.flow.root(v))

    # -- which operand a register fragment is ----------------------------------------------------------------
    def fragment_operand(self, frag: Value) -> tuple[Value, str] | None:
        """(tiled MMA, operand) whose fragment `frag` is: made by make_fragment, or used by cute.gemm."""
        root = self.flow.root(frag)
        p = self.flow.partition_of(root)
        if p is not None and p.role is Role.FRAGMENT and p.operand:
            return p.actor, p.operand
        for g in self.flow.gemms:
            if len(g.operands) >= 5:
                mma, d, a, b, c = g.operands[:5]
                for v, op in ((d, "C"), (c, "C"), (a, "A"), (b, "B")):
                    if self.flow.root(v) == root:
                        return mma, op
        return None

    # -- operand paths through registers ----------------------------------------------------------------------
    def register_paths(self) -> None:
        for p in self.flow.partitions:
            if p.role is not Role.RETILE or p.op in self.used:
                continue
            self.used.add(p.op)
            tc = self.tiled_copy(p.actor)
            if isinstance(tc, str):
                self.skip(p.op.where, "retile", tc)
                continue
            owner = self.fragment_operand(p.target)
            if owner is None:
                self.skip(p.op.where, f"retile by {tc.atom.family}", f"the fragment {p.target} is not a tiled MMA's "
                                                                     "operand this reader can trace")
                continue
            mma_value, operand = owner
            shared = self.copied_with(p)
            if not shared:
                self.skip(p.op.where, f"retile by {tc.atom.family}", "the tiled copy partitions no shared view "
                                                                     "this reader can trace")
                continue
            for q, direction in shared:
                self.used.add(q.op)
                self.operand_record(q, tc, mma_value, operand, direction, p.target)

    def operand_filled_from(self, src: Partition) -> tuple[Value, str] | None:
        """(tiled MMA, operand A or B) whose register fragment a copy from the shared partition `src` fills: the copy's
        destination a retile of that fragment (an ldmatrix of A into tCrA), the one such operand of its copies."""
        owners: set[tuple[Value, str]] = set()
        for c in self.flow.copies:
            if len(c.operands) < 3 or c.operands[0] != src.actor or self.flow.partition_of(c.operands[1]) is not src:
                continue
            dst = self.flow.partition_of(c.operands[2])
            owner = self.fragment_operand(dst.target) if dst is not None and dst.role is Role.RETILE else None
            if owner is None or owner[1] not in OTHER_OPERAND:
                return None
            owners.add(owner)
        return next(iter(owners)) if len(owners) == 1 else None

    def copied_with(self, retile: Partition) -> list[tuple[Partition, str]]:
        """The shared-memory partitions a cute.copy moves to (load) or from (store) the registers `retile` views; a
        tiled copy's only shared partition when no copy names both (a copy inside a loop whose operands the reader
        cannot follow back)."""
        out: list[tuple[Partition, str]] = []
        for c in self.flow.copies:
            if len(c.operands) < 3 or c.operands[0] != retile.actor:
                continue
            src, dst = self.flow.partition_of(c.operands[1]), self.flow.partition_of(c.operands[2])
            for mem, reg, direction in ((src, dst, "load"), (dst, src, "store")):
                if reg is not None and reg.op is retile.op and mem is not None and \
                        mem.role in (Role.SOURCE, Role.DESTINATION) and \
                        isinstance(self.shared_view(mem.target), SharedView) and \
                        all(mem.op is not q.op for q, _ in out):
                    out.append((mem, direction))
        if out:
            return out
        sides = [(q, "load") for q in self.flow.partitions_of(retile.actor, Role.SOURCE)]
        sides += [(q, "store") for q in self.flow.partitions_of(retile.actor, Role.DESTINATION)]
        shared = [(q, d) for q, d in sides if isinstance(self.shared_view(q.target), SharedView)]
        return shared if len(shared) == 1 else []

    def mma_names(self, mma_value: Value, where: Where) -> tuple[TiledMmaType, str] | None:
        mt = self.tiled_mma(mma_value)
        if isinstance(mt, str):
            self.skip(where, "tiled MMA", mt)
            return None
        name = mma_atom_name(mt.atom)
        if isinstance(name, Unnamed):
            self.skip(where, "tiled MMA", name.why)
            return None
        return mt, name

    def operand_record(self, q: Partition, tc: TiledCopyType, mma_value: Value, operand: str, direction: str,
                       fragment: Value | None = None) -> None:
        view = self.shared_view(q.target)
        assert isinstance(view, SharedView)
        named = self.mma_names(mma_value, q.op.where)
        if named is None:
            return
        mt, mma_name = named
        copy = copy_atom_name(tc.atom)
        if isinstance(copy, Unnamed):
            self.skip(q.op.where, f"tiled copy of operand {operand}", copy.why)
            return
        value_type = cpp_value_type(view.memref.element)
        if value_type is None:
            self.skip(q.op.where, f"tiled copy of operand {operand}", f"element type {view.memref.element}")
            return
        try:
            smem = view_layout_text(view.memref, stage=False)
        except TypeTextError as e:
            self.skip(q.op.where, f"shared view of operand {operand}", str(e))
            return
        staged = view.memref.layout()
        shapes = _epilogue_subtile(mt, operand, staged)
        if shapes is not None:
            self.subtile_record(q, tc, mt, mma_name, copy, value_type, shapes, fragment, direction)
            return
        inner = staged.b if isinstance(staged, ComposedLayout) else staged
        notes = [f"the {direction} {copy} (tiled copy {q.actor} at {q.op.where}) of the {view.memref.element} "
                 f"view {view.value} ({view.where})"]
        if isinstance(inner, Layout) and inner.rank() == 3:
            notes.append(f"stage 0 of {int(inner.mode(2).size())}: the buffer checks prove every stage's placement")
        source = self.fragment_view(fragment) if fragment is not None and operand in ("A", "B") else None
        self.out.records.append(OperandRecord(
            self.name(operand, _copy_word(copy), direction),
            q.op.where, " ".join(notes), mma_name, _atom_layout_text(mt.atom_layout), _permutation_text(mt.permutation),
            operand, copy, value_type, smem, TiledCopyGiven(tc.layout_tv.plain(), _tiler_text(tc.tiler)), notes,
            _converted(mt, operand, view),
            tiles=(_memory_name(view), _memory_name(source)) if source is not None else None))

    def fragment_view(self, fragment: Value) -> SharedView | None:
        """The shared view an MMA operand fragment was made from: `make_fragment X` of the tiled MMA's partition of
        it (None where the fragment is made otherwise)."""
        made = self.flow.partition_of(self.flow.root(fragment))
        if made is None or made.role is not Role.FRAGMENT:
            return None
        mma_part = self.flow.partition_of(made.target)
        if mma_part is None or mma_part.role is not Role.MMA:
            return None
        view = self.shared_view(mma_part.target)
        return view if isinstance(view, SharedView) else None

    def subtile_record(self, q: Partition, tc: TiledCopyType, mt: TiledMmaType, mma_name: str, copy: str,
                       value_type: str, shapes: tuple[tuple[int, int], tuple[int, int]], fragment: Value | None,
                       direction: str) -> None:
        """An epilogue subtile: the accumulator's registers each subtile's copy is handed and where its TMA store
        puts it (epilogue_subtiles.py), as a check of theorem 39; else the copy listed with the reason."""
        (rows, cols), mma_tile = shapes
        what = f"the {direction} {copy} of operand C"
        head = (f"its shared tile {rows}x{cols} is an epilogue subtile of the tiled MMA's {mma_tile[0]}x{mma_tile[1]} "
                "C tile")
        if direction != "store":
            self.skip(q.op.where, what, f"{head}: a load of C into registers, which no check models")
            return
        if fragment is None:
            self.skip(q.op.where, what, f"{head}, and the copy stores no register fragment this reader traces")
            return
        try:
            acc = memref_of(self.flow.type_of(fragment) or "").layout()
        except TypeTextError as e:
            self.skip(q.op.where, what, f"{head}; the accumulator's layout is not read ({e})")
            return
        if not isinstance(acc, Layout) or acc.rank() != 3 or not acc.is_static():
            self.skip(q.op.where, what, f"{head}; the accumulator {fragment} is not a (value, m, n) fragment")
            return
        tile = (int(acc.mode(1).size()) * mma_tile[0], int(acc.mode(2).size()) * mma_tile[1])
        found = subtile_stores(self.flow, q, fragment, (rows, cols), tile, self._same_buffer)
        if isinstance(found, str):
            self.skip(q.op.where, what, f"{head}; its subtiles are not read: {found}")
            return
        first, last = found.stores[0], found.stores[-1]
        note = (f"the {direction} {copy} (tiled copy {q.actor} at {q.op.where}) of the accumulator {fragment} in "
                f"{len(found.stores)} subtiles of {rows}x{cols}, each put by the TMA store after it (lines "
                f"{first.store.where.line}..{last.store.where.line}) at its place of the {tile[0]}x{tile[1]} tile; the "
                "thread-slice check proves the copy's slices, the buffer check its shared tile's writer and TMA store")
        self.out.records.append(SubtileRecord(
            self.name("C", "subtiles"), q.op.where, note, mma_name, _atom_layout_text(mt.atom_layout),
            _permutation_text(mt.permutation), copy, value_type,
            TiledCopyGiven(tc.layout_tv.plain(), _tiler_text(tc.tiler)), found.accumulator.plain(), (rows, cols),
            [(s.at, s.registers) for s in found.stores],
            found.pipeline if isinstance(found.pipeline, StorePipeline) else None, stages=found.stages))
        if isinstance(found.pipeline, str):
            self.skip(q.op.where, f"the TMA stores of the {len(found.stores)} subtiles of {what}",
                      f"whether a store may still read a stage the next copies write is not read: {found.pipeline}")

    def _same_buffer(self, a: Value, b: Value) -> bool:
        """Whether two shared views start at one place of one allocation."""
        va, vb = self.shared_view(a), self.shared_view(b)
        return isinstance(va, SharedView) and isinstance(vb, SharedView) and \
            (va.pointer.allocation, va.pointer.offset) == (vb.pointer.allocation, vb.pointer.offset)

    def transaction_bytes(self) -> None:
        """Each TMA barrier a producer arms with expect_tx, against its loads' tiles (transaction_bytes.py)."""
        found, unread = transactions(self.flow)
        for op, why in unread:
            self.skip(op.where, "the bytes an mbarrier is armed with (expect_tx)", why)
        seen: set[tuple[int, tuple[tuple[int, int, str], ...]]] = set()
        for tx in found:
            loads = tuple((load.bytes, load.ctas, load.by) for load in tx.loads)
            if (tx.armed, loads) in seen:
                continue             # the same barrier armed alike elsewhere (a prologue and its mainloop)
            seen.add((tx.armed, loads))
            what = (f"the mbarrier armed at {tx.arming.where} for {tx.armed} bytes, and the {len(loads)} TMA loads "
                    "that complete on it in the same loop body (" +
                    ", ".join(str(load.copy.where.line) for load in tx.loads) + ")")
            self.out.records.append(TransactionRecord(self.name("transaction"), tx.arming.where, what, tx.armed,
                                                      list(loads)))

    # -- C stores by a copy atom into the MMA's own partition ------------------------------------------------------
    def atom_copies(self) -> None:
        """Copies by a copy atom (not a tiled copy) between registers and the tiled MMA's own partition of a shared
        view: a load of A / B from it (per-thread vector loads), a store of C into it (the epilogue)."""
        from .cute_types import copy_atom_of
        for op in self.flow.copies:
            if len(op.operands) < 3:
                continue
            atom_t = self.flow.type_of(op.operands[0]) or (op.operand_types[0] if op.operand_types else None)
            if atom_t is None or not atom_t.startswith("!cute_nvgpu.atom."):
                continue
            src, dst = self.flow.partition_of(op.operands[1]), self.flow.partition_of(op.operands[2])
            for part, direction in ((src, "load"), (dst, "store")):
                if part is None or part.role is not Role.MMA or part.operand is None or \
                        (direction == "store") != (part.operand == "C"):
                    continue
                view = self.shared_view(part.target)
                if not isinstance(view, SharedView):
                    continue
                self.used.update((op, part.op))
                try:
                    copy = copy_atom_name(copy_atom_of(atom_t))
                except TypeTextError as e:
                    copy = Unnamed(str(e))
                what = f"the {direction} of the tiled MMA's {part.operand} partition"
                if isinstance(copy, Unnamed):
                    self.skip(op.where, what, copy.why)
                    continue
                by = f"{copy} {'into' if direction == 'store' else 'from'} the MMA's {part.operand} partition " \
                     f"(line {op.where.line})"
                self.atom_sides.append(BufferSide(view, by, copy, op.where, direction == "store"))
                self.atom_operand_record(op, part, view, copy, direction)

    def atom_operand_record(self, op: Op, part: Partition, view: SharedView, copy: str, direction: str) -> None:
        operand = part.operand or "A"
        named = self.mma_names(part.actor, op.where)
        value_type = cpp_value_type(view.memref.element)
        if named is None or value_type is None:
            return
        mt, mma_name = named
        try:
            smem = view_layout_text(view.memref, stage=False)
        except TypeTextError as e:
            self.skip(op.where, f"shared view of {operand}", str(e))
            return
        if (operand, direction) in self.atom_records:
            return                    # one check per operand: the copies of other stages and k-blocks are the same
        self.atom_records.add((operand, direction))
        notes = [f"the {direction} {copy} of the tiled MMA's {operand} partition ({part.op.where}) "
                 f"{'into' if direction == 'store' else 'from'} the {view.memref.element} view {view.value} "
                 f"({view.where})"]
        self.out.records.append(OperandRecord(
            self.name(operand, direction), op.where, notes[0], mma_name, _atom_layout_text(mt.atom_layout),
            _permutation_text(mt.permutation), operand, copy, value_type, smem, None, notes,
            _converted(mt, operand, view)))

    # -- operands read through a descriptor --------------------------------------------------------------------
    def descriptor_fragments(self) -> list[tuple[Partition, Partition | None, SharedView | str | None]]:
        """The fragments the tensor core reads through a shared-memory descriptor (wgmma, tcgen05.mma): each with
        the MMA partition it was made from (if any) and the shared view under it."""
        out: list[tuple[Partition, Partition | None, SharedView | str | None]] = []
        for f in self.flow.partitions:
            if f.role is not Role.FRAGMENT or f.operand not in ("A", "B"):
                continue
            if not (f.op.result_types and "smem_desc" in f.op.result_types[0]):
                continue
            under = self.flow.partition_of(f.target)
            if under is not None and under.role is Role.MMA:
                out.append((f, under, self.shared_view(under.target)))
            else:
                out.append((f, None, self.shared_view(f.target)))
        return out

    def descriptor_paths(self) -> None:
        for f, under, view in self.descriptor_fragments():
            self.used.add(f.op)
            if under is not None:
                self.used.add(under.op)
            operand = f.operand or "A"
            what = f"operand {operand} read through a descriptor"
            if not isinstance(view, SharedView):
                self.skip(f.op.where, what, view if isinstance(view, str) else "its view is not in shared memory")
                continue
            named = self.mma_names(f.actor, f.op.where)
            if named is None:
                continue
            mt, mma_name = named
            tma = self.tma_writer_of(view)
            if tma is None:
                self.skip(f.op.where, what, "no TMA load fills its shared view (only TMA-filled descriptor operands "
                                            "are checked)")
                continue
            gmem = tma.get("gmem")
            if gmem is None or "why" in tma:
                self.skip(f.op.where, what, tma.get("why", "the TMA's global tensor is not known"))
                continue
            atom_type = self.flow.type_of(tma["partition"].actor) or ""
            value_type = tile_value_type(view.memref, atom_type)
            if value_type is None:
                self.skip(f.op.where, what, f"its view's element type {view.memref.element} has no name in this "
                                            "reader's table")
                continue
            try:
                smem = view_layout_text(view.memref, stage=True, mn_k=True)
            except TypeTextError as e:
                self.skip(f.op.where, f"shared view of operand {operand}", str(e))
                continue
            majors = operand_majors(mt.atom) if "Major::" not in mma_name else None
            box = check_units_box(tma_box(atom_type), atom_type, view.memref)
            swizzle = tma_atom_swizzle(tma.get("smem_layout"))
            notes = [f"operand {operand} of the tiled MMA ({f.op.where}) read by the tensor core through a "
                     f"descriptor of the {view.memref.element} view {view.value} ({view.where}), filled by TMA "
                     f"({tma['where']}; its boxes, of the atom's own size and swizzle, modelled at the reader's "
                     "layout, which the buffer check compares with the TMA's own)"]
            assumes = [a for a in (tma.get("assumed"), self.placement(view)) if a]
            if box is None:
                assumes.append(ASSUME_TMA_BOX.format(tma=tma["partition"].actor, box=_gbasis_text(atom_type)))
            # a TMA atom of elements of another width than the view's moves its own elements into the tile (TMA
            # converts none but by unpacking): the copy's value type is the atom's, the tile's the view's
            copied = tma_copied_type(atom_type, view.memref)
            self.out.records.append(DescriptorRecord(
                self.name(operand, "tma", "descriptor"), f.op.where, "; ".join(notes), mma_name,
                _atom_layout_text(mt.atom_layout), operand, copied or value_type, smem, gmem, self.base_align(view),
                notes, None if majors is None else majors[0 if operand == "A" else 1], assumes, tma_box=box,
                tma_swizzle=None if swizzle is None else swizzle.value,
                tile_type=value_type if copied is not None else None,
                tensors=tma_tensors(self.flow, tma["partition"])))

    def tma_writer_of(self, view: SharedView) -> dict[str, Any] | None:
        """The TMA load that fills `view` (`tma_atom_info` of its partition): those whose partition's view is `view`
        itself, else those whose view overlaps it with the same coordinates (`_same_buffer`); None when no TMA load
        fills it.  Loads that would give the check different global tensors or shared layouts (an allocation two
        operands' loads share, as an attention kernel's K and V) give a `why`: which one fills the view is not
        read."""
        loads = [p for p in self.flow.partitions if p.role is Role.TMA and self._loads(p)]
        filled = {p: self.shared_view(p.target) for p in loads}
        found = [p for p in loads if isinstance(v := filled[p], SharedView) and v.value == view.value] or \
                [p for p in loads if isinstance(v := filled[p], SharedView) and _same_buffer(v, view)]
        if not found:
            return None
        infos = [self.tma_atom_info(p) for p in found]
        if len({(i.get("gmem"), i.get("smem_layout"), i.get("why")) for i in infos}) > 1:
            return {**infos[0], "why": f"{len(found)} TMA loads ({', '.join(str(p.op.where) for p in found)}) of "
                                       "different tensors fill views over its bytes: which one fills this view is "
                                       "not read"}
        return infos[0]

    def _loads(self, p: Partition) -> bool:
        """Whether the TMA partition `p` is a TMA load's (its atom one of TMA_LOAD_ATOMS)."""
        atom_t = self.flow.type_of(p.actor) or ""
        return any(f"atom.{a}<" in atom_t for a in TMA_LOAD_ATOMS)

    def tma_atom_info(self, p: Partition) -> dict[str, Any]:
        """A TMA load's or store's partition `p` with the global tensor its atom was made from (`gmem`, `assumed`)
        and the shared layout (`smem_layout`), or `why` they are not known."""
        out: dict[str, Any] = {"where": p.op.where, "partition": p}
        boxes = other_box(self.flow, p)
        if boxes is not None:
            out["why"] = boxes
            return out
        host = self.flow.host_values.get(p.actor)
        if host is None:
            out["why"] = f"the TMA atom {p.actor} is not launched from a host function in this module"
            return out
        made = self.flow.host_maker(p.actor)
        maker = made[1] if made is not None else None
        if maker is None or not maker.operand_types:
            out["why"] = f"the host value {host[1]} of the TMA atom is not made by an operation this reader knows"
            return out
        out["maker"] = maker
        if len(maker.operand_types) > 1 and maker.operand_types[1]:      # known whatever its global tensor is
            out["smem_layout"] = maker.operand_types[1]
        gt = maker.operand_types[0]
        try:
            g = memref_of(gt or "")
            # a stride of no stated divisibility: TMA's own rule (16 bytes) taken, the host refusing any other; an
            # atom that unpacks 4- or 6-bit elements (an ALIGN16B data type) needs every stride a multiple of 32
            # bytes, whatever divisibility the IR states
            unpacks = bool(_UNPACK_FORMAT.search(self.flow.type_of(p.actor) or ""))
            unit = math.lcm(UNPACKED_STRIDE_BYTES * BYTE, g.bits) // g.bits if unpacks and g.bits else 1
            floor = max(1, TMA_STRIDE_BYTES * BYTE // max(1, g.bits), unit)
            text, assumed = representative(g.layout_text, floor, unit)
            glayout = layout_of(text)
        except TypeTextError as e:
            out["why"] = f"the TMA's global tensor: {e}"
            return out
        if not isinstance(glayout, Layout) or glayout.rank() < 2:
            out["why"] = f"the TMA's global tensor {gt} is not a rank-2+ layout"
            return out
        out["gmem"] = Layout(glayout.shape[:2], glayout.stride[:2]).plain()
        if assumed:
            out["assumed"] = (f"the global tensor {g.layout_text} is taken as {glayout.plain()}: each "
                              "dynamic stride as an odd multiple of its stated divisibility (which alone decides "
                              "TMA's 16-byte stride rule for every value), each dynamic extent as a multiple "
                              "large enough to hold every tile")
            if unit > 1:
                out["assumed"] += (f"; each dynamic stride a multiple of {UNPACKED_STRIDE_BYTES} bytes ({unit} "
                                   "elements) as well: the atom unpacks its elements a byte each, and "
                                   "cuTensorMapEncodeTiled refuses any other stride for such a data type at run time")
            elif _UNSTATED_STRIDE.search(g.layout_text.partition(":")[2]):
                out["assumed"] += (f"; a dynamic stride whose divisibility the IR does not state as an odd multiple "
                                   f"of {TMA_STRIDE_BYTES} bytes ({floor} elements): cuTensorMapEncodeTiled refuses "
                                   "any other at run time")
        return out

    def base_align(self, view: SharedView) -> int:
        """What the view's allocation guarantees of its base: the IR's alignment, or, where the DSL's allocator
        places it (flow._place), the alignment of its place from the dynamic shared memory base, which the DSL
        aligns to DSL_SMEM_BASE_ALIGN."""
        a = view.pointer.allocation
        if a.placed_at is None:
            return a.align
        placed = DSL_SMEM_BASE_ALIGN if a.placed_at % DSL_SMEM_BASE_ALIGN == 0 else a.placed_at & -a.placed_at
        return max(a.align, placed)

    # -- which slice each thread takes ------------------------------------------------------------------------
    def thread_slices(self) -> None:
        """A thread-slice check (theorem 37) for each tiled copy a copy moves through a partition the kernel slices at
        a thread coordinate other than threadIdx.x itself (`get_slice(tidx % 128)`, `get_slice(0)`), or at threadIdx.x
        by threads other than the block's first (the conditions around the copy: `runs:`): every other check reads
        thread u's elements as slice u's.  A coordinate this reader does not evaluate is listed."""
        from ..kinds.slice.coordinate import plain
        block = block_threads(self.flow.function)
        launched = launch_dims(self.flow.function) is not None   # the block's threads known, not the most it may have
        # the copies that take each partition (one no copy takes, a fragment's shape or `get_slice(0)`, moves nothing)
        copies = {q: [op for _, op in taken] for q, taken in self.copy_uses().items()}
        seen: set[tuple[Value, Value, str | None]] = set()
        for p in self.flow.partitions:
            if p.role not in (Role.SOURCE, Role.DESTINATION) or p.thread is None or p.op not in copies:
                continue
            tc = self.tiled_copy(p.actor)
            copy = copy_atom_name(tc.atom) if isinstance(tc, TiledCopyType) else None
            if not isinstance(copy, str) or not isinstance(tc, TiledCopyType):
                continue        # no tiled copy of a named atom: its partitions are listed where they are used
            what = f"the thread coordinate {p.thread} of {p.op.name.rsplit('.', 1)[-1]}"
            text = coordinate_text(self.flow, p.thread)
            if isinstance(text, Untraced) or isinstance(block, Untraced):
                if (p.actor, p.thread, None) not in seen:
                    seen.add((p.actor, p.thread, None))
                    why = (text if isinstance(text, Untraced) else block).why      # type: ignore[union-attr]
                    self.skip(p.op.where, what, f"{why}: which slice of the tiled copy each thread takes is not "
                                                "checked (the other checks read thread u's elements as slice u's)")
                continue
            threads = int(tc.layout_tv.mode(0).size())
            coordinate = plain(text)
            if len(coordinate) > MAX_LENGTH:
                self.skip(p.op.where, what, f"the coordinate is an expression of more than {MAX_LENGTH} characters: "
                                            "which slice of the tiled copy each thread takes is not checked")
                continue
            # which threads run it: those that run any copy taking the partition (a copy under each branch of a
            # condition is one copy of the partition's slices), where each copy's conditions are read
            runs, unread = _running_threads([running_condition(self.flow, op) if launched else None
                                             for op in copies[p.op]])
            if (p.actor, p.thread, runs) in seen:
                continue
            seen.add((p.actor, p.thread, runs))
            if coordinate == "tid" and threads <= block and (runs is None or _first_threads(runs, block, threads)):
                continue    # each thread its own slice, the block's first threads running the copy
            value_type = self.element_type(p.target)
            if value_type is None:
                self.skip(p.op.where, what, f"the tensor {p.target} it partitions has no element type this reader "
                                            "names: which slice each thread takes is not checked")
                continue
            by = f"the threads of the {block}-thread block with {runs}" if runs is not None else \
                f"each thread of the {block}-thread block"
            self.out.records.append(SliceRecord(
                self.name("slice", copy.split("<")[0].lower()), p.op.where,
                f"the tiled copy {p.actor} of {copy} ({threads} threads), sliced at {coordinate} by {by} "
                f"({p.op.where}){unread}", copy, value_type, threads, block, coordinate, runs))

    # -- which slice each CTA takes ------------------------------------------------------------------------
    def cta_slices(self) -> None:
        """A CTA-slice check (theorem 37 over CTAs) for each partition that splits a TMA copy's tile among the CTAs of
        a cluster at a coordinate that is the same in every CTA (a static one): a TMA partition whose CTA layout has
        n > 1 CTAs (a multicast load: each CTA loads its slice for all n), and a 2-CTA MMA's partition of a global
        tensor a TMA copy loads (each CTA of the pair its half).  A coordinate read at run time is not read."""
        for p in self.flow.partitions:
            writers: int | None = None
            if p.role is Role.TMA and len(p.op.operands) >= 4:
                count = _layout_size(p.op.operand_types[2]) if len(p.op.operand_types) > 2 else None
                coordinate = static_coordinate(p.op.operand_types[1] if len(p.op.operand_types) > 1 else None)
                what, smem = f"the CTA coordinate of the TMA partition ({p.op.where})", p.op.operands[3]
                atom_type = p.op.operand_types[0] or self.flow.type_of(p.actor) or ""
                if MULTICAST not in atom_type and count is not None and count > 1:
                    writers = 1         # a plain TMA load writes its own CTA's tile alone, whatever its slice
                    if coordinate is None:
                        what += " (not read: one CTA cannot take all the slices)"
            elif p.role is Role.MMA and len(p.op.operands) >= 3:
                m = _NUM_CTA.search(self.flow.type_of(p.actor) or "")
                count = int(m.group(1)) if m else None
                coordinate = static_coordinate(p.op.operand_types[2] if len(p.op.operand_types) > 2 else None)
                loads = [q for q in self.flow.partitions if q.role is Role.TMA and len(q.op.operands) >= 5 and
                         self.flow.partition_of(q.op.operands[4]) is p]
                if not loads:
                    continue    # a partition no TMA copy loads (a fragment's shape): it moves nothing
                what, smem = (f"the CTA coordinate of the 2-CTA MMA's partition {p.operand} ({p.op.where}) of the "
                              f"global tile a TMA copy moves ({loads[0].op.where})"), loads[0].op.operands[3]
            else:
                continue
            if count is None or count < 2 or (coordinate is None and writers is None):
                continue
            value_type = self.element_type(smem)
            if value_type is None:
                self.skip(p.op.where, what, f"its shared tile {smem} has no element type this reader names: which "
                                            "slice each CTA takes is not checked")
                continue
            self.out.records.append(SliceRecord(
                self.name("cta_slice", p.operand.lower() if p.operand else "tma"), p.op.where,
                f"{what}: " + (f"{coordinate} in every CTA, " if coordinate is not None else "") +
                f"the tile split among {count} CTAs" + (", the atom no multicast: each CTA's own slice alone reaches "
                                                         "its tile" if writers == 1 else ""),
                TMA_COPIES[0], value_type, count, writers or count, "tid" if coordinate is None else str(coordinate),
                unit=SliceUnit.CTA))

    def element_type(self, v: Value) -> str | None:
        """The C++ name of the element type of the tensor `v`, where it is a memref of a named type."""
        t = self.flow.type_of(v) or ""
        try:
            return cpp_value_type(memref_of(t).element) if is_type(t, "!cute.memref") else None
        except TypeTextError:
            return None

    # -- tensor memory -------------------------------------------------------------------------------------------
    def tmem_paths(self) -> None:
        columns = self.tmem_columns()
        for op in self.flow.function.ops:
            if op.name != MAKE_TMEM_COPY or not op.results or len(op.operand_types) < 2:
                continue
            self.used.add(op)
            tc = self.tiled_copy(op.results[0])
            if isinstance(tc, str):
                self.skip(op.where, "make_tmem_copy", tc)
                continue
            copy = copy_atom_name(tc.atom)
            if isinstance(copy, Unnamed):
                self.skip(op.where, "make_tmem_copy", copy.why)
                continue
            element = tc.atom.params[0].strip() if tc.atom.params else ""
            value_type = cpp_value_type(element)
            try:
                tmem = memref_of(op.operand_types[1] or "")
                tmem_layout = layout_of(tmem.layout_text)
            except TypeTextError as e:
                self.skip(op.where, "make_tmem_copy", f"its tensor-memory tile: {e}")
                continue
            if value_type is None or not isinstance(tmem_layout, Layout):
                self.skip(op.where, "make_tmem_copy", f"element {element} or tile {tmem.layout_text}")
                continue
            rec = TmemRecord(self.name("tmem", "load" if "LOAD" in copy else "store"), op.where,
                             f"the {copy} tiled copy make_tmem_copy builds ({op.where}) over the tensor-memory tile "
                             f"{tmem_layout.plain()}" + (f"; the columns allocated are not stated ({columns}): "
                                                         "theorem 21 bounds the tile by tensor memory's 512"
                                                         if isinstance(columns, str) else ""),
                             copy, value_type, tmem_layout.plain(), columns if isinstance(columns, int) else None)
            self.used.update(q.op for q in self.flow.partitions_of(op.results[0]))
            r2s = self.tmem_store(op.results[0], rec)
            rec.tmem_view = self.tmem_view(op.results[0])
            if "LOAD" in copy:
                self.accumulator_stages(op.results[0], rec)
            self.out.records.append(rec)
            if "LOAD" in copy and r2s is not None:
                self.subtile_order(op.results[0], r2s, rec)

    def subtile_order(self, t2r: Value, r2s: Value, rec: TmemRecord) -> None:
        """The epilogue loop over the subtiles of the accumulator stage the load reads, as a check of theorem 42
        (tmem_subtiles.py); listed with the reason where a loop is not read."""
        what = f"the epilogue loop over the subtiles the TMEM load {rec.copy} ({rec.where}) reads"
        view = rec.tmem_view
        found = read_subtile_order(self.flow, t2r, r2s, view.layout if view is not None else None)
        if found is None:
            return
        if isinstance(found, str):
            self.skip(rec.where, what, f"not read: {found}")
            return
        self.out.records.append(SubtileOrderRecord(
            self.name("subtile_order"), rec.where,
            f"{what}: {len(found.steps)} subtiles of {found.subtile[0]}x{found.subtile[1]} of the "
            f"{found.tile[0]}x{found.tile[1]} accumulator stage, each loaded, copied into a stage of the "
            f"{found.stages}-stage shared subtile and TMA-stored in the loop at {found.where}", found))

    def tmem_view(self, copy: Value) -> TmemViewRead | None:
        """The view of 32-bit cells of the pointer tcgen05.alloc wrote that a TMEM tiled copy's copies move through,
        its first column and the stages of it they take, where each is read and its layout static."""
        reach = self.tmem_stages.reach(copy)
        if isinstance(reach, str) or not reach.view.result_types or not reach.region.placed:
            return None
        layout = cell_layout(reach.view.result_types[0])
        return None if layout is None else TmemViewRead(layout.plain(), reach.region.column, reach.stages)

    def accumulator_stages(self, t2r: Value, rec: TmemRecord) -> None:
        """The stages of a staged accumulator the MMAs write and this load reads (theorem 38), where they are read;
        the description says which, or why none are stated."""
        read = self.tmem_stages.accumulator_stages(t2r)
        if isinstance(read, str):
            rec.what += f"; no accumulator stages stated ({read})"
            return
        rec.accumulator_stages = read
        rec.what += (f"; the MMAs write the accumulator's {stages_text(list(read.mma))}, the loads read "
                     f"{stages_text(list(read.load))} ({'; '.join(read.how)})")

    def tmem_columns(self) -> int | str:
        """The columns tcgen05.alloc allocates, where every allocation of the kernel (one, or one in each branch a
        kernel inlined twice) allocates one constant count; else why none is stated."""
        allocs = [op for op in self.flow.function.ops if op.name.endswith(".alloc_tmem") and op.operands]
        if not allocs:
            return "the kernel allocates no tensor memory this reader sees"
        counts = {self.flow.integer(op.operands[0]) for op in allocs}
        if None in counts:
            return "a tcgen05.alloc's column count is not a constant"
        if len(counts) > 1:
            return f"its tcgen05.alloc calls allocate {sorted(c for c in counts if c is not None)} columns"
        count = next(iter(counts))
        assert count is not None
        return count

    def tmem_store(self, t2r: Value, rec: TmemRecord) -> Value | None:
        """The copy that stores the registers the TMEM load filled into a shared view (retiled from them); returns its
        tiled copy (None: none read)."""
        loaded = {self.flow.root(c.operands[2]) for c in self.flow.copies
                  if len(c.operands) >= 3 and c.operands[0] == t2r}
        for p in self.flow.partitions:
            if p.role is not Role.RETILE or self.flow.root(p.target) not in loaded:
                continue
            dst = [q for q in self.flow.partitions_of(p.actor, Role.DESTINATION)
                   if isinstance(self.shared_view(q.target), SharedView)]
            tc = self.tiled_copy(p.actor)
            if not dst or isinstance(tc, str):
                continue
            view = self.shared_view(dst[0].target)
            assert isinstance(view, SharedView)
            copy = copy_atom_name(tc.atom)
            value_type = cpp_value_type(view.memref.element)
            if isinstance(copy, Unnamed) or value_type is None:
                self.skip(p.op.where, "the store after the TMEM load", copy.why if isinstance(copy, Unnamed)
                          else f"element {view.memref.element}")
                return None
            try:
                smem = view_layout_text(view.memref, stage=False)
            except TypeTextError as e:
                self.skip(p.op.where, "the store after the TMEM load", str(e))
                return None
            self.used.update(q.op for q in self.flow.partitions_of(p.actor))   # its retiles and partitions
            rec.store_copy, rec.store_value_type, rec.store_smem = copy, value_type, smem
            rec.store_tiled_copy = TiledCopyGiven(tc.layout_tv.plain(), _tiler_text(tc.tiler))
            rec.what += (f", then the store {copy} (tiled copy {p.actor} at {p.op.where}) into the "
                         f"{view.memref.element} view {view.value} ({view.where})")
            return p.actor
        return None

    def placement(self, view: SharedView) -> str | None:
        """The assumption base_align makes where it is stronger than the IR's alignment."""
        a = view.pointer.allocation
        align = self.base_align(view)
        if align <= a.align:
            return None
        return (f"the DSL's allocator places the allocation ({a.where}) at byte {a.placed_at} of the dynamic shared "
                f"memory, which it aligns to {DSL_SMEM_BASE_ALIGN} bytes: a base aligned to {align} (the IR says "
                f"align<{a.align}>)")

    # -- buffers ------------------------------------------------------------------------------------------------
    def copy_uses(self) -> dict[Op, list[tuple[str, Op]]]:
        """For each partition a `cute.copy` takes, the copies that take it and the side each takes it on: "src" or
        "dst"."""
        uses: dict[Op, list[tuple[str, Op]]] = {}
        for op in self.flow.copies:
            for side, v in zip(COPY_SIDES, op.operands[1:3]):
                p = self.flow.partition_of(v)
                if p is not None:
                    uses.setdefault(p.op, []).append((side, op))
        return uses

    def buffers(self) -> None:
        sides: list[BufferSide] = []
        uses = self.copy_uses()
        stages = self.stage_indexes
        for p in self.flow.partitions:
            view = self.shared_view(p.target) if p.role in (Role.SOURCE, Role.DESTINATION, Role.TMA) else None
            if not isinstance(view, SharedView):
                continue
            if p.role in (Role.SOURCE, Role.DESTINATION):
                tc = self.tiled_copy(p.actor)
                if isinstance(tc, str):
                    self.skip(p.op.where, p.op.name, tc)
                    continue
                copy = copy_atom_name(tc.atom)
                copy_text = copy if isinstance(copy, str) else tc.atom.family
                # a partition writes when a copy takes it as its destination: a partition_D a copy only reads
                # (partitioned by another tiled copy's threads, as a TMEM load's partition of the scale tiles) reads,
                # and a partition_S a copy only writes writes
                taken = {side for side, _ in uses.get(p.op, [])}
                writes = "dst" in taken if taken in ({"src"}, {"dst"}) else p.role is Role.DESTINATION
                name = "partition_D" if p.role is Role.DESTINATION else "partition_S"
                side = "written by a copy that takes it as its destination" if writes else \
                    "read by a copy that takes it as its source"
                how = "" if writes == (p.role is Role.DESTINATION) else f", {side}"
                if writes:
                    sides.append(BufferSide(view, f"{copy_text} ({name} {p.op.where.line}{how})", copy_text,
                                            p.op.where, True,
                                            remap=self.remap(p, tc) if p.role is Role.DESTINATION else None,
                                            stages=stages.of_view(p.result), taken=stages.taken([p.result]),
                                            waited=stages.waited([p.result])))
                else:
                    owner = self.operand_filled_from(p)
                    sides.append(BufferSide(view, f"{copy_text} ({name} {p.op.where.line}{how})", copy_text,
                                            p.op.where, False, stages=stages.of_view(p.result),
                                            taken=stages.taken([p.result]),
                                            waited=stages.waited([p.result]),
                                            mma_operand=owner[1] if owner else None,
                                            mma=owner[0] if owner else None))
                self.used.add(p.op)
            else:
                atom_t = self.flow.type_of(p.actor) or ""
                load, store = self._loads(p), any(f"atom.{a}<" in atom_t for a in TMA_STORE_ATOMS)
                boxes = other_box(self.flow, p) if load or store else None
                if boxes is not None:
                    self.skip(p.op.where, f"the shared buffer of the TMA {'load' if load else 'store'}", boxes)
                elif load or store:      # either side reads or writes through its atom's own shared layout
                    info = self.tma_atom_info(p)
                    sides.append(BufferSide(view, f"TMA {'load' if load else 'store'} (tma_partition "
                                                  f"{p.op.where.line})", TMA_LOAD_COPY if load else "", p.op.where,
                                            load, tma_layout=info.get("smem_layout"), tma_gmem=info.get("gmem"),
                                            tma_dim0=tma_dim0(atom_t), tensors=tma_tensors(self.flow, p),
                                            mn_tiles=mn_tile_indices(self.flow, p, stages.uses) if load
                                            else frozenset(),
                                            stages=stages.of_view(p.result),
                                            taken=stages.taken([p.result]),
                                            waited=stages.waited([p.result])))
                self.used.add(p.op)
        seen_views: set[Value] = set()
        fragments = self.descriptor_fragments()
        for f, _, dview in fragments:
            if isinstance(dview, SharedView) and dview.value not in seen_views:
                seen_views.add(dview.value)
                # the stages the tensor core reads: those of every descriptor fragment of the view
                every = [g.result for g, _, gview in fragments
                         if isinstance(gview, SharedView) and gview.value == dview.value]
                sides.append(BufferSide(dview, f"the tensor core's descriptor of {f.operand} (fragment "
                                               f"{f.op.where.line})", "", f.op.where, False,
                                        stages=stages.of_view(f.result), taken=stages.taken(every),
                                        waited=stages.waited(every), mma_operand=f.operand, mma=f.actor))
        sides += self.atom_sides
        writers, readers = [s for s in sides if s.writes], [s for s in sides if not s.writes]
        done: set[tuple[Value, Value, str]] = set()
        pairs: list[tuple[BufferSide, BufferSide]] = []
        for r in readers:
            for w in _writers_of(r, writers):
                key = (w.view.value, r.view.value, w.by + r.by)
                if key in done:
                    continue
                done.add(key)
                pairs.append((w, r))
        # the global tensors the kernel's TMA stores write (a TMA side that reads shared memory)
        stored = tuple(sorted({s.tensors.map_of for s in sides if not s.writes and s.tensors is not None}))
        # each MMA's operands: the values its A's TMA loads take their M tiles at, and its B's their N tiles at
        tiles: dict[tuple[Value, str], set[Value]] = {}
        for w, r in pairs:
            if r.mma is not None and r.mma_operand is not None and w.mn_tiles:
                tiles.setdefault((r.mma, r.mma_operand), set()).update(w.mn_tiles)
        for w, r in pairs:
            other = tiles.get((r.mma, OTHER_OPERAND.get(r.mma_operand or "", "")), set()) if r.mma else set()
            self.buffer_record(w, r, _sole_pair(w, r, pairs, sides), stored,
                               (_value_names(w.mn_tiles), _value_names(other)) if w.mn_tiles and other else None)
        paired = {k[0] for k in done} | {k[1] for k in done}
        for w in writers:
            if w.view.value not in paired:
                self.skip(w.where, f"shared buffer written by {w.by}", "no reader of the same coordinates in this "
                                                                       "kernel (nothing to agree with)")
        account: SharedWrites | str | None = None
        for r in readers:
            if r.view.value in paired:
                continue
            account = shared_writes(self.flow) if account is None else account
            if isinstance(account, SharedWrites) and not account.over(r.view) and self.unwritten_record(r, account):
                continue
            self.skip(r.where, f"shared buffer read by {r.by}", "no writer of the same coordinates in this kernel"
                      + (f" (whether anything writes its bytes is not known: {account})" if isinstance(account, str)
                         else ""))

    def remap(self, dst: Partition, dst_copy: TiledCopyType) -> Remap | None:
        """How a copy into `dst` moves coordinates when its source was partitioned by another tiled copy: the
        destination TV layout after the right inverse of the source's (a bijection of each tile's coordinates)."""
        for op in self.flow.copies:
            if len(op.operands) < 3 or self.flow.partition_of(op.operands[2]) is not dst:
                continue
            src = self.flow.partition_of(op.operands[1])
            if src is None or src.role is not Role.SOURCE or self.flow.type_of(src.actor) == \
                    self.flow.type_of(dst.actor):
                continue
            src_copy = self.tiled_copy(src.actor)
            if isinstance(src_copy, str) or src_copy.tiler != dst_copy.tiler or \
                    not all(isinstance(t, int) for t in src_copy.tiler):
                return None          # listed by mixed_partitions
            size = 1
            for t in src_copy.tiler:
                size *= int(t)
            try:
                moves = F.composition(dst_copy.layout_tv, F.right_inverse(src_copy.layout_tv))
            except (AlgebraError, ValueError, ArithmeticError):
                return None
            if not isinstance(moves, Layout) or sorted(moves.values()) != list(range(size)):
                return None
            self.remapped.add(op)
            return Remap(moves, tuple(int(t) for t in src_copy.tiler),
                         f"the copy at {op.where} reads each tile through {src.actor} ({src.op.where}) and writes it "
                         f"through {dst.actor} ({dst.op.where}): source coordinate c of a tile lands at {moves}(c)")
        return None

    def buffer_record(self, w: BufferSide, r: BufferSide, sole: bool, stored: tuple[str, ...] = (),
                      tiles_at: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> None:
        """The buffer check of writer `w` and reader `r`; `sole`: they are each other's only partner and their views'
        only sides, so the stages each takes are stated, for theorem 23 to prove them the same; `stored`: the global
        tensors the kernel's TMA stores write, stated on a TMA load the tensor core reads (an MMA operand), with
        `tiles_at`: the values it takes its M (A) or N (B) tiles at, and those the MMA's other operand takes its at."""
        wv, rv = w.view, r.view
        value_type = cpp_value_type(wv.memref.element)
        if wv.memref.element != rv.memref.element:
            self.skip(w.where, "shared buffer", f"the writer's elements ({wv.memref.element}) and the reader's "
                                                f"({rv.memref.element}) differ")
            return
        if value_type is None:
            self.skip(w.where, "shared buffer", f"its elements ({wv.memref.element}) have no C++ name in this reader's "
                                                "table")
            return
        notes = []
        writer_map = reader_map = None
        if w.remap is not None:       # both views by tile: (coordinate in the tile, tile); the writer's moved
            tiler, moves = w.remap.tiler, w.remap.moves

            def reader_map(layout: Layout) -> Layout:
                return zipped_divide(layout, tiler)

            def writer_map(layout: Layout) -> Layout:
                z = zipped_divide(layout, tiler)
                return make_layout(F.composition(z.mode(0), moves), z.mode(1))
            notes.append(w.remap.why)
        try:
            wl = view_layout_text(wv.memref, stage=True, inner_map=writer_map)
            rl = view_layout_text(rv.memref, stage=True, inner_map=reader_map)
        except TypeTextError as e:
            self.skip(w.where, "shared buffer", str(e))
            return
        try:      # a TMA side reads or writes the tile through the shared layout its atom was made from
            if w.tma_layout is not None:
                wl = _atom_side_text(wv.memref, w.tma_layout)
                notes.append("the TMA writes through the shared layout its atom was made from (its swizzle and "
                             "strides), a stage at the view's stage offset")
            if r.tma_layout is not None:
                rl = _atom_side_text(rv.memref, r.tma_layout)
                notes.append("the TMA store reads through the shared layout its atom was made from")
        except TypeTextError as e:
            self.skip(w.where, "shared buffer", str(e))
            return
        a = wv.pointer.allocation
        placement = self.placement(wv)
        self.used.update(q.op for q in self.flow.partitions if self.flow.root(q.target) in (wv.value, rv.value))
        pipeline = _pipeline_stages(w, r)
        bytes_ = a.bytes
        field = a.field_at(wv.pointer.offset)
        if field is not None and field is a.field_at(rv.pointer.offset):     # both views in one field of a struct:
            bytes_ = field.offset + field.bytes                                # its bytes are theirs, the rest others'
            notes.append(f"both views lie in the field {field.name} of the shared storage ({field.bytes} bytes at "
                         f"{field.offset}): they are proved inside it")
        if pipeline is not None:
            held = _stages_of(wv)
            notes.append(f"the kernel slices the views at stages 0..{pipeline.stages - 1} ({pipeline.how})"
                         + (f", past the {held} the views hold: they are proved inside their own bytes of the "
                            "allocation" if held is not None and pipeline.stages > held else ""))
            ends = [_view_end(side.view) for side in (w, r)]
            if held is not None and pipeline.stages > held and None not in ends:   # past the views: another's bytes
                bytes_ = min(bytes_, max(e for e in ends if e is not None))
        stated = sole and w.taken is not None and r.taken is not None
        if stated and w.taken is not None and r.taken is not None:
            notes.append(f"the writer takes {stages_text(sorted(w.taken.indices))} ({'; '.join(w.taken.how)}), the "
                         f"reader {stages_text(sorted(r.taken.indices))} ({'; '.join(r.taken.how)}): the only sides "
                         "of their views, each must take the other's stages")
        for side, label in ((w, "writer"), (r, "reader")):
            if side.waited is not None and side.waited.past:
                shown = side.waited.past[:PAST_WAIT_SHOWN]
                more = len(side.waited.past) - len(shown)
                notes.append(f"of the {label}'s {side.waited.linked} slices linked to barrier waits, "
                             + "; ".join(shown) + (f" (and {more} more)" if more else ""))
        self.out.records.append(BufferRecord(
            self.name("buffer", _view_word(wv)), w.where, w.copy, value_type, bytes_, self.base_align(wv),
            _side_record(w, wv.pointer.offset, wl, stated,
                         stored if stored and w.tensors is not None and r.mma_operand is not None else None,
                         tiles_at),
            _side_record(r, rv.pointer.offset, rl, stated), notes,
            [placement] if placement else [], None if pipeline is None else pipeline.stages))

    def unwritten_record(self, r: BufferSide, account: SharedWrites) -> bool:
        """A buffer check of reader `r`, whose bytes nothing the kernel runs writes (`account`): theorem 23 refutes it
        (the reader reads memory no one filled).  False where the reader names no atom this reader can write (a TMA
        store's), or its view has no type or layout text."""
        view = r.view
        mma = self.mma_names(r.mma, r.where) if r.mma is not None else None
        value_type = cpp_value_type(view.memref.element)
        if mma is None and (not r.copy or value_type is None):
            return False
        try:
            layout = view_layout_text(view.memref, stage=True)
        except TypeTextError:
            return False
        a = view.pointer.allocation
        field = a.field_at(view.pointer.offset)
        bytes_ = field.offset + field.bytes if field is not None else a.bytes
        own = [w for w in account.written if w.allocation == a.value]
        shown = "; ".join(f"{w.what} ({w.by}): bytes [{w.start}, {w.end})" for w in own[:UNWRITTEN_SHOWN])
        more = f" and {len(own) - UNWRITTEN_SHOWN} more" if len(own) > UNWRITTEN_SHOWN else ""
        why = (f"the kernel's {account.operations} operations on its shared allocations read, none writes "
               f"{view_text(view)}, the view {view.value} ({view.where}) the reader reads"
               + (f"; the allocation's writes: {shown}{more}" if own else "; nothing writes that allocation"))
        placement = self.placement(view)
        self.out.records.append(BufferRecord(
            self.name("buffer", _view_word(view), "unwritten"), r.where, "" if mma is not None else r.copy,
            value_type or "", bytes_, self.base_align(view), None,
            _side_record(r, view.pointer.offset, layout, False), [], [placement] if placement else [],
            unwritten=why, mma=mma[1] if mma is not None else None))
        return True

    def mixed_partitions(self) -> None:
        """A copy whose source and destination were partitioned by tiled copies of different TV layouts moves
        element c to where another element belongs; no check models it yet, so it is listed, never passed over."""
        seen: set[tuple[str, str]] = set()
        for op in self.flow.copies:
            if len(op.operands) < 3:
                continue
            src, dst = self.flow.partition_of(op.operands[1]), self.flow.partition_of(op.operands[2])
            if src is None or dst is None or Role.RETILE in (src.role, dst.role) or Role.MMA in (src.role, dst.role) \
                    or op in self.remapped:
                continue
            a, b = self.flow.type_of(src.actor), self.flow.type_of(dst.actor)
            if a is None or b is None or a == b or (a, b) in seen:
                continue
            seen.add((a, b))
            self.skip(op.where, "cute.copy", f"its source is partitioned by {src.actor} ({src.op.where}) and its "
                                             f"destination by {dst.actor} ({dst.op.where}), tiled copies of "
                                             "different layouts: each thread moves its source coordinates to other "
                                             "destination coordinates (not modelled by any check: look here)")

    def elementwise(self) -> None:
        """A kernel that loads global tiles into registers, computes lane by lane and stores a global tile, as a
        check of theorem 43 (elementwise.py); listed with the reason where it is not read."""
        found = read_elementwise(self.flow)
        if found is None:
            return
        if isinstance(found, str):
            self.skip(self.flow.function.arguments[0].where if self.flow.function.arguments else
                      self.flow.copies[0].where, "the kernel's copies between global memory and registers, read "
                      "as an element-wise computation", f"not read: {found}")
            return
        self.used.update(found.ops)
        out = found.output
        sides = ", ".join(f"{s.tensor} ({s.tile[0]}x{s.tile[1]} tiles)" for s in found.inputs)
        assumes = [f"every tile of the output ({(out.shape[0] // out.tile[0]) * (out.shape[1] // out.tile[1])}) is "
                   f"taken by some block and thread at the rest coordinate ({', '.join(map(str, out.rest))}, line "
                   f"{out.rest[0].where.line}), which every side takes alike: its range is not read"]
        if out.remap is not None:
            assumes.append(f"every side's rest mode is composed with {out.remap} on the host: a tile is read as the "
                           "tile its remapped rest coordinate names, alike on every side")
        if any(len(op.operands) > 3 for op in found.ops if op in self.flow.copies):
            assumes.append("the copies' predicates are not read: every element of a tile is taken as in bounds")
        self.out.records.append(ElementwiseRecord(
            self.name("elementwise"), out.where,
            f"the kernel's element-wise computation: {out.tensor} ({out.tile[0]}x{out.tile[1]} tiles of "
            f"{out.shape[0]}x{out.shape[1]}) from {sides}, every side sliced at one tile"
            + (f" and partitioned at one thread ({out.thread})" if out.thread is not None else
               ", each thread taking its slice whole"), found, assumes))

    def leftovers(self) -> None:
        """Every CuTe object and partition no check used, listed with why."""
        for p in self.flow.partitions:
            if p.op in self.used or p.role in (Role.FRAGMENT,):
                continue
            view = self.shared_view(p.target)
            if p.role is Role.MMA and not isinstance(view, SharedView):
                continue       # the MMA's partitions of global, register or coordinate tensors: no shared layout
            if isinstance(view, str):
                self.skip(p.op.where, p.op.name, view)
            elif view is None:
                self.skip(p.op.where, p.op.name, "a partition of a global or register tensor (the checks cover "
                                                 "shared memory and the registers it feeds)")
            else:
                self.skip(p.op.where, p.op.name, "a partition of a shared view no check pairs (see the lines above)")
        # copies between global memory and registers alone (an elementwise kernel's, a dequantizing pass's): no check
        # models them; listed once a kernel, at the first
        direct = [op for op in self.flow.copies if op not in self.used and len(op.operand_types) >= 3 and
                  all(t is not None and any(f"_{space}" in t or f"{space}," in t for space in DIRECT_SPACES) and
                      not any(f"_{space}" in t or f"{space}," in t for space in CHECKED_SPACES)
                      for t in op.operand_types[1:3])]
        if direct:
            self.skip(direct[0].where, f"{len(direct)} cute.copy between global memory and registers (the first "
                                       "here)", "not checked: the checks cover shared and tensor memory and the "
                                                "registers they feed")
        covered: set[Value] = set()
        for op in self.used:
            covered.update(op.operands)
            covered.update(op.results)
        views = [self.shared_view(v) for v in covered]
        reached = {v.pointer.allocation.value for v in views if isinstance(v, SharedView)}
        for value, alloc in self.flow.allocations.items():
            if value not in reached:
                self.skip(alloc.where, f"shared allocation of {alloc.bytes} bytes", "no check reads a CuTe view of it "
                          "(barriers and scalars, or a buffer whose writer or reader was not found: see above)")
        objects = list(zip(self.flow.function.arguments, self.flow.function.argument_types))
        objects += [(r, t) for op in self.flow.function.ops for r, t in zip(op.results, op.result_types)]
        seen = {self.flow.type_of(v) for v in covered}      # a loop carries an object as new values of its type
        for v, t in objects:
            kind = next((k for k in CUTE_OBJECTS if t.startswith(k)), None)
            if kind is None or v in covered or t in seen:
                continue
            seen.add(t)
            self.skip(v.where, f"{CUTE_OBJECTS[kind]} {v}", "no checked operation uses it")


DIRECT_SPACES = ("gmem", "rmem")       # a memref type's space, as its alias or its text names it
CHECKED_SPACES = ("smem", "tmem")
_NUM_CTA = re.compile(r"num_cta\s*=\s*(\d+)")
MULTICAST = "multicast"          # a TMA atom type's word for a load that writes every CTA of its CTA layout
_LAYOUT_TYPE = re.compile(r'!cute\.layout<"(.*)">')


def _layout_size(type_text: str | None) -> int | None:
    """The size of a static `!cute.layout<"...">`, None where it is not one."""
    m = _LAYOUT_TYPE.fullmatch((type_text or "").strip())
    if m is None or "?" in m.group(1):
        return None
    try:
        return int(layout_of(m.group(1)).size())
    except (TypeTextError, ValueError):
        return None


def _running_threads(found: list[str | None | Untraced]) -> tuple[str | None, str]:
    """The threads that run any of a partition's copies, from each copy's conditions (`running_condition`): their
    union, and a note for the check's description; None where some copy runs in every thread, or where one's
    conditions are not read (the note says why)."""
    unread = next((f for f in found if isinstance(f, Untraced)), None)
    if unread is not None:
        return None, f"; which threads run it is not read ({unread.why})"
    texts = list(dict.fromkeys(f for f in found if isinstance(f, str)))
    if not texts or any(f is None for f in found):
        return None, ""                 # a copy every thread runs
    union = texts[0] if len(texts) == 1 else " or ".join(f"({t})" for t in texts)
    if len(union) > MAX_LENGTH:
        return None, f"; which threads run it is not read (its copies' conditions make more than {MAX_LENGTH} " \
                     "characters)"
    return union, ""


def _first_threads(runs: str, block: int, threads: int) -> bool:
    """Whether the threads of the block the condition `runs` holds for are the block's first `threads` (a condition
    undefined for some thread is not)."""
    from ..kinds.slice.coordinate import read_coordinate
    running = read_coordinate(runs)
    try:
        return [t for t in range(block) if running(t)] == list(range(threads))
    except ZeroDivisionError:
        return False


def _epilogue_subtile(mt: TiledMmaType, operand: str,
                      staged: Layout | ComposedLayout) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A C store's shared tile (rows, cols) and the tiled MMA's C tile, where the shared tile is an epilogue subtile,
    smaller than the MMA's C tile (the accumulator reaches it a subtile at a time); None where it is not."""
    shape = mt.atom.shape()
    inner = staged.b if isinstance(staged, ComposedLayout) else staged
    if operand != "C" or shape is None or not isinstance(inner, Layout) or inner.rank() < 2:
        return None
    counts = [int(mt.atom_layout.mode(i).size()) if i < mt.atom_layout.rank() else 1 for i in range(2)]
    tile = []
    for i in range(2):
        p = mt.permutation[i] if i < len(mt.permutation) else None
        tile.append(p if isinstance(p, int) else int(p.size()) if isinstance(p, Layout) else shape[i] * counts[i])
    rows, cols = int(inner.mode(0).size()), int(inner.mode(1).size())
    if rows % tile[0] == 0 and cols % tile[1] == 0:
        return None
    return (rows, cols), (tile[0], tile[1])


def _converted(mt: TiledMmaType, operand: str, view: SharedView) -> str | None:
    """The view's C++ element type when the C tile is converted to it before it is stored, else None."""
    if operand != "C":
        return None
    text = mt.atom.param("elem_type") or ""
    types = [t.strip() for t in text.strip("()").split(",")]
    if len(types) == 3 and types[2] != view.memref.element:
        return cpp_value_type(view.memref.element)
    return None


REPRESENTATIVE_EXTENT = 4096     # elements: more than any tile holds
_DYNAMIC_INT = re.compile(r"\?(?:\{(?:i64\s+)?div=(\d+)\}|\{i64\})?")     # ?, ?{div=N}, ?{i64 div=N}, ?{i64}
TMA_STRIDE_BYTES = 16            # cuTensorMapEncodeTiled's rule for every global stride but the first
UNPACKED_STRIDE_BYTES = 32       # ... for the data types TMA unpacks a byte an element (16U4_ALIGN16B, 16U6_ALIGN16B)
_UNSTATED_STRIDE = re.compile(r"\?(?!\{(?:i64\s+)?div=)")      # a dynamic integer with no stated divisibility


def representative(layout_text: str, stride_floor: int = 1, stride_unit: int = 1) -> tuple[str, bool]:
    """A printed layout with each dynamic integer replaced by a representative of what the IR knows of it (its
    `div=N`): strides (after the `:`) by N times an odd number, so their divisibility by any power of two is exactly
    N's (a stride whose divisibility the IR does not state by `stride_floor` times an odd number; `stride_unit`: a
    multiple every stride is known to be besides, taken with N's least common multiple); extents by a multiple of N
    of at least REPRESENTATIVE_EXTENT.  Whether anything was replaced."""
    if "?" not in layout_text:
        return layout_text, False
    shape, _, stride = layout_text.partition(":")

    def extent(m: re.Match[str]) -> str:
        d = int(m.group(1) or 1)
        return str(d * -(-REPRESENTATIVE_EXTENT // d))

    def step(m: re.Match[str]) -> str:
        d = math.lcm(int(m.group(1) or stride_floor), stride_unit)
        k = -(-REPRESENTATIVE_EXTENT // d)
        return str(d * (k if k % 2 else k + 1))
    return _DYNAMIC_INT.sub(extent, shape) + ":" + _DYNAMIC_INT.sub(step, stride), True


def _view_layouts(view: SharedView) -> tuple[Layout | ComposedLayout, Layout] | None:
    """A view's layout and the plain layout under its swizzle, where its type reads as one."""
    try:
        layout = view.memref.layout()
    except TypeTextError:
        return None
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    return (layout, inner) if isinstance(inner, Layout) else None


def _stages_of(view: SharedView) -> int | None:
    """The stages a staged view holds (its last mode's extent; a view of rank 3 or more is staged)."""
    layouts = _view_layouts(view)
    if layouts is None or layouts[1].rank() < 3:
        return None
    inner = layouts[1]
    return int(inner.mode(inner.rank() - 1).size())


def _pipeline_stages(w: BufferSide, r: BufferSide) -> StageIndex | None:
    """The stage indices the kernel slices a buffer's views at, where they are read and reach every stage the views
    hold or past them (the buffer check then proves the views at every index the pipeline takes, at distinct
    offsets)."""
    held = _stages_of(w.view)
    if held is None or held != _stages_of(r.view):
        return None
    found = [s for s in (w.stages, r.stages) if s is not None]
    widest = max(found, key=lambda s: s.stages, default=None)
    return widest if widest is not None and widest.stages >= held else None


def _view_end(view: SharedView) -> int | None:
    """The byte past a staged view's own bytes in its allocation (its offset, and the extent its layout reaches,
    rounded up to its swizzle's span: a swizzle moves bytes only within it)."""
    layouts = _view_layouts(view)
    if layouts is None or not view.memref.bits:
        return None
    layout, inner = layouts
    elements = int(F.cosize(inner))
    extent = -(-elements * view.memref.bits // BYTE)
    spans = []
    if view.memref.ptr_swizzle is not None:
        spans.append(1 << int(view.memref.ptr_swizzle.yyy_msk).bit_length())
    if isinstance(layout, ComposedLayout) and isinstance(layout.a, Swizzle):
        spans.append(-(-(1 << int(layout.a.yyy_msk).bit_length()) * view.memref.bits // BYTE))
    for span in spans:
        extent = -(-extent // span) * span
    return view.pointer.offset + extent


def _side_record(side: BufferSide, at: int, layout: str, sole: bool, stores: tuple[str, ...] | None = None,
                 tiles_at: tuple[tuple[str, ...], tuple[str, ...]] | None = None) -> SideRecord:
    """A buffer side as the spec states it; a TMA side with its global tensor and the mode of it its atom's dimension
    0 runs along, where both are known (the check proves that mode contiguous); the stages it takes where `sole`
    and they are read; `stores`, the tensors the kernel's TMA stores write, and `tiles_at`, where given."""
    known = side.tma_layout is not None and side.tma_gmem is not None and side.tma_dim0 is not None
    return SideRecord(side.by, at, layout, side.view.where, side.tma_gmem if known else None,
                      side.tma_dim0 if known else None, side.taken if sole else None, side.waited, side.tensors,
                      stores, tiles_at)


def _value_names(values: Iterable[Value]) -> tuple[str, ...]:
    """IR values named by their text and the line that defines them (a name alone recurs across regions)."""
    return tuple(sorted({f"{v.name} (line {v.where.line})" for v in values}))


def _sole_pair(w: BufferSide, r: BufferSide, pairs: list[tuple[BufferSide, BufferSide]],
               sides: list[BufferSide]) -> bool:
    """Whether `w` and `r` are each other's only partner and the only sides of their views: then every stage one of
    them takes must be one the other takes (with another reader of the writer's stages, or another writer of the
    reader's, a stage one leaves may be the other's)."""
    views = {w.view.value, r.view.value}
    return sum(1 for p in pairs if p[0] is w or p[1] is r) == 1 and \
        sum(1 for s in sides if s.view.value in views) == 2


_GBASIS = re.compile(r'tma_gbasis\s*=\s*<"[^"]*?:\(*\s*\d+@(\d+)')   # the first leaf's mode: "(64,32):(1@0,1@1)"


def tma_dim0(atom_type: str) -> int | None:
    """The global mode a TMA atom's dimension 0 runs along: its tma_gbasis's first leaf (`1@0`: mode 0), if the type
    states one."""
    m = _GBASIS.search(atom_type)
    return int(m.group(1)) if m else None


_BASIS_LEAF = re.compile(r"(\d+)((?:@\d+)+)")       # a stride leaf: `1@1` (a step along global mode 1), `1@1@0@1`
# what a descriptor check assumes where the atom's box is not one of two dimensions along the global tensor's modes
ASSUME_TMA_BOX = ("the TMA atom {tma} copies a box {box} (the DSL's tma_gbasis) that is not stated: not two "
                  "dimensions along the global tensor's modes, or of other elements than the view's; the boxes "
                  "proved are those CuTe takes of the shared layout the MMA reads (the atom's swizzle is the one "
                  "proved), and that the atom's box is one of those is assumed")


def _gbasis_text(atom_type: str) -> str:
    return gbasis(atom_type) or "(not written in its type)"


def tma_box(atom_type: str) -> tuple[int, int] | None:
    """A TMA atom's own box, (inner, outer) elements, from its tma_gbasis (`(64,192):(1@1,1@0)`: 64 elements along
    global mode 1, then 192 along mode 0): one or two modes of unit steps, each along its own global mode, the first
    along the mode dimension 0 runs along; None for another basis (nested steps, a scaled step, three dimensions)."""
    basis = gbasis(atom_type)
    if basis is None or ":" not in basis:
        return None
    shape, stride = basis.split(":", 1)
    extents = [int(x) for x in re.findall(r"\d+", shape)]
    steps = _BASIS_LEAF.findall(stride)
    if len(extents) != len(steps) or not extents:
        return None
    if any(modes.count("@") != 1 for _, modes in steps):       # a nested step: no mode of the global tensor
        return None
    dims = [(extent, int(scale), int(modes[1:])) for extent, (scale, modes) in zip(extents, steps) if extent != 1]
    return two_dimensional_box(dims, tma_dim0(atom_type))


def two_dimensional_box(dims: Sequence[tuple[int, int | None, int]], inner: int | None) -> tuple[int, int] | None:
    """A TMA box from its basis's modes of more than one element, each (extent, step, global mode): (inner, outer)
    extents when it has one or two modes of unit steps, each along its own global mode, the first along `inner` (the
    mode dimension 0 runs along); None for another basis.  Both readers' rule (the C++ AuxTmaParams box basis, the
    DSL's tma_gbasis)."""
    if 1 <= len(dims) <= 2 and all(step == 1 for _, step, _ in dims) and dims[0][2] == inner and \
            len({mode for _, _, mode in dims}) == len(dims):
        return dims[0][0], (dims[1][0] if len(dims) == 2 else 1)
    return None


# a TMA atom's element type: `...tma_load<sm_90, f16, ...`, `...tma_load<sm_100_2sm_multicast, f4E2M1FN, ...`
_TMA_ELEMENT = re.compile(r"tma_(?:load|store)<\s*(?:sm_\w+\s*,\s*)?(\w+)")
# a TMA atom that writes each 4- or 6-bit element of global memory into a byte of shared memory
_UNPACK_FORMAT = re.compile(r"tma_format\s*=\s*U[46]_UNPACK_U8\b")


def unpacking_tma(atom_type: str, memref: MemrefType) -> str | None:
    """The 4- or 6-bit element type a TMA atom unpacks a byte an element (`tma_format = U4_UNPACK_U8`, `U6_...`)
    into the byte view `memref`, else None."""
    m = _TMA_ELEMENT.search(atom_type)
    if m is None or memref.bits != BYTE or not _UNPACK_FORMAT.search(atom_type):
        return None
    return m.group(1) if m.group(1) in UNPACKED_TYPES else None


def tile_value_type(memref: MemrefType, atom_type: str) -> str | None:
    """The type a TMA-filled tile holds, by C++ name: the view's element type, or, for a byte view a TMA atom fills
    by unpacking 4- or 6-bit elements a byte each, that element's unpacked type (float_e2m1_unpacksmem_t, ...: the
    type the f8f6f4 kinds read it as).  None when the element type has no name here."""
    unpacked = unpacking_tma(atom_type, memref)
    return UNPACKED_TYPES[unpacked] if unpacked is not None else cpp_value_type(memref.element)


def tma_copied_type(atom_type: str, memref: MemrefType) -> str | None:
    """The C++ name of the elements a TMA atom copies where their width is not the view's `memref` (an atom made
    from another tensor than the tile's: an int8 tensor's atom filling a half tile), None where it is (or the atom
    unpacks 4- or 6-bit elements a byte each, or names no element this reader knows)."""
    m = _TMA_ELEMENT.search(atom_type)
    if m is None or unpacking_tma(atom_type, memref) is not None or ELEMENT_BITS.get(m.group(1)) in (None, memref.bits):
        return None
    return cpp_value_type(m.group(1))


def check_units_box(box: tuple[int, int] | None, atom_type: str, memref: MemrefType) -> tuple[int, int] | None:
    """A TMA atom's box in the units the descriptor check counts its tile in: the view's elements (a byte view the
    atom unpacks 4- or 6-bit elements into: one a byte, as the atom's box counts them), or, for a view of packed 4-
    or 6-bit elements (which the check recasts to bytes along the contiguous mode), bytes along dimension 0.  None
    where the atom copies elements of another type than the view's or its dimension 0 is no whole number of bytes."""
    if box is not None and unpacking_tma(atom_type, memref) is not None:
        return box
    m = _TMA_ELEMENT.search(atom_type)
    if box is None or m is None or m.group(1) != memref.element:
        return None
    if memref.bits >= BYTE:
        return box
    per_byte = BYTE // memref.bits
    return (box[0] // per_byte, box[1]) if box[0] % per_byte == 0 and BYTE % memref.bits == 0 else None


def tma_atom_swizzle(layout_type: str | None) -> TmaSwizzle | None:
    """The TMA swizzle of the shared layout a TMA atom was made from (its byte swizzle, as TMA applies it), or None
    when the layout is not known or its swizzle is no TMA swizzle."""
    if layout_type is None:
        return None
    m = _SWIZZLE_OF_TYPE.search(layout_type)
    return TmaSwizzle.NONE if m is None else TmaSwizzle.of_byte_swizzle(*(int(x) for x in m.groups()))


def _atom_side_text(memref: MemrefType, atom_type: str) -> str:
    """A TMA side's layout in the spec's syntax: the shared layout its atom was made from (`!cute.composed_layout<
    "S<B,M,S> o 0 o L">` or `!cute.layout<"L">`: one stage), its swizzle on the byte address as TMA applies it, each
    stage (or tile) at the view's own offset for it (the view's further modes, when the atom's layout is of its first
    ones' sizes).  TypeTextError when the atom's modes are not the view's first ones in size."""
    text = layout_type_text(atom_type)
    if text is None:
        raise TypeTextError(f"the TMA atom's shared layout {atom_type[:120]} is no layout type")
    atom = layout_of(text)
    atom_inner = atom.b if isinstance(atom, ComposedLayout) else atom
    view = memref.layout()
    view_inner = view.b if isinstance(view, ComposedLayout) else view
    if not isinstance(atom_inner, Layout) or not isinstance(view_inner, Layout):
        raise TypeTextError(f"the TMA atom's shared layout {text} or its view {memref.layout_text} nests a "
                            "composition")
    # the buffer check pairs coordinates mode by mode (each mode's 1-D index): the atom's modes must be the view's
    # first ones in size, however each nests
    atom_sizes, view_sizes = mode_sizes(atom_inner), mode_sizes(view_inner)
    if atom_sizes == view_sizes:
        per_stage = atom_inner
    elif len(view_sizes) > len(atom_sizes) and view_sizes[:len(atom_sizes)] == atom_sizes:
        # the view's further modes (stages, an epilogue's tiles) place each tile the atom's layout lays out
        per_stage = make_layout(*(atom_inner.mode(i) for i in range(atom_inner.rank())),
                                *(view_inner.mode(i) for i in range(atom_inner.rank(), view_inner.rank())))
    else:
        raise TypeTextError(f"the TMA atom's shared layout {text} has other modes than the view it fills or drains "
                            f"({memref.layout_text}): their coordinates are not paired")
    swizzle = _tma_swizzle(atom_type)
    if swizzle is None or swizzle == "none":
        return per_stage.plain()
    return f"{swizzle} o smem_ptr[{memref.bits}b](unset) o {per_stage.plain()}"


_SWIZZLE_OF_TYPE = re.compile(r"S<(\d+),(\d+),(\d+)>")     # a layout type's swizzle, on byte addresses


def _tma_swizzle(layout_type: str | None) -> str | None:
    """The swizzle a TMA atom was made with, from the shared layout given to make_*_tma_*: `Sw<..>` or "none"."""
    if layout_type is None:
        return None
    m = _SWIZZLE_OF_TYPE.search(layout_type)
    if m is None:
        return "none"
    return f"Sw<{m.group(1)},{m.group(2)},{m.group(3)}>"


def _writers_of(reader: BufferSide, writers: list[BufferSide]) -> list[BufferSide]:
    """The writers whose elements `reader` reads: those through its own view; else, of the writers of the same
    coordinates of its bytes through another view (the slip theorem 23 catches), the last one before it in the
    kernel's text (an allocation reused for another buffer later, e.g. an epilogue's C tile over the mainloop's
    A, is not read back through the mainloop's writer)."""
    own = [w for w in writers if w.view.value == reader.view.value]
    if own:
        return own
    other = [w for w in writers if _same_buffer(w.view, reader.view)]
    before = [w for w in other if w.where.line < reader.where.line]
    if before:
        last = max(w.where.line for w in before)
        return [w for w in before if w.where.line == last]
    return other


def _same_buffer(w: SharedView, r: SharedView) -> bool:
    """Views of one allocation whose bytes overlap and that name the same coordinates (a view composed with a layout,
    a transposed one, names them at others: not taken as the same, whatever its shape)."""
    if w.pointer.allocation != r.pointer.allocation or w.recomposed or r.recomposed:
        return False
    try:
        wl, rl = w.memref.layout(), r.memref.layout()
    except TypeTextError:
        return False
    wi = wl.b if isinstance(wl, ComposedLayout) else wl
    ri = rl.b if isinstance(rl, ComposedLayout) else rl
    if not isinstance(wi, Layout) or not isinstance(ri, Layout) or mode_sizes(wi) != mode_sizes(ri):
        return False
    bits = ELEMENT_BITS.get(w.memref.element, BYTE)     # sub-byte elements take a fraction of a byte each
    w_end = w.pointer.offset * BYTE + int(wi.cosize()) * bits
    r_end = r.pointer.offset * BYTE + int(ri.cosize()) * bits
    return w.pointer.offset * BYTE < r_end and r.pointer.offset * BYTE < w_end


def _memory_name(v: SharedView) -> str:
    """The shared memory a view starts in, named: its struct field, else its allocation (and the byte past its base)."""
    alloc = v.pointer.allocation
    field_of = alloc.field_at(v.pointer.offset)
    if field_of is not None:
        return f"field {field_of.name} of the shared storage (line {alloc.where.line})"
    at = f", byte {v.pointer.offset}" if v.pointer.offset else ""
    return f"the shared allocation at line {alloc.where.line}{at}"


def _view_word(v: SharedView) -> str:
    """The buffer's element type and its first byte (from the shared memory base where the DSL's allocator places
    its allocation, else from the allocation's own base)."""
    placed = v.pointer.allocation.placed_at
    return f"{v.memref.element}_smem{(placed or 0) + v.pointer.offset}"


def _copy_word(copy: str) -> str:
    """The word a check's name gives its copy atom: SM75_U32x4_LDSM_N -> ldsm; a name of one word (UniversalCopy<T>,
    DefaultCopy) -> copy."""
    words = copy.split("<")[0].split("_")
    return words[-2].lower() if len(words) > 1 else "copy"


def kernel_checks(flow: KernelFlow, prefix: str) -> KernelChecks:
    r = _Reader(flow, prefix)
    r.tmem_paths()
    r.register_paths()
    r.atom_copies()
    r.descriptor_paths()
    r.buffers()
    r.mixed_partitions()
    r.thread_slices()
    r.cta_slices()
    r.transaction_bytes()
    r.elementwise()
    r.leftovers()
    r.out.skipped = flow.skipped + r.out.skipped
    return r.out


__all__ = ["OperandRecord", "DescriptorRecord", "BufferRecord", "TmemRecord", "SliceRecord", "SubtileRecord",
           "TransactionRecord", "ElementwiseRecord", "ThreadGemmRecord", "OperandFillsRecord",
           "SideRecord",
           "KernelChecks",
           "kernel_checks",
           "spec_layout", "TMA_LOAD_COPY", "DSL_SMEM_BASE_ALIGN"]
