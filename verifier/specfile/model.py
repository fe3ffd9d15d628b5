"""What a spec file holds once loaded and validated (format versions 1 and 2; README, "Spec format").

Every object remembers where it was written (`Loc`) so that errors and reports point at the file,
line and column a user can open.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:                  # annotations only: reading a result back imports no algebra
    from ..algebra.layout import Layout


class CheckKind(str, Enum):
    """What a check names decides which theorems it runs."""
    MMA = "mma"        # an MMA atom alone: theorems 1, 2, 11
    COPY = "copy"      # a copy atom alone: theorem 3
    TILED = "tiled"    # a tiled MMA, an operand, a copy and its shared-memory tile: theorems 1-12
    GMMA = "gmma"      # a wgmma operand in shared memory, filled by TMA from a global tensor: the Hopper path
    TMEM = "tmem"      # a tcgen05.ld / st tiled copy of a tensor-memory tile (make_tmem_copy): theorems 3, 19-21
    BUFFER = "buffer"  # a shared buffer's writer and reader: theorem 23
    SCALE = "scale"    # a block-scaled MMA's scale factors, global memory -> TMEM -> the tensor core: 24-26
    METADATA = "metadata"  # a structured-sparse wgmma's metadata, global memory -> registers -> sp-meta: 27, 28
    BLOCKWISE = "blockwise"  # a blockwise-scaled GEMM's scales, global memory -> shared -> the accumulator: 29, 30
    MIXED_SCALE = "mixed_scale"  # a mixed-input GEMM's scales / zero points, global -> registers -> A: 31, 32
    TRANSPOSE = "transpose"  # wgmma's B transposed in shared memory (MN-major -> K-major) before it is read: 34
    FAMILY = "family"  # one check for every value of its parameters (`family:`): each member proved


# copies the tool knows without a copy_atoms entry: their traits depend on a tensor map, not on layouts
TMA_COPIES = ("SM90_TMA_LOAD",)
# ... and the scale-factor copies of a block-scaled MMA (tcgen05.cp, smem -> TMEM): read by scale checks only
UTCCP_COPIES = ("SM100_UTCCP_4x32dp128bit_1cta", "SM100_UTCCP_4x32dp128bit_2cta")
# tcgen05.cp.128x128b: a tcgen05.mma.sp's metadata, shared -> tensor memory (a metadata check's copy)
METADATA_UTCCP_COPIES = ("SM100_UTCCP_128dp128bit_1cta", "SM100_UTCCP_128dp128bit_2cta")
TMEM_METADATA_INSTRUCTION = "tcgen05.mma.sp."   # a sparse MMA whose metadata is in tensor memory: no ELayout
SCALE_KEY = "scale_factors"         # the key that makes a check a scale check (kinds/scale)
METADATA_KEY = "metadata"           # the key that makes a check a sparse metadata check (kinds/sparse)
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

    @property
    def smem_bits(self) -> int:
        """The bits one element takes in shared memory: its own, or a byte for CUTLASS's unpacked 4- and 6-bit types
        (float_e2m1_unpacksmem_t ...)."""
        from ..algebra.types import smem_container_bits
        return smem_container_bits(self.name, self.bits)


@dataclass
class MMAAtomSpec:
    name: str
    instruction: str | None
    shape_mnk: tuple[int, int, int]
    thr_id: Layout
    types: dict[str, ValueType]          # keys a, b, c, d; sf (a block-scaled MMA's scale factors), e (a sparse
                                         # MMA's metadata) when written
    a: Layout                            # (thr,val) -> m + M*k
    b: Layout                            # (thr,val) -> n + N*k
    c: Layout                            # (thr,val) -> m + M*n
    loc: Loc
    field_locs: dict[str, Loc] = field(default_factory=dict)   # key -> where its value is written
    source: str | None = None            # e.g. the C++ header:line an imported atom came from
    e: Layout | None = None              # a structured-sparse MMA's metadata: MMA_Traits::ELayout, (thr,val) -> m + M*k
                                         # in logical elements of A (None: a dense MMA)
    sp_sel: int = 0                      # ... and its sparsity selector (the Op's GMMA::SparseSel; CuTe's default 0)


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
class GivenTiledCopy:
    """A TiledCopy as its builder made it (the CuTe DSL's `!cute.tiled_copy` type), in place of make_tiled_copy_X."""
    layout_tv: Layout             # (thr, val) -> (m, n) coordinate of the tile
    tiler: tuple[Any, ...]        # the tile (m, n) it covers: sizes or layouts


@dataclass
class CheckSpec:
    """What every check names: its place, the atoms it uses and its expectation.  A check's kind adds the rest as
    its typed configuration (a subclass, verifier/kinds/*/config.py), which is what the loader builds."""
    kind: ClassVar[str]                  # the kind's registered name (CheckKind's value for the built-in kinds)
    name: str
    loc: Loc
    mma: str | None = None
    atom_layout: tuple[int, ...] | Layout | None = None
    permutation: tuple[Any, ...] | None = None
    operand: str | None = None           # "A" | "B" | "C"
    copy: str | None = None
    value_type: ValueType | None = None
    expect: str = "pass"                 # an Expect value: pass | fail | undecided | unsupported
    description: str | None = None
    source: str | None = None            # where the configuration comes from (an importer's file:line:column)
    assumes: tuple[str, ...] = ()        # what the verdict assumes beyond the check's keys (every report says it)
    field_locs: dict[str, Loc] = field(default_factory=dict)

    def summary(self) -> str:
        """What the check is, in one line: the MMA atom and operand, the copy and its value type."""
        parts = []
        if self.mma:
            parts.append(self.mma + (f" {self.operand}" if self.operand else ""))
        if self.copy:
            parts.append(("<- " if self.mma else "") + self.copy
                         + (f" on {self.value_type.name}" if self.value_type else ""))
        return " ".join(parts)


def common_fields(check: CheckSpec) -> dict[str, Any]:
    """The fields every check has, by name: what a kind's reader builds its configuration from."""
    return {f.name: getattr(check, f.name) for f in fields(CheckSpec)}


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
    unbuilt: list[str] = field(default_factory=list)   # checks named but not read (loaded for other checks only)
