"""The thread coordinate a kernel hands a tiled copy's get_slice / partition_*, read back from the IR as an integer
expression of the thread's index (the thread-slice kind's `coordinate:`, verifier/kinds/slice/coordinate.py), and
the threads the kernel's block launches.

    %0 = nvvm.read.ptx.sreg.tid.x : i32                 tid
    %c128 = arith.constant 128 : i32
    %1 = arith.remsi %0, %c128 : i32                    (tid % 128)
    %coord = cute.make_coord(%1) : (i32) -> !cute.coord<"?">
    %coord_0 = cute.make_coord() : () -> !cute.coord<"0">     0

An operation this table does not know (a value of another thread register, a loop's value, an unsigned division)
leaves the coordinate unread: the caller lists the slice as not checked.

Which threads run a copy: the conditions of the scf.if operations around it, read the same way (arith.cmpi as a
comparison, an `else` region as the condition's negation) into the slice kind's `runs:`.  A condition that does not
depend on the thread (a block index, a kernel argument, a constant) is the same for every thread of the block and
says nothing of which threads run the copy; one that may depend on it and is not read leaves the running threads
unread.  Loops are taken to run alike in every thread of the block.

    %10 = arith.floordivsi %0, %c32_i32 : i32            floordiv(tid, 32)      (warp_idx)
    %12 = cute_nvgpu.arch.make_warp_uniform(%10) : i32
    %22 = arith.cmpi slt, %12, %c4_i32 : i32             (floordiv(tid, 32) < 4)
    scf.if %22 { ... } else { cute.copy(...) }            runs: not (floordiv(tid, 32) < 4)"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..kinds.slice.config import MAX_BLOCK
from ..kinds.slice.coordinate import MAX_LENGTH, THREAD, CoordinateError, plain, read_coordinate
from .flow import CONSTANT, FOR, IF, MAKE_COORD, KernelFlow
from .mlir_text import Function, Op, Value

THREAD_INDEX = "nvvm.read.ptx.sreg.tid.x"
LANE_INDEX = "nvvm.read.ptx.sreg.laneid"           # tid % 32 in a block of one dimension
# in a block of one dimension (its launch says so): the other thread indices are 0, the block's extents its own
ONE_DIMENSIONAL = {"nvvm.read.ptx.sreg.tid.y": 0, "nvvm.read.ptx.sreg.tid.z": 0, "nvvm.read.ptx.sreg.ntid.y": 1,
                   "nvvm.read.ptx.sreg.ntid.z": 1}
BLOCK_EXTENT = "nvvm.read.ptx.sreg.ntid.x"
# special registers that differ from thread to thread of a block (any other is the block's, the grid's or the SM's)
THREAD_REGISTERS = ("nvvm.read.ptx.sreg.tid.", "nvvm.read.ptx.sreg.laneid", "nvvm.read.ptx.sreg.warpid",
                    "nvvm.read.ptx.sreg.lanemask")
SPECIAL_REGISTER = "nvvm.read.ptx.sreg."
# arith.cmpi's signed predicates (and eq / ne), as the condition language writes them
COMPARISONS = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">="}
COMPARE, SELECT = "arith.cmpi", "arith.select"
BOOLEAN = {"true": 1, "false": 0}
# arith's signed operations on i32, as the coordinate expression writes them (C's semantics: `/` and `%` toward zero)
BINARY = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divsi": "/", "arith.remsi": "%",
          "arith.xori": "^", "arith.andi": "&", "arith.ori": "|", "arith.shli": "<<", "arith.shrsi": ">>"}
FLOOR_DIVISION = {"arith.floordivsi": "floordiv"}
# operations that hand their operand on unchanged (a width change of a small non-negative index, a uniformity hint)
PASS_THROUGH = ("arith.index_cast", "arith.extsi", "arith.extui", "arith.trunci", "cute.make_warp_uniform",
                "cute_nvgpu.arch.make_warp_uniform")
MAX_DEPTH = 32
_STATIC_COORD = re.compile(r'!cute\.coord<"(-?\d+)">')
# identities a binary operation drops (`tid + 0`, `1 * tid`), and the operations whose operands commute
IDENTITY = {"+": "0", "-": "0", "|": "0", "^": "0", "<<": "0", ">>": "0", "*": "1", "/": "1"}
COMMUTATIVE = ("+", "|", "^", "*")
TRUNCATE, BIT = "arith.trunci", "i1"   # a width change to one bit: the low bit
# operations that compute their results from their operands alone (no memory, no regions): a result may differ from
# thread to thread only where an operand does (make_warp_uniform, a pass-through, is uniform in a warp, not a block)
PURE = ("arith.", "cute.make_coord", "cute.make_int_tuple", "cute.get_scalars", "cute.get_leaves", "cute.tuple_",
        "cute.fast_divmod.compute", "cute.crd2idx", "cute.size")
_BLOCK_DIM = (re.compile(r"nvvm\.reqntid\s*=\s*array<i32:\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>"),
              re.compile(r"exact_block_dim\s*=\s*array<i64:\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>"))


@dataclass(frozen=True)
class Untraced:
    why: str


def coordinate_text(flow: KernelFlow, v: Value, depth: int = 0) -> str | Untraced:
    """The thread coordinate (or condition) `v` as an expression of `tid`, or why it is not read."""
    if depth > MAX_DEPTH:
        return Untraced(f"{v} is computed by more than {MAX_DEPTH} operations")
    op = flow.defining.get(v)
    if op is None:
        return Untraced(f"{v} is not computed by an operation of the kernel (an argument or a loop's value)")
    if op.name == THREAD_INDEX:
        return "tid"
    if op.name == LANE_INDEX:
        return "(tid % 32)"
    if op.name in ONE_DIMENSIONAL or op.name == BLOCK_EXTENT:
        dims = launch_dims(flow.function)
        if dims is None or dims[1] * dims[2] != 1:
            return Untraced(f"{op.name} in a block whose launch is not of one dimension")
        return str(dims[0] if op.name == BLOCK_EXTENT else ONE_DIMENSIONAL[op.name])
    if op.name == CONSTANT:
        value = flow.integer(v)
        if value is None:
            value = BOOLEAN.get(op.head.split(":")[0].strip())
        return str(value) if value is not None else Untraced(f"the constant {op.head.strip()[:40]} is not an "
                                                              "integer")
    if op.name == MAKE_COORD:
        if len(op.operands) == 1:
            return coordinate_text(flow, op.operands[0], depth + 1)
        static = static_coordinate(op.result_types[0]) if op.result_types and not op.operands else None
        return str(static) if static is not None else Untraced(f"the coordinate {op.result_types[:1]} is not one "
                                                                "integer")
    if op.name in PASS_THROUGH and len(op.operands) == 1:
        inner = coordinate_text(flow, op.operands[0], depth + 1)
        if op.name == TRUNCATE and op.result_types[:1] == (BIT,) and not isinstance(inner, Untraced):
            return _folded(f"({inner} & 1)")
        return inner
    operands = _sides(op)
    if operands is None:
        return Untraced(f"{v} is computed by {op.name}, which this reader does not evaluate")
    sides = [coordinate_text(flow, o, depth + 1) for o in operands]
    unread = next((side for side in sides if isinstance(side, Untraced)), None)
    if unread is not None:
        return unread
    texts = [str(side) for side in sides]
    if op.name in FLOOR_DIVISION:
        return _folded(f"{FLOOR_DIVISION[op.name]}({texts[0]}, {texts[1]})")
    if op.name == COMPARE:
        relation = COMPARISONS[op.head.split(",")[0].strip()]
        if relation in ("==", "!=") and texts[1] in ("0", "1") and _is_condition(flow, operands[0]):
            return texts[0] if (relation == "==") == (texts[1] == "1") else f"(not {texts[0]})"   # a flag's test
        return _folded(f"({texts[0]} {relation} {texts[1]})")
    if op.name == SELECT:
        return _folded(f"({texts[1]} if {texts[0]} else {texts[2]})")
    symbol = BINARY[op.name]
    if texts[1] == IDENTITY.get(symbol) or (texts[0] == IDENTITY.get(symbol) and symbol in COMMUTATIVE):
        return texts[0] if texts[1] == IDENTITY.get(symbol) else texts[1]      # `tid + 0`, `1 * tid`
    return _folded(f"({texts[0]} {symbol} {texts[1]})")


def _is_condition(flow: KernelFlow, v: Value) -> bool:
    """Whether `v` is an i1 (a comparison's result, possibly widened): its value is 0 or 1."""
    op = flow.defining.get(v)
    while op is not None and op.name in PASS_THROUGH and len(op.operands) == 1 and op.name != TRUNCATE:
        op = flow.defining.get(op.operands[0])
    return op is not None and op.name == COMPARE


def _sides(op: Op) -> tuple[Value, ...] | None:
    """The operands of an operation this reader evaluates from them, None for any other."""
    if op.name in BINARY or op.name in FLOOR_DIVISION:
        return op.operands if len(op.operands) == 2 else None
    if op.name == COMPARE:
        return op.operands if len(op.operands) == 2 and op.head.split(",")[0].strip() in COMPARISONS else None
    if op.name == SELECT:
        return op.operands if len(op.operands) == 3 else None
    return None


def _folded(text: str) -> str:
    """`text` as its value where it does not read `tid` (a constant part of an index: `(0 * 256)` -> `0`), else as
    written."""
    if THREAD in text:
        return text
    try:
        return str(read_coordinate(text)(0))
    except (CoordinateError, ZeroDivisionError):
        return text


def thread_dependent(flow: KernelFlow, v: Value, depth: int = 0) -> bool:
    """Whether `v` may differ from thread to thread of a block: it reads a thread's own register (tid, laneid, ...),
    or it is a value this reader does not follow (a loop's carried value, an operation's result whose value comes
    from a region, memory) -- False only for values computed from constants, the kernel's arguments and the block's
    or grid's registers alone."""
    if depth > MAX_DEPTH:
        return True
    op = flow.defining.get(v)
    if op is None:
        return v not in flow.function.arguments
    if op.name.startswith(SPECIAL_REGISTER):
        return op.name.startswith(THREAD_REGISTERS)
    if op.name == CONSTANT:
        return False
    if op.name not in PASS_THROUGH and not op.name.startswith(PURE):
        return True
    return any(thread_dependent(flow, o, depth + 1) for o in op.operands)


def running_condition(flow: KernelFlow, op: Op) -> str | None | Untraced:
    """Which threads run `op`, as a condition of `tid` (the scf.if operations around it, each `else` region the
    negation of its condition): None where no condition around it depends on the thread, Untraced where one may and
    is not read."""
    conditions: list[str] = []
    at = op
    while at.parent is not None:
        owner, region = at.parent, at.region
        at = owner
        if owner.name == FOR and any(thread_dependent(flow, b) for b in owner.operands[:3]):
            return Untraced(f"the bounds of the scf.for at {owner.where}, around the copy, may depend on the thread")
        if owner.name != IF or not owner.operands:
            continue                    # a loop of the same trips in every thread of the block (an scf.for's bounds
            #                             read so; an scf.while's condition taken so)
        test = owner.operands[0]
        text = coordinate_text(flow, test)
        if isinstance(text, Untraced):
            if thread_dependent(flow, test):
                return Untraced(f"the condition {test} of the scf.if at {owner.where}, around the copy, may depend on "
                                f"the thread and is not read ({text.why})")
            continue                    # the same for every thread of the block
        if THREAD not in text:
            continue
        conditions.append(plain(text) if region == 0 else f"not {text}")
    if not conditions:
        return None
    text = " and ".join(c if len(conditions) == 1 or c.startswith(("(", "not ")) else f"({c})"
                        for c in reversed(conditions))
    if len(text) > MAX_LENGTH:
        return Untraced(f"the conditions around the copy make an expression of more than {MAX_LENGTH} characters")
    try:
        read_coordinate(text)           # what the check states must be what the slice kind reads
    except CoordinateError as e:
        return Untraced(f"the conditions around the copy are not a condition the slice kind reads ({e})")
    return text


def static_coordinate(type_text: str | None) -> int | None:
    """The integer a `!cute.coord<"N">` type states, None for any other (a coordinate read at run time)."""
    m = _STATIC_COORD.fullmatch((type_text or "").strip())
    return int(m.group(1)) if m else None


def launch_dims(function: Function) -> tuple[int, int, int] | None:
    """The block's threads along x, y and z as its launch attributes state them (nvvm.reqntid, the launch facts'
    exact_block_dim), None where neither is written."""
    for pattern in _BLOCK_DIM:
        m = pattern.search(function.attributes)
        if m:
            x, y, z = (int(g) for g in m.groups())
            return x, y, z
    return None


def block_threads(function: Function) -> int | Untraced:
    """The threads of the kernel's block along x, from its launch attributes (nvvm.reqntid, the launch facts'
    exact_block_dim); the most a block may have when neither is written.  A block of more than one dimension: its
    thread index is not threadIdx.x alone."""
    dims = launch_dims(function)
    if dims is None:
        return MAX_BLOCK
    x, y, z = dims
    if y * z != 1:
        return Untraced(f"the block is {x}x{y}x{z} threads: a thread's index is not threadIdx.x alone")
    return x

