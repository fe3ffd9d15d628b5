"""tcgen05.mma (SM100 UMMA, verifier/hardware/umma.py) against the PTX ISA's Table 39 ("Various combinations of
.kind and shapes", dense, without .ws), and UMMA atoms as CUTLASS's traits write them (tests/specs/sm100_umma.yaml,
transcribed from `import-cutlass`): the correct ones are verified, the broken ones refuted."""
from pathlib import Path

import pytest

from verifier.algebra.types import instruction_type_agrees
from verifier.hardware.registry import mma_instruction_model, mma_instruction_types
from verifier.hardware.umma import DENSE_KINDS, CtaGroup, MMAKind, UMMAModel, shape_rule, umma_model
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.symbolic.expr import Const
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check

SPEC = load_spec(Path(__file__).parent / "specs" / "sm100_umma.yaml", allow_outside=True)
ONE, PAIR = CtaGroup.ONE, CtaGroup.PAIR
F16, TF32, F8F6F4, I8 = MMAKind.F16, MMAKind.TF32, MMAKind.F8F6F4, MMAKind.I8

# (kind, cta group, M, N): Table 39 lists the shape
LEGAL = [
    (F16, ONE, 64, 8), (F16, ONE, 64, 256), (F16, ONE, 128, 8), (F16, ONE, 128, 136),
    (TF32, ONE, 64, 24), (F8F6F4, ONE, 128, 8), (I8, ONE, 64, 8), (I8, ONE, 128, 24), (I8, ONE, 64, 32),
    (I8, ONE, 128, 48), (I8, ONE, 64, 256),
    (F16, PAIR, 128, 16), (F16, PAIR, 256, 256), (TF32, PAIR, 256, 48), (F8F6F4, PAIR, 128, 16),
    (I8, PAIR, 128, 32), (I8, PAIR, 256, 96), (I8, PAIR, 256, 256),
]
# (kind, cta group, M, N, the extent Table 39 does not list)
ILLEGAL = [
    (F16, ONE, 64, 12, "N"), (F16, ONE, 128, 264, "N"), (F16, ONE, 128, 0, "N"), (F16, ONE, 256, 64, "M"),
    (F16, ONE, 32, 64, "M"),             # M = 32 is a .ws shape only
    (TF32, ONE, 96, 64, "M"), (F8F6F4, ONE, 64, 4, "N"),
    (I8, ONE, 64, 40, "N"), (I8, ONE, 128, 56, "N"), (I8, ONE, 128, 264, "N"),
    (F16, PAIR, 64, 64, "M"), (F16, PAIR, 128, 8, "N"), (F16, PAIR, 256, 24, "N"), (TF32, PAIR, 128, 272, "N"),
    (I8, PAIR, 128, 16, "N"), (I8, PAIR, 256, 48, "N"),
]
K_OF = {F16: 16, TF32: 8, F8F6F4: 32, I8: 32}


@pytest.mark.parametrize("kind,group,m,n", LEGAL)
def test_table_39_shapes_are_instructions(kind, group, m, n):
    model = umma_model(group, kind, m, n)
    assert model.invalid == ""
    assert model.shape_mnk == (m, n, K_OF[kind]) and model.lanes == int(group)
    assert model.a.elements == m // int(group) * K_OF[kind]
    assert model.b.elements == n // int(group) * K_OF[kind]
    assert model.c.elements == m // int(group) * n


@pytest.mark.parametrize("kind,group,m,n,extent", ILLEGAL)
def test_shapes_table_39_does_not_list_are_refused(kind, group, m, n, extent):
    model = umma_model(group, kind, m, n)
    assert f"not {m if extent == 'M' else n}" in model.invalid and model.invalid_in == "shape"
    assert f"{extent} = " in model.invalid


def test_k_is_256_bits_of_the_kind_and_the_rule_reads_as_the_table():
    assert {kind: umma_model(ONE, kind, 128, 64).shape_mnk[2] for kind in DENSE_KINDS} == K_OF
    assert shape_rule(PAIR, I8) == "M = 128 or 256; N = 32, 64, ... 256 (steps of 32); K = 32 (.kind::i8 .cta_group::2)"


