"""Block-scaled tcgen05.mma (.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 with .block_scale; verifier/hardware/
umma.py) against the PTX ISA's Table 39 rows of those kinds and the scale vector sizes of Tables 56 / 57, the atoms
CUTLASS's traits write (tests/specs/sm100_umma_blockscaled.yaml, transcribed from `import-cutlass`; the atom library
specs/atoms/sm100_umma_blockscaled.yaml), and `import-cutlass` instantiating SM100_MMA_MXF8F6F4 / MXF4 templates."""
from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.types import instruction_type_agrees, ptx_type_of, smem_container_bits, type_bits
from verifier.engine.runner import run_check
from verifier.hardware.registry import Instruction, mma_instruction_model, mma_instruction_types
from verifier.hardware.umma import (BLOCK_SCALED_KINDS, DENSE_KINDS, KIND_RULES, SCALE_RULES, BlockScaledForm,
                                    CtaGroup, MMAKind, ScaleVector, form_text, parse_form, scale_types,
                                    scale_violation, scales_per_row, transpose_violation, umma_model, umma_types)
from verifier.importer import import_cutlass
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.specfile.model import SpecError
from verifier.suggest import suggest
from verifier.symbolic.decide import Settings
from verifier.theorems.catalog import TheoremId

ROOT = Path(__file__).resolve().parents[1]
SPEC = load_spec(Path(__file__).parent / "specs" / "sm100_umma_blockscaled.yaml", allow_outside=True)
LIBRARY = ROOT / "specs" / "atoms" / "sm100_umma_blockscaled.yaml"
ONE, PAIR = CtaGroup.ONE, CtaGroup.PAIR
MXF8F6F4, MXF4, MXF4NVF4 = MMAKind.MXF8F6F4, MMAKind.MXF4, MMAKind.MXF4NVF4
X1, X2, X4, B16, B32 = (ScaleVector.X1, ScaleVector.X2, ScaleVector.X4, ScaleVector.BLOCK16,
                        ScaleVector.BLOCK32)
K_OF = {MXF8F6F4: 32, MXF4: 64, MXF4NVF4: 64}
# a vector size every kind takes: (kind, written qualifier)
VECTOR_OF = {MXF8F6F4: None, MXF4: B32, MXF4NVF4: B16}


# --- Table 39: shapes ----------------------------------------------------------------------------------------

# (kind, cta group, M, N): Table 39 lists the block-scaled shape
LEGAL = [(MXF8F6F4, ONE, 128, 8), (MXF8F6F4, ONE, 128, 256), (MXF4, ONE, 128, 136), (MXF4NVF4, ONE, 128, 64),
         (MXF8F6F4, PAIR, 128, 16), (MXF8F6F4, PAIR, 256, 256), (MXF4, PAIR, 128, 192), (MXF4NVF4, PAIR, 256, 48)]
# (kind, cta group, M, N, the extent Table 39 does not list)
ILLEGAL = [(MXF8F6F4, ONE, 64, 128, "M"), (MXF4, ONE, 256, 128, "M"), (MXF4NVF4, ONE, 64, 8, "M"),
           (MXF8F6F4, ONE, 128, 12, "N"), (MXF4, ONE, 128, 264, "N"), (MXF4NVF4, PAIR, 64, 64, "M"),
           (MXF8F6F4, PAIR, 256, 8, "N"), (MXF4, PAIR, 128, 24, "N")]


@pytest.mark.parametrize("kind,group,m,n", LEGAL)
def test_table_39_block_scaled_shapes_are_instructions(kind, group, m, n):
    model = umma_model(group, kind, m, n, vector=VECTOR_OF[kind])
    assert model.invalid == ""
    assert model.shape_mnk == (m, n, K_OF[kind]) and model.lanes == int(group)
    # whole tile per CTA: each CTA of a pair names its half of A's and D's rows and of B's rows
    assert model.a.elements == m // int(group) * K_OF[kind]
    assert model.b.elements == n // int(group) * K_OF[kind]
    assert model.c.elements == m // int(group) * n
    assert model.instruction.startswith(f"tcgen05.mma.cta_group::{int(group)}.kind::{kind.value}.block_scale")


