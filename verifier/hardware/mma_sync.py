"""mma.sync fragments, written from the PTX ISA's "Matrix Fragments for mma.m*n*k*" figures.

Notation of the ISA: groupID = lane / 4 ("g"), threadID_in_group = lane % 4 ("t"); element i of an
operand is a_i / b_i / c_i, packed low bits first, 32/bits elements per register.  Coordinates are
returned the way CuTe indexes operand tiles: A as (m, k), B as (n, k), C/D as (m, n).
Each table below is the ISA's figure for that shape and type, written as a formula in (g, t, i).

The mma.sync family registered at the end parses `mma.sync.aligned.<shape>.<alayout>.<blayout>.<d>.<a>.<b>.<c>`
once; SM70's quad-pair form (m8n8k4 with .f16 A and B, whose fragments differ) is modelled by mma_sm70.py.

sm_120a's `mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.<d>.<a>.<b>.<c>` (A and B each .e4m3, .e5m2, .e3m2, .e2m3
or .e2m1, mixed; D and C .f32 or .f16) is the m16n8k32 8-bit figure: PTX ISA, "Matrix Fragments for mma.m16n8k32"
(9.7.14.5.10 in PTX ISA 8.7/8.8's numbering), whose A table gives `.e4m3 / .e5m2 / .e3m2 / .e2m3 / .e2m1` "four .b32
registers, with each register containing four ... elements" and the B table "two .b32 registers, with each register
containing four ... elements", both under the same row / col formulas as .s8 / .u8 (Figures 88, 90, 91): a 6- or
4-bit element takes an 8-bit slot of the register.  The block-scaled kinds (.kind::mxf8f6f4, .kind::mxf4,
.kind::mxf4nvf4 with .block_scale) are not modelled: which lane and byte of scale-a-data / scale-b-data scales which
row of A / column of B is drawn only in PTX ISA Figures 43-45 ("Block Scaling for mma.sync"), whose text names the
thread pair / thread of each quad and the bytes, not the row or column each supplies.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Callable

from ..algebra.types import PTX_TYPE_CHOICES, smem_container_bits
from ..symbolic.expr import Expr
from .base import Coord, Index, MMAModel, OperandFragment
from .mma_sm70 import QUAD_PAIR_AB_TYPE, is_quad_pair_form, m8n8k4_model
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

Formula = Callable[[Expr, Expr, Expr], tuple[Expr, Expr]]   # (g, t, i) -> (row, col) as the ISA draws them


def _operand(elements: int, bits: int, formula: Formula, operand: str) -> OperandFragment:
    """Wrap an ISA formula (row, col of the operand matrix) into CuTe's operand coordinate."""
    def coord(lane: Expr, i: Expr) -> Coord:
        row, col = formula(lane // 4, lane % 4, i)
        # the ISA draws A as MxK (row=m, col=k), B as KxN (row=k, col=n), C as MxN (row=m, col=n)
        return (col, row) if operand == "B" else (row, col)

    per_reg = max(1, 32 // bits)

    def describe(lane: int, i: int) -> dict[str, Any]:
        row, col = formula(lane // 4, lane % 4, i)  # type: ignore[arg-type]
        d = {"groupID": lane // 4, "threadID_in_group": lane % 4, "element": f"{operand.lower()}{i}",
             "register": i // per_reg, "row": row, "col": col}
        if per_reg > 1:
            d["position"] = i % per_reg
        return d

    return OperandFragment(elements, bits, coord, describe)


# C/D for every m16n8 shape: c0,c1 in row g, c2,c3 in row g+8; columns 2t, 2t+1
def _c_m16n8(g: Index, t: Index, i: Index) -> Coord:
    return g + 8 * (i // 2), 2 * t + i % 2


def _c_m8n8(g: Index, t: Index, i: Index) -> Coord:
    return g, 2 * t + i


# (shape, A type) -> (A elements, A formula, B elements, B formula) -- formulas give (row, col) as drawn
_FRAGMENTS: dict[tuple[str, str], tuple[int, Formula, int, Formula]] = {
    # m16n8k16, .f16 / .bf16: a0..a7 rows g / g+8 alternate by pairs, columns 2t(+1) then +8
    ("m16n8k16", "f16"): (8, lambda g, t, i: (g + 8 * ((i // 2) % 2), 2 * t + i % 2 + 8 * (i // 4)),
                          4, lambda g, t, i: (2 * t + i % 2 + 8 * (i // 2), g)),
    # m16n8k8, .f16 / .bf16
    ("m16n8k8", "f16"): (4, lambda g, t, i: (g + 8 * (i // 2), 2 * t + i % 2),
                         2, lambda g, t, i: (2 * t + i, g)),
    # m16n8k8, .tf32: a0 (g,t), a1 (g+8,t), a2 (g,t+4), a3 (g+8,t+4)
    ("m16n8k8", "tf32"): (4, lambda g, t, i: (g + 8 * (i % 2), t + 4 * (i // 2)),
                          2, lambda g, t, i: (t + 4 * i, g)),
    # m16n8k4, .tf32
    ("m16n8k4", "tf32"): (2, lambda g, t, i: (g + 8 * i, t),
                          1, lambda g, t, i: (t, g)),
    # m16n8k16, .s8/.u8: a0..a3 row g, a4..a7 row g+8, columns 4t..4t+3
    ("m16n8k16", "s8"): (8, lambda g, t, i: (g + 8 * (i // 4), 4 * t + i % 4),
                         4, lambda g, t, i: (4 * t + i, g)),
    # m16n8k32, .s8/.u8 (and .e4m3/.e5m2): columns 4t..4t+3, +16 for a8..a15
    ("m16n8k32", "s8"): (16, lambda g, t, i: (g + 8 * ((i // 4) % 2), 4 * t + i % 4 + 16 * (i // 8)),
                         8, lambda g, t, i: (4 * t + i % 4 + 16 * (i // 4), g)),
    # m16n8k32, .s4/.u4: a0..a7 row g, a8..a15 row g+8, columns 8t..8t+7
    ("m16n8k32", "s4"): (16, lambda g, t, i: (g + 8 * (i // 8), 8 * t + i % 8),
                         8, lambda g, t, i: (8 * t + i, g)),
    # m16n8k64, .s4/.u4
    ("m16n8k64", "s4"): (32, lambda g, t, i: (g + 8 * ((i // 8) % 2), 8 * t + i % 8 + 32 * (i // 16)),
                         16, lambda g, t, i: (8 * t + i % 8 + 32 * (i // 8), g)),
    # m8n8k16, .s8/.u8
    ("m8n8k16", "s8"): (4, lambda g, t, i: (g, 4 * t + i),
                        4, lambda g, t, i: (4 * t + i, g)),
    # m8n8k32, .s4/.u4
    ("m8n8k32", "s4"): (8, lambda g, t, i: (g, 8 * t + i),
                        8, lambda g, t, i: (8 * t + i, g)),
    # m8n8k4, .f64
    ("m8n8k4", "f64"): (1, lambda g, t, i: (g, t),
                        1, lambda g, t, i: (t, g)),
    # sm_90 m16n8k{4,8,16}, .f64: a_i rows g / g+8 alternate, columns t + 4*(i/2)
    ("m16n8k4", "f64"): (2, lambda g, t, i: (g + 8 * i, t),
                         1, lambda g, t, i: (t, g)),
    ("m16n8k8", "f64"): (4, lambda g, t, i: (g + 8 * (i % 2), t + 4 * (i // 2)),
                         2, lambda g, t, i: (t + 4 * i, g)),
    ("m16n8k16", "f64"): (8, lambda g, t, i: (g + 8 * (i % 2), t + 4 * (i // 2)),
                          4, lambda g, t, i: (t + 4 * i, g)),
    # .b1 (.and.popc / .xor.popc): 32 elements per register, columns 32t..32t+31
    ("m8n8k128", "b1"): (32, lambda g, t, i: (g, 32 * t + i),
                         32, lambda g, t, i: (32 * t + i, g)),
    # m16n8k128 .b1: a0..a31 row g, a32..a63 row g+8
    ("m16n8k128", "b1"): (64, lambda g, t, i: (g + 8 * (i // 32), 32 * t + i % 32),
                          32, lambda g, t, i: (32 * t + i, g)),
    # m16n8k256 .b1: rows g / g+8 alternate by registers, columns +128 for a64..a127 (b32..b63)
    ("m16n8k256", "b1"): (128, lambda g, t, i: (g + 8 * ((i // 32) % 2), 32 * t + i % 32 + 128 * (i // 64)),
                          64, lambda g, t, i: (32 * t + i % 32 + 128 * (i // 32), g)),
}

_TYPE_FAMILY = {"f16": "f16", "bf16": "f16", "tf32": "tf32", "s8": "s8", "u8": "s8", "e4m3": "s8", "e5m2": "s8",
                "s4": "s4", "u4": "s4", "f64": "f64", "b1": "b1",
                "e3m2": "s8", "e2m3": "s8", "e2m1": "s8"}     # .kind::f8f6f4 only: an 8-bit slot each (above)
TYPE_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "s32": 32, "s8": 8, "u8": 8, "e4m3": 8, "e5m2": 8,
             "s4": 4, "u4": 4, "f64": 64, "b1": 1,
             "e3m2": 8, "e2m3": 8, "e2m1": 8}     # the register slot a .kind::f8f6f4 element takes, not its width
# .kind::f8f6f4 (sm_120a): its shape, the A / B types it takes and the D / C types
KIND_F8F6F4 = "f8f6f4"
F8F6F4_SHAPE = "m16n8k32"
F8F6F4_AB_TYPES = ("e4m3", "e5m2", "e3m2", "e2m3", "e2m1")
F8F6F4_DC_TYPES = ("f32", "f16")
SUB_BYTE_FLOATS = ("e3m2", "e2m3", "e2m1")     # types mma.sync takes with .kind::f8f6f4 only
# the PTX type of the 8-bit container CuTe names a .kind::f8f6f4 A / B element by (MMA_Traits<SM120_16x8x32_TN>:
# ValTypeA = uint8_t, "The MMA accepts 8-bit inputs regardless of the types for A and B")
F8F6F4_CONTAINER = "u8"
F8F6F4_SLOT_BITS = 8          # the register slot a .kind::f8f6f4 A / B element takes ("four ... elements" a .b32)
SECTION = "PTX ISA, Matrix Fragments for mma.{shape} ({family})"


@lru_cache(maxsize=None)
def mma_model(shape: str, dtype: str, atype: str, btype: str, ctype: str, bitop: str = "",
              kind: str = "") -> MMAModel | None:
    """bitop: "and" / "xor" for the .b1 forms (...s32.b1.b1.s32.<bitop>.popc), "" otherwise; kind: the .kind
    qualifier's value ("f8f6f4"), "" when none is written."""
    if dtype not in TYPE_BITS or ctype not in TYPE_BITS:      # a type PTX does not have: no model
        return None
    if kind and not _f8f6f4_form(shape, dtype, atype, btype, ctype, kind):
        return None
    if not kind and (atype in SUB_BYTE_FLOATS or btype in SUB_BYTE_FLOATS):
        return None
    fam = _TYPE_FAMILY.get(atype)
    if fam is None or _TYPE_FAMILY.get(btype) != fam:
        return None
    if (fam == "b1") != (bitop in ("and", "xor")):
        return None
    entry = _FRAGMENTS.get((shape, fam))
    if entry is None:
        return None
    m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    na, fa, nb, fb = entry
    c_formula = _c_m16n8 if m == 16 else _c_m8n8
    nc = 4 if m == 16 else 2
    kind_text = f"kind::{kind}." if kind else ""
    name = (f"mma.sync.aligned.{kind_text}{shape}.row.col.{dtype}.{atype}.{btype}.{ctype}"
            + (f".{bitop}.popc" if bitop else ""))
    return MMAModel(name, (m, n, k), 32,
                    _operand(na, TYPE_BITS[atype], fa, "A"),
                    _operand(nb, TYPE_BITS[btype], fb, "B"),
                    _operand(nc, TYPE_BITS[dtype], c_formula, "C"),
                    section=SECTION.format(shape=shape, family=fam if not kind else
                                           f".kind::{kind}: the 8-bit figure, Figures 88, 90, 91"))


def _f8f6f4_form(shape: str, dtype: str, atype: str, btype: str, ctype: str, kind: str) -> bool:
    """mma.sync.aligned.kind::f8f6f4.m16n8k32 with A and B of its types, D and C .f32 or .f16 (the one .kind
    modelled)."""
    return (kind == KIND_F8F6F4 and shape == F8F6F4_SHAPE and atype in F8F6F4_AB_TYPES and btype in F8F6F4_AB_TYPES
            and dtype in F8F6F4_DC_TYPES and ctype == dtype)


# --- the family: mma.sync.aligned ----------------------------------------------------------------------------------

MMA_OPCODE = "mma"
SYNC_ALIGNED = ("sync", "aligned")
LAYOUTS = ("row", "col")
SATFINITE = "satfinite"
POPC = "popc"
BIT_OPS = ("and", "xor")              # .b1's ...s32.b1.b1.s32.<and | xor>.popc
_SHAPE = re.compile(r"m\d+n\d+k\d+")
KIND_PREFIX = "kind::"


@dataclass(frozen=True)
class MmaSyncForm:
    """`mma.sync.aligned.<shape>[.<alayout>.<blayout>].<dtype>.<atype>.<btype>.<ctype>[.satfinite][.<op>.popc]`."""
    shape: str                        # "m16n8k16"
    dtype: str
    atype: str
    btype: str
    ctype: str
    layouts: tuple[str, ...]          # the .row / .col qualifiers, in order (SM70's quad-pair form needs both)
    popc_op: str = ""                 # .b1: the qualifier before .popc ("and", "xor"); "" without .popc
    kind: str = ""                    # the .kind::<kind> qualifier's value ("f8f6f4"); "" when none is written

    @property
    def operand_types(self) -> OperandTypes:
        """The PTX types of the operands; .kind::f8f6f4's A and B also as the 8-bit container CuTe names them by."""
        if self.kind == KIND_F8F6F4:
            return {"a": PTX_TYPE_CHOICES.join((self.atype, F8F6F4_CONTAINER)),
                    "b": PTX_TYPE_CHOICES.join((self.btype, F8F6F4_CONTAINER)), "c": self.ctype, "d": self.dtype}
        return {"a": self.atype, "b": self.btype, "c": self.ctype, "d": self.dtype}


def parse_mma_sync(instruction: Instruction) -> MmaSyncForm | None:
    """The form of an mma.sync.aligned string (.row / .col and .satfinite may stand anywhere after .aligned);
    None for any other text."""
    if instruction.qualifiers[:2] != SYNC_ALIGNED:
        return None
    after_aligned = instruction.qualifiers[2:]
    kinds = [x[len(KIND_PREFIX):] for x in after_aligned if x.startswith(KIND_PREFIX)]
    if len(kinds) > 1:
        return None
    layouts = tuple(x for x in after_aligned if x in LAYOUTS)
    rest = [x for x in after_aligned if x not in LAYOUTS and x != SATFINITE and not x.startswith(KIND_PREFIX)]
    if not rest or not _SHAPE.fullmatch(rest[0]):
        return None
    shape, types = rest[0], rest[1:]
    popc_op = ""
    if len(types) == 6 and types[5] == POPC:
        popc_op, types = types[4], types[:4]
    if len(types) != 4:
        return None
    dtype, atype, btype, ctype = types
    return MmaSyncForm(shape, dtype, atype, btype, ctype, layouts, popc_op, kinds[0] if kinds else "")


def _build_mma_sync(form: MmaSyncForm, query: ModelQuery) -> MMAModel | None:
    if form.popc_op and form.popc_op not in BIT_OPS:
        return None                   # no .b1 operation of the PTX ISA: .and.popc / .xor.popc only
    if is_quad_pair_form(form.shape, form.atype):   # SM70's quad-pair form: .row/.col matter
        if len(form.layouts) != 2 or form.btype != QUAD_PAIR_AB_TYPE:
            return None
        return m8n8k4_model(form.layouts[0], form.layouts[1], form.dtype, form.ctype)
    model = mma_model(form.shape, form.dtype, form.atype, form.btype, form.ctype, form.popc_op, form.kind)
    if model is None or form.kind != KIND_F8F6F4 or not query.value_types:
        return model
    # .kind::f8f6f4 holds four A / B elements a .b32 register: an atom whose values are packed narrower (CuTe's
    # float_e2m1_t, 4 bits) names no element of this fragment
    packed = [(key, f"{name} {key.upper()} ({bits} bits a value)") for key in ("a", "b")
              if key in query.value_types for name, bits in (query.value_types[key],)
              if smem_container_bits(name, bits) < F8F6F4_SLOT_BITS]
    if not packed:
        return model
    return replace(model, invalid=(f".kind::f8f6f4 holds four A and four B elements a .b32 register, an "
                                   f"{F8F6F4_SLOT_BITS}-bit slot each, not {', '.join(t for _, t in packed)}"),
                   invalid_in=f"types.{packed[0][0]}")


def _mma_sync_types(form: MmaSyncForm) -> OperandTypes:
    return form.operand_types


MMA_SYNC_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "mma.sync", parse_mma_sync, _build_mma_sync, ptx_opcodes=frozenset({MMA_OPCODE}), operand_types=_mma_sync_types))
