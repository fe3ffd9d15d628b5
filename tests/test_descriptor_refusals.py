"""CuTe's descriptor builders (make_gmma_desc, make_umma_desc) refuse a tile that is not one of their canonical
forms, or whose swizzle their layout_type does not take; make_tma_copy refuses a swizzle it cannot encode.  Such a
configuration does not compile, so the smem_mma theorems that read what the builder would make say *refused* with
CuTe's message, never refuted or verified.

tests/data/cute_descriptor_refusals.txt is what nvcc said of each check of tests/specs/descriptor_refusals.yaml
(tools/cute_dump/descriptor_refusals.cu builds each one's fragment with CuTe 4.2's headers): "compiles", or the
builder's first static_assert in source order."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.cute.gmma import COMPOSED_RULE, K_ROWS, CanonicalForm, canonical_refusal, descriptor_slice, gmma_form
from verifier.engine.runner import run_check
from verifier.hardware.smem_operand import GmmaSwizzle, Major
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.theorems.catalog import TheoremId as T

HERE = Path(__file__).parent
SPEC = load_spec(HERE / "specs" / "descriptor_refusals.yaml")
CUTE_SAID = HERE / "data" / "cute_descriptor_refusals.txt"
LINE = re.compile(r"^(?P<name>\w+) (?:(?P<compiles>compiles)|refused: (?P<message>.+))$")
STATIC_ASSERT = re.compile(r'^static assertion failed with "(?P<text>.*)"$')
QUALIFIED = re.compile(r'"(?:\w+::)+(\w+)"')          # nvcc names a template with its namespaces


def _cute_said() -> dict[str, str | None]:
    """Check name -> CuTe's message (None: it compiles)."""
    said: dict[str, str | None] = {}
    for line in CUTE_SAID.read_text().splitlines():
        m = LINE.match(line)
        assert m is not None, line
        message = m["message"]
        if message is not None:
            quoted = STATIC_ASSERT.match(message)
            message = quoted["text"] if quoted else QUALIFIED.sub(r'"\1"', message)
        said[m["name"]] = message
    return said


SAID = _cute_said()
UTCCP = "utccp_"           # a tcgen05.cp source's make_umma_desc<K> (descriptor_refusals.cu's UTCCP_CASES)
CUTE = {name: said for name, said in SAID.items() if not name.startswith(UTCCP)}
# the tcgen05.cp sources nvcc was given: get_utccp_smem_desc_tensor's (rows, 16 bytes) byte layout
UTCCP_SOURCES = {"utccp_sparse_cute": "(128,16):(16,1)",
                 "utccp_sparse_row_major_atom": "((8,2,8),(2,2,4)):((16,2,256),(1,128,4))",
                 "utccp_sf_cute": "(32,16):(16,1)",
                 "utccp_sf_rows_uneven": "((16,2),16):((16,1024),1)"}


@lru_cache(maxsize=None)
def _theorems(name: str) -> dict[T, tuple[Status, str]]:
    r = run_check(SPEC, SPEC.checks[name])
    assert r.ok, (name, r.verdict)                      # each check's `expect` is what CuTe said
    return {t.id: (t.status, t.reason) for t in r.theorems}


def test_the_data_names_every_check_once():
    assert sorted(CUTE) == sorted(SPEC.checks)
    assert {None} < set(CUTE.values()) and len({m for m in CUTE.values() if m}) >= 6


@pytest.mark.parametrize("name", sorted(CUTE))
def test_the_descriptor_theorems_say_what_cute_said(name: str):
    """Theorem 15 reads what the descriptor builder makes: refused with CuTe's message where nvcc stops, decided
    where it compiles; theorem 16 reads it too (and make_tma_copy's boxes: either refusal may come first)."""
    said, theorems = CUTE[name], _theorems(name)
    for tid in (T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END):
        status, reason = theorems[tid]
        if said is None:                                 # CuTe builds it: the theorem is decided, not refused
            assert status is not Status.REFUSED, (tid, reason)
        else:
            assert status is Status.REFUSED, (tid, status, reason, said)
    if said is not None:
        assert theorems[T.GMMA_DESCRIPTOR][1].endswith(said), (theorems[T.GMMA_DESCRIPTOR], said)


def test_a_configuration_cute_builds_is_verified_and_one_it_refuses_is_not():
    built = [n for n, m in CUTE.items() if m is None]
    refused = [n for n, m in CUTE.items() if m is not None]
    for name in built:
        assert run_check(SPEC, SPEC.checks[name]).verdict is Verdict.VERIFIED, name
    for name in refused:
        assert run_check(SPEC, SPEC.checks[name]).verdict is Verdict.REFUTED, name


