"""An element-wise kernel read back from the IR (the checks theorem 43 proves): tensors of one shape divided by their
tilers, every side sliced at one tile and partitioned at one thread, its values loaded into registers, computed lane
by lane and stored:

    %slice = cute.slice(%gA, %coord)                          %coord = cute.make_coord(%ctaid) : "((_,_),?)"
    %thrA = cute.tiled.copy.partition_S(%tiled, %slice, %tid)    (or the slice itself: one tile a thread)
    cute.copy(%atom, %thrA_view, %frgA_view)                  global -> registers (views of one iterator)
    %3 = cute.memref.load_vec(%frgA) ... %5 = arith.addf %3, %4 ... cute.memref.store_vec(%5, %frgC)
    cute.copy(%atom, %frgC_view, %thrC_view)                  registers -> global

A side's divided tensor is a `cute.zipped_divide` of a rank-2 tensor of static layout by a tile of contiguous modes,
in the kernel or on the host (the kernel's argument launched with it); the tile is taken at one value of its rest
mode, and a tiled copy whose tile is that tile partitions it (its layout_tv: (thr, val) -> the tile's index), or the
thread takes the slice whole.  Each copy's view and the partition it views share an iterator: value i of the view is
the partition's value at the view's offset.  The registers are followed through their views (`make_view` of an
allocation's iterator, `group_modes`, `logical_divide`), `load_vec` / `store_vec`, `memref.load` / `store` at static
coordinates, `vector.extract` / `broadcast` and arith / math operations lane by lane; each lane holds the set of
input values it is computed from.  An output value of no input, of two values of one input (a reduction), of an
input value another output value takes too (a broadcast), or of a lane some other operation made is a reason the
kernel is not read; so is anything else this reader does not follow."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..algebra.layout import Layout
from .cute_types import TypeTextError, layout_of, memref_of, space_of, tile_of, tiled_copy_of
from .flow import (ALLOCA, COORD_TYPE, COPY, GET_ITER, MAKE_VIEW, PARTITION_D, PARTITION_S, SLICE, KernelFlow)
from .mlir_text import Op, Value, Where
from ..kinds.slice.coordinate import THREAD
from .stage_index import StageIndexes
from .thread_coordinate import Untraced, coordinate_text

GMEM, RMEM = "gmem", "rmem"
ZIPPED_DIVIDE, COMPOSITION = "cute.zipped_divide", "cute.composition"
_REST_REMAP = re.compile(r'!cute\.tile<"\[_;[^;\]]+\]">')     # a composition that keeps the tile, remaps the rest
LOAD, STORE = "cute.memref.load", "cute.memref.store"
LOAD_VEC, STORE_VEC = "cute.memref.load_vec", "cute.memref.store_vec"
EXTRACT, BROADCAST = "vector.extract", "vector.broadcast"
ELEMENTWISE = ("arith.", "math.")                  # dialects whose operations act lane by lane
# views of a tensor over the same iterator, followed from a copy's operand back to what it views
SAME_ITERATOR_VIEWS = ("cute.group_modes", "cute.logical_divide", "cute.append_to_rank")
# operations that only look at a register tensor, writing nothing
LOOKS = frozenset({GET_ITER, MAKE_VIEW, "cute.get_layout", "cute.size", "cute.get_shape", "cute.get_stride",
                   "cute.group_modes", "cute.logical_divide", LOAD, LOAD_VEC})
_WHOLE_TILE = re.compile(r"\(\(?[_,]*\)?,(\?|\((\?,)*\?\))\)")   # `(_,?)`, `((_,_),?)`, `((_,_),(?,?))`
MAX_ELEMENTS = 1 << 14                             # elements of a view or an allocation this reader follows
_POSITION = re.compile(r"\[(\d+)\]\s*$")           # vector.extract's static position: `%11[3]`

Source = tuple[int, int]                           # (input, value of its partition)
UNSET: Source = (-1, -1)                           # what a register holds before anything writes it
Lanes = frozenset[Source] | None                   # the input values a lane is computed from (None: not followed)


class _NotRead(Exception):
    pass


@dataclass(frozen=True)
class SideRead:
    """One tensor's side: its shape, tile and tiled copy, the values the kernel slices and partitions it at."""
    tensor: str                     # what the tensor is, for the check's description
    shape: tuple[int, int]
    tile: tuple[int, int]
    thread_values: Layout | None    # the tiled copy's layout_tv, (thr, val) -> index in the tile; None: the slice
    rest: tuple[Value, ...]         # the values the rest coordinate is made from (one: an index) ...
    rest_offset: int                # ... plus this constant (one value)
    thread: Value | None
    where: Where
    remap: str | None = None        # the layout the rest mode was composed with on the host


