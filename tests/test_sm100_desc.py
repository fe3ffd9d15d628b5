"""Blackwell's tcgen05.mma shared-memory descriptor (verifier/hardware/umma_desc.py), CuTe's make_umma_desc
(verifier/cute/umma.py) and the descriptor / TMA theorems on UMMA checks (tests/specs/sm100_umma_desc.yaml).

No Blackwell GPU exists here: the byte tables below are derived by hand from the PTX ISA (9.7.16.4.1 "Shared Memory
Descriptor", 9.7.16.3 "Major-ness supported by Strides"), and where tcgen05 shares wgmma's layouts the model must
agree with gmma_desc.py, which an H200 validated (test_hw_gmma_desc.py).
"""
from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.swizzle import Swizzle
from verifier.algebra.syntax import ParseError
from verifier.hardware import gmma_desc as GD
from verifier.hardware import umma_desc as UD
from verifier.hardware.gmma_desc import GmmaSwizzle, Major
from verifier.hardware.umma_desc import LeadingMode, UmmaDescriptor, UmmaLayoutType
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check
from verifier.kinds.smem_mma.setup import Sm90Setup, build_sm90

T = TheoremId
SPEC = load_spec(Path(__file__).parent / "specs" / "sm100_umma_desc.yaml")
PTX_DESCRIPTOR = "PTX ISA 9.7.16.4.1"       # tcgen05 Shared Memory Descriptor
PTX_STRIDES = "PTX ISA 9.7.16.3.1"          # tcgen05 Leading Dimension Stride, relative offset mode
BASES = (0x0, 0x80, 0x380, 0x1400)          # on and off the 256 / 512 / 1024-byte swizzle repeats
L = UmmaLayoutType


# --- the encoding (PTX ISA 9.7.16.4.1, Table "Shared memory descriptor layout") --------------------------------

def test_fields_sit_at_the_bits_the_ptx_isa_gives():
    d = UmmaDescriptor(start=0x400, lbo=16, sbo=1024, base_offset=3, layout=L.B128)
    word = d.encode()
    assert word & 0x3FFF == 0x400 >> 4                    # 0-13 start >> 4
    assert (word >> 16) & 0x3FFF == 1                     # 16-29 LBO >> 4
    assert (word >> 32) & 0x3FFF == 1024 >> 4             # 32-45 SBO >> 4
    assert (word >> 46) & 0b111 == 0b001                  # 46-48 fixed 0b001
    assert (word >> 49) & 0b111 == 3                      # 49-51 base offset
    assert (word >> 52) & 1 == 0                          # 52 leading-dimension mode: relative
    assert (word >> 53) & 0xFF == 0                       # 53-60 fixed zero
    assert word >> 61 == 2                                # 61-63 layout type: 128B = 2
    assert UmmaDescriptor.decode(word) == d and UD.word_problem(word) is None


@pytest.mark.parametrize("layout,code", [(L.NONE, 0), (L.B128_BASE32B, 1), (L.B128, 2), (L.B64, 4), (L.B32, 6)])
def test_layout_type_codes(layout, code):
    assert int(layout) == code
    word = UmmaDescriptor(0, 16, 16, layout=layout).encode()
    assert word >> 61 == code and UmmaDescriptor.decode(word).layout is layout


@pytest.mark.parametrize("code", [3, 5, 7])
def test_invalid_layout_codes_are_refused(code):
    word = UmmaDescriptor(0, 16, 16).encode() | (code << 61)
    assert "invalid" in UD.word_problem(word)
    with pytest.raises(ValueError):
        UmmaDescriptor.decode(word)


