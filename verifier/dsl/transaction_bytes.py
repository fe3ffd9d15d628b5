"""The bytes a producer arms a TMA barrier with, and the loads that complete on it, read back from the IR (the checks
theorem 41 proves).

    %29 = builtin.unrealized_conversion_cast %ptr : !cute.ptr<i64, smem> to !llvm.ptr<3>
    %30 = nvvm.mbarrier.arrive.expect_tx %29, %c32768_i32          the barrier armed for 32768 bytes
    %26 = cute_nvgpu.atom.set_value<tma_bar>(%25, %ptr)            a TMA atom given the barrier
    cute.copy(%26, %coords, %smem_stage)                            ... a load completing on it

A barrier is named by its pointer: the value it is moved from by `add_offset`s (a pipeline's barrier array) and the
offsets (static, or the values they are made of), so the arming and the loads of one stage name it alike.  Each
arming op with a constant byte count is paired with the TMA loads whose barrier has its name and that run in the same
loop body (so one arming and one round of loads make a phase); a load counts the shared tile its tma_partition fills
(the partition's shared tensor, a stage of it: the whole tile, also where a multicast load issues a part of it) times
its atom's `num_cta` (a 2-CTA MMA's loads complete both CTAs' tiles on the leader's barrier).  The tma_partition cuts
the tile into boxes of its own atom (`copy_bits`, the bits one TMA instruction delivers); a copy whose atom delivers
another number of bits a box (a partition made with B's atom, copied with A's) issues as many instructions as the
partition has boxes, each delivering its own atom's bits, and counts that.  A barrier is not read
where a load of it runs in another loop body, where some other NVVM operation than the mbarrier's own completes
bytes on it (a bulk copy this reader does not model), or where the kernel issues TMA copies as raw NVVM operations."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout
from .cute_types import ELEMENT_BITS, TypeTextError, int_tuple_of, memref_of
from .flow import (ADD_OFFSET, CAST, RAW_TMA, RECAST_ITER, TMA_BARRIER_FIELD, KernelFlow, Role, enclosing_loop,
                   set_value_field)
from .mlir_text import Op, Value
from .tma_tensors import copy_bits

EXPECT_TX = ("nvvm.mbarrier.arrive.expect_tx", "nvvm.mbarrier.expect_tx")
# the mbarrier's own operations, which complete no transaction bytes on it
MBARRIER_OWN = ("nvvm.mbarrier.", "nvvm.tcgen05.commit", "nvvm.cp.async.mbarrier.")
TMA_LOAD = "tma_load"                  # in a TMA load atom's type
MAKE_INT_TUPLE = "cute.make_int_tuple"
BYTE = 8
MAX_TILE = 1 << 18                     # elements of a shared tile this reader counts
_NUM_CTA = re.compile(r"num_cta\s*=\s*(\d+)")

Offset = int | tuple[Value, ...]
BarrierName = tuple[Value, tuple[Offset, ...]]


@dataclass(frozen=True)
class Load:
    copy: Op
    bytes: int
    ctas: int
    by: str


@dataclass(frozen=True)
class Transaction:
    arming: Op
    armed: int
    loads: tuple[Load, ...]


def barrier_name(flow: KernelFlow, v: Value) -> BarrierName | None:
    """The barrier pointer `v` names: its root and the offsets moved from it (None: not a pointer this reader
    follows)."""
    offsets: list[Offset] = []
    cur = v
    for _ in range(64):
        op = flow.defining.get(cur)
        if op is None or not op.operands:
            return cur, tuple(reversed(offsets))
        if op.name in (CAST, RECAST_ITER):
            cur = op.operands[0]
        elif op.name == ADD_OFFSET and len(op.operands) == 2:
            n = int_tuple_of(op.operand_types[1] or "") if len(op.operand_types) > 1 else None
            if n is not None:
                offsets.append(n)
            else:
                made = flow.defining.get(op.operands[1])
                if made is None or made.name != MAKE_INT_TUPLE:
                    return None
                offsets.append(tuple(made.operands))
            cur = op.operands[0]
        else:
            return cur, tuple(reversed(offsets))
    return None


def _load_barrier(flow: KernelFlow, atom: Value) -> Value | None:
    """The barrier a TMA load's atom was given (`set_value<tma_bar>`), followed through its other forms."""
    cur = atom
    for _ in range(64):
        op = flow.defining.get(cur)
        if op is None or not op.operands:
            return None
        if set_value_field(op) == TMA_BARRIER_FIELD and len(op.operands) > 1:
            return op.operands[1]
        cur = op.operands[0]
    return None


