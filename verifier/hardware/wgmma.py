"""wgmma.mma_async (SM90, one warpgroup of 128 threads): the register fragments and the descriptor operands.

PTX ISA, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate" / "Register Fragments and Shared
Memory Matrix Layouts": thread T of the warpgroup is lane T % 32 of warp w = T / 32; with
g = lane / 4 and t = lane % 4,
- D (m64nNk*), element i of N/2 accumulators: row 16w + g + 8*((i/2) % 2), column 8*(i/4) + 2t + i%2;
- A from registers (the RS forms), per warp the mma.m16n8k* A fragment shifted by 16w rows:
  16-bit types (k16): row 16w + g + 8*((i/2) % 2), column 2t + i%2 + 8*(i/4);
  tf32 (k8): row 16w + g + 8*(i % 2), column t + 4*(i/2);
  8-bit types (k32): row 16w + g + 8*((i/4) % 2), column 4t + i%4 + 16*(i/8);
- A and B from shared memory are matrix descriptors: no thread holds a fragment; every thread names
  the whole tile, element v being the tile's v-th element in CuTe's colex order (CuTe writes this
  as a thread stride 0).
Whether A comes from registers (RS) or a descriptor (SS) is not in the qualifiers: a second {...} operand list
says RS; without operands, CUTLASS's atom name says it (..._RS<...> / ..._SS<...>).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .base import Coord, Index, MMAModel, OperandFragment
from .mma_sync import TYPE_BITS
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

WGMMA_OPCODE = "wgmma"
MMA_ASYNC_SYNC_ALIGNED = ("mma_async", "sync", "aligned")
SPARSE_QUALIFIER = "sp"              # wgmma.mma_async.sp: structured-sparse A
REGISTER_A_ATOM = "_RS"               # CUTLASS's SM90_64x..._RS<...>: A from registers
OPERAND_LIST = "{"


def _d(n: int, bits: int) -> OperandFragment:
    def coord(lane: Index, i: Index) -> Coord:
        w, l = lane // 32, lane % 32
        return 16 * w + l // 4 + 8 * ((i // 2) % 2), 8 * (i // 4) + 2 * (l % 4) + i % 2
    return OperandFragment(n // 2, bits, coord, lambda lane, i: {"warp": lane // 32, "lane": lane % 32,
                                                                  "element": f"d{i}"})


def _a_registers(family: str, bits: int) -> OperandFragment:
    def coord(lane: Index, i: Index) -> Coord:
        w, l = lane // 32, lane % 32
        g, t = l // 4, l % 4
        if family == "tf32":
            return 16 * w + g + 8 * (i % 2), t + 4 * (i // 2)
        if family == "8bit":
            return 16 * w + g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)
        return 16 * w + g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4)
    n = {"tf32": 4, "8bit": 16}.get(family, 8)
    return OperandFragment(n, bits, coord, lambda lane, i: {"warp": lane // 32, "lane": lane % 32,
                                                             "element": f"a{i}"})


def _descriptor(rows: int, cols: int, bits: int, operand: str) -> OperandFragment:
    def coord(lane: Index, v: Index) -> Coord:
        return v % rows, v // rows
    return OperandFragment(rows * cols, bits, coord, lambda lane, v: {"descriptor element": v})


FAMILY = {"f16": "16bit", "bf16": "16bit", "tf32": "tf32", "s8": "8bit", "u8": "8bit", "e4m3": "8bit",
          "e5m2": "8bit"}
K_OF_FAMILY = {"16bit": 16, "tf32": 8, "8bit": 32}          # every dense wgmma reads 256 bits of K
INTEGER_TYPES = ("s8", "u8")
# PTX ISA, wgmma.mma_async (Matrix Data-types): the A and B types that multiply together, and the accumulator types
# they take -- f16 x f16 into f16 or f32, bf16 x bf16 and tf32 x tf32 into f32, any pair of e4m3 / e5m2 into f16 or
# f32, any pair of s8 / u8 into s32
WGMMA_TYPE_RULES: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset({"f16"}), frozenset({"f16", "f32"})), (frozenset({"bf16"}), frozenset({"f32"})),
    (frozenset({"tf32"}), frozenset({"f32"})), (frozenset({"e4m3", "e5m2"}), frozenset({"f16", "f32"})),
    (frozenset({"s8", "u8"}), frozenset({"s32"})))


def shape_problem(shape: str, atype: str) -> str | None:
    """Why `.m{M}n{N}k{K}` is no dense wgmma shape for A of type `atype` (PTX ISA, wgmma.mma_async: M is 64, K is
    256 bits of the type, N a multiple of 8 from 8 to 256 — for .s8 / .u8, 8, 16, 24 or a multiple of 16 from 32)."""
    try:
        m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    except ValueError:
        return f"{shape!r} is no .mMnNkK shape"
    family = FAMILY.get(atype)
    if family is None:
        return f"no dense wgmma multiplies .{atype}"
    if m != 64:
        return f"wgmma's M is 64, not {m}"
    if k != K_OF_FAMILY[family]:
        return f"wgmma's K for .{atype} is {K_OF_FAMILY[family]}, not {k}"
    integer = atype in INTEGER_TYPES
    valid = n % 8 == 0 and 8 <= n <= 256 and (not integer or n <= 24 or n % 16 == 0)
    if not valid:
        rule = ("8, 16, 24 or a multiple of 16 from 32 to 256" if integer else "a multiple of 8 from 8 to 256")
        return f"wgmma's N for .{atype} is {rule}, not {n}"
    return None


def types_problem(dtype: str, atype: str, btype: str) -> tuple[str, str] | None:
    """Why wgmma (dense or .sp) has no `.dtype.atype.btype` form, and the operand at fault ("b" or "d"); None when it
    has one (PTX ISA, wgmma.mma_async: Matrix Data-types)."""
    for ab, accumulators in WGMMA_TYPE_RULES:
        if atype in ab:
            if btype not in ab:
                takes = " or ".join(f".{t}" for t in sorted(ab))
                return f"wgmma multiplies .{atype} by {takes}, not by .{btype}", "b"
            if dtype not in accumulators:
                takes = " or ".join(f".{t}" for t in sorted(accumulators))
                return f"wgmma accumulates .{atype} x .{btype} in {takes}, not in .{dtype}", "d"
            return None
    return None          # no dense wgmma of A's type: shape_problem says so


@lru_cache(maxsize=None)
def wgmma_model(shape: str, dtype: str, atype: str, btype: str, a_in_registers: bool) -> MMAModel | None:
    if shape_problem(shape, atype) is not None:
        return None
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    family = FAMILY[atype]
    if atype not in TYPE_BITS or btype not in TYPE_BITS or dtype not in TYPE_BITS:
        return None
    a = _a_registers(family, TYPE_BITS[atype]) if a_in_registers else _descriptor(m, k, TYPE_BITS[atype], "A")
    b = _descriptor(n, k, TYPE_BITS[btype], "B")
    name = f"wgmma.mma_async.sync.aligned.{shape}.{dtype}.{atype}.{btype}"
    invalid, at = types_problem(dtype, atype, btype) or ("", "d")
    return MMAModel(name, (m, n, k), 128, a, b, _d(n, TYPE_BITS[dtype]),
                    section="PTX ISA, wgmma: Register Fragments and Shared Memory Matrix Layouts", invalid=invalid,
                    invalid_in="types" if at == "d" else f"types.{at}")


@dataclass(frozen=True)
class WgmmaForm:
    """`wgmma.mma_async[.sp].sync.aligned.<shape>.<dtype>.<atype>.<btype>[...]` and its operand lists."""
    shape: str
    dtype: str
    atype: str
    btype: str
    operand_lists: int | None         # the {...} lists among the operands; None when no operands are written
    sparse: bool = False              # wgmma.mma_async.sp: A structured-sparse (hardware/wgmma_sparse.py)

    def a_in_registers(self, atom_name: str) -> bool:
        """A from registers (RS): two register lists ({d}, {a}), or, without operands, an _RS atom."""
        if self.operand_lists is not None:
            return self.operand_lists >= 2
        return REGISTER_A_ATOM in atom_name

    @property
    def operand_types(self) -> OperandTypes:
        return {"a": self.atype, "b": self.btype, "c": self.dtype, "d": self.dtype}


def parse_wgmma(instruction: Instruction) -> WgmmaForm | None:
    q = instruction.qualifiers
    sparse = len(q) > 1 and q[0] == MMA_ASYNC_SYNC_ALIGNED[0] and q[1] == SPARSE_QUALIFIER
    if sparse:
        q = (q[0],) + q[2:]
    if q[:3] != MMA_ASYNC_SYNC_ALIGNED or len(q) < 7:
        return None
    operands = instruction.operands
    return WgmmaForm(q[3], q[4], q[5], q[6], operands.count(OPERAND_LIST) if operands else None, sparse)


def _build_wgmma(form: WgmmaForm, query: ModelQuery) -> MMAModel | None:
    if form.sparse:
        return sparse_wgmma_model(form.shape, form.dtype, form.atype, form.btype, form.a_in_registers(query.atom_name))
    return wgmma_model(form.shape, form.dtype, form.atype, form.btype, form.a_in_registers(query.atom_name))


@lru_cache(maxsize=None)
def sparse_wgmma_model(shape: str, dtype: str, atype: str, btype: str, a_in_registers: bool) -> MMAModel | None:
    """wgmma.mma_async.sp: the instruction multiplies the M x K (logical, dense) A that the packed M x K/2 operand
    and its metadata describe (PTX ISA 9.7.15.6); an SS A is the logical tile every thread names, as a dense
    descriptor operand; B and D are the dense instruction's.  A from registers (Figures 175, 177, 179, images not
    read here) has no model: None."""
    from .wgmma_sparse import SECTION, shape_problem as sparse_shape_problem
    if sparse_shape_problem(shape, atype) is not None or a_in_registers:
        return None
    if atype not in TYPE_BITS or btype not in TYPE_BITS or dtype not in TYPE_BITS:
        return None
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    name = f"wgmma.mma_async.sp.sync.aligned.{shape}.{dtype}.{atype}.{btype}"
    invalid, at = types_problem(dtype, atype, btype) or ("", "d")
    return MMAModel(name, (m, n, k), 128, _descriptor(m, k, TYPE_BITS[atype], "A"),
                    _descriptor(n, k, TYPE_BITS[btype], "B"), _d(n, TYPE_BITS[dtype]), section=SECTION,
                    invalid=invalid, invalid_in="types" if at == "d" else f"types.{at}")


def _wgmma_types(form: WgmmaForm) -> OperandTypes:
    return form.operand_types


WGMMA_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "wgmma.mma_async", parse_wgmma, _build_wgmma, ptx_opcodes=frozenset({WGMMA_OPCODE}), operand_types=_wgmma_types))