@dataclass(frozen=True)
class ElementwiseRead:
    output: SideRead
    inputs: tuple[SideRead, ...]
    values: tuple[tuple[Source, ...], ...]         # output value -> the input values it is computed from
    ops: tuple[Op, ...]                            # the copies, partitions and slices read
    # the slice each side's thread takes, as an expression of tid (the output's first; None: tid itself)
    threads: tuple[str | None, ...] = ()


def _static_layout(flow: KernelFlow, v: Value) -> Layout:
    try:
        layout = memref_of(flow.type_of(v) or "").layout()
    except TypeTextError as e:
        raise _NotRead(f"{v}: {e}") from None
    if not isinstance(layout, Layout) or not layout.is_static() or int(layout.size()) > MAX_ELEMENTS:
        raise _NotRead(f"{v}'s layout is not a static plain layout of at most {MAX_ELEMENTS} elements")
    return layout


def _viewed(flow: KernelFlow, v: Value) -> Value:
    """The tensor `v` views over the same iterator: followed through make_view of a get_iter, group_modes,
    logical_divide and append_to_rank."""
    cur = v
    for _ in range(64):
        op = flow.defining.get(cur)
        if op is None or not op.operands:
            return cur
        if op.name in SAME_ITERATOR_VIEWS:
            cur = op.operands[0]
        elif op.name == MAKE_VIEW:
            it = flow.defining.get(op.operands[0])
            if it is None or it.name != GET_ITER or not it.operands:
                raise _NotRead(f"{op.where}: a view made from an iterator this reader does not follow")
            cur = it.operands[0]
        else:
            return cur
    return cur


def _offsets_to_index(layout: Layout, what: str) -> dict[int, int]:
    """Each offset `layout` reaches -> its logical index (the layout one-to-one)."""
    out: dict[int, int] = {}
    for i in range(int(layout.size())):
        o = int(layout(i))
        if o in out and int(layout.size()) > 1:
            raise _NotRead(f"{what} puts two values at one offset")
        out.setdefault(o, i)
    return out


def _view_index(flow: KernelFlow, view: Value, base: Value) -> list[int]:
    """For each value of `view` (its colexicographic index), the index of the value of `base` it is (one iterator)."""
    inverse = _offsets_to_index(_static_layout(flow, base), str(base))
    out = []
    for i, o in enumerate(_static_layout(flow, view).values()):
        if o not in inverse:
            raise _NotRead(f"value {i} of {view} is no value of {base}")
        out.append(inverse[o])
    return out


def _coordinate(flow: KernelFlow, v: Value) -> tuple[str, Op]:
    op = flow.defining.get(v)
    m = COORD_TYPE.fullmatch((flow.type_of(v) or "").strip())
    if op is None or m is None:
        raise _NotRead(f"{v}: a coordinate this reader does not read")
    return m.group(1), op


def _tile(type_text: str, where: Where) -> tuple[int, int]:
    inner = re.sub(r'^!cute\.tile<"?(.*?)"?>$', r"\1", type_text.strip())
    try:
        modes = tile_of(inner)
    except TypeTextError as e:
        raise _NotRead(f"{where}: the tile {inner}: {e}") from None
    if len(modes) != 2 or not all(isinstance(m, int) for m in modes):
        raise _NotRead(f"{where}: the tile {inner} is not two contiguous modes")
    return int(modes[0]), int(modes[1])


