"""tcgen05.mma (SM100 "UMMA", dense and block-scaled, not .ws): which element of A, B and D each CTA of the MMA names.

Written from the PTX ISA, chapter "TensorCore 5th Generation Family Instructions" (tcgen05):
- "Matrix Shape" (Table 39, "Various combinations of .kind and shapes"): the dense shapes without .ws are
  M = 64 or 128 with .cta_group::1 and M = 128 or 256 with .cta_group::2;
  N = 8, 16, ... 256 in steps of 8 (.cta_group::1) or 16, 32, ... 256 in steps of 16 (.cta_group::2) for
  .kind::f16, .kind::tf32 and .kind::f8f6f4; .kind::i8 allows N = 8, 16, 24, 32 and then steps of 16 up to
  256 (.cta_group::1), and N = 32, 64, ... 256 in steps of 32 (.cta_group::2);
  K = 16 (.kind::f16), 8 (.kind::tf32), 32 (.kind::f8f6f4, .kind::i8) -- 256 bits of a 16-, 32- or 8-bit
  element (.kind::f8f6f4 keeps K = 32 for its 6- and 4-bit types).  The same table gives the types: .f16
  D with .f16 A and B, .f32 D with .f16 or .bf16 A and B (.kind::f16); .f32 D with .tf32 (.kind::tf32);
  .s32 D with .s8 or .u8 (.kind::i8); .f32 D with .e4m3, .e5m2, .e2m3, .e3m2, .e2m1 (.kind::f8f6f4, whose
  "Instruction descriptor" table encodes F32 only for D).
- "Specifying Matrix Shape" / "Instruction descriptor": M and N are not in the instruction text but in the
  32-bit instruction descriptor (N >> 3, M >> 4); K is implied by .kind.  So the shape is the atom's
  (CuTe's make_instr_desc writes the atom's M and N into the descriptor), and this module decides whether
  the PTX ISA has an instruction of that shape.
- "Matrix Descriptors" (shared memory descriptor): A (the _SS forms) and B are read from shared memory
  through a 64-bit descriptor of the whole tile; no thread holds a fragment.  As for wgmma (wgmma.py) every
  "thread" of the atom names the whole tile its descriptor covers, element v being the tile's v-th element
  in CuTe's colex order: A as (m, k), B as (n, k).  A from tensor memory (the _TS forms, `[a_tmem]`) and D
  in tensor memory are named the same way: element v of the tile's (m, k) / (m, n) in colex order (where in
  tensor memory each element lies -- "Data Path Layout Organization", Layouts A, B, D, F -- is the
  tmem_frg's business, not the atom's).
- "Issue Granularity" / "CTA Pair" / "Peer CTA": with .cta_group::2 one MMA runs on the two CTAs of a CTA
  pair, and the "threads" of the atom are those CTAs (rank 0 is the even CTA of the pair): each CTA supplies
  half of A's rows (m), half of B's rows (n), and holds half of D's rows (m) in its own tensor memory
  (Layout A for M = 256, Layout B for M = 128), CTA r holding rows r*M/2 ... (r+1)*M/2 - 1.

- Block scaling ("Block Scaling for tcgen05.mma", the syntax `tcgen05.mma.cta_group.kind.block_scale
  {.scale_vectorsize}` with .kind::mxf8f6f4, .kind::mxf4 or .kind::mxf4nvf4; Table 39's rows of those kinds): M =
  128 with .cta_group::1 and M = 128 or 256 with .cta_group::2 (no M = 64: the block-scaled instruction descriptors,
  Tables 43 and 44, keep M >> 7 only); N as for the dense float kinds; K = 32 for .kind::mxf8f6f4 (A and B each any
  of .e4m3, .e5m2, .e2m3, .e3m2, .e2m1, mixed: the 6- and 4-bit elements "packed along with padding", a byte of the
  operand per element -- 16 of them packed into the first 8 or 12 bytes of a 16-byte slot in shared memory, one
  8-bit container each in tensor memory) and K = 64 for .kind::mxf4 and .kind::mxf4nvf4 (.e2m1 A and B, two a byte);
  D .f32; .ws is not a block-scaled form. The scale factors (Tables 56 and 57): .scale_vec::NX gives N scale factors
  per row of A (column of B) per MMA, each for K / N elements of K, and .block32 / .block16 name the same vectors by
  the elements one factor covers (.block32 is 1X for .kind::mxf8f6f4, 2X for the mxf4 kinds; .block16 is 4X).
  .kind::mxf8f6f4 takes 1X with .ue8m0 factors (1X when none is written), .kind::mxf4 2X with .ue8m0 (2X, i.e.
  .block32, when none is written), .kind::mxf4nvf4 2X with .ue8m0 or 4X with .ue8m0 or .ue4m3 (always written).
  Transpose (an MN-major A or B, "Instruction descriptor" Table 51) exists for .kind::mxf8f6f4 and not for the mxf4
  kinds. The scale factors' own path (where scale-A-tmem / scale-B-tmem lie in tensor memory, the scale-factor IDs)
  is not modelled here; the atom's A, B and D are those of the dense kinds.
- The dense K1 = 96 of .kind::mxf4 and .kind::mxf4nvf4 (Table 39: "128xNxK 256xNxK 256xNxK1 ... K = 64, K1 = 96" on
  the .cta_group::2 rows only; the instruction descriptor's bit 31, "K Dimension": 0 for dense K = 64 / sparse K = 128,
  1 for dense K = 96, Table 44) is not in the instruction text either: the atom's K selects it.  Table 39 lists it only
  as 256xNxK1 with .cta_group::2; CUTLASS's SM103 "ULTRA" atoms (SM103_MXF4_ULTRA_SS_VS, _2x1SM_SS_VS) issue it with
  .cta_group::1 and M = 128, and with .cta_group::2 and M = 128: the text and CUTLASS disagree, and the model calls
  such a form unsettled (the atom's theorem 2 unsupported, with the reason) rather than refuting or proving it.
  With K = 96, .block16 gives six scale factors a row and .block32 three (Table 56); .block16 is otherwise an alias
  of .scale_vec::4X and .block32 of .scale_vec::1X (.kind::mxf8f6f4) or ::2X (the mxf4 kinds), for every K.

- Structured sparsity (`tcgen05.mma.sp.cta_group.kind`, the dense kinds; "Sparse Matrices" and the syntax of
  tcgen05.mma.sp; Table 39's Sparse rows): the same M and N as the dense form and twice its K (32 for .kind::f16, 16
  for .kind::tf32, 64 for .kind::f8f6f4 and .kind::i8); "the A matrix is Mx(K/2)" in memory, the M x K logical A its
  metadata expands it to being what the instruction multiplies -- as for the dense forms, the whole logical tile every
  CTA names.  The metadata ([sp-meta-tmem]) is hardware/umma_sparse.py's.
- Block-scaled structured sparsity (`tcgen05.mma.sp.cta_group.kind.block_scale{.scale_vectorsize}`, .kind =
  {.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4}: the syntax of tcgen05.mma.sp, "Floating-point type with block
  scaling"; Table 39's Sparse rows of those kinds): K = 64 (.kind::mxf8f6f4) and 128 (the mxf4 kinds), twice the
  dense K; M = 128 with .cta_group::1 and M = 256 only with .cta_group::2 ("256xNxK"); N as the dense rows.  The
  scale vectors are Table 56's for "all supported values of K": .scale_vec::NX gives N factors a row of the
  instruction's (logical) K, so one factor covers K / N logical elements (64 for .kind::mxf8f6f4 1X, 64 for 2X and
  32 for 4X of the mxf4 kinds).  A, B and D are named as for the dense sparse forms; the metadata and the scale
  factors' placement in tensor memory are not part of the atom.

A shape (or a type combination, or a vector size the kind does not take) the table does not list is no instruction:
the model says why in `invalid`, and theorem 2 refutes the atom with that reason rather than comparing it with an
invented fragment.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..algebra.types import PTX_TYPE_CHOICES, ptx_type_of, smem_container_bits
from .base import Index, MMAModel, OperandFragment
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Matrix Shape (Table 39), Instruction "
           "descriptor, Matrix Descriptors, CTA Pair, Data Path Layout Organization")
SPARSE_SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Matrix Shape (Table 39, Sparse rows), "
                  "Sparse Matrices (9.7.16.10.8), tcgen05.mma.sp (9.7.16.10.9.2), CTA Pair")
SCALED_SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Matrix Shape (Table 39), Block Scaling "
                  "for tcgen05.mma (Tables 56, 57), Instruction descriptor (Tables 43, 44, 51), CTA Pair")
SCALED_SPARSE_SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Matrix Shape (Table 39, Sparse rows "
                         "of .kind::mxf8f6f4 / mxf4 / mxf4nvf4), tcgen05.mma.sp (block scaling syntax), Block Scaling "
                         "for tcgen05.mma (Tables 56, 57), Instruction descriptor (Tables 43, 44), CTA Pair")


class MMAKind(str, enum.Enum):
    """The .kind qualifiers of tcgen05.mma this module models: the dense ones, then the block-scaled ones (written
    with .block_scale, SCALE_RULES)."""
    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"
    MXF8F6F4 = "mxf8f6f4"
    MXF4 = "mxf4"
    MXF4NVF4 = "mxf4nvf4"

    @property
    def block_scaled(self) -> bool:
        return self in SCALE_RULES


DENSE_KINDS = (MMAKind.F16, MMAKind.TF32, MMAKind.F8F6F4, MMAKind.I8)
BLOCK_SCALED_KINDS = (MMAKind.MXF8F6F4, MMAKind.MXF4, MMAKind.MXF4NVF4)


class CtaGroup(enum.IntEnum):
    ONE = 1       # .cta_group::1: one CTA
    PAIR = 2      # .cta_group::2: the CTA pair


@dataclass(frozen=True)
class KindRule:
    """One .kind of Table 39 (without .ws)."""
    k: int                                            # K of the (dense, not sparse) MMA
    ab_types: tuple[str, ...]                         # PTX types A and B may have
    d_types: tuple[str, ...]                          # PTX types D (and C) may have
    n_values: Mapping[CtaGroup, tuple[int, ...]]      # N per .cta_group
    n_rule: Mapping[CtaGroup, str]                    # the same, as the table writes it
    ab_types_for_d: Mapping[str, tuple[str, ...]]     # A/B types a D type allows, where narrower than ab_types
    m_values: Mapping[CtaGroup, tuple[int, ...]]      # M per .cta_group
    ab_container_bits: int | None = None              # bits a 6- or 4-bit A/B element takes (None: no such types)
    transpose: bool = True                            # an MN-major A or B exists (Table 51)
    sparse_m_values: Mapping[CtaGroup, tuple[int, ...]] | None = None   # M of the Sparse rows (None: the dense M)
    k1: int | None = None                             # a second dense K (Table 39's K1; descriptor bit 31, Table 44)
    k1_m_values: Mapping[CtaGroup, tuple[int, ...]] = field(default_factory=dict)   # M Table 39 lists with K1

    def m_values_of(self, group: CtaGroup, sparse: bool) -> tuple[int, ...]:
        """M of Table 39's Dense (sparse=False) or Sparse rows of the kind and CTA group."""
        if sparse and self.sparse_m_values is not None:
            return self.sparse_m_values[group]
        return self.m_values[group]