@pytest.mark.parametrize("kind,group,m,n,extent", ILLEGAL)
def test_shapes_table_39_does_not_list_are_refused_with_the_rule(kind, group, m, n, extent):
    model = umma_model(group, kind, m, n, vector=VECTOR_OF[kind])
    assert model.invalid_in == "shape"
    bad = m if extent == "M" else n
    rule = (f"M = {' or '.join(str(x) for x in KIND_RULES[kind].m_values[group])} for .kind::{kind.value} "
            f".cta_group::{int(group)}, not {bad}" if extent == "M" else
            f"for .kind::{kind.value} .cta_group::{int(group)}, not {bad}")
    assert rule in model.invalid


def test_block_scaled_m_is_not_the_dense_m():
    """M = 64 is a dense .cta_group::1 shape and no block-scaled one; both take M = 128 and a pair's 128 or 256."""
    for kind in BLOCK_SCALED_KINDS:
        assert KIND_RULES[kind].m_values == {ONE: (128,), PAIR: (128, 256)}
        assert "not 64" in umma_model(ONE, kind, 64, 64, vector=VECTOR_OF[kind]).invalid
    for kind in DENSE_KINDS:
        assert umma_model(ONE, kind, 64, 64).invalid == ""
    assert {kind: KIND_RULES[kind].k for kind in BLOCK_SCALED_KINDS} == K_OF


# --- Tables 56 / 57: vector sizes and scale types ----------------------------------------------------------

# (kind, vector size as written) -> scale factors per row, or None where the kind has no such vector size
PER_ROW = {
    (MXF8F6F4, None): 1, (MXF8F6F4, X1): 1, (MXF8F6F4, B32): 1, (MXF8F6F4, X2): None, (MXF8F6F4, X4): None,
    (MXF8F6F4, B16): None,
    (MXF4, None): 2, (MXF4, X2): 2, (MXF4, B32): 2, (MXF4, X1): None, (MXF4, X4): None, (MXF4, B16): None,
    (MXF4NVF4, None): None, (MXF4NVF4, X2): 2, (MXF4NVF4, B32): 2, (MXF4NVF4, X4): 4, (MXF4NVF4, B16): 4,
    (MXF4NVF4, X1): None,
}


@pytest.mark.parametrize("kind,vector", sorted(PER_ROW, key=str))
def test_vector_sizes_each_kind_takes(kind, vector):
    want = PER_ROW[kind, vector]
    model = umma_model(ONE, kind, 128, 128, vector=vector)
    if want is None:
        assert model.invalid_in == "instruction"
        assert model.invalid.startswith(f".kind::{kind.value} takes ")
        assert model.invalid.endswith(f"not .{vector.value}" if vector else "not none")
        assert scale_violation(kind, vector) == model.invalid
    else:
        assert model.invalid == "" and scale_violation(kind, vector) == ""
        assert want in SCALE_RULES[kind].scale_types


def test_block_aliases_name_the_elements_one_factor_covers():
    """.block32 is 1X for .kind::mxf8f6f4 (K = 32) and 2X for the mxf4 kinds (K = 64); .block16 is 4X."""
    assert scales_per_row(MXF8F6F4, B32) == 1 and scales_per_row(MXF4, B32) == 2
    assert scales_per_row(MXF4NVF4, B16) == 4 and scales_per_row(MXF8F6F4, B16) == 2
    for (kind, _), per_row in PER_ROW.items():
        if per_row is not None:
            assert KIND_RULES[kind].k // per_row in (16, 32)        # VS: the elements one factor scales


def test_scale_types_per_vector_size():
    assert umma_types(MXF8F6F4)["sf"] == "ue8m0"
    assert umma_types(MXF4, B32)["sf"] == "ue8m0"
    assert umma_types(MXF4NVF4, B32)["sf"] == umma_types(MXF4NVF4, X2)["sf"] == "ue8m0"
    assert umma_types(MXF4NVF4, B16)["sf"] == umma_types(MXF4NVF4, X4)["sf"] == "ue8m0|ue4m3"
    assert scale_types(MXF4NVF4, None) == ("ue8m0", "ue4m3")      # no such vector size: every type of the kind
    assert "sf" not in umma_types(MMAKind.F8F6F4)
    want = mma_instruction_types("tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16")
    assert want == {"a": "e2m1", "b": "e2m1", "c": "f32", "d": "f32", "sf": "ue8m0|ue4m3"}
    assert instruction_type_agrees("float_ue4m3_t", 8, want["sf"])[0]
    assert not instruction_type_agrees("float_ue4m3_t", 8, "ue8m0")[0]


