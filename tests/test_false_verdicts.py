"""False verdicts found by the hidden campaigns, each closed with the configuration that showed it:
- an SM80 tiled check whose shared layout carries a stage mode was refuted for its rank: every stage is proved;
- `reduction: K` on a tiled MMA without a K split was refuted with no witness: it is bad input;
- a Hopper buffer of 233,472 bytes (228 KiB) was verified: a block may use 232,448;
- a store tiled by make_tiled_copy_C_atom (its tiler's modes layouts) was refuted at theorem 4 while every element
  lands where the MMA expects it: its TV layout names coordinates of the tiler's domain, now mapped to the tile's
  (the unmodified CuTe DSL GeForce dense_gemm's epilogue)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from test_audit_crashes import SEED_CHECK
from verifier.engine.runner import run_check
from verifier.outcome import Status, Verdict
from verifier.specfile import SpecError, load_spec
from verifier.symbolic.decide import Settings
from verifier.theorems.catalog import TheoremId as T

ROOT = Path(__file__).parent.parent
STAGED = load_spec(ROOT / "tests" / "specs" / "staged_tiles.yaml", allow_outside=True)
ATOMS = (ROOT / "specs" / "atoms").as_posix()


@lru_cache(maxsize=None)
def staged(name: str):
    return run_check(STAGED, STAGED.checks[name], Settings(cross_check=True))


def test_the_tutorials_staged_tile_is_verified_for_every_stage():
    r = staged("tutorial_stages")
    assert r.verdict is Verdict.VERIFIED, [(t.id, t.status, t.reason) for t in r.theorems]
    titles = [i.title for t in r.theorems if t.id is T.SMEM_INJECTIVE for i in t.items]
    assert any("128x64x3" in x for x in titles) and any("every stage is the first stage moved" in x for x in titles)


@pytest.mark.parametrize("name, title", [
    ("stage_overlap", "distinct (coordinate, stage) of the 128x64x3 tile"),
    ("stage_swizzle_breaks", "every stage is the first stage moved by its own offset"),
    ("stage_unaligned_start", "every stage begins at a multiple of the tile's base alignment (16 bytes)")])
def test_a_broken_stage_mode_is_refuted_with_a_witness(name: str, title: str):
    r = staged(name)
    tr = next(t for t in r.theorems if t.id is T.SMEM_INJECTIVE)
    assert tr.status is Status.REFUTED
    item = tr.first_failure()
    assert item.title.startswith(title) and item.witness is not None and item.witness.suspect is not None
    assert r.ok                                                     # documented with `expect: fail`


def test_a_rank_four_tile_is_bad_input(tmp_path: Path):
    spec = tmp_path / "r4.yaml"
    spec.write_text(SEED_CHECK.format(smem="(16,16,2,2):(16,1,256,512)"), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert "not rank 4" in e.value.message and (e.value.loc.line, e.value.loc.column) == (10, 11)


def test_a_k_reduction_without_a_k_split_is_bad_input_not_a_refutation(tmp_path: Path):
    spec = tmp_path / "reduction.yaml"
    spec.write_text(f"""version: 2
name: reduction
include: ["{ATOMS}/sm80_f16.yaml", "{ATOMS}/generic.yaml"]
checks:
  c:
    mma: SM80_16x8x16_F16F16F16F16_TN
    atom_layout: [2, 2, 1]
    operand: C
    copy: "UniversalCopy<uint32_t>"
    value_type: half_t
    smem: "(32,16):(16,1)"
    reduction: K
""", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert "nothing to reduce" in e.value.message and e.value.loc.line == 12


@pytest.mark.parametrize("stages, verdict", [(227, Verdict.VERIFIED), (228, Verdict.REFUTED)])
def test_a_hopper_buffer_fits_the_232448_bytes_a_block_may_use(tmp_path: Path, stages: int, verdict: Verdict):
    """8x64 half_t stages of 1,024 bytes: 227 of them are 232,448 bytes (fits), 228 are 233,472 (does not)."""
    spec = tmp_path / "capacity.yaml"
    spec.write_text(f"""version: 2
name: capacity
include: ["{ATOMS}/sm90_gmma.yaml"]
checks:
  b:
    mma: "SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    operand: B
    copy: SM90_TMA_LOAD
    value_type: half_t
    smem: "tile_to_shape(GMMA::Layout_K_INTER_Atom<half_t>, (8,64,{stages}))"
    gmem: "(4096,4096):(4096,1)"
""", encoding="utf-8")
    loaded = load_spec(spec, allow_outside=True)
    r = run_check(loaded, loaded.checks["b"], Settings())
    assert r.verdict is verdict
    fits = [i for t in r.theorems if t.id is T.TMA_ENCODABLE for i in t.items
            if i.title == "the buffer fits shared memory"]
    assert fits and fits[0].status is (Status.PROVED if verdict is Verdict.VERIFIED else Status.REFUTED)
    from verifier.hardware.shared_memory import BLOCK_SHARED_BYTES
    from verifier.prescreen.builders import SM90_SMEM_BYTES
    assert BLOCK_SHARED_BYTES[90] == SM90_SMEM_BYTES == 232448          # one constant, theorems and prescreen


TILERS = load_spec(ROOT / "tests" / "specs" / "tiler_layouts.yaml", allow_outside=True)


@pytest.mark.parametrize("name, verdict", [("c_atom_store", Verdict.VERIFIED),
                                           ("c_atom_store_columns_reordered", Verdict.REFUTED),
                                           ("c_atom_store_rows_in_order", Verdict.REFUTED)])
def test_a_tiler_of_layouts_maps_the_copy_s_coordinates_to_the_tile(name: str, verdict: Verdict):
    r = run_check(TILERS, TILERS.checks[name])
    assert r.verdict is verdict and r.ok, [(t.id, t.status, t.reason) for t in r.theorems]
    theorem_4 = next(t for t in r.theorems if t.id is T.COPY_DST_MATCHES_MMA)
    assert theorem_4.status is (Status.PROVED if verdict is Verdict.VERIFIED else Status.REFUTED)