def test_what_the_ptx_isa_forbids():
    ok = UmmaDescriptor(0x400, 16, 1024, layout=L.B128)
    assert ok.field_problem(Major.K) is None
    assert "multiple of 16" in dataclasses.replace(ok, sbo=1000).field_problem()
    assert "14 bits" in dataclasses.replace(ok, lbo=1 << 18).field_problem()
    assert "256 KiB" in dataclasses.replace(ok, start=1 << 18).field_problem()
    assert "0b001" in dataclasses.replace(ok, version=0).field_problem()
    assert "sm_103a" in dataclasses.replace(ok, lbo_mode=LeadingMode.ABSOLUTE).field_problem()
    assert "MN-major" in dataclasses.replace(ok, layout=L.B128_BASE32B).field_problem(Major.K)
    assert "reserved" in UD.word_problem(ok.encode() | (1 << 14))
    assert "0b001" in UD.word_problem(ok.encode() & ~(1 << 46))


def test_version_field_width_ptx_three_bits_cute_two():
    """Disagreement (PTX ISA 9.7.16.4.1): the PTX ISA's fixed field is bits 46-48 = 0b001 (three bits); CuTe's
    SmemDescriptor declares `version_ : 2` at bits 46-47 and leaves bit 48 as padding.  CuTe sets version_ = 1, so
    the words agree: bit 46 set, bits 47 and 48 clear."""
    word = UmmaDescriptor(0, 16, 16).encode()
    cute_version_2_bits = (word >> 46) & 0b11
    ptx_fixed_3_bits = (word >> 46) & 0b111
    assert cute_version_2_bits == 1 and ptx_fixed_3_bits == 0b001 and not (word >> 48) & 1


# --- the bytes read: hand tables from the PTX ISA ------------------------------------------------------------

def _offsets(d: UmmaDescriptor, major: Major, e: int, points: list[tuple[int, int]]) -> list[int]:
    return [UD.read_address(d, major, mn, k, e) - d.start for mn, k in points]


def test_k_major_128b_f16():
    """Rows of 128 bytes, K contiguous; row r's 16-byte chunk c lands at chunk c ^ (r mod 8); 8-row groups at SBO."""
    d = UmmaDescriptor(0x400, 16, 1024, layout=L.B128)
    pts = [(0, 0), (1, 0), (0, 8), (1, 8), (8, 0), (7, 15)]
    #          row 1: 128 + (0^1)*16; chunk 1 of row 0; chunk 1^1 of row 1; SBO; row 7 chunk 1^7 = 6, +14 bytes
    assert _offsets(d, Major.K, 2, pts) == [0, 144, 16, 128, 1024, 7 * 128 + 6 * 16 + 14]


def test_k_major_32b_s8():
    """Rows of 32 bytes; the phase is address bit 7, so rows 4-7 swap their two 16-byte chunks."""
    d = UmmaDescriptor(0, 16, 256, layout=L.B32)
    assert _offsets(d, Major.K, 1, [(1, 0), (4, 0), (4, 16), (8, 0)]) == [32, 144, 128, 256]


def test_k_major_no_swizzle_f16():
    """8 rows x 16 bytes core matrices: rows 16 bytes apart, the second 16-byte K chunk at LBO, 8-row groups at SBO."""
    d = UmmaDescriptor(0, lbo=256, sbo=128)
    assert _offsets(d, Major.K, 2, [(1, 0), (0, 8), (8, 0), (1, 9)]) == [16, 256, 128, 16 + 256 + 2]


def test_mn_major_64b_and_none_trade_lbo_and_sbo():
    """PTX ISA 9.7.16.3.1: MN-major swizzled, LBO steps between span-wide M/N blocks; unswizzled, between 8-row K
    blocks (SBO the other way round)."""
    sw = UmmaDescriptor(1024, lbo=1024, sbo=512, layout=L.B64)
    assert _offsets(sw, Major.MN, 2, [(32, 0), (0, 8)]) == [1024, 512]
    none = UmmaDescriptor(1024, lbo=128, sbo=256)
    assert _offsets(none, Major.MN, 2, [(8, 0), (0, 8), (0, 1)]) == [256, 128, 16]


