"""The data flow of a CuTe DSL kernel, as far as the checks need it.

    shared allocation  %smem = cute.memref.alloca() : !cute.memref<i8, smem, align<A>, "N:1">
    pointer            cute.get_iter(%smem), cute.add_offset(%p, "OFFSET"), cute.recast_iter(%p) (element, swizzle)
    view               cute.make_view(%ptr, %layout) : !cute.memref<T, smem, ...>
    partitions         cute.tiled.copy.partition_S / partition_D (tiled copy, view), cute.tiled.copy.retile (tiled
                       copy, fragment), cute.tiled.mma.partition A|B|C (tiled MMA, view),
                       cute.mma.make_fragment A|B|C (tiled MMA, partition), cute_nvgpu.atom.tma_partition (TMA atom,
                       ..., view, coordinates)
    uses               cute.copy (atom or tiled copy, source, destination), cute.gemm (tiled MMA, D, A, B, C)

A value's root follows the operations that re-view a tensor without moving data (slice, group_modes, divides,
get_iter / make_view of the same iterator, ...) back to the partition or view it came from.  A host function's
values reach the kernel through `cuda.launch_ex` (or `gpu.launch_func`) arguments, in order.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import Enum

from ..algebra.swizzle import Swizzle
from .cute_types import (ELEMENT_BITS, MemrefType, TypeTextError, int_tuple_of, is_type, memref_of, ptr_of)
from .mlir_text import Function, Module, Op, Value, Where

# operations that re-view the tensor (or iterator) of their first operand without moving data
REVIEWS = frozenset({
    "cute.slice", "cute.derefine", "cute.group_modes", "cute.append_to_rank", "cute.logical_divide",
    "cute.zipped_divide", "cute.tiled_divide", "cute.flat_divide", "cute.get_iter", "cute.make_view",
    "cute.local_tile", "cute.local_partition", "cute.make_tensor", "cute.flatten", "cute.select", "cute.coalesce",
    "cute.filter_zeros", "cute.group", "cute.recast_tensor", "cute.dice", "cute.domain_offset",
})
# operations that give a tensor another layout over the same iterator (its first element does not move)
SAME_ITERATOR = frozenset({"cute.composition", "cute.logical_divide", "cute.zipped_divide", "cute.tiled_divide",
                           "cute.flat_divide", "cute.group_modes", "cute.coalesce", "cute.append_to_rank"})
ALLOCA = "cute.memref.alloca"
COMPOSITION = "cute.composition"
GET_ITER, ADD_OFFSET, RECAST_ITER, MAKE_VIEW = "cute.get_iter", "cute.add_offset", "cute.recast_iter", "cute.make_view"
PARTITION_S, PARTITION_D = "cute.tiled.copy.partition_S", "cute.tiled.copy.partition_D"
MAKE_COORD, CONSTANT = "cute.make_coord", "arith.constant"
SLICE, LOCAL_TILE = "cute.slice", "cute.local_tile"
COORD_TYPE = re.compile(r'!cute\.coord<"(.*)">')      # a make_coord's type: its coordinate's text, `(_,?)`
_INTEGER = re.compile(r"^\s*(-?\d+)\s*(?::|$)")     # an arith.constant's head: `128` or `128 : i32`
_STRUCT_FIELDS = re.compile(r"smem\.struct_fields\s*=\s*\[([^\]]*)\]")
_STRUCT_FIELD = re.compile(r'"(\w+):(\d+):(\d+)"')
RETILE = "cute.tiled.copy.retile"
MMA_PARTITION, MAKE_FRAGMENT = "cute.tiled.mma.partition", "cute.mma.make_fragment"
TMA_PARTITION = "cute_nvgpu.atom.tma_partition"
COPY, GEMM = "cute.copy", "cute.gemm"
IF, FOR, WHILE, PARALLEL = "scf.if", "scf.for", "scf.while", "scf.parallel"
LOOPS = (FOR, WHILE, PARALLEL)                   # the operations whose region runs again
CAST = "builtin.unrealized_conversion_cast"      # a value of one type as another (a CuTe pointer as an LLVM one)
MAKE_EXEC_TMA, SET_VALUE = "cute_nvgpu.atom.make_exec_tma", "cute_nvgpu.atom.set_value"   # a TMA atom's forms
TMA_BARRIER_FIELD = "tma_bar"       # set_value<tma_bar>: the mbarrier a TMA load's transaction completes
_SET_FIELD = re.compile(r"<(\w+)>")  # set_value's field: `<tma_bar>(%atom, %ptr)`
# operations that move or redirect tiles outside the cute dialect, which this reader does not trace: each met is listed
RAW_TMA = "nvvm.cp.async.bulk.tensor."          # a TMA copy issued as NVVM's own operation
UPDATE_TMA_DESC = "cute_nvgpu.update_tma_desc"   # a TMA atom's tensor map rewritten at run time (grouped kernels)
MAKE_S2T_COPY = "cute_nvgpu.atom.make_s2t_copy"  # a shared -> tensor-memory copy (tcgen05.cp: MMA scale factors)
UNTRACED = {RAW_TMA: ("a TMA copy issued as an NVVM operation", "not read: which shared view it writes and which "
                      "tensor map it reads are not traced (the checks describe the TMA atoms' own partitions)"),
            UPDATE_TMA_DESC: ("a TMA atom's tensor map rewritten at run time", "not read: the checks use the tensor "
                              "the atom was made from, not the one written here"),
            MAKE_S2T_COPY: ("a shared -> tensor-memory tiled copy (tcgen05.cp, as a block-scaled MMA's scale factors "
                            "take)", "not checked: no check models where tcgen05.cp puts each element in tensor "
                            "memory for the MMA (the scale factors' shared layout is checked against their TMA)")}
LAUNCHES = ("cuda.launch_ex", "gpu.launch_func", "cuda.launch")
SMEM = "smem"
USER_PARTITION = 1    # the DSL's SmemPartition.USER


class Role(str, Enum):
    SOURCE = "S"          # partition_S: the copy reads this view
    DESTINATION = "D"     # partition_D: the copy writes this view
    RETILE = "retile"     # retile: the copy's register side is this fragment
    MMA = "mma"           # tiled.mma.partition X
    FRAGMENT = "fragment" # mma.make_fragment X
    TMA = "tma"           # tma_partition


@dataclass(frozen=True)
class Allocation:
    value: Value
    bytes: int
    align: int            # what the IR says of its base
    index: int            # its place among the kernel's shared allocations, in program order
    where: Where
    partition: int | None = None   # the DSL's smem.partition_id
    placed_at: int | None = None   # bytes from the dynamic shared memory base, as the DSL's allocator places it
    fields: tuple[StructField, ...] = ()   # a shared storage struct's fields (smem.struct_fields), where it has them

    def field_at(self, offset: int) -> StructField | None:
        """The struct field whose bytes hold `offset`."""
        return next((f for f in self.fields if f.offset <= offset < f.offset + f.bytes), None)


@dataclass(frozen=True)
class StructField:
    """A field of a shared storage struct the DSL allocates (`smem.struct_fields = ["sA:114688:1024", ...]`: name,
    bytes, offset)."""
    name: str
    bytes: int
    offset: int


@dataclass(frozen=True)
class Pointer:
    allocation: Allocation
    offset: int           # bytes from the allocation's base
    element: str
    swizzle: Swizzle | None   # the pointer's swizzle (on byte addresses)


@dataclass(frozen=True)
class SharedView:
    """A tensor over shared memory as the kernel made it: its pointer and its memref type (layout, swizzle)."""
    value: Value
    pointer: Pointer
    memref: MemrefType
    where: Where
    # made by composing another view with a layout (`cute.composition`: a transposed view, sVt = sV o T): its
    # coordinates are not the view's it was made from, so it names their elements at other coordinates
    recomposed: bool = False


@dataclass(frozen=True)
class Partition:
    """One partitioning: `actor` (a tiled copy, a tiled MMA, a TMA atom) applied to `target` in `role`."""
    op: Op
    role: Role
    actor: Value
    target: Value
    operand: str | None = None     # A / B / C for the MMA's partitions and fragments
    thread: Value | None = None    # a tiled copy's partition: the thread coordinate it takes the slice of

    @property
    def result(self) -> Value:
        return self.op.results[0]


@dataclass(frozen=True)
class Skipped:
    where: Where
    what: str
    why: str
    covered_by: str | None = None   # not a check of its own: the check that proves what it does (the reason says it)

    @property
    def covered(self) -> bool:
        return self.covered_by is not None

    def __str__(self) -> str:
        return f"{self.where}: {self.what}: {self.why}"


@dataclass
class KernelFlow:
    module: Module
    function: Function
    defining: dict[Value, Op] = field(default_factory=dict)
    allocations: dict[Value, Allocation] = field(default_factory=dict)
    partitions: list[Partition] = field(default_factory=list)
    copies: list[Op] = field(default_factory=list)
    gemms: list[Op] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    host_values: dict[Value, tuple[Function, Value]] = field(default_factory=dict)   # kernel arg -> host value

    def integer(self, v: Value) -> int | None:
        """The integer `v` is, where an arith.constant of the kernel makes it."""
        op = self.defining.get(v)
        if op is None or op.name != CONSTANT:
            return None
        m = _INTEGER.match(op.head)
        return int(m.group(1)) if m else None

    def type_of(self, v: Value) -> str | None:
        """The value's type, where the text states it (a loop's carried argument: its initial value's)."""
        for _ in range(64):
            t = self.module.type_of.get(v)
            if t is not None or v not in self.module.bound:
                return t
            v = self.module.bound[v]
        return None

    def host_maker(self, v: Value) -> tuple[Function, Op] | None:
        """The host function and the op of it that made the value launched as the kernel argument `v`."""
        host = self.host_values.get(v)
        if host is None:
            return None
        fn, hv = host
        op = next((op for op in fn.ops if hv in op.results), None)
        return (fn, op) if op is not None else None

    # -- roots and pointers ---------------------------------------------------------------------------------
    def root(self, v: Value, limit: int = 256) -> Value:
        """The value `v` re-views (see REVIEWS), followed back to a partition, a view made from a pointer, an
        allocation or an argument."""
        for _ in range(limit):
            op = self.defining.get(v)
            if op is None or op.name not in REVIEWS or not op.operands:
                return v
            if op.name == MAKE_VIEW:
                parent = self.defining.get(op.operands[0])
                if parent is None or parent.name != GET_ITER:      # a view made from a pointer is a root itself
                    return v
            v = op.operands[0]
        return v

    def pointer(self, v: Value) -> Pointer | str:
        """Where a shared-memory iterator points: its allocation, byte offset, element and swizzle (or why not)."""
        offset = 0
        chain: list[Op] = []
        cur = v
        for _ in range(256):
            op = self.defining.get(cur)
            if op is None:
                return f"{cur} is not made from a shared allocation in this kernel (an argument)"
            chain.append(op)
            if not op.operands:
                return f"{op.where}: {op.name} names no operand"
            if op.name == GET_ITER:
                src = self.root(op.operands[0])
                alloc = self.allocations.get(src)
                if alloc is not None:
                    break
                view = self.view(src)
                if isinstance(view, SharedView):
                    return self._with(view.pointer, chain[:-1], offset)
                return f"{cur} is the iterator of {src}, which is not a shared allocation or view"
            if op.name in (ADD_OFFSET, RECAST_ITER) or op.name in REVIEWS:
                cur = op.operands[0]
                continue
            return f"{cur} comes from {op.name}, which this reader does not follow to an allocation"
        else:
            return f"{v}: the iterator's chain is longer than this reader follows"
        base = Pointer(alloc, 0, "i8", None)
        return self._with(base, chain[:-1], offset)

    def _with(self, base: Pointer, chain: list[Op], offset: int) -> Pointer | str:
        """Apply add_offset / recast_iter operations (`chain` runs from the use back to the base)."""
        p = base
        for op in reversed(chain):
            if op.name == ADD_OFFSET:
                n = int_tuple_of(op.operand_types[1] or "") if len(op.operand_types) > 1 else None
                if n is None:
                    return f"{op.where}: add_offset by an offset known only at run time"
                bits = ELEMENT_BITS.get(p.element)
                if bits is None:          # an offset in elements of a width this reader does not know
                    return f"{op.where}: add_offset over {p.element} elements, whose width this reader does not know"
                p = Pointer(p.allocation, p.offset + n * bits // 8, p.element, p.swizzle)
            elif op.name == RECAST_ITER:
                try:
                    t = ptr_of(op.result_types[0]) if op.result_types else None
                except TypeTextError as e:
                    return f"{op.where}: {e}"
                if t is None:
                    return f"{op.where}: recast_iter without a result type"
                p = Pointer(p.allocation, p.offset, t.element, t.swizzle)
        return p

    def view(self, v: Value) -> SharedView | str | None:
        """The shared view `v` is (None: not a shared-memory tensor; a string: why it cannot be read)."""
        t = self.type_of(v)
        if not is_type(t, "!cute.memref"):
            return None
        assert t is not None
        try:
            memref = memref_of(t)
        except TypeTextError as e:
            return str(e)
        if memref.space != SMEM:
            return None
        op = self.defining.get(v)
        if op is not None and op.name == MAKE_VIEW and op.operands:
            p = self.pointer(op.operands[0])
            if isinstance(p, str):
                return p
            return SharedView(v, p, memref, op.where)
        if op is not None and op.name in SAME_ITERATOR and op.operands:
            under = self.view(op.operands[0])          # the same elements, another layout: the result's
            if isinstance(under, SharedView):
                return SharedView(v, under.pointer if memref.ptr_swizzle == under.pointer.swizzle else
                                  Pointer(under.pointer.allocation, under.pointer.offset, memref.element,
                                          memref.ptr_swizzle), memref, op.where,
                                  under.recomposed or op.name == COMPOSITION)
            return under
        if op is not None and op.name == ALLOCA and v in self.allocations:
            a = self.allocations[v]
            return SharedView(v, Pointer(a, 0, memref.element, memref.ptr_swizzle), memref, op.where)
        return f"{v} is a shared tensor this reader cannot trace to its allocation ({op.name if op else 'argument'})"

    # -- partitions -----------------------------------------------------------------------------------------
    def partitions_of(self, actor: Value, role: Role | None = None) -> list[Partition]:
        return [p for p in self.partitions if p.actor == actor and (role is None or p.role == role)]

    def partition_of(self, v: Value) -> Partition | None:
        """The partition whose result `v` re-views."""
        r = self.root(v)
        for p in self.partitions:
            if r in p.op.results:
                return p
        return None


def _alloc_bytes(memref: MemrefType) -> int | None:
    from ..algebra.inttuple import product
    try:
        layout = memref.layout()
    except TypeTextError:
        return None
    cosize = int(layout.cosize()) if hasattr(layout, "cosize") else int(product(layout.shape))
    return cosize * max(1, memref.bits) // 8


def read_flow(module: Module, kernel: Function) -> KernelFlow:
    """The kernel's allocations, partitions and uses."""
    flow = KernelFlow(module, kernel)
    for op in kernel.ops:
        for r in op.results:
            flow.defining[r] = op
    index = 0
    for op in kernel.ops:
        if op.name == ALLOCA and op.results and op.result_types:
            try:
                memref = memref_of(op.result_types[0])
            except TypeTextError as e:
                flow.skipped.append(Skipped(op.where, "memory allocation", str(e)))
                continue
            if memref.space != SMEM:
                continue
            size = _alloc_bytes(memref)
            if size is None:
                flow.skipped.append(Skipped(op.where, "shared allocation", f"its size is not static ({memref})"))
                continue
            part = re.search(r"smem\.partition_id\s*=\s*(\d+)", op.head)
            fields = _STRUCT_FIELDS.search(op.head)
            flow.allocations[op.results[0]] = Allocation(
                op.results[0], size, memref.align or 1, index, op.where, int(part.group(1)) if part else None,
                fields=tuple(StructField(m.group(1), int(m.group(2)), int(m.group(3)))
                             for m in _STRUCT_FIELD.finditer(fields.group(1))) if fields else ())
            index += 1
        elif op.name in (PARTITION_S, PARTITION_D) and len(op.operands) >= 2 and op.results:
            role = Role.SOURCE if op.name == PARTITION_S else Role.DESTINATION
            thread = op.operands[2] if len(op.operands) > 2 else None
            flow.partitions.append(Partition(op, role, op.operands[0], op.operands[1], thread=thread))
        elif op.name == RETILE and len(op.operands) >= 2 and op.results:
            flow.partitions.append(Partition(op, Role.RETILE, op.operands[0], op.operands[1]))
        elif op.name in (MMA_PARTITION, MAKE_FRAGMENT) and len(op.operands) >= 2 and op.results:
            operand = op.head.split("(")[0].strip() or None
            role = Role.MMA if op.name == MMA_PARTITION else Role.FRAGMENT
            flow.partitions.append(Partition(op, role, op.operands[0], op.operands[1], operand))
        elif op.name == TMA_PARTITION and len(op.operands) >= 4 and op.results:
            flow.partitions.append(Partition(op, Role.TMA, op.operands[0], op.operands[3]))
        elif op.name == COPY:
            flow.copies.append(op)
        elif op.name == GEMM:
            flow.gemms.append(op)
        else:
            untraced = next((u for prefix, u in UNTRACED.items() if op.name.startswith(prefix)), None)
            if untraced is not None:
                flow.skipped.append(Skipped(op.where, f"{untraced[0]} ({op.name})", untraced[1]))
    _place(flow)
    _link_host(flow)
    return flow


def _place(flow: KernelFlow) -> None:
    """Where the DSL's allocator puts each shared allocation: one after another in program order from the dynamic
    shared memory base, each at the previous one's end rounded up to its alignment (its PTX shows the offsets).  Only
    when every allocation is in the user partition (another partition's place is the DSL's to choose)."""
    allocs = sorted(flow.allocations.values(), key=lambda a: a.index)
    if not allocs or any(a.partition != USER_PARTITION for a in allocs):
        return
    end = 0
    for a in allocs:
        at = -(-end // a.align) * a.align
        flow.allocations[a.value] = replace(a, placed_at=at)
        end = at + a.bytes


def _link_host(flow: KernelFlow) -> None:
    """Map the kernel's arguments to the host values launched with them."""
    name = flow.function.name
    for host in flow.module.functions:
        if host is flow.function:
            continue
        for op in host.ops:
            if op.name in LAUNCHES and name in op.head:
                args = list(op.operands)
                # a launch's configuration operand (`<%cfg>`) comes first
                if op.head.lstrip("@").split("(")[0].count("<%"):
                    args = args[1:]
                if len(args) >= len(flow.function.arguments):
                    args = args[len(args) - len(flow.function.arguments):]
                    for k, h in zip(flow.function.arguments, args):
                        flow.host_values[k] = (host, h)


def set_value_field(op: Op) -> str | None:
    """The field a `set_value` gives its atom (`tma_bar`, `mcast_mask`, ...); None for another operation."""
    m = _SET_FIELD.match(op.head.strip()) if op.name == SET_VALUE else None
    return m.group(1) if m else None


def enclosing_loop(op: Op) -> Op | None:
    """The innermost loop whose region holds `op` (None: no loop)."""
    cur = op.parent
    while cur is not None and cur.name not in LOOPS:
        cur = cur.parent
    return cur


__all__ = ["enclosing_loop", "set_value_field", "TMA_BARRIER_FIELD", "IF", "FOR", "WHILE", "PARALLEL", "LOOPS",
           "Role", "Allocation", "Pointer", "SharedView", "Partition", "Skipped", "KernelFlow", "read_flow",
           "SMEM", "COPY", "GEMM"]
