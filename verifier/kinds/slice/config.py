"""The thread-slice kind's configuration: a tiled copy of `threads` threads, in a block of `block` threads, each
thread handing get_slice / partition_* the coordinate `coordinate` (an expression of its index `tid`), and, where the
kernel's control flow says so, the threads that run the copy (`runs`: a condition of `tid`, true for them).

    copy: SM100_TMEM_LOAD_32dp32b32x      # the tiled copy's atom: its instruction says what ties a thread to its place
    slice:
      threads: 128                        # the tiled copy's threads (its TV layout's thread mode)
      block: 192                          # the threads of the kernel's block (its launch; at most 1024)
      coordinate: "tid % 128"             # the thread coordinate the kernel hands get_slice, of threadIdx.x
      runs: "floordiv(tid, 32) >= 2"      # optional: the threads of the block that run the copy
      unit: cta                           # optional (default thread): the slices are CTAs' -- a TMA copy
                                          #   (copy: SM90_TMA_LOAD) split among the `block` CTAs of a cluster that
                                          #   share its tile (multicast, or a 2-CTA MMA's halves), `tid` then the
                                          #   CTA's index among them
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from ...specfile.fields import Fields, refuse_keys, require_version2, show
from ...specfile.model import TMA_COPIES, CheckSpec, SpecError, common_fields
from .coordinate import Coordinate, CoordinateError, read_coordinate

SLICE_KIND = "slice"              # the kind's name in reports
SLICE_KEY = "slice"               # the key that makes a check a thread-slice check
SLICE_KEYS = (SLICE_KEY,)
SLICE_FIELDS = ("threads", "block", "coordinate", "runs", "unit")
SLICE_REQUIRED = ("threads", "block", "coordinate")
MAX_BLOCK = 1024                  # threads a block may have (CUDA's limit)
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma")


class SliceUnit(str, Enum):
    """Who takes the slices: the threads of a block (a tiled copy), or the CTAs of a cluster (a TMA copy's tile
    split among the CTAs that share it)."""
    THREAD = "thread"
    CTA = "cta"

    @property
    def noun(self) -> str:
        return "CTA" if self is SliceUnit.CTA else "thread"


@dataclass(kw_only=True)
class SliceCheck(CheckSpec):
    """Which slice of a tiled copy each thread takes (theorem 37)."""
    kind: ClassVar[str] = SLICE_KIND
    copy: str
    threads: int
    block: int
    coordinate: Coordinate
    runs: Coordinate | None = None       # the threads that run the copy (nonzero); None: not stated
    unit: SliceUnit = SliceUnit.THREAD

    def summary(self) -> str:
        if self.unit is SliceUnit.CTA:
            return (f"the {self.threads} slices of the tile of {self.copy} among {self.block} CTAs, CTA tid taking "
                    f"slice {self.coordinate.text}")
        running = f", the threads with {self.runs.text} running it" if self.runs is not None else ""
        return (f"the slices of a {self.threads}-thread tiled copy of {self.copy}, thread tid of a {self.block}-thread "
                f"block taking slice {self.coordinate.text}{running}")


def reads_slice_check(fields: Fields) -> bool:
    return fields.has(SLICE_KEY)


def read_slice_check(fields: Fields, named: CheckSpec) -> SliceCheck:
    what = fields.what
    require_version2(fields, SLICE_KEY)
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} names the slices of a tiled copy ('{SLICE_KEY}') and so needs 'copy' "
                                    "(the tiled copy's atom)")
    refuse_keys(fields, NOT_READ, "is not used by thread-slice checks")
    sub = fields.sub(SLICE_KEY, SLICE_FIELDS)
    for key in SLICE_REQUIRED:
        if not sub.has(key):
            raise SpecError(fields.at(SLICE_KEY), f"'{SLICE_KEY}' of {what} needs '{key}'")
    block = sub.bounded_int("block", 1, MAX_BLOCK, "a number of threads")
    threads = sub.bounded_int("threads", 1, MAX_BLOCK, "a number of threads")
    coordinate = _expression(sub, "coordinate", "an expression of tid")
    runs = _expression(sub, "runs", "a condition of tid") if sub.has("runs") else None
    unit = SliceUnit.THREAD
    if sub.has("unit"):
        value = sub.m["unit"]
        if value not in [u.value for u in SliceUnit]:
            raise SpecError(sub.at("unit"), f"'unit' of {sub.what} must be one of "
                                            f"{', '.join(u.value for u in SliceUnit)}, not {show(value)}")
        unit = SliceUnit(value)
    if unit is SliceUnit.CTA and runs is not None:
        raise SpecError(sub.at("runs"), f"'runs' of {sub.what} names threads: a slice of CTAs ('unit: cta') has none")
    if unit is SliceUnit.CTA and named.copy not in TMA_COPIES:
        raise SpecError(fields.at("copy"), f"{what} splits a TMA copy's tile among CTAs ('unit: cta'): its copy is "
                                           f"{' or '.join(TMA_COPIES)}, not {show(named.copy)}")
    return SliceCheck(**{**common_fields(named), "copy": named.copy}, threads=threads, block=block,
                      coordinate=coordinate, runs=runs, unit=unit)


def _expression(sub: Fields, key: str, what: str) -> Coordinate:
    text = sub.m[key]
    if not isinstance(text, (str, int)) or isinstance(text, bool):
        raise SpecError(sub.at(key), f"'{key}' of {sub.what} must be {what}, not {show(text)}")
    try:
        return read_coordinate(str(text))
    except CoordinateError as e:
        raise SpecError(sub.at(key), f"'{key}' of {sub.what}: {e}") from None