_STEPS_OF_8 = tuple(range(8, 257, 8))
_STEPS_OF_16 = tuple(range(16, 257, 16))
_STEPS_OF_32 = tuple(range(32, 257, 32))
_FLOAT_N = {CtaGroup.ONE: _STEPS_OF_8, CtaGroup.PAIR: _STEPS_OF_16}
_FLOAT_RULE = {CtaGroup.ONE: "N = 8, 16, 24, ... 256 (steps of 8)", CtaGroup.PAIR: "N = 16, 32, ... 256 (steps of 16)"}
M_VALUES: dict[CtaGroup, tuple[int, ...]] = {CtaGroup.ONE: (64, 128), CtaGroup.PAIR: (128, 256)}   # dense
BLOCK_SCALED_M_VALUES: dict[CtaGroup, tuple[int, ...]] = {CtaGroup.ONE: (128,), CtaGroup.PAIR: (128, 256)}
# Table 39's Sparse rows of the block-scaled kinds: "128xNxK" (.cta_group::1), "256xNxK" (.cta_group::2)
BLOCK_SCALED_SPARSE_M_VALUES: dict[CtaGroup, tuple[int, ...]] = {CtaGroup.ONE: (128,), CtaGroup.PAIR: (256,)}
MXF4_K1 = 96                  # Table 39: the mxf4 kinds' dense "256xNxK1 ... K1 = 96", .cta_group::2 rows only
MXF4_K1_M_VALUES: dict[CtaGroup, tuple[int, ...]] = {CtaGroup.PAIR: (256,)}
_F8F6F4_TYPES = ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1")
CONTAINER_BITS = 8            # .kind::(mx)f8f6f4: a 6- or 4-bit element takes a byte ("packed along with padding")
PACKED_E2M1_BITS = 4          # .kind::mxf4 / mxf4nvf4: two .e2m1 a byte