def test_value_types_of_block_scaling():
    """CuTe's sizeof_bits of the unpacksmem types is the payload's; each is padded to a byte of shared memory."""
    assert type_bits("cutlass::detail::float_e2m1_unpacksmem_t") == 4
    assert type_bits("float_e3m2_unpacksmem_t") == type_bits("float_e2m3_unpacksmem_t") == 6
    assert type_bits("cutlass::float_ue4m3_t") == type_bits("float_ue8m0_t") == 8
    assert [ptx_type_of(t) for t in ("detail::float_e2m1_unpacksmem_t", "float_e3m2_unpacksmem_t",
                                     "float_e2m3_unpacksmem_t", "float_ue8m0_t", "float_ue4m3_t")] == \
        ["e2m1", "e3m2", "e2m3", "ue8m0", "ue4m3"]
    assert smem_container_bits("float_e2m1_unpacksmem_t", 4) == 8 and smem_container_bits("float_e2m1_t", 4) == 4


# (kind, A type, B type, the operand at fault or None)
CONTAINERS = [
    (MXF8F6F4, "float_e2m1_unpacksmem_t", "float_e3m2_unpacksmem_t", None),
    (MXF8F6F4, "float_e4m3_t", "float_e2m3_unpacksmem_t", None),
    (MXF8F6F4, "float_e2m1_t", "float_e4m3_t", "a"),          # packed: two elements a byte
    (MXF8F6F4, "float_e4m3_t", "float_e3m2_t", "b"),
    (MMAKind.F8F6F4, "float_e2m1_t", "float_e2m1_t", "a"),    # the dense kind reads the same containers
    (MXF4, "float_e2m1_t", "float_e2m1_t", None),
    (MXF4NVF4, "float_e2m1_t", "float_e2m1_unpacksmem_t", "b"),   # the mxf4 kinds read two a byte
]


@pytest.mark.parametrize("kind,a,b,fault", CONTAINERS)
def test_sub_byte_a_and_b_are_read_from_the_kind_s_containers(kind, a, b, fault):
    form = f"tcgen05.mma.cta_group::1.kind::{kind.value}" + (".block_scale" if kind.block_scaled else "")
    form += ".block32" if kind is MXF4 else ".block16" if kind is MXF4NVF4 else ""
    types = {"a": (a, type_bits(a)), "b": (b, type_bits(b)), "c": ("float", 32), "d": ("float", 32)}
    model = mma_instruction_model(form, "x", (128, 64, K_OF.get(kind, 32)), types)
    assert model is not None
    if fault is None:
        assert model.invalid == ""
    else:
        assert model.invalid_in == f"types.{fault}"
        assert f"{a if fault == 'a' else b} {fault.upper()}" in model.invalid
        assert ("padded to a byte each" if KIND_RULES[kind].ab_container_bits == 8 else "two a byte") in model.invalid


def test_transpose_per_kind_and_width():
    """Table 51: no transpose for the mxf4 kinds; Table 54: an MN-major operand has 8-, 16- or 32-bit elements."""
    assert "does not support transpose" in transpose_violation(MXF4, 4)
    assert "does not support transpose" in transpose_violation(MXF4NVF4, 4)
    assert transpose_violation(MXF8F6F4, 8) == "" and transpose_violation(MMAKind.F16, 16) == ""
    assert "not 6-bit" in transpose_violation(MXF8F6F4, 6) and "not 4-bit" in transpose_violation(MMAKind.F8F6F4, 4)


# --- the instruction text ------------------------------------------------------------------------------------

FORMS = ([(g, k) for g in CtaGroup for k in DENSE_KINDS]
         + [BlockScaledForm(g, k, v) for g in CtaGroup for k in BLOCK_SCALED_KINDS for v in (None, *ScaleVector)])


@pytest.mark.parametrize("form", FORMS, ids=str)
def test_parse_form_reads_back_form_text(form):
    text = form_text(form)
    parsed = Instruction.parse(text)
    assert parsed.opcode == "tcgen05" and parse_form(parsed.qualifiers) == form
    assert parse_form(Instruction.parse(f"{text} [%0], %1, %2, %3, [%5], [%6], p;").qualifiers) == form
    if isinstance(form, tuple):                               # the dense forms stay (cta group, kind)
        assert parse_form(parsed.qualifiers) == (form[0], form[1])


