"""Which global tensor a TMA partition's atom was made for, and whose tiles the partition takes.

The host makes a TMA atom and the coordinate tensor of its tiles together, from one global tensor:

    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%view, %smem_layout, %cta_tiler)
    %view = cute.make_view(%iter, %lay)        %iter = cute.get_iter(%arg0)       (the host's argument 0)

and launches the kernel with both.  In the kernel, `cute_nvgpu.atom.tma_partition(atom, cta_coord, cta_layout,
smem, gmem)` takes `gmem` from a coordinate tensor (local_tile, an MMA's partition, group_modes of it): the tiles the
atom copies are the tiles of that tensor, fetched through the atom's tensor map.  When the two come from TMA makers of
different global tensors, the atom copies another tensor's tiles at those coordinates (A's tensor map at B's tile
coordinates).  A coordinate tensor of another origin (an identity tensor the host builds with `make_view`, as the
block-scaled kernels' scale factors do) is not compared.

The tiles a TMA load takes along its tensor's first mode (M of A, N of B) are read too: the coordinate tensor's
first mode moves along one dimension of the global tensor (its stride `1@d`), and the kernel picks a CTA's tile by
slicing (`cute.slice(%res_target_tensors, %coord)`, `%coord = cute.make_coord(%m, %l)` of type `(_,?,_,?)`) or by
`cute.local_tile(tensor, tiler, coord)` at a value along each mode: the values at modes whose strides move along that
dimension (`mn_tile_indices`) are where the load takes its M (A) or N (B) tiles.  A's and B's of one MMA taken at one
value compute only C's tiles where m = n."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Union

from .flow import (ADD_OFFSET, COORD_TYPE, GET_ITER, LOCAL_TILE, MAKE_COORD, MAKE_EXEC_TMA, MAKE_VIEW, RECAST_ITER,
                   SET_VALUE, SLICE, KernelFlow, Partition)
from .mlir_text import Function, Op, Value

TMA_PARTITION_OPERANDS = 5          # tma_partition(atom, cta_coord, cta_layout, smem, gmem)
GMEM_OPERAND = 4
COORD_TENSOR = "coord_tensor"       # the type word of a coordinate tensor (`!cute.coord_tensor<...>`)
TMA_MAKER = "tma"                   # a host op that makes a TMA atom: cute_nvgpu.atom.make_*tma* (atom, tensor)
# host ops through which a global tensor's view is followed back to what it views (its first operand)
HOST_VIEWS = frozenset({MAKE_VIEW, GET_ITER, RECAST_ITER, ADD_OFFSET})
MAX_CHAIN = 64
# the operand of a slice / local_tile that is the tensor it indexes, and the one that is its coordinate
INDEXED = {SLICE: (0, 1), LOCAL_TILE: (0, 2)}
DYNAMIC = "?"                       # a coordinate's leaf the op takes as a value
_LEAF = re.compile(r"[^(),\s]+")    # a leaf of a CuTe tuple's text: `128`, `1@0`, `1/2@0`, `?`, `_`
_BASIS = re.compile(r"-?[\d/]+@(\d+)")                    # a coordinate tensor's stride: `128@1` moves along dim 1
_COORD_TENSOR_TYPE = re.compile(r'!cute\.coord_tensor<"[^"]*",\s*"([^"]*)">')
Tree = Union[str, tuple["Tree", ...]]


@dataclass(frozen=True)
class TmaTensors:
    """The global tensor a TMA atom's tensor map was made from, and the one whose tiles its partition takes, each
    named as the host value they are made from (`host argument N`, or the value and its line)."""
    map_of: str
    tiles_of: str


def _host_tensor(fn: Function, v: Value) -> str:
    """The global tensor a host value views, named: the host function's argument it is made from, or itself."""
    defining = {r: op for op in fn.ops for r in op.results}
    for _ in range(MAX_CHAIN):
        op = defining.get(v)
        if op is None or op.name not in HOST_VIEWS or not op.operands:
            break
        v = op.operands[0]
    if v in fn.arguments:
        return f"host argument {fn.arguments.index(v)}"
    return f"the host value {v} (line {v.where.line})"


