"""SM100 structured-sparse GEMM (tcgen05.mma.sp): the instruction's forms and what the PTX ISA's text says of its
metadata (hardware/umma.py, hardware/umma_sparse.py), CuTe's side of the metadata -- TensorEAtom, SmemLayoutE, its TMA,
the tcgen05.cp copies into tensor memory, the address and sparsity selector each MMA is handed -- against CUTLASS's
own printed results (tests/data/cute_sparse_sm100.json, tools/cute_dump/sparse_sm100.cu), theorems 27, 33 and 28
(kinds/sparse) on CUTLASS's configurations and broken ones (tests/specs/sparse_umma.yaml), the importer's reading of
MMA_Traits<SM100_MMA_*_SS_SPARSE<...>, sparse_args...>, and the prescreen's mapping of the SparseUniversal3x kernels
(prescreen/sm100_sparse.py)."""
import json
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.layout import Layout, make_layout
from verifier.algebra.swizzle import ComposedLayout
from verifier.cute import sparse_sm100 as SS
from verifier.engine.proving import prove_check
from verifier.hardware import umma_sparse as US
from verifier.hardware.registry import Instruction, mma_instruction_model
from verifier.hardware.umma import CtaGroup, MMAKind, SparseForm, form_text, parse_form
from verifier.importer import import_cutlass
from verifier.kinds.sparse import sm100_theorems as ST
from verifier.kinds.sparse.sm100_setup import Sm100MetaSetup, build
from verifier.outcome import Status, Verdict
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen import sm100_sparse as PS
from verifier.prescreen.space import KernelConfig
from verifier.specfile import load_spec
from verifier.specfile.model import Spec, SpecError
from verifier.symbolic.decide import decide
from verifier.symbolic.procedure import Settings
from verifier.theorems.catalog import TheoremId
from verifier.theorems.claims import Claim, Suspect

DATA = json.loads((Path(__file__).parent / "data" / "cute_sparse_sm100.json").read_text())
CONFIGS = DATA["configurations"]
SPEC = Path(__file__).parent / "specs" / "sparse_umma.yaml"
BITS = {"f16": 16, "tf32": 32, "s8": 8, "e4m3": 8, "e5m2": 8}
T = TheoremId
TMEM_BYTE_LANE = 1 << 18        # a uint8 element of TMEM: lane << 18 | byte column


def _ids(c: dict) -> str:
    return c["config"]