def _divided(flow: KernelFlow, d: Value) -> tuple[str, tuple[int, int], tuple[int, int], str | None]:
    """The tensor `d` divides (described), its shape, the tile and the layout its rest mode was composed with (None:
    none): a zipped_divide in the kernel, or the host's zipped_divide (its rest mode composed with a layout, as
    `cute.composition(divided, (None, remap))` does) launched as the kernel's argument `d`."""
    op = flow.defining.get(d)
    remap = None
    if op is not None and op.name == ZIPPED_DIVIDE and len(op.operand_types) > 1:
        tensor, whose, tile_type = op.operands[0], f"{op.operands[0]}", op.operand_types[1] or ""
        tensor_type = flow.type_of(tensor) or op.operand_types[0] or ""
        if tensor in flow.function.arguments:
            whose = f"kernel argument {flow.function.arguments.index(tensor)}"
    else:
        made = flow.host_maker(d)
        if made is not None and made[1].name == COMPOSITION and len(made[1].operand_types) > 1 and \
                _REST_REMAP.fullmatch((made[1].operand_types[1] or "").strip()):
            remap = (made[1].operand_types[1] or "").strip()
            inner = next((o for o in made[0].ops if made[1].operands[0] in o.results), None)
            made = (made[0], inner) if inner is not None else None
        if made is None or made[1].name != ZIPPED_DIVIDE or len(made[1].operand_types) < 2:
            raise _NotRead(f"{d} is no zipped_divide of a tensor, in the kernel or launched from the host")
        fn, host_op = made
        host_tensor = host_op.operands[0]
        tile_type, tensor_type = host_op.operand_types[1] or "", host_op.operand_types[0] or ""
        whose = f"host argument {fn.arguments.index(host_tensor)}" if host_tensor in fn.arguments else \
            f"the host value {host_tensor}"
        op = host_op
    try:
        layout = memref_of(tensor_type).layout()
    except TypeTextError as e:
        raise _NotRead(f"{op.where}: the divided tensor: {e}") from None
    if not isinstance(layout, Layout) or layout.rank() != 2 or not layout.is_static():
        raise _NotRead(f"{op.where}: the divided tensor {tensor_type} is not a static rank-2 layout")
    where = op.where
    shape = (int(layout.mode(0).size()), int(layout.mode(1).size()))
    return whose, shape, _tile(tile_type, where), remap


def _side(flow: KernelFlow, v: Value, used: list[Op]) -> tuple[SideRead, list[int]]:
    """The side a global operand of a copy is a view of, and for each of its values the side's value it is."""
    base = _viewed(flow, v)
    index = _view_index(flow, v, base)
    op = flow.defining.get(base)
    thread_values: Layout | None = None
    thread: Value | None = None
    tiler: tuple[int, ...] | None = None
    if op is not None and op.name in (PARTITION_S, PARTITION_D) and len(op.operands) >= 3:
        try:
            tiled = tiled_copy_of(flow.type_of(op.operands[0]) or "")
        except TypeTextError as e:
            raise _NotRead(f"{op.where}: {e}") from None
        used.append(op)
        thread_values, thread, tile_view = tiled.layout_tv, op.operands[2], op.operands[1]
        tiler = tuple(tiled.tiler)
        op = flow.defining.get(tile_view)
    elif op is not None and op.name == SLICE and len(op.operands) >= 2 and \
            (composed := flow.defining.get(op.operands[0])) is not None and composed.name == COMPOSITION:
        # the tile composed with a (thr, val) layout and sliced at the thread: `cute.composition(tile, tv)[(t, None)]`
        text, coord = _coordinate(flow, op.operands[1])
        if text.replace(" ", "") not in ("(?,_)", "(?,(_,_))") or len(coord.operands) != 1 or \
                len(composed.operand_types) < 2:
            raise _NotRead(f"{op.where}: the composed tile is sliced at {text}, not at one thread's values")
        tv_text = re.sub(r'^!cute\.layout<"(.*)">$', r"\1", (composed.operand_types[1] or "").strip())
        try:
            tv = layout_of(tv_text) if tv_text else None
        except TypeTextError as e:
            raise _NotRead(f"{composed.where}: {e}") from None
        if not isinstance(tv, Layout):
            raise _NotRead(f"{composed.where}: the tile is composed with {tv_text or '?'}, no (thr, val) layout")
        thread_values = tv
        used += [op, composed]
        thread = coord.operands[0]
        op = flow.defining.get(composed.operands[0])
    if op is None or op.name != SLICE or len(op.operands) < 2:
        raise _NotRead(f"{base} is no slice of a divided tensor, nor a tiled copy's partition of one")
    used.append(op)
    text, coord = _coordinate(flow, op.operands[1])
    compact = text.replace(" ", "")
    if not _WHOLE_TILE.fullmatch(compact) or compact.count("?") != len(coord.operands) or not coord.operands:
        raise _NotRead(f"{op.where}: the slice's coordinate {text} is not the whole tile at a rest coordinate")
    whose, shape, tile, remap = _divided(flow, op.operands[0])
    if tiler is not None and tiler != tile:
        raise _NotRead(f"{op.where}: the tiled copy's tile {tiler} is not the divided tensor's tile {tile}")
    if thread_values is not None and (thread_values.rank() != 2 or not thread_values.is_static() or
                                      int(thread_values.cosize()) > tile[0] * tile[1]):
        raise _NotRead(f"{op.where}: the (thr, val) layout {thread_values} is not a static layout into the tile")
    rest: tuple[Value, ...] = coord.operands
    offset = 0
    if len(rest) == 1:
        form = StageIndexes(flow).form(rest[0])
        if form.modulus is not None:
            raise _NotRead(f"{op.where}: the slice's rest index is taken modulo {form.modulus}")
        rest, offset = (form.base,), form.offset
    return SideRead(whose, shape, tile, thread_values, rest, offset, thread, op.where, remap), index


