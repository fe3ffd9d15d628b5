"""The stages of a staged TMEM accumulator its MMAs write and its tcgen05.ld loads read, read back from the IR.

A kernel that drains one tile's accumulator while the MMAs of the next accumulate keeps S accumulators in tensor
memory: the last mode of the accumulator tensor (`make_fragment_C(append(shape, S))`, a view of the TMEM address) is
the stage.  The MMA warp slices it at the stage its pipeline gives and hands the slice to `cute.gemm` as D; the
epilogue slices its own view of the same address (before or after partitioning it for tcgen05.ld) at the stage its
pipeline gives:

    %view_71 = cute.make_view(%tmem_ptr, %lay_70)          ((128,256),1,1,2):((65536,1),0,0,256)
    %slice_80 = cute.slice(%view_71, %coord_79)             (_,_,_,?): the MMA's stage
    cute.gemm(%mma, %slice_80, %a, %b, %slice_80)
    ...
    %view_43 = cute.make_view(%tmem_ptr, %lay_42)           ((128,1),(128,1),2):((65536,0),(1,0),128)
    %src = cute.tiled.copy.partition_S(%t2r, %div, %tid)    its last mode still the stage, 2:128
    %slice_60 = cute.slice(%src, %coord_59)                 (_,_,_,_,_,?): the load's stage
    cute.copy(%t2r, ..%slice_60.., %registers)

Each side's tensor is followed back from the MMA's D or the load's source, through slices, re-views that keep the
iterator and the partition, to a view of a TMEM pointer (`retrieve_tmem_ptr`, the same pointer on both sides).  The
stage mode is that view's last mode (a single extent S > 1 and stride d); a slice on the way whose tensor's last mode
is that same S:d and that indexes it takes the stage, read as a static index or as a pipeline's index or a counter
modulo N (`StageIndexes.index_bound`).  The stages are stated only where every MMA writing the address and every load
reading it is so read, exactly one stage slice on each way, no tcgen05.st writes the address, and both views' stage
modes are one; otherwise nothing is stated (no claim about stages is then made)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..algebra.layout import Layout
from .brackets import split_top
from .cute_types import TypeTextError, int_tuple_of, memref_of, plain_layout_of
from .flow import (ADD_OFFSET, GET_ITER, MAKE_COORD, MAKE_VIEW, PARTITION_D, PARTITION_S, RECAST_ITER, SAME_ITERATOR,
                   SLICE, KernelFlow)
from .mlir_text import Op, Value
from .stage_index import StageIndexes

RETRIEVE_TMEM_PTR = "cute_nvgpu.arch.sm100.retrieve_tmem_ptr"
FILTER_ZEROS = "cute.filter_zeros"   # a re-view without the stride-0 modes, over the same iterator
RAW_TMEM_WRITES = ("nvvm.tcgen05.st", "nvvm.tcgen05.cp")   # tensor-memory writes issued as NVVM's own operations
TMEM_POINTER = re.compile(r"!cute\.ptr<[^,]*,\s*tmem\b")
CELL_POINTER = re.compile(r"!cute\.ptr<[fiu]32,\s*tmem\b")     # a TMEM pointer whose offsets count 32-bit cells
CELL_BITS = 32                       # a TMEM cell: one lane of one column
LANE_STRIDE = 1 << 16                # a TMEM address is lane << 16 | column
COORDINATE = re.compile(r'!cute\.coord<"(.*)">')
MAX_CHAIN = 64                       # ops followed back from a copy's source or an MMA's D to its TMEM view
# what a way back may pass: slices, re-views over the same iterator, a view of another's iterator, a partition
PASSABLE = SAME_ITERATOR | {SLICE, GET_ITER, MAKE_VIEW, PARTITION_S, PARTITION_D, FILTER_ZEROS}
PARTITIONS = (PARTITION_S, PARTITION_D)       # a partition's tensor is its second operand


@dataclass(frozen=True)
class Region:
    """Where a view of tensor memory lies: `origin`, what `retrieve_tmem_ptr` read (or the pointer the view was made
    of, where it is not followed), `column`, the columns constant offsets add to it, and `end`, one past the last
    column the view reaches (None where its elements or strides do not say)."""
    origin: Value
    column: int
    end: int | None
    placed: bool = False          # `origin` is what retrieve_tmem_ptr read: `column` counts from the allocation's base

    @property
    def key(self) -> tuple[Value, int]:
        """One accumulator: the same pointer and the same first column."""
        return self.origin, self.column

    def apart(self, other: Region) -> bool:
        """Whether no column of one can be a column of the other (known only for regions of one pointer)."""
        if self.origin != other.origin:
            return False
        return (self.end is not None and self.end <= other.column) or \
            (other.end is not None and other.end <= self.column)


@dataclass(frozen=True)
class TmemReach:
    """The view of tensor memory a tiled copy's copies move through, where it lies, and the stages of its last mode
    they take (None: every cell of the view)."""
    view: Op
    region: Region
    stages: tuple[int, ...] | None


@dataclass(frozen=True)
class StagedSide:
    """One way back to a staged TMEM view: where the view lies, its stage mode (extent, stride) and the stages the
    way's stage slice takes."""
    region: Region
    mode: tuple[int, int]
    stages: frozenset[int]
    how: str
    waited: int | None = None   # how many stages past the one whose barrier its thread waited on it takes (linked)
    wait_how: str = ""
    tile: frozenset[int] | None = None   # a stage's cells (the view but its stage mode), 32-bit cells, from its start

    @property
    def starts(self) -> frozenset[int]:
        """Where each stage it takes starts: the view's column plus the stage's offset (32-bit cells)."""
        return frozenset(self.region.column + s * self.mode[1] for s in self.stages)


