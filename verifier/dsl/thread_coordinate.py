"""The thread coordinate a kernel hands a tiled copy's get_slice / partition_*, read back from the IR as an integer
expression of the thread's index (the thread-slice kind's `coordinate:`, verifier/kinds/slice/coordinate.py), and
the threads the kernel's block launches.

    %0 = nvvm.read.ptx.sreg.tid.x : i32                 tid
    %c128 = arith.constant 128 : i32
    %1 = arith.remsi %0, %c128 : i32                    (tid % 128)
    %coord = cute.make_coord(%1) : (i32) -> !cute.coord<"?">
    %coord_0 = cute.make_coord() : () -> !cute.coord<"0">     0

An operation this table does not know (a value of another thread register, a loop's value, an unsigned division)
leaves the coordinate unread: the caller lists the slice as not checked."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..kinds.slice.config import MAX_BLOCK
from .flow import CONSTANT, MAKE_COORD, KernelFlow
from .mlir_text import Function, Value

THREAD_INDEX = "nvvm.read.ptx.sreg.tid.x"
LANE_INDEX = "nvvm.read.ptx.sreg.laneid"           # tid % 32 in a block of one dimension
# arith's signed operations on i32, as the coordinate expression writes them (C's semantics: `/` and `%` toward zero)
BINARY = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.divsi": "/", "arith.remsi": "%",
          "arith.xori": "^", "arith.andi": "&", "arith.ori": "|", "arith.shli": "<<", "arith.shrsi": ">>"}
FLOOR_DIVISION = {"arith.floordivsi": "floordiv"}
# operations that hand their operand on unchanged (a width change of a small non-negative index, a uniformity hint)
PASS_THROUGH = ("arith.index_cast", "arith.extsi", "arith.extui", "arith.trunci", "cute.make_warp_uniform")
MAX_DEPTH = 32
_STATIC_COORD = re.compile(r'!cute\.coord<"(-?\d+)">')
_BLOCK_DIM = (re.compile(r"nvvm\.reqntid\s*=\s*array<i32:\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>"),
              re.compile(r"exact_block_dim\s*=\s*array<i64:\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*>"))


@dataclass(frozen=True)
class Untraced:
    why: str


def coordinate_text(flow: KernelFlow, v: Value, depth: int = 0) -> str | Untraced:
    """The thread coordinate `v` as an expression of `tid`, or why it is not read."""
    if depth > MAX_DEPTH:
        return Untraced(f"{v} is computed by more than {MAX_DEPTH} operations")
    op = flow.defining.get(v)
    if op is None:
        return Untraced(f"{v} is not computed by an operation of the kernel (an argument or a loop's value)")
    if op.name == THREAD_INDEX:
        return "tid"
    if op.name == LANE_INDEX:
        return "(tid % 32)"
    if op.name == CONSTANT:
        value = flow.integer(v)
        return str(value) if value is not None else Untraced(f"the constant {op.head.strip()[:40]} is not an "
                                                              "integer")
    if op.name == MAKE_COORD:
        if len(op.operands) == 1:
            return coordinate_text(flow, op.operands[0], depth + 1)
        m = _STATIC_COORD.fullmatch(op.result_types[0].strip()) if op.result_types and not op.operands else None
        return m.group(1) if m else Untraced(f"the coordinate {op.result_types[:1]} is not one integer")
    if op.name in PASS_THROUGH and len(op.operands) == 1:
        return coordinate_text(flow, op.operands[0], depth + 1)
    if (op.name in BINARY or op.name in FLOOR_DIVISION) and len(op.operands) == 2:
        sides = [coordinate_text(flow, o, depth + 1) for o in op.operands]
        left, right = sides
        if isinstance(left, Untraced):
            return left
        if isinstance(right, Untraced):
            return right
        if op.name in FLOOR_DIVISION:
            return f"{FLOOR_DIVISION[op.name]}({left}, {right})"
        return f"({left} {BINARY[op.name]} {right})"
    return Untraced(f"{v} is computed by {op.name}, which this reader does not evaluate")


def block_threads(function: Function) -> int | Untraced:
    """The threads of the kernel's block along x, from its launch attributes (nvvm.reqntid, the launch facts'
    exact_block_dim); the most a block may have when neither is written.  A block of more than one dimension: its
    thread index is not threadIdx.x alone."""
    for pattern in _BLOCK_DIM:
        m = pattern.search(function.attributes)
        if m:
            x, y, z = (int(g) for g in m.groups())
            if y * z != 1:
                return Untraced(f"the block is {x}x{y}x{z} threads: a thread's index is not threadIdx.x alone")
            return x
    return MAX_BLOCK

