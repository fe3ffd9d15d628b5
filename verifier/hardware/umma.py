"""tcgen05.mma (SM100 "UMMA", dense, not .ws): which element of A, B and D each CTA of the MMA names.

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

A shape (or a type combination) the table does not list is no instruction: the model says why in `invalid`, and
theorem 2 refutes the atom with that reason rather than comparing it with an invented fragment.
"""
from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..algebra.types import PTX_TYPE_CHOICES, ptx_type_of
from .base import Index, MMAModel, OperandFragment
from .registry import MMA_FAMILIES, Instruction, InstructionFamily, ModelQuery, OperandTypes

SECTION = ("PTX ISA, TensorCore 5th Generation Family Instructions: Matrix Shape (Table 39), Instruction "
           "descriptor, Matrix Descriptors, CTA Pair, Data Path Layout Organization")


class MMAKind(str, enum.Enum):
    """The dense .kind qualifiers of tcgen05.mma this module models (block-scaled kinds are not modelled)."""
    F16 = "f16"
    TF32 = "tf32"
    F8F6F4 = "f8f6f4"
    I8 = "i8"


class CtaGroup(enum.IntEnum):
    ONE = 1       # .cta_group::1: one CTA
    PAIR = 2      # .cta_group::2: the CTA pair


@dataclass(frozen=True)
class KindRule:
    """One .kind of Table 39 (dense, without .ws)."""
    k: int                                            # K of the dense MMA
    ab_types: tuple[str, ...]                         # PTX types A and B may have
    d_types: tuple[str, ...]                          # PTX types D (and C) may have
    n_values: Mapping[CtaGroup, tuple[int, ...]]      # N per .cta_group
    n_rule: Mapping[CtaGroup, str]                    # the same, as the table writes it
    ab_types_for_d: Mapping[str, tuple[str, ...]]     # A/B types a D type allows, where narrower than ab_types


_STEPS_OF_8 = tuple(range(8, 257, 8))
_STEPS_OF_16 = tuple(range(16, 257, 16))
_STEPS_OF_32 = tuple(range(32, 257, 32))
_FLOAT_RULE = {CtaGroup.ONE: "N = 8, 16, 24, ... 256 (steps of 8)", CtaGroup.PAIR: "N = 16, 32, ... 256 (steps of 16)"}

KIND_RULES: dict[MMAKind, KindRule] = {
    MMAKind.F16: KindRule(16, ("f16", "bf16"), ("f16", "f32"),
                          {CtaGroup.ONE: _STEPS_OF_8, CtaGroup.PAIR: _STEPS_OF_16}, _FLOAT_RULE,
                          {"f16": ("f16",)}),
    MMAKind.TF32: KindRule(8, ("tf32",), ("f32",), {CtaGroup.ONE: _STEPS_OF_8, CtaGroup.PAIR: _STEPS_OF_16},
                           _FLOAT_RULE, {}),
    MMAKind.F8F6F4: KindRule(32, ("e4m3", "e5m2", "e2m3", "e3m2", "e2m1"), ("f32",),
                             {CtaGroup.ONE: _STEPS_OF_8, CtaGroup.PAIR: _STEPS_OF_16}, _FLOAT_RULE, {}),
    MMAKind.I8: KindRule(32, ("s8", "u8"), ("s32",),
                         {CtaGroup.ONE: (8, 16, 24, 32) + tuple(range(48, 257, 16)), CtaGroup.PAIR: _STEPS_OF_32},
                         {CtaGroup.ONE: "N = 8, 16, 24, 32, 48, ... 256 (steps of 16 after 32)",
                          CtaGroup.PAIR: "N = 32, 64, ... 256 (steps of 32)"}, {}),
}
M_VALUES: dict[CtaGroup, tuple[int, ...]] = {CtaGroup.ONE: (64, 128), CtaGroup.PAIR: (128, 256)}
# element width of A/B when the atom's types are not given (.kind::f8f6f4: its 8-bit container)
_DEFAULT_AB_BITS = {MMAKind.F16: 16, MMAKind.TF32: 32, MMAKind.F8F6F4: 8, MMAKind.I8: 8}
_DEFAULT_D_BITS = 32
_A_IN_TMEM = re.compile(r"_TS(?:<|_|$)")     # CUTLASS's SM100_MMA_*_TS<...>: A from tensor memory


def a_in_tmem(atom_name: str) -> bool:
    """The atom is one of CUTLASS's _TS forms: tcgen05.mma reads A from tensor memory, not shared memory."""
    return _A_IN_TMEM.search(atom_name) is not None


@dataclass(frozen=True)
class UMMAModel(MMAModel):
    """An MMAModel whose "lanes" are CTAs."""
    cta_group: CtaGroup = CtaGroup.ONE


UmmaForm = tuple[CtaGroup, MMAKind]
TCGEN05 = "tcgen05"
MMA = "mma"


