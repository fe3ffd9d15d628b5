"""tcgen05.mma ... .block_scale (SM100): which tensor-memory byte the tensor core multiplies each row of A (each
column of B) by, for each scale vector of the instruction's K.

NOT HARDWARE-VALIDATED: there is no Blackwell GPU here.  Written from the PTX ISA, "TensorCore 5th Generation Family
Instructions": "Block Scaling" (scale_A is M x (K / VS), scale_B (K / VS) x N: chunk j of row i of A, VS elements
along K, is multiplied by scale_A[i][j], likewise B's columns; the scale matrices reside in tensor memory at
[scale-A-tmem] / [scale-B-tmem] and "need to be duplicated to all 32 lane partitions" -- the four 32-lane
sub-partitions), its "Layout of the scale factor matrices" per vector size (.scale_vec::1X: one factor a row, one
byte of the 32-bit TMEM word, which the scale factor ID selects (0..3); ::2X: two factors, a 16-bit half selected by
the ID (0 or 2); ::4X: four factors, the whole word, ID 0), and the instruction descriptor (Table "Instruction
descriptor format for .kind::mxf8f6f4" / "... .kind::mxf4 and .kind::mxf4nvf4": the A scale factor ID in bits 29-30,
B's in bits 4-5).

Which lane and column hold row x (of A; column x of B): the figures that draw it were not readable here.  The model
takes, for a scale address with lane field L0 and column C0, each sub-partition p holding a copy:
    lane  L0 + 32 p + x % 32        (p = 0..3: the four copies the text requires)
    column C0 + x / 32
    byte   ID + j                   (scale vector j of the instruction's K / VS)
-- INFERRED: the reading under which a 128-row scale matrix fills exactly the four copies the text asks for, and the
one CUTLASS's whole scale-factor path depends on (tmem_sf_frg's layout, its 512-byte blocks copied by
tcgen05.cp.32x128b.warpx4, its +2-column shift of the B scale address for odd N tiles of 64 or 192 columns).  The
address CUTLASS passes carries the scale factor ID in its bits 30-31 as well; the PTX ISA does not say the lane field
ignores them, and the model, like every CUTLASS kernel that runs, reads the lane from bits 16-22.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .smem_operand import Addr

SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Block Scaling (scale factor matrix layouts for "
           ".scale_vec::1X / 2X / 4X), Instruction descriptor (scale factor IDs)")
SUBPARTITION = 32
REPLICAS = 4
LANE_FIELD_BITS = 7              # 128 lanes: the lane field the model reads (address bits 16-22)
ADDRESS_LANE = 1 << 16


class ScaleVec(str, Enum):
    """.scale_vec::NX: the scale factors one row of A (column of B) has per instruction."""
    X1 = "1X"
    X2 = "2X"
    X4 = "4X"

    @property
    def factors(self) -> int:
        return {ScaleVec.X1: 1, ScaleVec.X2: 2, ScaleVec.X4: 4}[self]

    @property
    def ids(self) -> tuple[int, ...]:
        """The scale factor IDs the layout allows: a byte (1X), a 16-bit half (2X), the whole word (4X)."""
        return {ScaleVec.X1: (0, 1, 2, 3), ScaleVec.X2: (0, 2), ScaleVec.X4: (0,)}[self]

    @classmethod
    def of_factors(cls, factors: int) -> "ScaleVec | None":
        return next((v for v in cls if v.factors == factors), None)


def id_problem(vec: ScaleVec, sf_id: int) -> str | None:
    """Why a scale factor ID is not one the vector size's layout allows, or None."""
    if sf_id not in vec.ids:
        return (f"a scale factor ID of {sf_id} with .scale_vec::{vec.value}: the layout allows "
                f"{', '.join(map(str, vec.ids))} (the factors of a row must lie in one 32-bit word)")
    return None


@dataclass(frozen=True)
class ScaleCell:
    lane: Addr
    column: Addr
    byte: Addr


def scale_cell(lane0: Addr, column0: Addr, sf_id: Addr, row: Addr, vector: Addr, replica: Addr) -> ScaleCell:
    """The TMEM byte the tensor core reads as scale factor `vector` of row `row` (A) / column `row` (B), in the copy
    of sub-partition `replica`."""
    return ScaleCell(lane0 + replica * SUBPARTITION + row % SUBPARTITION, column0 + row // SUBPARTITION,
                     sf_id + vector)


def address_fields(address: int) -> tuple[int, int, int]:
    """(lane, column, scale factor ID) of a scale address as CUTLASS passes it: the lane from bits 16-22, the column
    from bits 0-15, the ID (CUTLASS's copy of the instruction descriptor's field) from bits 30-31."""
    return (address >> 16) & ((1 << LANE_FIELD_BITS) - 1), address & 0xFFFF, (address >> 30) & 3


# the block-scaled kinds and the vector sizes each takes (PTX ISA, Block Scaling: "Valid combinations of .kind and
# .scale_vectorsize"; .block32 / .block16 are the K-relative names of the same layouts at K = 32 / 64)
KIND_SCALE_VECS: dict[str, tuple[ScaleVec, ...]] = {
    "mxf8f6f4": (ScaleVec.X1,), "mxf4": (ScaleVec.X2,), "mxf4nvf4": (ScaleVec.X2, ScaleVec.X4)}
KIND_DEFAULT_VEC: dict[str, ScaleVec] = {"mxf8f6f4": ScaleVec.X1, "mxf4": ScaleVec.X2}   # the qualifier omitted
BLOCK_ALIASES = {"block32": 32, "block16": 16}     # .blockN: a factor every N elements of K
BLOCK_SCALE = "block_scale"


def scale_vec_of(instruction: str, k: int) -> ScaleVec | str:
    """The vector size of a block-scaled `tcgen05.mma.cta_group::N.kind::K.block_scale[.vec]` with the instruction's
    K, or why it has none (not block-scaled, a vector size the kind lacks, no default)."""
    words = instruction.strip().split(".")
    kind = next((w.split("::", 1)[1] for w in words if w.startswith("kind::")), "")
    if BLOCK_SCALE not in words or kind not in KIND_SCALE_VECS:
        return f"{instruction!r} is no block-scaled tcgen05.mma (.kind::mxf8f6f4 / mxf4 / mxf4nvf4 .block_scale)"
    rest = words[words.index(BLOCK_SCALE) + 1:]
    if not rest:
        vec = KIND_DEFAULT_VEC.get(kind)
        return vec if vec is not None else f".kind::{kind} names its vector size (no default)"
    word = rest[0]
    if word.startswith("scale_vec::"):
        found = next((v for v in ScaleVec if word == f"scale_vec::{v.value}"), None)
    elif word in BLOCK_ALIASES:
        found = ScaleVec.of_factors(k // BLOCK_ALIASES[word]) if k % BLOCK_ALIASES[word] == 0 else None
    else:
        found = None
    if found is None or found not in KIND_SCALE_VECS[kind]:
        allowed = ", ".join(f"scale_vec::{v.value}" for v in KIND_SCALE_VECS[kind])
        return f".kind::{kind} with .{word} at K = {k}: the kind takes {allowed}"
    return found
