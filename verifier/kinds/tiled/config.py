"""The tiled kind's configuration: a tiled MMA (`mma`, `atom_layout`, `permutation`), the operand, the tiled copy
that moves it (`copy`, `value_type`, `copy_for`, `copy_mma`) and the operand's shared-memory tile (`smem`), with
the optional bank-conflict, reduction and converted-tile keys (`smem_type`: a C tile converted before the store,
an A / B tile converted in registers after the load) and the partition a load reads (`smem_partition`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout, first_stage
from ...specfile.fields import (Fields, read_choice, read_given_tiled_copy, read_smem, read_tiled, read_value_type,
                                refuse_keys)
from ...specfile.model import (TMA_COPIES, CheckKind, CheckSpec, GivenTiledCopy, MMAAtomSpec, SpecError, TiledSpec,
                               ValueType, common_fields)
from ..conversion import read_lookup_table
from ...specfile.vocabulary import (ATOM_LAYOUT_KEYS, BANKS_MODES, GMMA_KEYS, OPERANDS, REDUCTIONS,
                                    SMEM_PARTITION_MMA, SMEM_PARTITIONS)


@dataclass(kw_only=True)
class TiledCheck(CheckSpec):
    """A tiled MMA's operand, the copy that moves it and its shared-memory tile (theorems 1-12, 17, 18)."""
    kind: ClassVar[str] = CheckKind.TILED
    mma: str
    copy: str
    operand: str
    value_type: ValueType
    smem: Any                            # Layout | ComposedLayout: (coordinate of the operand tile) -> element offset
    stages: Any = None                   # the (rows, cols, PIPE) layout `smem` is the first stage of, when staged
    copy_for: str | None = None          # which make_tiled_copy_X built the copy (default: operand)
    copy_mma: TiledSpec | None = None    # the tiled MMA the copy was built from (default: the same)
    banks: str | None = None             # "conflict_free" (theorem 17) | "report" (counts, as information)
    reduction: str | None = None         # "K": the K slices of a K-split tiled MMA each store a partial C tile
    smem_type: ValueType | None = None   # the shared tile's element type (default: the MMA operand's type): for C
                                         # converted before the store, for A / B converted in registers after the load
    tiled_copy: GivenTiledCopy | None = None   # the TiledCopy as built (default: make_tiled_copy_X of the copy atom)
    smem_partition: str | None = None    # "mma": the copy reads thr_mma.partition_X(sX), paired with retile_D's
                                         # registers in order (default "copy": the tiled copy's partition_S)
    lookup_table: bool = False           # `conversion: lookup_table`: smem_type converted by CUTLASS's lookup tables
    # `tiles: {copied_from, fragment_of}`: the shared tile the copy reads and the one the MMA fragment it fills was
    # partitioned from (partition_fragment_X), each named by the memory it views, where a reader found both
    tiles: tuple[str, str] | None = None

    @property
    def reads_mma_partition(self) -> bool:
        """The load's shared side is the tiled MMA's partition of the tile, not the tiled copy's partition_S."""
        return self.smem_partition == SMEM_PARTITION_MMA

    def summary(self) -> str:
        return f"{super().summary()} smem {self.smem}"


TILES_KEY = "tiles"                      # the shared tiles the copy reads and the fragment was partitioned from
TILES_FIELDS = ("copied_from", "fragment_of")


def reads_tiled_check(fields: Fields, mma: MMAAtomSpec | None) -> bool:
    """A check naming an MMA atom and a copy atom (not a TMA copy: that operand is read through a descriptor)."""
    return mma is not None and fields.has("copy") and fields.m["copy"] not in TMA_COPIES


def k_slices(atom_layout: tuple[int, ...] | Layout | None) -> int:
    """The thread groups make_tiled_mma's layout splits K over (its third mode)."""
    if atom_layout is None:
        return 1
    if isinstance(atom_layout, Layout):
        return int(atom_layout.mode(2).size()) if atom_layout.rank() >= 3 else 1
    return int(atom_layout[2]) if len(atom_layout) >= 3 else 1


