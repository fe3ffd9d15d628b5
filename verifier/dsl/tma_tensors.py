"""Which global tensor a TMA partition's atom was made for, and whose tiles the partition takes.

The host makes a TMA atom and the coordinate tensor of its tiles together, from one global tensor:

    %non_exec_atom, %tma_tensor = cute_nvgpu.atom.make_non_exec_tiled_tma_load(%view, %smem_layout, %cta_tiler)
    %view = cute.make_view(%iter, %lay)        %iter = cute.get_iter(%arg0)       (the host's argument 0)

and launches the kernel with both.  In the kernel, `cute_nvgpu.atom.tma_partition(atom, cta_coord, cta_layout,
smem, gmem)` takes `gmem` from a coordinate tensor (local_tile, an MMA's partition, group_modes of it): the tiles the
atom copies are the tiles of that tensor, fetched through the atom's tensor map.  When the two come from TMA makers of
different global tensors, the atom copies another tensor's tiles at those coordinates (A's tensor map at B's tile
coordinates).  A coordinate tensor of another origin (an identity tensor the host builds with `make_view`, as the
block-scaled kernels' scale factors do) is not compared."""
from __future__ import annotations

from dataclasses import dataclass

from .flow import KernelFlow, Partition
from .mlir_text import Function, Op, Value

TMA_PARTITION_OPERANDS = 5          # tma_partition(atom, cta_coord, cta_layout, smem, gmem)
GMEM_OPERAND = 4
COORD_TENSOR = "coord_tensor"       # the type word of a coordinate tensor (`!cute.coord_tensor<...>`)
TMA_MAKER = "tma"                   # a host op that makes a TMA atom: cute_nvgpu.atom.make_*tma* (atom, tensor)
# host ops through which a global tensor's view is followed back to what it views (its first operand)
HOST_VIEWS = frozenset({"cute.make_view", "cute.get_iter", "cute.recast_iter", "cute.add_offset"})
MAX_CHAIN = 64


@dataclass(frozen=True)
class TmaTensors:
    """The global tensor a TMA atom's tensor map was made from, and the one whose tiles its partition takes, each
    named as the host value they are made from (`host argument N`, or the value and its line)."""
    map_of: str
    tiles_of: str


def _maker(flow: KernelFlow, v: Value) -> tuple[Function, Op] | None:
    """The host op that made the value launched as the kernel argument `v`."""
    host = flow.host_values.get(v)
    if host is None:
        return None
    fn, hv = host
    op = next((op for op in fn.ops if hv in op.results), None)
    return (fn, op) if op is not None else None


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


def _coordinates(flow: KernelFlow, v: Value) -> Value | None:
    """The kernel argument a coordinate tensor `v` is taken from (through the ops that tile, partition and regroup
    it, each its first coordinate-tensor operand), or None."""
    for _ in range(MAX_CHAIN):
        op = flow.defining.get(v)
        if op is None:
            bound = flow.module.bound.get(v)
            if bound is None:
                return v if v in flow.function.arguments else None
            v = bound
            continue
        nxt = next((o for o in op.operands if COORD_TENSOR in (flow.type_of(o) or "")), None)
        if nxt is None:
            return None
        v = nxt
    return None


def tma_tensors(flow: KernelFlow, p: Partition) -> TmaTensors | None:
    """A TMA partition's atom's global tensor and the one whose tiles it partitions, where both are made by host TMA
    makers (`TMA_MAKER`) launched with the kernel; None otherwise."""
    if len(p.op.operands) != TMA_PARTITION_OPERANDS:
        return None
    coords = _coordinates(flow, p.op.operands[GMEM_OPERAND])
    atom, tiles = _maker(flow, p.actor), _maker(flow, coords) if coords is not None else None
    if atom is None or tiles is None:
        return None
    (atom_fn, atom_op), (tiles_fn, tiles_op) = atom, tiles
    if TMA_MAKER not in atom_op.name or TMA_MAKER not in tiles_op.name or not atom_op.operands or \
            not tiles_op.operands:
        return None
    return TmaTensors(_host_tensor(atom_fn, atom_op.operands[0]), _host_tensor(tiles_fn, tiles_op.operands[0]))
