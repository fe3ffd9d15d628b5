"""tcgen05.cp (SM100): one thread copies a matrix from shared memory into tensor memory (TMEM).

NOT HARDWARE-VALIDATED: there is no Blackwell GPU here.  Written from the PTX ISA, "TensorCore 5th Generation Family
Instructions": tcgen05.cp (syntax `tcgen05.cp.cta_group.shape{.multicast} [taddr], s-desc`; issued by a single
thread; `.64x128b` requires `.warpx2::02_13` or `.warpx2::01_23`, `.32x128b` requires `.warpx4`; "warpx2" pairs the
warps (0,2),(1,3) or (0,1),(2,3), each warp of a pair receiving the data, "warpx4" multicasts to all four), "Data
Movement Shape" (a shape is lanes x bits: the TMEM rows written and the bits of each, running across consecutive
32-bit columns), "Matrix Descriptors" (the source is a shared-memory matrix described by the 64-bit shared memory
descriptor, umma_desc.py) and "Tensor Memory" (lane << 16 | column addresses, 128 lanes x 512 columns, four 32-lane
sub-partitions, warp w of a warpgroup owning lanes 32 w .. 32 w + 31).

What one copy moves, for destination taddr = (lane L0, column C0) and source descriptor D, in our words:
- the source is a K-major matrix of `rows` rows (the shape's lanes) and bits / 8 bytes a row, read through D as the
  tensor core reads a K-major operand of 1-byte elements (row r = the M/N index, byte b = the K index): without a
  swizzle, byte b of row r is at D.start + (r % 8) * 16 + (r / 8) * SBO + (b / 16) * LBO + b % 16;
- row r goes to TMEM lane(s)
      .128x256b, .128x128b      L0 + r
      .64x128b.warpx2::02_13    L0 + r and L0 + r + 64       (rows 0-31 to warps 0 and 2, rows 32-63 to 1 and 3)
      .64x128b.warpx2::01_23    L0 + 64 (r / 32) + r % 32 + 32 h, h = 0, 1   (rows 0-31 to warps 0, 1; 32-63 to 2, 3)
      .32x128b.warpx4           L0 + r + 32 p, p = 0..3
  and byte b of the row to column C0 + b / 4, byte b % 4 of that 32-bit cell (bits run across consecutive columns,
  the cell's bytes little-endian as every 32-bit register's);
- `.4x256b` (four rows) is not modelled: the text names its shape only, and CUTLASS's traits and comment disagree on
  its lanes.
With `.cta_group::2` the copy writes the TMEM of both CTAs of the pair, each from its own shared memory at the same
address (the PTX ISA: "the tensor memory of the current and the peer CTA"; that each reads its own shared memory is
our reading).  The decompressing forms (`.b8x16.b6x16_p32` / `.b4x16_p64`) are not modelled.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .smem_operand import Addr, Major
from .umma_desc import UmmaDescriptor, read_address

SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: tcgen05.cp, Data Movement Shape, Matrix "
           "Descriptors (Shared Memory Descriptor), Tensor Memory")
TMEM_LANES = 128
TMEM_COLUMNS = 512
SUBPARTITION = 32
CELL_BYTES = 4


class CpShape(str, Enum):
    """tcgen05.cp's shape and multicast qualifiers."""
    S128x256b = "128x256b"
    S128x128b = "128x128b"
    S64x128b_02_13 = "64x128b.warpx2::02_13"
    S64x128b_01_23 = "64x128b.warpx2::01_23"
    S32x128b_X4 = "32x128b.warpx4"
    S4x256b = "4x256b"

    @property
    def rows(self) -> int:
        return int(self.value.split("x")[0])

    @property
    def row_bytes(self) -> int:
        return int(self.value.split("x")[1].split("b")[0]) // 8

    @property
    def copies(self) -> int:
        """TMEM lanes each source row is written to."""
        return {CpShape.S64x128b_02_13: 2, CpShape.S64x128b_01_23: 2, CpShape.S32x128b_X4: 4}.get(self, 1)


UNMODELLED = {CpShape.S4x256b: "tcgen05.cp.4x256b: the PTX ISA text names the shape only, and CUTLASS's traits and "
                               "comment disagree on its lanes"}


def shape_of(qualifiers: str) -> CpShape | None:
    """The shape of `tcgen05.cp.cta_group::N.<shape>[.<multicast>]` (the qualifiers after `cta_group::N`)."""
    return next((s for s in CpShape if qualifiers == s.value), None)


@dataclass(frozen=True)
class CpCell:
    """One byte a copy writes: TMEM lane, column and byte of the 32-bit cell."""
    lane: Addr
    column: Addr
    byte: Addr


def source_address(desc: UmmaDescriptor, start: Addr, row: Addr, byte: Addr) -> Addr:
    """The shared byte tcgen05.cp reads as byte `byte` of source row `row` (a K-major matrix of 1-byte elements read
    through the descriptor; `start` replaces the descriptor's start address, an expression when quantified)."""
    return read_address(desc, Major.K, row, byte, 1, start=start)


def destination(shape: CpShape, lane0: Addr, column0: Addr, row: Addr, byte: Addr, copy: Addr) -> CpCell:
    """The TMEM cell byte `byte` of source row `row` lands in, for the `copy`-th of the shape's multicast copies."""
    if shape in UNMODELLED:
        raise ValueError(UNMODELLED[shape])
    if shape is CpShape.S32x128b_X4:
        lane = lane0 + row + copy * SUBPARTITION
    elif shape is CpShape.S64x128b_02_13:
        lane = lane0 + row + copy * 64
    elif shape is CpShape.S64x128b_01_23:
        lane = lane0 + (row // SUBPARTITION) * 64 + row % SUBPARTITION + copy * SUBPARTITION
    else:
        lane = lane0 + row
    return CpCell(lane, column0 + byte // CELL_BYTES, byte % CELL_BYTES)


def cells(shape: CpShape, lane0: int, column0: int) -> list[tuple[int, int, int, int, int, int]]:
    """Every (row, byte, copy, lane, column, cell byte) one copy writes (concrete)."""
    out = []
    for r in range(shape.rows):
        for b in range(shape.row_bytes):
            for c in range(shape.copies):
                d = destination(shape, lane0, column0, r, b, c)
                out.append((r, b, c, int(d.lane), int(d.column), int(d.byte)))
    return out


def destination_problem(shape: CpShape, lane0: int, column0: int, columns: int = TMEM_COLUMNS) -> str | None:
    """Why the copy's TMEM footprint leaves tensor memory (or the `columns` allocated), or None."""
    if shape in UNMODELLED:
        return UNMODELLED[shape]
    lanes = [int(destination(shape, lane0, column0, r, 0, c).lane) for r in range(shape.rows)
             for c in range(shape.copies)]
    last_column = column0 + (shape.row_bytes - 1) // CELL_BYTES
    if min(lanes) < 0 or max(lanes) >= TMEM_LANES:
        return f"lanes {min(lanes)}..{max(lanes)} leave the {TMEM_LANES} lanes of tensor memory"
    if column0 < 0 or last_column >= columns:
        return f"columns {column0}..{last_column} leave the {columns} columns allocated"
    return None