@dataclass(frozen=True)
class AccumulatorStagesRead:
    """The stages the MMAs write and the loads read, and how each side's were read."""
    mma: tuple[int, ...]
    load: tuple[int, ...]
    how: tuple[str, ...]
    mma_waited: tuple[int, ...] | None = None    # the offsets past the waited stage of the sides linked to a wait
    load_waited: tuple[int, ...] | None = None


class TmemStages:
    """The staged accumulators of one kernel (its MMAs and TMEM copies read once)."""

    def __init__(self, flow: KernelFlow, stages: StageIndexes) -> None:
        self.flow, self.stages = flow, stages

    def root_view(self, v: Value) -> tuple[Op, list[Op]] | str:
        """The view of a TMEM pointer `v` re-views, followed back through slices, re-views over the same iterator and
        the partition, and the slices on the way (the last first); a reason where it is not followed."""
        slices: list[Op] = []
        for _ in range(MAX_CHAIN):
            op = self.flow.defining.get(v)
            if op is None or op.name not in PASSABLE or not op.operands:
                return f"{v} is not followed back to a view of a TMEM pointer ({op.name if op else 'no op'})"
            if op.name == MAKE_VIEW:
                pointer = self.flow.defining.get(op.operands[0])
                if pointer is None or pointer.name != GET_ITER:
                    pointer_type = self.flow.type_of(op.operands[0])
                    if pointer_type is None or not TMEM_POINTER.match(pointer_type.strip()):
                        return f"the view {op.results[0] if op.results else op.where} is not of a TMEM pointer"
                    return op, slices
                v = pointer.operands[0]
                continue
            if op.name == SLICE:
                slices.append(op)
            v = op.operands[1] if op.name in PARTITIONS else op.operands[0]
        return f"more than {MAX_CHAIN} operations back from the copy"

    def region(self, view: Op) -> Region:
        """Where a view of a TMEM pointer lies: the pointer `retrieve_tmem_ptr` gave (what it read) and the columns
        constant offsets on 32-bit pointers add to it, and, for a view of 32-bit elements whose strides are lanes
        (multiples of 65536) or columns, one past its last column."""
        v, column = view.operands[0], 0
        for _ in range(MAX_CHAIN):
            op = self.flow.defining.get(v)
            if op is not None and op.name == RETRIEVE_TMEM_PTR and op.operands:
                return Region(op.operands[0], column, _column_end(view.result_types[0] if view.result_types else "",
                                                                   column), placed=True)
            if op is not None and op.name == RECAST_ITER and op.operands:
                v = op.operands[0]
                continue
            step = int_tuple_of(op.operand_types[1] or "") if op is not None and op.name == ADD_OFFSET and \
                len(op.operand_types) > 1 else None
            if op is None or step is None or not CELL_POINTER.match(self.flow.type_of(op.operands[0]) or ""):
                break
            column, v = column + step, op.operands[0]
        return Region(v, column, None) if v != view.operands[0] else Region(view.operands[0], 0, None)

    def side(self, v: Value) -> StagedSide | str:
        """The staged TMEM view `v` is a slice of, and the stage it takes; a reason where it is not read."""
        found = self.root_view(v)
        if isinstance(found, str):
            return found
        view, slices = found
        mode = _last_mode(view.result_types[0] if view.result_types else "")
        if mode is None:
            return f"the TMEM view at {view.where} has no stage mode (a last mode of one leaf)"
        stage_slices = [(op, taken) for op in slices if (taken := self._stage_taken(op, mode, view)) is not None]
        if len(stage_slices) != 1:
            return f"{len(stage_slices)} slices of the stage mode between the TMEM view at {view.where} and the use"
        op, taken = stage_slices[0]
        if isinstance(taken, str):
            return taken
        index = taken[2]
        waited = self._waited(op, index) if index is not None else None
        offset, wait_how = waited if waited is not None else (None, "")
        return StagedSide(self.region(view), mode, taken[0], taken[1], offset, wait_how,
                          tile=_stage_cells(view.result_types[0] if view.result_types else ""))

    def reach(self, copy: Value) -> TmemReach | str:
        """The tensor-memory view the copies of the TMEM tiled copy `copy` move through (their TMEM operands followed
        back, all to views of one layout at one place) and the stages of it they take: every stage where a way slices
        no stage mode (or the view has none), else the union of the ways' stage slices; a reason where a way is not
        followed or its stage is not read."""
        ways = []
        for c in self.flow.copies:
            if len(c.operands) < 3 or c.operands[0] != copy:
                continue
            tmem = [v for i, v in enumerate(c.operands[1:3], 1) if _tmem_memref(self._operand_type(c, i))]
            if len(tmem) != 1:
                return f"the cute.copy at {c.where} has {len(tmem)} operands in tensor memory this reader types"
            found = self.root_view(tmem[0])
            if isinstance(found, str):
                return found
            ways.append(found)
        if not ways:
            return "no cute.copy of it"
        views = {(self.region(v).key, v.result_types[0] if v.result_types else "") for v, _ in ways}
        if len(views) != 1:
            return "its copies move through more than one view of tensor memory"
        view = ways[0][0]
        mode = _last_mode(view.result_types[0] if view.result_types else "")
        taken: set[int] = set()
        for _, slices in ways:
            found_stages = [t for op in slices
                            if mode is not None and (t := self._stage_taken(op, mode, view)) is not None]
            if not found_stages:
                return TmemReach(view, self.region(view), None)       # a way takes every stage
            if len(found_stages) > 1 or isinstance(found_stages[0], str):
                return found_stages[0] if isinstance(found_stages[0], str) else \
                    f"more than one slice of the stage mode between the TMEM view at {view.where} and a copy"
            taken |= found_stages[0][0]
        return TmemReach(view, self.region(view), tuple(sorted(taken)))

    def _waited(self, op: Op, index: Value) -> tuple[int, str] | None:
        """How many stages past the one whose barrier a wait of the kernel took the stage index `index` of slice
        `op` is (`StageIndexes.wait_offset`), and where; None where no wait is linked or the slice is behind one."""
        found = self.stages.wait_offset(index)
        if found is None:
            return None
        past, wait = found
        if not past:
            return 0, f"the slice at line {op.where.line} takes the stage of the barrier waited on at line " \
                      f"{wait.where.line}"
        return past, (f"the slice at line {op.where.line} takes the stage {past} past the one whose barrier was "
                      f"waited on at line {wait.where.line}")

    def _stage_taken(self, op: Op, mode: tuple[int, int],
                     view: Op) -> tuple[frozenset[int], str, Value | None] | str | None:
        """The stages slice `op` takes of its tensor's last mode where that mode is `mode`, the stage mode of `view`,
        and the slice indexes it (None where it does not), or why they are not read.  A stage mode of one stage
        (extent 1, a mode like any other of extent 1) is only taken as it where the slice's tensor has the view's
        rank."""
        if _last_mode(op.operand_types[0] or "") != mode:
            return None
        if mode[0] == 1 and _rank(op.operand_types[0] or "") != _rank(view.result_types[0] if view.result_types
                                                                      else ""):
            return None
        coord = self.flow.defining.get(op.operands[1]) if len(op.operands) > 1 else None
        text = COORDINATE.fullmatch((op.operand_types[1] or "").strip()) if len(op.operand_types) > 1 else None
        if text is None:
            return None
        parts = _components(text.group(1))
        if not parts or parts[-1] == "_":
            return None
        last = parts[-1]
        if last.isdigit():
            return frozenset((int(last),)), f"a static stage index {last} ({op.where})", None
        if last != "?" or coord is None or coord.name != MAKE_COORD:
            return f"the stage index of the slice at {op.where} is {last!r}, not an index this reader follows"
        position = sum(p.count("?") for p in parts)
        if position != len(coord.operands):
            return f"the coordinate of the slice at {op.where} is not read"
        bound = self.stages.index_bound(coord.operands[-1])
        if bound is None:
            return f"the stage index of the slice at {op.where} is of a form this reader does not follow"
        return bound.taken, bound.how, coord.operands[-1]

    def accumulator_stages(self, load: Value) -> AccumulatorStagesRead | str:
        """The stages the MMAs write the accumulator the copies of the tcgen05.ld tiled copy `load` read, and the
        stages every load of it reads; a reason where they are not stated."""
        mine = self._sides([c.operands[1] for c in self.flow.copies if len(c.operands) >= 3 and c.operands[0] == load])
        if isinstance(mine, str):
            return mine
        shapes = {(s.region.origin, s.tile) for s in mine}
        if len(shapes) != 1 or mine[0].tile is None:
            return "its copies read more than one staged accumulator, or one of elements other than 32-bit cells"
        origin, tile = next(iter(shapes))
        read_at = frozenset().union(*(s.starts for s in mine))
        copies = self._tmem_copies()
        if isinstance(copies, str):
            return copies
        loads, stores = copies
        accumulator = [s.region for s in mine]
        for v in stores:
            found = self.root_view(v)
            written = self.region(found[0]) if not isinstance(found, str) else None
            if written is None or not all(written.apart(r) for r in accumulator):
                return ("a tcgen05.st or tcgen05.cp writes tensor memory this reader does not place apart from the "
                        "accumulator (its stages would not be the MMAs' alone)")
        read = self._sides(loads)
        if isinstance(read, str):
            return f"another TMEM load: {read}"
        writers: list[StagedSide] = []
        for gemm in self.flow.gemms:
            if len(gemm.operands) < 2:
                continue
            d_type = self._operand_type(gemm, 1)
            if d_type is not None and not _tmem_memref(d_type):
                continue        # D in registers: an MMA of another kind (its type unknown: followed as TMEM's)
            side = self.side(gemm.operands[1])
            if isinstance(side, str):
                return f"the MMA at {gemm.where}: {side}"
            writers.append(side)
        # the accumulator's MMAs: those writing stages of the load's shape on the same allocation where it reads; a
        # writer of other stages there (another shape) is not compared
        mma = [s for s in writers if s.region.origin == origin and s.tile == tile and s.starts & read_at]
        if any(s.region.origin == origin and s.tile != tile and s.starts & read_at for s in writers):
            return "an MMA writes the columns the load reads through a view of another shape"
        if not mma:
            return "no MMA writes the columns the load reads through a staged view of its shape"
        written_at = frozenset().union(*(s.starts for s in mma))
        loaded = [s for s in read if s.region.origin == origin and s.tile == tile and s.starts & (read_at | written_at)]
        read_at = frozenset().union(*(s.starts for s in loaded)) | read_at
        # one numbering for both sides: the stages by the column each starts at (the kernel's own indices where both
        # sides take one view)
        numbered = {start: k for k, start in enumerate(sorted(written_at | read_at))}
        own = all(s.region.column == mma[0].region.column and s.mode == mma[0].mode for s in mma + loaded)
        renumbered = () if own else (
            "the sides take other views of the accumulator: stages numbered by the column each starts at ("
            + ", ".join(f"{k} at {start}" for start, k in numbered.items()) + ")",)
        return AccumulatorStagesRead(
            tuple(sorted(numbered[c] for c in written_at)),
            tuple(sorted(numbered[c] for c in read_at)),
            tuple(dict.fromkeys([*renumbered] + [f"MMA: {s.how}" for s in mma] + [f"load: {s.how}" for s in loaded]
                                + [f"MMA: {s.wait_how}" for s in mma if s.wait_how]
                                + [f"load: {s.wait_how}" for s in loaded if s.wait_how])),
            _offsets(mma), _offsets(loaded))

    def _operand_type(self, op: Op, i: int) -> str | None:
        """The type of an op's operand i: its value's, where the text states it, else the op's signature's."""
        return self.flow.type_of(op.operands[i]) or (op.operand_types[i] if i < len(op.operand_types) else None)

    def _sides(self, values: list[Value]) -> list[StagedSide] | str:
        out: list[StagedSide] = []
        for v in values:
            side = self.side(v)
            if isinstance(side, str):
                return side
            out.append(side)
        return out if out else "no copy of it"

    def _tmem_copies(self) -> tuple[list[Value], list[Value]] | str:
        """The TMEM sources of the kernel's copies (tcgen05.ld) and their TMEM destinations (tcgen05.st, tcgen05.cp);
        a reason where a copy's memory is not known, or tensor memory is written by an operation no copy is."""
        loads: list[Value] = []
        stores: list[Value] = []
        for op in self.flow.function.ops:
            if op.name.startswith(RAW_TMEM_WRITES):
                return f"{op.name} at {op.where} writes tensor memory outside a cute.copy"
        for c in self.flow.copies:
            if len(c.operands) < 3:
                continue
            types = [self._operand_type(c, i) for i in range(3)]
            if types[1] is None or types[2] is None:
                return f"the memory the cute.copy at {c.where} moves between is not known"
            if _tmem_memref(types[1]):
                loads.append(c.operands[1])
            if _tmem_memref(types[2]):
                stores.append(c.operands[2])
        return loads, stores


