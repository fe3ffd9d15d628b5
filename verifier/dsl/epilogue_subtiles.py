"""An epilogue's accumulator stored one subtile at a time, read back from the IR (the checks theorem 39 proves).

When the shared C tile is smaller than the tiled MMA's C tile, the kernel hands the register-to-shared tiled copy some
of the accumulator's registers for each subtile, and a TMA store puts the shared subtile at one place of the CTA's
tile.  The registers reach the copy element by element or as vectors, through a converting buffer:

    %retiled = cute.tiled.copy.retile(%r2s, %acc)              the accumulator (the cute.gemm's D), re-viewed
    %57 = cute.memref.load(%retiled, %coord_16)                  value 16 of the re-viewed accumulator ...
    cute.memref.store(%buf, %coord_0, %57)                      ... into a register buffer
    %ptr = cute.add_offset(%iter_acc, %int_tuple_16)             or: a view of the registers 16 on
    %v = cute.memref.load_vec(%view)  ...  arith.truncf ...      element-wise operations (a conversion, an epilogue
    cute.memref.store_vec(%h, %buf_f16)                           function) lane by lane
    cute.copy(%r2s, %buf_view, %dst_slice)                        the copy, into a stage of the shared subtile
    cute.copy(%tma_store, %smem_slice, %target_slice)            the TMA store of that stage, at target (_,(0,1))

The registers each value of the copy's source holds are found by running the block's register operations on
contents that name the accumulator's registers (from the last MMA that writes the accumulator before the first
copy): `cute.memref.load` / `store` at static coordinates, `load_vec` / `store_vec`, and the arith / math operations
lane by lane (a lane that combines two accumulator registers, or passes through any other operation, is not one
register).  A register tensor is followed to its allocation through views that keep its iterator (`retile`,
`group_modes`), `make_view` of an iterator and `add_offset` by a static offset.  An operation nested in the block's
regions that takes one of its register tensors makes that tensor's contents unknown.

Each copy is paired with the TMA store that follows it before the next copy, which must write the target at a static
coordinate of the zipped_divide of the CTA's tile by the subtile ([S0:1;S1:1]); the subtile's place is that coordinate
times the subtile.  A store that reads another stage than its copy wrote (not the same index value or static index)
is stated with both stages, as places of the stage mode (`write`, `read`), where both are read: theorem 39 then has it
put what the last copy into that stage wrote.  Anything else is a reason the subtiles are not read (the reader lists
the copy with it)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..algebra.inttuple import IntTuple, flatten_to_tuple
from ..algebra.layout import Layout
from ..algebra.syntax import ParseError, parse_inttuple
from ..algebra.swizzle import ComposedLayout
from ..kinds.store_pipeline import StorePipeline
from .cute_types import TypeTextError, int_tuple_of, layout_of, memref_of, tile_of
from .flow import (ADD_OFFSET, ALLOCA, COORD_TYPE, COPY, GEMM, GET_ITER, IF, LOOPS, MAKE_FRAGMENT, MAKE_VIEW, RETILE,
                   SLICE, KernelFlow, Partition, Role, enclosing_loop)
from .mlir_text import Op, Value
from .stage_index import StageIndexes

RMEM = "rmem"
GROUP_MODES = "cute.group_modes"
ZIPPED_DIVIDE = "cute.zipped_divide"
LOAD, STORE = "cute.memref.load", "cute.memref.store"
LOAD_VEC, STORE_VEC = "cute.memref.load_vec", "cute.memref.store_vec"
# register tensors another view of whose iterator is taken without moving it
SAME_REGISTERS = (RETILE, GROUP_MODES)
# operations that only look at a register tensor (its iterator, layout or size), writing nothing
LOOKS = frozenset({GET_ITER, MAKE_VIEW, RETILE, GROUP_MODES, "cute.get_layout", "cute.size", "cute.get_shape",
                   "cute.get_stride", "cute.append_to_rank", LOAD, LOAD_VEC})
ELEMENTWISE = ("arith.", "math.")     # dialects whose operations act lane by lane on vectors
TMA_STORE = "tma_store"               # in a TMA store atom's type
UNKNOWN = -1                          # a lane made from registers by an operation this reader does not follow
MAX_REGISTERS = 1 << 14               # a register tensor this reader follows
_VECTOR = re.compile(r"vector<(\d+)x")
_CT_LAYOUT = re.compile(r'"([^"]*)"\s*>\s*$')      # a coord_tensor type's layout, its last quoted string

Lane = int | None            # an accumulator register, UNKNOWN, or None: nothing from the registers (a constant)


@dataclass(frozen=True)
class RegisterView:
    allocation: Value
    offset: int                      # elements past the allocation's first
    layout: Layout


@dataclass(frozen=True)
class Stage:
    """Which stage of a staged view a slice takes: a value computed at run time, or a static index."""
    value: Value | None
    index: int | None

    def text(self) -> str:
        return f"stage {self.index}" if self.value is None else f"the stage index {self.value}"


@dataclass(frozen=True)
class SubtileStore:
    at: tuple[int, int]
    registers: tuple[int, ...]
    copy: Op
    store: Op
    stage: Stage                     # the stage the copy writes
    read: Stage                      # the stage the store reads


@dataclass
class Subtiles:
    accumulator: Layout
    shape: tuple[int, int]
    stores: list[SubtileStore] = field(default_factory=list)
    pipeline: StorePipeline | str | None = None     # a string: why the stores' pipeline is not read
    # (write, read) stage classes a subtile, where a store reads another stage than its copy wrote
    stages: tuple[tuple[int, int], ...] | None = None


class _Untraced(Exception):
    pass


def _static_coordinate(text: str) -> IntTuple | None:
    """A coordinate CuTe printed with integers only (`(0,1)`, `14`), None where it holds `_` or `?`."""
    try:
        return parse_inttuple(text.strip())
    except ParseError:
        return None


def _flat(c: IntTuple) -> tuple[int, ...]:
    return tuple(int(x) for x in flatten_to_tuple(c))


class _Registers:
    """The register tensors of one block, followed to their allocations, and what each of their elements holds."""

    def __init__(self, flow: KernelFlow, accumulator: Value) -> None:
        self.flow = flow
        self.accumulator = accumulator
        self.contents: dict[Value, list[Lane]] = {}
        self.values: dict[Value, list[Lane]] = {}

    def view(self, v: Value) -> RegisterView:
        t = self.flow.type_of(v)
        try:
            memref = memref_of(t or "")
            layout = layout_of(memref.layout_text)
        except TypeTextError as e:
            raise _Untraced(f"{v}: {e}") from None
        if memref.space != RMEM or not isinstance(layout, Layout) or not layout.is_static():
            raise _Untraced(f"{v} is not a static register tensor")
        op = self.flow.defining.get(v)
        if op is None:
            raise _Untraced(f"{v} is a register tensor carried by a loop or handed in")
        if op.name in (ALLOCA, MAKE_FRAGMENT):         # fresh registers (make_fragment: an MMA's, e.g. its C)
            return RegisterView(v, 0, layout)
        if op.name in SAME_REGISTERS and op.operands:
            base = self.view(op.operands[1] if op.name == RETILE else op.operands[0])
            return RegisterView(base.allocation, base.offset, layout)
        if op.name == MAKE_VIEW and op.operands:
            allocation, offset = self.pointer(op.operands[0])
            return RegisterView(allocation, offset, layout)
        raise _Untraced(f"{v} is made by {op.name}, which this reader does not follow to registers")

    def pointer(self, v: Value) -> tuple[Value, int]:
        op = self.flow.defining.get(v)
        if op is not None and op.name == GET_ITER and op.operands:
            view = self.view(op.operands[0])
            return view.allocation, view.offset
        if op is not None and op.name == ADD_OFFSET and op.operands:
            n = int_tuple_of(op.operand_types[1] or "") if len(op.operand_types) > 1 else None
            if n is None:
                raise _Untraced(f"{op.where}: a register pointer moved by an offset known only at run time")
            allocation, offset = self.pointer(op.operands[0])
            return allocation, offset + n
        raise _Untraced(f"{v} is a register pointer this reader does not follow")

    def cells(self, view: RegisterView) -> list[Lane]:
        if view.allocation not in self.contents:
            size = int(self.view(view.allocation).layout.cosize())
            if size > MAX_REGISTERS:
                raise _Untraced(f"{view.allocation} holds more than {MAX_REGISTERS} registers")
            self.contents[view.allocation] = [None] * size
        return self.contents[view.allocation]

    def place(self, view: RegisterView, index: object) -> int:
        cells = self.cells(view)
        at = view.offset + int(view.layout(index))   # type: ignore[arg-type]
        if not 0 <= at < len(cells):
            raise _Untraced(f"{view.allocation}: element {index} lies past its registers")
        return at

    def read(self, v: Value) -> list[Lane]:
        view = self.view(v)
        cells = self.cells(view)
        return [cells[self.place(view, k)] for k in range(int(view.layout.size()))]

    def fill(self, allocation: Value) -> None:
        """The MMA writes its accumulator: register p holds the accumulator element of register p."""
        self.contents[allocation] = list(range(len(self.cells(RegisterView(allocation, 0, Layout(1))))))

    def poison(self, allocation: Value) -> None:
        self.contents[allocation] = [UNKNOWN] * len(self.cells(RegisterView(allocation, 0, Layout(1))))

    def registers_of(self, op: Op) -> list[Value]:
        out: list[Value] = []
        for v in op.operands:
            try:
                out.append(self.view(v).allocation)
            except _Untraced:
                continue
        return out

    # -- one operation of the block -----------------------------------------------------------------------------
    def run(self, op: Op, copies: set[Op], seen: dict[Op, list[Lane]]) -> None:
        if op.name == GEMM and len(op.operands) >= 2:
            written = self.view(op.operands[1]).allocation        # its D
            if written == self.view(self.accumulator).allocation:
                self.fill(written)
            else:
                self.poison(written)
            return
        if op.name == LOAD and len(op.operands) >= 2 and op.results:
            view = self.view(op.operands[0])
            self.values[op.results[0]] = [self.cells(view)[self.place(view, self._coordinate(op, 1))]]
            return
        if op.name == STORE and len(op.operands) >= 3:
            view = self.view(op.operands[0])
            lanes = self.values.get(op.operands[2], [None])
            self.cells(view)[self.place(view, self._coordinate(op, 1))] = lanes[0] if len(lanes) == 1 else UNKNOWN
            return
        if op.name == LOAD_VEC and op.operands and op.results:
            self.values[op.results[0]] = self.read(op.operands[0])
            return
        if op.name == STORE_VEC and len(op.operands) >= 2:
            view = self.view(op.operands[1])
            vector = self.values.get(op.operands[0])
            size = int(view.layout.size())
            cells = self.cells(view)
            for k in range(size):
                cells[self.place(view, k)] = vector[k] if vector is not None and len(vector) == size else \
                    (UNKNOWN if vector is not None else None)
            return
        if op.name == COPY and op in copies and len(op.operands) >= 3:
            seen[op] = self.read(op.operands[1])
            return
        if op.name.startswith(ELEMENTWISE) and len(op.results) == 1:
            self.values[op.results[0]] = self._lanewise(op)
            return
        touched = [v for v in op.operands if v in self.values]
        for r in op.results:
            if touched:
                self.values[r] = [UNKNOWN] * max(len(self.values[v]) for v in touched)
        if op.name not in LOOKS:
            for allocation in self.registers_of(op):
                self.poison(allocation)

    def _coordinate(self, op: Op, i: int) -> object:
        text = self.flow.type_of(op.operands[i]) or (op.operand_types[i] if len(op.operand_types) > i else None)
        m = COORD_TYPE.fullmatch((text or "").strip())
        c = _static_coordinate(m.group(1)) if m else None
        if c is None:
            raise _Untraced(f"{op.where}: a register element at a coordinate known only at run time")
        return c

    def _lanewise(self, op: Op) -> list[Lane]:
        t = self.flow.type_of(op.results[0]) or (op.result_types[0] if op.result_types else "")
        m = _VECTOR.search(t)
        inputs = [self.values[v] for v in op.operands if v in self.values]
        n = int(m.group(1)) if m else max((len(x) for x in inputs), default=1)
        lanes: list[Lane] = []
        for j in range(n):
            held = {x[j] if len(x) == n else UNKNOWN for x in inputs} - {None}
            lanes.append(None if not held else held.pop() if len(held) == 1 else UNKNOWN)
        return lanes


def _shaped_alike(flow: KernelFlow, registers: _Registers, copy: Op) -> str | None:
    """Why a copy's source and destination are not (instruction values, instances...) of the same sizes -- the
    shape cute.copy walks both in, a copy instruction's values then its instances (None: they are)."""
    try:
        src = registers.view(copy.operands[1]).layout
        dst = memref_of(flow.type_of(copy.operands[2]) or "").layout()
    except (_Untraced, TypeTextError) as e:
        return f"{copy.where}: the copy's operands are not read ({e})"
    dst = dst.b if isinstance(dst, ComposedLayout) else dst
    sizes = [[int(x.mode(i).size()) for i in range(x.rank())] for x in (src, dst)]
    if src.rank() < 2 or sizes[0] != sizes[1]:
        return f"{copy.where}: the copy's source {src} and destination {dst} are not shaped alike"
    return None


