"""tcgen05.ld / tcgen05.st (SM100): one warp moves a tile of tensor memory (TMEM) to or from its registers.

Written from the PTX ISA, "TensorCore 5th Generation Family Instructions": "Tensor Memory" (128 lanes x 512
columns of 32-bit cells per CTA; an address is lane << 16 | column), "Data Movement Shape" and its "Matrix
fragments for shape .32x32b / .16x64b / .16x128b / .16x256b / .16x32bx2" (the figures of which register of which
thread holds which lane and column), "tcgen05.ld" / "tcgen05.st" (.num, .pack::16b / .unpack::16b, the
warp's access restriction).  Not hardware-validated: there is no Blackwell GPU on the capture machine; the
formulas were checked against the figures and, as a second opinion, against CuTe's SM100_TMEM_LOAD/STORE traits.

What one instruction moves, for a warp whose address names TMEM lane L0 and column C0:
- the shape names the lanes (32 or 16, from L0) and the bits of each lane one repetition covers (32, 64, 128,
  256, or 2 x 32 for .16x32bx2); `.num` = .x1 ... .x128 repeats it along the columns; each thread holds
  `regs_per_rep * num` 32-bit registers (at most 128);
- register r of lane l (of the warp) holds the cell (lane, column) below, relative to (L0, C0):
    .32x32b     lane l,                       column r
    .16x64b     lane l/4 + 8*(l%2),           column (l/2)%2 + 2r
    .16x128b    lane l/4 + 8*(r%2),           column l%4 + 4*(r/2)
    .16x256b    lane l/4 + 8*((r/2)%2),       column r%2 + 2*(l%4) + 8*(r/4)
    .16x32bx2   lane l%16,                    column r of half l/16; the second half starts immHalfSplitoff
                                              columns after the first (CuTe's Ops pass num: the halves abut)
- .pack::16b (ld): the 16-bit values in the low halves of two adjacent columns 2c, 2c+1 become the low and high
  half of the register that would hold column c; .unpack::16b (st) is the reverse.  Numbered in 16-bit data
  units the routing is the unpacked one; the instruction spans twice the columns.
- a warp may access only the 32 lanes of its quarter: warp w of a warpgroup reads and writes lanes 32*(w%4) ..
  32*(w%4)+31 (the 16-lane shapes: either half of it, from L0).

The TMEM side as CuTe names it (and as the model numbers it): the tile's data bits, lane-major, `bits_per_lane`
(= the shape's bits x num) per lane; every thread names the whole tile (a thread stride 0, as for a wgmma
descriptor operand).  So a load's source is "lane 0" of that view and its bit `tile_bit = lane * bits_per_lane +
32 * column + bit`; a store's destination likewise.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, TypeVar

from ..symbolic.expr import Expr, const
from .base import CopyModel, Index
from .registry import COPY_FAMILIES, Instruction, InstructionFamily, ModelQuery

SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Data Movement Shape (Matrix fragments for "
           "shape .32x32b/.16x64b/.16x128b/.16x256b/.16x32bx2), tcgen05.ld, tcgen05.st")
CELL_BITS = 32                       # a TMEM column of one lane is one 32-bit cell
TMEM_LANES = 128                     # lanes (data paths) of a CTA's tensor memory
TMEM_COLUMNS = 512
WARP_LANE_QUARTER = 32               # lanes a warp may access: 32 * (warp % 4) ...
MAX_REGISTERS = 128                  # 32-bit registers one thread may receive from one instruction
NUMS = (1, 2, 4, 8, 16, 32, 64, 128)


class TmemShape(str, Enum):
    S32x32b = "32x32b"
    S16x64b = "16x64b"
    S16x128b = "16x128b"
    S16x256b = "16x256b"
    S16x32bx2 = "16x32bx2"

    @property
    def lanes(self) -> int:
        """TMEM lanes the warp accesses."""
        return 32 if self is TmemShape.S32x32b else 16

    @property
    def regs_per_rep(self) -> int:
        """32-bit registers per thread for .x1."""
        return {TmemShape.S16x128b: 2, TmemShape.S16x256b: 4}.get(self, 1)

    @property
    def bits_per_rep(self) -> int:
        """Data bits of one TMEM lane one repetition covers (both halves for .16x32bx2)."""
        return {TmemShape.S32x32b: 32, TmemShape.S16x64b: 64, TmemShape.S16x128b: 128, TmemShape.S16x256b: 256,
                TmemShape.S16x32bx2: 64}[self]


@dataclass(frozen=True)
class Cell:
    """Where register `reg` of a lane lives in the instruction's TMEM tile: (tile lane, data column)."""
    lane: Index
    column: Index