KIND_RULES: dict[MMAKind, KindRule] = {
    MMAKind.F16: KindRule(16, ("f16", "bf16"), ("f16", "f32"), _FLOAT_N, _FLOAT_RULE, {"f16": ("f16",)}, M_VALUES),
    MMAKind.TF32: KindRule(8, ("tf32",), ("f32",), _FLOAT_N, _FLOAT_RULE, {}, M_VALUES),
    MMAKind.F8F6F4: KindRule(32, _F8F6F4_TYPES, ("f32",), _FLOAT_N, _FLOAT_RULE, {}, M_VALUES,
                             ab_container_bits=CONTAINER_BITS),
    MMAKind.I8: KindRule(32, ("s8", "u8"), ("s32",),
                         {CtaGroup.ONE: (8, 16, 24, 32) + tuple(range(48, 257, 16)), CtaGroup.PAIR: _STEPS_OF_32},
                         {CtaGroup.ONE: "N = 8, 16, 24, 32, 48, ... 256 (steps of 16 after 32)",
                          CtaGroup.PAIR: "N = 32, 64, ... 256 (steps of 32)"}, {}, M_VALUES),
    MMAKind.MXF8F6F4: KindRule(32, _F8F6F4_TYPES, ("f32",), _FLOAT_N, _FLOAT_RULE, {}, BLOCK_SCALED_M_VALUES,
                               ab_container_bits=CONTAINER_BITS, sparse_m_values=BLOCK_SCALED_SPARSE_M_VALUES),
    MMAKind.MXF4: KindRule(64, ("e2m1",), ("f32",), _FLOAT_N, _FLOAT_RULE, {}, BLOCK_SCALED_M_VALUES,
                           ab_container_bits=PACKED_E2M1_BITS, transpose=False,
                           sparse_m_values=BLOCK_SCALED_SPARSE_M_VALUES, k1=MXF4_K1, k1_m_values=MXF4_K1_M_VALUES),
    MMAKind.MXF4NVF4: KindRule(64, ("e2m1",), ("f32",), _FLOAT_N, _FLOAT_RULE, {}, BLOCK_SCALED_M_VALUES,
                               ab_container_bits=PACKED_E2M1_BITS, transpose=False,
                               sparse_m_values=BLOCK_SCALED_SPARSE_M_VALUES, k1=MXF4_K1,
                               k1_m_values=MXF4_K1_M_VALUES),
}
# element width of A/B when the atom's types are not given (.kind::(mx)f8f6f4: the byte an element takes)
_DEFAULT_AB_BITS = {MMAKind.F16: 16, MMAKind.TF32: 32, MMAKind.F8F6F4: 8, MMAKind.I8: 8, MMAKind.MXF8F6F4: 8,
                    MMAKind.MXF4: 4, MMAKind.MXF4NVF4: 4}