def _inside(op: Op, block: tuple[Op | None, int]) -> Op | None:
    """The operation of `block` that is `op` or holds it in its regions (None: outside the block)."""
    cur: Op | None = op
    while cur is not None:
        if (cur.parent, cur.region) == block:
            return cur
        cur = cur.parent
    return None


def _slice_stage(flow: KernelFlow, v: Value, base: Value) -> Stage | str:
    """The stage of `base` (a staged partition) the value `v` views: the last component of the slice taken of it."""
    cur = v
    for _ in range(64):
        op = flow.defining.get(cur)
        if op is None or not op.operands:
            break
        if op.name == SLICE and flow.root(op.operands[0]) == base and len(op.operands) > 1:
            coord = flow.defining.get(op.operands[1])
            text = flow.type_of(op.operands[1]) or ""
            m = COORD_TYPE.fullmatch(text.strip())
            if coord is None or m is None:
                return f"{op.where}: the slice's coordinate is not read"
            last = m.group(1).rstrip(")").rsplit(",", 1)[-1].strip()
            if last == "?" and m.group(1).count("?") == 1 and len(coord.operands) == 1:
                return Stage(coord.operands[0], None)
            if last.isdigit() and "?" not in m.group(1):
                return Stage(None, int(last))
            return f"{op.where}: the slice's coordinate {m.group(1)} takes no one stage"
        cur = op.operands[0]
    return f"{v} is no slice of the staged view {base}"