@pytest.mark.parametrize("text", [
    "tcgen05.mma.cta_group::1.kind::mxf4",                          # a block-scaled kind without .block_scale
    "tcgen05.mma.cta_group::1.kind::f16.block_scale",               # a dense kind with it
    "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block64",      # no such vector size qualifier
    "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32.x",
    "tcgen05.mma.ws.cta_group::1.kind::mxf8f6f4.block_scale",       # .ws: no block-scaled form
    "tcgen05.mma.sp.cta_group::1.kind::f16.block_scale",            # sparse, a dense kind with it
    "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.collector::a::fill",
])
def test_forms_that_are_not_modelled(text):
    assert parse_form(Instruction.parse(text).qualifiers) is None
    assert mma_instruction_model(text, "x", (128, 64, 32)) is None


def test_both_spellings_of_a_vector_size_name_one_instruction():
    block = mma_instruction_model("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", "x", (128, 64, 64))
    vec = mma_instruction_model("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X", "x",
                                (128, 64, 64))
    assert block is not None and vec is not None and block.invalid == vec.invalid == ""
    assert vec.instruction.startswith("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X ")
    assert parse_form(("mma", "cta_group::1", "kind::mxf4nvf4", "block_scale", "scale_vec::4x")) == \
        BlockScaledForm(ONE, MXF4NVF4, X4)


# --- atoms ---------------------------------------------------------------------------------------------------

REFUTED_BY = {
    "bs_mxf8f6f4_m64": (TheoremId.MMA_MATCHES_INSTRUCTION, "M = 128 for .kind::mxf8f6f4 .cta_group::1, not 64"),
    "bs_pair_mxf4_m64": (TheoremId.MMA_MATCHES_INSTRUCTION, "M = 128 or 256 for .kind::mxf4 .cta_group::2, not 64"),
    "bs_mxf4nvf4_n12": (TheoremId.MMA_MATCHES_INSTRUCTION,
                        "N = 8, 16, 24, ... 256 (steps of 8) for .kind::mxf4nvf4 .cta_group::1, not 12"),
    "bs_mxf4_e4m3_a": (TheoremId.MMA_TYPES, ".e2m1"),
    "bs_mxf4nvf4_block32_ue4m3": (TheoremId.MMA_TYPES, ".ue8m0"),
    "bs_mxf4_block16": (TheoremId.MMA_MATCHES_INSTRUCTION,
                        ".kind::mxf4 takes .scale_vec::2X (.block32), the default, with .ue8m0 scale factors, "
                        "not .block16"),
    "bs_mxf4nvf4_no_vector": (TheoremId.MMA_MATCHES_INSTRUCTION, "written always, not none"),
    "bs_mxf8f6f4_packed_e2m1_b": (TheoremId.MMA_MATCHES_INSTRUCTION, "not packed: float_e2m1_t B"),
    "bs_mxf8f6f4_k64": (TheoremId.MMA_MATCHES_INSTRUCTION, "(128, 128, 32)"),
    "bs_sf_on_dense_f8f6f4": (TheoremId.MMA_TYPES, "no scale factors"),
    "bs_mxf8f6f4_half_sf": (TheoremId.MMA_TYPES, ".ue8m0"),
    "bs_pair_c_rows_interleaved": (TheoremId.MMA_MATCHES_INSTRUCTION, "rename m differently"),
}
GOOD = [name for name in SPEC.checks if name not in REFUTED_BY]


@pytest.mark.parametrize("name", GOOD)
def test_cutlass_block_scaled_atoms_are_verified(name):
    result = run_check(SPEC, SPEC.checks[name])
    assert result.verdict is Verdict.VERIFIED
    assert {t.id for t in result.theorems} == {TheoremId.MMA_BIJECTIVE, TheoremId.MMA_MATCHES_INSTRUCTION,
                                               TheoremId.MMA_TYPES}


def test_the_spec_has_each_kind_with_one_and_two_ctas():
    seen = {(parse_form(Instruction.parse(SPEC.mma_atoms[SPEC.checks[n].mma].instruction).qualifiers).kind,
             int(SPEC.mma_atoms[SPEC.checks[n].mma].thr_id.size())) for n in GOOD}
    assert seen == set(itertools.product(BLOCK_SCALED_KINDS, (1, 2)))