_DEFAULT_D_BITS = 32
_A_IN_TMEM = re.compile(r"_TS(?:<|_|$)")     # CUTLASS's SM100_MMA_*_TS<...>: A from tensor memory
# what a 6- or 4-bit A/B element of a kind is in memory, by ab_container_bits
_CONTAINER_WORDS = {CONTAINER_BITS: "6- and 4-bit A and B elements padded to a byte each (16 of them in a 16-byte "
                                    "slot; CuTe's float_e2m1_unpacksmem_t, float_e3m2_unpacksmem_t, "
                                    "float_e2m3_unpacksmem_t), not packed",
                    PACKED_E2M1_BITS: "4-bit A and B elements packed, two a byte (CuTe's float_e2m1_t), not each "
                                      "in a byte"}
MN_MAJOR_BITS = (8, 16, 32)   # the element widths an MN-major (transposed) operand may have (Table 54)


# --- block scaling (Tables 56, 57) ---------------------------------------------------------------------------

class ScaleVector(str, enum.Enum):
    """The .scale_vectorsize qualifier of a block-scaled tcgen05.mma, as written."""
    X1 = "scale_vec::1X"
    X2 = "scale_vec::2X"
    X4 = "scale_vec::4X"
    BLOCK16 = "block16"
    BLOCK32 = "block32"


BLOCK_SCALE = "block_scale"
# .scale_vec::NX: N scale factors per row of A (column of B) per MMA
SCALES_PER_ROW: dict[ScaleVector, int] = {ScaleVector.X1: 1, ScaleVector.X2: 2, ScaleVector.X4: 4}
# .blockV: one scale factor per V elements of K, so K / V of them per row
BLOCK_ELEMENTS: dict[ScaleVector, int] = {ScaleVector.BLOCK16: 16, ScaleVector.BLOCK32: 32}
# Table 56's .blockN rows: the .scale_vec::NX each is an alias of ("based on .kind and K dimension"), for every K but
# K = 96, where .block16 gives M x 6 and .block32 M x 3 scale factors
BLOCK_ALIAS: dict[tuple[MMAKind, ScaleVector], int] = {
    (MMAKind.MXF4NVF4, ScaleVector.BLOCK16): 4, (MMAKind.MXF4, ScaleVector.BLOCK32): 2,
    (MMAKind.MXF4NVF4, ScaleVector.BLOCK32): 2, (MMAKind.MXF8F6F4, ScaleVector.BLOCK32): 1}
BLOCK_FACTORS_AT_K1: dict[ScaleVector, int] = {ScaleVector.BLOCK16: 6, ScaleVector.BLOCK32: 3}


@dataclass(frozen=True)
class ScaleRule:
    """The scale factors a block-scaled .kind takes."""
    scale_types: Mapping[int, tuple[str, ...]]   # scale factors per row (N of .scale_vec::NX) -> their PTX types
    default: int | None                          # N when no vector size is written (None: it must be written)


SCALE_RULES: dict[MMAKind, ScaleRule] = {
    MMAKind.MXF8F6F4: ScaleRule({1: ("ue8m0",)}, 1),
    MMAKind.MXF4: ScaleRule({2: ("ue8m0",)}, 2),
    MMAKind.MXF4NVF4: ScaleRule({2: ("ue8m0",), 4: ("ue8m0", "ue4m3")}, None),
}


def scales_per_row(kind: MMAKind, vector: ScaleVector | None) -> int | None:
    """N of the vector size (.scale_vec::NX, or .blockV = K / V) of a block-scaled kind; None when none is written
    and the kind has no default."""
    if vector is None:
        return SCALE_RULES[kind].default
    if vector in SCALES_PER_ROW:
        return SCALES_PER_ROW[vector]
    alias = BLOCK_ALIAS.get((kind, vector))
    # no row in Table 56 (.block16 of .kind::mxf8f6f4): read at the dense K, a size the kind's rule refuses
    return alias if alias is not None else KIND_RULES[kind].k // BLOCK_ELEMENTS[vector]


def factors_per_row(kind: MMAKind, vector: ScaleVector | None, k: int) -> int | None:
    """How many scale factors a row of A (column of B) has in one instruction of K `k` (Table 56: M x N of scale_A):
    the vector size's N, but six (.block16) or three (.block32) at K = 96; None as scales_per_row."""
    if vector in BLOCK_FACTORS_AT_K1 and k == KIND_RULES[kind].k1 and (kind, vector) in BLOCK_ALIAS:
        return BLOCK_FACTORS_AT_K1[vector]
    return scales_per_row(kind, vector)


