"""The TMEM kind's configuration: a tcgen05.ld / tcgen05.st copy atom, its value type and the tensor-memory tile it
moves (`tmem`: coordinate -> lane << 16 | column, 32-bit cells), the columns allocated for it, and optionally the
epilogue's next copy (`store:`, registers to shared memory), the MMA whose D the tile is (`accumulator:`) and the
stages of a staged accumulator its MMAs write and the load reads (`accumulator_stages: {mma: [0, 1], load: [0, 1]}`,
and optionally `mma_wait_offsets: [0]` / `load_wait_offsets: [0]`: how many stages past the one whose barrier its
thread waited on each side's slices take)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...algebra.layout import Layout
from ...echo import quote
from ...specfile.fields import (AtomTable, Fields, is_int, read_given_tiled_copy, read_smem, read_value_type,
                                refuse_keys, show)
from ...specfile.model import TMA_COPIES, CheckKind, CheckSpec, GivenTiledCopy, SpecError, ValueType, common_fields
from ...specfile.vocabulary import (ACCUMULATOR_KEYS, ACCUMULATOR_STAGE_KEYS, ACCUMULATOR_WAIT_KEYS, GMMA_KEYS,
                                    MAX_TMEM_ELEMENTS, STORE_KEYS, STORE_REQUIRED, TMEM_INSTRUCTIONS, TMEM_KEYS,
                                    TMEM_VIEW_KEYS, TMEM_VIEW_OPTIONAL)

# keys a TMEM check does not read
NOT_READ_BY_TMEM_CHECKS = ("operand", "smem", "copy_for", "copy_mma", "banks", "reduction", "smem_type",
                           "smem_partition") + GMMA_KEYS
MAX_TMEM_COLUMNS = 1 << 16
UMMA_PREFIX = "tcgen05.mma"
ACCUMULATOR_STAGES = "accumulator_stages"
TMEM_VIEW = "tmem_view"
MAX_ACCUMULATOR_STAGES = 512     # an accumulator stage takes at least one of tensor memory's 512 columns


@dataclass(frozen=True)
class TmemStoreSpec:
    """After a TMEM load: make_tiled_copy_D(Copy_Atom<copy, value_type>, the TMEM copy) stores the registers, (the
    accumulators converted to value_type) to the shared tile `smem` (coordinate -> element offset)."""
    copy: str
    value_type: ValueType
    smem: Any
    tiled_copy: GivenTiledCopy | None = None    # the store's TiledCopy as built (default: make_tiled_copy_D)


@dataclass(frozen=True)
class AccumulatorSpec:
    """The tcgen05.mma whose D the TMEM tile is (`accumulator:`): its instruction and M x N, from an SM100 MMA atom
    of the spec (`accumulator: ATOM`) or written out (`accumulator: {instruction, m, n}`, e.g. a .ws form, which
    CuTe has no atom for)."""
    instruction: str
    m: int
    n: int
    atom: str | None = None


@dataclass(frozen=True)
class TmemView:
    """`tmem_view:` the tensor in tensor memory the copy's tile is cut from (all its stages: coordinate -> address,
    lane << 16 | column, from the tensor's first cell), `column`, how many columns past the allocation's first its
    first cell lies, and optionally `stages`, the indices of its last mode the copies take (an importer reads them
    from the kernel's view of the pointer tcgen05.alloc wrote and the slices its copies take of it)."""
    layout: Any
    column: int
    stages: tuple[int, ...] | None = None    # the indices of its last mode the copies take (None: all of it)


@dataclass(frozen=True)
class AccumulatorStages:
    """`accumulator_stages:` of a TMEM load of a staged accumulator (its last mode: the stage a tile accumulates in,
    while the epilogue drains another): every stage index the MMAs that write it (their D) slice it at, and every
    one the load's partitions slice it at, ascending (an importer reads both from the kernel)."""
    mma: tuple[int, ...]
    load: tuple[int, ...]
    mma_waited: tuple[int, ...] | None = None    # how many stages past the one whose barrier its thread waited on
    load_waited: tuple[int, ...] | None = None   # each side's slices take (an importer links them), where stated


@dataclass(kw_only=True)
class TmemCheck(CheckSpec):
    """A tcgen05.ld / st tiled copy of a TMEM tile over one warpgroup (theorems 3, 19-21; 22 with `store`)."""
    kind: ClassVar[str] = CheckKind.TMEM
    copy: str
    value_type: ValueType
    tmem: Any                            # Layout, (coordinate) -> TMEM address (lane << 16 | column, 32-bit cells)
    tmem_columns: int | None = None      # the columns tcgen05.alloc allocated for it
    tmem_view: TmemView | None = None    # the whole tensor the tile is cut from, where it lies (theorem 21)
    tmem_store: TmemStoreSpec | None = None     # the epilogue's register -> shared store after a TMEM load
    accumulator: AccumulatorSpec | None = None  # the MMA that writes the tile (theorem 36)
    accumulator_stages: AccumulatorStages | None = None   # the stages the MMAs write and the load reads (theorem 38)


def reads_tmem_check(fields: Fields, mma: object) -> bool:
    """A check that writes any TMEM key is a TMEM check (its reader says what else it lacks)."""
    return any(fields.has(k) for k in TMEM_KEYS)


def read_tmem_check(fields: Fields, named: CheckSpec, atoms: AtomTable) -> TmemCheck:
    """The configuration, validated: a tcgen05.ld / st atom, no MMA atom, the TMEM tile, the allocation, the store."""
    what = fields.what
    if not fields.has("tmem"):
        key = next(k for k in TMEM_KEYS if fields.has(k))
        raise SpecError(fields.at(key), f"'{key}' of {what} is only used with 'tmem'")
    if named.mma is not None:
        raise SpecError(fields.at("mma"), f"{what} copies a TMEM tile ('tmem'): it names no MMA atom")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} names a TMEM tile ('tmem') and so needs 'copy' (a tcgen05.ld / "
                                    "tcgen05.st atom)")
    if named.copy in TMA_COPIES:
        raise SpecError(fields.at("copy"), f"{what}: a TMEM check needs a tcgen05.ld or tcgen05.st copy atom, not the "
                                           f"TMA copy {named.copy}")
    instruction = atoms.copy[named.copy].instruction or ""
    if not instruction.strip().startswith(TMEM_INSTRUCTIONS):
        raise SpecError(fields.at("copy"), f"{what}: a TMEM check needs a tcgen05.ld or tcgen05.st copy atom; "
                                           f"{quote(named.copy)} issues {quote(instruction or 'no instruction')}")
    refuse_keys(fields, NOT_READ_BY_TMEM_CHECKS, "is not used by TMEM checks")
    check = TmemCheck(**common_fields(named), tmem=fields.layout("tmem", max_elements=MAX_TMEM_ELEMENTS))
    if fields.has("tmem_columns"):
        columns = fields.m["tmem_columns"]
        if not is_int(columns) or not 0 < columns <= MAX_TMEM_COLUMNS:
            raise SpecError(fields.at("tmem_columns"), f"'tmem_columns' of {what} must be a number of columns, "
                                                       f"not {show(columns)}")
        check.tmem_columns = int(columns)
    if fields.has(TMEM_VIEW):
        view = fields.sub(TMEM_VIEW, TMEM_VIEW_KEYS + TMEM_VIEW_OPTIONAL)
        view.require(TMEM_VIEW_KEYS)
        column = view.m["column"]
        if not is_int(column) or not 0 <= column < MAX_TMEM_COLUMNS:
            raise SpecError(view.at("column"), f"'column' of {view.what} must be a column of tensor memory, not "
                                               f"{show(column)}")
        layout = view.layout("layout", max_elements=MAX_TMEM_ELEMENTS)
        taken = None
        if view.has("stages"):
            if not isinstance(layout, Layout):
                raise SpecError(view.at("stages"), f"'stages' of {view.what} index the last mode of a plain layout")
            last = layout.mode(layout.rank() - 1)
            # a stage index past a single leaf's extent is read on past it, as CuTe reads a mode (a pipeline of more
            # stages than the view has); a nested last mode is indexed inside its extent only
            leaf = isinstance(last.shape, int)
            taken = view.index_set("stages", "stage indices", "stage",
                                   MAX_ACCUMULATOR_STAGES if leaf else int(last.size()))
        check.tmem_view = TmemView(layout, int(column), taken)
    if fields.has("store"):
        if not instruction.strip().startswith(TMEM_INSTRUCTIONS[0]):
            raise SpecError(fields.at("store"), f"'store' of {what} follows a TMEM load; {quote(named.copy)} stores")
        st = fields.sub("store", STORE_KEYS)
        for k in STORE_REQUIRED:
            if not st.has(k):
                raise SpecError(fields.at("store"), f"'store' of {what} needs '{k}'")
        copy = atoms.lookup(st, "copy", atoms.copy, "copy atom")
        value_type = read_value_type(st.m["value_type"], st.at("value_type"), f"'value_type' of {st.what}")
        check.tmem_store = TmemStoreSpec(copy, value_type, read_smem(st, value_type),
                                         read_given_tiled_copy(st, "tiled_copy") if st.has("tiled_copy") else None)
    if fields.has("accumulator"):
        check.accumulator = read_accumulator(fields, atoms)
    if fields.has(ACCUMULATOR_STAGES):
        if not instruction.strip().startswith(TMEM_INSTRUCTIONS[0]):
            raise SpecError(fields.at(ACCUMULATOR_STAGES), f"'{ACCUMULATOR_STAGES}' of {what} names the stages a TMEM "
                                                           f"load reads; {quote(named.copy)} stores")
        stages = fields.sub(ACCUMULATOR_STAGES, ACCUMULATOR_STAGE_KEYS + ACCUMULATOR_WAIT_KEYS)
        stages.require(ACCUMULATOR_STAGE_KEYS)
        mma, load = (stages.index_set(k, "stage indices", "stage", MAX_ACCUMULATOR_STAGES)
                     for k in ACCUMULATOR_STAGE_KEYS)
        mma_waited, load_waited = (stages.index_set(k, "offsets in stages", "offset", MAX_ACCUMULATOR_STAGES)
                                   if stages.has(k) else None for k in ACCUMULATOR_WAIT_KEYS)
        check.accumulator_stages = AccumulatorStages(mma, load, mma_waited, load_waited)
    return check