def test_theorem_11_judges_the_scale_factors_type():
    name = "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,16>"
    result = run_check(SPEC, SPEC.checks[name])
    theorem = next(t for t in result.theorems if t.id is TheoremId.MMA_TYPES)
    sf = [i for i in theorem.items if "the sf type" in i.title]
    assert len(sf) == 1 and sf[0].status is Status.PROVED


@pytest.mark.parametrize("name", sorted(REFUTED_BY))
def test_broken_block_scaled_atoms_are_refuted_with_the_rule(name):
    theorem_id, words = REFUTED_BY[name]
    result = run_check(SPEC, SPEC.checks[name])
    assert result.verdict is Verdict.REFUTED
    refuted = [t for t in result.theorems if t.status is Status.REFUTED]
    assert [t.id for t in refuted] == [theorem_id]
    item = next(i for i in refuted[0].items if i.status is Status.REFUTED)
    said = " ".join(str(x) for x in (item.note, item.witness.expected, item.witness.actual, item.witness.suspect.what))
    assert words in said, said


def test_a_wrong_scale_type_is_blamed_on_the_traits_scale_members():
    result = run_check(SPEC, SPEC.checks["bs_mxf8f6f4_half_sf"])
    item = next(i for t in result.theorems for i in t.items if i.status is Status.REFUTED)
    assert "ValTypeSFA / ValTypeSFB" in item.witness.suspect.what
    packed = run_check(SPEC, SPEC.checks["bs_mxf8f6f4_packed_e2m1_b"])
    item = next(i for t in packed.theorems for i in t.items if i.status is Status.REFUTED)
    assert "the b type" in item.witness.suspect.what          # the B type, not D's


@pytest.mark.parametrize("name, field, new", [
    ("bs_mxf4_block16", "instruction of MMA atom bs_mxf4_block16",
     "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16"),            # NVF4's vectors: .kind::mxf4nvf4
    ("bs_mxf8f6f4_packed_e2m1_b", "types.b of MMA atom bs_mxf8f6f4_packed_e2m1_b", "float_e2m1_unpacksmem_t"),
    ("bs_mxf4nvf4_block32_ue4m3", "types.sf of MMA atom bs_mxf4nvf4_block32_ue4m3", "float_ue8m0_t"),
    ("bs_mxf8f6f4_m64", "shape_mnk of MMA atom bs_mxf8f6f4_m64", "[128, 128, 32]"),
    ("bs_mxf4nvf4_n12", "shape_mnk of MMA atom bs_mxf4nvf4_n12", "[128, 8, 64]"),
])
def test_suggest_proposes_the_instruction_s_own_type_qualifier_or_shape(name, field, new):
    found = suggest(SPEC, SPEC.checks[name], Settings())
    (change,) = found.changes
    assert (change.field, change.new) == (field, new)
    assert found.spec is not None and found.check is not None
    assert run_check(found.spec, found.check, Settings(cross_check=True)).verdict is Verdict.VERIFIED


# --- the spec format -----------------------------------------------------------------------------------------

_ATOM = """version: 1
name: t
mma_atoms:
  X:
    instruction: "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"
    shape_mnk: [128, 8, 32]
    thr_id: "1:0"
    types: {{a: float_e4m3_t, b: float_e4m3_t, c: float, d: float{extra}}}
    a: "(1,(128,32)):(0,(1,128))"
    b: "(1,(8,32)):(0,(1,8))"
    c: "(1,(128,8)):(0,(1,128))"
checks:
  x: {{mma: X}}
"""


def test_sf_is_an_optional_type_of_version_1_atoms(tmp_path):
    with_sf, without, wrong = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    with_sf.write_text(_ATOM.format(extra=", sf: float_ue8m0_t"))
    without.write_text(_ATOM.format(extra=""))
    wrong.write_text(_ATOM.format(extra=", sfa: float_ue8m0_t"))
    atom = load_spec(with_sf, allow_outside=True).mma_atoms["X"]
    assert (atom.types["sf"].name, atom.types["sf"].bits) == ("float_ue8m0_t", 8)
    assert "sf" not in load_spec(without, allow_outside=True).mma_atoms["X"].types
    with pytest.raises(SpecError, match="sfa"):
        load_spec(wrong, allow_outside=True)
    spec = load_spec(without, allow_outside=True)
    assert run_check(spec, spec.checks["x"]).verdict is Verdict.VERIFIED      # the scale type is not required


