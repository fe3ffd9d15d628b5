"""The templates `import-cutlass` used to leave out for want of an instantiation rule (issue 29): SM100's block-scaled
structured-sparse UMMA (tcgen05.mma.sp ... .block_scale), sm_103a's K = 96 "ULTRA" block-scaled UMMA, and sm_120a's
mma.sync .kind::f8f6f4 -- their PTX ISA facts (hardware/umma.py, umma_sparse.py, mma_sync.py), their import from the
installed CUTLASS's headers, the atoms' theorems (verified, or unsupported with the reason) and broken variants refuted;
and the sm_120a block-scaled / sparse templates left out with a reason that names the PTX ISA's figures."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.hardware import umma_sparse as US
from verifier.hardware.mma_sync import mma_model
from verifier.hardware.registry import mma_instruction_model, mma_instruction_types
from verifier.hardware.umma import (BLOCK_SCALED_KINDS, CtaGroup, MMAKind, ScaleVector, factors_per_row, form_text,
                                    parse_form, scales_per_row, tcgen05_model, umma_model)
from verifier.importer import ImportReport, import_cutlass
from verifier.importer.instances import MMA_CLASS_ARGS, MMA_INT_ARGS
from verifier.importer.not_imported import (DRAWN_ONLY, states_a_cutlass_fact, states_a_documentation_fact)
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.theorems.catalog import TheoremId

ONE, PAIR = CtaGroup.ONE, CtaGroup.PAIR
MXF8F6F4, MXF4, MXF4NVF4 = MMAKind.MXF8F6F4, MMAKind.MXF4, MMAKind.MXF4NVF4
B16, B32 = ScaleVector.BLOCK16, ScaleVector.BLOCK32


# --- tcgen05.mma.sp ... .block_scale (PTX ISA Table 39's Sparse rows, the tcgen05.mma.sp syntax) -----------------

@pytest.mark.parametrize("group", list(CtaGroup))
@pytest.mark.parametrize("kind", BLOCK_SCALED_KINDS)
def test_block_scaled_sparse_forms_read_back_as_written(kind, group):
    for vector in (None, *ScaleVector):
        text = f"tcgen05.mma.sp.cta_group::{int(group)}.kind::{kind.value}.block_scale" + (
            f".{vector.value}" if vector else "")
        form = parse_form(tuple(text.split(".")[1:]))
        assert form is not None and form.sparse and form.kind is kind and form_text(form) == text


@pytest.mark.parametrize("kind,k", [(MXF8F6F4, 64), (MXF4, 128), (MXF4NVF4, 128)])
def test_table_39_sparse_block_scaled_rows(kind, k):
    """K twice the dense K; M = 128 for one CTA, 256 only for the CTA pair ("256xNxK")."""
    vector = B16 if kind is MXF4NVF4 else None       # .kind::mxf4nvf4 names its vector size always
    one = umma_model(ONE, kind, 128, 64, vector=vector, sparse=True)
    pair = umma_model(PAIR, kind, 256, 64, vector=vector, sparse=True)
    assert (one.invalid, pair.invalid) == ("", "")
    assert one.shape_mnk == (128, 64, k) and pair.shape_mnk == (256, 64, k)
    assert one.instruction.startswith(f"tcgen05.mma.sp.cta_group::1.kind::{kind.value}.block_scale")
    assert umma_model(PAIR, kind, 128, 64, vector=vector, sparse=True).invalid == \
        f"M = 256 for sparse .kind::{kind.value} .cta_group::2, not 128"
    assert umma_model(PAIR, kind, 128, 64, vector=vector).invalid == ""     # the dense pair takes M = 128
    assert "not 64" in umma_model(ONE, kind, 64, 64, vector=vector, sparse=True).invalid


def test_k1_96_is_decided_only_where_table_39_lists_it():
    """256xNxK1 (K1 = 96) with .cta_group::2 is an instruction the model decides; K = 96 with .cta_group::1 or M = 128
    (what CUTLASS's SM103 ULTRA atoms issue) is unsettled, neither proved nor refuted, with the reason."""
    qual = ("mma", "cta_group::2", "kind::mxf4nvf4", "block_scale", "block16")
    listed = tcgen05_model(qual, "X", (256, 128, 96), None)
    assert listed is not None and (listed.invalid, listed.unsettled, listed.shape_mnk) == ("", "", (256, 128, 96))
    for group, m in ((ONE, 128), (PAIR, 128)):
        q = ("mma", f"cta_group::{int(group)}", "kind::mxf4nvf4", "block_scale", "block16")
        model = tcgen05_model(q, "X", (m, 128, 96), None)
        assert model is not None and model.invalid == ""
        assert "only as 256xNxK1 with .cta_group::2" in model.unsettled and f"M = {m}" in model.unsettled
    assert tcgen05_model(qual, "X", (256, 128, 64), None).shape_mnk == (256, 128, 64)   # K = 64 as before


def test_table_56_scale_factors_a_row():
    """.block16 / .block32 give 6 / 3 factors at K = 96, else 4 / 2 (1 for .kind::mxf8f6f4), whatever the K."""
    assert (factors_per_row(MXF4NVF4, B16, 96), factors_per_row(MXF4NVF4, B32, 96)) == (6, 3)
    assert (factors_per_row(MXF4NVF4, B16, 128), factors_per_row(MXF4, B32, 128)) == (4, 2)
    assert factors_per_row(MXF8F6F4, B32, 64) == 1
    assert (scales_per_row(MXF4NVF4, B16), scales_per_row(MXF4, B32), scales_per_row(MXF8F6F4, B32)) == (4, 2, 1)


def test_block_scaled_sparse_metadata_granularity():
    """2:4 for .kind::mxf8f6f4 (one metadata bit an element), 4:8 in pairs for the mxf4 kinds (half a bit)."""
    mx8 = US.block_scaled_sparse_kind("tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale")
    nv4 = US.block_scaled_sparse_kind("tcgen05.mma.sp.cta_group::2.kind::mxf4nvf4.block_scale.block16")
    assert mx8 is not None and nv4 is not None and (mx8.chunk, nv4.chunk) == (4, 8)
    assert US.metadata_density_agrees(mx8, 8, 8) and not US.metadata_density_agrees(mx8, 16, 8)
    assert US.metadata_density_agrees(nv4, 16, 8) and not US.metadata_density_agrees(nv4, 8, 8)
    assert US.sparse_kind("tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale") is None    # kernels: dense kinds
    assert US.block_scaled_sparse_kind("tcgen05.mma.sp.cta_group::1.kind::f16") is None


def test_static_asserts_read_with_cpp_s_sizeof_and_a_boolean_and():
    """sizeof of CuTe's sub-byte types is one byte (a struct); `(P) & (Q)` of two conditions is their conjunction
    (SM103_MXF4_ULTRA_SS_VS's assert); `&` of integers is not read (undecided, never a refusal)."""
    from verifier.algebra.cpp_syntax import read_cpp
    from verifier.importer.instantiate import condition_holds
    one_byte = "sizeof(a_type) == 1"
    assert condition_holds(one_byte, {"a_type": read_cpp("float_e2m1_unpacksmem_t")}) is True
    assert condition_holds(one_byte, {"a_type": read_cpp("half_t")}) is False
    ultra = ("((VS == 32) & (is_same_v<a_type, cutlass::float_e2m1_t> && is_same_v<sf_type, cutlass::float_ue8m0_t>))"
             " || (VS == 16)")
    e2m1 = read_cpp("float_e2m1_t")
    assert condition_holds(ultra, {"VS": 32, "a_type": e2m1, "sf_type": read_cpp("float_ue4m3_t")}) is False
    assert condition_holds(ultra, {"VS": 32, "a_type": e2m1, "sf_type": read_cpp("float_ue8m0_t")}) is True
    assert condition_holds(ultra, {"VS": 16, "a_type": e2m1, "sf_type": read_cpp("float_ue4m3_t")}) is True
    assert condition_holds("(N % 4) & (M)", {"N": 2, "M": 1}) is None


# --- mma.sync .kind::f8f6f4 (PTX ISA "Matrix Fragments for mma.m16n8k32", Figures 88, 90, 91) --------------------

def _text_a(lane: int, i: int) -> tuple[int, int]:
    """(m, k) of a_i, the text's formula for .e4m3 / .e5m2 / .e3m2 / .e2m3 / .e2m1 A."""
    g, t = lane >> 2, lane % 4
    row = g if (i < 4 or 8 <= i < 12) else g + 8
    return row, t * 4 + (i & 3) + (16 if i >= 8 else 0)


def _text_b(lane: int, i: int) -> tuple[int, int]:
    """(n, k) of b_i (the text gives row = k, col = n)."""
    g, t = lane >> 2, lane % 4
    return g, t * 4 + (i & 3) + (16 if i >= 4 else 0)


@pytest.mark.parametrize("a,b", [("e2m1", "e2m1"), ("e3m2", "e4m3"), ("e2m3", "e5m2")])
def test_kind_f8f6f4_fragments_are_the_text_s_formulas(a, b):
    model = mma_instruction_model(f"mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.{a}.{b}.f32")
    assert model is not None and model.shape_mnk == (16, 8, 32) and model.a.elem_bits == 8
    for lane in range(32):
        assert [tuple(map(int, model.a.coord(lane, i))) for i in range(16)] == [_text_a(lane, i) for i in range(16)]
        assert [tuple(map(int, model.b.coord(lane, i))) for i in range(8)] == [_text_b(lane, i) for i in range(8)]
    types = mma_instruction_types(f"mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.{a}.{b}.f32")
    assert types == {"a": f"{a}|u8", "b": f"{b}|u8", "c": "f32", "d": "f32"}


def test_kind_f8f6f4_only_where_the_isa_has_it():
    assert mma_model("m16n8k32", "f32", "e2m1", "e2m1", "f32") is None             # 4/6-bit types need .kind
    assert mma_model("m16n8k16", "f32", "e4m3", "e4m3", "f32", kind="f8f6f4") is None
    assert mma_model("m16n8k32", "f32", "e4m3", "e4m3", "f16", kind="f8f6f4") is None   # C and D alike
    assert mma_instruction_model("mma.sync.aligned.kind::mxf8f6f4.block_scale.scale_vec::1X.m16n8k32.row.col.f32"
                                 ".e2m1.e2m1.f32.ue8m0") is None
    assert mma_model("m16n8k32", "s32", "s8", "s8", "s32") is not None            # the 8-bit form is unchanged


# --- import-cutlass on the installed CUTLASS's headers -----------------------------------------------------------

def _wheel_include() -> Path | None:
    found = importlib.util.find_spec("cutlass_library")
    if found is None or found.origin is None:
        return None
    include = Path(found.origin).parent / "source" / "include"
    return include if (include / "cute" / "atom" / "mma_traits_sm120.hpp").is_file() else None


WHEEL = _wheel_include()
needs_wheel = pytest.mark.skipif(WHEEL is None, reason="no CUTLASS headers (the nvidia-cutlass wheel) installed")
TRAITS = ("mma_traits.hpp", "mma_traits_sm80.hpp", "mma_traits_sm100.hpp", "mma_traits_sm120.hpp",
          "mma_traits_sm120_sparse.hpp")
SPARSE_TEMPLATES = ("SM100_MMA_MXF8F6F4_SS_SPARSE", "SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE",
                    "SM100_MMA_MXF4NVF4_SS_SPARSE", "SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE")


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[ImportReport, dict[str, object]]:
    """import-cutlass on the SM80 / SM100 / SM120 MMA traits of the wheel (and every non-copy arch header)."""
    assert WHEEL is not None
    root = tmp_path_factory.mktemp("wheel") / "include"
    (root / "cute" / "atom").mkdir(parents=True)
    (root / "cute" / "arch").mkdir()
    for name in TRAITS:
        (root / "cute" / "atom" / name).symlink_to(WHEEL / "cute" / "atom" / name)
    for header in (WHEEL / "cute" / "arch").glob("*.hpp"):
        if "copy" not in header.name and "sm90" not in header.name:
            (root / "cute" / "arch" / header.name).symlink_to(header)
    out = root.parent / "specs"
    report = import_cutlass(root, out, 1)
    specs = {p.name: load_spec(p, allow_outside=True) for p in sorted(out.glob("*.yaml"))}
    return report, specs


def _checks(specs, pattern: str):
    return [(spec, check) for spec in specs.values() for name, check in spec.checks.items()
            if re.match(pattern, name)]


@needs_wheel
def test_the_block_scaled_sparse_umma_atoms_import_and_verify(imported):
    """Every instance of the rules is an atom or a refusal of the Op's / traits' own static_assert, and every atom's
    theorems 1, 2 (A, B, D and the metadata type) and 11 are proved."""
    report, specs = imported
    for template in SPARSE_TEMPLATES:
        rule = MMA_INT_ARGS[template]
        pairs = _checks(specs, rf"{template}<")
        notes = {n.name for n in report.notes if n.name.startswith(template + "<")}
        combos = len(MMA_CLASS_ARGS[template]) * len(rule["M"]) * len(rule["N"]) * len(rule.get("VS", [0]))
        assert pairs and len(pairs) + len(notes) == combos, template
        for spec, check in pairs:
            result = run_check(spec, check)
            assert result.verdict is Verdict.VERIFIED, (check.name, result.verdict)
    # the CTA pair's MXF8F6F4 traits assert sizeof(a_type) == 1: the unpacked 4- and 6-bit types are one byte each
    pair = _checks(specs, r"SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE<")
    assert len(pair) == len(MMA_CLASS_ARGS["SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE"]) * 5
    nvf4 = next(a for s in specs.values() for n, a in s.mma_atoms.items()
                if n == "SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,128,32>")
    assert nvf4.instruction == "tcgen05.mma.sp.cta_group::1.kind::mxf4nvf4.block_scale.block16"
    assert nvf4.shape_mnk == (128, 128, 128)
    # ValTypeA sparse_elem<4, uint8_t>: bytes of two packed e2m1, named by the Op's a_type
    assert (nvf4.types["a"].name, nvf4.types["e"].name) == ("float_e2m1_t", "sparse_elem<16,uint8_t>")


@needs_wheel
def test_the_ultra_atoms_are_decided_where_table_39_lists_k1(imported):
    report, specs = imported
    pairs = _checks(specs, r"SM103::SM103_MXF4_ULTRA")
    assert len(pairs) == 45        # 2 types x 5 N x 2 VS x {M = 128} + {M = 128, 256}, less ue4m3 with VS = 32
    refused = [n for n in report.notes if n.name.startswith("SM103::") and "2x mode only supports" in n.text]
    assert len(refused) == 15 and all(",float_ue4m3_t," in n.name and n.name.endswith(",32>") for n in refused)
    for spec, check in pairs:
        result = run_check(spec, check)
        atom = spec.mma_atoms[check.mma]
        assert atom.shape_mnk[2] == 96
        if atom.shape_mnk[0] == 256:
            assert result.verdict is Verdict.VERIFIED and check.expect == "pass", check.name
        else:
            assert result.verdict is Verdict.UNSUPPORTED and check.expect == "unsupported", check.name
            theorem = next(t for t in result.theorems if t.id is TheoremId.MMA_MATCHES_INSTRUCTION)
            assert theorem.status is Status.UNSUPPORTED and "256xNxK1" in theorem.reason


@needs_wheel
def test_sm120_f8f6f4_atoms_import_and_verify(imported):
    _, specs = imported
    pairs = _checks(specs, r"SM120_16x8x32_TN<")
    assert len(pairs) == len(MMA_CLASS_ARGS["SM120_16x8x32_TN"]) == 50
    for spec, check in pairs:
        atom = spec.mma_atoms[check.mma]
        a, b, c = check.mma[len("SM120_16x8x32_TN<"):-1].split(",")
        d = "f32" if c == "float" else "f16"
        assert atom.instruction == (f"mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.{d}.{a[6:10]}.{b[6:10]}.{d}")
        assert run_check(spec, check).verdict is Verdict.VERIFIED, check.name


@needs_wheel
def test_sm120_block_scaled_and_sparse_templates_say_which_figures(imported):
    """Left out with a fact about the PTX ISA's documentation (the figures that alone draw the part the atom
    defines), never a missing rule or model."""
    report, _ = imported
    left = {f.name.split("::")[-1]: f.reason for f in report.failures if f.name.startswith("SM120")}
    assert set(left) == set(DRAWN_ONLY)
    for template, reason in left.items():
        assert states_a_documentation_fact(reason) and not states_a_cutlass_fact(reason), template
        assert re.search(r"drawn only in PTX ISA Figures \d+", reason), template
        assert not re.search(r"\bno (?:hardware )?model\b|not modell?ed|instantiation rule", reason), template
    assert "Figures 43, 44 and 45" in left["SM120_16x8x64_TN_VS"]
    assert "Figures 132-135" in left["SM120_SPARSE_16x8x64_TN"] and "Figures 136-137" in left["SM120_SPARSE_16x8x64_TN"]
    assert "Figures 142-145" in left["SM120_SPARSE_16x8x128_TN_VS"]


# --- broken variants are refuted -------------------------------------------------------------------------------

_SPEC = """version: 1
name: broken
mma_atoms:
  X:
    instruction: "{instruction}"
    shape_mnk: {shape}
    thr_id: "{thr}"
    types: {{{types}}}
    a: "{a}"
    b: "{b}"
    c: "{c}"
checks:
  x: {{mma: X}}
"""
SPARSE_NVF4 = dict(instruction="tcgen05.mma.sp.cta_group::1.kind::mxf4nvf4.block_scale.block16", shape="[128, 64, 128]",
                   thr="1:0", types="a: float_e2m1_t, b: float_e2m1_t, c: float, d: float, sf: float_ue4m3_t, "
                                    "e: \"sparse_elem<16,uint8_t>\"",
                   a="(1,(128,128)):(0,(1,128))", b="(1,(64,128)):(0,(1,64))", c="(1,(128,64)):(0,(1,128))")
ULTRA_PAIR = dict(instruction="tcgen05.mma.cta_group::2.kind::mxf4nvf4.block_scale.block16", shape="[256, 64, 96]",
                  thr="2:1", types="a: float_e2m1_t, b: float_e2m1_t, c: float, d: float, sf: float_ue4m3_t",
                  a="(2,(128,96)):(128,(1,256))", b="(2,(32,96)):(32,(1,64))", c="(2,(128,64)):(128,(1,256))")
SM120 = dict(instruction="mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e4m3.f32", shape="[16, 8, 32]",
             thr="32:1", types="a: uint8_t, b: uint8_t, c: float, d: float",
             a="((4,8),(4,2,2)):((64,1),(16,8,256))", b="((4,8),(4,2)):((32,1),(8,128))",
             c="((4,8),(2,2)):((32,1),(16,8))")


def _run(tmp_path: Path, **fields: str):
    path = tmp_path / "broken.yaml"
    path.write_text(_SPEC.format(**fields))
    spec = load_spec(path, allow_outside=True)
    result = run_check(spec, spec.checks["x"])
    return result.verdict, {t.id: t for t in result.theorems}


@pytest.mark.parametrize("base,change,theorem,why", [
    (SPARSE_NVF4, {}, None, ""),
    (SPARSE_NVF4, {"a": "(1,(128,128)):(0,(128,1))"}, TheoremId.MMA_MATCHES_INSTRUCTION, ""),     # A transposed
    (SPARSE_NVF4, {"types": SPARSE_NVF4["types"].replace("sparse_elem<16,", "sparse_elem<8,")},
     TheoremId.MMA_MATCHES_INSTRUCTION, "ValTypeE is 1/2 bit"),                                       # 2:4's metadata
    (SPARSE_NVF4, {"instruction": SPARSE_NVF4["instruction"].replace("block16", "block32"), "types":
                   SPARSE_NVF4["types"]}, TheoremId.MMA_TYPES, ""),                                   # ue4m3 with 2X
    (ULTRA_PAIR, {}, None, ""),
    (ULTRA_PAIR, {"c": "(2,(128,64)):(128,(64,1))"}, TheoremId.MMA_MATCHES_INSTRUCTION, ""),       # D rows <-> cols
    (ULTRA_PAIR, {"shape": "[128, 64, 96]", "a": "(2,(64,96)):(64,(1,128))", "c": "(2,(64,64)):(64,(1,128))"},
     None, "unsupported"),                                                                           # Table 39: M=256
    (SM120, {}, None, ""),
    (SM120, {"a": "((4,8),(4,2,2)):((64,1),(16,256,8))"}, TheoremId.MMA_MATCHES_INSTRUCTION, ""),  # rows / k halves
    (SM120, {"instruction": SM120["instruction"].replace(".f32.e2m1", ".f16.e2m1").replace("e4m3.f32", "e4m3.f16")},
     TheoremId.MMA_TYPES, ""),                                                                       # float C, f16 D
    (SM120, {"types": "a: float_e2m1_t, b: uint8_t, c: float, d: float"}, TheoremId.MMA_MATCHES_INSTRUCTION,
     "is an instruction"),                                                                           # A packed 4-bit
    (SM120, {"types": "a: float_e2m1_unpacksmem_t, b: float_e4m3_t, c: float, d: float"}, None, ""),  # 8-bit slots
])
def test_atoms_verified_and_broken_variants_refuted(tmp_path, base, change, theorem, why):
    verdict, theorems = _run(tmp_path, **{**base, **change})
    if theorem is None and why == "unsupported":
        assert verdict is Verdict.UNSUPPORTED
        assert "256xNxK1" in theorems[TheoremId.MMA_MATCHES_INSTRUCTION].reason
    elif theorem is None:
        assert verdict is Verdict.VERIFIED
    else:
        assert verdict is Verdict.REFUTED and theorems[theorem].status is Status.REFUTED
        if why:
            assert any(why in item.title for item in theorems[theorem].items if item.status.refutes)