def kernel(config: dict, name: str = "k") -> KernelConfig:
    k = config["kernel"]
    a, b = BITS[k["element_a"]], BITS[k["element_b"]]
    return KernelConfig(name, 100, "SparseUniversal3x", "SparseTensorOp", tuple(k["tile"]), (0, 0, 0), (0, 0, 0),
                        k["element_a"], k["element_b"], k["element_acc"], "RowMajor", "ColumnMajor", 256 // a,
                        128 // b, k["schedule"], 0)


def values(layout: object) -> list[int]:
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    assert isinstance(inner, Layout)
    return [int(x) for x in inner.values()]


@lru_cache(maxsize=None)
def spec() -> Spec:
    return load_spec(str(SPEC))


# --- the hardware model -----------------------------------------------------------------------------------------

def test_the_sparse_forms_have_table_39_s_sparse_k():
    text = "tcgen05.mma.sp.cta_group::2.kind::tf32"
    form = parse_form(Instruction.parse(text).qualifiers)
    assert form == SparseForm(CtaGroup.PAIR, MMAKind.TF32) and form_text(form) == text
    for kind, bits, k in (("f16", 16, 32), ("tf32", 32, 16), ("f8f6f4", 8, 64), ("i8", 8, 64)):
        t = {16: "half_t", 32: "tfloat32_t", 8: "int8_t" if kind == "i8" else "float_e4m3_t"}[bits]
        acc = ("int32_t", 32) if kind == "i8" else ("float", 32)
        model = mma_instruction_model(f"tcgen05.mma.sp.cta_group::1.kind::{kind}", "x", (128, 128, k),
                                      {"a": (t, bits), "b": (t, bits), "c": acc, "d": acc})
        assert model is not None and not model.invalid and model.shape_mnk == (128, 128, k), kind
        dense = mma_instruction_model(f"tcgen05.mma.cta_group::1.kind::{kind}", "x", (128, 128, k // 2),
                                      {"a": (t, bits), "b": (t, bits), "c": acc, "d": acc})
        assert dense is not None and dense.shape_mnk[2] * 2 == k
    # the dense K is no sparse instruction's
    wrong = mma_instruction_model("tcgen05.mma.sp.cta_group::1.kind::f16", "x", (128, 128, 16),
                                  {"a": ("half_t", 16), "b": ("half_t", 16), "c": ("float", 32), "d": ("float", 32)})
    assert wrong is not None and wrong.shape_mnk[2] == 32
    # a dense kind's .sp form with .block_scale is none (the block-scaled .sp forms: tests/test_import_blockscaled_*)
    assert parse_form(Instruction.parse("tcgen05.mma.sp.cta_group::1.kind::f16.block_scale").qualifiers) is None


def test_what_the_text_says_of_the_metadata():
    """9.7.16.10.8's granularity table, Table 39's sparse K, Table 42's selector and 9.7.16.10.8.4.5's rule."""
    f16, tf32, f8, i8 = (US.sparse_kind(f"tcgen05.mma.sp.cta_group::1.kind::{k}") for k in
                         ("f16", "tf32", "f8f6f4", "i8"))
    assert f16 and tf32 and f8 and i8
    assert (f16.bits_per_element, tf32.bits_per_element, i8.bits_per_element) == (1, 2, 1)
    assert (f16.row_bits, tf32.row_bits, f8.row_bits) == (32, 32, 64)
    assert US.selector_problem(f16, 3) is None and US.selector_problem(tf32, 1) is None
    assert "must be 0" in (US.selector_problem(i8, 1) or "") and "must be 0" in (US.selector_problem(f8, 2) or "")
    assert "0..3" in (US.selector_problem(f16, 4) or "")
    assert US.sparse_kind("tcgen05.mma.cta_group::1.kind::f16") is None
    assert US.sparse_kind("tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale") is None
    assert "Figures 262-267" in US.READ_LAYOUT_UNREAD


def test_tmem_addresses_are_tmem_ptr_s_rotation():
    """tmem_ptr<T> adds an element offset i as rotr(i, log2(32 / bits(T))): the sub-word index lands in the top
    bits, the column in the low ones; the MMA is handed the address without bit 0 and bit 0 as the selector."""
    assert SS.tmem_address(256, 32, 1) == 257 and SS.tmem_address(256, 1, 1) == 256 + (1 << 27)
    assert SS.tmem_address(256, 16, 2) == 257 and SS.tmem_address(0, 1, 8) == 1 << 30
    tile = SS.tmem_e(SS.FORMATS[16], 4)
    handed = [SS.mma_metadata(tile, 256, i, 1) for i in range(4)]
    assert [(h.sp_meta, h.selector) for h in handed] == [(256, 0), (256, 1), (258, 0), (258, 1)]
    assert SS.tmem_fields(SS.TMEM_LANE_BITS * 3 + 70) == (3, 2, 6)


# --- CuTe's side against CUTLASS's own results -----------------------------------------------------------------

@pytest.fixture(scope="module")
def dumped(tmp_path_factory) -> Spec:
    """The prescreen's three checks of every dumped configuration, E's global tensor and TMEM column the dump's
    (its problem has four MMA tiles of M for a CTA pair; its N = 256 accumulators are its EpilogueTile's)."""
    paths, representative = {}, {}
    for i, config in enumerate(CONFIGS):
        mapped = PS.map_sm100_sparse(kernel(config))
        assert not isinstance(mapped, str), mapped
        cutlass_e = parse_layout(config["layout_e"])
        for check in mapped[0]:
            if check.operand == "E":
                gmem = json.dumps(str(make_layout(cutlass_e.mode(0), cutlass_e.mode(1))))
                check = replace(check, entries=tuple((k, str(config["acc_cols"]) if k == "tmem_base" else gmem
                                                      if k == "gmem" else v) for k, v in check.entries))
            paths[check] = f"c{i}_{check.operand}"
            representative[check] = kernel(config)
    path = tmp_path_factory.mktemp("sparse_umma") / "paths.yaml"
    path.write_text(command.spec_text(100, paths, representative, Counter(paths)))
    return load_spec(str(path), allow_outside=True)


def setup_of(s: Spec, i: int) -> Sm100MetaSetup:
    check = s.checks[f"c{i}_E"]
    return build(check, s.mma_atoms[check.mma])


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=[_ids(c) for c in CONFIGS])
def test_the_rules_write_cutlass_s_layouts_stages_and_atom(dumped, i):
    config = CONFIGS[i]
    kc = kernel(config)
    bits = BITS[kc.element_a]
    fmt = SS.metadata_format(bits)
    assert isinstance(fmt, SS.MetadataFormat)
    assert str(fmt.atom) == str(parse_layout(config["tensor_e_atom"]))
    assert SS.utccp_reuse(kc.tile[2], fmt.atom_k) == config["reuse"]
    assert SS.tile_k_e(kc.tile[2], fmt.atom_k) == config["tile_e"][2]
    ctas = config["ctas"]
    m, n, k = kc.tile
    assert PS.sparse_stages(m // ctas, n // ctas, k, bits, BITS[kc.element_b], fmt.e_bits) == config["stages"]
    assert PS.accumulator_columns(n) >= config["acc_cols"] and PS.accumulator_columns(n) % 2 == 0
    for op in "ABE":
        mine, cutlass = dumped.checks[f"c{i}_{op}"].smem, parse_layout(config[f"smem_{op.lower()}"])
        inner = cutlass.b if isinstance(cutlass, ComposedLayout) else cutlass
        assert values(mine) == values(SS.mk_view(inner, pipe=True)), op
        if isinstance(mine, ComposedLayout) and isinstance(cutlass, ComposedLayout):
            assert mine.a.B == cutlass.a.B, op
    mapped = PS.map_sm100_sparse(kc)
    assert not isinstance(mapped, str)
    atom = mapped[0][0].mma.name
    assert atom.split("<")[0] in config["mma_op"] and f",{m},{n}>" in atom
    if ctas == 1:                  # the prescreen's global E: two tiles each way, the dump's for one CTA
        assert str(parse_layout(json.loads(dict(mapped[0][2].entries)["gmem"]))) == str(
            make_layout(*(parse_layout(config["layout_e"]).mode(j) for j in (0, 1))))


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=[_ids(c) for c in CONFIGS])
def test_tma_copies_and_mma_addresses_are_cutlass_own(dumped, i):
    """construct_tma_gbasis<uint64_t> of E (box, extents, strides; CUTLASS's size-1 batch mode dropped), the TMEM tile
    tmem_e_frg makes, make_utccp_copy's copies (get_utccp_smem_desc_tensor's start, LBO, SBO; partition_D's TMEM
    address), partition_A's k-block origins, and the address and selector each tCtE(_, _, i) hands the MMA."""
    config, setup = CONFIGS[i], setup_of(dumped, i)
    assert setup.reuse == config["reuse"] and setup.stages == config["stages"]
    assert setup.tma is not None
    assert list(setup.tma.box) == config["e_tma_box"][:3]
    assert list(setup.tma.global_dim) == config["e_tma_global_dim"][:3]
    assert list(setup.tma.global_strides) == config["e_tma_global_strides"][:3]
    assert setup.tmem_view is not None
    tile = setup.partitioned(setup.tmem_view)
    assert str(tile) == str(parse_layout(config["tmem_e"]))
    base = config["acc_cols"]
    assert [(c.smem_start, c.lbo, c.sbo, base + (c.tmem_element % TMEM_BYTE_LANE) * 8 // 32
             + (c.tmem_element // TMEM_BYTE_LANE << 16)) for c in setup.copies] == \
        [(c["smem_start"], c["lbo"], c["sbo"], c["tmem_address"]) for c in config["copies"]]
    assert [{"k_block": kb, "m": o[0], "k": o[1]} for kb, o in enumerate(setup.a_origins)] == config["a_origins"]
    handed = [SS.mma_metadata(tile, base, j, setup.e_bits) for j in range(setup.mma_k)]
    assert [{"index": h.index, "address": h.address, "selector": h.selector, "sp_meta": h.sp_meta}
            for h in handed] == config["mma_addresses"]
    assert config["utccp_op"].endswith(setup.check.copy)


# --- the theorems ----------------------------------------------------------------------------------------------

GOOD = {**{name: Verdict.VERIFIED for name in (
            "e_f16_1sm", "e_s8_1sm", "e_f16_256x256x64_2sm", "e_s8_128x128x128_1sm", "e_s8_256x256x128_2sm",
            "e_e4m3_128x256x128_1sm", "e_e5m2_256x128x128_2sm")},
        # .kind::tf32: JAX's Mosaic GPU, whose reading is the read layout's source, has no sparse tf32
        "e_tf32_2sm": Verdict.UNSUPPORTED, "e_tf32_128x256x32_1sm": Verdict.UNSUPPORTED,
        "a_f16_1sm": Verdict.VERIFIED, "b_f16_1sm": Verdict.VERIFIED, "a_e4m3_2sm": Verdict.VERIFIED}
BAD = [  # check, theorem, its status, words of the first failure's title or actual value
    # make_umma_desc<K> builds these tcgen05.cp sources (nvcc: its recast folds the 2-byte runs), so they compile
    # and are refuted: the copy's rows are no 16-byte runs the descriptor can name
    ("e_f16_row_major_atom", T.SPARSE_METADATA_TMEM, Status.REFUTED, "every copy's descriptor is encodable"),
    ("e_f16_tmem_row_per_lane", T.SPARSE_METADATA_TMEM, Status.REFUTED, "every copy's descriptor is encodable"),
    ("e_f16_past_512", T.SPARSE_METADATA_TMEM, Status.REFUTED, "leave the 512 columns allocated"),
    ("e_tf32_2sm_1cta_copy", T.SPARSE_METADATA_TMEM, Status.REFUTED, "for a 2-CTA MMA"),
    ("e_s8_odd_column", T.SPARSE_METADATA_READ, Status.REFUTED, "must be 0 for .kind::i8"),
    ("e_f16_stages_overlap", T.SPARSE_METADATA_TMA, Status.REFUTED, "distinct shared positions"),
    ("e_f16_one_k_block", T.SPARSE_METADATA_TMEM, Status.REFUSED, "2/4 kphase"),
    ("e_f16_1sm_120_stages", T.SPARSE_METADATA_TMA, Status.REFUSED, "SMEM usage exceeded capacity."),
    # Sm1xxGemmSparseConfig's static_assert: every metadata theorem refused, the atom blamed
    ("e_f16_1sm_e_uint8", T.SPARSE_METADATA_TMA, Status.REFUSED, "ElementEMma MUST be sparse elem"),
    ("e_f16_1sm_e_uint8", T.SPARSE_METADATA_TMEM, Status.REFUSED, "ElementEMma MUST be sparse elem"),
    ("e_f16_1sm_e_uint8", T.SPARSE_METADATA_READ, Status.REFUSED, "ElementEMma MUST be sparse elem"),
    ("e_tf32_etype", T.SPARSE_METADATA_READ, Status.REFUTED, "ValTypeE is 2 bit(s)"),
    ("a_f16_dense_atom", T.TMA_ENCODABLE, Status.REFUTED, "8-bit logical elements of the sparse A"),
    ("a_f16_global_splits_pairs", T.TMA_ENCODABLE, Status.REFUTED,
     "to its stored elements refuses it (Divisibility condition: upcast<2> of stride 3)"),
]


def prove(name: str):
    s = spec()
    return prove_check(s, s.checks[name], Settings(cross_check=True))


@pytest.mark.parametrize("name", list(GOOD))
def test_cutlass_s_configurations_are_proved(name):
    """Theorems 27 and 33 prove CUTLASS's metadata path (TMA into shared memory, tcgen05.cp into TMEM, the part each
    MMA is handed); theorem 28 checks what the text decides, then the read against the layout inferred from JAX's
    Mosaic GPU (tests/test_sm100_sparse_metadata_read.py), unsupported for .kind::tf32 which JAX does not issue."""
    r = prove(name)
    assert r.verdict is GOOD[name] and r.ok, [(t.id, t.status) for t in r.theorems]
    statuses = {t.id: t.status for t in r.theorems}
    if name.startswith("e_"):
        assert statuses[T.SPARSE_METADATA_TMA] is Status.PROVED and statuses[T.SPARSE_METADATA_TMEM] is Status.PROVED
        read = next(t for t in r.theorems if t.id is T.SPARSE_METADATA_READ)
        if GOOD[name] is Verdict.UNSUPPORTED:
            assert read.status is Status.UNSUPPORTED and "Figures 262-267" in read.reason
        else:
            assert read.status is Status.PROVED
    else:
        assert set(statuses.values()) == {Status.PROVED}


@pytest.mark.parametrize("name, theorem, status, words", BAD, ids=[b[0] for b in BAD])
def test_broken_configurations_fail_at_their_theorem(name, theorem, status, words):
    r = prove(name)
    assert r.verdict is Verdict.REFUTED and r.ok
    found = {t.id: t for t in r.theorems}
    assert found[theorem].status is status, [(t.id, t.status) for t in r.theorems]
    item = found[theorem].first_failure()
    assert item is not None
    text = f"{item.title} {item.witness.actual if item.witness else ''} {found[theorem].reason}"
    assert words in text, text


def _decided(claim: object) -> tuple[Status, dict[str, int] | None]:
    assert isinstance(claim, Claim)
    d, _ = decide(claim.obligation)
    return d.status, d.witness


def test_the_copy_and_mma_claims_are_proved_and_refuted_with_a_point():
    """Theorem 33's claims on their own: proved for CUTLASS's setup; a copy whose shared start is one row off, and a
    stage of E read as if it held one k-tile of 32 (the MMA of the second k-tile handed the third k-block), refuted
    with the point."""
    s = spec()
    check = s.checks["e_f16_1sm"]
    setup = build(check, s.mma_atoms[check.mma])
    suspect = Suspect("E")
    for claim in ST._copy_claims(setup, suspect) + ST._mma_claims(setup, suspect):
        assert _decided(claim)[0] is Status.PROVED
    shifted = replace(setup, copies=[replace(c, smem_start=c.smem_start + 16) for c in setup.copies])
    status, point = _decided(ST._copy_claims(shifted, suspect)[0])
    assert status is Status.REFUTED and point is not None and point["row"] == 0
    one_k_tile = replace(setup, tile_k=32)
    status, point = _decided(ST._mma_claims(one_k_tile, suspect)[0])
    assert status is Status.REFUTED and point is not None and point["k_tile"] == 1


# --- the spec format -------------------------------------------------------------------------------------------

E_CHECK = ("  e:\n    metadata: A\n    mma: \"SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128>\"\n"
           "    copy: {copy}\n    value_type: uint8_t\n"
           "    smem: \"(((_8,_2,_8),(_16,_2)),_1,_4,(_1,_8)):(((_128,_16,_2048),(_1,_1024)),_0,_32,(_0,_16384))\"\n"
           "    gmem: \"(((_8,_2,_8),2),((_16,_2,_4),2)):(((_128,_16,_2048),_16384),((_1,_1024,_32),32768))\"\n"
           "{extra}")


def _load(tmp_path: Path, checks: str, atoms: str = "") -> Spec:
    path = tmp_path / "s.yaml"
    path.write_text("version: 2\nname: s\ninclude: [\"cute-verifier:atoms/sm100_umma_sparse.yaml\"]\n"
                    + (f"mma_atoms:\n{atoms}" if atoms else "") + "checks:\n" + checks)
    return load_spec(str(path), allow_outside=True)


def test_the_loader_reads_a_tcgen05_metadata_check_and_refuses_what_it_cannot(tmp_path):
    s = _load(tmp_path, E_CHECK.format(copy="SM100_UTCCP_128dp128bit_1cta",
                                       extra="    tile_k: 64\n    tmem_base: 256\n    tmem_columns: 512\n"))
    check = s.checks["e"]
    assert (check.tile_k, check.tmem_base, check.tmem_columns) == (64, 256, 512)
    assert check.smem.rank() == 3 and int(check.smem.mode(1).size()) == 128
    with pytest.raises(SpecError, match="one\\s+thread issues the MMA"):
        _load(tmp_path, E_CHECK.format(copy="SM100_UTCCP_128dp128bit_1cta", extra="    atom_layout: [1, 1, 1]\n"))
    with pytest.raises(SpecError, match="tmem_base' of .* must be an integer in 0..512"):
        _load(tmp_path, E_CHECK.format(copy="SM100_UTCCP_128dp128bit_1cta", extra="    tmem_base: 513\n"))
    copy = ("  c:\n    mma: \"SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128>\"\n    operand: A\n"
            "    copy: SM100_UTCCP_128dp128bit_1cta\n    value_type: uint8_t\n    smem: \"(128,64):(64,1)\"\n")
    with pytest.raises(SpecError, match="copies a tcgen05.mma.sp's metadata"):
        _load(tmp_path, copy)
    atom = ("  \"sp\":\n    instruction: \"tcgen05.mma.sp.cta_group::1.kind::f16\"\n    shape_mnk: [128, 128, 32]\n"
            "    thr_id: \"1:0\"\n"
            "    types: {a: half_t, b: half_t, c: float, d: float, e: \"sparse_elem<8,uint8_t>\"}\n"
            "    a: \"(1,(128,32)):(0,(1,128))\"\n    b: \"(1,(128,32)):(0,(1,128))\"\n"
            "    c: \"(1,(128,128)):(0,(1,128))\"\n    sp_sel: 1\n")
    with pytest.raises(SpecError, match="takes its sparsity selector from the instruction descriptor"):
        _load(tmp_path, "", atom)


def test_explain_follows_a_metadata_element_to_the_mma(capsys):
    from verifier.commands.cli import main
    assert main(["explain", str(SPEC), "--check", "e_f16_1sm", "--coord", "9,70", "--stage", "1"]) == 0
    out = capsys.readouterr().out
    assert "-> TMEM lane 1, column 258, bit 22" in out
    assert "it is handed tCtE(_, _, 2): [sp-meta-tmem] column 258, selector 0" in out


# --- import-cutlass --------------------------------------------------------------------------------------------

_TOY_ARCH = """#pragma once
namespace cute {
namespace UMMA {
enum class Major : uint8_t { K = 0, MN = 1 };
enum class ScaleIn : uint8_t { One = 0, Neg = 1 };
}
template <class a_type, class b_type, class c_type, int M, int N, UMMA::Major a_major, UMMA::Major b_major,
          UMMA::ScaleIn a_neg = UMMA::ScaleIn::One, UMMA::ScaleIn b_neg = UMMA::ScaleIn::One>
struct SM100_MMA_F16BF16_SS_SPARSE
{
  static_assert(M == 64 || M == 128, "toy: M is 64 or 128");
  static_assert((N % 8 == 0) && (8 <= N) && (N <= 256), "toy: N steps by 8");
  CUTE_HOST_DEVICE static void
  fma(uint64_t const& desc_a, uint64_t const& desc_b, uint32_t const& tmem_c, uint32_t const& scaleC,
      uint64_t const& idescE, uint32_t const& tmem_e)
  {
    asm volatile("{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %4, 0;\\n\\t"
                 "tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, [%5], %3, p;\\n\\t}\\n"
                 :: "r"(tmem_c), "l"(desc_a), "l"(desc_b), "r"(uint32_t(idescE>>32)), "r"(scaleC), "r"(tmem_e));
  }
};
}
"""
_TOY_TRAITS = """#pragma once
#include <cute/arch/mma_sm100_sp_toy.hpp>
namespace cute {
template <class MMAOperation, class... MMAOpArgs>
struct MMA_Traits
{
  static_assert(sizeof(MMAOperation) == 0, "MMA_Traits not implemented for this MMA_Operation.");
};
template <class a_type, class b_type, class c_type, int M, int N, UMMA::Major a_major, UMMA::Major b_major,
          UMMA::ScaleIn a_neg, UMMA::ScaleIn b_neg, class... sparse_args>
struct MMA_Traits<SM100_MMA_F16BF16_SS_SPARSE<a_type, b_type, c_type, M, N, a_major, b_major, a_neg, b_neg>,
                  sparse_args...>
{
  using ValTypeD = c_type;
  using ValTypeA = sparse_elem<2, a_type>;
  using ValTypeE = sparse_elem<8, uint8_t>;
  using ValTypeB = b_type;
  using ValTypeC = c_type;
  static constexpr int K = KNUM / cute::sizeof_bits<a_type>::value;
  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_1>;
  using ALayout = Layout<Shape <_1,Shape <Int<M>,Int<K>>>, Stride<_0,Stride<_1,Int<M>>>>;
  using BLayout = Layout<Shape <_1,Shape <Int<N>,Int<K>>>, Stride<_0,Stride<_1,Int<N>>>>;
  using CLayout = Layout<Shape <_1,Shape <Int<M>,Int<N>>>, Stride<_0,Stride<_1,Int<M>>>>;
};
}
"""


def _import_toy(tmp_path: Path, k_bits: int) -> Spec:
    include = tmp_path / f"k{k_bits}" / "include"
    (include / "cute" / "arch").mkdir(parents=True)
    (include / "cute" / "atom").mkdir()
    (include / "cute" / "arch" / "mma_sm100_sp_toy.hpp").write_text(_TOY_ARCH)
    (include / "cute" / "atom" / "mma_traits_sm100_sp_toy.hpp").write_text(_TOY_TRAITS.replace("KNUM", str(k_bits)))
    out = tmp_path / f"k{k_bits}" / "out"
    report = import_cutlass(include, out)
    assert not report.failures, report.text()
    return load_spec(out / "sm100_sp_toy.yaml", allow_outside=True)


NAME = "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128>"


def test_import_reads_the_sparse_traits_with_their_pack_empty(tmp_path):
    """MMA_Traits<Op<...>, sparse_args...> is CuTe's MMA_Atom<Op> with the pack empty: one atom per instance, A
    stored as its logical type, ValTypeE read, the instruction the Op's asm; each atom's check proved.  Traits whose
    K is the dense one (256 / bits) are refuted by theorem 2 against Table 39's sparse K."""
    s = _import_toy(tmp_path, 512)
    atom = s.mma_atoms[NAME]
    assert atom.instruction == "tcgen05.mma.sp.cta_group::1.kind::f16" and atom.shape_mnk == (128, 128, 32)
    assert (atom.types["a"].name, atom.types["e"].name, atom.types["e"].bits) == ("half_t", "sparse_elem<8,uint8_t>",
                                                                                 1)
    assert atom.a == parse_layout("(1,(128,32)):(0,(1,128))") and atom.e is None
    assert len(s.mma_atoms) == 24 and atom.source.startswith("include/cute/atom/mma_traits_sm100_sp_toy.hpp")
    assert prove_check(s, s.checks[NAME], Settings()).verdict is Verdict.VERIFIED
    dense_k = _import_toy(tmp_path, 256)
    r = prove_check(dense_k, dense_k.checks[NAME], Settings())
    assert r.verdict is Verdict.REFUTED
    assert {t.id: t.status for t in r.theorems}[T.MMA_MATCHES_INSTRUCTION] is Status.REFUTED


# --- the prescreen ------------------------------------------------------------------------------------------------

@pytest.fixture
def sparse_generator_only(monkeypatch):
    """CUTLASS's GenerateSM100 with only its sparse generators at work (the others made no-ops): the SM100 space's
    SparseUniversal3x kernels, as the whole generator emits them, in milliseconds."""
    from cutlass_library import generator
    for name in dir(generator):
        if name.startswith(("GenerateSM100_", "GenerateSM103_")) and not name.startswith(
                "GenerateSM100_SparseTensorOp"):
            monkeypatch.setattr(generator, name, lambda *args, **kwargs: None)


def test_the_64_sparse_kernels_map_to_their_three_paths(sparse_generator_only):
    configs = command.kernels(100, "")
    assert len(configs) == 64 and {k.kind for k in configs} == {"SparseUniversal3x"}
    mapped = [builders.map_sm100(k) for k in configs]
    assert all(isinstance(m, builders.Mapped) for m in mapped), [m for m in mapped if isinstance(m, builders.Unmapped)]
    paths = set()
    for kc, m in zip(configs, mapped):
        assert isinstance(m, builders.Mapped)
        assert [c.operand for c in m.checks] == ["A", "B", "E"]
        e = dict(m.checks[2].entries)
        ctas = PS.SCHEDULES[kc.schedule]
        n = kc.tile[1]
        assert e["copy"] == SS.UTCCP_OPS[ctas] and int(e["tile_k"]) == kc.tile[2]
        assert int(e["tmem_base"]) == (2 * n if n <= 224 else 504)
        assert m.checks[0].mma.name.startswith("SM100_MMA_") and "_SS_SPARSE<" in m.checks[0].mma.name
        assert ("_2x1SM_" in m.checks[0].mma.name) == (ctas == 2)
        paths.update(m.checks)
    assert len(paths) == 48


@pytest.mark.parametrize("change, words", [
    ({"opcode": "TensorOp"}, "not built by the SM100 sparse collective builder"),
    ({"layout_a": "ColumnMajor"}, "MN-major operand"),
    ({"element_b": "e4m3"}, "no tcgen05.mma.sp kind"),
    ({"align_a": 4}, "16 bytes aligned"),
    ({"tile": (128, 128, 32)}, "2/4 kphase"),
    ({"tile": (64, 128, 64)}, "2/4 kphase"),
    ({"schedule": "TmaWarpSpecialized1SmSm100"}, "not one of the sparse UMMA builder's"),
])
def test_kernels_outside_the_builder_are_not_mapped_with_a_reason(change, words):
    m = builders.map_sm100(replace(kernel(CONFIGS[0]), **change))
    assert isinstance(m, builders.Unmapped) and words in m.reason, m


def test_the_mapped_paths_are_proved_and_a_wrong_rule_refuted(monkeypatch, tmp_path):
    space = [replace(kernel(c), name=c["config"]) for c in (CONFIGS[0], CONFIGS[6], CONFIGS[9])]
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    results, mapped, paths, _ = command.run(100, "", 1, tmp_path)
    # f16 and s8 proved; tf32 unsupported at theorem 28 only (JAX's Mosaic GPU, the read layout's source, has none)
    assert mapped == 3 and paths == (9, 9)
    by_name = {r.name: r for r in results}          # (a report lists a space's kernels by name)
    assert [by_name[k.name].verdict for k in space] == [Verdict.VERIFIED, Verdict.UNSUPPORTED, Verdict.VERIFIED]
    for r in results:
        statuses = {t.id: t.status for t in r.theorems}
        assert statuses[T.SPARSE_METADATA_TMEM] is Status.PROVED and statuses[T.SPARSE_METADATA_TMA] is Status.PROVED
        unproved = [t.id for t in r.theorems if t.status is not Status.PROVED]
        assert unproved == ([T.SPARSE_METADATA_READ] if r.verdict is Verdict.UNSUPPORTED else []), unproved
    # E placed two columns before the end of tensor memory: its four columns do not fit
    monkeypatch.setattr(PS, "accumulator_columns", lambda n: PS.TMEM_COLUMNS - 2)
    results, _, _, _ = command.run(100, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.REFUTED] * 3
    assert all({t.id: t.status for t in r.theorems}[T.SPARSE_METADATA_TMEM] is Status.REFUTED for r in results)