# --- import-cutlass ------------------------------------------------------------------------------------------

_TOY_ARCH = """#pragma once
namespace cute {
namespace UMMA {
enum class Major : uint8_t { K = 0, MN = 1 };
enum class ScaleIn : uint8_t { One = 0, Neg = 1 };
}
template <class a_type, class b_type, class c_type, class sf_type, int M, int N, int VS,
          UMMA::Major a_major, UMMA::Major b_major,
          UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One>
struct SM100_MMA_MXF4_SS
{
  static_assert(M == 128, "toy: M is 128");
  static_assert((N % 8 == 0) && (8 <= N) && (N <= 256), "toy: N steps by 8");
  static_assert((VS == 16) || (VS == 32), "toy: VS is 16 or 32");
  CUTE_HOST_DEVICE static void
  fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_c, uint32_t const& scaleC,
      uint64_t const& idescE, uint32_t const& tsfa_addr, uint32_t const& tsfb_addr)
  {
    if constexpr (VS == 16) {
      asm volatile("{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %4, 0;\\n\\t"
                   "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16 [%0], %1, %2, %3, [%5], [%6], p;"
                   "\\n\\t}\\n" :: "r"(tmem_c), "l"(desc_a), "l"(desc_b), "r"(uint32_t(idescE>>32)), "r"(scaleC),
                   "r"(tsfa_addr), "r"(tsfb_addr));
    }
    else if constexpr (VS == 32) {
      asm volatile("{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %4, 0;\\n\\t"
                   "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32 [%0], %1, %2, %3, [%5], [%6], p;"
                   "\\n\\t}\\n" :: "r"(tmem_c), "l"(desc_a), "l"(desc_b), "r"(uint32_t(idescE>>32)), "r"(scaleC),
                   "r"(tsfa_addr), "r"(tsfb_addr));
    }
  }
};
}
"""
_TOY_TRAITS = """#pragma once
#include <cute/arch/mma_sm100_bs_toy.hpp>
namespace cute {
template <class MMAOperation, class... MMAOpArgs>
struct MMA_Traits
{
  static_assert(sizeof(MMAOperation) == 0, "MMA_Traits not implemented for this MMA_Operation.");
};
template <class a_type, class b_type, class c_type, class sf_type, int M, int N, int VS,
          UMMA::Major a_major, UMMA::Major b_major, UMMA::ScaleIn a_neg, UMMA::ScaleIn b_neg>
struct MMA_Traits<SM100_MMA_MXF4_SS<a_type, b_type, c_type, sf_type, M, N, VS, a_major, b_major, a_neg, b_neg>>
{
  using ValTypeD   = c_type;
  using ValTypeA   = a_type;
  using ValTypeB   = b_type;
  using ValTypeC   = c_type;
  using ValTypeSFA = sf_type;
  using ValTypeSFB = sf_type;
  static_assert(cute::sizeof_bits_v<a_type> == 4 && cute::sizeof_bits_v<b_type> == 4, "toy: 4-bit types");
  constexpr static int K = 64;
  constexpr static int SFVecSize = VS;
  static_assert((VS == 32 && is_same_v<sf_type, cutlass::float_ue8m0_t>) || (VS == 16), "toy: VS 32 is ue8m0's");
  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_1>;
  using ALayout = Layout<Shape <_1,Shape <Int<M>,Int<K>>>, Stride<_0,Stride<_1,Int<M>>>>;
  using BLayout = Layout<Shape <_1,Shape <Int<N>,Int<K>>>, Stride<_0,Stride<_1,Int<N>>>>;
  using CLayout = Layout<Shape <_1,Shape <Int<M>,Int<N>>>, Stride<_0,Stride<_1,Int<M>>>>;
};
}
"""