def _offsets(sides: list[StagedSide]) -> tuple[int, ...] | None:
    """The offsets past their waited stages of the sides linked to a wait, ascending; None where none is."""
    found = sorted({s.waited for s in sides if s.waited is not None})
    return tuple(found) if found else None


def cell_layout(type_text: str) -> Layout | None:
    """The layout of a memref of 32-bit elements (a view of tensor memory's cells: coordinate -> lane << 16 | column),
    where its type says it and the layout is static and plain; else None."""
    try:
        memref = memref_of(type_text)
        layout = plain_layout_of(memref.layout_text)
    except TypeTextError:
        return None
    return layout if memref.bits == CELL_BITS and isinstance(layout, Layout) else None


def _column_end(type_text: str, column: int) -> int | None:
    """One past the last TMEM column a view of 32-bit cells starting at `column` reaches (its cells at or past its
    first: lane << 16 | column); None for other views, or one reaching cells before its first."""
    layout = cell_layout(type_text)
    cells = layout.values() if layout is not None else []
    if not cells or min(cells) < 0:
        return None
    return column + max(v % LANE_STRIDE for v in cells) + 1


def _stage_cells(type_text: str) -> frozenset[int] | None:
    """The cells one stage of a staged view of 32-bit cells reaches (the view but its last mode), from its start."""
    layout = cell_layout(type_text)
    if layout is None or layout.rank() < 2:
        return None
    return frozenset(Layout(layout.shape[:-1], layout.stride[:-1]).values())


