"""The thread-slice kind's configuration: a tiled copy of `threads` threads, in a block of `block` threads, each
thread handing get_slice / partition_* the coordinate `coordinate` (an expression of its index `tid`), and, where the
kernel's control flow says so, the threads that run the copy (`runs`: a condition of `tid`, true for them).

    copy: SM100_TMEM_LOAD_32dp32b32x      # the tiled copy's atom: its instruction says what ties a thread to its place
    slice:
      threads: 128                        # the tiled copy's threads (its TV layout's thread mode)
      block: 192                          # the threads of the kernel's block (its launch; at most 1024)
      coordinate: "tid % 128"             # the thread coordinate the kernel hands get_slice, of threadIdx.x
      runs: "floordiv(tid, 32) >= 2"      # optional: the threads of the block that run the copy
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...specfile.fields import Fields, is_int, refuse_keys, show
from ...specfile.model import CheckSpec, SpecError, common_fields
from .coordinate import Coordinate, CoordinateError, read_coordinate

SLICE_KIND = "slice"              # the kind's name in reports
SLICE_KEY = "slice"               # the key that makes a check a thread-slice check
SLICE_KEYS = (SLICE_KEY,)
SLICE_FIELDS = ("threads", "block", "coordinate", "runs")
SLICE_REQUIRED = ("threads", "block", "coordinate")
MAX_BLOCK = 1024                  # threads a block may have (CUDA's limit)
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma")


@dataclass(kw_only=True)
class SliceCheck(CheckSpec):
    """Which slice of a tiled copy each thread takes (theorem 37)."""
    kind: ClassVar[str] = SLICE_KIND
    copy: str
    threads: int
    block: int
    coordinate: Coordinate
    runs: Coordinate | None = None       # the threads that run the copy (nonzero); None: not stated

    def summary(self) -> str:
        running = f", the threads with {self.runs.text} running it" if self.runs is not None else ""
        return (f"the slices of a {self.threads}-thread tiled copy of {self.copy}, thread tid of a {self.block}-thread "
                f"block taking slice {self.coordinate.text}{running}")


def reads_slice_check(fields: Fields) -> bool:
    return fields.has(SLICE_KEY)


def _count(sub: Fields, key: str, limit: int) -> int:
    value = sub.m[key]
    if not is_int(value) or not 0 < value <= limit:
        raise SpecError(sub.at(key), f"'{key}' of {sub.what} must be a number of threads in [1, {limit}], not "
                                     f"{show(value)}")
    return int(value)


def read_slice_check(fields: Fields, named: CheckSpec) -> SliceCheck:
    what = fields.what
    if fields.f.version < 2:
        raise SpecError(fields.at(SLICE_KEY), f"'{SLICE_KEY}' of {what} is a version 2 key: the file needs "
                                              "'version: 2'")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} names the slices of a tiled copy ('{SLICE_KEY}') and so needs 'copy' "
                                    "(the tiled copy's atom)")
    refuse_keys(fields, NOT_READ, "is not used by thread-slice checks")
    sub = fields.sub(SLICE_KEY, SLICE_FIELDS)
    for key in SLICE_REQUIRED:
        if not sub.has(key):
            raise SpecError(fields.at(SLICE_KEY), f"'{SLICE_KEY}' of {what} needs '{key}'")
    block = _count(sub, "block", MAX_BLOCK)
    threads = _count(sub, "threads", MAX_BLOCK)
    coordinate = _expression(sub, "coordinate", "an expression of tid")
    runs = _expression(sub, "runs", "a condition of tid") if sub.has("runs") else None
    return SliceCheck(**{**common_fields(named), "copy": named.copy}, threads=threads, block=block,
                      coordinate=coordinate, runs=runs)


def _expression(sub: Fields, key: str, what: str) -> Coordinate:
    text = sub.m[key]
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise SpecError(sub.at(key), f"'{key}' of {sub.what} must be {what}, not {show(text)}")
    try:
        return read_coordinate(str(text))
    except CoordinateError as e:
        raise SpecError(sub.at(key), f"'{key}' of {sub.what}: {e}") from None