def _chain(flow: KernelFlow, v: Value) -> tuple[list[Op], Value | None]:
    """The ops a coordinate tensor `v` is made by (those that tile, partition and regroup it, each followed through
    its first coordinate-tensor operand, and loops' carried values to their initial ones), and the kernel argument
    they start from (None where they do not start from one)."""
    ops: list[Op] = []
    for _ in range(MAX_CHAIN):
        op = flow.defining.get(v)
        if op is None:
            bound = flow.module.bound.get(v)
            if bound is None:
                return ops, v if v in flow.function.arguments else None
            v = bound
            continue
        ops.append(op)
        nxt = next((o for o in op.operands if COORD_TENSOR in (flow.type_of(o) or "")), None)
        if nxt is None:
            return ops, None
        v = nxt
    return ops, None


# ops that give a TMA atom what a copy needs without changing its tensor map: its executable form, its barrier
ATOM_FORMS = frozenset({MAKE_EXEC_TMA, SET_VALUE})


def atom_root(flow: KernelFlow, v: Value) -> Value:
    """The TMA atom `v` is a form of (its executable form, given a barrier): the kernel's value it was made from."""
    for _ in range(MAX_CHAIN):
        op = flow.defining.get(v)
        if op is None or op.name not in ATOM_FORMS or not op.operands:
            return v
        v = op.operands[0]
    return v


def copying_atom(flow: KernelFlow, p: Partition) -> Value | None:
    """The atom whose tensor map TMA reads through for the TMA partition `p`: the one every `cute.copy` into `p` takes
    (its destination one of `p`'s sides: the shared one of a load, the global one of a store), or `p`'s own where the
    reader follows no copy back to `p`; None where the copies into `p` take several atoms.  A copy that only reads
    `p`'s shared side (a TMA store of what a load brought) does not count."""
    taken = {atom_root(flow, op.operands[0]) for op in flow.copies
             if len(op.operands) >= 3 and flow.partition_of(op.operands[2]) is p}
    if len(taken) > 1:
        return None
    return next(iter(taken)) if taken else atom_root(flow, p.actor)


_COPY_BITS = re.compile(r"copy_bits\s*=\s*(\d+)")
_GBASIS_TEXT = re.compile(r'tma_gbasis\s*=\s*<"([^"]*)">')


def gbasis(type_text: str) -> str | None:
    """A TMA atom's box basis as its type writes it (`tma_gbasis = <"(64,32):(1@1,1@0)">`), None where it says none."""
    m = _GBASIS_TEXT.search(type_text)
    return m.group(1) if m else None


def copy_bits(type_text: str) -> int | None:
    """The bits one TMA instruction of an atom delivers (its type's `copy_bits`), None where the type says none."""
    m = _COPY_BITS.search(type_text)
    return int(m.group(1)) if m else None


def other_box(flow: KernelFlow, p: Partition) -> str | None:
    """Why the copies into the TMA partition `p` issue other boxes than the ones `p` was cut into: their atom (the
    one they all take) states another `copy_bits` or `tma_gbasis` than the atom `p` was made with (a partition made
    with B's atom, copied with A's).  None where they issue the same, or where the types do not say."""
    copying = copying_atom(flow, p)
    if copying is None or copying == atom_root(flow, p.actor):
        return None
    made, taken = (flow.type_of(v) or "" for v in (p.actor, copying))
    boxes = [(copy_bits(t), gbasis(t)) for t in (made, taken)]
    if None in boxes[0] or None in boxes[1] or boxes[0] == boxes[1]:
        return None
    (made_bits, made_basis), (taken_bits, taken_basis) = boxes
    return (f"the TMA partition (line {p.op.where.line}) was made with the atom {p.actor} (boxes of {made_bits} bits, "
            f"{made_basis}) and its copies take {copying} (boxes of {taken_bits} bits, {taken_basis}): each of the "
            "partition's boxes gets the other atom's box, which lands where this reader does not model")


def tma_tensors(flow: KernelFlow, p: Partition) -> TmaTensors | None:
    """The global tensor of the atom TMA copies `p`'s tiles with (`copying_atom`: the copies' atom, whose tensor map
    it reads through) and the one whose tiles `p` partitions, where both are made by host TMA makers (`TMA_MAKER`)
    launched with the kernel; None otherwise."""
    copying = copying_atom(flow, p)
    if len(p.op.operands) != TMA_PARTITION_OPERANDS or copying is None:
        return None
    _, coords = _chain(flow, p.op.operands[GMEM_OPERAND])
    atom, tiles = flow.host_maker(copying), flow.host_maker(coords) if coords is not None else None
    if atom is None or tiles is None:
        return None
    (atom_fn, atom_op), (tiles_fn, tiles_op) = atom, tiles
    if TMA_MAKER not in atom_op.name or TMA_MAKER not in tiles_op.name or not atom_op.operands or \
            not tiles_op.operands:
        return None
    return TmaTensors(_host_tensor(atom_fn, atom_op.operands[0]), _host_tensor(tiles_fn, tiles_op.operands[0]))


