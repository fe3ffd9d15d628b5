"""Every theorem proves a correct configuration and refutes a broken one (tests/specs/theorem_cases.yaml), each
decision cross-checked by exhaustive enumeration; the refutations carry their witnesses and suspects."""
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.symbolic.decide import Settings
from verifier.theorems.catalog import ALL, BY_ID, THEOREMS, TheoremId
from verifier.engine.runner import run_check

# which theorems each kind of check runs (the kinds say it in verifier/kinds/*/kind.py; written here as the
# README's table states it, so that a kind that drops or adds a theorem is caught)
TILED = tuple(t.id for t in THEOREMS if t.number <= 12)
TILED_C_STORE = TILED + (TheoremId.C_OWNERSHIP,)
TMEM = (TheoremId.COPY_ROUTING, TheoremId.TMEM_COPY, TheoremId.TMEM_LANE_ACCESS, TheoremId.TMEM_ALLOCATION)
TMEM_STORE = TMEM + (TheoremId.TMEM_STORE,)
GMMA = (TheoremId.MMA_BIJECTIVE, TheoremId.MMA_MATCHES_INSTRUCTION, TheoremId.SMEM_INJECTIVE, TheoremId.MMA_TYPES,
        TheoremId.COPY_VALUE_TYPE, TheoremId.TMA_ENCODABLE, TheoremId.TMA_PLACEMENT, TheoremId.GMMA_DESCRIPTOR,
        TheoremId.GMMA_END_TO_END)

SPECS = Path(__file__).parent / "specs"
CASES = load_spec(SPECS / "theorem_cases.yaml", allow_outside=True)
CROSS = Settings(cross_check=True)
T = TheoremId


@lru_cache(maxsize=None)
def result(name):
    return run_check(CASES, CASES.checks[name], CROSS)


def theorem(name, tid):
    return next(t for t in result(name).theorems if t.id is tid)


def status(name):
    return {t.id: t.status for t in result(name).theorems}


# theorem -> (a correct check that proves it, a broken check that refutes it)
PAIRS = {
    T.MMA_BIJECTIVE: ("good_mma_atom", "bad_int4_b_pr3140"),
    T.MMA_MATCHES_INSTRUCTION: ("good_seed", "bad_mutated_alayout"),
    T.COPY_ROUTING: ("good_copy_atom", "bad_swapped_n_t"),
    T.COPY_DST_MATCHES_MMA: ("good_seed", "bad_copy_b_for_a"),
    T.COPY_SRC_MATCHES_DST: ("good_store_c_stsm", "bad_swapped_n_t"),
    T.COPY_ADDRESSING: ("good_seed", "bad_pitch_40_bytes"),
    T.FRAGMENT_ALIASING: ("good_store_c_stsm", "bad_copy_b_for_a"),
    T.END_TO_END: ("good_seed", "bad_mutated_alayout"),
    T.SMEM_INJECTIVE: ("good_seed", "bad_smem_aliasing_rows"),
    T.SMEM_IN_BOUNDS: ("good_store_c_stsm", "bad_smem_tile_too_small"),
    T.MMA_TYPES: ("good_mma_atom", "bad_mma_types"),
    T.COPY_VALUE_TYPE: ("good_seed", "bad_value_type_on_a"),
    T.TMA_ENCODABLE: ("good_gmma_b_n8_sw32", "bad_tma_box_wider_than_span"),
    T.TMA_PLACEMENT: ("good_gmma_b_n8_sw32", "bad_relative_swizzle_unaligned"),
    T.GMMA_DESCRIPTOR: ("good_gmma_b_n8", "bad_descriptor_strides_swapped"),
    T.GMMA_END_TO_END: ("good_gmma_b_n8_sw32", "bad_descriptor_strides_swapped"),
    T.SMEM_BANK_CONFLICTS: ("good_banks_swizzled", "bad_banks_unswizzled"),
    T.C_OWNERSHIP: ("good_store_c_stsm", "bad_c_store_k_split"),
    T.TMEM_COPY: ("good_tmem_load_128x64", "bad_tmem_m64_four_warps"),
    T.TMEM_LANE_ACCESS: ("good_tmem_load_128x64", "bad_tmem_m64_four_warps"),
    T.TMEM_ALLOCATION: ("good_tmem_load_128x64", "bad_tmem_alloc_96"),
    T.TMEM_STORE: ("good_tmem_load_then_stsm", "bad_tmem_stsm_rows_unaligned"),
    T.BUFFER_AGREEMENT: ("good_buffer_cp_async_to_ldmatrix", "bad_buffer_reader_without_the_swizzle"),
    T.SCALE_TMA: ("good_scale_sfa_mxf8f6f4", "bad_scale_stages_overlap"),
    T.SCALE_COPY: ("good_scale_sfa_mxf8f6f4", "bad_scale_shared_rows_out_of_order"),
    T.SCALE_READ: ("good_scale_sfa_mxf8f6f4", "bad_scale_tmem_rows_along_columns"),
    T.SPARSE_METADATA_TMA: ("good_sparse_metadata_f16", "bad_sparse_metadata_stages_overlap"),
    T.SPARSE_METADATA_READ: ("good_sparse_metadata_f16", "bad_sparse_metadata_rows_swapped"),
    T.SPARSE_METADATA_TMEM: ("good_sparse_metadata_tmem_f16", "bad_sparse_metadata_tmem_past_512"),
    T.BLOCKWISE_LOAD: ("good_blockwise_sfa_sm90", "bad_blockwise_64_thread_copy"),
    T.BLOCKWISE_READ: ("good_blockwise_sfa_sm90", "bad_blockwise_read_through_a_broken_accumulator_layout"),
    T.GMMA_TRANSPOSE: ("good_transpose_b_tf32", "bad_transpose_b_wrong_swizzle"),
    T.MIXED_SCALE_LOAD: ("good_mixed_scale", "bad_mixed_scale_stages_overlap"),
    T.MIXED_SCALE_READ: ("good_mixed_scale", "bad_mixed_scale_group_smaller_than_tile"),
    T.TMEM_ACCUMULATOR: ("good_tmem_accumulator_ws_m64", "bad_tmem_accumulator_ws_given_layout_f"),
    T.MIXED_SHUFFLED_A: ("good_shuffled_a_s4", "bad_shuffled_a_s8_converter"),
    T.THREAD_SLICE: ("good_slice_tmem_load_epilogue_warps", "bad_slice_tmem_load_every_thread_slice_0"),
    T.TMEM_ACCUMULATOR_STAGES: ("good_tmem_accumulator_two_stages", "bad_tmem_accumulator_load_stage_0"),
    T.EPILOGUE_SUBTILES: ("good_epilogue_subtiles", "bad_epilogue_subtiles_reversed"),
    T.EPILOGUE_STORE_PIPELINE: ("good_epilogue_store_pipeline", "bad_epilogue_store_pipeline_two_left_reading"),
    T.TMA_TRANSACTION_BYTES: ("good_transaction_bytes", "bad_transaction_bytes_a_only"),
    T.EPILOGUE_SUBTILE_ORDER: ("good_subtile_order", "bad_subtile_order_other_stage"),
    T.ELEMENTWISE_COORDINATES: ("good_elementwise_add", "bad_elementwise_b_tile_shifted"),
    T.GEMM_THREAD_PRODUCTS: ("good_thread_gemm", "bad_thread_gemm_a_by_columns"),
    T.GEMM_SHARED_FILL: ("good_thread_gemm", "bad_thread_gemm_b_of_another_block"),
    T.GEMM_K_TILE_LOOP: ("good_thread_gemm", "bad_thread_gemm_k_loop_one_short"),
}