def parse_form(qualifiers: Sequence[str]) -> UmmaForm | None:
    """(cta group, kind) of `tcgen05.mma.cta_group::N.kind::K` (qualifiers after `tcgen05`), or None for any
    other form (.ws, .sp, block scaling, collector usage: not modelled)."""
    if not qualifiers or qualifiers[0] != MMA or len(qualifiers) != 3:
        return None
    group = {f"cta_group::{g.value}": g for g in CtaGroup}.get(qualifiers[1])
    kind = {f"kind::{k.value}": k for k in MMAKind}.get(qualifiers[2])
    if group is None or kind is None:
        return None
    return group, kind


def shape_rule(group: CtaGroup, kind: MMAKind) -> str:
    """Table 39's row for the form, in words."""
    ms = " or ".join(str(m) for m in M_VALUES[group])
    rule = KIND_RULES[kind]
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
               type_violation: str = "") -> UMMAModel:
    """The model of tcgen05.mma.cta_group::<group>.kind::<kind> with M = m and N = n in its instruction
    descriptor; `invalid` says why when the PTX ISA has no such instruction."""
    rule = KIND_RULES[kind]
    problems: list[str] = []
    if type_violation:       # Table 39 has no row for these types: no shape at all
        problems.append(type_violation)
    else:
        if m not in M_VALUES[group]:
            problems.append(f"M = {' or '.join(str(x) for x in M_VALUES[group])} for .cta_group::{group.value}, "
                            f"not {m}")
        if n not in rule.n_values[group]:
            problems.append(f"{rule.n_rule[group]} for .kind::{kind.value} .cta_group::{group.value}, not {n}")
    a_bits, b_bits = ab_bits or (_DEFAULT_AB_BITS[kind],) * 2
    ctas = int(group)
    # no instruction (invalid): one-element fragments, never compared (theorem 2 refutes on `invalid` first)
    usable = not problems and m % ctas == 0 and n % ctas == 0
    a_rows, b_rows = (m, n) if usable else (ctas, ctas)
    a = _whole_tile(a_rows, rule.k, a_bits, ctas, "A", "tensor memory" if a_in_tmem else "descriptor")
    b = _whole_tile(b_rows, rule.k, b_bits, ctas, "B", "descriptor")
    c = _whole_tile(a_rows, n if usable else 1, d_bits or _DEFAULT_D_BITS, ctas, "D", "tensor memory")
    name = f"tcgen05.mma.cta_group::{group.value}.kind::{kind.value} (instruction descriptor M={m}, N={n})"
    return UMMAModel(name, (m, n, rule.k), ctas, a, b, c, section=SECTION, invalid="; ".join(problems),
                     invalid_in="types" if type_violation else "shape", cta_group=group)


def umma_types(kind: MMAKind) -> dict[str, str]:
    """The PTX types tcgen05.mma of this kind takes per operand {a, b, c, d} (alternatives joined by '|')."""
    rule = KIND_RULES[kind]
    ab, d = PTX_TYPE_CHOICES.join(rule.ab_types), PTX_TYPE_CHOICES.join(rule.d_types)
    return {"a": ab, "b": ab, "c": d, "d": d}


def tcgen05_model(qualifiers: Sequence[str], atom_name: str, shape_mnk: tuple[int, int, int] | None,
                  value_types: Mapping[str, tuple[str, int]] | None) -> UMMAModel | None:
    """The model of a tcgen05.mma atom (qualifiers after `tcgen05`), or None when the form is not modelled or
    the atom's shape (which the instruction text does not carry) is not given.  `value_types`: the atom's
    {a, b, c, d} -> (CuTe type name, bits)."""
    form = parse_form(qualifiers)
    if form is None:
        return None
    return model_of_form(form, atom_name, shape_mnk, value_types)


def model_of_form(form: UmmaForm, atom_name: str, shape_mnk: tuple[int, int, int] | None,
                  value_types: Mapping[str, tuple[str, int]] | None) -> UMMAModel | None:
    """tcgen05_model of a parsed form."""
    if shape_mnk is None:
        return None
    group, kind = form
    types = value_types or {}
    ptx = {key: t for key in ("a", "b", "d") if key in types and (t := ptx_type_of(types[key][0]))}
    ab_bits = (types["a"][1], types["b"][1]) if "a" in types and "b" in types else None
    d_bits = types["d"][1] if "d" in types else None
    m, n, _ = shape_mnk
    return umma_model(group, kind, int(m), int(n), a_in_tmem(atom_name), ab_bits, d_bits,
                      type_rule_violation(kind, ptx))


def _parse_tcgen05_mma(instruction: Instruction) -> UmmaForm | None:
    return parse_form(instruction.qualifiers)


def _build_tcgen05_mma(form: UmmaForm, query: ModelQuery) -> MMAModel | None:
    return model_of_form(form, query.atom_name, query.shape_mnk, query.value_types)


def _tcgen05_mma_types(form: UmmaForm) -> OperandTypes:
    return umma_types(form[1])


# tcgen05.mma (tcgen05.ld / tcgen05.st are tmem_copy.py's, in the copy table)
TCGEN05_MMA_FAMILY = MMA_FAMILIES.register(InstructionFamily(
    "tcgen05.mma", _parse_tcgen05_mma, _build_tcgen05_mma, ptx_opcodes=frozenset({TCGEN05}),
    operand_types=_tcgen05_mma_types))
