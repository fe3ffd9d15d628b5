"""The element-wise kind's configuration: a kernel that tiles tensors of one shape alike, loads each thread's values
of its inputs into registers, computes lane by lane and stores each thread's values of the output (CuTe's
`zipped_divide(tensor, tiler)[(None, rest)]`, then a tiled copy's partition at the thread, or the slice itself):

    elementwise:                          # (an element-wise check names no atom)
      shape: [1024, 2048]                 # every side's tensor shape (M, N)
      output:
        tile: [16, 256]                   # the tiler its tensor is divided by (TM, TN), contiguous modes
        thread_values: "((32,4),(8,4)):((128,4),(16,1))"   # optional: the tiled copy's layout_tv,
                                          #   (thr, val) -> index in the tile (colexicographic); absent: the thread
                                          #   takes the slice whole, value v the tile's index v
      inputs:
        - {tile: [16, 256], thread_values: "((32,4),(8,4)):((128,4),(16,1))", tile_offset: 1, thread: "tid ^ 1"}
                                          # tile_offset (optional, default 0): the side takes tile r + 1; thread
                                          #   (optional, default tid): the slice thread tid takes
      values:                             # one item an output value (its partition's index, colexicographic)
        - [[0, 0], [1, 0]]                #   the [input, value] pairs it is computed from, lane by lane

Every side is sliced at one rest index r plus its `tile_offset` (r: one value in the kernel, the block's or the
thread's tile) and its tiled copy partitioned at one thread t, which the DSL reader reads before it writes the check.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

from ruamel.yaml.comments import CommentedSeq

from ...algebra.layout import Layout
from ...specfile.fields import Fields, is_int, refuse_keys, require_version2, show
from ...specfile.model import CheckSpec, Loc, SpecError, common_fields
from ..slice.coordinate import THREAD, Coordinate, CoordinateError, read_coordinate

ELEMENTWISE_KIND = "elementwise"      # the kind's name in reports
ELEMENTWISE_KEY = "elementwise"       # the key that makes a check an element-wise check
ELEMENTWISE_KEYS = (ELEMENTWISE_KEY,)
ELEMENTWISE_FIELDS = ("shape", "output", "inputs", "values")
SIDE_FIELDS = ("tile",)
SIDE_OPTIONAL = ("thread_values", "tile_offset", "thread")
MAX_OFFSET = 1 << 24
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma", "value_type", "copy")
MAX_EXTENT = 1 << 24          # a tensor's rows or columns
MAX_INPUTS = 16
MAX_VALUES = 1 << 12          # values of one thread's partition
MAX_THREADS = 1024


@dataclass(frozen=True)
class Side:
    """One tensor's tiling: its tiler (TM, TN) and the tiled copy's (thr, val) -> tile index (None: the slice)."""
    tile: tuple[int, int]
    thread_values: Layout | None
    loc: Loc
    tile_offset: int = 0          # the side takes tile r + tile_offset
    thread: Coordinate | None = None   # the slice of its tiled copy thread tid takes (None: tid's own)

    @property
    def threads(self) -> int:
        return 1 if self.thread_values is None else int(self.thread_values.mode(0).size())

    @property
    def values(self) -> int:
        if self.thread_values is None:
            return self.tile[0] * self.tile[1]
        return int(self.thread_values.mode(1).size())

    def slice_of(self, tid: int) -> int:
        """The slice of the side's tiled copy thread `tid` takes (ZeroDivisionError: its expression divides by 0)."""
        return tid if self.thread is None else self.thread(tid)

    def index(self, tid: int, value: int) -> int:
        """The tile's index (colexicographic) of value `value` of thread `tid`'s slice."""
        if self.thread_values is None:
            return value
        return int(cast(int, self.thread_values((self.slice_of(tid), value))))


@dataclass(kw_only=True)
class ElementwiseCheck(CheckSpec):
    """An element-wise kernel's sides and the inputs' values each output value is computed from (theorem 43)."""
    kind: ClassVar[str] = ELEMENTWISE_KIND
    shape: tuple[int, int]
    output: Side
    inputs: tuple[Side, ...]
    values: tuple[tuple[tuple[int, int], ...], ...]
    values_loc: Loc

    def summary(self) -> str:
        return (f"{len(self.inputs)} inputs to 1 output of {self.shape[0]}x{self.shape[1]}, tiles of "
                f"{self.output.tile[0]}x{self.output.tile[1]}")