class _Registers:
    """Register allocations and SSA values, each element the input values it is computed from."""

    def __init__(self, flow: KernelFlow) -> None:
        self.flow = flow
        self.cells: dict[Value, list[Lanes]] = {}
        self.values: dict[Value, list[Lanes]] = {}

    def view(self, v: Value) -> tuple[Value, list[int]]:
        """The allocation a register view is over and the register of each of its values."""
        base = _viewed(self.flow, v)
        op = self.flow.defining.get(base)
        if op is None or op.name != ALLOCA:
            raise _NotRead(f"{v} is a register tensor this reader does not follow to its allocation")
        if base not in self.cells:
            size = int(_static_layout(self.flow, base).cosize())
            self.cells[base] = [frozenset({UNSET})] * size
        registers = [int(o) for o in _static_layout(self.flow, v).values()]
        if any(not 0 <= r < len(self.cells[base]) for r in registers):
            raise _NotRead(f"{v} reaches past its allocation's registers")
        return base, registers

    def lanes(self, v: Value, n: int) -> list[Lanes]:
        """An SSA value's lanes; one not made from registers (a constant, a kernel argument) holds no input."""
        got = self.values.get(v)
        if got is None:
            return [frozenset()] * n
        if len(got) == 1 and n > 1:
            return got * n                   # a scalar taken by a vector operation
        return got

    def run(self, op: Op) -> None:
        name = op.name
        if name == LOAD_VEC and op.operands and op.results:
            alloc, regs = self.view(op.operands[0])
            self.values[op.results[0]] = [self.cells[alloc][r] for r in regs]
        elif name == STORE_VEC and len(op.operands) >= 2:
            alloc, regs = self.view(op.operands[1])
            lanes = self.lanes(op.operands[0], len(regs))
            for r, lane in zip(regs, lanes if len(lanes) == len(regs) else [None] * len(regs)):
                self.cells[alloc][r] = lane
        elif name == LOAD and len(op.operands) >= 2 and op.results:
            alloc, regs = self.view(op.operands[0])
            at = self._static_index(op)
            self.values[op.results[0]] = [None if at is None else self.cells[alloc][regs[at]]]
        elif name == STORE and len(op.operands) >= 3:
            alloc, regs = self.view(op.operands[0])
            lanes = self.lanes(op.operands[2], 1)
            at = self._static_index(op)
            if at is None:                   # an element known only at run time: any of them
                self.cells[alloc] = [None] * len(self.cells[alloc])
            else:
                self.cells[alloc][regs[at]] = lanes[0] if len(lanes) == 1 else None
        elif name == EXTRACT and op.operands and op.results:
            m = _POSITION.search(op.head)
            src = self.values.get(op.operands[0])
            if m is None or src is None or int(m.group(1)) >= len(src):
                self.values[op.results[0]] = [None] if src is not None else [frozenset()]
            else:
                self.values[op.results[0]] = [src[int(m.group(1))]]
        elif name == BROADCAST and op.operands and op.results:
            self.values[op.results[0]] = self.lanes(op.operands[0], 1)[:1] * self._length(op)
        elif name.startswith(ELEMENTWISE) and len(op.results) == 1:
            n = max([self._length(op)] + [len(self.values[v]) for v in op.operands if v in self.values])
            inputs = [self.lanes(v, n) for v in op.operands]
            out: list[Lanes] = []
            for j in range(n):
                held = [x[j] if len(x) == n else None for x in inputs]
                out.append(None if any(h is None for h in held) else frozenset().union(*[h for h in held if h]))
            self.values[op.results[0]] = out
        else:
            touched = [v for v in op.operands if v in self.values]
            for result in op.results:
                if touched:
                    self.values[result] = [None] * max(len(self.values[v]) for v in touched)
            if name not in LOOKS:
                for v in op.operands:
                    if space_of(self.flow.type_of(v)) == RMEM:
                        try:
                            alloc, _ = self.view(v)
                        except _NotRead:
                            continue
                        self.cells[alloc] = [None] * len(self.cells[alloc])

    def _static_index(self, op: Op) -> int | None:
        """The static element a memref.load / store takes (None: one known only at run time)."""
        text, _ = _coordinate(self.flow, op.operands[1])
        if not re.fullmatch(r"\d+", text.strip()):
            return None
        view = _static_layout(self.flow, op.operands[0])
        if int(text) >= int(view.size()):
            raise _NotRead(f"{op.where}: element {text} of a register tensor of {int(view.size())}")
        return int(text)

    def _length(self, op: Op) -> int:
        """The lanes of an operation's result: its vector type's length (1 for a scalar)."""
        return _vector_length(self.flow.type_of(op.results[0]) or (op.result_types[0] if op.result_types else ""))