def _vector_words(kind: MMAKind, per_row: int) -> str:
    """`.scale_vec::2X (.block32)`: the two spellings of one vector size of the kind."""
    block = KIND_RULES[kind].k // per_row
    alias = [v.value for v, elements in BLOCK_ELEMENTS.items() if elements == block]
    return f".scale_vec::{per_row}X" + (f" (.{alias[0]})" if alias else "")


def scale_rule(kind: MMAKind) -> str:
    """Tables 56 and 57's vector sizes and scale types of a block-scaled kind, in words."""
    rule = SCALE_RULES[kind]
    options = " or ".join(f"{_vector_words(kind, n)}{', the default,' if n == rule.default else ''} with "
                          f"{' or '.join('.' + t for t in types)} scale factors"
                          for n, types in rule.scale_types.items())
    return f".kind::{kind.value} takes {options}" + ("" if rule.default is not None else ", written always")


def scale_violation(kind: MMAKind, vector: ScaleVector | None) -> str:
    """Why a block-scaled kind has no instruction with this vector size ("" when it has one)."""
    per_row = scales_per_row(kind, vector)
    if per_row is not None and per_row in SCALE_RULES[kind].scale_types:
        return ""
    return f"{scale_rule(kind)}, not {'.' + vector.value if vector is not None else 'none'}"


def scale_types(kind: MMAKind, vector: ScaleVector | None) -> tuple[str, ...]:
    """The PTX types of the scale factors a block-scaled kind takes with this vector size (every type of the kind
    when the kind has no such vector size)."""
    rule = SCALE_RULES[kind]
    per_row = scales_per_row(kind, vector)
    if per_row is not None and per_row in rule.scale_types:
        return rule.scale_types[per_row]
    return tuple(dict.fromkeys(t for types in rule.scale_types.values() for t in types))


def transpose_violation(kind: MMAKind, elem_bits: int) -> str:
    """Why an MN-major (transposed) A or B of `elem_bits`-bit elements does not exist for the kind ("" when it
    does): Table 51 (transpose per kind) and Table 54 (MN-major 8-, 16- and 32-bit elements only)."""
    if not KIND_RULES[kind].transpose:
        return f".kind::{kind.value} does not support transpose: A and B are K-major only (Table 51)"
    if elem_bits not in MN_MAJOR_BITS:
        return (f"an MN-major A or B has {', '.join(str(b) for b in MN_MAJOR_BITS)}-bit elements only, not "
                f"{elem_bits}-bit (Table 54)")
    return ""


def a_in_tmem(atom_name: str) -> bool:
    """The atom is one of CUTLASS's _TS forms: tcgen05.mma reads A from tensor memory, not shared memory."""
    return _A_IN_TMEM.search(atom_name) is not None


@dataclass(frozen=True)
class UMMAModel(MMAModel):
    """An MMAModel whose "lanes" are CTAs."""
    cta_group: CtaGroup = CtaGroup.ONE


UmmaForm = tuple[CtaGroup, MMAKind]     # a dense form: (cta group, kind)
SPARSE = "sp"                           # tcgen05.mma.sp: A structured-sparse
SPARSE_K_FACTOR = 2                     # Table 39: a sparse form's K is twice the dense form's (A is M x K/2 stored)


@dataclass(frozen=True)
class SparseForm:
    """`tcgen05.mma.sp.cta_group::G.kind::K` with a dense kind: the CTA group and the kind."""
    group: CtaGroup
    kind: MMAKind


@dataclass(frozen=True)
class BlockScaledForm:
    """`tcgen05.mma{.sp}.cta_group::G.kind::K.block_scale{.V}`: the CTA group, the block-scaled kind and the
    vector-size qualifier as written (None: not written); `sparse`: the .sp form (A structured-sparse)."""
    group: CtaGroup
    kind: MMAKind
    vector: ScaleVector | None = None
    sparse: bool = False


TCGEN05 = "tcgen05"
MMA = "mma"
_GROUPS = {f"cta_group::{g.value}": g for g in CtaGroup}
_KINDS = {f"kind::{k.value}": k for k in MMAKind}
_VECTORS = {v.value.lower(): v for v in ScaleVector}     # qualifiers are compared lower-cased