def test_every_theorem_has_a_pair():
    assert sorted(PAIRS) == sorted(ALL)


@pytest.mark.parametrize("tid", ALL)
def test_theorem_proves_a_correct_configuration(tid):
    good, _ = PAIRS[tid]
    assert status(good)[tid] is Status.PROVED


@pytest.mark.parametrize("tid", ALL)
def test_theorem_refutes_a_broken_configuration(tid):
    _, bad = PAIRS[tid]
    tr = theorem(bad, tid)
    assert tr.status is Status.REFUTED, (tr.status, tr.reason)
    item = tr.first_failure()
    w = item.witness
    assert w is not None and w.suspect is not None and w.suspect.what
    assert w.point or (w.actual is not None and w.expected is not None)
    assert w.failing is None or w.failing > 0
    assert not w.description_error
    r = result(bad)
    assert r.verdict is Verdict.REFUTED and r.ok


def test_good_configurations_are_verified_by_all_their_theorems():
    for name, ids in (("good_seed", TILED), ("good_store_c_stsm", TILED_C_STORE), ("good_gmma_b_n8", GMMA),
                      ("good_gmma_b_n8_sw32", GMMA), ("good_tmem_load_128x64", TMEM),
                      ("good_tmem_load_then_stsm", TMEM_STORE)):
        r = result(name)
        assert [t.id for t in r.theorems] == sorted(ids, key=lambda t: BY_ID[t].number)
        assert r.verdict is Verdict.VERIFIED, [(t.id, t.status, t.reason) for t in r.theorems]


def test_hopper_claims_are_cross_checked_by_enumeration():
    """The N = 8 Hopper cases are small enough that enumeration decides every claim a second time."""
    for name in ("good_gmma_b_n8", "good_gmma_b_n8_sw32", "bad_relative_swizzle_unaligned",
                 "bad_descriptor_strides_swapped"):
        for t in result(name).theorems:
            if t.id in (T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END) and t.status is not Status.REFUSED:
                claims = [i for i in t.items if i.procedure is not None and i.procedure.value != "evaluation"
                          and i.domain_size <= 1 << 22]    # (the pairwise distinctness claims are larger)
                assert claims and all(i.cross_check is not None and i.cross_check.status is i.status
                                      for i in claims), (name, t.id)