def test_import_picks_the_asm_of_the_vs_branch_and_reads_the_scale_type(tmp_path):
    """The VS parameter is instantiated (SFVecSize names it) and chooses the Op's `if constexpr` asm; sf_type is
    the atom's `sf`; the traits' own static_assert (VS = 32 needs ue8m0) refuses an instance."""
    from verifier.importer.instances import MMA_CLASS_ARGS, MMA_INT_ARGS
    include = tmp_path / "include"
    (include / "cute" / "arch").mkdir(parents=True)
    (include / "cute" / "atom").mkdir()
    (include / "cute" / "arch" / "mma_sm100_bs_toy.hpp").write_text(_TOY_ARCH)
    (include / "cute" / "atom" / "mma_traits_sm100_bs_toy.hpp").write_text(_TOY_TRAITS)
    report = import_cutlass(include, tmp_path / "out")
    assert not report.failures, report.text()
    spec = load_spec(tmp_path / "out" / "sm100_bs_toy.yaml", allow_outside=True)
    template = "SM100_MMA_MXF4_SS"
    rule = MMA_INT_ARGS[template]
    want = {f"{template}<{','.join(t)},{m},{n},{vs}>" for t in MMA_CLASS_ARGS[template]
            for m in rule["M"] for n in rule["N"] for vs in rule["VS"]
            if m == 128 and not (vs == 32 and t[3] == "float_ue4m3_t")}
    assert set(spec.mma_atoms) == want
    refused = {n.name for n in report.notes if "toy: VS 32 is ue8m0's" in n.text}
    assert refused == {f"{template}<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,{n},32>"
                       for n in MMA_INT_ARGS[template]["N"]}
    nvf4 = spec.mma_atoms[f"{template}<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,128,16>"]
    mxf4 = spec.mma_atoms[f"{template}<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,128,32>"]
    assert nvf4.instruction == "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16"
    assert mxf4.instruction == "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32"
    assert (nvf4.types["sf"].name, mxf4.types["sf"].name) == ("float_ue4m3_t", "float_ue8m0_t")
    assert nvf4.a == parse_layout("(1,(128,64)):(0,(1,128))") and nvf4.shape_mnk == (128, 128, 64)
    for check in spec.checks.values():
        assert run_check(spec, check).verdict is Verdict.VERIFIED, check.name


def _wheel_include() -> Path | None:
    found = importlib.util.find_spec("cutlass_library")
    if found is None or found.origin is None:
        return None
    include = Path(found.origin).parent / "source" / "include"
    return include if (include / "cute" / "atom" / "mma_traits_sm100.hpp").is_file() else None


@pytest.mark.skipif(_wheel_include() is None, reason="no CUTLASS headers (the nvidia-cutlass wheel) installed")
def test_import_of_cutlass_gives_the_atom_library(tmp_path):
    """import-cutlass on the installed CUTLASS's headers: the block-scaled atoms are the atom library's (its
    `source:` lines are CUTLASS v4.7's, the wheel's headers may be older), every one proved as its check expects."""
    report = import_cutlass(_wheel_include(), tmp_path)
    assert not [f for f in report.failures if f.name.split("<")[0] in
                ("SM100_MMA_MXF8F6F4_SS", "SM100_MMA_MXF8F6F4_2x1SM_SS", "SM100_MMA_MXF4_SS",
                 "SM100_MMA_MXF4_2x1SM_SS")]
    # the sm100 family is written as several files (sm100.yaml, sm100_2.yaml, ...: 512 atoms a file)
    specs = [load_spec(p, allow_outside=True) for p in sorted(tmp_path.glob("sm100*.yaml"))]
    library = load_spec(LIBRARY)
    mine = {n: a for s in specs for n, a in s.mma_atoms.items()
            if n.startswith("SM100_MMA_MXF") and "_SPARSE<" not in n}
    assert set(mine) == set(library.mma_atoms)
    for name, atom in mine.items():
        lib = library.mma_atoms[name]
        assert (atom.instruction, atom.shape_mnk, atom.thr_id, atom.a, atom.b, atom.c) == \
            (lib.instruction, lib.shape_mnk, lib.thr_id, lib.a, lib.b, lib.c), name
        assert {k: v.name for k, v in atom.types.items()} == {k: v.name for k, v in lib.types.items()}, name
    checks = [(s, c) for s in specs for c in s.checks.values() if c.mma in mine]
    for spec, check in checks:
        verdict = run_check(spec, check).verdict
        assert verdict is (Verdict.REFUTED if check.expect == "fail" else Verdict.VERIFIED), check.name
    pair_ue4m3_vs32 = [c for _, c in checks if c.expect == "fail"]
    assert pair_ue4m3_vs32 and all("SM100_MMA_MXF4_2x1SM_SS<" in c.mma and ",float_ue4m3_t," in c.mma
                                   and c.mma.endswith(",32>") for c in pair_ue4m3_vs32)
