"""The stage indices a kernel's pipeline slices a staged shared view at, read back from the IR: a buffer's views
hold S stages in their last mode, and the pipeline cycles its index through 0..N-1 -- its PipelineState's
`advance` (index + 1, back to 0 at the pipeline's stage count) or a counter taken modulo N:

    %27 = arith.addi %arg10, %c1_i32 : i32            the loop's index + 1
    %29 = arith.cmpi eq, %27, %c4_i32 : i32           ... at the stage count,
    %30 = arith.select %29, %c0_i32, %27 : i32        ... back to 0, yielded as the loop's next index (from 0)
    %coord = cute.make_coord(%arg10) : (i32) -> !cute.coord<"(_,?)">
    %slice = cute.slice(%stages_view, %coord)         the view's stage %arg10

    %b = arith.remsi %n, %c2_i32 : i32                a counter modulo 2 (taken as non-negative)

    %slice = cute.slice(%epi_view, %coord_1)          a static stage index: `!cute.coord<"(_,_,_,1)">` (stages 0..1)

A buffer check states N where it reaches S or more (`stages:`): theorem 23 then proves the views at stages 0..N-1,
as CuTe reads a mode at an index past its extent (the last leaf takes the rest), at distinct offsets, inside the
views' own bytes where N exceeds S.  An index of another form is not read.

The stages each side of a buffer takes (`taken`: the union over its slices, static indices and cycles alike) are
read too, where every use of the side's tensor is such a slice: theorem 23 then proves that the writer fills exactly
the stages the reader reads (a reader that always reads stage 0 while the writer cycles through four leaves three
stages filled and never read).

Which stage one step takes against the barrier it waited on is read as well.  A pipeline's wait is an mbarrier wait on
the barrier at the state's index, and the slice that follows takes the stage at that index:

    %ptr = cute.add_offset(%barriers, %int_tuple)     %int_tuple = cute.make_int_tuple(%arg19)
    nvvm.mbarrier.try_wait.parity %43, %arg20, ...      (%43: %ptr cast to an LLVM pointer)
    %44 = arith.addi %arg19, %c1_i32 : i32
    %45 = arith.remsi %44, %c6_i32 : i32              (index + 1) % 6
    %slice_50 = cute.slice(%frg_A, %coord_49)         %coord_49 = cute.make_coord(%45): stage (waited + 1) mod 6

An index is read as (base + offset) mod N, a constant added and a remainder taken of a value the kernel computes
(`IndexForm`); a slice whose base is the base of a barrier wait's index is linked to those waits, and each side
states how many stages past the waited one its linked slices take (`wait_offsets`, 0 where it takes the waited stage).
A two-stage index reversed, 1 - x (x cycling through 0 and 1), is (x + 1) mod 2: it takes both stages, one past the
one x takes.  A slice behind a wait on the same base (stage i read after the barrier of i + 1 was waited on) may take a
stage whose
barrier was waited on one step before, and is not stated.  A slice at a static stage index of a side whose other
slices are linked to waits, in the block of such a wait (one on a barrier array the side's waits use, at an index
that is no constant) and after it, takes a fixed stage where its pipeline waited on a cycling one (`fixed`: the first
k-block reading stage 0 whatever stage the pipeline is at)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from .flow import ADD_OFFSET, CAST, COORD_TYPE, MAKE_COORD, SLICE, KernelFlow
from .mlir_text import Op, Value, Where

ADD, COMPARE, SELECT, YIELD = "arith.addi", "arith.cmpi", "arith.select", "scf.yield"
REMAINDERS = ("arith.remsi", "arith.remui")
SUBTRACT = "arith.subi"
# an mbarrier wait (try_wait.parity, its .timelimit form, wait.parity): its first operand is the barrier's address
WAITS = ("nvvm.mbarrier.try_wait", "nvvm.mbarrier.wait")
MAKE_INT_TUPLE = "cute.make_int_tuple"
MAX_FORM_DEPTH = 8               # constants added and remainders taken, one on another, that an index form peels
MAX_STAGES = 1 << 10
MAX_NESTING = 8                  # loops around one another that carry a pipeline's index
_STATIC_LAST = re.compile(r"(\d+)\)*$")     # a coordinate's last component, a static index: `(_,_,1)`


@dataclass(frozen=True)
class StageIndex:
    """The indices 0..stages-1 a view is sliced at, and how that was read (`static`: a static index, the one stage
    it takes)."""
    stages: int
    how: str
    static: int | None = None

    @property
    def taken(self) -> frozenset[int]:
        """The stage indices it takes: the static one, or every one of 0..stages-1."""
        return frozenset((self.static,)) if self.static is not None else frozenset(range(self.stages))


@dataclass(frozen=True)
class StagesTaken:
    """Every stage index a side's tensor is sliced at (the union over its slices), and how each slice was read."""
    indices: frozenset[int]
    how: tuple[str, ...]