def register_cell(shape: TmemShape, num: int, lane: Index, reg: Index) -> Cell:
    """(warp lane, register) -> (TMEM lane relative to the address, data column relative to it)."""
    if shape is TmemShape.S32x32b:
        return Cell(lane, reg)
    if shape is TmemShape.S16x64b:
        return Cell(lane // 4 + 8 * (lane % 2), (lane // 2) % 2 + 2 * reg)
    if shape is TmemShape.S16x128b:
        return Cell(lane // 4 + 8 * (reg % 2), lane % 4 + 4 * (reg // 2))
    if shape is TmemShape.S16x256b:
        return Cell(lane // 4 + 8 * ((reg // 2) % 2), reg % 2 + 2 * (lane % 4) + 8 * (reg // 4))
    # .16x32bx2: threads 0-15 read the first half, 16-31 the second, `num` columns each (the halves abut)
    return Cell(lane % 16, reg + num * (lane // 16))


@dataclass(frozen=True)
class TmemForm:
    """One tcgen05.ld / tcgen05.st form."""
    shape: TmemShape
    num: int
    packed: bool          # .pack::16b (ld) / .unpack::16b (st)
    load: bool

    @property
    def registers(self) -> int:
        return self.shape.regs_per_rep * self.num

    @property
    def bits_per_lane(self) -> int:
        """Data bits of each TMEM lane the instruction covers (16-bit units counted as data when packed)."""
        return self.shape.bits_per_rep * self.num

    @property
    def tile_bits(self) -> int:
        return self.shape.lanes * self.bits_per_lane

    @property
    def columns(self) -> int:
        """32-bit TMEM columns the instruction spans (twice the data columns when packed)."""
        return (self.bits_per_lane // CELL_BITS) * (2 if self.packed else 1)

    @property
    def invalid(self) -> str:
        if self.num not in NUMS:
            return f".num must be one of .x1 ... .x128, not .x{self.num}"
        if self.registers > MAX_REGISTERS:
            return (f".{self.shape.value}.x{self.num} would give each thread {self.registers} registers "
                    f"(at most {MAX_REGISTERS})")
        return ""

    @property
    def instruction(self) -> str:
        pack = (".pack::16b" if self.load else ".unpack::16b") if self.packed else ""
        return f"tcgen05.{'ld' if self.load else 'st'}.sync.aligned.{self.shape.value}.x{self.num}{pack}.b32"

    def tile_bit(self, lane: Index, reg_bit: Index) -> Index:
        """(warp lane, bit of its registers) -> the tile's data bit it holds."""
        cell = register_cell(self.shape, self.num, lane, reg_bit // CELL_BITS)
        return cell.lane * self.bits_per_lane + CELL_BITS * cell.column + reg_bit % CELL_BITS

    def holder(self, tile_bit: Index) -> tuple[Index, Index]:
        """The inverse: tile data bit -> (warp lane, register bit) holding it."""
        tlane, column, bit = tile_bit // self.bits_per_lane, (tile_bit % self.bits_per_lane) // CELL_BITS, \
            tile_bit % CELL_BITS
        return _holder(self.shape, self.num, tlane, column, bit)

    def describe(self, lane: int, reg_bit: int) -> dict[str, Any]:
        reg = reg_bit // CELL_BITS
        cell = register_cell(self.shape, self.num, lane, reg)
        column = int(cell.column)
        out: dict[str, Any] = {"register": reg, "TMEM lane": f"+{int(cell.lane)}"}
        if self.packed:
            half = (reg_bit % CELL_BITS) // 16
            out["TMEM column"] = f"+{2 * column + half} (low 16 bits)"
        else:
            out["TMEM column"] = f"+{column}"
        return out


def _holder(shape: TmemShape, num: int, tlane: Index, column: Index, bit: Index) -> tuple[Index, Index]:
    """(tile lane, data column, bit) -> (warp lane, register bit): register_cell solved for lane and register."""
    if shape is TmemShape.S32x32b:
        lane, reg = tlane, column
    elif shape is TmemShape.S16x64b:
        lane, reg = 4 * (tlane % 8) + 2 * (column % 2) + tlane // 8, column // 2
    elif shape is TmemShape.S16x128b:
        lane, reg = 4 * (tlane % 8) + column % 4, 2 * (column // 4) + tlane // 8
    elif shape is TmemShape.S16x256b:
        lane, reg = 4 * (tlane % 8) + (column % 8) // 2, 4 * (column // 8) + 2 * (tlane // 8) + column % 2
    else:
        lane, reg = tlane + 16 * (column // num), column % num
    return lane, CELL_BITS * reg + bit


_FORM = re.compile(r"^(32x32b|16x64b|16x128b|16x256b|16x32bx2)$")
_NUM = re.compile(r"x\d+")
TCGEN05 = "tcgen05"
LOAD, STORE = "ld", "st"
PACK, UNPACK = "pack::16b", "unpack::16b"
REQUIRED_QUALIFIERS = frozenset({"sync", "aligned", "b32"})


def parse_form(op: str, qualifiers: Sequence[str]) -> TmemForm | None:
    """`tcgen05.ld.sync.aligned.16x256b.x1.pack::16b.b32` as (op, qualifiers) -> its form, or None when it is not
    a tcgen05.ld / st this model knows (a wrong .num is a form with an `invalid` reason)."""
    if op != TCGEN05 or not qualifiers or qualifiers[0] not in (LOAD, STORE):
        return None
    load = qualifiers[0] == LOAD
    rest = set(qualifiers[1:])
    shapes = [q for q in rest if _FORM.match(q)]
    nums = [q for q in rest if _NUM.fullmatch(q)]
    packing = PACK if load else UNPACK
    known = REQUIRED_QUALIFIERS | {packing}
    if len(shapes) != 1 or len(nums) != 1 or not REQUIRED_QUALIFIERS <= rest \
            or rest - known - {shapes[0], nums[0]}:
        return None
    return TmemForm(TmemShape(shapes[0]), int(nums[0][1:]), packing in rest, load)


@lru_cache(maxsize=None)
def tmem_copy(form: TmemForm) -> CopyModel:
    """The CopyModel of one form: a load's source and a store's destination is the TMEM tile as one view."""
    if form.load:
        def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
            # (lane, register bit) -> (the tile's one view, tile data bit)
            return const(0), form.tile_bit(dst_lane, dst_bit)

        def describe(lane: int, bit: int) -> dict[str, Any]:
            return form.describe(lane, bit)
        return CopyModel(form.instruction, "tcgen05", "load", 32, form.tile_bits, 32 * form.registers, 32,
                         source_of, describe, section=SECTION, invalid=form.invalid)

    def source_of_store(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        # (the tile's one view, tile data bit) -> (lane, register bit) that writes it
        return form.holder(dst_bit)

    def describe_store(lane: int, bit: int) -> dict[str, Any]:
        src_lane, src_bit = form.holder(bit)
        return {"source lane": src_lane, **form.describe(src_lane, src_bit)}
    return CopyModel(form.instruction, "tcgen05", "store", 32, 32 * form.registers, form.tile_bits, 1,
                     source_of_store, describe_store, section=SECTION, invalid=form.invalid)


def _parse_tmem_copy(instruction: Instruction) -> TmemForm | None:
    return parse_form(instruction.opcode, instruction.qualifiers)


def _build_tmem_copy(form: TmemForm, query: ModelQuery) -> CopyModel:
    return tmem_copy(form)


# tcgen05.ld / tcgen05.st (tcgen05.mma is umma.py's, in the MMA table)
TMEM_COPY_FAMILY = COPY_FAMILIES.register(InstructionFamily(
    "tcgen05.ld / tcgen05.st", _parse_tmem_copy, _build_tmem_copy, ptx_opcodes=frozenset({TCGEN05})))


WarpIndex = TypeVar("WarpIndex", int, Expr)


def lane_quarter(warp: WarpIndex) -> WarpIndex:
    """The first TMEM lane warp `warp` (its index in the CTA) may access: 32 * (warp % 4)."""
    return WARP_LANE_QUARTER * (warp % 4)
