"""The epilogue-subtile kind's configuration: a tiled MMA's accumulator stored to global memory one subtile at a time
through a shared tile smaller than the MMA's C tile.  For each subtile the kernel takes some of the accumulator's
registers (a slice of them at a register offset, element by element, through a converting register buffer ...),
hands them to a register-to-shared tiled copy, and a TMA store puts the shared tile at one place of the CTA's tile:

    mma: SM90_64x128x16_F32F16F16_SS      # the tiled MMA whose accumulator is stored
    atom_layout: [1, 1, 1]
    permutation: [64, 128, 16]
    copy: SM90_U32x4_STSM_N               # the register-to-shared tiled copy's atom
    value_type: half_t
    tiled_copy: {layout_tv: "...", tiler: ["...", "..."]}     # the tiled copy as built: (thr, val) -> (m, n)
    subtiles:
      accumulator: "((2,2,16),2,1):((1,2,4),64,0)"   # (value, m, n) -> register: the MMA's C fragment
      shape: [64, 32]                                 # the subtile (m, n): the tiled copy's tile, the store's box
      stores:                                         # one a subtile, in the kernel's order
        - at: [0, 0]                                  # (m, n) of the accumulator's tile the store puts (0, 0) at
          registers: [0, 1, 2, ...]                   # value k of the copy's source (its colexicographic order)
                                                      #   -> the accumulator register it holds
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ruamel.yaml.comments import CommentedSeq

from ...algebra.layout import Layout
from ...specfile.fields import Fields, is_int, read_given_tiled_copy, refuse_keys, show
from ...specfile.model import CheckSpec, GivenTiledCopy, Loc, SpecError, common_fields

SUBTILE_KIND = "subtiles"         # the kind's name in reports
SUBTILES_KEY = "subtiles"         # the key that makes a check an epilogue-subtile check
TILED_COPY_KEY = "tiled_copy"
SUBTILE_KEYS = (SUBTILES_KEY, TILED_COPY_KEY)
SUBTILES_FIELDS = ("accumulator", "shape", "stores", "pipeline")
SUBTILES_REQUIRED = ("accumulator", "shape", "stores")
STORE_FIELDS = ("at", "registers")
PIPELINE_FIELDS = ("stages", "fenced", "pending", "pending_at_start")
NOT_READ = ("operand", "smem", "copy_for", "copy_mma")
MAX_STORES = 256                  # subtiles of one accumulator
MAX_REGISTERS = 4096              # registers of one subtile's copy
MAX_EXTENT = 4096                 # a tile's rows or columns
MAX_ACCUMULATOR = 1024            # values of a thread's accumulator fragment (a thread has at most 255 registers)
MAX_PLACE = MAX_EXTENT * MAX_EXTENT      # a stage's class: its place (an element offset) or its index's residue


@dataclass(frozen=True)
class SubtileStore:
    """One subtile: where the store puts it and which accumulator register each value of the copy's source holds."""
    at: tuple[int, int]            # (m, n) of the accumulator's tile where the subtile's (0, 0) lands
    registers: tuple[int, ...]     # copy source value k -> accumulator register
    loc: Loc


@dataclass(frozen=True)
class StorePipeline:
    """The TMA stores' reads of the staged shared subtile (theorem 40): per subtile the stage its copy writes and its
    store reads (a class: equal classes are one place), whether a proxy fence and a barrier of the copy's threads
    separate the copy from the store, and how many stores may still be reading after its store's wait (None: no
    wait orders the next copy); and the stages of the stores still reading when the first copy runs."""
    stages: tuple[int, ...]
    fenced: tuple[bool, ...]
    pending: tuple[int | None, ...]
    pending_at_start: tuple[int, ...]


@dataclass(kw_only=True)
class SubtileCheck(CheckSpec):
    """The accumulator of a tiled MMA stored subtile by subtile (theorem 39)."""
    kind: ClassVar[str] = SUBTILE_KIND
    tiled_copy: GivenTiledCopy
    accumulator: Layout            # (value, m, n) -> register
    shape: tuple[int, int]         # the subtile (m, n)
    stores: tuple[SubtileStore, ...]
    pipeline: StorePipeline | None = None

    def summary(self) -> str:
        return (f"{self.mma} C stored in {len(self.stores)} subtiles of {self.shape[0]}x{self.shape[1]} by "
                f"{self.copy}")


def reads_subtile_check(fields: Fields) -> bool:
    return fields.has(SUBTILES_KEY)