def test_cross_check_agrees_on_every_obligation():
    """Each obligation of at most 2**22 points is decided again by enumeration, with the same answer."""
    seen = 0
    for name in CASES.checks:
        for t in result(name).theorems:
            for item in t.items:
                cc = item.cross_check
                if cc is not None and cc.status is not None:
                    seen += 1
                    assert cc.status is item.status, (name, t.id, item.title)
    assert seen > 50


def test_int4_b_layout_bug_names_an_unreached_offset():
    """CUTLASS's int4 BLayout before PR #3140 (stride 32 where 64 is right) never reaches 96 of 256 B offsets."""
    item = theorem("bad_int4_b_pr3140", T.MMA_BIJECTIVE).first_failure()
    assert "96 of 256 coordinates are never reached" in item.note
    assert item.witness.point == {"coordinate": 160} and item.witness.failing == 96


def test_unreached_counts_the_offsets_a_layout_never_takes():
    """(4,2):(1,8) on a 16-offset tile takes 0-3 and 8-11: eight are missed, 4 first; a compact layout misses none,
    and asking again (the memo) gives the same answer."""
    from verifier.algebra.layout import Layout
    from verifier.kinds.atom.theorems import unreached
    holes = Layout((4, 2), (1, 8))
    assert unreached(holes, 16) == (8, 4)
    assert unreached(Layout((4, 2), (1, 8)), 16) == (8, 4)
    assert unreached(Layout((4, 4), (1, 4)), 16) == (0, -1)
    assert unreached(Layout((4, 4), (1, 4)), 17) == (1, 16)


def test_aliasing_rows_name_both_coordinates():
    """(16,16):(8,1): rows overlap (A(0,9) and A(1,1) are one element); the smallest witness is A(1,0) = A(0,8)."""
    item = theorem("bad_smem_aliasing_rows", T.SMEM_INJECTIVE).first_failure()
    assert item.witness.point == {"m": 1, "k": 0, "m2": 0, "k2": 8}
    assert item.witness.actual == item.witness.expected == "8"
    assert "smem" in str(item.witness.suspect.loc) or item.witness.suspect.loc is not None


@pytest.mark.parametrize("name", ["bad_smem_tile_too_small", "bad_two_warps_on_one_warp_tile"])
def test_a_tile_smaller_than_the_tiled_mma_is_refuted(name):
    tr = theorem(name, T.SMEM_IN_BOUNDS)
    assert tr.status is Status.REFUTED
    fact = tr.items[0]
    assert fact.status is Status.REFUTED and "whole number" in fact.title
    claim = next(i for i in tr.items if i.procedure.value != "evaluation")     # Z3 or enumeration
    assert claim.status is Status.REFUTED and claim.witness.values["row"] >= 8


def test_types_are_compared_with_the_instruction():
    item = theorem("bad_mma_types", T.MMA_TYPES).first_failure()
    assert item.witness.actual.startswith("float") and item.witness.expected == ".f16"


def test_store_pitch_breaks_stmatrix_rows():
    assert status("bad_store_pitch")[T.COPY_ADDRESSING] is Status.REFUTED


def test_mutated_layout_is_invisible_to_the_copy_theorems():
    """A wrong ALayout propagates into the copy built from it: only the instruction sees the error."""
    st = status("bad_mutated_alayout")
    assert st[T.MMA_MATCHES_INSTRUCTION] is Status.REFUTED and st[T.END_TO_END] is Status.REFUTED
    for tid in (T.COPY_ROUTING, T.COPY_DST_MATCHES_MMA, T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING,
                T.FRAGMENT_ALIASING, T.SMEM_INJECTIVE, T.SMEM_IN_BOUNDS):
        assert st[tid] is Status.PROVED


def test_end_to_end_blames_the_atom_layout_when_the_copy_delivered_what_it_asked():
    w = theorem("bad_mutated_alayout", T.END_TO_END).first_failure().witness
    atom = CASES.mma_atoms["SM80_16x8x16_F16_TN_MUTATED_A"]
    assert w.suspect.loc == atom.field_locs["a"] and "the instruction reads something else" in w.suspect.what
    assert w.chain and w.chain[0].label == "MMA"


def test_atom_only_report_blames_the_failing_operand():
    item = theorem("bad_mutated_clayout_atom", T.MMA_MATCHES_INSTRUCTION).first_failure()
    assert "the C layout" in item.witness.suspect.what
    atom = CASES.mma_atoms["SM80_16x8x16_F16_TN_MUTATED_C"]
    assert item.witness.suspect.loc == atom.field_locs["c"]
