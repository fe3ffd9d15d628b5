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
          write: 0                                    # optional, both or neither: the stage the subtile's copy
          read: 1                                     #   writes and the one its store reads (classes: equal
                                                      #   numbers are one place of the staged shared subtile)

Without `write` and `read` each store reads what its own subtile's copy wrote.  With them, a store puts the subtile
whose copy was the last, up to its own, to write the stage it reads (theorem 42's rule); a store of a stage no copy
before it wrote puts what an earlier tile left.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


from ...algebra.layout import Layout
from ...specfile.fields import Fields, read_given_tiled_copy, refuse_keys, require_version2, show
from ...specfile.model import CheckSpec, GivenTiledCopy, Loc, SpecError, common_fields
from ..store_pipeline import MAX_PLACE, PIPELINE_KEY, StorePipeline, naturals, read_pipeline

SUBTILE_KIND = "subtiles"         # the kind's name in reports
SUBTILES_KEY = "subtiles"         # the key that makes a check an epilogue-subtile check
TILED_COPY_KEY = "tiled_copy"
SUBTILE_KEYS = (SUBTILES_KEY, TILED_COPY_KEY)
SUBTILES_FIELDS = ("accumulator", "shape", "stores", PIPELINE_KEY)
SUBTILES_REQUIRED = ("accumulator", "shape", "stores")
STORE_FIELDS = ("at", "registers")
STAGE_FIELDS = ("write", "read")           # a store's stages: both or neither
NOT_READ = ("operand", "smem", "copy_for", "copy_mma")
MAX_STORES = 256                  # subtiles of one accumulator
MAX_REGISTERS = 4096              # registers of one subtile's copy
MAX_EXTENT = 4096                 # a tile's rows or columns
MAX_ACCUMULATOR = 1024            # values of a thread's accumulator fragment (a thread has at most 255 registers)


@dataclass(frozen=True)
class SubtileStore:
    """One subtile: where the store puts it and which accumulator register each value of the copy's source holds."""
    at: tuple[int, int]            # (m, n) of the accumulator's tile where the subtile's (0, 0) lands
    registers: tuple[int, ...]     # copy source value k -> accumulator register
    loc: Loc
    stages: tuple[int, int] | None = None    # (the stage its copy writes, the one its store reads), where stated


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
    require_version2(fields, SUBTILES_KEY)
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
    pipeline = read_pipeline(sub, len(stores)) if sub.has(PIPELINE_KEY) else None
    if pipeline is not None and stores[0].stages is not None:
        stated = ([s.stages[0] for s in stores if s.stages], [s.stages[1] for s in stores if s.stages])
        if list(pipeline.stages) != stated[0] or list(pipeline.read_stages) != stated[1]:
            raise SpecError(sub.at(PIPELINE_KEY), f"'{PIPELINE_KEY}' of {sub.what} must state the stages its stores "
                                                  f"write ({stated[0]}) and read ({stated[1]}) as 'stages' and "
                                                  "'reads'")
    return SubtileCheck(**common_fields(named), tiled_copy=tiled_copy, accumulator=accumulator,
                        shape=(shape[0], shape[1]), stores=stores, pipeline=pipeline)


def _stores(sub: Fields) -> tuple[SubtileStore, ...]:
    out: list[SubtileStore] = []
    for store in sub.records("stores", MAX_STORES, "store", "subtiles", STORE_FIELDS, STAGE_FIELDS):
        at = naturals(store, "at", 2, 2, MAX_EXTENT)
        registers = naturals(store, "registers", 1, MAX_REGISTERS, MAX_REGISTERS * MAX_STORES)
        stages = _stages(store)
        if out and (stages is None) != (out[0].stages is None):
            raise SpecError(store.loc, f"{store.what} states {'no ' if stages is None else ''}'write' and 'read' "
                                       "where the first store does" + (" not" if stages is not None else "") +
                            ": every store states its stages or none does")
        out.append(SubtileStore((at[0], at[1]), registers, store.loc, stages))
    return tuple(out)


def _stages(store: Fields) -> tuple[int, int] | None:
    """A store's (write, read) stage classes, or None where it states neither."""
    given = [key for key in STAGE_FIELDS if store.has(key)]
    if not given:
        return None
    if len(given) == 1:
        missing = next(key for key in STAGE_FIELDS if key not in given)
        raise SpecError(store.at(given[0]), f"{store.what} states '{given[0]}' without '{missing}': a store states the "
                                            "stage its copy writes and the one it reads, both or neither")
    write, read = (store.bounded_int(key, 0, MAX_PLACE - 1, "a stage class") for key in STAGE_FIELDS)
    return write, read