def test_mn_major_128b_base32b_f16():
    """128 bytes of M/N per K row, 4 K rows per atom; 32-byte chunk c of row r lands at chunk c ^ (r mod 4);
    128-byte M/N blocks at LBO, 4-row K groups at SBO.  A 16-byte half of a chunk stays with its other half."""
    d = UmmaDescriptor(0x800, lbo=512, sbo=1024, layout=L.B128_BASE32B)
    pts = [(0, 0), (8, 0), (16, 0), (0, 1), (16, 1), (0, 2), (0, 3), (64, 0), (0, 4)]
    assert _offsets(d, Major.MN, 2, pts) == [0, 16, 32, 128 + 32, 128, 256 + 64, 384 + 96, 512, 1024]


def test_base_offset_re_anchors_the_32b_pattern():
    """A start one 128-byte row into the 512-byte pattern: base offset 0 XORs row 0 with phase 1, base offset 1
    (PTX ISA 9.7.16.4.1: (pattern start >> 7) & 7) reads it unswizzled."""
    off = UmmaDescriptor(0x880, lbo=512, sbo=1024, layout=L.B128_BASE32B)
    on = dataclasses.replace(off, base_offset=1)
    assert UD.read_address(off, Major.MN, 0, 0, 2) == 0x880 + 32
    assert UD.read_address(on, Major.MN, 0, 0, 2) == 0x880


SHARED = [L.NONE, L.B32, L.B64, L.B128]


@pytest.mark.parametrize("layout", SHARED, ids=[x.label for x in SHARED])
def test_agrees_with_the_validated_wgmma_model(layout):
    """Where tcgen05 and wgmma share a layout, the same fields read the same bytes (gmma_desc.py, H200-validated)."""
    assert layout.gmma is not None and L.of_gmma(layout.gmma) is layout
    for start, base_offset, major, e in itertools.product((0, 0x80, 0x480, 0x1380), (0, 1, 5), Major, (1, 2, 4)):
        u = UmmaDescriptor(start, lbo=2048, sbo=512, base_offset=base_offset, layout=layout)
        g = GD.Descriptor(start, 2048, 512, base_offset, layout.gmma)
        rows, cols = 16, 32 // e
        assert UD.operand_reads(u, major, rows, cols, e) == GD.operand_reads(g, major, rows, cols, e)


def test_base32b_has_no_wgmma_twin():
    assert L.B128_BASE32B.gmma is None and L.B128_BASE32B.repeat == 512 and L.B128_BASE32B.chunk_bytes == 32
    assert [x.repeat for x in SHARED] == [0, 256, 512, 1024] and GmmaSwizzle.B128.repeat == L.B128.repeat


# --- CuTe's side -----------------------------------------------------------------------------------------------

def test_cute_sw128_32b_atom():
    """UMMA::Layout_MN_SW128_32B_Atom<half_t>: Sw<2,5,2> o smem_ptr[16b] o (64,4):(1,64) (bits (1024,4):(1,1024))."""
    atom = parse_layout("UMMA::Layout_MN_SW128_32B_Atom<half_t>")
    assert (atom.a.B, atom.a.M, atom.a.S) == (2, 5, 2)
    assert atom.b.shape == (64, 4) and atom.b.stride == (1, 64)
    assert str(parse_layout("UMMA::Layout_K_SW128_Atom<half_t>")) == str(parse_layout("GMMA::Layout_K_SW128_Atom"
                                                                                         "<half_t>"))
    with pytest.raises(ParseError):   # CuTe defines no K-major 32-byte-atomic atom
        parse_layout("UMMA::Layout_K_SW128_32B_Atom<half_t>")


def _setup(name: str) -> Sm90Setup:
    check = SPEC.checks[name]
    return build_sm90(check, SPEC.mma_atoms[check.mma])