def _tmem_memref(type_text: str | None) -> bool:
    try:
        return type_text is not None and memref_of(type_text).space == "tmem"
    except TypeTextError:
        return False


def _last_mode(type_text: str) -> tuple[int, int] | None:
    """A TMEM memref's last top-level mode as (extent, stride), where it is one leaf: the stage mode where the kernel
    slices it (one of extent 1 too: a one-stage view a pipeline may slice at stages past it)."""
    try:
        layout = plain_layout_of(memref_of(type_text).layout_text)
    except TypeTextError:
        return None
    if not isinstance(layout, Layout) or layout.rank() < 2:
        return None
    last = layout.mode(layout.rank() - 1)
    shape, stride = last.shape, last.stride
    if not isinstance(shape, int) or not isinstance(stride, int) or shape < 1:
        return None
    return shape, stride


def _rank(type_text: str) -> int | None:
    """A memref's layout's number of top-level modes."""
    try:
        layout = plain_layout_of(memref_of(type_text).layout_text)
    except TypeTextError:
        return None
    return layout.rank() if isinstance(layout, Layout) else None


def _components(text: str) -> list[str]:
    """A coordinate's top-level components: `(_,_,_,?)` -> _, _, _, ?; `((_,_),0,?)` -> (_,_), 0, ?."""
    inner = text.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return [inner]
    return [p.strip() for p in split_top(inner[1:-1])]


__all__ = ["TmemStages", "AccumulatorStagesRead", "StagedSide", "TmemReach", "Region", "cell_layout"]