def read_tiled_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec) -> TiledCheck:
    """The tiled configuration, validated: the operand and its tile are required, the rest optional."""
    refuse_keys(fields, GMMA_KEYS, f"is only used by checks whose copy is {' or '.join(TMA_COPIES)}")
    for k in ("operand", "smem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{fields.what} names both 'mma' and 'copy' and so needs '{k}'")
    assert named.value_type is not None
    what = fields.what
    smem = read_smem(fields, named.value_type)
    inner = smem.b if isinstance(smem, ComposedLayout) else smem
    rank = inner.rank() if isinstance(inner, Layout) else 2
    if rank not in (2, 3):
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be the operand's (rows, cols) tile or (rows, cols, "
                                           f"PIPE) with a stage mode, not rank {rank}")
    check = TiledCheck(**common_fields(named), smem=first_stage(smem), stages=smem if rank == 3 else None)
    if fields.has("copy_for"):
        check.copy_for = read_choice(fields.m["copy_for"], fields.at("copy_for"), f"'copy_for' of {what}", OPERANDS,
                                     upper=True)
    if fields.has("copy_mma"):
        check.copy_mma = read_tiled(fields.sub("copy_mma", ATOM_LAYOUT_KEYS), mma)
    if fields.has("banks"):
        check.banks = read_choice(fields.m["banks"], fields.at("banks"), f"'banks' of {what}", BANKS_MODES,
                                  upper=False)
    if fields.has("reduction"):
        check.reduction = read_choice(fields.m["reduction"], fields.at("reduction"), f"'reduction' of {what}",
                                      REDUCTIONS, upper=True)
        if check.operand != "C":
            raise SpecError(fields.at("reduction"), f"'reduction' of {what} is only used by checks of operand C "
                                                    "(the partial C tiles of a K-split tiled MMA)")
        if k_slices(check.atom_layout) == 1:
            raise SpecError(fields.at("reduction"), f"'reduction: K' of {what} declares the partial C tiles of a "
                                                    "K-split tiled MMA, but its atom_layout splits K over 1 thread "
                                                    "group: there is nothing to reduce (remove the key)")
    if fields.has("tiled_copy"):
        for k in ("copy_for", "copy_mma"):
            if fields.has(k):
                raise SpecError(fields.at(k), f"'{k}' of {what} says how make_tiled_copy_X builds the copy; "
                                              "'tiled_copy' gives the copy as built: give one of them")
        check.tiled_copy = read_given_tiled_copy(fields, "tiled_copy")
    if fields.has("smem_type"):
        check.smem_type = read_value_type(fields.m["smem_type"], fields.at("smem_type"), f"'smem_type' of {what}")
    check.lookup_table = read_lookup_table(fields, "smem_type")
    if fields.has(TILES_KEY):
        tiles = fields.sub(TILES_KEY, TILES_FIELDS)
        tiles.require(TILES_FIELDS)
        named_tiles = [tiles.opt_str(k) for k in TILES_FIELDS]
        if not all(named_tiles):
            raise SpecError(fields.at(TILES_KEY), f"'{TILES_KEY}' of {what} names the shared tile the copy reads and "
                                                  "the one the fragment was partitioned from, two strings")
        check.tiles = (str(named_tiles[0]), str(named_tiles[1]))
    if fields.has("smem_partition"):
        check.smem_partition = read_choice(fields.m["smem_partition"], fields.at("smem_partition"),
                                           f"'smem_partition' of {what}", SMEM_PARTITIONS, upper=False)
        if check.reads_mma_partition and (check.operand == "C" or check.tiled_copy is not None):
            raise SpecError(fields.at("smem_partition"), f"'smem_partition: mma' of {what} says a load of A or B reads "
                                                         "the tiled MMA's partition of the shared tile: not a C tile, "
                                                         "nor a check giving 'tiled_copy'")
    return check
