"""Descriptor-read MMA operands (wgmma / tcgen05.mma `_SS`) whose shared tile the threads write through its own
layout (cp.async, CuTe's cooperative copy) instead of TMA: the smem_mma kind runs the atom's theorems, 9 (the tile
is injective), 12 (the copy's value type and that it writes shared memory) and 15 (the descriptor reads what the
layout says); TMA's theorems 13, 14 and 16 do not apply (tests/specs/through_layout.yaml)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.engine.runner import run_check
from verifier.kinds.registry import kind_of
from verifier.outcome import Status, Verdict
from verifier.specfile import SpecError, load_spec
from verifier.symbolic.decide import Settings
from verifier.theorems.catalog import TheoremId as T

SPEC = Path(__file__).parent / "specs" / "through_layout.yaml"
CASES = load_spec(SPEC, allow_outside=True)
ATOM_THEOREMS = (T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES)
THROUGH_LAYOUT = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.GMMA_DESCRIPTOR)
GOOD = ("good_cp_async_a_k_sw128", "good_cp_async_b_mn_sw64", "good_relative_swizzle_aligned",
        "good_cooperative_copy_umma_b")
BAD = {"bad_relative_swizzle_unaligned": T.GMMA_DESCRIPTOR, "bad_swizzle_on_the_wrong_unit": T.GMMA_DESCRIPTOR,
       "bad_ldmatrix_fills_nothing": T.COPY_VALUE_TYPE, "bad_stages_overlap": T.SMEM_INJECTIVE,
       "bad_value_type": T.COPY_VALUE_TYPE}


@lru_cache(maxsize=None)
def result(name: str):
    return run_check(CASES, CASES.checks[name], Settings(cross_check=True))


@pytest.mark.parametrize("name", GOOD)
def test_a_tile_written_through_its_layout_is_verified_by_the_descriptor_theorems(name: str):
    check = CASES.checks[name]
    assert kind_of(check).name == "gmma"
    r = result(name)
    assert {t.id for t in r.theorems} == set(ATOM_THEOREMS + THROUGH_LAYOUT)
    assert r.verdict is Verdict.VERIFIED, [(t.id, t.status, t.reason) for t in r.theorems]


def test_the_descriptor_claims_are_cross_checked_by_enumeration():
    """Each descriptor claim of at most 2**22 points is decided a second time by enumeration, proved and refuted."""
    seen = set()
    for name in GOOD + tuple(BAD):
        for t in result(name).theorems:
            for i in t.items:
                if t.id is T.GMMA_DESCRIPTOR and i.procedure is not None and i.procedure.value != "evaluation" \
                        and i.domain_size <= 1 << 22:
                    assert i.cross_check is not None and i.cross_check.status is i.status, name
                    seen.add((name, i.status))
    assert ("bad_relative_swizzle_unaligned", Status.REFUTED) in seen and len(seen) >= 4


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_broken_tile_or_copy_is_refuted_with_a_witness(name: str):
    r = result(name)
    tr = next(t for t in r.theorems if t.id is BAD[name])
    assert tr.status is Status.REFUTED, (tr.status, tr.reason)
    w = tr.first_failure().witness
    assert w is not None and w.suspect is not None and not w.description_error
    assert r.verdict is Verdict.REFUTED and r.ok            # `expect: fail`: refuted as documented


def test_the_ldmatrix_copy_is_named_as_what_loads_registers():
    w = next(t for t in result("bad_ldmatrix_fills_nothing").theorems if t.id is T.COPY_VALUE_TYPE).first_failure()
    assert "load copy (into registers)" in str(w.witness.actual)
    assert w.witness.suspect.what.startswith("the copy SM75_U32x4_LDSM_N") and w.witness.suspect.loc.line == 71


def test_an_unaligned_offset_swizzle_is_refuted_at_a_base_the_alignment_allows():
    item = next(t for t in result("bad_relative_swizzle_unaligned").theorems
                if t.id is T.GMMA_DESCRIPTOR).first_failure()
    assert item.witness.point["base"] % 2 != 0       # a 512-byte multiple that is no 1024-byte multiple


def test_a_register_operand_stays_a_tiled_check(tmp_path: Path):
    """A of an RS wgmma lives in registers: its ldmatrix is a tiled check, as before."""
    spec = tmp_path / "rs.yaml"
    spec.write_text(f"""version: 2
name: rs
include: ["{(SPEC.parent.parent.parent / 'specs' / 'atoms' / 'sm90_gmma.yaml').as_posix()}",
          "{(SPEC.parent.parent.parent / 'specs' / 'atoms' / 'sm75.yaml').as_posix()}"]
checks:
  a:
    mma: "SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>"
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(64,16):(16,1)"
""", encoding="utf-8")
    loaded = load_spec(spec, allow_outside=True)
    assert kind_of(loaded.checks["a"]).name == "tiled"


def test_gmem_without_tma_is_one_line_with_its_place(tmp_path: Path):
    atoms = (SPEC.parent.parent.parent / "specs" / "atoms").as_posix()
    text = SPEC.read_text(encoding="utf-8").replace("../../specs/atoms", atoms).replace(
        '    smem: "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64,2))"\n',
        '    smem: "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64,2))"\n    gmem: "(64,64):(64,1)"\n', 1)
    bad = tmp_path / "gmem.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(bad, allow_outside=True)
    assert "is only read when the copy is SM90_TMA_LOAD" in str(e.value)
    assert (e.value.loc.line, e.value.loc.column) == (17, 5)


def test_explain_traces_an_element_through_the_layout_and_the_descriptor(capsys: pytest.CaptureFixture[str]):
    code = main(["explain", str(SPEC), "--allow-outside", "--check", "good_cp_async_a_k_sw128", "--coord", "9,37",
                 "--stage", "1", "--base", "1024"])
    out = capsys.readouterr().out
    assert code == 0
    assert "writes element (m=9, k=37) through the tile's layout" in out
    assert "the byte the layout gives it" in out and "NOT" not in out