def _target_place(flow: KernelFlow, v: Value, partition: Partition, shape: tuple[int, int],
                  tile: tuple[int, int]) -> tuple[int, int] | str:
    """(m, n) of the CTA's tile the TMA store's target `v` starts at: a static slice of the tma_partition's target,
    whose tiles are the zipped_divide of the CTA's tile by the subtile."""
    target = partition.op.results[1] if len(partition.op.results) > 1 else None
    if target is None or len(partition.op.operands) < 5:
        return f"{partition.op.where}: the tma_partition's target is not read"
    divide = flow.defining.get(partition.op.operands[4])
    if divide is None or divide.name != ZIPPED_DIVIDE or len(divide.operand_types) < 2:
        return f"{partition.op.where}: the TMA store's tiles are not a zipped_divide of the CTA's tile"
    try:
        tiler = tile_of(re.sub(r'^!cute\.tile<(.*)>$', r"\1", (divide.operand_types[1] or "").strip()))
    except TypeTextError as e:
        return f"{divide.where}: {e}"
    if tiler != shape:
        return f"{divide.where}: the TMA store's tiles {tiler} are not the shared subtile {shape}"
    m = _CT_LAYOUT.search(divide.operand_types[0] or "")
    whole = _static_coordinate(m.group(1).split(":")[0]) if m else None
    if whole is None or _flat(whole) != tile:
        return f"{divide.where}: the tile it divides is not the accumulator's {tile[0]}x{tile[1]} tile"
    grid = (tile[0] // shape[0], tile[1] // shape[1])
    origin = _static_origin(flow.type_of(v) or "")
    if origin is not None:          # the DSL folded the target's coordinates into the view's type
        return _folded_place(divide, origin, shape, grid)
    cur = v
    for _ in range(64):
        op = flow.defining.get(cur)
        if op is None or not op.operands:
            break
        if op.name == SLICE and op.operands[0] == target and len(op.operands) > 1:
            t = COORD_TYPE.fullmatch((flow.type_of(op.operands[1]) or "").strip())
            text = t.group(1) if t else ""
            if not text.startswith("(_,"):
                return f"{op.where}: the TMA store's target coordinate {text or '?'} is not read"
            rest = _static_coordinate(text[3:-1])
            if rest is None:
                return f"{op.where}: the TMA store's target is taken at a coordinate known only at run time"
            flat = _flat(rest)
            if len(flat) == 1:
                flat = (flat[0] % grid[0], flat[0] // grid[0])
            if len(flat) != 2 or not (0 <= flat[0] < grid[0] and 0 <= flat[1] < grid[1]):
                return f"{op.where}: the TMA store's target coordinate {text} is not one subtile of the tile"
            return flat[0] * shape[0], flat[1] * shape[1]
        cur = op.operands[0]
    return f"{v} is no slice of the TMA store's target tiles"


_ORIGIN = re.compile(r'^!cute\.coord_tensor<"([^"]*)"')
_BASIS = re.compile(r"^1@(\d+)$")


def _static_origin(type_text: str) -> tuple[int, ...] | None:
    """A coordinate tensor's first coordinate, where its type states it (`!cute.coord_tensor<"(16,0)", ...>`)."""
    m = _ORIGIN.match(type_text.strip())
    c = _static_coordinate(m.group(1)) if m else None
    return _flat(c) if c is not None else None


def _folded_place(divide: Op, origin: tuple[int, ...], shape: tuple[int, int],
                  grid: tuple[int, int]) -> tuple[int, int] | str:
    """(m, n) of the tile a TMA store's target starts at, from its static first coordinate: the divided tile's modes
    run along the global basis its strides name (`(64,64):(1@1,1@0)`: m along coordinate 1, n along 0), from the
    tile's own first coordinate."""
    m = _CT_LAYOUT.search(divide.operand_types[0] or "")
    start = _static_origin(divide.operand_types[0] or "")
    strides = m.group(1).split(":", 1)[1].strip("()").split(",") if m and ":" in m.group(1) else []
    bases = [_BASIS.match(s.strip()) for s in strides]
    if start is None or len(bases) != 2 or not all(bases):
        return f"{divide.where}: the divided tile's first coordinate or its basis is not read"
    axes = [int(b.group(1)) for b in bases if b is not None]
    if sorted(axes) != list(range(len(start))) or len(origin) != len(start):
        return f"{divide.where}: the divided tile's basis {strides} is not one mode a coordinate"
    place = tuple(origin[axis] - start[axis] for axis in axes)
    if any(place[i] % shape[i] or not 0 <= place[i] // shape[i] < grid[i] for i in range(2)):
        return f"{divide.where}: a TMA store's target starts at {origin}, no subtile of the tile"
    return place[0], place[1]


def subtile_stores(flow: KernelFlow, copy_partition: Partition, accumulator: Value, shape: tuple[int, int],
                   tile: tuple[int, int], same_buffer: Callable[[Value, Value], bool]) -> Subtiles | str:
    """The subtiles the copies of `copy_partition`'s tiled copy into it store, or why they are not read."""
    base = copy_partition.op.results[0]
    copies = [c for c in flow.copies if len(c.operands) >= 3 and c.operands[0] == copy_partition.actor
              and flow.root(c.operands[2]) == base]
    if not copies:
        return "no copy of the tiled copy writes its partition"
    block = (copies[0].parent, copies[0].region)
    if any((c.parent, c.region) != block for c in copies):
        return "the subtiles' copies are not in one block"
    registers = _Registers(flow, accumulator)
    try:
        acc_view = registers.view(accumulator)
    except _Untraced as e:
        return f"the accumulator {accumulator}: {e}"
    if acc_view.offset != 0:
        return f"the accumulator {accumulator} is not a whole register allocation"
    ops = flow.function.ops
    first = ops.index(copies[0])
    start = None
    for i in range(first - 1, -1, -1):
        op = ops[i]
        if op.name == GEMM and len(op.operands) >= 2 and _inside(op, block) is not None:
            try:
                writes = registers.view(op.operands[1]).allocation == acc_view.allocation
            except _Untraced:
                writes = False
            if writes:
                start = ops.index(_inside(op, block) or op)
                break
    if start is None:
        return "no MMA writes the accumulator in the block of the copies before them"
    registers.fill(acc_view.allocation)
    seen: dict[Op, list[Lane]] = {}
    wanted = set(copies)
    try:
        for op in ops[start + 1:]:
            holder = _inside(op, block)
            if holder is None or holder is ops[start]:       # outside the block, or inside the MMA's own loop
                continue
            if holder is op:
                registers.run(op, wanted, seen)
            elif op.name not in LOOKS:
                for allocation in registers.registers_of(op):
                    registers.poison(allocation)
    except _Untraced as e:
        return str(e)
    out = Subtiles(acc_view.layout, shape)
    positions = {op: i for i, op in enumerate(ops)}
    for n, c in enumerate(copies):
        lanes = seen.get(c)
        if lanes is None:
            return f"{c.where}: the copy's source registers are not read"
        bad = next((k for k, x in enumerate(lanes) if x is None or x < 0), None)
        if bad is not None:
            what = "holds no accumulator register" if lanes[bad] is None else \
                "holds a value made through an operation this reader does not follow"
            return f"{c.where}: value {bad} of the copy's source {what}"
        shaped = _shaped_alike(flow, registers, c)
        if shaped is not None:
            return shaped
        stage = _slice_stage(flow, c.operands[2], base)
        if isinstance(stage, str):
            return stage
        end = positions[copies[n + 1]] if n + 1 < len(copies) else len(ops)
        stores = [s for s in flow.copies if positions[c] < positions[s] < end and len(s.operands) >= 3
                  and TMA_STORE in (flow.type_of(s.operands[0]) or s.operand_types[0] or "")]
        if len(stores) != 1:
            return f"{c.where}: {len(stores)} TMA stores follow the copy before the next subtile's (one is read)"
        store = stores[0]
        source = flow.partition_of(store.operands[1])
        if source is None or source.role is not Role.TMA or not same_buffer(source.target, copy_partition.target):
            return f"{store.where}: the TMA store after the copy reads no partition of the copy's shared tile"
        read = _slice_stage(flow, store.operands[1], source.op.results[0])
        if isinstance(read, str):
            return read
        at = _target_place(flow, store.operands[2], source, shape, tile)
        if isinstance(at, str):
            return at
        out.stores.append(SubtileStore(at, tuple(int(x) for x in lanes if x is not None), c, store, stage, read))
    moved = next((s for s in out.stores if s.read != s.stage), None)
    if moved is not None:
        classes = _stage_classes(flow, [s.stage for s in out.stores] + [s.read for s in out.stores], base)
        if isinstance(classes, str):
            return (f"{moved.store.where}: the TMA store after the copy reads {moved.read.text()}, the copy wrote "
                    f"{moved.stage.text()}, and which stage holds which subtile is not read: {classes}")
        n = len(out.stores)
        out.stages = tuple(zip(classes[:n], classes[n:]))
    out.pipeline = _pipeline(flow, out.stores, block, base)
    return out


WAIT_GROUP, COMMIT_GROUP = "nvvm.cp.async.bulk.wait_group", "nvvm.cp.async.bulk.commit.group"
BARRIER, FENCE_PROXY = "nvvm.barrier", "nvvm.fence.proxy"
ASYNC_PROXIES = ("proxy_kind<async.shared>", "proxy_kind<async>")    # fences that order shared writes for TMA
MULTIPLY = "arith.muli"
_COUNT = re.compile(r"^\s*(\d+)")


def _stage_classes(flow: KernelFlow, stages: list[Stage], base: Value) -> tuple[int, ...] | str:
    """Each stage as a class whose equality is the stage's place: for a static index, the first index the stage mode
    puts at its place (its own number where no smaller index shares the place), or, for one value plus constants
    modulo one stage count N, the offset's residue where the mode gives the N indices N places (0 for every stage
    where it gives them one place)."""
    try:
        layout = memref_of(flow.type_of(base) or "").layout()
    except TypeTextError as e:
        return f"the staged partition's layout is not read ({e})"
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    if not isinstance(inner, Layout) or not inner.is_static():
        return "the staged partition's layout is not static"
    stage_mode = inner.mode(inner.rank() - 1)
    if all(s.index is not None for s in stages):
        # a static index k as the first index the stage mode puts at k's place: stage k where no smaller index shares
        # its place (a stage's own number in a report), one class for indices of one place
        return tuple(next(j for j in range(s.index + 1) if int(stage_mode(j)) == int(stage_mode(s.index)))
                     for s in stages if s.index is not None)
    if any(s.value is None for s in stages):
        return "the subtiles take static and run-time stages together"
    forms = [StageIndexes(flow).form(s.value) for s in stages if s.value is not None]
    modulus = forms[0].modulus
    if len({(f.base, f.modulus) for f in forms}) != 1 or modulus is None:
        return "the subtiles' stage indices are not one value plus constants modulo one stage count"
    places = {int(stage_mode(r)) for r in range(modulus)}
    if len(places) == 1:
        return tuple(0 for _ in forms)
    if len(places) != modulus:
        return (f"the stage mode {stage_mode} gives the {modulus} indices the subtiles cycle through {len(places)} "
                "places")
    return tuple(f.offset % modulus for f in forms)


def _pipeline(flow: KernelFlow, stores: list[SubtileStore], block: tuple[Op | None, int],
              base: Value) -> StorePipeline | str:
    """The stores' pipeline (see StorePipeline), or why it is not read."""
    both = _stage_classes(flow, [s.stage for s in stores] + [s.read for s in stores], base)
    if isinstance(both, str):
        return both
    classes, reads = both[:len(stores)], both[len(stores):]
    ops = flow.function.ops
    position = {op: i for i, op in enumerate(ops)}
    inside = [i for i, op in enumerate(ops) if _inside(op, block) is not None]
    end = max(inside) + 1

    def top(name: str, lo: int, hi: int, head: tuple[str, ...] = ()) -> list[int]:
        return [i for i in range(lo + 1, hi) if ops[i].name == name and (ops[i].parent, ops[i].region) == block
                and (not head or any(h in ops[i].head for h in head))]

    def anywhere(name: str, lo: int, hi: int) -> list[int]:
        return [i for i in range(lo + 1, hi) if ops[i].name == name and _inside(ops[i], block) is not None]

    fenced: list[bool] = []
    pending: list[int | None] = []
    # every store issued under one condition (the same threads), whose commits and waits then bound them all
    issuers = {_condition(s.store) for s in stores}
    one_issuer = len(issuers) == 1 and None not in issuers
    for n, s in enumerate(stores):
        c, st = position[s.copy], position[s.store]
        fences = top(FENCE_PROXY, c, st, ASYNC_PROXIES)
        fenced.append(bool(fences) and bool(top(BARRIER, fences[0], st)))
        nxt = position[stores[n + 1].copy] if n + 1 < len(stores) else end
        # a commit and a wait bound the stores their threads issued: the store's own (under the store's condition)
        commits = [i for i in anywhere(COMMIT_GROUP, st, nxt) if one_issuer and ops[i].parent is s.store.parent]
        waits = [i for i in anywhere(WAIT_GROUP, commits[0], nxt) if ops[i].parent is s.store.parent] \
            if commits else []
        held = _inside(ops[waits[-1]], block) if waits else None
        count = _COUNT.match(ops[waits[-1]].head) if waits else None
        ordered = held is not None and bool(top(BARRIER, position[held] if held is not ops[waits[-1]]
                                                 else waits[-1], nxt))
        pending.append(int(count.group(1)) if count is not None and ordered else None)
    at_start: tuple[int, ...] = ()
    if block[0] is not None and (block[0].name in LOOPS or enclosing_loop(block[0]) is not None):
        left = _outstanding(reads, pending, ())
        if left and not _same_every_pass(flow, stores):
            return (f"{len(left)} TMA stores may still read when a pass of the block ends, and the next pass's "
                    "stages are run-time values this reader does not relate to theirs")
        at_start = tuple(left)
    return StorePipeline(classes, tuple(fenced), tuple(pending), at_start, None if reads == classes else reads)


def _condition(op: Op) -> tuple[Value, ...] | None:
    """The conditions of the scf.if operations around `op` (their first operands, innermost first): the threads that
    run it, as values (() at the block's top level; None where another operation than scf.if holds it)."""
    out: list[Value] = []
    cur = op.parent
    while cur is not None and cur.name == IF and cur.operands:
        out.append(cur.operands[0])
        cur = cur.parent
    return tuple(out) if cur is None or cur.name in LOOPS else None


def _same_every_pass(flow: KernelFlow, stores: list[SubtileStore]) -> bool:
    """Whether every pass of the block takes the same stages: static indices, or one value plus constants modulo N
    whose value is a multiple of N (a persistent epilogue's count of subtiles stored before, tiles times subtiles a
    tile, when its subtiles a tile are a multiple of the stages)."""
    values = [x.value for s in stores for x in (s.stage, s.read) if x.value is not None]
    if not values:
        return True
    forms = [StageIndexes(flow).form(v) for v in values]
    modulus = forms[0].modulus
    op = flow.defining.get(forms[0].base)
    if modulus is None or op is None or op.name != MULTIPLY or len(op.operands) != 2:
        return False
    factors = [flow.integer(v) for v in op.operands]
    return any(c is not None and c % modulus == 0 for c in factors)


def _outstanding(stages: tuple[int, ...], pending: list[int | None], start: tuple[int, ...]) -> list[int]:
    """The stages of the stores that may still be reading after the last subtile's store and wait."""
    left = list(start)
    for stage, after in zip(stages, pending):
        left.append(stage)
        if after is not None:
            left = left[-after:] if after else []
    return left


__all__ = ["Subtiles", "SubtileStore", "subtile_stores"]
