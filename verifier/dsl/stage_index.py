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
stages filled and never read)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .flow import MAKE_COORD, KernelFlow
from .mlir_text import Op, Value

SLICE = "cute.slice"
ADD, COMPARE, SELECT, YIELD = "arith.addi", "arith.cmpi", "arith.select", "scf.yield"
REMAINDERS = ("arith.remsi", "arith.remui")
_COORD_TEXT = re.compile(r'!cute\.coord<"(.*)">')
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


class StageIndexes:
    """The stage indices of a kernel's slices (its ops indexed by the values they take, once a kernel)."""

    def __init__(self, flow: KernelFlow) -> None:
        self.flow = flow
        self.by_operand: dict[Value, list[Op]] = {}
        for op in flow.function.ops:
            for v in op.operands:
                self.by_operand.setdefault(v, []).append(op)

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

    def index_bound(self, v: Value) -> StageIndex | None:
        """The indices an i32 stage index `v` takes, 0..N-1, where its form is one this module reads."""
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

    def slice_index(self, op: Op, tensor: Value) -> StageIndex | None:
        """The stage indices a slice `op` of `tensor` takes in its last mode (a coordinate `(_,...,k)` or
        `(_,...,?)`), where this module reads them."""
        if op.name != SLICE or len(op.operands) < 2 or op.operands[0] != tensor:
            return None
        coord_op = self.flow.defining.get(op.operands[1])
        if coord_op is None or coord_op.name != MAKE_COORD or not coord_op.result_types:
            return None
        m = _COORD_TEXT.fullmatch(coord_op.result_types[0].strip())
        if m is None or "," not in m.group(1):
            return None
        static = _STATIC_LAST.search(m.group(1))
        if static is not None:                  # a static stage index k: the stages reach k + 1
            k = int(static.group(1))
            return StageIndex(k + 1, f"a static stage index {k} ({op.where})", static=k) if k < MAX_STAGES else None
        if not coord_op.operands or not m.group(1).rstrip(")").endswith("?") or \
                m.group(1).count("?") != len(coord_op.operands):
            return None
        return self.index_bound(coord_op.operands[-1])

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