def _tree(text: str) -> Tree:
    """A CuTe tuple's text as nested tuples of its leaves' texts (`(_,?,(1@0,0))`)."""
    tree: Tree = ast.literal_eval(_LEAF.sub(lambda m: repr(m.group()), text))
    return tree


def _strides(type_text: str | None) -> Tree | None:
    """A coordinate tensor type's strides, as a tree (`(((1@0,1@1),0),128@1,128@0,0)`)."""
    m = _COORD_TENSOR_TYPE.search(type_text or "")
    return _tree(m.group(1).rpartition(":")[2]) if m is not None else None


def _dims(stride: Tree | None) -> frozenset[int]:
    """The global dimensions a mode's stride moves along (its leaves' `N@d`)."""
    if stride is None:
        return frozenset()
    if isinstance(stride, tuple):
        return frozenset(d for s in stride for d in _dims(s))
    m = _BASIS.fullmatch(stride)
    return frozenset({int(m.group(1))}) if m is not None else frozenset()


def _values_at(coord: Tree, stride: Tree | None, values: list[Value], dim: int, found: set[Value],
               flow: KernelFlow) -> None:
    """The coordinate's `?` leaves take `values` in order; those at a mode whose stride moves along `dim` alone (and
    that are no constant) are added to `found`."""
    if isinstance(coord, tuple):
        strides = stride if isinstance(stride, tuple) and len(stride) == len(coord) else (None,) * len(coord)
        for c, st in zip(coord, strides):
            _values_at(c, st, values, dim, found, flow)
    elif coord == DYNAMIC and values:
        v = values.pop(0)
        if _dims(stride) == {dim} and flow.integer(v) is None:
            found.add(v)


def _indexed_at(flow: KernelFlow, op: Op, dim: int, found: set[Value]) -> None:
    """The values a slice or local_tile `op` indexes its tensor along `dim` at, added to `found`."""
    tensor_at, coord_at = INDEXED[op.name]
    if len(op.operands) <= max(tensor_at, coord_at):
        return
    coord_op = flow.defining.get(op.operands[coord_at])
    if coord_op is None or coord_op.name != MAKE_COORD or not coord_op.result_types:
        return
    m = COORD_TYPE.fullmatch(coord_op.result_types[0].strip())
    if m is None:
        return
    _values_at(_tree(m.group(1)), _strides(flow.type_of(op.operands[tensor_at])), list(coord_op.operands), dim,
               found, flow)


def mn_tile_indices(flow: KernelFlow, p: Partition, uses: Callable[[Value], list[Op]]) -> frozenset[Value]:
    """The values a TMA partition takes its tiles along its tensor's first mode at (M of A, N of B): the coordinates
    of the slices of its partitioned tiles (`uses`: the kernel's ops taking a value), and of the slices and local_tiles
    its coordinate tensor is made by back to the kernel argument, at the modes that move along the dimension the
    argument's first mode moves along; constants left out.  Empty where the argument's first mode is not one
    dimension's."""
    if len(p.op.operands) != TMA_PARTITION_OPERANDS or len(p.op.results) < 2:
        return frozenset()
    made_by, arg = _chain(flow, p.op.operands[GMEM_OPERAND])
    strides = _strides(flow.type_of(arg)) if arg is not None else None
    first = _dims(strides[0]) if isinstance(strides, tuple) and strides else frozenset()
    if len(first) != 1:
        return frozenset()
    dim = next(iter(first))
    found: set[Value] = set()
    for op in made_by:                         # backward: what the coordinate tensor is made by
        if op.name in INDEXED:
            _indexed_at(flow, op, dim, found)
    todo: list[Value] = [p.op.results[1]]
    seen: set[Value] = set()
    while todo:                                # forward: the slices of the partitioned tiles, and theirs
        v = todo.pop()
        if v in seen or len(seen) > MAX_CHAIN:
            continue
        seen.add(v)
        for op in uses(v):
            if op.name == SLICE and op.operands[0] == v:
                _indexed_at(flow, op, dim, found)
                todo.extend(op.results)
    return frozenset(found)