def tile_bytes(type_text: str) -> int | str:
    """The bytes of one stage of a shared tensor whose first mode is the tile (a tma_partition's shared side): its
    distinct elements (a scale tile's broadcast modes, stride 0, hold one each) times the element width; or why not."""
    try:
        memref = memref_of(type_text)
        layout = memref.layout()
    except TypeTextError as e:
        return f"the shared tile is not read ({e})"
    bits = ELEMENT_BITS.get(memref.element)
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    if bits is None or not isinstance(inner, Layout) or not inner.is_static() or int(inner.mode(0).size()) > MAX_TILE:
        return f"the shared tile is not static, of a known element width and at most {MAX_TILE} elements"
    tile = len(set(inner.mode(0).values())) * bits
    if tile % BYTE:
        return "the shared tile is not a whole number of bytes"
    return tile // BYTE


def _tile_bytes(flow: KernelFlow, copy: Op) -> tuple[int, str] | str:
    """The bytes the load delivers a stage, and what it is: the shared tile (a stage) its tma_partition fills, or,
    where the copy's atom delivers other bits a box than the partition's atom, the partition's boxes times the
    copy's."""
    part = flow.partition_of(copy.operands[2])
    if part is None or part.role is not Role.TMA or len(part.op.operands) < 4:
        return f"{copy.where}: the load's shared destination is not a tma_partition this reader follows"
    smem = part.op.operands[3]
    n = tile_bytes(flow.type_of(smem) or "")
    if isinstance(n, str):
        return f"{part.op.where}: {n}"
    what = f"{smem} (tma_partition at {part.op.where})"
    boxed = copy_bits(flow.type_of(part.op.operands[0]) or part.op.operand_types[0] or "")
    copied = copy_bits(flow.type_of(copy.operands[0]) or copy.operand_types[0] or "")
    if boxed is None or copied is None or boxed == copied:
        return n, what
    if (n * BYTE) % boxed or copied % BYTE:
        return (f"{copy.where}: the copy's atom delivers {copied} bits a box, the partition's atom {boxed}, which "
                f"do not divide its {n}-byte tile")
    boxes = n * BYTE // boxed
    return boxes * copied // BYTE, (f"{what}: {boxes} boxes of its atom's {boxed // BYTE} bytes, each copied by "
                                    f"an atom of {copied // BYTE} bytes")


def transactions(flow: KernelFlow) -> tuple[list[Transaction], list[tuple[Op, str]]]:
    """Each arming with its loads, and the armings not read (with why)."""
    ops = flow.function.ops
    if any(op.name.startswith(RAW_TMA) for op in ops):
        return [], [(op, "the kernel issues TMA copies as NVVM operations, whose barriers this reader does not "
                         "follow") for op in ops if op.name.startswith(EXPECT_TX)]
    loads: dict[BarrierName, list[Op]] = {}
    for c in flow.copies:
        if len(c.operands) < 3 or TMA_LOAD not in (flow.type_of(c.operands[0]) or c.operand_types[0] or ""):
            continue
        barrier = _load_barrier(flow, c.operands[0])
        name = barrier_name(flow, barrier) if barrier is not None else None
        if name is not None:
            loads.setdefault(name, []).append(c)
    foreign: set[BarrierName] = set()
    for op in ops:               # another NVVM operation on a barrier may complete bytes on it
        if op.name.startswith("nvvm.") and not op.name.startswith(MBARRIER_OWN):
            for v in op.operands:
                name = barrier_name(flow, v)
                if name is not None:
                    foreign.add(name)
    found: list[Transaction] = []
    unread: list[tuple[Op, str]] = []
    for op in ops:
        if not op.name.startswith(EXPECT_TX) or len(op.operands) < 2:
            continue
        armed = flow.integer(op.operands[1])
        name = barrier_name(flow, op.operands[0])
        if armed is None or name is None:
            unread.append((op, "its byte count or its barrier is a value this reader does not follow"))
            continue
        if name in foreign:
            unread.append((op, "another NVVM operation than the mbarrier's own takes the barrier"))
            continue
        mine = loads.get(name, [])
        if not mine:
            unread.append((op, "no TMA load this reader follows completes on the barrier it arms"))
            continue
        if any(enclosing_loop(c) is not enclosing_loop(op) for c in mine):
            unread.append((op, "a TMA load completing on the barrier runs in another loop body than the arming"))
            continue
        got: list[Load] = []
        for c in mine:
            tile = _tile_bytes(flow, c)
            if isinstance(tile, str):
                unread.append((op, tile))
                break
            m = _NUM_CTA.search(flow.type_of(c.operands[0]) or c.operand_types[0] or "")
            got.append(Load(c, tile[0], int(m.group(1)) if m else 1, tile[1]))
        else:
            found.append(Transaction(op, armed, tuple(got)))
    return found, unread


__all__ = ["Load", "Transaction", "barrier_name", "tile_bytes", "transactions"]