@dataclass(frozen=True)
class IndexForm:
    """An i32 index as (base + offset) mod `modulus` (None: no remainder taken): the value the kernel computes it
    from, the constants added to it, the remainder taken of the sum."""
    base: Value
    offset: int
    modulus: int | None = None


@dataclass(frozen=True)
class Wait:
    """An mbarrier wait on the barrier at an index of the form `index` of the barrier array `array`."""
    index: IndexForm
    where: Where
    op: Op
    array: Value


@dataclass(frozen=True)
class WaitedStages:
    """How many stages past the one whose barrier its thread waited on each linked slice of a side takes (0: that
    stage), the static stages it takes right after its pipeline waited on a cycling one (`fixed`), how many slices
    are linked, and where each slice past its wait or fixed, and that wait, are."""
    offsets: frozenset[int]
    linked: int
    past: tuple[str, ...]
    fixed: frozenset[int] = frozenset()


class StageIndexes:
    """The stage indices of a kernel's slices (its ops indexed by the values they take, once a kernel)."""

    def __init__(self, flow: KernelFlow) -> None:
        self.flow = flow
        self.by_operand: dict[Value, list[Op]] = {}
        for op in flow.function.ops:
            for v in op.operands:
                self.by_operand.setdefault(v, []).append(op)

    @cached_property
    def waits(self) -> dict[Value, list[Wait]]:
        """The kernel's mbarrier waits whose barrier is an entry of a barrier array, by their index's base."""
        found: dict[Value, list[Wait]] = {}
        for op in self.flow.function.ops:
            if op.name.startswith(WAITS) and op.operands:
                entry = self.barrier_entry(op.operands[0])
                if entry is not None:
                    form = self.form(entry[1])
                    found.setdefault(form.base, []).append(Wait(form, op.where, op, entry[0]))
        return found

    @cached_property
    def order(self) -> dict[Op, int]:
        """Each op's place in the kernel's text (within a block, the order it runs in)."""
        return {op: i for i, op in enumerate(self.flow.function.ops)}

    def barrier_entry(self, address: Value) -> tuple[Value, Value] | None:
        """The barrier array and the index a barrier's address `address` takes in it (`cute.add_offset(barriers,
        make_int_tuple(index))`, cast to an LLVM pointer), or None."""
        op = self.flow.defining.get(address)
        if op is not None and op.name == CAST and op.operands:
            op = self.flow.defining.get(op.operands[0])
        if op is None or op.name != ADD_OFFSET or len(op.operands) != 2:
            return None
        offset = self.flow.defining.get(op.operands[1])
        if offset is None or offset.name != MAKE_INT_TUPLE or len(offset.operands) != 1:
            return None
        return op.operands[0], offset.operands[0]

    def form(self, v: Value) -> IndexForm:
        """`v` as (base + offset) mod N: constants added (or subtracted) and remainders by a constant peeled off."""
        offset, modulus = 0, None
        for _ in range(MAX_FORM_DEPTH):
            op = self.flow.defining.get(v)
            if op is None or len(op.operands) != 2:
                break
            a, b = op.operands
            if op.name in REMAINDERS and modulus is None and (n := self.constant(b)) is not None and \
                    0 < n <= MAX_STAGES and offset == 0:
                modulus, v = n, a
            elif op.name in REMAINDERS and modulus is not None and self.constant(b) == modulus:
                v = a                           # (x mod N + c) mod N is (x + c) mod N (indices are non-negative)
            elif op.name == ADD and (c := self.constant(b)) is not None:
                offset, v = offset + c, a
            elif op.name == ADD and (c := self.constant(a)) is not None:
                offset, v = offset + c, b
            elif op.name == SUBTRACT and (c := self.constant(b)) is not None:
                offset, v = offset - c, a
            else:
                break
        return IndexForm(v, offset, modulus)

    def waited(self, tensors: list[Value]) -> WaitedStages | None:
        """How many stages past the waited one each slice of `tensors` linked to barrier waits takes (the slice's
        index and a wait's barrier index of one base): 0 where a wait's index is the slice's (modulo the stage
        count either takes), else its offset past the furthest wait; a slice behind a wait (which may take a stage
        waited on a step before) is left out.  None where no slice is linked."""
        offsets: set[int] = set()
        linked = 0
        past_wait: list[str] = []
        arrays: set[Value] = set()            # the barrier arrays the side's linked slices' waits use
        for tensor in tensors:
            for op in self.uses(tensor):
                index = self.dynamic_index(op, tensor)
                if index is None:
                    continue
                arrays.update(w.array for w in self.waits.get(self.form(self.reversed_of(index) or index).base, []))
                found = self.wait_offset(index)
                if found is None:
                    continue
                past, wait = found
                offsets.add(past)
                linked += 1
                if past:
                    past_wait.append(f"the slice at line {_line(op.where)} takes the stage {past} past the one whose "
                                     f"barrier was waited on at line {_line(wait.where)}")
        fixed = self._fixed_after_wait(tensors, arrays, past_wait)
        return WaitedStages(frozenset(offsets), linked, tuple(past_wait), fixed) if offsets or fixed else None

    def wait_offset(self, index: Value) -> tuple[int, Wait] | None:
        """How many stages past the one whose barrier a wait of the kernel took the stage index `index` is, and that
        wait: 0 where a wait's index of the same base is `index` (modulo the stage count either takes), else its offset
        past the furthest wait of the base; None where no wait has its base or it lies behind one (a slice behind a
        wait may take a stage waited on a step before)."""
        flipped = self.reversed_of(index)
        if flipped is not None:               # 1 - x of a two-stage x: (x + 1) mod 2
            found = self.wait_offset(flipped)
            return ((found[0] + 1) % 2, found[1]) if found is not None else None
        taken = self.form(index)
        waits = self.waits.get(taken.base, [])
        if not waits:
            return None
        modulus = taken.modulus or next((w.index.modulus for w in waits if w.index.modulus), None)
        same = [w for w in waits if w.index.offset == taken.offset or
                (modulus is not None and (w.index.offset - taken.offset) % modulus == 0)]
        if same:
            return 0, same[0]
        furthest = max(waits, key=lambda w: w.index.offset)
        if furthest.index.offset > taken.offset:
            return None
        past = taken.offset - furthest.index.offset
        return (past % modulus if modulus is not None else past), furthest

    def _fixed_after_wait(self, tensors: list[Value], arrays: set[Value], past_wait: list[str]) -> frozenset[int]:
        """The static stages `tensors` are sliced at in the block of, and after, a wait on one of `arrays` at an
        index that is no constant (the pipeline waited on a cycling stage, the slice takes a fixed one); each such
        slice described in `past_wait`."""
        if not arrays:
            return frozenset()
        cycling = [w for ws in self.waits.values() for w in ws
                   if w.array in arrays and self.constant(w.index.base) is None]
        fixed: set[int] = set()
        for tensor in tensors:
            for op in self.uses(tensor):
                index = self.slice_index(op, tensor)
                if index is None or index.static is None:
                    continue
                before = [w for w in cycling if w.op.parent is op.parent and w.op.region == op.region and
                          self.order[w.op] < self.order[op]]
                if before:
                    fixed.add(index.static)
                    past_wait.append(f"the slice at line {_line(op.where)} takes stage {index.static} after the "
                                     f"barrier of a cycling stage was waited on at line {_line(before[-1].where)}")
        return frozenset(fixed)

    def uses(self, v: Value) -> list[Op]:
        return self.by_operand.get(v, [])

    def constant(self, v: Value) -> int | None:
        return self.flow.integer(v)

    def first_value(self, v: Value) -> int | None:
        """The constant a loop's carried value starts from: its initial value, through the loops around it that
        carry it in turn (a persistent kernel's pipeline state, carried by its tile loop into its k-loop)."""
        for _ in range(MAX_NESTING):
            init = self.flow.module.bound.get(v)
            if init is None:
                return None
            found = self.constant(init)
            if found is not None:
                return found
            if init in self.flow.defining:
                return None
            v = init
        return None

    def reversed_of(self, v: Value) -> Value | None:
        """x where `v` is 1 - x and x a stage index that cycles through 0 and 1 (a two-stage index reversed, which is
        (x + 1) mod 2); None otherwise."""
        op = self.flow.defining.get(v)
        if op is None or op.name != SUBTRACT or len(op.operands) != 2 or self.constant(op.operands[0]) != 1:
            return None
        bound = self.index_bound(op.operands[1])
        return op.operands[1] if bound is not None and bound.stages == 2 and bound.static is None else None

    def index_bound(self, v: Value) -> StageIndex | None:
        """The indices an i32 stage index `v` takes, 0..N-1, where its form is one this module reads."""
        flipped = self.reversed_of(v)
        if flipped is not None:
            inner = self.index_bound(flipped)
            return StageIndex(2, f"1 minus {inner.how if inner else 'a two-stage index'}")
        op = self.flow.defining.get(v)
        if op is not None and op.name in REMAINDERS and len(op.operands) == 2:
            n = self.constant(op.operands[1])
            if n is not None and 0 < n <= MAX_STAGES:
                return StageIndex(n, f"a counter modulo {n} ({op.where}; the counter taken as non-negative)")
            return None
        if op is not None:
            return None
        start = self.first_value(v)                   # a loop's carried value: its first value, then its advance
        for add in self.uses(v):
            if add.name != ADD or not add.results or 1 not in (self.constant(o) for o in add.operands if o != v):
                continue
            after = add.results[0]
            for cmp in self.uses(after):
                if cmp.name != COMPARE or not cmp.head.strip().startswith("eq") or not cmp.results:
                    continue
                n = next((c for o in cmp.operands if o != after and (c := self.constant(o)) is not None), None)
                if n is None or not 0 < n <= MAX_STAGES or start is None or not 0 <= start < n:
                    continue
                for sel in self.uses(cmp.results[0]):
                    if sel.name == SELECT and len(sel.operands) == 3 and sel.operands[2] == after and \
                            self.constant(sel.operands[1]) == 0 and sel.results and \
                            any(u.name == YIELD for u in self.uses(sel.results[0])):
                        return StageIndex(n, f"a pipeline's index, from {start}, advanced by one and back to 0 at "
                                             f"{n} ({sel.where})")
        return None

    def _coordinate(self, op: Op, tensor: Value) -> tuple[Op, str] | None:
        """The `cute.make_coord` a slice `op` of `tensor` takes and its coordinate's text (`_,_,?`), where it has more
        than one mode."""
        if op.name != SLICE or len(op.operands) < 2 or op.operands[0] != tensor:
            return None
        coord_op = self.flow.defining.get(op.operands[1])
        if coord_op is None or coord_op.name != MAKE_COORD or not coord_op.result_types:
            return None
        m = COORD_TYPE.fullmatch(coord_op.result_types[0].strip())
        return (coord_op, m.group(1)) if m is not None and "," in m.group(1) else None

    def dynamic_index(self, op: Op, tensor: Value) -> Value | None:
        """The i32 stage index a slice `op` of `tensor` takes in its last mode, where it is a value (`(_,...,?)`)."""
        found = self._coordinate(op, tensor)
        if found is None:
            return None
        coord_op, text = found
        if not coord_op.operands or not text.rstrip(")").endswith("?") or text.count("?") != len(coord_op.operands):
            return None
        return coord_op.operands[-1]

    def slice_index(self, op: Op, tensor: Value) -> StageIndex | None:
        """The stage indices a slice `op` of `tensor` takes in its last mode (a coordinate `(_,...,k)` or
        `(_,...,?)`), where this module reads them."""
        found = self._coordinate(op, tensor)
        if found is None:
            return None
        static = _STATIC_LAST.search(found[1])
        if static is not None:                  # a static stage index k: the stages reach k + 1
            k = int(static.group(1))
            return StageIndex(k + 1, f"a static stage index {k} ({op.where})", static=k) if k < MAX_STAGES else None
        index = self.dynamic_index(op, tensor)
        return self.index_bound(index) if index is not None else None

    def of_view(self, tensor: Value) -> StageIndex | None:
        """The stage indices the kernel slices `tensor` at (its last mode, a coordinate `(_,...,?)`): the largest of
        its slices' where each is read, None where none is."""
        found: StageIndex | None = None
        for op in self.uses(tensor):
            index = self.slice_index(op, tensor)
            if index is not None and (found is None or index.stages > found.stages):
                found = index
        return found

    def taken(self, tensors: list[Value]) -> StagesTaken | None:
        """Every stage index the kernel slices `tensors` (one side's) at, where every use of each is a slice whose
        index is read: None where one is used otherwise (whole, carried by a loop, sliced at an index of another
        form), as its stages are then not all known."""
        indices: set[int] = set()
        how: list[str] = []
        for tensor in tensors:
            uses = self.uses(tensor)
            if not uses:
                return None
            for op in uses:
                index = self.slice_index(op, tensor)
                if index is None:
                    return None
                indices |= index.taken
                how.append(index.how)
        return StagesTaken(frozenset(indices), tuple(dict.fromkeys(how)))


def _line(where: Where) -> str:
    """An IR line, and the kernel's source line the IR names for it where it names one."""
    return f"{where.line}" + (f" ({where.source})" if where.source else "")