def test_make_umma_desc_fields():
    s = _setup("f16_mnmajor_sw128_32b_a")
    assert s.umma and s.descriptor == UmmaDescriptor(0, lbo=8192, sbo=512, layout=L.B128_BASE32B)   # K atoms first
    s = _setup("f16_kmajor_SW128_a")
    assert s.descriptor == UmmaDescriptor(0, lbo=16, sbo=1024, layout=L.B128) and s.engine == "tcgen05.mma"
    s = _setup("f16_2sm_kmajor_sw128_b")
    assert (s.cta_group, s.rows, s.k_instr) == (2, 128, 16)     # each CTA reads N/2 = 128 of the 256 rows
    s = _setup("s8_mnmajor_sw128_b")
    assert (s.major, s.k_instr, s.descriptor.layout) == (Major.MN, 32, L.B128)


# --- the theorems on the specs ---------------------------------------------------------------------------------

DESCRIPTOR_AND_TMA = (T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END)
VERIFIED = [n for n, c in SPEC.checks.items() if c.expect == "pass"]
BASE32B = ["f16_mnmajor_sw128_32b_a", "issue_3089_stride_8"]
# documented mistakes make_umma_desc itself refuses (its static_assert), the rest refuted by the descriptor model
REFUSED = {"issue_3089_comment_stride_4": "Not a canonical UMMA_MN Layout: Expected stride failure.",
           "kmajor_atom_under_mn_umma": "Not a canonical UMMA_MN Layout: Expected stride failure."}
REFUTED = [n for n, c in SPEC.checks.items() if c.expect == "fail" and n not in REFUSED]


def _statuses(name: str) -> dict[TheoremId, Status]:
    return {t.id: t.status for t in run_check(SPEC, SPEC.checks[name]).theorems}


def test_the_spec_covers_the_brief():
    names = " ".join(SPEC.checks)
    for part in ("kmajor", "mnmajor", "SW128", "SW64", "SW32", "INTER", "sw128_32b", "s8", "2sm", "3089"):
        assert part in names
    assert {(c.operand, _setup(n).major) for n, c in SPEC.checks.items() if c.expect == "pass"} == {
        ("A", Major.K), ("A", Major.MN), ("B", Major.K), ("B", Major.MN)}


@pytest.mark.parametrize("name", VERIFIED)
def test_verified(name):
    st = _statuses(name)
    assert all(st[t] is Status.PROVED for t in DESCRIPTOR_AND_TMA + (T.SMEM_INJECTIVE,)), st


@pytest.mark.parametrize("name", BASE32B)
def test_base32b_tiles_are_proved_through_the_32_byte_atom_tma_swizzle(name):
    """TMA fills a 128B_BASE32B tile with CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (Swizzle<2,5,2> on bytes)."""
    from verifier.hardware.tma import TmaSwizzle
    assert _setup(name).tensor_map.swizzle is TmaSwizzle.B128_ATOM_32B
    st = _statuses(name)
    assert all(st[t] is Status.PROVED for t in DESCRIPTOR_AND_TMA + (T.SMEM_INJECTIVE,)), st


def test_the_32_byte_atom_tma_swizzle_moves_32_byte_chunks_within_128_bytes():
    from verifier.hardware.tma import TmaSwizzle, swizzle_address
    s = TmaSwizzle.B128_ATOM_32B
    assert (s.span, s.bits, s.chunk_shift, s.repeat) == (128, 2, 5, 512)
    assert [swizzle_address(s, 128 * row) for row in range(5)] == [0, 128 + 32, 256 + 64, 384 + 96, 512]
    assert swizzle_address(s, 128 + 16) == 128 + 32 + 16          # 16-byte halves of a chunk stay together


