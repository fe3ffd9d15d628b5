"""Which bytes of a kernel's shared allocations something the kernel runs may write: the DSL reader's account of
shared-memory writes, read so that a buffer whose bytes nothing writes can be said unwritten (a reader of it reads
memory no one filled: theorem 23 refutes it).

Every value made from a shared allocation is followed forward through the operations that re-view or re-point it
(`PASS_THROUGH`); every operation that takes such a value must be one whose writes this module knows: a `cute.copy`
writes its destination's view and, through a TMA atom given a barrier (`set_value`), the barrier; a `cute.gemm`
its accumulator; the mbarrier and tcgen05 operations listed in `SMALL_WRITES` a few bytes at their pointer; the
operations of `READS` nothing.  Any other operation on such a value, a shared pointer made from no allocation, or
a write whose bytes are not traced, and the account is refused (`str`): nothing is then said unwritten.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..algebra.inttuple import flatten_to_tuple
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, Swizzle
from .cute_types import TypeTextError, int_tuple_of
from .flow import (ADD_OFFSET, ALLOCA, CAST, COPY, GEMM, GET_ITER, MAKE_VIEW, MMA_PARTITION, MAKE_FRAGMENT, PARTITION_D,
                   PARTITION_S, RECAST_ITER, RETILE, REVIEWS, SAME_ITERATOR, SET_VALUE, SMEM, TMA_BARRIER_FIELD,
                   TMA_PARTITION, KernelFlow, SharedView, set_value_field)
from .mlir_text import Op, Value, Where

MAPA = "nvvm.mapa"                  # another CTA's copy of a shared address
# operations whose results stand for the same shared bytes as their first operand, writing none (a cast to an LLVM
# pointer, another CTA's copy of the same offset, a TMA atom given its barrier)
PASS_THROUGH = REVIEWS | SAME_ITERATOR | frozenset({
    GET_ITER, ADD_OFFSET, RECAST_ITER, MAKE_VIEW, PARTITION_S, PARTITION_D, RETILE, MMA_PARTITION, MAKE_FRAGMENT,
    TMA_PARTITION, CAST, MAPA, SET_VALUE})
# operations that read shared memory (or its layout) and write none of it; their results address no shared bytes
READS = frozenset({"cute.get_layout", "nvvm.mbarrier.try_wait.parity", "nvvm.mbarrier.wait.parity",
                   "cute_nvgpu.arch.sm100.retrieve_tmem_ptr", "cute.memref.load", "cute.memref.load_vec"})
# operations that store into a tensor they take (the operand's index): somewhere in its view
STORES = {"cute.memref.store": 0, "cute.memref.store_vec": 1}
MBARRIER_BYTES = 8          # an mbarrier object
# operations that write a few bytes at the shared pointer they take: the bytes
SMALL_WRITES = {"nvvm.mbarrier.init": MBARRIER_BYTES, "nvvm.mbarrier.arrive": MBARRIER_BYTES,
                "nvvm.mbarrier.arrive.expect_tx": MBARRIER_BYTES, "nvvm.tcgen05.commit": MBARRIER_BYTES,
                "nvvm.cp.async.mbarrier.arrive": MBARRIER_BYTES,
                "cute_nvgpu.arch.sm100.alloc_tmem": 4,                  # the allocated tensor-memory address
                "nvvm.clusterlaunchcontrol.try.cancel": 16}             # the cancel request's response
_SHARED_TYPES = ("!cute.memref", "!cute.ptr")
_LLVM_SHARED = ("!llvm.ptr<3>", "!llvm.ptr<7>")      # shared::cta and shared::cluster


@dataclass(frozen=True)
class Written:
    """Bytes [start, end) of a shared allocation an operation may write."""
    allocation: Value
    start: int
    end: int
    by: Where
    what: str


@dataclass(frozen=True)
class SharedWrites:
    """Every write of the kernel to its shared allocations, and how many operations on them were read."""
    written: tuple[Written, ...]
    operations: int

    def over(self, view: SharedView) -> list[Written]:
        """The writes that may reach a byte of `view` (its pointer's offset up to its layout's extent)."""
        start, end = _extent(view)
        return [w for w in self.written if w.allocation == view.pointer.allocation.value and w.start < end
                and start < w.end]


def _extent(view: SharedView) -> tuple[int, int]:
    """Bytes of its allocation that hold every byte `view` may reach, from its pointer to its layout's cosize.  A
    swizzle flips bits M..M+B-1 of what it acts on, so it keeps each address within its aligned block of 2^(M+B): a
    pointer's swizzle (on byte addresses) widens the range to whole such blocks (a block more on each side where the
    allocation's base is not aligned to one), a composed layout's (on element offsets from the pointer) rounds its
    end up to one.  The allocation's end where the layout is not read.  Wider than the view, never narrower: a write is
    said to miss a reader's bytes only where these ranges miss."""
    start, size = view.pointer.offset, view.pointer.allocation.bytes
    try:
        layout = view.memref.layout()
    except TypeTextError:
        return start, size
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    if not isinstance(inner, Layout) or any(not isinstance(d, int) or d < 0 for d in flatten_to_tuple(inner.stride)):
        return 0, size                     # a stride below 0 reaches before the pointer: the whole allocation
    cosize = int(inner.cosize())
    if isinstance(layout, ComposedLayout) and isinstance(layout.a, Swizzle):
        block = 1 << (layout.a.B + layout.a.M)
        cosize = -(-cosize // block) * block
    end = start + math.ceil(cosize * max(1, view.memref.bits) / 8)
    sw = view.memref.ptr_swizzle
    if isinstance(sw, Swizzle) and sw.B:
        block = 1 << (sw.B + sw.M)
        if view.pointer.allocation.align % block:
            start, end = start - block, end + block
        start, end = start // block * block, -(-end // block) * block
    return max(0, start), min(size, end)


def _shared_typed(types: tuple[str | None, ...]) -> bool:
    """Whether a type names shared memory: a CuTe tensor or pointer in it, an LLVM pointer to it (or to a cluster's)."""
    return any(t is not None and ((SMEM in t and t.startswith(_SHARED_TYPES)) or t.startswith(_LLVM_SHARED))
               for t in types)


class _Account:
    def __init__(self, flow: KernelFlow) -> None:
        self.flow = flow
        self.derived: set[Value] = set(flow.allocations)
        self.written: list[Written] = []
        self.operations = 0

    def is_derived(self, v: Value) -> bool:
        for _ in range(64):          # a loop's carried argument: its initial value's
            if v in self.derived:
                return True
            if v not in self.flow.module.bound:
                return False
            v = self.flow.module.bound[v]
        return False

    def view_bytes(self, v: Value, op: Op) -> Written | str:
        """The bytes a copy's or a gemm's shared operand `v` spans: its partition's view, or its own."""
        view = self.flow.view(self.flow.root(v))
        for _ in range(16):           # a partition (of a partition ...) of a view: the view under them
            p = self.flow.partition_of(v)
            if p is None:
                break
            v = p.target
            view = self.flow.view(self.flow.root(v))
        if not isinstance(view, SharedView):
            return f"{op.where}: {op.name} writes a shared tensor this reader does not trace to its view ({view})"
        start, end = _extent(view)
        return Written(view.pointer.allocation.value, start, end, op.where, f"{op.name} into {view.value}")

    def pointer_bytes(self, v: Value, width: int, op: Op) -> Written | str:
        """`width` bytes at the shared pointer `v` (through casts and another CTA's map of it)."""
        for _ in range(64):
            made = self.flow.defining.get(v)
            if made is None or made.name not in (CAST, MAPA) or not made.operands:
                break
            v = made.operands[0]
        p = self.flow.pointer(v)
        if not isinstance(p, str):
            return Written(p.allocation.value, p.offset, p.offset + width, op.where, op.name)
        base = self.before_run_time_offset(v)
        q = self.flow.pointer(base) if base is not None else p
        if isinstance(q, str):
            return f"{op.where}: {op.name} writes at a shared pointer this reader does not trace ({p})"
        # a pointer moved by an offset known only at run time (a pipeline's barrier of the stage at hand): somewhere
        # in the struct field its static part points into, else anywhere from there to the allocation's end
        a = q.allocation
        field = a.field_at(q.offset)
        start, end = (field.offset, field.offset + field.bytes) if field is not None else (q.offset, a.bytes)
        return Written(a.value, start, end, op.where, f"{op.name} (at an offset known at run time)")

    def before_run_time_offset(self, v: Value) -> Value | None:
        """The pointer an `add_offset` by an offset known only at run time moves, on the way `v` is made (through
        the operations that re-point it), or None."""
        for _ in range(256):
            made = self.flow.defining.get(v)
            if made is None or not made.operands:
                return None
            if made.name == ADD_OFFSET and len(made.operand_types) > 1 and \
                    int_tuple_of(made.operand_types[1] or "") is None:
                return made.operands[0]
            if made.name not in PASS_THROUGH:
                return None
            v = made.operands[0]
        return None

    def barrier_of(self, atom: Value, op: Op) -> Written | str | None:
        """The barrier a TMA atom given one by `set_value` completes (its bytes), None when the atom takes none."""
        made = self.flow.defining.get(atom)
        if made is None or not self.is_derived(atom):
            return None
        if made.name != SET_VALUE:
            return f"{op.where}: {op.name} takes an atom made from shared memory by {made.name}, which is not read"
        if set_value_field(made) != TMA_BARRIER_FIELD:     # another field from shared memory: not read
            return f"{made.where}: {made.name} gives an atom a shared value other than its TMA barrier"
        pointers = [v for v in made.operands if self.is_derived(v)]
        if len(pointers) != 1:
            return f"{made.where}: {made.name} takes {len(pointers)} shared values; one barrier is read"
        found = self.pointer_bytes(pointers[0], MBARRIER_BYTES, op)
        return replace(found, what=f"{op.name}'s barrier") if isinstance(found, Written) else found

    def writes(self, op: Op, taken: list[int]) -> list[Written] | str:
        """What `op`, whose operands `taken` are shared values, writes."""
        if op.name == COPY:
            out: list[Written | str | None] = [self.barrier_of(op.operands[0], op)] if op.operands else []
            out += [self.view_bytes(op.operands[i], op) for i in taken if i >= 2]
        elif op.name == GEMM:
            out = [self.view_bytes(op.operands[1], op)] if 1 in taken else []      # (mma, d, a, b, c): d
        elif op.name in STORES:
            out = [self.view_bytes(op.operands[i], op) for i in taken if i == STORES[op.name]]
            if any(i != STORES[op.name] for i in taken):     # a shared value stored as data: not followed
                return f"{op.where}: {op.name} stores a shared value; where it is used after is not read"
        elif op.name in SMALL_WRITES:
            out = [self.pointer_bytes(op.operands[i], SMALL_WRITES[op.name], op) for i in taken]
        else:
            return f"{op.where}: {op.name} takes shared memory; what it writes there is not read"
        refused = next((w for w in out if isinstance(w, str)), None)
        return refused if refused is not None else [w for w in out if isinstance(w, Written)]

    def read(self) -> SharedWrites | str:
        for op in self.flow.function.ops:
            taken = [i for i, v in enumerate(op.operands) if self.is_derived(v)]
            # a shared value made from none of the allocations this reader follows (another allocation, a pointer
            # made from an integer, a value carried out of a region): where it is met, the account stops
            given = list(op.operand_types) + [None] * (len(op.operands) - len(op.operand_types))
            if any(i not in taken and _shared_typed((self.flow.type_of(v) or given[i],))
                   for i, v in enumerate(op.operands)):
                return f"{op.where}: {op.name} takes a shared value this reader does not trace to an allocation"
            if not taken:
                if any(_shared_typed((self.flow.type_of(r),)) for r in op.results) and \
                        not (op.name == ALLOCA and op.results and op.results[0] in self.flow.allocations):
                    return f"{op.where}: {op.name} makes a shared value this reader does not trace to an allocation"
                continue
            self.operations += 1
            if op.name in PASS_THROUGH:      # its results on shared memory (a TMA partition's global one is not)
                stated: list[str | None] = [t for t in op.result_types[:len(op.results)]]
                types = stated + [None] * (len(op.results) - len(stated))     # a type the text does not state: None
                self.derived.update(v for v, t in zip(op.results, types)
                                    if op.name == SET_VALUE or _shared_typed((t or self.flow.type_of(v),))
                                    or (t or self.flow.type_of(v)) is None)
            elif op.name not in READS:
                found = self.writes(op, taken)
                if isinstance(found, str):
                    return found
                self.written += found
        return SharedWrites(tuple(self.written), self.operations)


def shared_writes(flow: KernelFlow) -> SharedWrites | str:
    """Every write the kernel makes to its shared allocations, or why they are not all known (see the module)."""
    return _Account(flow).read()


def view_text(view: SharedView) -> str:
    """`view`'s bytes in words: [start, end) of its allocation."""
    start, end = _extent(view)
    return f"bytes [{start}, {end}) of the shared allocation at {view.pointer.allocation.where}"


__all__ = ["SharedWrites", "Written", "shared_writes", "view_text"]
