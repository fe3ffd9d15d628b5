"""`prove --suggest`: every documented mistake gets the smallest nearby configuration that every theorem proves
(or the reason none exists within the search), and a suggestion is itself proved, never guessed."""
import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.outcome import Verdict
from verifier.specfile import load_spec
from verifier.suggest import suggest
from verifier.symbolic.decide import Settings
from verifier.engine.runner import run_check

ROOT = Path(__file__).parent.parent
MISTAKES = load_spec(ROOT / "specs" / "mistakes.yaml")
# documented mistakes whose fix lies outside the search (none of its one- or two-field changes is verified)
# no neighbour is verified: ldmatrix .trans has no 8-bit form; CUTLASS #3089's layout needs a K-row stride inside
# the layout changed (4 -> 8), which is not among the neighbours the search varies
NO_SUGGESTION = {"ldsm_t_on_8bit_mn_major", "umma_128b_base32b_layout_from_the_make_umma_desc_comment",
                 # families: the fix is the stage stride of every member, or the pitch's domain, neither a field
                 # the search changes in every member alike (the copy atom, the value type, an atom's layout)
                 "family_stage_stride_written_for_128_rows", "family_padded_pitch_multiple_of_4",
                 # the SF tile's TMEM column follows the accumulators' columns, which the scale check does not hold
                 "sfb_past_tensor_memory",
                 # E's TMEM column follows the accumulator stages', which the metadata check does not hold either
                 "sparse_metadata_after_two_n256_accumulator_stages",
                 # the group size is the problem's (CUTLASS's can_implement refuses it), not a field of the layouts
                 "mixed_input_scale_group_smaller_than_the_k_tile",
                 # the fix is the tables' element type (cutlass::Array<float_e4m3_t, 8>): the search tries scalar
                 # value types only
                 "mixed_input_lookup_tables_of_the_other_8_bit_float",
                 # 216 scales a stage and all 32 lanes below ScaleNsPerTile writing: no copy of the warp covers 216
                 # slots exactly (32 x values x calls); the fix is CUTLASS's predicate, or a tile of 32k N-scales
                 "sfb_blockwise_scales_overrun_their_stage"}


@lru_cache(maxsize=None)
def suggestion(name):
    return suggest(MISTAKES, MISTAKES.checks[name], Settings())


@pytest.mark.parametrize("name", list(MISTAKES.checks))
def test_every_documented_mistake_gets_a_proved_suggestion_or_a_reason(name):
    s = suggestion(name)
    if name in NO_SUGGESTION:
        assert not s.changes and s.reason and s.tried > 0
        assert s.lines()[0].startswith("no suggestion:")
        return
    assert s.changes and 1 <= len(s.changes) <= 2
    # the suggested configuration is proved again, with the other procedure cross-checking every obligation
    again = run_check(s.spec, s.check, Settings(cross_check=True))
    assert again.verdict is Verdict.VERIFIED
    lines = s.lines()
    assert lines[0].startswith("suggestion (every theorem proved")
    assert any(line.startswith("  spec -") for line in lines) and any(line.startswith("  C++") for line in lines)


@pytest.mark.parametrize("name, field, new", [
    ("n_atom_on_mn_major_smem", "copy", "SM75_U16x8_LDSM_T"),        # x4 N on MN-major smem: x4 T
    ("t_atom_on_k_major_smem", "copy", "SM75_U32x4_LDSM_N"),
    ("stsm_n_on_col_major_c", "copy", "SM90_U16x8_STSM_T"),
    ("swizzle_splits_16B_rows", "smem", "Sw<3,3,3> o _0 o ((_8,_16),(_32,_1)):((_32,_256),(_1,_0))"),
    ("value_type_tf32_on_half_mma", "value_type", "half_t"),
    ("copy_b_used_for_a", "copy_for", "(removed)"),
    ("mutated_alayout_stride", "a of MMA atom SM80_16x8x16_F32F16F16F32_TN_MUTATED_A",
     "((4,8),(2,2,2)):((32,1),(16,8,128))"),                          # the PTX ISA's fragment, CUTLASS's ALayout
    ("int4_blayout_before_pr3140", "b of MMA atom SM80_16x8x32_S32S4S4S32_TN_BEFORE_PR3140", "((4,8),8):((64,1),8)"),
    ("emmy_200_buffer_relative_swizzle", "smem_align", "1024"),
    ("tilelang_2593_hardwired_descriptor_stride", "descriptor", "(removed)"),
    ("kmajor_atom_under_mn_descriptor", "mma", "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"),
    # the transposed tile: the K-major atom of the MN-major tile's swizzle (gmma_smem_transpose_or_passthrough), in
    # the MN-major tile's own order (CUTLASS's TMA mainloop tiles both K first)
    ("tf32_b_transposed_into_the_wrong_swizzle", "gmma_smem",
     "tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>, (64,32,4), (2,1,3))"),
    ("tf32_b_transposed_across_warps", "gmma_smem",
     "tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>, (64,32,4), (2,1,3))"),
])
def test_the_suggestion_is_the_fix_a_kernel_author_would_make(name, field, new):
    (change,) = suggestion(name).changes
    assert (change.field, change.new) == (field, new)