def read_accumulator(fields: Fields, atoms: AtomTable) -> AccumulatorSpec:
    """`accumulator: ATOM` (an MMA atom of the spec) or `accumulator: {instruction: ..., m: M, n: N}`."""
    what = fields.what
    value = fields.m["accumulator"]
    if isinstance(value, str):
        name = atoms.lookup(fields, "accumulator", atoms.mma, "MMA atom")
        atom = atoms.mma[name]
        if not (atom.instruction or "").startswith(UMMA_PREFIX):
            raise SpecError(fields.at("accumulator"), f"'accumulator' of {what}: {quote(name)} issues "
                                                      f"{quote(atom.instruction or 'no instruction')}, not tcgen05.mma")
        return AccumulatorSpec(atom.instruction or "", atom.shape_mnk[0], atom.shape_mnk[1], name)
    acc = fields.sub("accumulator", ACCUMULATOR_KEYS)
    for k in ACCUMULATOR_KEYS:
        if not acc.has(k):
            raise SpecError(fields.at("accumulator"), f"'accumulator' of {what} needs '{k}' (or name an MMA atom)")
    instruction = acc.m["instruction"]
    if not isinstance(instruction, str) or not instruction.startswith(UMMA_PREFIX):
        raise SpecError(acc.at("instruction"), f"'instruction' of {acc.what} must be a tcgen05.mma instruction, not "
                                               f"{show(instruction)}")
    sizes = []
    for k in ("m", "n"):
        v = acc.m[k]
        if not is_int(v) or not 0 < v <= MAX_TMEM_COLUMNS:
            raise SpecError(acc.at(k), f"'{k}' of {acc.what} must be a positive size, not {show(v)}")
        sizes.append(int(v))
    return AccumulatorSpec(instruction, sizes[0], sizes[1])