def reads_elementwise_check(fields: Fields) -> bool:
    return fields.has(ELEMENTWISE_KEY)


def _pair(fields: Fields, key: str, what: str) -> tuple[int, int]:
    value = fields.m[key]
    if not isinstance(value, list) or len(value) != 2 or not all(is_int(v) and 0 < v <= MAX_EXTENT for v in value):
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be [rows, columns] ({what}, each 1 to "
                                        f"{MAX_EXTENT}), not {show(value)}")
    return int(value[0]), int(value[1])


def _side(fields: Fields) -> Side:
    fields.only(SIDE_FIELDS + SIDE_OPTIONAL)
    fields.require(SIDE_FIELDS)
    tile = _pair(fields, "tile", "the tiler's extent along each mode")
    tv = None
    if fields.has("thread_values"):
        tv = fields.layout("thread_values")
        if not isinstance(tv, Layout) or tv.rank() != 2 or not tv.is_static():
            given = show(fields.m["thread_values"])
            raise SpecError(fields.at("thread_values"), f"'thread_values' of {fields.what} must be a plain layout "
                                                        f"(thr, val) -> index in the tile, not {given}")
        if int(tv.mode(0).size()) > MAX_THREADS or int(tv.mode(1).size()) > MAX_VALUES:
            raise SpecError(fields.at("thread_values"), f"'thread_values' of {fields.what} takes at most "
                                                        f"{MAX_THREADS} threads of {MAX_VALUES} values")
    elif tile[0] * tile[1] > MAX_VALUES:
        raise SpecError(fields.at("tile"), f"{fields.what}: a thread taking the slice whole holds at most "
                                           f"{MAX_VALUES} values, not {tile[0] * tile[1]}")
    offset = fields.bounded_int("tile_offset", -MAX_OFFSET, MAX_OFFSET, "a number of tiles") \
        if fields.has("tile_offset") else 0
    thread = None
    if fields.has("thread"):
        text = fields.m["thread"]
        if tv is None or not isinstance(text, str):
            raise SpecError(fields.at("thread"), f"'thread' of {fields.what} must be an expression of {THREAD} (the "
                                                 "slice of its thread_values each thread takes), not "
                                                 f"{show(text)}")
        try:
            thread = read_coordinate(text)
        except CoordinateError as e:
            raise SpecError(fields.at("thread"), f"'thread' of {fields.what}: {e}") from None
    return Side(tile, tv, fields.loc, offset, thread)


def _values(sub: Fields, inputs: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    seq: Any = sub.m["values"]
    if not isinstance(seq, CommentedSeq) or not 0 < len(seq) <= MAX_VALUES:
        raise SpecError(sub.at("values"), f"'values' of {sub.what} must be a list of 1 to {MAX_VALUES} output values, "
                                          f"not {show(seq)}")
    out: list[tuple[tuple[int, int], ...]] = []
    for i, item in enumerate(seq):
        ok = isinstance(item, CommentedSeq) and 0 < len(item) <= MAX_INPUTS and all(
            isinstance(p, CommentedSeq) and len(p) == 2 and all(is_int(x) for x in p) and 0 <= p[0] < inputs and
            0 <= p[1] < MAX_VALUES for p in item)
        if not ok:
            raise SpecError(sub.f.item(seq, i), f"'values' of {sub.what}: item {i} must be a list of [input, value] "
                                                f"pairs (input 0..{inputs - 1}), not {show(item)}")
        out.append(tuple((int(p[0]), int(p[1])) for p in item))
    return tuple(out)


def read_elementwise_check(fields: Fields, named: CheckSpec) -> ElementwiseCheck:
    require_version2(fields, ELEMENTWISE_KEY)
    refuse_keys(fields, NOT_READ, "is not used by element-wise checks")
    sub = fields.sub(ELEMENTWISE_KEY, ELEMENTWISE_FIELDS)
    sub.require(ELEMENTWISE_FIELDS)
    shape = _pair(sub, "shape", "the tensors' extent along each mode")
    output = _side(sub.sub("output", SIDE_FIELDS + SIDE_OPTIONAL))
    inputs = tuple(_side(f) for f in sub.records("inputs", MAX_INPUTS, "input", "inputs", SIDE_FIELDS, SIDE_OPTIONAL))
    values = _values(sub, len(inputs))
    return ElementwiseCheck(**common_fields(named), shape=shape, output=output, inputs=inputs, values=values,
                            values_loc=sub.at("values"))