@pytest.mark.parametrize("name", REFUTED)
def test_mistakes_are_refuted_with_a_counterexample(name):
    r = run_check(SPEC, SPEC.checks[name])
    assert r.verdict is Verdict.REFUTED
    desc = next(t for t in r.theorems if t.id is T.GMMA_DESCRIPTOR)
    assert desc.status is Status.REFUTED
    assert {t.id: t.status for t in r.theorems}[T.GMMA_END_TO_END] is Status.REFUTED   # the data path too
    w = desc.first_failure().witness
    assert w.actual != w.expected and w.chain


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_tile_make_umma_desc_refuses_is_refused_with_its_rule(name):
    r = run_check(SPEC, SPEC.checks[name])
    assert r.verdict is Verdict.REFUTED and r.ok                       # `expect: fail`
    statuses = {t.id: t for t in r.theorems}
    for tid in (T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END):
        assert statuses[tid].status is Status.REFUSED and REFUSED[name] in statuses[tid].reason, tid


def _simulated_descriptor_holds(s: Sm90Setup, base: int) -> bool:
    """Every slice, read through its descriptor encoded to 64 bits and decoded back, against CuTe's layout on ints
    (its swizzle as the spec's layout writes it, in elements, moved to bytes: not the prover's own tile swizzle)."""
    e = s.elem_bytes
    element_swizzle = getattr(s.check.smem, "a", None)
    sw = (Swizzle(element_swizzle.B, element_swizzle.M + e.bit_length() - 1, element_swizzle.S)
          if isinstance(element_swizzle, Swizzle) else Swizzle(0, 4, 3))
    ok = True
    for stage, w, kb in itertools.product(range(s.stages), range(s.slices[0]), range(s.slices[1])):
        origin = (w * s.rows, kb * s.k_instr) + ((stage,) if s.tile.inner.rank() > 2 else ())
        word = dataclasses.replace(s.descriptor, start=base + int(s.tile.inner(origin)) * e).encode()
        for i, j, addr in UD.operand_reads(UmmaDescriptor.decode(word), s.major, s.rows, s.k_instr, e):
            coord = (w * s.rows + i, kb * s.k_instr + j) + ((stage,) if s.tile.inner.rank() > 2 else ())
            ok &= addr == int(sw(base + int(s.tile.inner(coord)) * e))
    return ok


SIMULATED = ["f16_kmajor_SW32_b", "f16_mnmajor_INTER_a", "s8_mnmajor_sw128_b", "f16_mnmajor_sw128_32b_a",
             "f16_2sm_kmajor_sw128_a", "descriptor_layout_type_64b_on_sw128_tile",
             "issue_3089_comment_stride_4_own_descriptor"]


@pytest.mark.parametrize("name", SIMULATED)
def test_prover_agrees_with_simulating_the_descriptor(name):
    s = _setup(name)
    seen = all(_simulated_descriptor_holds(s, base) for base in BASES)
    assert seen is (SPEC.checks[name].expect == "pass")        # the simulation sees each documented mistake
    assert _statuses(name)[T.GMMA_DESCRIPTOR] is (Status.PROVED if seen else Status.REFUTED)


# --- CUTLASS #3089: the MN-major 128B_BASE32B canonical layout ----------------------------------------------------