def test_make_tma_copy_refuses_the_swizzles_it_cannot_encode():
    """A swizzle no tensor map has, and a plain composition's element-unit swizzle, are make_tma_copy's refusals
    (theorems 13 and 14), as they are the descriptor builder's; a given 'tma_box' and 'descriptor' (a kernel's own
    tensor map and descriptor) are not CuTe's, and the plain composition is then proved or refuted on what it does
    (tests/specs/theorem_cases.yaml's bad_relative_swizzle_unaligned)."""
    for name in ("gmma_swizzle_s4_b", "gmma_plain_composition_b"):
        theorems = _theorems(name)
        for tid in (T.TMA_ENCODABLE, T.TMA_PLACEMENT):
            assert theorems[tid][0] is Status.REFUSED and "Unsupported layout swizzle." in theorems[tid][1]
    assert COMPOSED_RULE in _theorems("gmma_plain_composition_b")[T.GMMA_DESCRIPTOR][1]
    assert _theorems("gmma_k_sw128_b")[T.TMA_ENCODABLE][0] is Status.PROVED


# --- the canonical forms on CuTe's own layout atoms ---------------------------------------------------------------

SWIZZLE = {"INTER": GmmaSwizzle.NONE, "SW32": GmmaSwizzle.B32, "SW64": GmmaSwizzle.B64, "SW128": GmmaSwizzle.B128}
ATOMS = tuple(SWIZZLE)
TYPES = (("half_t", 16), ("float_e4m3_t", 8), ("tfloat32_t", 32))


@pytest.mark.parametrize("atom", ATOMS)
@pytest.mark.parametrize("type_name,bits", TYPES)
def test_every_gmma_layout_atom_is_canonical_for_its_major_only(atom: str, type_name: str, bits: int):
    """GMMA::Layout_{K,MN}_*_Atom<T> tiled to 128 x 128 elements, read by an instruction's slice (64 rows, 256 bits
    of K), is the canonical form of its own major-ness (make_gmma_desc builds it) and not of the other one's (a
    static_assert)."""
    k = 256 // bits
    for major, order in ((Major.K, ""), (Major.MN, ", (2,1)")):
        layout = parse_layout(f"tile_to_shape(GMMA::Layout_{major.value}_{atom}_Atom<{type_name}>, (128,128){order})")
        block = descriptor_slice(layout, 64, k)
        other = Major.MN if major is Major.K else Major.K
        assert canonical_refusal(block, bits, gmma_form(major, SWIZZLE[atom], bits)) is None, (major, atom)
        refused = canonical_refusal(block, bits, gmma_form(other, SWIZZLE[atom], bits))
        assert refused is not None and refused[0].startswith(f"Not a canonical GMMA_{other.value} Layout"), refused


def test_the_interleaved_form_leaves_its_free_stride_unasserted():
    """The interleaved MN-major form ((1,n),(8,k)) asserts no stride of its (1, n) mode (make_gmma_desc's
    expected_stride_00 is the layout's own) but 8 K rows 16 bytes apart: 8 x 8 core matrices placed anywhere along
    MN are canonical, K rows 32 bytes apart are refused, and the 128-byte form refuses the interleaved tile."""
    form = CanonicalForm("GMMA", Major.MN, 1, K_ROWS, (16,))
    for placed in ("((8,8),(8,2)):((1,64),(8,512))", "((8,8),(8,2)):((1,128),(8,1024))"):
        assert canonical_refusal(parse_layout(placed), 16, form) is None, placed
    refused = canonical_refusal(parse_layout("((8,8),(8,2)):((1,64),(16,1024))"), 16, form)
    assert refused is not None and refused[0].endswith("Expected stride failure."), refused
    swizzled = gmma_form(Major.MN, GmmaSwizzle.B128, 16)
    assert canonical_refusal(parse_layout("(64,16):(1,64)"), 16, swizzled) is None            # 128-byte K rows
    assert canonical_refusal(parse_layout("((8,8),(8,2)):((1,64),(8,512))"), 16, swizzled) is not None


@pytest.mark.parametrize("name", sorted(UTCCP_SOURCES))
def test_a_tcgen05_cp_source_is_refused_as_make_umma_desc_refuses_it(name: str):
    """utccp_source_refusal (cute/umma.py: CuTe's with_shape of the copy's value mode, then make_umma_desc<K>'s
    asserts) against nvcc on the same byte layouts: CUTLASS's sparse E and SFA sources compile, and so does 16-bit
    A's E laid out with the 8-bit atom (the recast folds its 2-byte runs: refuted by the theorems, not refused);
    SF rows whose core matrices are unevenly spaced fail the profile assert."""
    from verifier.cute.umma import utccp_source_refusal
    layout = parse_layout(UTCCP_SOURCES[name])
    rows = int(layout.mode(0).size())
    refused = utccp_source_refusal(layout, rows, 16)
    said = SAID[name]
    assert (refused is None) is (said is None), (refused, said)
    assert refused is None or refused[0] == said