def test_prove_suggest_reports_and_keeps_the_verdicts():
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", "specs/mistakes.yaml", "specs/sm80_f16.yaml",
                        "--suggest", "--no-cache", "--format", "json", "--check", "n_atom_on_mn_major_smem",
                        "--check", "ldsm_x4_a_kmajor"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    checks = {c["check"]: c for c in json.loads(p.stdout)["checks"]}
    assert checks["n_atom_on_mn_major_smem"]["verdict"] == "refuted"        # a suggestion changes no verdict
    assert "SM75_U16x8_LDSM_T" in checks["n_atom_on_mn_major_smem"]["suggestion"][0]
    assert checks["ldsm_x4_a_kmajor"]["suggestion"] is None                 # verified: nothing to suggest


# --- refusals explained -------------------------------------------------------------------------------------

REFUSALS = load_spec(ROOT / "tests" / "specs" / "refusals.yaml", allow_outside=True)


@pytest.mark.parametrize("name, words", [
    ("swizzle_not_pow2_stride", ["shape*stride is a power of two", "8*24", "a row pitch (stride) that is a power"]),
    ("perm_indivisible", ["neither size divides the other (shape 3 vs 2)", "a whole number of the tiled MMA's tile"]),
])
def test_a_refusal_says_what_cute_refused_with_its_numbers_and_the_kind_of_fix(name, words):
    r = run_check(REFUSALS, REFUSALS.checks[name], Settings())
    refused = [t for t in r.theorems if t.status.value == "refused"]
    assert refused and all(w in refused[0].items[0].note for w in words)


def test_a_refusal_is_said_once_in_the_text_report():
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", "tests/specs/refusals.yaml", "--allow-outside",
                        "--no-cache", "--check", "swizzle_not_pow2_stride", "--suggest"],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.count("Requires pow2 shape*stride.\n") == 1
    assert "theorems 5, 6, 7, 8, 9, 10, 12: refused by CuTe for the same reason" in p.stdout
    assert "suggestion (every theorem proved" in p.stdout and "(_16,_16):(_16,_1)" in p.stdout


@pytest.mark.parametrize("name, new", [("tile_not_multiple", "(_32,_16):(_16,_1)"),
                                       ("swizzle_not_pow2_stride", "(_16,_16):(_16,_1)")])
def test_a_tile_that_is_not_a_whole_number_of_mma_tiles_is_resized(name, new):
    s = suggest(REFUSALS, REFUSALS.checks[name], Settings())
    assert [(c.field, c.new) for c in s.changes] == [("smem", new)]
    assert run_check(s.spec, s.check, Settings(cross_check=True)).verdict is Verdict.VERIFIED


def test_the_rules_cover_what_the_catalog_is_refused_for():
    from verifier.theorems.refusal_rules import explain
    r = run_check(MISTAKES, MISTAKES.checks["ldsm_t_on_32bit_tf32"], Settings())
    item = next(t for t in r.theorems if t.status.value == "refused").items[0]
    assert explain(item.reason, "") and "whole values of the value type" in item.note
    assert explain("some rule nobody wrote", "1") == ""