def test_issue_3089_ptx_supports_a_k_row_stride_of_8():
    """Disagreement (PTX ISA 9.7.16.4.1 and 9.7.16.3.1) with make_umma_desc's comment, which gives the MN-major
    128B_BASE32B canonical layout in uint128_t as Sw<2,5,2> o ((8,n),(4,k)):((1,LBO),(4,SBO)).  The PTX ISA's layout
    type 1 is a 128-byte swizzle (with 32-byte atomicity): each K row of the atom spans 128 bytes of M/N, 8 uint128_t
    (9.7.16.3.1 defines the swizzled MN-major LBO as the stride between successive swizzle-byte-size/16 = 8-unit
    blocks along M/N), so the next K row starts 8 uint128_t later, the stride the reporter asks for and the one
    CuTe's code asserts (expected_stride_10 = SwizzleAtomMNSize = 8).  A K-row stride of 4 overlaps the rows: the
    layout is not even injective, and the descriptor reads K row 1 128 bytes after row 0, not 64 (read through
    make_umma_desc's fields, which make_umma_desc itself refuses to build for this layout)."""
    wrong, right = _statuses("issue_3089_comment_stride_4"), _statuses("issue_3089_stride_8")
    assert wrong[T.SMEM_INJECTIVE] is Status.REFUTED and wrong[T.GMMA_DESCRIPTOR] is Status.REFUSED
    assert right[T.SMEM_INJECTIVE] is Status.PROVED and right[T.GMMA_DESCRIPTOR] is Status.PROVED
    own = _statuses("issue_3089_comment_stride_4_own_descriptor")
    assert own[T.SMEM_INJECTIVE] is Status.REFUTED and own[T.GMMA_DESCRIPTOR] is Status.REFUTED
    r = run_check(SPEC, SPEC.checks["issue_3089_comment_stride_4_own_descriptor"])
    w = next(t for t in r.theorems if t.id is T.GMMA_DESCRIPTOR).first_failure().witness
    assert w.point == {"base": 0, "k_block": 0, "m": 0, "k": 1}
    # read: row 1 at 0x80, its 32-byte chunk 0 XOR phase 1; the layout: 32 halves (64 bytes) in
    assert (int(w.actual), int(w.expected)) == (0xA0, 0x40)
    # the right layout is CuTe's own atom tiled along M/N then K
    assert str(SPEC.checks["issue_3089_stride_8"].smem.b) == "((_8,_8,_2),(_4,_16)):((_1,_8,_256),(_64,_512))"


def test_an_mn_major_tf32_tile_on_16_byte_atoms_is_neither_verified_nor_refuted(tmp_path):
    """CUTLASS allows only the 32-byte-atomic layout for MN-major tf32; the PTX text read here does not settle what
    tcgen05.mma reads from a 16-byte-atomic one: the descriptor theorems say unsupported, never verified."""
    root = Path(__file__).parent.parent
    f = tmp_path / "tf32.yaml"
    f.write_text(f"""version: 2
name: tf32
include: ["{(root / 'specs' / 'atoms' / 'sm100_umma.yaml').as_posix()}"]
checks:
  sw128_16b: {{mma: "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128>", major: MN, operand: A,
              copy: SM90_TMA_LOAD, value_type: tfloat32_t, gmem: "(4096,4096):(1,4096)",
              smem: "tile_to_shape(UMMA::Layout_MN_SW128_Atom<tfloat32_t>, (128,32,2), (2,1,3))"}}
  sw128_32b: {{mma: "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128>", major: MN, operand: A,
              copy: SM90_TMA_LOAD, value_type: tfloat32_t, gmem: "(4096,4096):(1,4096)",
              smem: "tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>, (128,32,2), (2,1,3))"}}
  partial_16b: {{mma: "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,128>", major: MN, operand: A,
                copy: SM90_TMA_LOAD, value_type: tfloat32_t, gmem: "(4096,4096):(1,4096)",
                smem: "tile_to_shape(UMMA::Layout_MN_SW128_Atom<tfloat32_t>, (96,32,2), (2,1,3))"}}
""")
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["sw128_16b"])
    assert r.verdict is Verdict.UNSUPPORTED
    st = {t.id: t.status for t in r.theorems}
    assert st[T.GMMA_DESCRIPTOR] is Status.UNSUPPORTED and st[T.GMMA_END_TO_END] is Status.UNSUPPORTED
    assert run_check(spec, spec.checks["sw128_32b"]).verdict is Verdict.VERIFIED
    # what is settled still refutes: 96 rows are no whole number of the 128-row instruction slices
    partial = run_check(spec, spec.checks["partial_16b"])
    assert partial.verdict is Verdict.REFUTED
    assert {t.id: t.status for t in partial.theorems}[T.GMMA_DESCRIPTOR] is Status.REFUTED