def parse_form(qualifiers: Sequence[str]) -> UmmaForm | BlockScaledForm | SparseForm | None:
    """(cta group, kind) of `tcgen05.mma.cta_group::N.kind::K` (qualifiers after `tcgen05`, lower-cased) with a
    dense kind; a BlockScaledForm of `tcgen05.mma{.sp}.cta_group::N.kind::K.block_scale{.V}` with a block-scaled
    kind (V any vector-size qualifier, one the kind does not take included: its model says why it is no
    instruction); a SparseForm of `tcgen05.mma.sp.cta_group::N.kind::K` with a dense kind; None for any other form
    (.ws, collector usage, a dense kind with .block_scale, a block-scaled one without it: not modelled)."""
    if len(qualifiers) > 1 and qualifiers[0] == MMA and qualifiers[1] == SPARSE:
        dense = parse_form((MMA, *qualifiers[2:]))
        if isinstance(dense, BlockScaledForm):
            return replace(dense, sparse=True)
        return SparseForm(*dense) if isinstance(dense, tuple) else None
    if len(qualifiers) < 3 or qualifiers[0] != MMA:
        return None
    group, kind = _GROUPS.get(qualifiers[1]), _KINDS.get(qualifiers[2])
    if group is None or kind is None:
        return None
    rest = [q.lower() for q in qualifiers[3:]]
    if not kind.block_scaled:
        return (group, kind) if not rest else None
    if not rest or rest[0] != BLOCK_SCALE or len(rest) > 2:
        return None
    if len(rest) == 1:
        return BlockScaledForm(group, kind)
    vector = _VECTORS.get(rest[1])
    return BlockScaledForm(group, kind, vector) if vector is not None else None


def form_text(form: UmmaForm | BlockScaledForm | SparseForm) -> str:
    """The instruction of a form, as the PTX ISA writes it (parse_form reads it back)."""
    if isinstance(form, SparseForm):
        return f"{TCGEN05}.{MMA}.{SPARSE}.cta_group::{form.group.value}.kind::{form.kind.value}"
    if isinstance(form, BlockScaledForm):
        vector = f".{form.vector.value}" if form.vector is not None else ""
        sparse = f".{SPARSE}" if form.sparse else ""
        return (f"{TCGEN05}.{MMA}{sparse}.cta_group::{form.group.value}.kind::{form.kind.value}.{BLOCK_SCALE}"
                f"{vector}")
    group, kind = form
    return f"{TCGEN05}.{MMA}.cta_group::{group.value}.kind::{kind.value}"


def shape_rule(group: CtaGroup, kind: MMAKind) -> str:
    """Table 39's row for the form, in words."""
    rule = KIND_RULES[kind]
    ms = " or ".join(str(m) for m in rule.m_values[group])
    return f"M = {ms}; {rule.n_rule[group]}; K = {rule.k} (.kind::{kind.value} .cta_group::{group.value})"


def type_rule_violation(kind: MMAKind, ptx_types: Mapping[str, str]) -> str:
    """Why Table 39 has no row for these operand types ("" when it has one)."""
    rule = KIND_RULES[kind]
    d = ptx_types.get("d")
    if d is None or d not in rule.d_types:
        return ""       # the types theorem (mma.types) judges a type the kind never takes
    allowed = rule.ab_types_for_d.get(d)
    if allowed is None:
        return ""
    bad = [f".{ptx_types[x]} {x.upper()}" for x in ("a", "b") if ptx_types.get(x) not in (None, *allowed)]
    if not bad:
        return ""
    return (f".kind::{kind.value} with .{d} D takes {' and '.join('.' + t for t in allowed)} A and B only, not "
            f"{', '.join(bad)}")


def container_violation(kind: MMAKind, value_types: Mapping[str, tuple[str, int]]) -> tuple[str, str]:
    """Why the kind does not read these 6- or 4-bit A / B types ("" when it does), and the first operand at fault
    ("a" or "b"): .kind::(mx)f8f6f4 reads them padded to a byte each, the mxf4 kinds two packed .e2m1 a byte.
    `value_types`: {a, b, ...} -> (CuTe name, bits); a bare bit width says nothing of its container."""
    container = KIND_RULES[kind].ab_container_bits
    if container is None:
        return "", ""
    bad = [(key, f"{name} {key.upper()}") for key in ("a", "b") if key in value_types
           for name, bits in (value_types[key],)
           if ptx_type_of(name) is not None and bits < CONTAINER_BITS and smem_container_bits(name, bits) != container]
    if not bad:
        return "", ""
    return f".kind::{kind.value} reads its {_CONTAINER_WORDS[container]}: {', '.join(t for _, t in bad)}", bad[0][0]


def _whole_tile(rows: int, cols: int, bits: int, ctas: int, operand: str, memory: str) -> OperandFragment:
    """Operand (rows, cols) shared by `ctas` CTAs, each naming its rows/ctas consecutive rows, colex."""
    per_cta = rows // ctas

    def coord(cta: Index, v: Index) -> tuple[Index, Index]:
        return cta * per_cta + v % per_cta, v // per_cta

    def describe(cta: int, v: int) -> dict[str, Any]:
        return {"CTA": cta, f"{memory} element of {operand}": v}
    return OperandFragment(per_cta * cols, bits, coord, describe)