def read_subtile_check(fields: Fields, named: CheckSpec) -> SubtileCheck:
    what = fields.what
    if fields.f.version < 2:
        raise SpecError(fields.at(SUBTILES_KEY), f"'{SUBTILES_KEY}' of {what} is a version 2 key: the file needs "
                                                 "'version: 2'")
    for key, why in (("mma", "the tiled MMA whose accumulator is stored"),
                     ("copy", "the register-to-shared tiled copy's atom"),
                     ("value_type", "the copy's element type"), (TILED_COPY_KEY, "the tiled copy as built")):
        if getattr(named, key, None) is None and not fields.has(key):
            raise SpecError(fields.loc, f"{what} stores an accumulator by subtiles ('{SUBTILES_KEY}') and so needs "
                                        f"'{key}' ({why})")
    refuse_keys(fields, NOT_READ, "is not used by epilogue-subtile checks")
    tiled_copy = read_given_tiled_copy(fields, TILED_COPY_KEY)
    sub = fields.sub(SUBTILES_KEY, SUBTILES_FIELDS)
    sub.require(SUBTILES_REQUIRED)
    accumulator = sub.layout("accumulator")
    if not isinstance(accumulator, Layout) or accumulator.rank() != 3 or not accumulator.is_static():
        raise SpecError(sub.at("accumulator"), f"'accumulator' of {sub.what} must be a plain layout (value, m, n) -> "
                                               f"register, not {show(sub.m['accumulator'])}")
    if int(accumulator.size()) > MAX_ACCUMULATOR:
        raise SpecError(sub.at("accumulator"), f"'accumulator' of {sub.what} holds {int(accumulator.size())} values; "
                                               f"a thread's fragment holds at most {MAX_ACCUMULATOR}")
    shape = sub.int_list("shape", 2, 2)
    if max(shape) > MAX_EXTENT:
        raise SpecError(sub.at("shape"), f"'shape' of {sub.what} must be at most {MAX_EXTENT} each way")
    stores = _stores(sub)
    pipeline = _pipeline(sub, len(stores)) if sub.has("pipeline") else None
    return SubtileCheck(**common_fields(named), tiled_copy=tiled_copy, accumulator=accumulator,
                        shape=(shape[0], shape[1]), stores=stores, pipeline=pipeline)


def _pipeline(sub: Fields, n: int) -> StorePipeline:
    pipe = sub.sub("pipeline", PIPELINE_FIELDS)
    pipe.require(PIPELINE_FIELDS)
    for key in PIPELINE_FIELDS[:3]:
        x = pipe.m[key]
        if not isinstance(x, CommentedSeq) or len(x) != n:
            raise SpecError(pipe.at(key), f"'{key}' of {pipe.what} must be a list of one item a store ({n}), not "
                                          f"{show(x)}")
    stages = _naturals(pipe, "stages", n, n, MAX_PLACE)
    fenced = pipe.m["fenced"]
    for i, v in enumerate(fenced):
        if not isinstance(v, bool):
            raise SpecError(pipe.f.item(fenced, i), f"'fenced' of {pipe.what} must be a list of true / false; item {i} "
                                                    f"is {show(v)}")
    pending_seq = pipe.m["pending"]
    for i, v in enumerate(pending_seq):
        if v is not None and not (is_int(v) and 0 <= v < MAX_STORES):
            raise SpecError(pipe.f.item(pending_seq, i), f"'pending' of {pipe.what} must be a list of counts of "
                                                         f"stores (0..{MAX_STORES - 1}) or null; item {i} is {show(v)}")
    at_start = pipe.m["pending_at_start"]
    starts = () if isinstance(at_start, CommentedSeq) and not at_start else \
        _naturals(pipe, "pending_at_start", 1, MAX_STORES, MAX_PLACE)
    return StorePipeline(stages, tuple(bool(v) for v in fenced),
                         tuple(None if v is None else int(v) for v in pending_seq), starts)


def _stores(sub: Fields) -> tuple[SubtileStore, ...]:
    seq, loc = sub.m["stores"], sub.at("stores")
    if not isinstance(seq, CommentedSeq) or not 0 < len(seq) <= MAX_STORES:
        raise SpecError(loc, f"'stores' of {sub.what} must be a list of 1 to {MAX_STORES} subtiles, not {show(seq)}")
    out: list[SubtileStore] = []
    for i, item in enumerate(seq):
        store = Fields(sub.f, item, f"store {i} of {sub.what}", sub.f.item(seq, i))
        store.only(STORE_FIELDS)
        store.require(STORE_FIELDS)
        at = _naturals(store, "at", 2, 2, MAX_EXTENT)
        registers = _naturals(store, "registers", 1, MAX_REGISTERS, MAX_REGISTERS * MAX_STORES)
        out.append(SubtileStore((at[0], at[1]), registers, store.loc))
    return tuple(out)


def _naturals(fields: Fields, key: str, lo: int, hi: int, limit: int) -> tuple[int, ...]:
    x: Any = fields.m[key]
    want = f"a list of {lo} to {hi} integers in 0..{limit - 1}" if lo != hi else \
        f"a list of {lo} integers in 0..{limit - 1}"
    if not isinstance(x, CommentedSeq) or not lo <= len(x) <= hi:
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be {want}, not {show(x)}")
    for i, v in enumerate(x):
        if not is_int(v) or not 0 <= v < limit:
            raise SpecError(fields.f.item(x, i), f"'{key}' of {fields.what} must be {want}; item {i} is {show(v)}")
    return tuple(int(v) for v in x)
