"""What a theorem is made of before it is decided, and what it becomes after.

A theorem is planned as a list of items, each carrying the spec field to blame (its suspect) from the
moment it is built:
- `Claim`: an obligation over bounded variables (decided by Z3 or exhaustive enumeration), with the
  chain a witness is traced through;
- `Fact`: a comparison of two concrete numbers or names, decided exactly (no variables);
or by one `Refusal` (CuTe itself would not compile the configuration: its rule) or one `Unsupported`
(no model for an instruction or feature).  Deciding them yields `ItemResult`s and a `TheoremResult`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Callable, Union

from ..outcome import Status
from ..specfile.model import Loc
from ..symbolic.procedure import CrossCheck, Procedure
from .catalog import BY_ID, TheoremId

if TYPE_CHECKING:                  # a claim's parts: reading results back (the proof cache) needs neither
    from ..symbolic.expr import Pred
    from ..symbolic.obligation import Obligation


@dataclass(frozen=True)
class Suspect:
    """The spec field a reader should look at, in words, and where it is written."""
    what: str
    loc: Loc | None = None
    source: str | None = None     # the C++ header:line an imported atom came from


@dataclass(frozen=True)
class Blame:
    """A suspect chosen at the witness: the first case whose predicate holds there, else the default."""
    cases: tuple[tuple[Pred, Suspect], ...]
    default: Suspect


class Trace(str, Enum):
    """How a witness point is traced through a tiled check's chain (theorems/chain.py)."""
    NONE = "none"
    DESTINATION = "destination"     # (thread, value, instance) of the copy's destination
    REGISTER_SIDE = "register"      # (thread, value, instance) of the copy's register side
    MEMORY_SIDE = "memory"          # (thread, value, instance) of the copy's shared-memory side
    TMA_BOX = "tma_box"             # (base, stage, box, row, col) of a TMA box (theorems/sm90_chain.py)
    GMMA_SLOT = "gmma_slot"         # (base, stage, slice, element) a wgmma instruction reads
    BUFFER_ELEMENT = "buffer_element"   # (base, coordinate) of an element of a shared buffer (kinds/buffer)
    SCALE_FACTOR = "scale_factor"       # (tile, stage, mn, factor) of a block-scaled MMA's scale factor (kinds/scale)
    SCALE_COPY = "scale_copy"           # (stage, copy, row, byte, sub-partition) of a tcgen05.cp (kinds/scale)
    SCALE_READ = "scale_read"           # (k-block, mn, vector, sub-partition) of the MMA's read (kinds/scale)
    METADATA_ELEMENT = "metadata_element"   # (tile, stage, m, k) of a sparse wgmma's metadata element (kinds/sparse)
    METADATA_BIT = "metadata_bit"           # (thread, m_block, k_block, bit) of a wgmma's sp-meta (kinds/sparse)
    METADATA_COPY = "metadata_copy"         # (stage, row, element) a tcgen05.cp of E writes (kinds/sparse, SM100)
    METADATA_MMA = "metadata_mma"           # (k_tile, k_block, m, k) of the TMEM metadata an MMA is handed (SM100)
    BLOCKWISE_SLOT = "blockwise_slot"       # (tile, stage, write or block) of a blockwise load (kinds/blockwise)
    BLOCKWISE_READ = "blockwise_read"       # (thread, value, k-block, stage) of a blockwise scale's read
    MIXED_SCALE_SLOT = "mixed_scale_slot"   # (tile, column, stage, m) of a mixed-input scale's load (kinds/mixed_scale)
    MIXED_SCALE_READ = "mixed_scale_read"   # (thread, value, k-block, copy value, stage) of a scale register's read
    TRANSPOSE = "transpose"                 # (base, stage, warp tile, lane, value) of B's transposition


@dataclass
class Claim:
    obligation: Obligation
    suspect: Suspect | Blame
    trace: Trace = Trace.NONE
    subject: str = ""               # what it is about, e.g. the MMA operand "B"
    # when set, `obligation` is an equivalent form of this one (it holds exactly when this one does, over fewer
    # variables or points: one that claims sharing more often decide once) and is decided first; when that form is
    # not proved, this one is built, decided and reported (the counterexample in the claim's own variables), and the
    # two must agree
    exact: Callable[[], Obligation] | None = None


@dataclass
class Fact:
    """A comparison decided exactly on concrete values: `actual` is what the configuration has."""
    title: str
    holds: bool
    actual: str
    expected: str
    suspect: Suspect
    note: str = ""
    subject: str = ""
    point: dict[str, int] | None = None   # a witness point, when the fact was found by evaluating a domain
    failing: int | None = None            # ... and how many of its `domain_size` points fail
    domain_size: int = 0


@dataclass
class Refusal:
    """CuTe refuses the configuration: `rule` is its static_assert's message."""
    rule: str
    detail: str
    suspect: Suspect


@dataclass
class Unsupported:
    missing: str                    # what has no model, and why that stops the theorem


Item = Union[Claim, Fact]
Plan = Union[list[Item], Refusal, Unsupported]


# --- results ---------------------------------------------------------------------------------------

@dataclass
class ChainLine:
    label: str
    text: str


@dataclass
class Witness:
    """A refutation described for a person.  Describing never changes the status it describes: when it
    fails, `description_error` says what could not be described."""
    point: dict[str, int] = field(default_factory=dict)
    failing: int | None = None            # failing points (over the counted variables)
    failing_exact: bool = True
    smallest: bool = True                 # the point is the lexicographically smallest failing one
    counted_size: int = 0
    values: dict[str, int] = field(default_factory=dict)
    actual: str | None = None
    expected: str | None = None
    closed_forms: dict[str, str] = field(default_factory=dict)
    suspect: Suspect | None = None
    chain_title: str = ""
    chain: list[ChainLine] = field(default_factory=list)
    description_error: str = ""


@dataclass
class ItemResult:
    title: str
    status: Status
    procedure: Procedure | None = None
    seconds: float = 0.0
    width: int = 0
    domain: str = ""
    domain_size: int = 0
    reason: str = ""
    note: str = ""
    subject: str = ""
    cross_check: CrossCheck | None = None
    witness: Witness | None = None


@dataclass
class TheoremResult:
    id: TheoremId
    status: Status
    items: list[ItemResult] = field(default_factory=list)
    reason: str = ""                      # why not proved, for undecided / unsupported / refused / error
    seconds: float = 0.0

    @property
    def number(self) -> int:
        return BY_ID[self.id].number

    @property
    def title(self) -> str:
        return BY_ID[self.id].title

    def first_failure(self) -> ItemResult | None:
        return next((i for i in self.items if i.status.refutes), None)