def test_each_cta_of_a_pair_holds_its_half_of_m_and_n():
    model = umma_model(PAIR, F16, 256, 64)
    coord = lambda frag, cta, v: tuple(int(x.value) if hasattr(x, "value") else int(x)   # noqa: E731
                                       for x in frag.coord(Const(cta), Const(v)))
    assert coord(model.a, 0, 0) == (0, 0) and coord(model.a, 1, 0) == (128, 0)
    assert coord(model.a, 1, 128) == (128, 1)                          # colex within the CTA's half
    assert coord(model.b, 1, 0) == (32, 0) and coord(model.b, 0, 33) == (1, 1)
    assert coord(model.c, 1, 127) == (255, 0) and coord(model.c, 1, 128) == (128, 1)
    one = umma_model(ONE, F16, 128, 64)
    assert coord(one.c, 0, 129) == (1, 1) and one.lanes == 1


def test_types_follow_the_kind_and_the_accumulator():
    assert umma_model(ONE, F16, 128, 64, type_violation="").invalid == ""
    atom = {"a": ("bfloat16_t", 16), "b": ("bfloat16_t", 16), "c": ("half_t", 16), "d": ("half_t", 16)}
    model = mma_instruction_model("tcgen05.mma.cta_group::1.kind::f16", "x", (128, 64, 16), atom)
    assert isinstance(model, UMMAModel) and ".f16 D takes .f16 A and B only" in model.invalid
    types = mma_instruction_types("tcgen05.mma.cta_group::2.kind::f16")
    assert types == {"a": "f16|bf16", "b": "f16|bf16", "c": "f16|f32", "d": "f16|f32"}
    assert mma_instruction_types("tcgen05.mma.cta_group::1.kind::i8") == {"a": "s8|u8", "b": "s8|u8", "c": "s32",
                                                                         "d": "s32"}
    assert instruction_type_agrees("bfloat16_t", 16, "f16|bf16")[0]
    assert instruction_type_agrees("float", 32, "tf32")[0]             # float read as tf32
    assert not instruction_type_agrees("int8_t", 8, "f16|bf16")[0]
    assert instruction_type_agrees("float_e2m1_t", 4, "e4m3|e5m2|e2m3|e3m2|e2m1")[0]


@pytest.mark.parametrize("instruction,shape", [
    ("tcgen05.mma.cta_group::1.kind::f16", None),                      # M and N are the atom's: none, no model
    ("tcgen05.mma.ws.cta_group::1.kind::f16", (128, 64, 16)),          # .ws: not modelled
    ("tcgen05.mma.sp.cta_group::1.kind::f16.block_scale", (128, 64, 32)),        # sparse (block scaling:
    ("tcgen05.mma.cta_group::1.kind::f16.block_scale", (128, 64, 16)),               #   test_umma_blockscaled)
    ("tcgen05.mma.cta_group::1.kind::mxf4", (128, 64, 64)),                          # no .block_scale
    ("tcgen05.mma.cta_group::3.kind::f16", (128, 64, 16)),
])
def test_forms_that_are_not_modelled(instruction, shape):
    assert mma_instruction_model(instruction, "x", shape) is None


def test_the_atom_name_says_where_a_comes_from():
    ts = mma_instruction_model("tcgen05.mma.cta_group::1.kind::f16", "SM100_MMA_F16BF16_TS<half_t,half_t,float,64,8>",
                               (64, 8, 16))
    ss = mma_instruction_model("tcgen05.mma.cta_group::1.kind::f16", "SM100_MMA_F16BF16_SS<half_t,half_t,float,64,8>",
                               (64, 8, 16))
    assert ts is not None and ss is not None
    assert "tensor memory element of A" in ts.a.describe(0, 0) and "descriptor element of A" in ss.a.describe(0, 0)


# --- atoms ---------------------------------------------------------------------------------------------------

REFUTED_BY = {
    "umma_c_row_major": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_pair_b_split_along_k": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_pair_c_rows_interleaved": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_n12": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_pair_m64": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_bf16_into_f16": TheoremId.MMA_MATCHES_INSTRUCTION,
    "umma_i8_float_d": TheoremId.MMA_TYPES,
}
GOOD = [name for name in SPEC.checks if name not in REFUTED_BY]


