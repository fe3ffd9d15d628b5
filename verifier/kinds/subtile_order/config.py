"""The subtile-order kind's configuration: an epilogue loop over the subtiles of an accumulator stage, each loaded
from tensor memory, copied into a stage of a staged shared subtile and put in global memory by a TMA store of a
stage, as the loop runs them:

    subtile_order:                      # (a subtile-order check names no atom)
      tile: [128, 64]                   # the accumulator stage (M x N) the subtiles tile
      subtile: [128, 32]                # one subtile (rows x columns)
      stages: 2                         # the staged shared subtile's stages
      subtiles:                         # in the order the loop runs them
        - {load: [0, 0], write: 0, read: 0, place: [0, 0]}     # (m, n) of the stage the subtile's tensor-memory load
        - {load: [0, 32], write: 1, read: 1, place: [0, 32]}   #   starts at, the stage its copy writes, the stage its
                                        #   TMA store reads, (m, n) of the tile the store puts its box at
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...specfile.fields import Fields, is_int, refuse_keys, require_version2, show
from ...specfile.model import CheckSpec, Loc, SpecError, common_fields

SUBTILE_ORDER_KIND = "subtile_order"     # the kind's name in reports
SUBTILE_ORDER_KEY = "subtile_order"      # the key that makes a check a subtile-order check
SUBTILE_ORDER_KEYS = (SUBTILE_ORDER_KEY,)
ORDER_FIELDS = ("tile", "subtile", "stages", "subtiles")
SUBTILE_FIELDS = ("load", "write", "read", "place")
NOT_READ = ("mma", "atom_layout", "permutation", "operand", "smem", "copy_for", "copy_mma", "value_type", "copy")
MAX_EXTENT = 1 << 12          # an accumulator stage's rows or columns
MAX_STAGES = 32
MAX_SUBTILES = 256


@dataclass(frozen=True)
class SubtileStep:
    """One subtile of the loop: where its load starts, the stage its copy writes, the stage its store reads and where
    the store puts it (m, n)."""
    load: tuple[int, int]
    write: int
    read: int
    place: tuple[int, int]
    loc: Loc


@dataclass(kw_only=True)
class SubtileOrderCheck(CheckSpec):
    """An epilogue's subtiles in the order its loop runs them (theorem 42)."""
    kind: ClassVar[str] = SUBTILE_ORDER_KIND
    tile: tuple[int, int]
    subtile: tuple[int, int]
    stages: int
    subtiles: tuple[SubtileStep, ...]

    def summary(self) -> str:
        return (f"{len(self.subtiles)} subtiles of {self.subtile[0]}x{self.subtile[1]} of a {self.tile[0]}x"
                f"{self.tile[1]} accumulator stage through {self.stages} shared stages")


def reads_subtile_order_check(fields: Fields) -> bool:
    return fields.has(SUBTILE_ORDER_KEY)


def _pair(fields: Fields, key: str, limit: int, what: str) -> tuple[int, int]:
    value = fields.m[key]
    if not isinstance(value, list) or len(value) != 2 or \
            not all(is_int(v) and 0 <= v <= limit for v in value):
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be [rows, columns] ({what}, each 0 to "
                                        f"{limit}), not {show(value)}")
    return int(value[0]), int(value[1])


def read_subtile_order_check(fields: Fields, named: CheckSpec) -> SubtileOrderCheck:
    require_version2(fields, SUBTILE_ORDER_KEY)
    refuse_keys(fields, NOT_READ, "is not used by subtile-order checks")
    sub = fields.sub(SUBTILE_ORDER_KEY, ORDER_FIELDS)
    sub.require(ORDER_FIELDS)
    tile = _pair(sub, "tile", MAX_EXTENT, "the accumulator stage")
    subtile = _pair(sub, "subtile", MAX_EXTENT, "one subtile")
    if 0 in tile or 0 in subtile:
        raise SpecError(sub.at("subtile" if 0 in subtile else "tile"), f"{sub.what}: a tile of no element")
    stages = sub.bounded_int("stages", 1, MAX_STAGES, "a number of stages")
    steps: list[SubtileStep] = []
    for step in sub.records("subtiles", MAX_SUBTILES, "subtile", "subtiles", SUBTILE_FIELDS):
        steps.append(SubtileStep(_pair(step, "load", MAX_EXTENT, "a coordinate of the stage"),
                                 step.bounded_int("write", 0, stages - 1, "a stage"),
                                 step.bounded_int("read", 0, stages - 1, "a stage"),
                                 _pair(step, "place", MAX_EXTENT, "a coordinate of the tile"), step.loc))
    return SubtileOrderCheck(**common_fields(named), tile=tile, subtile=subtile, stages=stages, subtiles=tuple(steps))