def _vector_length(type_text: str) -> int:
    m = re.search(r"vector<(\d+)x", type_text)
    return int(m.group(1)) if m else 1


def read_elementwise(flow: KernelFlow) -> ElementwiseRead | str | None:
    """The kernel's element-wise computation, or why it is not read; None where the kernel has no load from global
    memory into registers and store back, or computes with a tiled MMA (its registers come from the MMA)."""
    copies = [c for c in flow.copies if len(c.operands) >= 3 and
              {space_of(flow.type_of(c.operands[1])), space_of(flow.type_of(c.operands[2]))} == {GMEM, RMEM}]
    loads = sum(space_of(flow.type_of(c.operands[1])) == GMEM for c in copies)
    if not loads or loads == len(copies) or flow.gemms:
        return None          # no load, no store: a kernel's other copies (an epilogue's store from registers)
    try:
        return _read(flow, copies)
    except _NotRead as e:
        return str(e)


def _read(flow: KernelFlow, copies: list[Op]) -> ElementwiseRead:
    block = (copies[0].parent, copies[0].region)
    if any((c.parent, c.region) != block for c in copies):
        raise _NotRead("the copies between global memory and registers are not in one block")
    used: list[Op] = list(copies)
    loads = [c for c in copies if space_of(flow.type_of(c.operands[1])) == GMEM]
    stores = [c for c in copies if c not in loads]
    sides: list[SideRead] = []
    index_of: dict[Op, tuple[int, list[int]]] = {}
    for c in loads:
        side, index = _side(flow, c.operands[1], used)
        known = next((k for k, s in enumerate(sides) if (s.tensor, s.tile, s.thread_values, s.rest_offset, s.thread)
                      == (side.tensor, side.tile, side.thread_values, side.rest_offset, side.thread)), None)
        if known is None:
            sides.append(side)
            known = len(sides) - 1
        index_of[c] = (known, index)
    outputs = [_side(flow, c.operands[2], used) for c in stores]
    output = outputs[0][0]
    if any((o[0].tensor, o[0].tile, o[0].rest_offset, o[0].thread) !=
           (output.tensor, output.tile, output.rest_offset, output.thread) for o in outputs):
        raise _NotRead("the stores write more than one tensor, or one tensor tiled two ways")
    for s in sides + [output]:
        if (len(output.rest) > 1 or output.remap is not None) and (s.tile, s.remap) != (output.tile, output.remap):
            raise _NotRead(f"{s.where}: {s.tensor} is taken at a rest coordinate of its own tiling (another tile, or "
                           "its rest mode remapped otherwise): the sides' tiles are not paired")
        if s.shape != output.shape:
            raise _NotRead(f"{s.where}: {s.tensor} is {s.shape[0]}x{s.shape[1]}, the output "
                           f"{output.shape[0]}x{output.shape[1]}")
        if s.rest != output.rest:
            raise _NotRead(f"{s.where}: {s.tensor} is not sliced at a tile of the output's rest index (plus a "
                           "constant)")
        if (s.thread is None) != (output.thread is None):
            raise _NotRead(f"{s.where}: {s.tensor} is {'not ' if s.thread is None else ''}partitioned among threads "
                           f"where the output is {'' if output.thread is None else 'not'}")
    threads = _thread_expressions(flow, [output] + sides)
    registers = _Registers(flow)
    n_out = output.tile[0] * output.tile[1] if output.thread_values is None else \
        int(output.thread_values.mode(1).size())
    stored: list[Lanes | str] = ["unwritten"] * n_out
    for op in flow.function.ops:
        if op.name == COPY and op in index_of:
            k, index = index_of[op]
            alloc, regs = registers.view(op.operands[2])
            if len(regs) != len(index):
                raise _NotRead(f"{op.where}: the copy's source and destination hold different numbers of values")
            for r, p in zip(regs, index):
                registers.cells[alloc][r] = frozenset({(k, p)})
        elif op.name == COPY and op in stores:
            alloc, regs = registers.view(op.operands[1])
            _, index = outputs[stores.index(op)]
            if len(regs) != len(index):
                raise _NotRead(f"{op.where}: the copy's source and destination hold different numbers of values")
            for r, p in zip(regs, index):
                if not 0 <= p < n_out or stored[p] != "unwritten":
                    raise _NotRead(f"{op.where}: value {p} of the output stored twice, or past its values")
                stored[p] = registers.cells[alloc][r]
        elif op.name == COPY and len(op.operands) >= 3 and space_of(flow.type_of(op.operands[1])) == RMEM and \
                space_of(flow.type_of(op.operands[2])) == RMEM:
            src, src_regs = registers.view(op.operands[1])
            dst, dst_regs = registers.view(op.operands[2])
            moved = [registers.cells[src][r] for r in src_regs]
            for r, lane in zip(dst_regs, moved if len(moved) == len(dst_regs) else [None] * len(dst_regs)):
                registers.cells[dst][r] = lane
        else:
            registers.run(op)
    values: list[tuple[Source, ...]] = []
    feeds: dict[Source, int] = {}
    for p, held in enumerate(stored):
        if isinstance(held, str):
            raise _NotRead(f"value {p} of the output's partition is stored by no copy")
        lane = held
        if lane is None:
            raise _NotRead(f"value {p} of the output is made through an operation this reader does not follow")
        if UNSET in lane:
            raise _NotRead(f"value {p} of the output is computed from a register nothing wrote")
        if not lane:
            raise _NotRead(f"value {p} of the output is computed from no input value")
        per_input = sorted(lane)
        if len({k for k, _ in per_input}) != len(per_input):
            raise _NotRead(f"value {p} of the output combines two values of one input (not element-wise)")
        for source in per_input:
            if source in feeds:
                raise _NotRead(f"value {source[1]} of input {source[0]} feeds the output's values {feeds[source]} "
                               f"and {p} (a broadcast, not element-wise)")
            feeds[source] = p
        values.append(tuple(per_input))
    return ElementwiseRead(output, tuple(sides), tuple(values), tuple(used), threads)


def _thread_expressions(flow: KernelFlow, sides: list[SideRead]) -> tuple[str | None, ...]:
    """Each side's thread coordinate as an expression of tid where the sides take different values (None for all:
    one value)."""
    values = {s.thread for s in sides}
    if len(values) == 1:
        return tuple(None for _ in sides)
    out: list[str | None] = []
    for s in sides:
        assert s.thread is not None          # every side or none is partitioned (read before)
        text = coordinate_text(flow, s.thread)
        if isinstance(text, Untraced):
            raise _NotRead(f"{s.where}: {s.tensor} is partitioned at another thread coordinate than the output, "
                           f"which is not read ({text.why})")
        out.append(None if text == THREAD else text)
    return tuple(out)


__all__ = ["ElementwiseRead", "SideRead", "read_elementwise"]