@lru_cache(maxsize=None)
def umma_model(group: CtaGroup, kind: MMAKind, m: int, n: int, a_in_tmem: bool = False,
               ab_bits: tuple[int, int] | None = None, d_bits: int | None = None,
               type_violation: str = "", vector: ScaleVector | None = None, violation_of: str = "d",
               sparse: bool = False, atom_k: int | None = None) -> UMMAModel:
    """The model of tcgen05.mma[.sp].cta_group::<group>.kind::<kind> (with .block_scale and the vector size `vector`
    for a block-scaled kind) with M = m and N = n in its instruction descriptor; `invalid` says why when the PTX
    ISA has no such instruction (`type_violation`: why Table 39 has no row for the atom's types, the type of
    operand `violation_of` at fault).  `sparse`: the .sp form, K twice the dense K.  `atom_k`: the atom's K, which
    selects the K1 of a kind that has one (the descriptor's K Dimension bit); `unsettled` says why the model
    neither proves nor refutes a K1 form Table 39 does not list."""
    rule = KIND_RULES[kind]
    form: UmmaForm | BlockScaledForm | SparseForm = (
        BlockScaledForm(group, kind, vector, sparse) if kind.block_scaled else SparseForm(group, kind) if sparse
        else (group, kind))
    k = rule.k * SPARSE_K_FACTOR if sparse else rule.k
    unsettled = ""
    if not sparse and rule.k1 is not None and atom_k == rule.k1:
        k = rule.k1
        if m not in rule.k1_m_values.get(group, ()):
            unsettled = k1_unsettled(kind, group, m)
    problems: list[str] = []
    invalid_in = "shape"
    vector_problem = scale_violation(kind, vector) if kind.block_scaled else ""
    if type_violation:       # Table 39 has no row for these types: no shape at all
        problems.append(type_violation)
        invalid_in = "types" if violation_of == "d" else f"types.{violation_of}"
    elif vector_problem:     # no such qualifier for the kind: no instruction at all
        problems.append(vector_problem)
        invalid_in = "instruction"
    else:
        ms = rule.m_values_of(group, sparse)
        if m not in ms:     # the block-scaled kinds' M differs from the dense kinds': name the kind
            of_kind = f".kind::{kind.value} " if kind.block_scaled else ""
            of_sparse = "sparse " if sparse and rule.sparse_m_values is not None else ""
            problems.append(f"M = {' or '.join(str(x) for x in ms)} for {of_sparse}{of_kind}.cta_group::"
                            f"{group.value}, not {m}")
        if n not in rule.n_values[group]:
            problems.append(f"{rule.n_rule[group]} for .kind::{kind.value} .cta_group::{group.value}, not {n}")
    a_bits, b_bits = ab_bits or (_DEFAULT_AB_BITS[kind],) * 2
    ctas = int(group)
    # no instruction (invalid): one-element fragments, never compared (theorem 2 refutes on `invalid` first)
    usable = not problems and m % ctas == 0 and n % ctas == 0
    a_rows, b_rows = (m, n) if usable else (ctas, ctas)
    # each CTA names its rows of the whole tile, colex: A (m, k) -> m + M*k, B (n, k) -> n + N*k, D (m, n) -> m + M*n
    a = _whole_tile(a_rows, k, a_bits, ctas, "A", "tensor memory" if a_in_tmem else "descriptor")
    b = _whole_tile(b_rows, k, b_bits, ctas, "B", "descriptor")
    c = _whole_tile(a_rows, n if usable else 1, d_bits or _DEFAULT_D_BITS, ctas, "D", "tensor memory")
    name = f"{form_text(form)} (instruction descriptor M={m}, N={n})"
    section = SCALED_SECTION if kind.block_scaled else SPARSE_SECTION if sparse else SECTION
    if kind.block_scaled and sparse:
        section = SCALED_SPARSE_SECTION
    return UMMAModel(name, (m, n, k), ctas, a, b, c, section=section,
                     invalid="; ".join(problems), invalid_in=invalid_in, cta_group=group,
                     unsettled="" if problems else unsettled)


def k1_unsettled(kind: MMAKind, group: CtaGroup, m: int) -> str:
    """Why a dense K1 = 96 form Table 39 does not list is neither proved nor refuted."""
    listed = " or ".join(f"{mm}xNxK1 with .cta_group::{g.value}" for g, ms in KIND_RULES[kind].k1_m_values.items()
                         for mm in ms)
    return (f"K = {KIND_RULES[kind].k1} (the instruction descriptor's K Dimension bit 31, Table 44) is listed by "
            f"Table 39 for .kind::{kind.value} only as {listed}, not with .cta_group::{group.value} and M = {m}; "
            "CUTLASS issues this form (its SM103 ULTRA atoms, SM103_MXF4_ULTRA_SS_VS / SM103_MXF4_ULTRA_2x1SM_SS_VS, "
            "on sm_103a): the PTX ISA text and CUTLASS disagree, and without an sm_103a GPU the atom is neither "
            "verified nor refuted")


def umma_types(kind: MMAKind, vector: ScaleVector | None = None) -> dict[str, str]:
    """The PTX types tcgen05.mma of this kind takes per operand {a, b, c, d} (alternatives joined by '|'), and for
    a block-scaled kind those of its scale factors with this vector size, `sf`."""
    rule = KIND_RULES[kind]
    ab, d = PTX_TYPE_CHOICES.join(rule.ab_types), PTX_TYPE_CHOICES.join(rule.d_types)
    types = {"a": ab, "b": ab, "c": d, "d": d}
    if kind.block_scaled:
        types["sf"] = PTX_TYPE_CHOICES.join(scale_types(kind, vector))
    return types


