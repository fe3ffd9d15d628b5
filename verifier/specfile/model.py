"""What a spec file holds once loaded and validated (format version 1, ../DESIGN.md).

Every object remembers where it was written (`Loc`) so that errors and reports point at the file,
line and column a user can open.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:                  # annotations only: reading a result back imports no algebra
    from ..algebra.layout import Layout


class CheckKind(str, Enum):
    """What a check names decides which theorems it runs."""
    MMA = "mma"        # an MMA atom alone: theorems 1, 2, 11
    COPY = "copy"      # a copy atom alone: theorem 3
    TILED = "tiled"    # a tiled MMA, an operand, a copy and its shared-memory tile: theorems 1-12
    GMMA = "gmma"      # a wgmma operand in shared memory, filled by TMA from a global tensor: the Hopper path
    TMEM = "tmem"      # a tcgen05.ld / st tiled copy of a tensor-memory tile (make_tmem_copy): theorems 3, 19-21


# copies the tool knows without a copy_atoms entry: their traits depend on a tensor map, not on layouts
TMA_COPIES = ("SM90_TMA_LOAD",)
UMMA_INSTRUCTION = "tcgen05.mma"    # the instruction of every SM100 MMA atom (cute.umma reads atoms by it)


@dataclass(frozen=True)
class Loc:
    file: str
    line: int      # 1-based
    column: int    # 1-based

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class SpecError(Exception):
    """A bad spec: printed as `file:line:column: message`, exit code 2."""

    def __init__(self, loc: Loc | None, message: str) -> None:
        self.loc, self.message = loc, message
        super().__init__(f"{loc}: {message}" if loc else message)


@dataclass(frozen=True)
class ValueType:
    name: str      # as written: half_t, or "16" for a bare bit width
    bits: int


@dataclass
class MMAAtomSpec:
    name: str
    instruction: str | None
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    types: dict[str, ValueType]          # keys a, b, c, d
    a: Layout                            # (thr,val) -> m + M*k
    b: Layout                            # (thr,val) -> n + N*k
    c: Layout                            # (thr,val) -> m + M*n
    loc: Loc
    field_locs: dict[str, Loc] = field(default_factory=dict)   # key -> where its value is written
    source: str | None = None            # e.g. the C++ header:line an imported atom came from


@dataclass
class CopyAtomSpec:
    name: str
    instruction: str | None
    thr_id: Layout
    src: Layout                          # (thr,bit) -> bit
    dst: Layout
    ref: Layout                          # resolved: `ref: dst` gives the dst layout
    ref_is: str                          # "src", "dst" or "layout"
    loc: Loc
    field_locs: dict[str, Loc] = field(default_factory=dict)
    source: str | None = None


@dataclass
class TiledSpec:
    atom_layout: tuple[int, ...] | Layout | None = None   # make_tiled_mma thread layout (M,N,K), or a layout
    permutation: tuple[Any, ...] | None = None       # ints or Layouts per mode
    permutation_given: bool = False                  # written, possibly as null (no permutation): not inherited


@dataclass(frozen=True)
class TmemStoreSpec:
    """After a TMEM load: make_tiled_copy_D(Copy_Atom<copy, value_type>, the TMEM copy) stores the registers, (the
    accumulators converted to value_type) to the shared tile `smem` (coordinate -> element offset)."""
    copy: str
    value_type: ValueType
    smem: Any


@dataclass
class CheckSpec:
    name: str
    loc: Loc
    mma: str | None = None
    atom_layout: tuple[int, ...] | Layout | None = None
    permutation: tuple[Any, ...] | None = None
    operand: str | None = None           # "A" | "B" | "C"
    copy: str | None = None
    value_type: ValueType | None = None
    smem: Any = None                     # Layout | ComposedLayout, element offsets of the operand tile
    expect: str = "pass"                 # an Expect value: pass | fail | undecided | unsupported
    copy_for: str | None = None          # which make_tiled_copy_X built the copy (default: operand)
    copy_mma: TiledSpec | None = None    # the tiled MMA the copy was built from (default: the same)
    description: str | None = None
    # the Hopper path (version 2 keys)
    gmem: Any = None                     # the global (MN, K) tensor the TMA copy reads: Layout, elements
    major: str | None = None             # the wgmma operand's major-ness when the atom's name does not say: K | MN
    smem_absolute: bool = False          # the smem swizzle reads absolute addresses (a GMMA smem_ptr layout)
    smem_align: int | None = None        # bytes the smem buffer is aligned to (default: the swizzle's repeat)
    descriptor: dict[str, int] = field(default_factory=dict)   # descriptor fields overriding make_gmma_desc's
    tma_box: tuple[int, int] | None = None                     # a box overriding make_tma_copy's
    banks: str | None = None             # "conflict_free" (theorem 17) | "report" (counts, as information)
    reduction: str | None = None         # "K": the K slices of a K-split tiled MMA each store a partial C tile
    smem_type: ValueType | None = None   # the shared tile's element type (default: the MMA operand's type)
    tmem: Any = None                     # Layout, (coordinate) -> TMEM address (lane << 16 | column, 32-bit cells)
    tmem_columns: int | None = None      # the columns tcgen05.alloc allocated for it
    tmem_store: TmemStoreSpec | None = None     # the epilogue's register -> shared store after a TMEM load
    field_locs: dict[str, Loc] = field(default_factory=dict)

    @property
    def kind(self) -> CheckKind:
        if self.tmem is not None:
            return CheckKind.TMEM
        if self.mma and self.copy in TMA_COPIES:
            return CheckKind.GMMA
        if self.mma and self.copy:
            return CheckKind.TILED
        return CheckKind.MMA if self.mma else CheckKind.COPY


@dataclass
class Spec:
    path: str
    name: str
    version: int
    mma_atoms: dict[str, MMAAtomSpec]
    copy_atoms: dict[str, CopyAtomSpec]
    checks: dict[str, CheckSpec]          # in file order
    includes: list[str] = field(default_factory=list)
    loc: Loc | None = None
    description: str | None = None
    closure: list[str] = field(default_factory=list)   # this file and every file it includes, transitively