@pytest.mark.parametrize("name", GOOD)
def test_cutlass_umma_atoms_are_verified(name):
    result = run_check(SPEC, SPEC.checks[name])
    assert result.verdict is Verdict.VERIFIED
    assert {t.id for t in result.theorems} == {TheoremId.MMA_BIJECTIVE, TheoremId.MMA_MATCHES_INSTRUCTION,
                                               TheoremId.MMA_TYPES}


def test_the_spec_has_one_and_two_cta_atoms():
    assert {int(SPEC.mma_atoms[SPEC.checks[n].mma].thr_id.size()) for n in GOOD} == {1, 2}


@pytest.mark.parametrize("name", sorted(REFUTED_BY))
def test_broken_umma_atoms_are_refuted(name):
    result = run_check(SPEC, SPEC.checks[name])
    assert result.verdict is Verdict.REFUTED
    refuted = {t.id for t in result.theorems if t.status is Status.REFUTED}
    assert refuted == {REFUTED_BY[name]}


def test_an_illegal_n_names_the_table_s_rule():
    result = run_check(SPEC, SPEC.checks["umma_n12"])
    theorem = next(t for t in result.theorems if t.id is TheoremId.MMA_MATCHES_INSTRUCTION)
    item = next(i for i in theorem.items if i.status is Status.REFUTED)
    assert "N = 8, 16, 24, ... 256 (steps of 8) for .kind::f16 .cta_group::1, not 12" in item.note
    assert item.witness.expected == "an instruction the PTX ISA defines"
    assert "shape" in item.witness.suspect.what


def _base32b_spec(root: Path) -> str:
    """A tf32 A tile on the 32-byte-atom swizzle, read K-major (with and without a descriptor the check gives) and
    MN-major."""
    body = ('    mma: "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128>"\n    operand: A\n'
            '    copy: SM90_TMA_LOAD\n    value_type: tfloat32_t\n'
            '    smem: "tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>, (128,32,4), (2,1,3))"\n'
            '    gmem: "(8192,8192):(1,8192)"\n')
    checks = {"k_major_a": "    major: K\n", "k_major_a_given_lbo": "    major: K\n    descriptor: {lbo: 16}\n",
              "mn_major_a": "    major: MN\n"}
    return (f'version: 2\nname: base32b\ninclude: ["{root}/specs/atoms/sm100_umma.yaml"]\nchecks:\n'
            + "".join(f"  {name}:\n{body}{extra}" for name, extra in checks.items()))


def test_the_32_byte_atom_swizzle_read_k_major_is_refused_by_make_umma_desc(tmp_path):
    """make_umma_desc<Major::K> static_asserts "SWIZZLE_128B_BASE32B is invalid for Major-K": a K-major read of a
    tile on the 32-byte-atom swizzle is refused at theorems 15 and 16 (it was refuted at 15 and an internal error at
    16); with a descriptor the check gives, CuTe builds none: its fields are refuted at 15 and 16 says it cannot read
    them, never an internal error; read MN-major, the tile is verified."""
    path = tmp_path / "base32b.yaml"
    path.write_text(_base32b_spec(Path(__file__).parent.parent), encoding="utf-8")
    spec = load_spec(path, allow_outside=True)
    results = {name: run_check(spec, check) for name, check in spec.checks.items()}
    statuses = {name: {t.id: t.status for t in r.theorems} for name, r in results.items()}
    refused = statuses["k_major_a"]
    assert refused[TheoremId.GMMA_DESCRIPTOR] is refused[TheoremId.GMMA_END_TO_END] is Status.REFUSED, refused
    assert all(t.reason.endswith("SWIZZLE_128B_BASE32B is invalid for Major-K") for t in results["k_major_a"].theorems
               if t.status is Status.REFUSED)
    given = statuses["k_major_a_given_lbo"]
    assert given[TheoremId.GMMA_DESCRIPTOR] is Status.REFUTED and given[TheoremId.GMMA_END_TO_END] is Status.UNSUPPORTED
    assert all(r.verdict is not Verdict.ERROR for r in results.values())
    assert results["mn_major_a"].verdict is Verdict.VERIFIED, statuses["mn_major_a"]