def tcgen05_model(qualifiers: Sequence[str], atom_name: str, shape_mnk: tuple[int, int, int] | None,
                  value_types: Mapping[str, tuple[str, int]] | None) -> UMMAModel | None:
    """The model of a tcgen05.mma atom (qualifiers after `tcgen05`), or None when the form is not modelled or
    the atom's shape (which the instruction text does not carry) is not given.  `value_types`: the atom's
    {a, b, c, d} -> (CuTe type name, bits)."""
    form = parse_form(qualifiers)
    if form is None:
        return None
    return model_of_form(form, atom_name, shape_mnk, value_types)


def model_of_form(form: UmmaForm | BlockScaledForm | SparseForm, atom_name: str,
                  shape_mnk: tuple[int, int, int] | None,
                  value_types: Mapping[str, tuple[str, int]] | None) -> UMMAModel | None:
    """tcgen05_model of a parsed form."""
    if shape_mnk is None:
        return None
    vector: ScaleVector | None = None
    sparse = False
    if isinstance(form, BlockScaledForm):
        group, kind, vector, sparse = form.group, form.kind, form.vector, form.sparse
    elif isinstance(form, SparseForm):
        group, kind, sparse = form.group, form.kind, True
    else:
        group, kind = form
    types = value_types or {}
    ptx = {key: t for key in ("a", "b", "d") if key in types and (t := ptx_type_of(types[key][0]))}
    ab_bits = (types["a"][1], types["b"][1]) if "a" in types and "b" in types else None
    d_bits = types["d"][1] if "d" in types else None
    m, n, atom_k = shape_mnk
    violation, of = type_rule_violation(kind, ptx), "d"
    if not violation:
        violation, of = container_violation(kind, types)
    return umma_model(group, kind, int(m), int(n), a_in_tmem(atom_name), ab_bits, d_bits, violation, vector, of or "d",
                      sparse, int(atom_k))


# --- neighbours (prove --suggest) -----------------------------------------------------------------------------

def nearby_instructions(qualifiers: Sequence[str]) -> list[str]:
    """The instructions next to a block-scaled tcgen05.mma (qualifiers after `tcgen05`), the likeliest fix first:
    another kind of the same K with the same vector-size qualifier, then the same kind with each vector size it
    takes; only instructions Tables 56 / 57 list.  Empty for any other form."""
    form = parse_form(qualifiers)
    if not isinstance(form, BlockScaledForm):
        return []
    k = KIND_RULES[form.kind].k
    near = [BlockScaledForm(form.group, kind, form.vector, form.sparse) for kind in BLOCK_SCALED_KINDS
            if kind is not form.kind and KIND_RULES[kind].k == k]
    near += [BlockScaledForm(form.group, form.kind, v, form.sparse) for v in (None, *ScaleVector)
             if v is not form.vector]
    return [form_text(f) for f in near if not scale_violation(f.kind, f.vector)]


def nearby_shapes(qualifiers: Sequence[str], m: int, n: int) -> list[tuple[int, int]]:
    """The (M, N) Table 39 lists for a tcgen05.mma form next to (m, n), nearest first: the extent it lacks replaced
    (the two nearest values; both extents when it lacks both).  Empty when it lists (m, n) or the form is none."""
    form = parse_form(qualifiers)
    if form is None:
        return []
    group, kind = (form.group, form.kind) if isinstance(form, (BlockScaledForm, SparseForm)) else form
    sparse = isinstance(form, SparseForm) or (isinstance(form, BlockScaledForm) and form.sparse)
    rule = KIND_RULES[kind]
    m_values = rule.m_values_of(group, sparse)
    ms = sorted(m_values, key=lambda x: (abs(x - m), x))
    ns = sorted(rule.n_values[group], key=lambda x: (abs(x - n), x))
    bad_m, bad_n = m not in m_values, n not in rule.n_values[group]
    if bad_m and bad_n:
        return [(ms[0], ns[0])]
    if bad_m:
        return [(x, n) for x in ms[:2]]
    return [(m, y) for y in ns[:2]] if bad_n else []


def _parse_tcgen05_mma(instruction: Instruction) -> UmmaForm | BlockScaledForm | SparseForm | None:
    return parse_form(instruction.qualifiers)


def _build_tcgen05_mma(form: UmmaForm | BlockScaledForm | SparseForm, query: ModelQuery) -> MMAModel | None:
    return model_of_form(form, query.atom_name, query.shape_mnk, query.value_types)


def _tcgen05_mma_types(form: UmmaForm | BlockScaledForm | SparseForm) -> OperandTypes:
    if isinstance(form, BlockScaledForm):
        return umma_types(form.kind, form.vector)
    if isinstance(form, SparseForm):
        return umma_types(form.kind)
    return umma_types(form[1])


# tcgen05.mma (tcgen05.ld / tcgen05.st are tmem_copy.py's, in the copy table)
TCGEN05_MMA_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "tcgen05.mma", _parse_tcgen05_mma, _build_tcgen05_mma, ptx_opcodes=frozenset({TCGEN05}),
    operand_types=_tcgen05_mma_types))
